#!/usr/bin/env bash
# Sets up the machine, builds dccuda and runs every test (fake driver, no GPU
# needed): CTest (unit, integration, bindings, ABI), the other build types,
# the portable release binaries (built, checked, and the C/C++ suite run
# against the x86-64 one),
# the C/C++ suite built and run with the CUDA toolkit hidden, dccuda.dll
# cross-built with MinGW-w64 and its tests run under Wine, the NuGet package
# with every platform's native library (checked), then the suite
# under ASan + UBSan, TSan and valgrind, then each fuzzer for a bounded time.
# Works with or without the CUDA toolkit: tests that need NVRTC skip without
# it, each saying why (the list is printed after CTest).
# Usage: tests/scripts/run_all.sh [build-dir]
#   DCCUDA_FUZZ_SECONDS   seconds per fuzzer (default 45; 0 leaves fuzzing out)
#   DCCUDA_FUZZ_SEED      libFuzzer's seed (default 1 here: the same inputs each run)
#   DCCUDA_SANITIZERS=0   leaves the sanitizer runs out (a quicker local run)
#   DCCUDA_BUILD_TYPES=0  leaves out the Release/MinSizeRel builds (g++ and clang;
#                         =all builds clang's Release and MinSizeRel with tests as well)
#   DCCUDA_RELEASE=0      leaves the portable release build out
#   DCCUDA_NO_TOOLKIT=0   leaves the build without the toolkit out
#   DCCUDA_WINDOWS=0      leaves the Windows cross-build and its run under Wine out
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"

"$root/tests/scripts/setup_machine.sh"

# Each part's header says how long the run has taken so far (CI's budget is 45 minutes on 2 cores).
phase() { echo "== $* [$((SECONDS / 60)) min $((SECONDS % 60)) s]"; }

# ccache, where installed: the build without the toolkit below reuses what
# this build compiled (only where every header is the same).
launcher=()
if command -v ccache >/dev/null 2>&1; then
  # NOHASHDIR: objects with debug information are shared between build folders.
  export CCACHE_DIR="${CCACHE_DIR:-$root/.ccache}" CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

phase "build (fake driver, tests)"
# The library with debug information (the ABI check reads it), the tests without (quicker to build).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCCUDA_BUILD_TESTS=ON \
  -DDCCUDA_TEST_DEBUG_INFO=OFF "${launcher[@]}" >/dev/null
cmake --build "$build"

phase "unit, integration, binding and ABI tests (CTest; whole log in $build/ctest.log)"
ctest_rc=0
rm -f "$build/ctest-junit.xml"
(cd "$build" && ctest --output-on-failure -j2 --output-junit ctest-junit.xml >ctest.log 2>&1) || ctest_rc=$?
# The counts and the failed tests, from CTest's JUnit report.
python3 "$root/tests/scripts/junit_summary.py" "$build/ctest-junit.xml" --label CTest: || true
python3 "$root/tests/scripts/list_skipped.py" "$build/ctest-junit.xml" || true

echo "== ABI check report (abi/check_abi.py --strict, run by CTest as abi.check)"
grep -E "^(PASS|FAIL|NOT)|ABI check" "$build/abi-check/report.txt" 2>/dev/null || echo "(no report)"

if [ "$ctest_rc" != 0 ]; then
  # The tail above names the failed tests; their own output is further up the log.
  echo "== output of the failed tests (CTest exit $ctest_rc)"
  (cd "$build" && ctest --rerun-failed --output-on-failure 2>&1 | tail -n 300) || true
  grep -B2 -A40 "^FAIL" "$build/abi-check/report.txt" 2>/dev/null | head -n 200 || true
  exit "$ctest_rc"
fi

if [ "${DCCUDA_BUILD_TYPES:-1}" != 0 ]; then
  phase "build types (tests/scripts/build_types.sh): Release and MinSizeRel, g++ and clang"
  "$root/tests/scripts/build_types.sh" "$build-types"
fi

if [ "${DCCUDA_RELEASE:-1}" != 0 ]; then
  phase "portable release binaries, x86-64 and aarch64 (src/tools/build_release.sh)"
  DCCUDA_RELEASE_HOST_FAKE="$build/tests/libdcfake_cuda.so" "$root/src/tools/build_release.sh" "$root/build-release/dist"
  phase "the C/C++ tests against the portable x86-64 libdccuda.so.1 (tests/release/run_suite_against.sh)"
  "$root/tests/release/run_suite_against.sh" "$build" "$root/build-release/dist/runtimes/linux-x64/native"
fi

if [ "${DCCUDA_NO_TOOLKIT:-1}" != 0 ]; then
  phase "the C/C++ suite without the CUDA toolkit (tests/scripts/run_without_toolkit.sh)"
  "$root/tests/scripts/run_without_toolkit.sh" "$root/build-notoolkit"
fi

if [ "${DCCUDA_WINDOWS:-1}" != 0 ]; then
  phase "Windows x64: dccuda.dll cross-built with MinGW-w64, its tests under Wine (tests/scripts/run_windows.sh)"
  "$root/tests/scripts/run_windows.sh" "$root/build-windows"
fi

if [ "${DCCUDA_RELEASE:-1}" != 0 ] && [ "${DCCUDA_WINDOWS:-1}" != 0 ] && [ -f "$build/bindings/csharp/Dccuda.dll" ]; then
  # The package a .NET user installs carries every platform's native library:
  # the portable Linux ones (x86-64, AArch64) and the MinGW dccuda.dll built above.
  phase "the NuGet package with every native library (linux-x64, linux-arm64, win-x64)"
  natives="$root/build-release/dist/runtimes"
  python3 "$root/bindings/csharp/pack/make_nupkg.py" --out "$root/build-release/nupkg" \
    --lib netstandard2.0="$build/bindings/csharp/Dccuda.dll" \
    --native linux-x64="$natives/linux-x64/native/libdccuda.so.1" \
    --native linux-arm64="$natives/linux-arm64/native/libdccuda.so.1" \
    --native win-x64="$root/build-windows/bin/dccuda.dll"
  python3 "$root/bindings/csharp/pack/check_nupkg.py" "$root"/build-release/nupkg/Dccuda.*.nupkg \
    --require-lib netstandard2.0 --require-native linux-x64 --require-native linux-arm64 --require-native win-x64
fi

if [ "${DCCUDA_SANITIZERS:-1}" != 0 ]; then
  phase "sanitizers (tests/scripts/run_sanitizers.sh)"
  "$root/tests/scripts/run_sanitizers.sh"
fi

fuzz_seconds="${DCCUDA_FUZZ_SECONDS:-45}"
if [ "$fuzz_seconds" != 0 ]; then
  phase "fuzzers, $fuzz_seconds s each (tests/scripts/run_fuzzers.sh)"
  DCCUDA_FUZZ_SEED="${DCCUDA_FUZZ_SEED:-1}" "$root/tests/scripts/run_fuzzers.sh" "$fuzz_seconds"
fi
phase "all tests passed"
