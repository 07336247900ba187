#!/usr/bin/env python3
"""Writes the two sample runs the plot tests draw (tests/bench_plot):

h100-2026-11-24/  REAL measurements, trimmed: the launch and allocation
                  benchmarks of bench/results/2026-11-24-h100 (all three
                  launch passes, both memory passes), its peers.json and
                  gpu.txt, with only the fields the plots read. Nothing is
                  changed; the test checks every number against the source.

synthetic/        MADE-UP data in the shapes no committed run has yet: the
                  copy sweep (bench_copy_sweep.json), the peers' sweep
                  (peers.json with CuPy, PyTorch and cuda.core copies) and the
                  queue's round trips (bench_queue.json), from simple models
                  loosely shaped like the H100 figures. Every file says it is
                  synthetic, and every plot drawn from one says so in red:
                  they test the script and are never shown as measurements.

  python3 bench/plot/sample/make_samples.py     (rewrites both folders)
"""
import json
import math
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SOURCE = os.path.join("bench", "results", "2026-11-24-h100")
REAL = os.path.join(HERE, "h100-2026-11-24")
SYNTHETIC = os.path.join(HERE, "synthetic")
SYNTHETIC_NOTE = ("synthetic sample for the plot tests (bench/plot/sample/make_samples.py): "
                  "modelled numbers, not a measurement")

CONTEXT_KEYS = ("date_utc", "device", "driver", "driver_library", "nvrtc", "num_cpus", "mhz_per_cpu")
ENTRY_KEYS = ("name", "run_type", "iterations", "error_occurred", "error_message")
COUNTERS = ("dc_ns", "raw_ns", "dc_us", "raw_us", "dc_GB/s", "raw_GB/s", "samples")


def write_json(path, data):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


# -- the trimmed real run -------------------------------------------------------

def trim(name, keep):
    """The benchmarks of SOURCE/name whose name starts with one of `keep`,
    with the context keys and fields the plots read."""
    with open(os.path.join(ROOT, SOURCE, name), encoding="utf-8") as f:
        data = json.load(f)
    context = {k: data["context"][k] for k in CONTEXT_KEYS if k in data["context"]}
    context["trimmed_from"] = f"{SOURCE}/{name} (real measurements; only the fields the plots read)"
    benchmarks = []
    for entry in data["benchmarks"]:
        if entry["name"].startswith(keep):
            benchmarks.append({k: entry[k] for k in ENTRY_KEYS + COUNTERS if k in entry})
    return {"context": context, "benchmarks": benchmarks}


def write_real():
    shutil.rmtree(REAL, ignore_errors=True)
    os.makedirs(REAL)
    launches = ("BM_EmptyEnqueue/", "BM_EmptyOneShot/", "BM_FourArgsEnqueue/", "BM_FourArgsOneShot/")
    for name in ("bench_launch.json", "bench_launch-pass2.json", "bench_launch-pass3.json"):
        write_json(os.path.join(REAL, name), trim(name, launches))
    for name in ("bench_memory.json", "bench_memory-pass2.json"):
        write_json(os.path.join(REAL, name), trim(name, ("BM_AllocFree/", "BM_AllocFreeNoPool/")))
    for name in ("peers.json", "gpu.txt"):
        shutil.copyfile(os.path.join(ROOT, SOURCE, name), os.path.join(REAL, name))


# -- the synthetic run ----------------------------------------------------------

SIZES = [4096 << (4 * i) for i in range(5)] + [1 << 30]  # 4 KiB, 64 KiB, 1 MiB, 16 MiB, 256 MiB, 1 GiB

# (latency us, bandwidth GB/s) per copy kind: a copy of S bytes takes
# latency + S / bandwidth. Loosely the H100 run's figures; made up.
MODEL = {
    "dccuda": {"H2D_Pinned": (7.8, 55), "D2H_Pinned": (7.0, 54), "H2D_Pageable": (10.7, 38), "D2H_Pageable": (9.7, 38)},
    "raw": {"H2D_Pinned": (7.6, 55), "D2H_Pinned": (7.0, 54), "H2D_Pageable": (6.0, 7.8), "D2H_Pageable": (9.4, 9.4)},
    "cupy": {"H2D_Pinned": (10.7, 53), "D2H_Pinned": (11.0, 54), "H2D_Pageable": (10.6, 8.0), "D2H_Pageable": (13.0, 10.6)},
    "torch": {"H2D_Pinned": (9.0, 54), "D2H_Pinned": (9.5, 54), "H2D_Pageable": (12.0, 8.5), "D2H_Pageable": (12.5, 10.0)},
    "cuda.core": {"H2D_Pinned": (8.5, 54), "D2H_Pinned": (8.2, 54), "H2D_Pageable": (9.0, 7.9), "D2H_Pageable": (10.0, 9.6)},
}


def model_us(library, kind, size):
    latency, gbps = MODEL[library][kind]
    return latency + size / (gbps * 1e3)


