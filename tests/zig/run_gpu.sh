#!/usr/bin/env bash
# Runs the Zig binding's programs from a GPU bundle (<bundle>/extra/zig, made by
# tests/gpu/bundle.sh): the tests, the saxpy sample, the consumer package and the benchmark, against
# the real driver. LD_LIBRARY_PATH should name the bundle's lib/ (tests/gpu/run.sh
# sets it); without it, <bundle>/lib is used.
#   extra/zig/run_gpu.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-$here/../../lib}"
unset DCCUDA_DRIVER_LIBRARY
rc=0
echo "== Zig binding: tests"
"$here/dccuda-zig-tests" 2>&1 || rc=1
echo "== Zig binding: saxpy sample"
"$here/dccuda-zig-saxpy" || rc=1
echo "== Zig binding: a consumer project importing the package (build.zig.zon)"
"$here/dccuda-zig-consumer" || rc=1
echo "== Zig binding: benchmark"
"$here/dccuda-zig-bench" || rc=1
echo "zig binding rc=$rc"
exit $rc
