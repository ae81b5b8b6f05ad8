#!/bin/bash
# Runs every tests/providers/test_*.sh (no Slurm needed: they exercise the
# cloud providers against oracles and local servers).  Each prints TAP-style
# "ok - what" / "not ok - what" lines; a test that dies without saying so is
# reported as one failure.  Usage: run-all.sh BUILDDIR [test...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export BURST_BUILDDIR=${1:-$(cd "$here/../.." && pwd)}
shift || true
tests=("$@")
((${#tests[@]})) || tests=("$here"/test_*.sh)
for t in "${tests[@]}"; do
    name=$(basename "$t" .sh)
    echo "# $name"
    out=$(mktemp)
    timeout --kill-after=10 300 bash "$t" "$BURST_BUILDDIR" 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$out"; then
        echo "not ok - $name exited with status $rc"
    fi
    rm -f "$out"
done
