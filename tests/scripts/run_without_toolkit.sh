#!/usr/bin/env bash
# Shows that dccuda builds and passes its C/C++ tests on a machine without the
# CUDA toolkit: the library, dccuda-info, the fake driver and every C/C++ test
# are configured, built and run with the toolkit hidden, and the tests that
# need NVRTC skip, each saying why.
#
# Hidden how: where a private mount namespace can be made (root, as in CI),
# everything under /usr/local/cuda* is covered by an empty tmpfs inside it, so
# that cuda.h, nvcc and libnvrtc are not there at all (ld.so.cache still names
# libnvrtc.so.13, but its file is gone); CMake is also told not to look for the
# toolkit. Elsewhere the fallback is CMake's flag plus
# DCCUDA_NVRTC_LIBRARY=/nonexistent, and the run says so.
#
# The build uses ccache where installed: objects that the build with the toolkit
# already compiled come from its cache, but only when every header they
# included is still there, so a file that needs the toolkit is compiled again
# and fails.
#   tests/scripts/run_without_toolkit.sh [build-dir]   (default: build-notoolkit)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build-notoolkit}"
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac

if [ "${DCCUDA_TOOLKIT_HIDDEN:-}" != namespace ]; then
  if [ "$(id -u)" = 0 ] && unshare --mount --propagation private true 2>/dev/null; then
    exec unshare --mount --propagation private env DCCUDA_TOOLKIT_HIDDEN=namespace "$0" "$build"
  fi
  echo "without toolkit: no private mount namespace here (needs root): CMake is told not to look for the"
  echo "  toolkit and DCCUDA_NVRTC_LIBRARY=/nonexistent stands for a missing NVRTC"
  export DCCUDA_NVRTC_LIBRARY=/nonexistent/libnvrtc.so.13
else
  hidden=""
  for d in /usr/local/cuda*; do
    [ -e "$d" ] || continue
    real="$(readlink -f "$d")"
    case " $hidden " in *" $real "*) continue ;; esac
    mount -t tmpfs -o size=1m,mode=755 dccuda-no-toolkit "$real"
    hidden+=" $real"
  done
  echo "without toolkit: hidden in this mount namespace:${hidden:- nothing (no /usr/local/cuda*)}"
fi

# The toolkit must really be gone.
for f in /usr/local/cuda/include/cuda.h /usr/local/cuda/bin/nvcc; do
  if [ -e "$f" ]; then
    [ -n "${DCCUDA_NVRTC_LIBRARY:-}" ] || { echo "without toolkit: $f is still visible"; exit 1; }
  fi
done
if [ -z "${DCCUDA_NVRTC_LIBRARY:-}" ] &&
   python3 -c 'import ctypes; ctypes.CDLL("libnvrtc.so.13")' 2>/dev/null; then
  echo "without toolkit: libnvrtc.so.13 can still be loaded"; exit 1
fi

launcher=()
if command -v ccache >/dev/null 2>&1; then
  # NOHASHDIR: objects with debug information are shared between build folders.
  export CCACHE_DIR="${CCACHE_DIR:-$root/.ccache}" CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# The bindings' tests are left out (they run in the main build; the Zig and SWIG
# bindings are not even built): the C/C++ suite is what must build and pass here.
echo "== configure and build without the toolkit ($build)"
# The main run's flags (tests without debug information), so that ccache reuses what it compiled.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCCUDA_BUILD_TESTS=ON -DDCCUDA_TEST_DEBUG_INFO=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON -DDCCUDA_ZIG=OFF -DCMAKE_DISABLE_FIND_PACKAGE_SWIG=ON \
  "${launcher[@]}" > "$build.configure.log" 2>&1 ||
  { tail -n 30 "$build.configure.log"; exit 1; }
grep -E "CUDA toolkit" "$build.configure.log" || true
# No compile or link command may name the toolkit's headers, libraries or nvcc.
toolkit_paths='/usr/local/cuda[^ :"]*/(include|lib|lib64|bin/nvcc)'
if grep -Eqs -- "$toolkit_paths" "$build/build.ninja"; then
  echo "without toolkit: the build still names the toolkit:"; grep -Eo -m3 -- "[^ ]*$toolkit_paths[^ ]*" "$build/build.ninja"
  exit 1
fi
start=$SECONDS
cmake --build "$build" > "$build.build.log" 2>&1 || { tail -n 40 "$build.build.log"; exit 1; }
echo "built in $((SECONDS - start)) s"
if command -v ccache >/dev/null 2>&1; then ccache --show-stats 2>/dev/null | grep -iE "^ *(hits|misses)" || true; fi

echo "== C/C++ tests without the toolkit (CTest; whole log in $build/ctest.log)"
rc=0
(cd "$build" && ctest -j2 --output-on-failure -LE '^(abi|csharp|swig|bindings|rust|zig)$' \
  --output-junit junit.xml > ctest.log 2>&1) || rc=$?
grep -E "tests passed|tests failed|Total Test time" "$build/ctest.log"
python3 "$root/tests/scripts/list_skipped.py" "$build/junit.xml"
if [ $rc != 0 ]; then
  (cd "$build" && ctest --rerun-failed --output-on-failure 2>&1 | tail -n 200) || true
  exit $rc
fi
echo "== without the toolkit: everything built, every C/C++ test passed or skipped saying why"
