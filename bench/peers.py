#!/usr/bin/env python3
"""What users would otherwise pick, measured the way bench_launch and
bench_memory measure dccuda: CuPy (RawKernel launches, copies) and NVIDIA's
cuda.core (launch), on the same GPU in the same script run.

Launch CPU cost: bursts of 256 launches of an empty kernel (and of a
4-argument kernel), timing only the launch loop, a stream synchronisation
after each burst; median per launch over the bursts. Copies: host<->device
from pinned and pageable memory, median of repeats with a synchronisation.

Prints a table and writes JSON (argument: output path). Libraries that are
not installed are reported as such, never guessed.
"""
import json
import statistics
import sys
import time

BURST = 256
BURSTS = 60
SIZES = [4096, 1 << 20, 256 << 20]

SOURCE = r"""
extern "C" __global__ void empty() {}
extern "C" __global__ void four_args(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""


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


def bench_cupy(results):
    try:
        import cupy
        import cupyx
        import numpy
    except Exception as e:  # noqa: BLE001
        results["cupy"] = {"error": f"not available: {e}"}
        return
    out = {"version": cupy.__version__}
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
    copies = {}
    for size in SIZES:
        reps = 200 if size <= (1 << 20) else 10
        count = size // 4
        dev = cupy.empty(count, dtype=cupy.float32)
        pageable = numpy.random.rand(count).astype(numpy.float32)
        pinned_mem = cupyx.empty_pinned((count,), dtype=numpy.float32)
        pinned_mem[:] = pageable
        sync = cupy.cuda.runtime.deviceSynchronize
        h2d_pinned = median_time(lambda: dev.set(pinned_mem), sync, reps)
        d2h_pinned = median_time(lambda: dev.get(out=pinned_mem), sync, reps)
        h2d_pageable = median_time(lambda: dev.set(pageable), sync, reps)
        d2h_pageable = median_time(lambda: dev.get(out=pageable), sync, reps)
        gbps = lambda us: size / us / 1e3  # noqa: E731
        copies[str(size)] = {
            "h2d_pinned_GBps": gbps(h2d_pinned), "d2h_pinned_GBps": gbps(d2h_pinned),
            "h2d_pageable_GBps": gbps(h2d_pageable), "d2h_pageable_GBps": gbps(d2h_pageable),
            "h2d_pinned_us": h2d_pinned, "h2d_pageable_us": h2d_pageable,
        }
        del dev, pinned_mem
    out["copies"] = copies
    results["cupy"] = out


def bench_cuda_core(results):
    core = None
    for name in ("cuda.core", "cuda.core.experimental"):
        try:
            module = __import__(name, fromlist=["Device"])
            if hasattr(module, "Device") and hasattr(module, "launch"):
                core = module
                break
        except Exception:  # noqa: BLE001
            continue
    if core is None:
        results["cuda.core"] = {"error": "cuda.core is not importable"}
        return
    try:
        dev = core.Device()
        dev.set_current()
        stream = dev.create_stream()
        arch = "".join(str(v) for v in dev.compute_capability)
        prog = core.Program(SOURCE, code_type="c++", options=core.ProgramOptions(arch=f"sm_{arch}"))
        mod = prog.compile("cubin")
        empty = mod.get_kernel("empty")
        four = mod.get_kernel("four_args")
        config1 = core.LaunchConfig(grid=1, block=32)
        config4 = core.LaunchConfig(grid=4, block=256)
        import numpy
        import cupy
        n = 1024
        x = cupy.ones(n, dtype=cupy.float32)
        y = cupy.ones(n, dtype=cupy.float32)
        out = {"module": core.__name__}
        out["launch_empty_us"] = median_burst(lambda: core.launch(stream, config1, empty), stream.sync)
        a = numpy.float32(2.0)
        nn = numpy.int32(n)
        out["launch_4arg_us"] = median_burst(
            lambda: core.launch(stream, config4, four, a, x.data.ptr, y.data.ptr, nn), stream.sync)
        results["cuda.core"] = out
    except Exception as e:  # noqa: BLE001
        results["cuda.core"] = {"error": f"{type(e).__name__}: {e}"}


def main():
    results = {"burst": BURST, "bursts": BURSTS}
    bench_cupy(results)
    bench_cuda_core(results)
    path = sys.argv[1] if len(sys.argv) > 1 else "peers.json"
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
    print("peer libraries on this GPU (launch CPU cost per launch, bursts of %d):" % BURST)
    for lib in ("cupy", "cuda.core"):
        r = results[lib]
        if "error" in r:
            print(f"  {lib:10s} {r['error']}")
            continue
        print(f"  {lib:10s} empty {r['launch_empty_us']:.2f} us, 4 args {r['launch_4arg_us']:.2f} us")
    if "copies" in results.get("cupy", {}):
        for size, c in results["cupy"]["copies"].items():
            print(f"  cupy copies {int(size):>10d} B: H2D pinned {c['h2d_pinned_GBps']:.1f} GB/s, pageable "
                  f"{c['h2d_pageable_GBps']:.1f}; D2H pinned {c['d2h_pinned_GBps']:.1f}, pageable "
                  f"{c['d2h_pageable_GBps']:.1f}")


if __name__ == "__main__":
    main()
