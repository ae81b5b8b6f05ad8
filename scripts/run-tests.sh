#!/bin/bash
# The test command: installs what is missing, builds with -Werror, runs the
# unit tests (make check) and the integration tests against a real
# slurmctld/slurmd on this machine, and closes with "N passed, N failed".
# Run as root from a clone: sudo scripts/run-tests.sh
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ "$(id -u)" = 0 ] || { echo "run-tests: run as root: it installs packages and starts munged, slurmctld and slurmd" >&2; exit 2; }

passed=0 failed=0
declare -a phases=()
phase() { # name command...: run a phase, record its wall time
    local name=$1 t0=$SECONDS; shift
    echo "== $name"
    "$@"; local rc=$?
    phases+=("$(printf '%-14s %5ds' "$name" $((SECONDS - t0)))")
    return $rc
}
finish() {
    echo; echo "== durations"; printf '   %s\n' "${phases[@]}"
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]; exit $?
}
fatal() { echo "run-tests: $*" >&2; failed=$((failed + 1)); finish; }

phase install-deps scripts/install-deps.sh >/tmp/slurm-burst-deps.log 2>&1 \
    || { cat /tmp/slurm-burst-deps.log; fatal "installing dependencies failed"; }
phase configure bash -c 'autoreconf -fi >/dev/null 2>&1 && ./configure -q --enable-werror >/dev/null' \
    || fatal "autoreconf/configure failed (see config.log)"
phase build make -j"$(nproc)" >/tmp/slurm-burst-build.log 2>&1 \
    || { tail -n 60 /tmp/slurm-burst-build.log; fatal "build failed"; }

# Unit tests: each CppUTest case counts; every other make-check test counts once.
phase unit-tests make -j"$(nproc)" check >/tmp/slurm-burst-check.log 2>&1
for trs in $(find . -name '*.trs' -newer /tmp/slurm-burst-build.log); do
    log=${trs%.trs}.log
    if [ "$trs" = ./tests/unit/unit_tests.trs ]; then
        summary=$(grep -E '^(OK|Errors) \(' "$log" | tail -n 1)
        total=$(sed -nE 's/.*[ (]([0-9]+) tests,.*/\1/p' <<<"$summary")
        bad=$(sed -nE 's/^Errors \(([0-9]+) failures?,.*/\1/p' <<<"$summary")
        if [ -z "$total" ]; then   # crashed before its summary
            cat "$log"; failed=$((failed + 1)); continue
        fi
        bad=${bad:-0}
        passed=$((passed + total - bad)); failed=$((failed + bad))
        [ "$bad" = 0 ] || cat "$log"
        echo "   unit_tests: $((total - bad)) passed, $bad failed"
    elif grep -q ':test-result: PASS' "$trs"; then
        passed=$((passed + 1)); echo "   ${trs%.trs}: PASS"
    else
        failed=$((failed + 1)); echo "   ${trs%.trs}: FAIL"; cat "$log"
    fi
done

# Integration tests print TAP-style "ok - ..." / "not ok - ..." lines.
phase integration tests/slurm/run-all.sh "$top" 2>&1 | tee /tmp/slurm-burst-integration.log
passed=$((passed + $(grep -c '^ok ' /tmp/slurm-burst-integration.log)))
failed=$((failed + $(grep -c '^not ok ' /tmp/slurm-burst-integration.log)))
# Provider "aws" against the official AWS SDK for JavaScript (npm ci on first
# use) and a local HTTPS EC2 endpoint that re-verifies every signature.
phase providers tests/providers/run-all.sh "$top" 2>&1 | tee /tmp/slurm-burst-providers.log
passed=$((passed + $(grep -c '^ok ' /tmp/slurm-burst-providers.log)))
failed=$((failed + $(grep -c '^not ok ' /tmp/slurm-burst-providers.log)))
# The OpenStack provider against a real Keystone + Nova on this machine
# (tests/openstack; its first run installs about 730 MB of Debian packages).
phase openstack env BURST_TEST_TIMEOUT=2400 tests/slurm/run-all.sh "$top" tests/openstack/test_*.sh 2>&1 |
    tee /tmp/slurm-burst-openstack.log
passed=$((passed + $(grep -c '^ok ' /tmp/slurm-burst-openstack.log)))
failed=$((failed + $(grep -c '^not ok ' /tmp/slurm-burst-openstack.log)))
finish
