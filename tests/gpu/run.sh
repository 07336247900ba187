#!/usr/bin/env bash
# Runs the GPU suite on a machine with an NVIDIA GPU, from the repository root,
# over a bundle made by tests/gpu/bundle.sh (default .carry/gpu). Every test
# binary runs against the REAL driver (no DCCUDA_DRIVER_LIBRARY). Logs go to
# $OUT (or ./gpu-out); a summary table is printed last.
#   tests/gpu/run.sh [bundle-dir | bundle.tar.xz] [--skip-tests] [--sanitize] [--bench] [--queue-long]
# (--skip-tests leaves out the samples and test binaries, for a run of only
# the sanitizer or the benchmarks.) --bench runs every benchmark program,
# then bench_launch and bench_memory's allocation again as passes 2 and 3
# (DCCUDA_BENCH_PASSES=N for N passes), then bench/peers.py. --sanitize runs
# compute-sanitizer memcheck over the binaries labelled memcheck and racecheck
# over the kernel and queue tests (DCCUDA_GPU_SANITIZE_ONLY=<regex> keeps the
# binaries it matches, to split the pass over runs). --queue-long sends
# DCCUDA_GPU_QUEUE_MESSAGES (default 10^7) messages through a resident kernel
# (DCCUDA_GPU_QUEUE_SECONDS, default 560, bounds it). Beside the logs:
# gpu.txt (device, driver), host.txt (CPU model, cores, memory, date) and the
# bundle's bundle.txt (commit), which bench/plot/make_plots.py reads.
set -uo pipefail
bundle=.carry/gpu
sanitize=0; bench=0; tests=1; queue_long=0
for a in "$@"; do
  case "$a" in
    --skip-tests) tests=0 ;;
    --sanitize) sanitize=1 ;;
    --queue-long) queue_long=1 ;;
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
# cuBLAS, cuFFT and NCCL: found by dccuda's own search (beside libdccuda, the
# system's, the toolkit's folders); where that finds nothing, the Python
# wheels' copies (nvidia/cu13/lib for CUDA 13, nvidia/<library>/lib before)
# through DCCUDA_<LIBRARY>_LIBRARY.
wheel_library() {  # file-name patterns, best first
  python3 - "$@" 2>/dev/null <<'PY'
import glob, os, sys
try:
    import nvidia
except ImportError:
    raise SystemExit
for pattern in sys.argv[1:]:
    for root in nvidia.__path__:
        for folder in ("cu13/lib", "*/lib"):
            hits = sorted(glob.glob(os.path.join(root, folder, pattern)))
            if hits:
                print(hits[-1])
                raise SystemExit
PY
}
found_by_search() {  # file-name pattern
  ldconfig -p 2>/dev/null | grep -q "$1" && return 0
  ls /usr/local/cuda/lib64/$1 /usr/local/cuda/lib/$1 "${CUDA_HOME:-/nonexistent}"/lib64/$1 >/dev/null 2>&1
}
for spec in "CUBLAS libcublas.so.1[23] libcublas.so.13 libcublas.so.12" \
            "CUFFT libcufft.so.1[12] libcufft.so.12 libcufft.so.11" \
            "NCCL libnccl.so.2 libnccl.so.2"; do
  set -- $spec
  var="DCCUDA_$1_LIBRARY" search="$2"
  shift 2
  if [[ -z "${!var:-}" ]] && ! found_by_search "$search"; then
    lib="$(wheel_library "$@")"
    if [[ -n "$lib" ]]; then
      export "$var=$lib"
      echo "== $var from the Python wheel: $lib"
    fi
  fi
done
set --
export DCTEST_LARGE=1   # the 1 GiB copy cases
export DCCUDA_CACHE_DIR="$out/kernel-cache"
summary="$out/summary.txt"
: > "$summary"

# The summary and the logs reach $final however the run ends (a time limit's
# SIGTERM included), so that a cut-short run still shows how far it got.
finish() {
  echo "== summary"
  cat "$summary"
  cp "$summary" "$out/dccuda-info.txt" "$final/" 2>/dev/null
  tar -czf "$final/gpu-logs.tgz" -C "$out" .
}
trap finish EXIT
trap 'echo "== stopped by a signal"; exit 143' TERM INT

echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
date -u +"%Y-%m-%d %H:%M UTC" | tee -a "$out/gpu.txt"
# The host, for the benchmark plots (bench/plot): CPU model, logical CPUs
# this process may use, memory, kernel, date.
{
  echo "cpu: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)"
  echo "cores: $(nproc)"
  echo "memory: $(awk '/^MemTotal:/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "kernel: $(uname -r)"
  echo "date: $(date -u +"%Y-%m-%d %H:%M UTC")"
} | tee "$out/host.txt"
# The commit the bundle was built from (tests/gpu/bundle.sh).
if [ -f "$bundle/bundle.txt" ]; then cp "$bundle/bundle.txt" "$out/"; cat "$out/bundle.txt"; fi

echo "== library"
echo "lib/libdccuda.so.1: $(head -1 "$bundle/lib/BUILD-INFO.txt" 2>/dev/null || echo "built on the bundling machine")" |
  tee "$out/library.txt"
cat "$bundle/lib/BUILD-INFO.txt" 2>/dev/null >> "$out/library.txt"
echo "library                  $(head -1 "$bundle/lib/BUILD-INFO.txt" 2>/dev/null || echo native build)" >> "$summary"

echo "== dccuda-info"
"$bundle/bin/dccuda-info" | tee "$out/dccuda-info.txt"; echo "exit $?" >> "$out/dccuda-info.txt"
"$bundle/bin/dccuda-info" --json > "$out/dccuda-info.json"

# Each test binary's CTest labels (tests/gpu_tests.txt): the test pass runs those labelled
# gpu, the sanitizer pass those labelled memcheck.
labels_of() { awk -v n="$1" '$1 == n { $1 = ""; print }' "$bundle/tests/gpu_tests.txt"; }
has_label() { [[ " $(labels_of "$1") " == *" $2 "* ]]; }

if [ $tests -eq 1 ]; then
if [ -x "$bundle/bin/dccuda-saxpy" ]; then
  echo "== saxpy sample (C)"
  "$bundle/bin/dccuda-saxpy" 2>&1 | tee "$out/saxpy.txt"
  echo "saxpy (C)                $( [ ${PIPESTATUS[0]} -eq 0 ] && echo PASS || echo FAIL )" >> "$summary"
fi

if [ -x "$bundle/bin/dccuda-allreduce" ]; then
  echo "== allreduce sample (C, NCCL over every GPU)"
  "$bundle/bin/dccuda-allreduce" 2>&1 | tee "$out/allreduce.txt"
  echo "allreduce (C, NCCL)      $( [ ${PIPESTATUS[0]} -eq 0 ] && echo PASS || echo FAIL )" >> "$summary"
fi
if [ -x "$bundle/bin/dccuda-multi-gpu" ]; then
  echo "== multi-GPU sample (C)"
  "$bundle/bin/dccuda-multi-gpu" 2>&1 | tee "$out/multi-gpu.txt"
  echo "multi-gpu (C)            $( [ ${PIPESTATUS[0]} -eq 0 ] && echo PASS || echo FAIL )" >> "$summary"
fi

if [ -x "$bundle/bin/dccuda-echo-actor" ]; then
  echo "== echo actor sample (C): a resident kernel behind two queues"
  timeout 300 "$bundle/bin/dccuda-echo-actor" 100000 2>&1 | tee "$out/echo-actor.txt"
  echo "echo-actor (C)           $( [ ${PIPESTATUS[0]} -eq 0 ] && echo PASS || echo FAIL )" >> "$summary"
fi

