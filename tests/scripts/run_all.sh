#!/usr/bin/env bash
# Sets up the machine, builds dccuda and runs every test (fake driver, no GPU
# needed). Usage: tests/scripts/run_all.sh [build-dir]
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
