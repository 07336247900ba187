#!/usr/bin/env bash
# Builds everything that runs on a GPU machine and gathers it in one folder
# (default .carry/gpu) and one archive of it (.carry/pack/gpu.tar.xz, the one
# that travels): the library, dccuda-info, the samples, the test
# binaries, the benchmarks and tests/gpu/run.sh's helpers. The GPU machine
# needs no compiler: it only runs what is here.
#
# The library and dccuda-info are the portable release build
# (src/tools/build_release.sh, x86-64, glibc 2.28), the ones that ship: every
# test program and sample loads that libdccuda.so.1 (lib/); the build with
# this machine's compiler is kept in lib-native/ for comparison runs
# (LD_LIBRARY_PATH=<bundle>/lib-native).
#   tests/gpu/bundle.sh [out-dir]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/.carry/gpu}"
build="$root/build-gpu"

launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_DIR="${CCACHE_DIR:-$root/.ccache}" CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCCUDA_BUILD_TESTS=ON \
  -DDCCUDA_BUILD_BENCH=ON "${launcher[@]}" >/dev/null
cmake --build "$build"
# The C# tests and sample as self-contained programs (mkbundle), where Mono's
# mkbundle is installed (mono-devel); the GPU machine has no Mono.
"$root/bindings/csharp/bundle.sh" "$build" "$build/extra/csharp" || echo "bundle: no C# bundle"

# The portable library and dccuda-info (x86-64: the GPU machines' architecture).
release="$root/build-release/dist-gpu"
DCCUDA_RELEASE_TARGETS=x86_64-linux-gnu.2.28 "$root/src/tools/build_release.sh" "$release"
portable="$release/runtimes/linux-x64/native"

rm -rf "$out"
mkdir -p "$out/lib" "$out/lib-native" "$out/bin" "$out/tests" "$out/bench"
cp -a "$build"/libdccuda.so* "$out/lib-native/"
cp "$portable/libdccuda.so.1" "$out/lib/"
ln -s libdccuda.so.1 "$out/lib/libdccuda.so"
cp "$release/BUILD-INFO.txt" "$out/lib/"
cp "$build/tests/libdcfake_cuda.so" "$out/lib/"
# The NVTX recorder (tests/diagnostics/nvtx_recorder.cpp): test_profiler runs its range tests
# in a child with NVTX_INJECTION64_PATH naming it.
cp "$build/tests/libdctest_nvtx_recorder.so" "$out/lib/"
cp "$portable/dccuda-info" "$out/bin/"
for exe in dccuda-saxpy dccuda-multi-gpu dccuda-echo-actor dccuda-allreduce; do
  [ -x "$build/$exe" ] && cp "$build/$exe" "$out/bin/"
done
find "$build/tests" -maxdepth 1 -type f -name 'test_*' -perm -u+x -exec cp {} "$out/tests/" \;
# Which binaries run on the GPU and how: their CTest labels (tests/CMakeLists.txt, dc_test).
cp "$build/tests/gpu_tests.txt" "$out/tests/"
# Precompiled kernels (nvcc CUBIN / fatbin) the module tests load from beside themselves.
find "$build/tests" -maxdepth 1 -type f \( -name '*.cubin' -o -name '*.fatbin' -o -name '*.ptx' \) -exec cp {} "$out/tests/" \;
if [ -d "$build/bench" ]; then
  find "$build/bench" -maxdepth 1 -type f -name 'bench_*' -perm -u+x -exec cp {} "$out/bench/" \;
  find "$build/bench" -maxdepth 1 -name 'libbenchmark.so*' -exec cp -L {} "$out/bench/" \;
  cp "$root/bench/peers.py" "$root/bench/sweep_copies.sh" "$out/bench/"
fi
# The commit the bundle is built from, for the records of a run (the benchmark
# plots name it); a tree with uncommitted changes says so.
{
  if commit=$(git -C "$root" rev-parse HEAD 2>/dev/null); then
    git -C "$root" diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
  else
    commit="unknown (not a git checkout)"
  fi
  echo "commit: $commit"
  echo "bundled: $(date -u +"%Y-%m-%d %H:%M UTC")"
} > "$out/bundle.txt"
# Optional extras other build steps place in build-gpu/extra (binding samples...).
if [ -d "$build/extra" ]; then cp -a "$build/extra" "$out/"; fi
# Host binaries only (one at a time: strip stops at a CUDA ELF it cannot read).
for f in "$out"/tests/test_* "$out"/bench/bench_* "$out"/bin/* "$out"/lib/*.so* "$out"/lib-native/*.so*; do
  [ -L "$f" ] || strip --strip-debug "$f" 2>/dev/null || true
done
# One compressed archive travels (the folder is over the transfer limit);
# tests/gpu/run.sh unpacks it.
pack="$root/.carry/pack"
mkdir -p "$pack"
tar -C "$(dirname "$out")" -cJf "$pack/gpu.tar.xz" "$(basename "$out")"
du -sh "$out" "$pack/gpu.tar.xz"