for sample in "$bundle"/extra/*/*saxpy* "$bundle"/extra/zig/dccuda-zig-consumer; do
  [ -x "$sample" ] || continue
  name=$(basename "$sample")
  echo "== saxpy sample ($name)"
  "$sample" 2>&1 | tee "$out/$name.txt"
  printf "%-24s %s\n" "$name" "$( [ ${PIPESTATUS[0]} -eq 0 ] && echo PASS || echo FAIL )" >> "$summary"
done

# The bindings' own test programs, where the bundle has them.
for t in "$bundle/extra/zig/dccuda-zig-tests" "$bundle/extra/csharp/dccuda-cs-tests" "$bundle/extra/csharp/dccuda-swig-tests"; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  echo "== binding tests ($name)"
  # Bounded: a program that hangs (at exit, say) is reported as rc=124, and the run goes on.
  timeout -k 10 "${DCCUDA_GPU_BINDING_TIMEOUT:-300}" "$t" > "$out/$name.log" 2>&1
  rc=$?
  tail -n 3 "$out/$name.log"
  printf "%-24s rc=%d %s\n" "$name" "$rc" "$(tail -n 1 "$out/$name.log" | tr -s ' ')" >> "$summary"
done

# The Rust binding's test programs (bindings/rust/build_gpu_extra.sh), one at a
# time: reset.rs and init.rs need a process of their own, as under cargo test.
for t in "$bundle"/extra/rust/tests/*; do
  [ -x "$t" ] || continue
  name="rust-test-$(basename "$t")"
  "$t" --nocapture > "$out/$name.log" 2>&1
  rc=$?
  printf "%-24s rc=%d %s%s\n" "$name" "$rc" "$(grep -h '^test result' "$out/$name.log" | tail -1 | cut -d';' -f1-3)" \
    "$(grep -c '^SKIPPED' "$out/$name.log" | sed 's/^0$//; s/^[0-9][0-9]*$/; & SKIPPED line(s)/')" | tee -a "$summary"
  [ $rc -ne 0 ] && grep -B2 -A12 'panicked\|FAILED' "$out/$name.log" | head -40
done
grep -h '^driver:' "$out"/rust-test-*.log 2>/dev/null | sort -u | sed 's/^/    rust tests: /' | tee -a "$summary"

# The binaries labelled gpu (tests/gpu_tests.txt: each binary and its CTest labels); those
# without it only make sense on the fake driver or without a driver (fault injection, an old
# driver). Labelled faults: a real kernel fault is kept for the whole process, so one process
# per test.
echo "== test binaries against the real driver"
[ -f "$bundle/tests/gpu_tests.txt" ] || echo "no tests/gpu_tests.txt in the bundle (make it with tests/gpu/bundle.sh): no test binary runs"
for t in "$bundle"/tests/test_*; do
  name=$(basename "$t")
  [ -x "$t" ] || continue
  has_label "$name" gpu || continue
  if has_label "$name" faults; then
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
  # Totals the reliability tests print (bad inputs tried, memory before refusal...).
  grep -h '^\[ dccuda   \] \(bad inputs\|stress\|pool\|cuMemAlloc\|device\|[0-9]* exported\)' "$out/$name.log" \
    | sed "s/^/    /" | tee -a "$summary"
done

# The fork rule on the real driver (test_fork, run above): a child forked after
# initialisation is refused every call and never hangs, an exec'd or spawned one works.
if [ -f "$out/test_fork.log" ]; then
  printf "%-24s %s\n" "fork rule" "$(grep -qE '^\[  PASSED  \] 3 tests' "$out/test_fork.log" && echo PASS || echo FAIL)" \
    | tee -a "$summary"
fi

if [ -x "$bundle/tests/test_stress" ]; then
  echo "== stress, longer (32 threads, 30 s, real driver)"
  DCTEST_STRESS_SECONDS=30 DCTEST_STRESS_THREADS=32 "$bundle/tests/test_stress" --gtest_brief=1 > "$out/stress-30s.log" 2>&1
  rc=$?
  printf "%-24s rc=%d %s\n" "stress 32x30s" "$rc" "$(grep -h '^\[ dccuda   \] stress' "$out/stress-30s.log")" | tee -a "$summary"
fi

fi  # tests

if [ $queue_long -eq 1 ] && [ -x "$bundle/tests/test_resident" ]; then
  # Many messages through a resident kernel, sequence numbers checked both ways
  # (DCCUDA_GPU_QUEUE_MESSAGES, default 10^7; 3 x 10^6 took 395 s with 32 in
  # flight on an H200 behind PCIe on 2026-11-25, about 7,600 a second: 10^7
  # needs more than one 10-minute command there).
  messages="${DCCUDA_GPU_QUEUE_MESSAGES:-10000000}"
  echo "== queues, longer ($messages messages through a resident kernel)"
  start=$SECONDS
  DCTEST_QUEUE_MESSAGES=$messages timeout "${DCCUDA_GPU_QUEUE_SECONDS:-560}" "$bundle/tests/test_resident" \
    --gtest_brief=1 --gtest_filter=ResidentCursorTest.EchoesEveryMessageInOrder > "$out/queue-long.log" 2>&1
  rc=$?
  printf "%-24s rc=%d %s (%d s)\n" "queue $messages messages" "$rc" \
    "$(grep -E '^\[ +(PASSED|FAILED) +\]' "$out/queue-long.log" | tr -s ' ' | tr '\n' ' ')" "$((SECONDS - start))" \
    | tee -a "$summary"
fi

if [ $sanitize -eq 1 ] && command -v compute-sanitizer >/dev/null; then
  echo "== compute-sanitizer memcheck"
  # The binaries whose code runs kernels and copies on the device (CTest label
  # memcheck; the rest only exercises host-side checks); fault tests provoke
  # errors on purpose.
  # Conditional graph nodes (test_graph_build's *Condition* tests) are left
  # out: under compute-sanitizer 2025.3.1 (CUDA 13.0 driver) their kernels stop with
  # CUDA_ERROR_ILLEGAL_ADDRESS while memcheck reports 0 errors; natively they
  # pass (H200, 2026-11-25).
  # Memory errors only: the driver API errors the tests provoke on purpose
  # (bad images, capture misuse) and the end of dccuda's parameter probe
  # (cuFuncGetParamInfo past the last index) are not errors of the code.
  checked=0
  for t in "$bundle"/tests/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    has_label "$name" memcheck || continue
    # DCCUDA_GPU_SANITIZE_ONLY=<regex>: only the binaries it matches (to split the pass over runs).
    [[ -z "${DCCUDA_GPU_SANITIZE_ONLY:-}" || "$name" =~ ${DCCUDA_GPU_SANITIZE_ONLY} ]] || continue
    timeout 400 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 --print-limit 20 "$t" --gtest_brief=1 \
      --gtest_filter='-*Fault*:*Lost*:*Recover*:*Illegal*:*Condition*' > "$out/memcheck-$name.log" 2>&1
    rc=$?
    errs=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$out/memcheck-$name.log" | tail -1)
    printf "memcheck %-15s rc=%d %s\n" "$name" "$rc" "$errs" | tee -a "$summary"
    checked=$((checked + 1))
  done
  # A pass that checked nothing must say so (it once did, silently).
  [ "$checked" -gt 0 ] || echo "memcheck: FAIL: no binary labelled memcheck ran (tests/gpu_tests.txt?)" | tee -a "$summary"
  # The stress test in two mixes: graph captures beside module loads on other
  # threads got invalidated (or the tool crashed) under memcheck only, never
  # natively (docs/RELIABILITY.md, tests/gpu/probes/stress_under_memcheck.sh);
  # every other pairing of work runs in one of the two.
  if [ -x "$bundle/tests/test_stress" ]; then
    for mix in alloc,copy,shared,launch,prepared,graph,stream,handles alloc,copy,shared,launch,prepared,stream,module,handles; do
      log="$out/memcheck-test_stress-$(echo "$mix" | tr , -).log"
      DCTEST_STRESS_OPS=$mix compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 --print-limit 20 \
        "$bundle/tests/test_stress" --gtest_brief=1 > "$log" 2>&1
      rc=$?
      errs=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$log" | tail -1)
      printf "memcheck %-15s rc=%d %s (ops %s)\n" "test_stress" "$rc" "$errs" "$mix" | tee -a "$summary"
    done
  fi
  # Kernels that share memory between threads (reductions, tiles): racecheck.
  if [ -x "$bundle/tests/test_launch_kernels" ]; then
    compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 20 "$bundle/tests/test_launch_kernels" \
      --gtest_brief=1 > "$out/racecheck-test_launch_kernels.log" 2>&1
    rc=$?
    errs=$(grep -o 'RACECHECK SUMMARY: [0-9]* hazard[s]* displayed ([0-9]* error[s]*, [0-9]* warning[s]*)' \
      "$out/racecheck-test_launch_kernels.log" | tail -1)
    printf "racecheck %-14s rc=%d %s\n" "test_launch_kernels" "$rc" "$errs" | tee -a "$summary"
  fi
  # The resident kernels of the queue tests poll memory the host writes: racecheck
  # and memcheck (above, label memcheck) must find nothing there either.
  for q in test_queue test_resident test_persistent; do
    [ -x "$bundle/tests/$q" ] || continue
    [[ -z "${DCCUDA_GPU_SANITIZE_ONLY:-}" || "$q" =~ ${DCCUDA_GPU_SANITIZE_ONLY} ]] || continue
    timeout 400 compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 20 "$bundle/tests/$q" \
      --gtest_brief=1 --gtest_filter='-*HundredTimes*' > "$out/racecheck-$q.log" 2>&1
    rc=$?
    errs=$(grep -o 'RACECHECK SUMMARY: [0-9]* hazard[s]* displayed ([0-9]* error[s]*, [0-9]* warning[s]*)' \
      "$out/racecheck-$q.log" | tail -1)
    printf "racecheck %-14s rc=%d %s\n" "$q" "$rc" "$errs" | tee -a "$summary"
  done
  for s in "$bundle/bin/dccuda-saxpy" "$bundle/bin/dccuda-multi-gpu"; do
    [ -x "$s" ] || continue
    compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 "$s" > "$out/memcheck-$(basename "$s").log" 2>&1
    rc=$?
    errs=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$out/memcheck-$(basename "$s").log" | tail -1)
    printf "memcheck %-15s rc=%d %s\n" "$(basename "$s")" "$rc" "$errs" | tee -a "$summary"
  done
fi

if [ $bench -eq 1 ]; then
  echo "== benchmarks"
  # bench_copy_sweep has fixed repetitions (its own comment gives them); the
  # others run each benchmark for at least 0.2 s. Each line of the summary
  # gives the program's exit status and seconds.
  run_bench() {  # name, output stem, arguments...
    local name="$1" stem="$2" start=$SECONDS
    shift 2
    "$bundle/bench/$name" --benchmark_min_time=0.2 --benchmark_out="$out/$stem.json" --benchmark_out_format=json "$@" \
      > "$out/$stem.txt" 2>&1
    echo "bench $stem rc=$? ($((SECONDS - start)) s)" | tee -a "$summary"
  }
  for b in "$bundle"/bench/bench_*; do
    [ -x "$b" ] || continue
    run_bench "$(basename "$b")" "$(basename "$b")"
  done
  # More passes of the launch benchmarks and of allocation, for the spread
  # between passes the plots show (bench_launch-pass2.json, ...).
  passes="${DCCUDA_BENCH_PASSES:-3}"
  for ((pass = 2; pass <= passes; pass++)); do
    [ -x "$bundle/bench/bench_launch" ] && run_bench bench_launch "bench_launch-pass$pass"
    [ -x "$bundle/bench/bench_memory" ] && run_bench bench_memory "bench_memory-pass$pass" --benchmark_filter=AllocFree
    # The queue round trips again: their tails vary from run to run.
    [ -x "$bundle/bench/bench_queue" ] && run_bench bench_queue "bench_queue-pass$pass"
  done
  for b in "$bundle"/extra/*/*bench*; do
    [[ "$b" == *.sh ]] && continue
    [ -x "$b" ] || continue
    name=$(basename "$b")
    "$b" > "$out/$name.txt" 2>&1
    echo "bench $name rc=$?" | tee -a "$summary"
  done
  if command -v python3 >/dev/null; then
    start=$SECONDS
    python3 "$bundle/bench/peers.py" "$out/peers.json" > "$out/peers.txt" 2>&1
    echo "bench peers.py rc=$? ($((SECONDS - start)) s)" | tee -a "$summary"
  fi
fi
