#!/usr/bin/env bash
# NVRTC is looked for first in the folder that holds libdccuda (where a NuGet
# package's runtimes/<rid>/native puts it). A copy of libdccuda, dccuda-info
# and dccuda-saxpy goes into a scratch folder; the fake NVRTC
# (libdcfake_nvrtc.so, which reports version 99.1 and compiles nothing) is put
# beside it as libnvrtc.so.13, and must be the one found:
#   - by dccuda-info, linked to the copy (its RUNPATH is $ORIGIN);
#   - by a host process that loads the copy by a relative path (Python's
#     ctypes, as .NET's NativeLibrary.Load loads by path);
#   - by the kernel cache: a source compiled with the real NVRTC before the
#     fake arrived is compiled again (by the fake, which fails), not answered
#     from the cache under the old NVRTC's version.
# Before the fake is there, the same copy must not report 99.1 (the control).
#   check_nvrtc_beside_library.sh <build-dir> <libdcfake_nvrtc.so> <work-dir>
set -uo pipefail
build="$1"; fake="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work/pkg" "$work/cache"
cp -L "$build/libdccuda.so.1" "$build/dccuda-info" "$build/dccuda-saxpy" "$work/pkg/"
unset LD_LIBRARY_PATH DCCUDA_NVRTC_LIBRARY
export DCCUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1 DCCUDA_CACHE_DIR="$work/cache"
failed=0
fail() { echo "FAIL: $*"; failed=1; }

before=$("$work/pkg/dccuda-info" 2>&1 | grep '^nvrtc')
echo "without NVRTC beside libdccuda: $before"
case "$before" in *"nvrtc    99.1"*) fail "the fake NVRTC is reported before it is in the folder";; esac

primed=0
case "$before" in
  *"runtime compilation works"*)
    out=$("$work/pkg/dccuda-saxpy" 2>&1)
    case "$out" in *"compiled saxpy to PTX"*) primed=1; echo "compiled saxpy with the real NVRTC (cache primed)";;
      *) fail "dccuda-saxpy did not compile with the real NVRTC: $out";; esac;;
  *) echo "no real NVRTC here: the cache part is left out (it needs one to compile first)";;
esac

cp "$fake" "$work/pkg/libnvrtc.so.13"
after=$("$work/pkg/dccuda-info" 2>&1 | grep '^nvrtc')
echo "with the fake NVRTC beside libdccuda: $after"
case "$after" in *"nvrtc    99.1"*) ;; *) fail "dccuda-info did not load the NVRTC beside libdccuda";; esac

if [ -n "${DCTEST_SANITIZED:-}" ]; then
  echo "sanitizer build ($DCTEST_SANITIZED): the Python host part is left out (the runtime must come first)"
else
(cd "$work" && python3 - <<'PY') || fail "a process loading pkg/libdccuda.so.1 by path did not find the NVRTC beside it"
import ctypes, sys
lib = ctypes.CDLL("pkg/libdccuda.so.1")
major, minor = ctypes.c_int32(), ctypes.c_int32()
status = lib.dc_nvrtc_version(ctypes.byref(major), ctypes.byref(minor))
print(f"loaded by relative path through ctypes: dc_nvrtc_version -> {status}, {major.value}.{minor.value}")
sys.exit(0 if status == 0 and (major.value, minor.value) == (99, 1) else 1)
PY
fi

if [ $primed = 1 ]; then
  out=$("$work/pkg/dccuda-saxpy" 2>&1)
  echo "dccuda-saxpy with the fake beside libdccuda: $(echo "$out" | tail -1)"
  case "$out" in
    *"compiled saxpy to PTX"*) fail "the kernel cache answered with code of the previous NVRTC";;
    *"fake NVRTC"*) ;;
    *) fail "dccuda-saxpy did not reach the fake NVRTC: $out";;
  esac
fi

if [ $failed = 0 ]; then echo "nvrtc_search: PASS"; else echo "nvrtc_search: FAILED"; exit 1; fi
