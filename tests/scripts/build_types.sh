#!/usr/bin/env bash
# Builds dccuda with its tests in the build types the main run does not use,
# with g++ and with clang, warnings as errors: Release (-O3) and MinSizeRel
# (-Os) give the optimiser's warnings that RelWithDebInfo (-O2) does not (GCC
# 12's -Wrestrict false positive broke a plain Release build once). The main
# run builds RelWithDebInfo with g++; the sanitizer run builds clang's
# MinSizeRel with tests (ASan + UBSan: tests/scripts/run_sanitizers.sh) and
# its Debug (TSan, the tests that use threads). Clang's warnings come from its
# front end, whatever the optimisation level (GCC's do not: its -Wrestrict,
# -Wmaybe-uninitialized and the like need the optimiser), so for clang here:
# Release builds the library, the tools and the samples, not the tests, and
# MinSizeRel is left to the sanitizer run. DCCUDA_BUILD_TYPES=all builds both
# with tests here too (CI's time budget leaves them out).
# The g++ Release build also runs the C/C++ tests (the bindings' tests do not
# depend on the build type and run in the main build).
# Usage: tests/scripts/build_types.sh [work-dir]   (default <root>/build-types)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-$root/build-types}"
mkdir -p "$work"   # each build's logs lie beside its folder, in here

failed=()
for compiler in gcc clang; do
  case "$compiler" in
    gcc) cc=gcc; cxx=g++ ;;
    clang) cc=clang; cxx=clang++ ;;
  esac
  for type in Release MinSizeRel; do
    tests=ON
    if [ "$compiler" = clang ] && [ "${DCCUDA_BUILD_TYPES:-1}" != all ]; then
      if [ "$type" = MinSizeRel ]; then
        echo "== clang MinSizeRel: built with tests by the sanitizer run (ASan + UBSan)"; continue
      fi
      tests=OFF
    fi
    dir="$work/$compiler-$type"
    if [ $tests = ON ]; then echo "== $compiler $type: build with tests ($dir)"
    else echo "== $compiler $type: build the library, tools and samples ($dir)"; fi
    # The Zig binding's build does not depend on the build type; it is built
    # and tested by the main run.
    if ! CC=$cc CXX=$cxx cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=$type \
          -DDCCUDA_BUILD_TESTS=$tests -DDCCUDA_WERROR=ON -DDCCUDA_ZIG=OFF >"$dir.configure.log" 2>&1; then
      tail -n 30 "$dir.configure.log"; failed+=("$compiler-$type (configure)"); continue
    fi
    if ! cmake --build "$dir" >"$dir.build.log" 2>&1; then
      grep -E "error|FAILED" "$dir.build.log" | head -n 40
      failed+=("$compiler-$type (build)"); continue
    fi
    if [ "$compiler-$type" = gcc-Release ]; then
      echo "== $compiler $type: C/C++ tests"
      # By label: the bindings', ABI, generator and install tests do not depend on the build type.
      rm -f "$dir/ctest-junit.xml"
      if ! (cd "$dir" && ctest -j2 -LE 'bindings|abi|gen|install' --output-junit ctest-junit.xml >ctest.log 2>&1); then
        python3 "$root/tests/scripts/junit_summary.py" "$dir/ctest-junit.xml" --label "$compiler $type:" || true
        failed+=("$compiler-$type (tests)"); continue
      fi
      python3 "$root/tests/scripts/junit_summary.py" "$dir/ctest-junit.xml" --label "$compiler $type:"
    fi
  done
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "build types FAILED: ${failed[*]}"
  exit 1
fi
if [ "${DCCUDA_BUILD_TYPES:-1}" = all ]; then
  echo "build types: Release and MinSizeRel build with g++ and clang (tests on, warnings as errors)"
else
  echo "build types: Release and MinSizeRel build with g++ (tests on), Release with clang (warnings as errors)"
fi
