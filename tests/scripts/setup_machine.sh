#!/usr/bin/env bash
# Installs what building and testing dccuda needs on a fresh Debian 12 machine.
# The CUDA toolkit (/usr/local/cuda) is optional: without it everything builds
# and the tests that need NVRTC skip, saying why. Idempotent: packages already
# present are not fetched again.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang pkg-config python3
  libgtest-dev libgmock-dev libbenchmark-dev
  valgrind libclang-rt-14-dev
  mono-mcs mono-runtime swig abigail-tools
  libmono-system-net-http4.0-cil  # System.Net.Http: the C# type-name check compiles against it (tests/csharp)
  ccache qemu-user libc6-arm64-cross
  python3-matplotlib
  graphviz  # dot: test_graph_build checks that dc_graph_write_dot's file parses (dot -Tsvg)
  passwd  # useradd/userdel: test_trust_boundaries makes two users (Priority: required, so normally there)
  # The Windows build (tests/scripts/run_windows.sh): MinGW-w64 with the posix thread model
  # (std::thread, std::mutex), and Wine to run it (wine64 alone: /usr/lib/wine/wine64, no X).
  g++-mingw-w64-x86-64-posix wine64
)
# Tools that may come from outside Debian (rustup, NodeSource): only installed
# from Debian when the command is missing.
command -v cargo >/dev/null 2>&1 || packages+=(cargo rustc)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: all packages present"
fi

if [ ! -d /usr/local/cuda/include ]; then
  echo "setup: no CUDA toolkit in /usr/local/cuda: dccuda builds without it; the tests that need NVRTC" \
       "will skip, and the checks of dccuda's CUDA declarations against the toolkit's headers will not run"
fi
