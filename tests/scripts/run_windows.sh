#!/usr/bin/env bash
# Cross-builds dccuda.dll for Windows x64 with MinGW-w64
# (cmake/mingw-w64-x86_64.cmake), checks its export table and imports
# (tests/windows/check_dll.py, with a planted mistake of each kind), and runs
# dccuda-info.exe and the Windows test programs (tests/windows) under Wine
# against the fake driver built as a Windows DLL (dcfake_nvcuda.dll). Also
# shows that a nvcuda.dll in the working directory is never loaded, and that
# UTF-8 paths outside ASCII reach the Win32 calls intact. There is no Windows
# NVRTC here: the tests that compile skip, each saying why; the launch tests
# launch the committed precompiled kernels instead.
# Usage: tests/scripts/run_windows.sh [build-dir]   (default: build-windows)
#   DCCUDA_WINDOWS=0 in tests/scripts/run_all.sh leaves this out.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build-windows}"
build="$(mkdir -p "$build" && cd "$build" && pwd)"
objdump=x86_64-w64-mingw32-objdump
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine="$(command -v wine64 || true)"
if ! command -v x86_64-w64-mingw32-g++-posix >/dev/null || [ -z "$wine" ]; then
  echo "run_windows: needs g++-mingw-w64-x86-64-posix and wine64 (tests/scripts/setup_machine.sh installs them)"
  exit 1
fi

launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_DIR="${CCACHE_DIR:-$root/.ccache}" CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
echo "== cross-build for Windows x64 (MinGW-w64, -O1) in $build"
# Release's flags with -O1: the run's cost is the compile, not the tests.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64-x86_64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-O1 -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DDCCUDA_BUILD_TESTS=ON \
  "${launcher[@]}" >"$build/configure.log"
cmake --build "$build" --target windows_tests -j2
bin="$build/bin"

echo "== dccuda.dll: exports and imports (tests/windows/check_dll.py)"
check="$root/tests/windows/check_dll.py"
python3 "$check" "$objdump" "$bin/dccuda.dll" "$root/abi/dccuda.symbols"
for plant in drop:dc_init add:_ZNSt6vectorIiE import:libstdc++-6.dll; do
  if python3 "$check" "$objdump" "$bin/dccuda.dll" "$root/abi/dccuda.symbols" --plant "$plant" >"$build/plant.log"; then
    echo "FAIL: check_dll.py passed with the planted mistake $plant"
    cat "$build/plant.log"
    exit 1
  fi
  echo "planted $plant: the check fails, as it must ($(grep FAIL "$build/plant.log" | head -1 | cut -c1-120))"
done

echo "== Wine ($("$wine" --version 2>/dev/null || echo wine64)): a headless prefix in $build/wineprefix"
export WINEPREFIX="$build/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export LC_ALL=C.UTF-8  # environment values reach Windows as UTF-16 through the locale's UTF-8
unset DISPLAY WAYLAND_DISPLAY CUDA_PATH CUDA_HOME DCCUDA_DRIVER_LIBRARY DCCUDA_NVRTC_LIBRARY DCCUDA_CACHE_DIR
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  "$wine" wineboot -i >"$build/wineboot.log" 2>&1
fi
winpath() { "$wine" winepath -w "$1" 2>/dev/null | tr -d '\r'; }
fake="$(winpath "$bin/dcfake_nvcuda.dll")"
cache="$build/kernel-cache"
rm -rf "$cache"
mkdir -p "$build/logs"
failed=0

# run NAME EXPECTED_RC PATTERN ENV... -- PROGRAM ARGS...: runs under Wine, then checks the exit code and the output.
run() {
  local name="$1" want_rc="$2" pattern="$3"
  shift 3
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local log="$build/logs/$name.log" rc=0
  (cd "$bin" && env "${envs[@]}" timeout 300 "$wine" "$@") >"$log" 2>&1 || rc=$?
  tr -d '\r' <"$log" >"$log.txt" && mv "$log.txt" "$log"
  if [ "$rc" != "$want_rc" ] || ! grep -qE "$pattern" "$log"; then
    echo "FAIL $name: exit $rc (want $want_rc), output $(grep -qE "$pattern" "$log" && echo has || echo lacks) /$pattern/; the last lines of $log:"
    tail -n 40 "$log"
    failed=1
    return 0
  fi
  local summary
  summary="$(grep -E '^\[  (PASSED|SKIPPED|FAILED)  \] [0-9]+ test' "$log" | tr '\n' ' ' || true)"
  echo "ok   $name${summary:+: $summary}"
}

