#!/usr/bin/env python3
"""What users would otherwise pick, measured the way bench_launch and
bench_copy_sweep measure dccuda: CuPy (RawKernel launches, copies), PyTorch
(its cheapest operator launches: a one-element fill and a 1024-float
y += a*x; tensor copies) and NVIDIA's cuda.core (launches, buffer copies), on the same
GPU in the same script run.

Launch CPU cost: bursts of 256 launches of an empty kernel (and of a
4-argument kernel), timing only the launch loop, a stream synchronisation
after each burst; median per launch over the bursts.

Copies: host<->device from pinned and pageable memory at every power of two
from 4 KiB to 1 GiB (bench_copy_sweep's sizes), each copy followed by a
synchronisation and timed with it, after one untimed warm-up copy; the median
over a number of repeats per size: 2 GiB divided by the size, at least 5 and
at most 200 (fewer than bench_copy_sweep's pairs, to keep the run short).
The host memory holds random non-zero bytes. Each library copies between its
own device allocation and its own host memory (CuPy: cupyx.empty_pinned and a
NumPy array; PyTorch: a pin_memory tensor and a tensor over a NumPy array;
cuda.core: LegacyPinnedMemoryResource and a NumPy array wrapped with
Buffer.from_handle), the view of each size made before timing.

Prints a table and writes JSON (argument: output path; --max-bytes limits the
largest copy). A library that is not installed, or a measurement that fails,
is recorded as such ("error", "copies_error"), never guessed; the other
libraries are still measured.
"""
import argparse
import ctypes
import json
import statistics
import sys
import time

BURST = 256
BURSTS = 60
COPY_MIN_BYTES = 4 << 10
COPY_MAX_BYTES = 1 << 30
COPY_BYTES_PER_SIZE = 2 << 30
COPY_MIN_REPEATS, COPY_MAX_REPEATS = 5, 200
RANDOM_SEED = 20261122

