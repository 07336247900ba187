#!/usr/bin/env bash
# Probe: which work in test_stress does an invalidated capture (or the crash in
# cuModuleUnload) under compute-sanitizer memcheck need? Runs test_stress under
# memcheck with the op mix narrowed (DCTEST_STRESS_OPS), each mix for a short
# time, then the failing mix natively as the control; then the two checks of
# the explanation (a kernel loaded lazily on another thread makes the driver
# synchronise the context): the failing mix with kernels loaded eagerly, and
# the raw-driver probe whose other threads get a function from each module
# they load (capture_invalidation getfn), when the folder holds it.
#   stress_under_memcheck.sh <dir with test_stress, libdccuda.so* [, capture_invalidation,
#                            probe_kernel.cubin]> [seconds]
# Results: stress_under_memcheck.txt beside this script.
set -uo pipefail
dir="$1"
seconds="${2:-6}"
export LD_LIBRARY_PATH="$dir:${LD_LIBRARY_PATH:-}"
export DCCUDA_CACHE_DIR="$(mktemp -d)"
export DCTEST_STRESS_SECONDS="$seconds" DCTEST_STRESS_THREADS=16
run_one() {  # <label> <ops> [memcheck]
  local label="$1" ops="$2" tool=()
  [ "${3:-}" = memcheck ] && tool=(compute-sanitizer --tool memcheck --report-api-errors no)
  echo "== $label: ops=$ops ${3:-native}"
  DCTEST_STRESS_OPS="$ops" timeout -s KILL $((seconds * 6 + 30)) "${tool[@]}" "$dir/test_stress" 2>&1 |
    grep -E "stress:|thread [0-9]+:|Failure|failed|INVALIDATED|CUDA_ERROR|ERROR SUMMARY|OK \]|FAILED \]|Segmentation|signal|backtrace|#[0-9]" | head -20
  echo "   exit ${PIPESTATUS[0]}"
}
run_one "graphs with module loads" graph,module memcheck
run_one "graphs alone" graph memcheck
run_one "graphs with allocations" graph,alloc memcheck
run_one "module loads alone" module memcheck
run_one "graphs with module loads (again)" graph,module memcheck
run_one "control" graph,module
echo "== explanation 1: kernels loaded eagerly (CUDA_MODULE_LOADING=EAGER)"
CUDA_MODULE_LOADING=EAGER run_one "graphs with module loads, eager" graph,module memcheck
if [ -x "$dir/capture_invalidation" ]; then
  echo "== explanation 2: raw driver, 8 threads load a module and get its kernel, 8 capture, memcheck"
  for kind in module getfn; do
    PROBE_IMAGE="$dir/probe_kernel.cubin" timeout -s KILL $((seconds * 6 + 30)) \
      compute-sanitizer --tool memcheck --report-api-errors no "$dir/capture_invalidation" "$kind" "$seconds" kernel 8 2>&1 |
      grep -E "thread|capture failed| -> |ERROR SUMMARY" | head -8
  done
fi
