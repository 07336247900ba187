#!/usr/bin/env bash
# The whole CTest suite under AddressSanitizer + UndefinedBehaviorSanitizer,
# the concurrency tests under ThreadSanitizer (clang), and the core C tests
# under valgrind memcheck. Any report fails the run.
#   tests/scripts/run_sanitizers.sh [asan|tsan|valgrind ...]   (default: all three)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
what=("$@")
[ ${#what[@]} -eq 0 ] && what=(asan tsan valgrind)

configure() {  # dir, extra cmake args...
  local dir="$1"; shift
  CC=clang CXX=clang++ cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DDCCUDA_BUILD_TESTS=ON "$@" >/dev/null
  cmake --build "$dir"
}

for w in "${what[@]}"; do
  case "$w" in
    asan)
      echo "== AddressSanitizer + UndefinedBehaviorSanitizer: the whole suite"
      configure "$root/build-asan" -DDCCUDA_SANITIZE=address,undefined
      (cd "$root/build-asan" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest -j2 --output-on-failure -LE "bindings|abi" 2>&1 | tail -n 15)
      ;;
    tsan)
      echo "== ThreadSanitizer: tests that use several threads"
      configure "$root/build-tsan" -DDCCUDA_SANITIZE=thread
      (cd "$root/build-tsan" && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
        ctest -j2 --output-on-failure -R "Thread|Concurren|Stress|thread|concurren|stress|Handle" 2>&1 | tail -n 15)
      ;;
    valgrind)
      echo "== valgrind memcheck: the core tests (no-driver, devices, status) on the fake driver"
      build="$root/build"
      cmake -S "$root" -B "$build" -G Ninja -DDCCUDA_BUILD_TESTS=ON >/dev/null
      cmake --build "$build" --target test_no_driver test_status test_device test_handles dccuda-info
      fake="$build/tests/libdcfake_cuda.so"
      vg=(valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --quiet)
      DCCUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1 "${vg[@]}" "$build/tests/test_no_driver" --gtest_brief=1
      DCCUDA_DRIVER_LIBRARY="$fake" "${vg[@]}" "$build/tests/test_status" --gtest_brief=1
      DCCUDA_DRIVER_LIBRARY="$fake" DCFAKE_DEVICES=2 "${vg[@]}" "$build/tests/test_device" --gtest_brief=1
      DCCUDA_DRIVER_LIBRARY="$fake" "${vg[@]}" "$build/tests/test_handles" --gtest_brief=1
      DCCUDA_DRIVER_LIBRARY="$fake" "${vg[@]}" "$build/dccuda-info" >/dev/null || [ $? -ne 99 ]
      echo "valgrind: no errors, no leaks"
      ;;
    *) echo "unknown: $w" >&2; exit 2 ;;
  esac
done