def sweep_pairs(size):
    return max(10, min(300, (4 << 30) // size))


def write_synthetic_sweep():
    benchmarks = []
    for kind in ("H2D_Pinned", "H2D_Pageable", "D2H_Pinned", "D2H_Pageable"):
        for size in SIZES:
            dc, raw = model_us("dccuda", kind, size), model_us("raw", kind, size)
            pairs = sweep_pairs(size)
            benchmarks.append({
                "name": f"BM_Sweep_{kind}/{size}/iterations:{pairs}/manual_time", "run_type": "iteration",
                "iterations": pairs, "dc_us": dc, "raw_us": raw, "dc_GB/s": size / dc / 1e3,
                "raw_GB/s": size / raw / 1e3, "speedup": raw / dc, "samples": pairs})
    context = {"synthetic": SYNTHETIC_NOTE, "date_utc": "2000-01-01T00:00:00Z",
               "device": "SYNTHETIC sample device", "driver": "13000"}
    write_json(os.path.join(SYNTHETIC, "bench_copy_sweep.json"), {"context": context, "benchmarks": benchmarks})


def write_synthetic_peers():
    peers = {"synthetic": SYNTHETIC_NOTE, "burst": 256, "bursts": 60, "copy_sizes": SIZES}
    for library, launch in (("cupy", (5.1, 6.3)), ("torch", None), ("cuda.core", (6.1, 7.1))):
        result = {"version": "synthetic"}
        if launch:
            result["launch_empty_us"], result["launch_4arg_us"] = launch
        copies = {}
        for size in SIZES:
            entry = {"repeats": max(5, min(200, (2 << 30) // size))}
            for kind in ("H2D_Pinned", "D2H_Pinned", "H2D_Pageable", "D2H_Pageable"):
                us = model_us(library, kind, size)
                entry[f"{kind.lower()}_us"] = us
                entry[f"{kind.lower()}_GBps"] = size / us / 1e3
            copies[str(size)] = entry
        result["copies"] = copies
        peers[library] = result
    write_json(os.path.join(SYNTHETIC, "peers.json"), peers)


def nearest_rank(sorted_samples, percent):
    return sorted_samples[max(0, math.ceil(percent / 100 * len(sorted_samples)) - 1)]


def log_histogram(samples, bins_per_decade):
    """Edges at 10^(k / bins_per_decade) from the one at or below the
    smallest sample to the first above the largest; counts per [lower, upper)."""
    first = math.floor(math.log10(min(samples)) * bins_per_decade)
    last = math.floor(math.log10(max(samples)) * bins_per_decade) + 1
    edges = [10 ** (k / bins_per_decade) for k in range(first, last + 1)]
    while edges[0] > min(samples):
        first -= 1
        edges.insert(0, 10 ** (first / bins_per_decade))
    while edges[-1] <= max(samples):
        last += 1
        edges.append(10 ** (last / bins_per_decade))
    counts = [0] * (len(edges) - 1)
    for x in samples:
        i = min(max(int(math.floor(math.log10(x) * bins_per_decade)) - first, 0), len(counts) - 1)
        while x < edges[i]:
            i -= 1
        while x >= edges[i + 1]:
            i += 1
        counts[i] += 1
    return [round(e, 3) for e in edges], counts


def distribution(name, label, median_ns, spread, tail_fraction, tail_ns, count, seed):
    rng = random.Random(seed)
    samples = []
    for _ in range(count):
        x = median_ns * math.exp(rng.gauss(0, spread))
        if rng.random() < tail_fraction:
            x += rng.expovariate(1 / tail_ns)
        samples.append(round(x, 1))
    samples.sort()
    edges, counts = log_histogram(samples, 10)
    return {"name": name, "label": label, "count": count, "min_ns": samples[0], "max_ns": samples[-1],
            "percentiles_ns": {p: nearest_rank(samples, float(p)) for p in ("50", "99", "99.9")},
            "histogram": {"edges_ns": edges, "counts": counts}}


def write_synthetic_queue():
    data = {
        "format": "dccuda-round-trips/1",
        "context": {"synthetic": SYNTHETIC_NOTE, "date_utc": "2000-01-01T00:00:00Z",
                    "device": "SYNTHETIC sample device"},
        "round_trips": [
            distribution("queue", "queue round trip (synthetic)", 3000, 0.08, 0.02, 4000, 4000, 1),
            distribution("launch_synchronize", "launch + synchronize (synthetic)", 10000, 0.05, 0.02, 8000, 4000, 2),
        ],
    }
    write_json(os.path.join(SYNTHETIC, "bench_queue.json"), data)


def write_synthetic():
    shutil.rmtree(SYNTHETIC, ignore_errors=True)
    os.makedirs(SYNTHETIC)
    write_synthetic_sweep()
    write_synthetic_peers()
    write_synthetic_queue()
    with open(os.path.join(SYNTHETIC, "gpu.txt"), "w", encoding="utf-8") as f:
        f.write("synthetic: " + SYNTHETIC_NOTE + "\nSYNTHETIC sample device, 000.00, 0 MiB\n2000-01-01 00:00 UTC\n")
    with open(os.path.join(SYNTHETIC, "host.txt"), "w", encoding="utf-8") as f:
        f.write(f"synthetic: {SYNTHETIC_NOTE}\ncpu: SYNTHETIC sample host\ncores: 0\ndate: 2000-01-01 00:00 UTC\n")
    with open(os.path.join(SYNTHETIC, "bundle.txt"), "w", encoding="utf-8") as f:
        f.write(f"synthetic: {SYNTHETIC_NOTE}\ncommit: SYNTHETIC-no-commit\n")


if __name__ == "__main__":
    write_real()
    write_synthetic()
    print(f"wrote {os.path.relpath(REAL, ROOT)} and {os.path.relpath(SYNTHETIC, ROOT)}")
