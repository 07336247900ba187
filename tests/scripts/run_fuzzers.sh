#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, DCCUDA_BUILD_FUZZERS=ON) and
# runs each for a bounded time from its committed seed corpus (tests/fuzz/corpus/):
#   fuzz_module_image  the module image readers (PTX, CUBIN, fatbin)
#   fuzz_cache_entry   the disk cache's entry reader
#   fuzz_api           the public API as a program of calls, on the fake driver
# Any crash, sanitizer report or broken invariant fails the run; the input that
# caused it is left in build-fuzz/artifacts/ (add it to the corpus with the fix).
#   tests/scripts/run_fuzzers.sh [seconds per fuzzer (default 60)] [fuzzer ...]
# DCCUDA_FUZZ_SEED: libFuzzer's seed (default 0: a new one each run; CI fixes
# it, so that a red CI is a regression, not a new find; run longer and
# unseeded to look for new bugs).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${1:-60}"
shift || true
fuzzers=("$@")
[ ${#fuzzers[@]} -eq 0 ] && fuzzers=(fuzz_module_image fuzz_cache_entry fuzz_api)
build="$root/build-fuzz"

echo "== build (clang, libFuzzer, ASan + UBSan)"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDCCUDA_BUILD_TESTS=ON -DDCCUDA_BUILD_FUZZERS=ON >/dev/null
cmake --build "$build" --target "${fuzzers[@]}" dcfake_cuda

mkdir -p "$build/artifacts"
# intercept_tls_get_addr=0: see run_sanitizers.sh (clang 14 with glibc 2.36).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:intercept_tls_get_addr=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The fuzzers run side by side (each is one process on one core); their
# reports follow in order once all have stopped.
for f in "${fuzzers[@]}"; do
  seeds="$root/tests/fuzz/corpus/$f"
  work="$build/corpus/$f"   # what the run finds grows here, not in the repository
  mkdir -p "$work"
  echo "== $f: $seconds s from $(ls "$seeds" | wc -l) seeds"
  rm -f "$build/$f.rc"
  (
    rc=0
    "$build/tests/$f" -max_total_time="$seconds" -seed="${DCCUDA_FUZZ_SEED:-0}" -print_final_stats=1 -timeout=30 \
      -rss_limit_mb=4096 -artifact_prefix="$build/artifacts/$f-" "$work" "$seeds" > "$build/$f.log" 2>&1 || rc=$?
    echo "$rc" > "$build/$f.rc"
  ) &
done
wait
status=0
summary=""
for f in "${fuzzers[@]}"; do
  log="$build/$f.log" work="$build/corpus/$f"
  rc=$(cat "$build/$f.rc" 2>/dev/null || echo 1)
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
  line=$(printf "%-18s rc=%d  %s executions in %s s  (coverage %s edges, corpus %s inputs)" \
    "$f" "$rc" "$runs" "$seconds" "$cov" "$(ls "$work" | wc -l)")
  echo "$line"
  summary+="$line"$'\n'
  if [ "$rc" -ne 0 ]; then
    status=1
    grep -B2 -A30 -E 'ERROR: |runtime error|deadly signal|fuzz_api: ' "$log" | head -60
  fi
done
echo "== summary"
printf "%s" "$summary"
exit $status
