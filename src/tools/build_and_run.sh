#!/usr/bin/env bash
# Sets up the machine, builds dccuda and runs the main job: dccuda-info and
# the saxpy sample. Without a GPU both say so and show what works (NVRTC).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"

"$root/tests/scripts/setup_machine.sh" || exit 1
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 1
cmake --build "$build" --target dccuda-info dccuda-saxpy || exit 1

echo "== dccuda-info"
"$build/dccuda-info"
info=$?
echo "(dccuda-info exit code $info: 0 = GPU ready, 2 = no driver, 3 = no device)"
echo
echo "== saxpy sample"
"$build/dccuda-saxpy"
exit $?