SOURCE = r"""
extern "C" __global__ void empty() {}
extern "C" __global__ void four_args(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""


def copy_sizes(max_bytes):
    sizes, size = [], COPY_MIN_BYTES
    while size <= max_bytes:
        sizes.append(size)
        size *= 2
    return sizes


def copy_repeats(size):
    return max(COPY_MIN_REPEATS, min(COPY_MAX_REPEATS, COPY_BYTES_PER_SIZE // size))


def median_burst(launch_once, sync):
    per = []
    for b in range(BURSTS + 5):
        t0 = time.perf_counter_ns()
        for _ in range(BURST):
            launch_once()
        t1 = time.perf_counter_ns()
        sync()
        if b >= 5:  # warm-up bursts
            per.append((t1 - t0) / BURST)
    return statistics.median(per) / 1000.0  # us


def median_time(fn, sync, repeats):
    fn()
    sync()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        fn()
        sync()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times) / 1000.0  # us


def describe(e):
    return f"{type(e).__name__}: {e}"


_random_block = {}


def random_host_bytes(numpy, size):
    """`size` random bytes in 1..255 in new ordinary (pageable) memory,
    already touched: a 64 MiB block from a fixed seed (made once), repeated."""
    length = min(size, 64 << 20)
    if _random_block.get("block") is None or _random_block["block"].size < length:
        rng = numpy.random.default_rng(RANDOM_SEED)
        _random_block["block"] = rng.integers(1, 256, size=length, dtype=numpy.uint8)
    block = _random_block["block"][:length]
    return numpy.tile(block, -(-size // length))[:size]


def measure_copies(views, sizes, sync):
    """views(size) -> {(direction, memory): copy function}, made before
    timing. Returns {str(size): {"repeats", "<dir>_<memory>_us", "..._GBps"}}."""
    out = {}
    for size in sizes:
        repeats = copy_repeats(size)
        entry = {"repeats": repeats}
        for (direction, memory), copy in views(size).items():
            us = median_time(copy, sync, repeats)
            entry[f"{direction}_{memory}_us"] = us
            entry[f"{direction}_{memory}_GBps"] = size / us / 1e3
        out[str(size)] = entry
    return out


def bench_cupy(results, sizes):
    try:
        import cupy
        import cupyx
        import numpy
    except Exception as e:  # noqa: BLE001
        results["cupy"] = {"error": f"not available: {e}"}
        return
    out = {"version": cupy.__version__}
    results["cupy"] = out
    try:
        mod = cupy.RawModule(code=SOURCE)
        empty = mod.get_function("empty")
        four = mod.get_function("four_args")
        n = 1024
        x = cupy.ones(n, dtype=cupy.float32)
        y = cupy.ones(n, dtype=cupy.float32)
        stream = cupy.cuda.Stream(non_blocking=True)
        with stream:
            out["launch_empty_us"] = median_burst(lambda: empty((1,), (32,), ()), stream.synchronize)
            args = (numpy.float32(2.0), x, y, numpy.int32(n))
            out["launch_4arg_us"] = median_burst(lambda: four((4,), (256,), args), stream.synchronize)
    except Exception as e:  # noqa: BLE001
        out["launch_error"] = describe(e)
    if not sizes:
        return
    try:
        largest = sizes[-1]
        pageable = random_host_bytes(numpy, largest)
        pinned = cupyx.empty_pinned((largest,), dtype=numpy.uint8)
        pinned[:] = pageable
        dev = cupy.empty(largest, dtype=cupy.uint8)

        def views(size):
            d, hp, hq = dev[:size], pinned[:size], pageable[:size]
            return {("h2d", "pinned"): lambda: d.set(hp), ("d2h", "pinned"): lambda: d.get(out=hp),
                    ("h2d", "pageable"): lambda: d.set(hq), ("d2h", "pageable"): lambda: d.get(out=hq)}

        out["copies"] = measure_copies(views, sizes, cupy.cuda.runtime.deviceSynchronize)
        del dev, pinned
        cupy.get_default_memory_pool().free_all_blocks()
        cupy.get_default_pinned_memory_pool().free_all_blocks()
    except Exception as e:  # noqa: BLE001
        out["copies_error"] = describe(e)


def bench_torch(results, sizes):
    try:
        import numpy
        import torch
    except Exception as e:  # noqa: BLE001
        results["torch"] = {"error": f"not available: {e}"}
        return
    out = {"version": torch.__version__, "cuda": str(torch.version.cuda)}
    results["torch"] = out
    if not torch.cuda.is_available():
        out["error"] = "torch.cuda.is_available() is False"
        return
    try:
        # PyTorch launches no user kernel without a compiler: its cheapest
        # launch paths are its own operators. The empty kernel's counterpart is
        # a fill of one element (one tiny kernel), the 4-argument kernel's is
        # y += 2 * x on the same 1024 floats (torch's saxpy: one kernel).
        n = 1024
        one = torch.empty(1, dtype=torch.float32, device="cuda")
        x = torch.ones(n, dtype=torch.float32, device="cuda")
        y = torch.ones(n, dtype=torch.float32, device="cuda")
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            out["launch_empty_us"] = median_burst(lambda: one.fill_(0.0), stream.synchronize)
            out["launch_4arg_us"] = median_burst(lambda: y.add_(x, alpha=2.0), stream.synchronize)
        out["launch_what"] = "empty: Tensor.fill_ of 1 float; 4 args: Tensor.add_(x, alpha=2) of 1024 floats"
    except Exception as e:  # noqa: BLE001
        out["launch_error"] = describe(e)
    if not sizes:
        return
    try:
        largest = sizes[-1]
        pageable = torch.from_numpy(random_host_bytes(numpy, largest))
        pinned = torch.empty(largest, dtype=torch.uint8, pin_memory=True)
        pinned.copy_(pageable)
        dev = torch.empty(largest, dtype=torch.uint8, device="cuda")

        def views(size):
            d, hp, hq = dev[:size], pinned[:size], pageable[:size]
            return {("h2d", "pinned"): lambda: d.copy_(hp), ("d2h", "pinned"): lambda: hp.copy_(d),
                    ("h2d", "pageable"): lambda: d.copy_(hq), ("d2h", "pageable"): lambda: hq.copy_(d)}

        out["copies"] = measure_copies(views, sizes, torch.cuda.synchronize)
        del dev, pinned
        torch.cuda.empty_cache()
    except Exception as e:  # noqa: BLE001
        out["copies_error"] = describe(e)


def import_cuda_core():
    for name in ("cuda.core", "cuda.core.experimental"):
        try:
            module = __import__(name, fromlist=["Device"])
            if hasattr(module, "Device") and hasattr(module, "launch"):
                return module
        except Exception:  # noqa: BLE001
            continue
    return None


def bench_cuda_core(results, sizes):
    core = import_cuda_core()
    if core is None:
        results["cuda.core"] = {"error": "cuda.core is not importable"}
        return
    out = {"module": core.__name__}
    results["cuda.core"] = out
    try:
        import numpy
        dev = core.Device()
        dev.set_current()
        stream = dev.create_stream()
    except Exception as e:  # noqa: BLE001
        out["error"] = describe(e)
        return
    try:
        arch = "".join(str(v) for v in dev.compute_capability)
        prog = core.Program(SOURCE, code_type="c++", options=core.ProgramOptions(arch=f"sm_{arch}"))
        mod = prog.compile("cubin")
        empty = mod.get_kernel("empty")
        four = mod.get_kernel("four_args")
        config1 = core.LaunchConfig(grid=1, block=32)
        config4 = core.LaunchConfig(grid=4, block=256)
        n = 1024
        x = dev.allocate(4 * n, stream=stream)
        y = dev.allocate(4 * n, stream=stream)
        stream.sync()
        out["launch_empty_us"] = median_burst(lambda: core.launch(stream, config1, empty), stream.sync)
        a = numpy.float32(2.0)
        nn = numpy.int32(n)
        xp, yp = int(x.handle), int(y.handle)
        out["launch_4arg_us"] = median_burst(lambda: core.launch(stream, config4, four, a, xp, yp, nn), stream.sync)
    except Exception as e:  # noqa: BLE001
        out["launch_error"] = describe(e)
    if not sizes:
        return
    try:
        pinned_resource = getattr(core, "LegacyPinnedMemoryResource", None)
        if pinned_resource is None:
            raise RuntimeError(f"{core.__name__} has no LegacyPinnedMemoryResource (pinned host memory)")
        largest = sizes[-1]
        pageable = random_host_bytes(numpy, largest)
        pinned = pinned_resource().allocate(largest)
        ctypes.memmove(int(pinned.handle), pageable.ctypes.data, largest)
        device_buffer = dev.allocate(largest, stream=stream)
        stream.sync()
        wrap = core.Buffer.from_handle

        def views(size):
            d = wrap(int(device_buffer.handle), size)
            hp = wrap(int(pinned.handle), size)
            hq = wrap(pageable.ctypes.data, size)
            return {("h2d", "pinned"): lambda: d.copy_from(hp, stream=stream),
                    ("d2h", "pinned"): lambda: hp.copy_from(d, stream=stream),
                    ("h2d", "pageable"): lambda: d.copy_from(hq, stream=stream),
                    ("d2h", "pageable"): lambda: hq.copy_from(d, stream=stream)}

        out["copies"] = measure_copies(views, sizes, stream.sync)
        device_buffer.close(stream)
        pinned.close()
    except Exception as e:  # noqa: BLE001
        out["copies_error"] = describe(e)


LIBRARIES = (("cupy", "CuPy"), ("torch", "PyTorch"), ("cuda.core", "cuda.core"))


def print_summary(results):
    print("peer libraries on this GPU (launch CPU cost per launch, bursts of %d):" % BURST)
    for key, name in LIBRARIES:
        r = results[key]
        if "error" in r:
            print(f"  {name:10s} {r['error']}")
            continue
        if "launch_empty_us" in r:
            print(f"  {name:10s} empty {r['launch_empty_us']:.2f} us, 4 args {r['launch_4arg_us']:.2f} us")
        for what in ("launch_error", "copies_error"):
            if what in r:
                print(f"  {name:10s} {what.replace('_', ' ')}: {r[what]}")
    print("copies, GB/s (median; H2D pinned / pageable, D2H pinned / pageable):")
    for key, name in LIBRARIES:
        for size, c in results[key].get("copies", {}).items():
            print(f"  {name:10s} {int(size):>10d} B: {c['h2d_pinned_GBps']:7.2f} {c['h2d_pageable_GBps']:7.2f} "
                  f"{c['d2h_pinned_GBps']:7.2f} {c['d2h_pageable_GBps']:7.2f}  ({c['repeats']} repeats)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", nargs="?", default="peers.json")
    parser.add_argument("--max-bytes", type=int, default=COPY_MAX_BYTES,
                        help="largest copy (default 1 GiB); 0 leaves the copies out")
    args = parser.parse_args()
    sizes = copy_sizes(args.max_bytes)
    results = {"burst": BURST, "bursts": BURSTS,
               "copy_sizes": sizes,
               "copy_repeats": "max(%d, min(%d, %d // size))" % (COPY_MIN_REPEATS, COPY_MAX_REPEATS,
                                                                COPY_BYTES_PER_SIZE)}
    bench_cupy(results, sizes)
    bench_torch(results, sizes)
    bench_cuda_core(results, sizes)
    with open(args.output, "w") as f:
        json.dump(results, f, indent=1)
    print_summary(results)


if __name__ == "__main__":
    sys.exit(main())
