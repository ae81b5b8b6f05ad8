#!/bin/bash
# Runs every tests/slurm/test_*.sh against a real Slurm on this machine.
# Each test starts the cluster shape it needs (lib/cluster.sh) and prints
# TAP-style "ok - what" / "not ok - what" lines; a test that dies without
# saying so is reported as one failure.  Usage: run-all.sh BUILDDIR [test...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export BURST_BUILDDIR=${1:-$(cd "$here/../.." && pwd)}
shift || true
tests=("$@")
((${#tests[@]})) || tests=("$here"/test_*.sh)
for t in "${tests[@]}"; do
    [ -e "$t" ] || continue
    name=$(basename "$t" .sh)
    echo "# $name"
    t0=$SECONDS
    out=$(mktemp)
    timeout --kill-after=30 "${BURST_TEST_TIMEOUT:-900}" bash "$t" 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$out"; then
        echo "not ok - $name exited with status $rc"
    fi
    echo "# $name took $((SECONDS - t0)) s"
    rm -f "$out"
done
