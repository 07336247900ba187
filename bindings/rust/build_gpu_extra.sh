#!/usr/bin/env bash
# Builds the Rust samples in release for a GPU machine and copies them beside the other
# bundle extras: <build>/extra/rust/rust-saxpy and rust-bench-calls (tests/gpu/bundle.sh
# copies <build>/extra into the bundle, next to its lib/).
#
#   bindings/rust/build_gpu_extra.sh <build-dir> [out-dir]
#
# The binaries find libdccuda.so.1 through LD_LIBRARY_PATH (the GPU runner sets it to the
# bundle's lib/) or, without it, through their run path $ORIGIN/../../lib (the bundle layout).
# CMake runs this as the target `rust_gpu_extra` (built by default with -DDCCUDA_BUILD_BENCH=ON,
# which is how bundle.sh configures build-gpu/).
set -euo pipefail
build="$(cd "${1:?usage: build_gpu_extra.sh <build-dir> [out-dir]}" && pwd)"
out="${2:-$build/extra/rust}"
here="$(cd "$(dirname "$0")" && pwd)"
cargo="${CARGO:-cargo}"
command -v "$cargo" >/dev/null || cargo="$HOME/.cargo/bin/cargo"

export DCCUDA_LIB_DIR="$build"
export CARGO_TARGET_DIR="$build/cargo-target"
# Literal $ORIGIN: the dynamic loader expands it, relative to the binary.
export DCCUDA_RPATH='$ORIGIN/../../lib'
cd "$here"
"$cargo" build --offline --release -p dccuda --example saxpy --example bench_calls
mkdir -p "$out"
cp "$CARGO_TARGET_DIR/release/examples/saxpy" "$out/rust-saxpy"
cp "$CARGO_TARGET_DIR/release/examples/bench_calls" "$out/rust-bench-calls"
echo "Rust samples in $out: rust-saxpy, rust-bench-calls"
