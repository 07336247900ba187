#!/usr/bin/env bash
# Installs a build into a scratch prefix and uses it as a user would: the
# files are where the install promises, a CMake project finds it with
# find_package(dccuda), a C program builds from pkg-config's flags, and both
# programs run against the installed library.
#   tests/install/check_install.sh <build-dir> <scratch-dir>
set -euo pipefail
build="$1"
work="$2"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
# lib, or lib/<multiarch> where the build was configured for /usr
library=$(find "$prefix" -name libdccuda.so.1 | head -1)
[ -n "$library" ] || { echo "check_install: libdccuda.so.1 is not installed under $prefix"; exit 1; }
libdir=$(dirname "${library#"$prefix"/}")
for f in include/dccuda.h "$libdir/libdccuda.so" "$libdir/libdccuda.so.1" "$libdir/cmake/dccuda/dccudaConfig.cmake" \
         "$libdir/cmake/dccuda/dccudaConfigVersion.cmake" "$libdir/pkgconfig/dccuda.pc" bin/dccuda-info; do
  if [ ! -e "$prefix/$f" ]; then
    echo "check_install: $f is missing under the install prefix; the install rules in CMakeLists.txt must install it"
    exit 1
  fi
done
soname=$(readelf -d "$prefix/$libdir/libdccuda.so.1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" != libdccuda.so.1 ]; then
  echo "check_install: the installed library's SONAME is '$soname', not libdccuda.so.1"
  exit 1
fi

# find_package(dccuda)
cmake -S "$here/consumer" -B "$work/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer-configure.log" 2>&1 ||
  { cat "$work/consumer-configure.log"; echo "check_install: find_package(dccuda) failed"; exit 1; }
cmake --build "$work/consumer-build" > "$work/consumer-build.log" 2>&1 ||
  { cat "$work/consumer-build.log"; echo "check_install: the find_package consumer did not build"; exit 1; }
LD_LIBRARY_PATH="$prefix/$libdir" "$work/consumer-build/consumer"

# pkg-config
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
version=$(pkg-config --modversion dccuda)
echo "check_install: pkg-config dccuda $version"
# shellcheck disable=SC2046  # the flags are words
cc -std=c99 -Wall -Werror -o "$work/consumer-pc" "$here/consumer/main.c" $(pkg-config --cflags --libs dccuda)
LD_LIBRARY_PATH="$prefix/$libdir" "$work/consumer-pc"
echo "check_install: PASS"