fake_env=("DCCUDA_DRIVER_LIBRARY=$fake" "DCCUDA_CACHE_DIR=$(winpath "$cache")")
echo "== dccuda-info.exe and the test programs under Wine (fake driver: $fake)"
run dccuda-info.fake 0 "device 1: dccuda fake device 1" "${fake_env[@]}" DCFAKE_DEVICES=2 -- dccuda-info.exe
run dccuda-info.no-driver 2 "could not load nvcuda.dll" -- dccuda-info.exe
# A nvcuda.dll planted in the working directory is not the driver: the default
# search is System32 only. Named explicitly, the same file loads (the refusal
# above is the search's, not the file's).
planted="$build/planted-cwd"
rm -rf "$planted" && mkdir -p "$planted" && cp "$bin/dcfake_nvcuda.dll" "$planted/nvcuda.dll"
rc=0
(cd "$planted" && timeout 120 "$wine" "$bin/dccuda-info.exe") >"$build/logs/cwd.log" 2>&1 || rc=$?
if [ "$rc" = 2 ] && grep -q "could not load nvcuda.dll" "$build/logs/cwd.log" && ! grep -q "fake device" "$build/logs/cwd.log"; then
  echo "ok   dccuda-info.cwd-not-searched: nvcuda.dll in the working directory was not loaded"
else
  echo "FAIL dccuda-info.cwd-not-searched: exit $rc"; cat "$build/logs/cwd.log"; failed=1
fi
run dccuda-info.explicit-path 0 "dccuda fake device 0" "DCCUDA_DRIVER_LIBRARY=$(winpath "$planted/nvcuda.dll")" \
  -- dccuda-info.exe
# UTF-8 paths outside ASCII: the driver's path and the cache directory (created by dccuda).
unicode="$build/ünïcødé-путь-路径"
rm -rf "$unicode" && mkdir -p "$unicode" && cp "$bin/dcfake_nvcuda.dll" "$unicode/"
run dccuda-info.unicode-paths 0 "cache +.*ünïcødé-путь-路径.kernels\$" \
  "DCCUDA_DRIVER_LIBRARY=$(winpath "$unicode/dcfake_nvcuda.dll")" "DCCUDA_CACHE_DIR=$(winpath "$unicode")\\kernels" \
  -- dccuda-info.exe
if [ -d "$unicode/kernels" ]; then
  echo "ok   cache directory created at $unicode/kernels"
else
  echo "FAIL the cache directory $unicode/kernels was not created"; failed=1
fi

# The cache directory's trust check, end to end: Wine makes a directory's owner and access
# list from its Unix owner and mode, so a mode-0777 directory is one Everyone may write,
# and a directory of another user is owned by someone else. Both are refused.
open_dir="$build/cache-open-to-all"
rm -rf "$open_dir" && mkdir -p "$open_dir" && chmod 0777 "$open_dir"
run cache-trust.writable-by-everyone 0 "is not used: it is writable by .*Everyone" \
  "DCCUDA_DRIVER_LIBRARY=$fake" "DCCUDA_CACHE_DIR=$(winpath "$open_dir")" -- dccuda-info.exe
if [ "$(id -u)" = 0 ]; then
  other_dir="$build/cache-of-another-user"
  rm -rf "$other_dir" && mkdir -p "$other_dir" && chmod 0700 "$other_dir" && chown nobody "$other_dir"
  run cache-trust.another-owner 0 "is not used: it is owned by .*not by this process's user" \
    "DCCUDA_DRIVER_LIBRARY=$fake" "DCCUDA_CACHE_DIR=$(winpath "$other_dir")" -- dccuda-info.exe
else
  echo "skip cache-trust.another-owner: needs root to give a directory to another user"
fi

run test_status 0 "PASSED" "${fake_env[@]}" -- test_status.exe
run test_no_driver 0 "PASSED" "DCCUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1" -- test_no_driver.exe
run test_device 0 "PASSED" "${fake_env[@]}" DCFAKE_DEVICES=2 -- test_device.exe
run test_buffer 0 "PASSED" "${fake_env[@]}" -- test_buffer.exe
run test_copy 0 "PASSED" "${fake_env[@]}" -- test_copy.exe
run test_launch 0 "PASSED" "${fake_env[@]}" -- test_launch.exe
run test_bad_inputs 0 "PASSED" "${fake_env[@]}" DCFAKE_DEVICES=2 -- test_bad_inputs.exe
# The platform files themselves: the kernel cache's file operations (which need NVRTC
# elsewhere), the access-list check and its refusal, the library search.
run test_platform_windows 0 "PASSED" -- test_platform_windows.exe

# Each skipped test once, with its reason (the first line gtest prints for it).
skipped="$(cat "$build"/logs/test_*.log | grep -c '^\[  SKIPPED \] [A-Za-z].* ([0-9]* ms)$' || true)"
if [ "$skipped" != 0 ]; then
  echo "== $skipped tests skipped under Wine; the reasons:"
  cat "$build"/logs/test_*.log | grep -A1 ': Skipped$' | grep -vE ': Skipped$|^--$' | sed -E 's/\(tried .*\)/(...)/' |
    sort | uniq -c | sed 's/^/  /'
fi
if [ "$failed" != 0 ]; then
  echo "== Windows run FAILED"
  exit 1
fi
echo "== Windows run passed"
