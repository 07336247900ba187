#!/usr/bin/env bash
# Runs the GPU suite on a machine with an NVIDIA GPU, from the repository root,
# over a bundle made by tests/gpu/bundle.sh (default .carry/gpu). Every test
# binary runs against the REAL driver (no DCCUDA_DRIVER_LIBRARY). Logs go to
# $OUT (or ./gpu-out); a summary table is printed last.
#   tests/gpu/run.sh [bundle-dir | bundle.tar.xz] [--sanitize] [--bench]
set -uo pipefail
bundle=.carry/gpu
sanitize=0; bench=0
for a in "$@"; do
  case "$a" in
    --sanitize) sanitize=1 ;;
    --bench) bench=1 ;;
    *) bundle="$a" ;;
  esac
done
if [[ "$bundle" == *.tar.xz ]]; then
  unpacked="$(mktemp -d)"
  tar -C "$unpacked" -xJf "$bundle"
  bundle="$unpacked/$(basename "$bundle" .tar.xz)"
fi
final="${OUT:-$PWD/gpu-out}"
# Logs are gathered in a scratch folder and come back as one archive.
out="$(mktemp -d)"
mkdir -p "$final"
case "$bundle" in /*) ;; *) bundle="$PWD/$bundle" ;; esac
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset DCCUDA_DRIVER_LIBRARY
export DCTEST_LARGE=1   # the 1 GiB copy cases
export DCCUDA_CACHE_DIR="$out/kernel-cache"
summary="$out/summary.txt"
: > "$summary"

echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
date -u +"%Y-%m-%d %H:%M UTC" | tee -a "$out/gpu.txt"

echo "== dccuda-info"
"$bundle/bin/dccuda-info" | tee "$out/dccuda-info.txt"; echo "exit $?" >> "$out/dccuda-info.txt"
"$bundle/bin/dccuda-info" --json > "$out/dccuda-info.json"

if [ -x "$bundle/bin/dccuda-saxpy" ]; then
  echo "== saxpy sample (C)"
  "$bundle/bin/dccuda-saxpy" 2>&1 | tee "$out/saxpy.txt"
  echo "saxpy (C)                $( [ ${PIPESTATUS[0]} -eq 0 ] && echo PASS || echo FAIL )" >> "$summary"
fi

for sample in "$bundle"/extra/*/*saxpy*; do
  [ -x "$sample" ] || continue
  name=$(basename "$sample")
  echo "== saxpy sample ($name)"
  "$sample" 2>&1 | tee "$out/$name.txt"
  printf "%-24s %s\n" "$name" "$( [ ${PIPESTATUS[0]} -eq 0 ] && echo PASS || echo FAIL )" >> "$summary"
done

# The bindings' own test programs, where the bundle has them.
for t in "$bundle/extra/zig/dccuda-zig-tests" "$bundle/extra/csharp/dccuda-cs-tests"; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  echo "== binding tests ($name)"
  "$t" > "$out/$name.log" 2>&1
  rc=$?
  tail -n 3 "$out/$name.log"
  printf "%-24s rc=%d %s\n" "$name" "$rc" "$(tail -n 1 "$out/$name.log" | tr -s ' ')" >> "$summary"
done

# Tests that only make sense on the fake driver or without a driver.
skip_re='^(test_no_driver|test_stub_driver|test_init|test_old_driver|test_too_old_driver)$'
echo "== test binaries against the real driver"
for t in "$bundle"/tests/test_*; do
  name=$(basename "$t")
  [[ "$name" =~ $skip_re ]] && continue
  if [[ "$name" == *fault* ]]; then
    # A real kernel fault is kept for the whole process: one process per test.
    rc=0
    : > "$out/$name.log"
    for case in $("$t" --gtest_list_tests | awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}'); do
      "$t" --gtest_brief=1 --gtest_filter="$case" >> "$out/$name.log" 2>&1 || rc=1
    done
  else
    "$t" --gtest_brief=1 > "$out/$name.log" 2>&1
    rc=$?
  fi
  counts=$(grep -E '^\[ +(PASSED|FAILED|SKIPPED) +\]' "$out/$name.log" | tr -s ' ' | tr '\n' ' ')
  printf "%-24s rc=%d %s\n" "$name" "$rc" "$counts" | tee -a "$summary"
  [ $rc -ne 0 ] && grep -B3 -A12 'Failure\|FAILED' "$out/$name.log" | head -60
done

if [ $sanitize -eq 1 ] && command -v compute-sanitizer >/dev/null; then
  echo "== compute-sanitizer memcheck"
  for t in "$bundle"/tests/test_*; do
    name=$(basename "$t")
    [[ "$name" =~ $skip_re ]] && continue
    [[ "$name" =~ (stress|recovery|lost|out_of_memory) ]] && continue  # out_of_memory: fills the device
    compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 "$t" --gtest_brief=1 \
      --gtest_filter='-*Fault*:*Lost*:*Recover*:*Illegal*' > "$out/memcheck-$name.log" 2>&1
    rc=$?
    errs=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$out/memcheck-$name.log" | tail -1)
    printf "memcheck %-15s rc=%d %s\n" "$name" "$rc" "$errs" | tee -a "$summary"
  done
fi

if [ $bench -eq 1 ]; then
  echo "== benchmarks"
  for b in "$bundle"/bench/bench_*; do
    name=$(basename "$b")
    [ -x "$b" ] || continue
    "$b" --benchmark_min_time=0.2 --benchmark_out="$out/$name.json" --benchmark_out_format=json \
      > "$out/$name.txt" 2>&1
    echo "bench $name rc=$?" | tee -a "$summary"
  done
  for b in "$bundle"/extra/*/*bench*; do
    [[ "$b" == *.sh ]] && continue
    [ -x "$b" ] || continue
    name=$(basename "$b")
    "$b" > "$out/$name.txt" 2>&1
    echo "bench $name rc=$?" | tee -a "$summary"
  done
  if command -v python3 >/dev/null; then
    python3 "$bundle/bench/peers.py" "$out/peers.json" > "$out/peers.txt" 2>&1
    echo "bench peers.py rc=$?" | tee -a "$summary"
  fi
fi

echo "== summary"
cat "$summary"
cp "$summary" "$out/dccuda-info.txt" "$final/" 2>/dev/null
tar -czf "$final/gpu-logs.tgz" -C "$out" .
