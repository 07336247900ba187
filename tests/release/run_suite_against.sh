#!/usr/bin/env bash
# Runs a build's C/C++ tests against another libdccuda.so.1: the portable
# release library (src/tools/build_release.sh) in place of the one the build
# made. The test programs find libdccuda.so.1 by its SONAME; LD_LIBRARY_PATH
# comes before their RUNPATH, and the script first shows (with ldd) that they
# resolve it to the given folder. Left out: the white-box tests, which link the
# implementation's objects instead of the library (test_*_internal,
# test_handles, test_loader), and the bindings and ABI checks, which choose
# their library themselves.
#   tests/release/run_suite_against.sh <build-dir> <folder holding libdccuda.so.1>
set -euo pipefail
build="$(cd "$1" && pwd)"
native="$(cd "$2" && pwd)"
[ -f "$native/libdccuda.so.1" ] || { echo "run_suite_against: no libdccuda.so.1 in $native"; exit 1; }

resolved=$(LD_LIBRARY_PATH="$native" ldd "$build/tests/test_buffer" | awk '/libdccuda.so.1/ {print $3}')
if [ "$resolved" != "$native/libdccuda.so.1" ]; then
  echo "run_suite_against: the tests would load $resolved, not $native/libdccuda.so.1"
  exit 1
fi
echo "the tests load $resolved ($(python3 "$(dirname "$0")/check_portable.py" "$resolved" | head -1))"

export LD_LIBRARY_PATH="$native"
cd "$build"
rc=0
ctest -j2 --output-on-failure -LE '^(abi|csharp|swig|bindings|rust|zig|cuda_abi|release|install)$' \
  -E '^(test_[a-z_]*internal|test_handles|test_loader)\.' > ctest-portable.log 2>&1 || rc=$?
grep -E "tests passed|tests failed|Total Test time" ctest-portable.log
if [ $rc != 0 ]; then
  grep -E '^\s+[0-9]+ - .*\((Failed|SEGFAULT|Timeout|Subprocess aborted|Not Run)\)' ctest-portable.log | head -40
  echo "run_suite_against: failures against $native/libdccuda.so.1 (whole log: $build/ctest-portable.log)"
  exit $rc
fi
echo "run_suite_against: PASS against $native/libdccuda.so.1"
