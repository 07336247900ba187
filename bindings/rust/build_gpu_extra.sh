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

# The safe crate's test programs (the same `cargo test` CI runs through the fake
# driver), built without running, for tests/gpu/run.sh to run against the real one:
# <out>/tests/<test name>, one program per file of dccuda/tests/ plus the unit tests.
rm -rf "$out/tests"
mkdir -p "$out/tests"
"$cargo" test --offline --release -p dccuda --no-run --message-format=json 2>/dev/null |
  python3 -c '
import json, shutil, sys
out = sys.argv[1]
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        name = m["target"]["name"] + ("-unit" if m["target"]["kind"] == ["lib"] else "")
        shutil.copy(m["executable"], out + "/" + name)
        print("rust test program:", name)
' "$out/tests"
[ -n "$(ls "$out/tests")" ] || { echo "build_gpu_extra.sh: no Rust test program was built"; exit 1; }
