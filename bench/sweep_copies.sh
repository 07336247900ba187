#!/usr/bin/env bash
# Sweeps the pageable-copy tunables over bench_memory's rows on a GPU machine
# (about 2 minutes on an H200 host), one bench_memory run per setting:
#
#   bench/sweep_copies.sh [path/to/bench_memory] [out-dir]
#
# (In a GPU bundle: bench/sweep_copies.sh, next to bench_memory.) Part "small"
# sweeps the small-copy limit and the pipelining thresholds over the 4 KiB,
# 64 KiB and 1 MiB pageable rows (both raw baselines of host-to-device copies);
# part "large" sweeps the staging settings over the 64 MiB and 256 MiB pageable
# rows, after one run of the pinned rows they are measured against (and of
# BM_HostToPinned, the copy threads' bandwidth with no DMA). Each line
# printed: the setting, the benchmark and its counters (dc_us, raw_us, dc_GB/s,
# raw_GB/s, speedup, samples); each run's JSON goes to out-dir (default
# ./sweep_copies). SWEEP_MIN_TIME_SMALL / SWEEP_MIN_TIME_LARGE override the
# --benchmark_min_time of each part (0.05 / 0.3 s); SWEEP_PARTS="small" or
# "large" runs one part.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="${1:-$here/bench_memory}"
out="${2:-sweep_copies}"
parts="${SWEEP_PARTS:-small large}"
mkdir -p "$out"
[ -x "$bench" ] || { echo "sweep_copies: $bench is not an executable" >&2; exit 2; }

run=0
sweep() {  # min_time filter setting...
  local min_time="$1" filter="$2"
  shift 2
  run=$((run + 1))
  local label="${*:-defaults}"
  echo "== $label"
  env "$@" "$bench" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
    --benchmark_out="$out/run$run.json" --benchmark_out_format=json 2>&1 |
    grep -E '^BM_|ERROR' |
    sed -E 's#/manual_time##; s/ +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +[0-9]+ / /; s/bytes_per_second=[^ ]* //' |
    sed "s#^#[$label] #"
  echo "$run: $label" >> "$out/settings.txt"
}

if [[ " $parts " == *" small "* ]]; then
  t="${SWEEP_MIN_TIME_SMALL:-0.05}"
  f='BM_(H2D_Pageable|H2D_PageableRawSynced|D2H_Pageable|H2D_Pinned|D2H_Pinned)/(4096|65536|1048576)/'
  sweep "$t" "$f"                                    # small path up to 4 MiB (default)
  sweep "$t" "$f" DCCUDA_STAGING_SMALL_BYTES=1       # the driver's own path, as before
  sweep "$t" "$f" DCCUDA_STAGING_SMALL_BYTES=65536
  sweep "$t" "$f" DCCUDA_STAGING_SMALL_BYTES=1048576 DCCUDA_STAGING_MIN_BYTES=4194304
  f2='BM_(H2D_Pageable|D2H_Pageable)/(1048576)/'
  sweep "$t" "$f2" DCCUDA_STAGING_MIN_BYTES_H2D=1048576   # 1 MiB pipelined instead
  sweep "$t" "$f2" DCCUDA_STAGING_MIN_BYTES_H2D=1048576 DCCUDA_STAGING_MIN_CHUNK_BYTES=131072
fi

if [[ " $parts " == *" large "* ]]; then
  t="${SWEEP_MIN_TIME_LARGE:-0.3}"
  sweep "$t" 'BM_(H2D|D2H)_Pinned/(67108864|268435456)/|BM_HostToPinned'   # the reference, and the host's copy bandwidth
  sweep "$t" 'BM_HostToPinned' DCCUDA_COPY_THREADS=8
  f='BM_(H2D|D2H)_Pageable/(67108864|268435456)/'
  sweep "$t" "$f"                                                      # defaults
  sweep "$t" "$f" DCCUDA_COPY_STREAMING=no
  sweep "$t" "$f" DCCUDA_COPY_STREAMING=no DCCUDA_STAGING_MIN_CHUNK_BYTES=8388608  # as before (no ramp)
  sweep "$t" "$f" DCCUDA_STAGING_MIN_CHUNK_BYTES=1048576
  sweep "$t" "$f" DCCUDA_COPY_THREADS=8
  sweep "$t" "$f" DCCUDA_COPY_THREADS=12
  sweep "$t" "$f" DCCUDA_STAGING_CHUNK_BYTES=4194304
  sweep "$t" "$f" DCCUDA_STAGING_CHUNK_BYTES=16777216
  sweep "$t" "$f" DCCUDA_STAGING_CHUNK_BYTES=33554432 DCCUDA_STAGING_BUFFERS=3
  sweep "$t" "$f" DCCUDA_STAGING_BUFFERS=2
  sweep "$t" "$f" DCCUDA_STAGING_BUFFERS=8
  sweep "$t" "$f" DCCUDA_STAGING_CHUNK_BYTES=16777216 DCCUDA_STAGING_BUFFERS=8
fi
echo "sweep_copies: $run runs, JSON in $out"
