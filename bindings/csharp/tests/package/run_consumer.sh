#!/usr/bin/env bash
# The package's Mono consumer test: extracts a Dccuda .nupkg as NuGet lays packages out
# (packages/dccuda/<version>/), compiles tests/package/Consumer.cs against its lib/<tfm>/Dccuda.dll
# and runs it twice with no LD_LIBRARY_PATH and no DCCUDA_LIBRARY_PATH, so that only the
# resolver can find libdccuda:
#   1. Dccuda.dll used from the extracted package (MONO_PATH): runtimes/ two levels up;
#   2. a build output's layout: Dccuda.dll beside the program, runtimes/<rid>/native/ beside it.
# Each run must load libdccuda from the package's files (Consumer.cs checks /proc/self/maps).
#   run_consumer.sh PACKAGE.nupkg MCS MONO WORK
set -euo pipefail
pkg="$1"; mcs="$2"; mono="$3"; work="$4"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$work"
mkdir -p "$work"
version="$(basename "$pkg" .nupkg)"; version="${version#Dccuda.}"
root="$work/packages/dccuda/$version"
python3 -m zipfile -e "$pkg" "$root"
tfm="$(ls "$root/lib" | head -n1)"
lib="$root/lib/$tfm"
echo "package $pkg: lib/$tfm, runtimes: $(ls "$root/runtimes" | tr '\n' ' ')"

mkdir -p "$work/app1"
"$mcs" -nologo -r:"$lib/Dccuda.dll" -r:System.Net.Http -out:"$work/app1/Consumer.exe" "$here/Consumer.cs"

echo "== 1. Dccuda.dll from the extracted package ($lib)"
env -u LD_LIBRARY_PATH -u DCCUDA_LIBRARY_PATH MONO_PATH="$lib" "$mono" "$work/app1/Consumer.exe" "$root/runtimes"

echo "== 2. a build output: Dccuda.dll and runtimes/ beside the program"
mkdir -p "$work/app2"
cp "$work/app1/Consumer.exe" "$lib/Dccuda.dll" "$work/app2/"
[ -f "$lib/Dccuda.dll.config" ] && cp "$lib/Dccuda.dll.config" "$work/app2/"
cp -r "$root/runtimes" "$work/app2/runtimes"
env -u LD_LIBRARY_PATH -u DCCUDA_LIBRARY_PATH -u MONO_PATH "$mono" "$work/app2/Consumer.exe" "$work/app2/runtimes"
