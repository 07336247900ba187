#!/usr/bin/env bash
# Self-contained executables of the C# sample and tests (and the SWIG binding's tests, where
# SWIG built them), for a machine without Mono (the GPU machine): Mono's mkbundle (--simple) appends the assemblies (Dccuda.dll, mscorlib...), the
# Mono configuration and a dllmap for dccuda to a copy of the mono runtime. libdccuda itself
# is not inside: the bundles load it from LD_LIBRARY_PATH (run.sh points it at the GPU
# bundle's lib/).
#   bindings/csharp/bundle.sh [build-dir] [out-dir]
# Defaults: build-gpu and <build-dir>/extra/csharp (tests/gpu/bundle.sh carries
# build-gpu/extra to the GPU machine). Needs mcs, mono and mkbundle (Debian: mono-mcs,
# mono-runtime, mono-devel); without them it says so and exits 0, leaving nothing behind.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build-gpu}"
out="${2:-$build/extra/csharp}"

for tool in mcs mono mkbundle; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "bindings/csharp/bundle.sh: $tool not found (apt-get install mono-mcs mono-runtime mono-devel): no C# bundle made"
    exit 0
  fi
done

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCCUDA_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --target dccuda_csharp
cs="$build/bindings/csharp"
# The SWIG-generated binding's tests too, where SWIG built them (the dccuda_swig_csharp target).
swig="$build/bindings/swig"
cmake --build "$build" --target dccuda_swig_csharp >/dev/null 2>&1 || true

# The system Mono configuration with the dllmap added: mkbundle --simple embeds assemblies'
# own .config files but their dllmaps are not applied, while the system config's are.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
monoconfig=/etc/mono/config
[ -f "$monoconfig" ] || { echo "bundle.sh: $monoconfig not found" >&2; exit 1; }
# Mono's own native helper (libmono-native: number formatting, files, random seeds) is
# loaded from LD_LIBRARY_PATH instead of Mono's library folder, and travels in $out/lib with
# the libraries it needs beyond the C runtime.
sed -e 's|</configuration>|  <dllmap dll="dccuda" target="libdccuda.so.1" os="!windows"/>\n</configuration>|' \
    -e 's|\$mono_libdir/libmono-native.so|libmono-native.so|g' \
  "$monoconfig" > "$work/config"
grep -q 'dll="dccuda"' "$work/config" || { echo "bundle.sh: could not add the dllmap to $monoconfig" >&2; exit 1; }
machineconfig=/etc/mono/4.5/machine.config
native=/usr/lib/libmono-native.so
[ -f "$native" ] || native=$(ls /usr/lib/*/libmono-native.so 2>/dev/null | head -n1)
[ -n "$native" ] && [ -f "$native" ] || { echo "bundle.sh: libmono-native.so not found" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/lib" "$out/bin"
cp -L "$native" "$out/lib/libmono-native.so"
ldd "$native" | awk '/=> \// { print $3 }' | while read -r dep; do
  case "$(basename "$dep")" in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libresolv.so*|ld-linux*|libgcc_s.so*|libstdc++.so*) ;;  # glibc and the compiler runtime: the host's own
    *) cp -L "$dep" "$out/lib/" ;;
  esac
done

# The bundles go to bin/; beside them, wrappers of the same names set LD_LIBRARY_PATH (the
# GPU bundle's lib/ for libdccuda, ours for libmono-native: the loader reads it only at
# start), so that each runs when called directly, as tests/gpu/run.sh calls extra/*/*saxpy*.
# name:program:folder of its assemblies[:arguments the wrapper passes]
bundles=("dccuda-saxpy-cs:Saxpy.exe:$cs" "dccuda-echo-actor-cs:EchoActor.exe:$cs" "dccuda-cs-tests:DccudaTests.exe:$cs")
if [ -f "$swig/SwigTests.exe" ] && ls "$swig"/libdccuda_swig.so* >/dev/null 2>&1; then
  # Every case but the one that reads the generated sources, which stay in the build tree.
  cases="$(LD_LIBRARY_PATH="$swig:$build" mono "$swig/SwigTests.exe" --list | grep -vx generated_api_has_no_swigtype | tr '\n' ' ')"
  bundles+=("dccuda-swig-tests:SwigTests.exe:$swig:$cases")
  cp -L "$swig"/libdccuda_swig.so "$out/lib/"
fi
for entry in "${bundles[@]}"; do
  IFS=: read -r name exe dir arguments <<< "$entry"
  mkbundle --simple --deps -L "$dir" -o "$out/bin/$name" "$dir/$exe" \
    --config "$work/config" --machine-config "$machineconfig" >"$work/$name.log" 2>&1 \
    || { cat "$work/$name.log" >&2; exit 1; }
  {
    echo '#!/bin/sh'
    echo 'here="$(cd "$(dirname "$0")" && pwd)"'
    echo '[ $# -eq 0 ] && set -- '"$arguments"
    echo 'LD_LIBRARY_PATH="$here/../../lib:$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/bin/'"$name"'" "$@"'
  } > "$out/$name"
  chmod +x "$out/$name"
done

{
  echo '#!/usr/bin/env bash'
  echo '# Runs the C# saxpy sample and the C# binding'"'"'s tests (mkbundle executables: no Mono'
  echo '# needed) against the libdccuda in the GPU bundle'"'"'s lib/ and whatever driver'
  echo '# DCCUDA_DRIVER_LIBRARY names (the real one when unset). Exit status: the first failure'"'"'s.'
  echo 'here="$(cd "$(dirname "$0")" && pwd)"'
  echo 'rc=0'
  echo 'echo "== C# saxpy sample"'
  echo '"$here/dccuda-saxpy-cs" "$@" || rc=$?'
  echo 'echo "== C# echo-actor sample"'
  echo '"$here/dccuda-echo-actor-cs" || { r=$?; [ $rc -eq 0 ] && rc=$r; }'
  echo 'echo "== C# binding tests"'
  echo '"$here/dccuda-cs-tests" || { r=$?; [ $rc -eq 0 ] && rc=$r; }'
  echo 'if [ -x "$here/dccuda-swig-tests" ]; then'
  echo '  echo "== SWIG C# binding tests"'
  echo '  "$here/dccuda-swig-tests" || { r=$?; [ $rc -eq 0 ] && rc=$r; }'
  echo 'fi'
  echo 'exit $rc'
} > "$out/run.sh"
chmod +x "$out/run.sh"
du -sh "$out"
