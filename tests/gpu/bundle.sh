#!/usr/bin/env bash
# Builds everything that runs on a GPU machine and gathers it in one folder
# (default .carry/gpu) and one archive of it (.carry/pack/gpu.tar.xz, the one
# that travels): the library, dccuda-info, the samples, the test
# binaries, the benchmarks and tests/gpu/run.sh's helpers. The GPU machine
# needs no compiler: it only runs what is here.
#   tests/gpu/bundle.sh [out-dir]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/.carry/gpu}"
build="$root/build-gpu"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCCUDA_BUILD_TESTS=ON \
  -DDCCUDA_BUILD_BENCH=ON >/dev/null
cmake --build "$build"
# The C# tests and sample as self-contained programs (mkbundle), where Mono's
# mkbundle is installed (mono-devel); the GPU machine has no Mono.
"$root/bindings/csharp/bundle.sh" "$build" "$build/extra/csharp" || echo "bundle: no C# bundle"

rm -rf "$out"
mkdir -p "$out/lib" "$out/bin" "$out/tests" "$out/bench"
cp -a "$build"/libdccuda.so* "$out/lib/"
cp "$build/tests/libdcfake_cuda.so" "$out/lib/"
for exe in dccuda-info dccuda-saxpy dccuda-multi-gpu; do
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
  cp "$root/bench/peers.py" "$out/bench/"
fi
# Optional extras other build steps place in build-gpu/extra (binding samples...).
if [ -d "$build/extra" ]; then cp -a "$build/extra" "$out/"; fi
# Host binaries only (one at a time: strip stops at a CUDA ELF it cannot read).
for f in "$out"/tests/test_* "$out"/bench/bench_* "$out"/bin/* "$out"/lib/*.so*; do
  [ -L "$f" ] || strip --strip-debug "$f" 2>/dev/null || true
done
# One compressed archive travels (the folder is over the transfer limit);
# tests/gpu/run.sh unpacks it.
pack="$root/.carry/pack"
mkdir -p "$pack"
tar -C "$(dirname "$out")" -cJf "$pack/gpu.tar.xz" "$(basename "$out")"
du -sh "$out" "$pack/gpu.tar.xz"
