#!/usr/bin/env bash
# Sets up the machine, builds dccuda and runs every test (fake driver, no GPU
# needed): CTest (unit, integration, bindings, ABI), then the suite under
# ASan + UBSan, TSan and valgrind, then each fuzzer for a bounded time.
# Usage: tests/scripts/run_all.sh [build-dir]
#   DCCUDA_FUZZ_SECONDS   seconds per fuzzer (default 45; 0 leaves fuzzing out)
#   DCCUDA_FUZZ_SEED      libFuzzer's seed (default 1 here: the same inputs each run)
#   DCCUDA_SANITIZERS=0   leaves the sanitizer runs out (a quicker local run)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"

"$root/tests/scripts/setup_machine.sh"

echo "== build (fake driver, tests)"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCCUDA_BUILD_TESTS=ON >/dev/null
cmake --build "$build"

echo "== unit, integration, binding and ABI tests (CTest)"
(cd "$build" && ctest --output-on-failure -j2 2>&1 | tail -n 40)

echo "== ABI check report (abi/check_abi.py --strict, run by CTest as abi.check)"
cat "$build/abi-check/report.txt" | grep -E "^(PASS|FAIL|NOT)|ABI check" || true

if [ "${DCCUDA_SANITIZERS:-1}" != 0 ]; then
  echo "== sanitizers (tests/scripts/run_sanitizers.sh)"
  "$root/tests/scripts/run_sanitizers.sh"
fi

fuzz_seconds="${DCCUDA_FUZZ_SECONDS:-45}"
if [ "$fuzz_seconds" != 0 ]; then
  echo "== fuzzers, $fuzz_seconds s each (tests/scripts/run_fuzzers.sh)"
  DCCUDA_FUZZ_SEED="${DCCUDA_FUZZ_SEED:-1}" "$root/tests/scripts/run_fuzzers.sh" "$fuzz_seconds"
fi
echo "== all tests passed"
