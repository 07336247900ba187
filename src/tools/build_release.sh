#!/usr/bin/env bash
# Builds the portable release binaries, the ones a package ships (the C#
# NuGet package carries runtimes/<rid>/native): libdccuda.so.1 and
# dccuda-info for Linux x86-64 and aarch64, with Zig's clang against glibc
# 2.28's symbols (the manylinux_2_28 baseline: RHEL 8+, Ubuntu 20.04+, Debian
# 11+), libc++ linked in. They need nothing beyond libc, libm, libdl,
# libpthread and the dynamic loader; tests/release/check_portable.py checks
# that before anything is copied out, and fails the build otherwise.
#
#   src/tools/build_release.sh [out-dir]       (default: build-release/dist)
#   DCCUDA_RELEASE_TARGETS="x86_64-linux-gnu.2.28"   to build one target
#   DCCUDA_RELEASE_HOST_FAKE=<libdcfake_cuda.so>     a fake driver built for this
#     machine (a test build's): dccuda-info for this machine's architecture runs
#     against it instead of one built here (CI's run saves that build)
#
# Result:
#   <out>/runtimes/linux-x64/native/{libdccuda.so.1,dccuda-info}
#   <out>/runtimes/linux-arm64/native/{libdccuda.so.1,dccuda-info}
#   <out>/include/dccuda.h, <out>/BUILD-INFO.txt, <out>/SHA256SUMS
# Zig comes from tests/scripts/get_zig.sh (npm, pinned by checksum); the CUDA
# toolkit is not used.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$root/build-release"
out="${1:-$work/dist}"
targets="${DCCUDA_RELEASE_TARGETS:-x86_64-linux-gnu.2.28 aarch64-linux-gnu.2.28}"
jobs="${DCCUDA_RELEASE_JOBS:-2}"

zig="$("$root/tests/scripts/get_zig.sh")"
# Zig builds libc++ and the glibc stubs once per target into this cache (shared
# with the tests' portable control binaries, tests/release/tests.cmake).
export ZIG_GLOBAL_CACHE_DIR="$root/.tools/zig-cache" ZIG_LOCAL_CACHE_DIR="$root/.tools/zig-cache"

rid_of() {
  case "$1" in
    x86_64-*) echo linux-x64 ;;
    aarch64-*) echo linux-arm64 ;;
    *) echo "build_release.sh: no runtime identifier for $1" >&2; exit 1 ;;
  esac
}

# CMake wants one executable per tool: small wrappers around `zig cc -target`.
make_wrappers() {
  local dir="$1" target="$2"
  mkdir -p "$dir"
  printf '#!/bin/sh\nexec "%s" cc -target %s "$@"\n' "$zig" "$target" > "$dir/cc"
  printf '#!/bin/sh\nexec "%s" c++ -target %s "$@"\n' "$zig" "$target" > "$dir/c++"
  printf '#!/bin/sh\nexec "%s" ar "$@"\n' "$zig" > "$dir/ar"
  printf '#!/bin/sh\nexec "%s" ranlib "$@"\n' "$zig" > "$dir/ranlib"
  chmod +x "$dir/cc" "$dir/c++" "$dir/ar" "$dir/ranlib"
}

rm -rf "$out"
mkdir -p "$out/include"
cp "$root/include/dccuda.h" "$out/include/"
{
  echo "dccuda $(sed -n 's/^project(dccuda VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt"), portable Linux build"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "compiler: zig $("$zig" version) (clang, libc++ linked statically), glibc symbols of the target below"
} > "$out/BUILD-INFO.txt"

for target in $targets; do
  arch="${target%%-*}"
  rid="$(rid_of "$target")"
  build="$work/$arch"
  echo "== $target -> runtimes/$rid/native"
  make_wrappers "$build/zig-bin" "$target"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$arch" \
    -DCMAKE_C_COMPILER="$build/zig-bin/cc" -DCMAKE_CXX_COMPILER="$build/zig-bin/c++" \
    -DCMAKE_AR="$build/zig-bin/ar" -DCMAKE_RANLIB="$build/zig-bin/ranlib" \
    -DDCCUDA_BUILD_TESTS=OFF -DDCCUDA_BUILD_FAKE_DRIVER=ON -DDCCUDA_STATIC_LIBSTDCXX=OFF \
    -DCMAKE_SHARED_LINKER_FLAGS=-Wl,--strip-debug -DCMAKE_EXE_LINKER_FLAGS=-Wl,--strip-debug \
    -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON >/dev/null
  fake="$build/tests/libdcfake_cuda.so"
  if [ "$arch" = "$(uname -m)" ] && [ -n "${DCCUDA_RELEASE_HOST_FAKE:-}" ]; then
    fake="$DCCUDA_RELEASE_HOST_FAKE"
    cmake --build "$build" -j "$jobs" --target dccuda dccuda-info
  else
    cmake --build "$build" -j "$jobs" --target dccuda dccuda-info dcfake_cuda
  fi
  native="$out/runtimes/$rid/native"
  mkdir -p "$native"
  cp -L "$build/libdccuda.so.1" "$build/dccuda-info" "$native/"
  python3 "$root/tests/release/check_portable.py" --arch "$arch" "$native/libdccuda.so.1" "$native/dccuda-info"
  # dccuda-info runs, against the fake driver built for the same target (a
  # test double; it is not shipped): natively, or under qemu for aarch64.
  run=()
  if [ "$arch" != "$(uname -m)" ]; then
    sysroot="/usr/$arch-linux-gnu"
    if command -v "qemu-$arch" >/dev/null && [ -e "$sysroot/lib/ld-linux-aarch64.so.1" ]; then
      run=("qemu-$arch" -L "$sysroot")
    else
      echo "$target: qemu-$arch or $sysroot missing (qemu-user, libc6-arm64-cross): dccuda-info not run"
      run=(skip)
    fi
  fi
  if [ "${run[0]:-}" != skip ]; then
    info=$(DCCUDA_DRIVER_LIBRARY="$fake" DCFAKE_DEVICES=2 LD_LIBRARY_PATH="$native" \
           DCCUDA_CACHE_DISABLE=1 "${run[@]}" "$native/dccuda-info") || { echo "$info"; echo "$target: dccuda-info failed"; exit 1; }
    echo "$info" | grep -E "^(dccuda|driver|devices)|^  device" | sed "s/^/  $arch dccuda-info: /"
    echo "$info" | grep -q "dccuda fake device 1" || { echo "$target: dccuda-info did not list the fake devices"; exit 1; }
  fi
  echo "runtimes/$rid/native: zig target $target" >> "$out/BUILD-INFO.txt"
done

(cd "$out" && find . -type f ! -name SHA256SUMS | sort | xargs sha256sum > SHA256SUMS)
echo "== release artefacts in $out"
(cd "$out" && find . -type f | sort)
