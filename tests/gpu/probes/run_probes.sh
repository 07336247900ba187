#!/usr/bin/env bash
# Runs the probes and a sweep of the pageable-copy staging settings on a GPU
# machine: tests/gpu/probes/run_probes.sh <dir with gpu.tar.xz and the probes>
set -uo pipefail
pack="$1"
work="$(mktemp -d)"
tar -C "$work" -xJf "$pack/gpu.tar.xz"
export LD_LIBRARY_PATH="$work/gpu/lib"
unset DCCUDA_DRIVER_LIBRARY
echo "== recovery"; "$pack/probe_recovery"
echo "== costs"; "$pack/probe_costs"
bench="$work/gpu/bench/bench_memory"
filter='BM_(H2D|D2H)_Pageable/(1048576|268435456)'
sweep() {
  echo "== staging: $*"
  env "$@" "$bench" --benchmark_filter="$filter" --benchmark_min_time=0.3 2>/dev/null |
    grep -E '^BM' | sed -E 's/ +[0-9.]+ [um]s +[0-9.]+ [um]s +[0-9]+ / /; s/bytes_per_second=[^ ]* //'
}
sweep DCCUDA_COPY_THREADS=8
sweep DCCUDA_COPY_THREADS=4
sweep DCCUDA_COPY_THREADS=12
sweep DCCUDA_COPY_THREADS=16
sweep DCCUDA_STAGING_CHUNK_BYTES=4194304
sweep DCCUDA_STAGING_CHUNK_BYTES=16777216 DCCUDA_COPY_THREADS=12
sweep DCCUDA_STAGING_BUFFERS=8 DCCUDA_COPY_THREADS=12
sweep DCCUDA_STAGING_MIN_BYTES=4194304
