#!/usr/bin/env bash
# A/B: the same bench_launch binary against the old and new library, alternated.
cd "$(dirname "$0")"
export DCCUDA_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc; grep -m1 "model name" /proc/cpuinfo
for pass in 1 2 3 4 5; do
  for v in old new; do
    echo "=== pass $pass $v"
    LD_LIBRARY_PATH=$PWD/$v:$PWD ./bench_launch --benchmark_filter='GraphReplay|EmptyEnqueue|FourArgsEnqueue' --benchmark_min_time=0.3 2>&1 | grep -vE "^\s*$"
  done
done
