#!/usr/bin/env bash
# The whole CTest suite under AddressSanitizer + UndefinedBehaviorSanitizer,
# the tests that use several threads (the stress test among them) under
# ThreadSanitizer (clang), and the core tests and the C programs under
# valgrind memcheck. Any report fails the run; each part prints its counts and
# its time, and a summary comes last.
# The ASan + UBSan build is clang's MinSizeRel with tests, warnings as errors
# (the build-type check of tests/scripts/build_types.sh for clang -Os, which
# leaves it out for that reason), with line tables for the reports: optimised,
# the suite runs in about half the time of a Debug build. The TSan build is
# clang's Debug build of what the threads-labelled tests need (dctest_threads).
#   tests/scripts/run_sanitizers.sh [asan|tsan|valgrind ...]   (default: all three)
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
what=("$@")
[ ${#what[@]} -eq 0 ] && what=(asan tsan valgrind)
summary=""
failed=0

# The Zig binding is built and tested by the main run; its tests are not run here.
configure() {  # dir, build type, target (all: everything), extra cmake args...
  local dir="$1" type="$2" target="$3"; shift 3
  CC=clang CXX=clang++ cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DDCCUDA_BUILD_TESTS=ON \
      -DDCCUDA_WERROR=ON -DDCCUDA_ZIG=OFF "$@" >/dev/null &&
    cmake --build "$dir" --target "$target" > "$dir.build.log" 2>&1 || { tail -n 30 "$dir.build.log"; return 1; }
}

# Runs CTest in `dir` with the given arguments; records the counts CTest's JUnit report gives
# (tests/scripts/junit_summary.py: passed, failed, skipped, and the failed tests) and the time.
run_ctest() {  # label, dir, ctest args...
  local label="$1" dir="$2"; shift 2
  local log="$dir/ctest.log" junit="$dir/ctest-junit.xml" start=$SECONDS
  rm -f "$junit"
  (cd "$dir" && ctest -j2 --output-on-failure --output-junit "$junit" "$@" > "$log" 2>&1)
  local rc=$?
  local counts
  counts=$(python3 "$root/tests/scripts/junit_summary.py" "$junit") || rc=1   # a failure, or no test at all
  printf "%s\n" "$counts" | tail -n +2 | head -20
  grep -m5 -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer' "$log"
  summary+=$(printf "%-10s %s (%d s)" "$label" "$(printf "%s\n" "$counts" | head -1)" $((SECONDS - start)))$'\n'
  [ $rc -eq 0 ] || failed=1
}

for w in "${what[@]}"; do
  start=$SECONDS
  case "$w" in
    asan)
      echo "== AddressSanitizer + UndefinedBehaviorSanitizer: the whole suite"
      if configure "$root/build-asan" MinSizeRel all -DDCCUDA_SANITIZE=address,undefined \
           -DCMAKE_C_FLAGS=-gline-tables-only -DCMAKE_CXX_FLAGS=-gline-tables-only; then
        # intercept_tls_get_addr=0: clang 14's runtime misreads glibc 2.36's
        # dynamic TLS blocks (a block at 0x9a7) and its leak checker then dies
        # with SIGSEGV at exit. Without it, dynamic TLS is not scanned for
        # pointers, which can only add leak reports, never hide one.
        # lsan.supp: leaks inside libraries dccuda loads (each explained there).
        ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1 \
          LSAN_OPTIONS=suppressions="$root/tests/scripts/lsan.supp" \
          run_ctest asan "$root/build-asan" -LE "bindings|abi|gen|install|bench_plot" -E '^test_fault_sweep_old_driver\.'
        # (bench_plot: Python only. The fault sweep runs here against the current driver; its repeat
        # against a CUDA 12.0 driver, a minute under ASan, runs in the other builds.)
      else
        summary+="asan       build failed"$'\n'; failed=1
      fi
      ;;
    tsan)
      echo "== ThreadSanitizer: the tests that use several threads (CTest label threads)"
      if configure "$root/build-tsan" Debug dctest_threads -DDCCUDA_SANITIZE=thread; then
        TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
          run_ctest tsan "$root/build-tsan" -L threads -E 'AStaleHandleNeverComesBackAfterItsSlotIsReused2To24Times'
        # (That one is a single thread cycling one slot 2^24 times: half a minute under TSan for nothing
        # TSan looks for; ASan and the other builds run it.)
      else
        summary+="tsan       build failed"$'\n'; failed=1
      fi
      ;;
    valgrind)
      echo "== valgrind memcheck: the core tests and the C programs, on the fake driver"
      build="$root/build"
      cmake -S "$root" -B "$build" -G Ninja -DDCCUDA_BUILD_TESTS=ON >/dev/null
      cmake --build "$build" --target test_no_driver test_status test_device test_handles test_bad_inputs \
        test_regressions dccuda-info dccuda-saxpy dcfake_nccl dcfake_cublas dcfake_cufft >/dev/null || { summary+="valgrind   build failed"$'\n'; failed=1; continue; }
      fake="$build/tests/libdcfake_cuda.so"
      # The fake NCCL, cuBLAS and cuFFT beside the fake driver: the real libraries drive the real
      # CUDA runtime (and loading them trips valgrind inside the dynamic loader, not in dccuda).
      libs=(DCCUDA_NCCL_LIBRARY="$build/tests/libdcfake_nccl.so" DCCUDA_CUBLAS_LIBRARY="$build/tests/libdcfake_cublas.so"
            DCCUDA_CUFFT_LIBRARY="$build/tests/libdcfake_cufft.so")
      # Two programs at a time (each runs on one core under valgrind), the longest first;
      # each leaves its verdict in its own file, read once all are done.
      results=$(mktemp -d) programs=0
      vg() {  # [rc=N] env..., -- program args...   (N: the exit status the program should give, default 0)
        local envs=() want=0
        case "$1" in rc=*) want="${1#rc=}"; shift ;; esac
        while [ "$1" != "--" ]; do envs+=("$1"); shift; done
        shift
        while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
        programs=$((programs + 1))
        local out="$results/$programs"
        : > "$out"
        (
          env "${envs[@]}" DCCUDA_CACHE_DIR="$build/tests/kernel-cache" valgrind --error-exitcode=99 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect --quiet --log-file="$out.log" "$@" > "$out.out" 2>&1
          rc=$?
          # 99: valgrind found errors; any other status but the expected one is the program's own failure.
          if [ $rc -ne "$want" ]; then
            { echo "valgrind: $(basename "$1") $* exited with $rc"; tail -n 20 "$out.log"; tail -n 5 "$out.out"; } > "$out"
          else
            echo ok > "$out"
          fi
        ) &
      }
      # Every exported function with bad input, in two halves (GoogleTest's shards) side by side:
      # the longest program here.
      for shard in 0 1; do
        vg DCCUDA_DRIVER_LIBRARY="$fake" DCFAKE_DEVICES=2 "${libs[@]}" GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard \
          -- "$build/tests/test_bad_inputs" --gtest_brief=1
      done
      vg DCCUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1 -- "$build/tests/test_no_driver" --gtest_brief=1
      vg DCCUDA_DRIVER_LIBRARY="$fake" -- "$build/tests/test_status" --gtest_brief=1
      vg DCCUDA_DRIVER_LIBRARY="$fake" DCFAKE_DEVICES=2 -- "$build/tests/test_device" --gtest_brief=1
      vg DCCUDA_DRIVER_LIBRARY="$fake" -- "$build/tests/test_handles" --gtest_brief=1
      vg DCCUDA_DRIVER_LIBRARY="$fake" -- "$build/tests/test_regressions" --gtest_brief=1
      # The C programs: dccuda-info (text and JSON), and the saxpy sample (NVRTC, the fake's emulated kernel).
      vg DCCUDA_DRIVER_LIBRARY="$fake" "${libs[@]}" -- "$build/dccuda-info"
      vg DCCUDA_DRIVER_LIBRARY="$fake" "${libs[@]}" -- "$build/dccuda-info" --json
      vg DCCUDA_DRIVER_LIBRARY="$fake" -- "$build/dccuda-saxpy" 10007
      vg rc=2 DCCUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1 "${libs[@]}" -- "$build/dccuda-info"  # 2: no driver
      wait
      runs=0; bad=0
      for f in "$results"/*; do
        case "$f" in *.log|*.out) continue ;; esac
        runs=$((runs + 1))
        # An empty verdict: the program's subshell never finished writing it.
        if [ "$(cat "$f")" != ok ]; then bad=$((bad + 1)); cat "$f"; [ -s "$f" ] || echo "valgrind: no verdict in $f"; fi
      done
      rm -rf "$results"
      summary+=$(printf "%-10s %d programs, %d with errors or failures (%d s)" valgrind $runs $bad $((SECONDS - start)))$'\n'
      [ $bad -eq 0 ] || failed=1
      ;;
    *) echo "unknown: $w" >&2; exit 2 ;;
  esac
  echo "   ($w: $((SECONDS - start)) s)"
done
echo "== summary"
printf "%s" "$summary"
exit $failed
