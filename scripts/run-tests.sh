#!/bin/bash
# The test command: installs what is missing, builds with -Werror, runs the
# unit tests (make check), the integration tests against a real
# slurmctld/slurmd on this machine (Debian's Slurm 22.05, then a Slurm 24.11
# built from Debian 13's source for the plugin, burst, crash and budget
# tests and the wrong-release refusal), the Debian packages' build, install and
# burst, the provider wire tests and the real OpenStack test, and closes with
# "N passed, N failed".
# Run as root from a clone: scripts/run-tests.sh
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ "$(id -u)" = 0 ] || { echo "run-tests: run as root: it installs packages and starts munged, slurmctld and slurmd" >&2; exit 2; }

logs=${BURST_TEST_LOGS:-/tmp/slurm-burst-tests}
mkdir -p "$logs"
passed=0 failed=0
durations=()

# phase NAME SHOW command...: runs the command with its output in
# $logs/NAME.log (also on the terminal when SHOW=show) and records its time.
phase() {
    local name=$1 show=$2 t0=$SECONDS rc; shift 2
    echo "== $name"
    if [ "$show" = show ]; then
        "$@" 2>&1 | tee "$logs/$name.log"; rc=${PIPESTATUS[0]}
    else
        "$@" >"$logs/$name.log" 2>&1; rc=$?
    fi
    durations+=("$(printf '%-14s %5d s' "$name" $((SECONDS - t0)))")
    return "$rc"
}
# Integration suites print TAP-style "ok - ..." / "not ok - ..." lines.
count_tap() {
    local ok bad
    ok=$(grep -c '^ok ' "$logs/$1.log"); bad=$(grep -c '^not ok ' "$logs/$1.log")
    passed=$((passed + ok)); failed=$((failed + bad))
    echo "   $1: $ok passed, $bad failed"
}
finish() {
    echo; echo "== durations"; printf '   %s\n' "${durations[@]}"
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]; exit $?
}
fatal() { echo "run-tests: $*" >&2; failed=$((failed + 1)); finish; }

phase install-deps quiet scripts/install-deps.sh \
    || { cat "$logs/install-deps.log"; fatal "installing dependencies failed"; }
phase configure quiet bash -c 'autoreconf -fi && ./configure --enable-werror' \
    || { tail -n 30 "$logs/configure.log"; fatal "autoreconf/configure failed (see config.log)"; }
phase build quiet make -j"$(nproc)" \
    || { tail -n 60 "$logs/build.log"; fatal "build failed"; }

# Unit tests: each CppUTest case counts; every other make-check test counts once.
phase unit-tests quiet make -j"$(nproc)" check
for trs in $(find . -name '*.trs' -newer "$logs/build.log"); do
    log=${trs%.trs}.log
    if [ "$trs" = ./tests/unit/unit_tests.trs ]; then
        summary=$(grep -E '^(OK|Errors) \(' "$log" | tail -n 1)
        total=$(sed -nE 's/.*[ (]([0-9]+) tests,.*/\1/p' <<<"$summary")
        bad=$(sed -nE 's/^Errors \(([0-9]+) failures?,.*/\1/p' <<<"$summary")
        if [ -z "$total" ]; then   # crashed before its summary
            cat "$log"; failed=$((failed + 1)); echo "   unit_tests: crashed"; continue
        fi
        bad=${bad:-0}
        passed=$((passed + total - bad)); failed=$((failed + bad))
        [ "$bad" = 0 ] || cat "$log"
        echo "   unit_tests: $((total - bad)) passed, $bad failed"
    elif grep -q ':test-result: PASS' "$trs"; then
        passed=$((passed + 1)); echo "   ${trs%.trs}: passed"
    else
        failed=$((failed + 1)); echo "   ${trs%.trs}: FAILED"; cat "$log"
    fi
done

# The integration tests mostly wait on daemons, so the two other compiles —
# slurm-burst against Slurm 24.11 and the Debian packages — run beside them
# at the lowest CPU priority; their phases below find them built.
debs=$(mktemp -d /tmp/slurm-burst-debs.XXXXXX)
prebuild_t0=$SECONDS
# Its own session, so that an interrupted run stops the compiles too.
setsid bash -c '
    nice -n 19 tests/slurm/run-release.sh --build-only "$1" 24.11 || echo "prebuild: the Slurm 24.11 build failed"
    nice -n 19 tests/package/build-debs.sh "$1" "$2" || echo "prebuild: the package build failed"
' - "$top" "$debs" >"$logs/prebuild.log" 2>&1 &
prebuild=$!
trap 'kill -- "-$prebuild" 2>/dev/null' EXIT

# Plugin, actuator, local provider and burstd against a real slurmctld/slurmd.
phase integration show tests/slurm/run-all.sh "$top"
count_tap integration
wait "$prebuild"
durations+=("$(printf '%-14s %5d s (beside integration)' prebuild $((SECONDS - prebuild_t0)))")
# The phases below build again what failed here, and report it.
grep '^prebuild: ' "$logs/prebuild.log" && echo "   (see $logs/prebuild.log)"
# The same plugin and burstd on Slurm 24.11 (Debian 13's source, built into
# /opt/slurm-24.11 by scripts/build-slurm.sh; slurm-burst built against it in
# /tmp/slurm-burst-24.11).
phase slurm-24.11 show tests/slurm/run-release.sh "$top" 24.11
count_tap slurm-24.11
# The Debian packages (built above with dpkg-buildpackage, a second full
# compile): installed with apt, the end-to-end burst run from the installed files,
# purged.
phase package show tests/package/test_package_install.sh "$top" "$debs" && rm -rf "$debs"
count_tap package
# Provider "aws" against the official AWS SDK for JavaScript (npm ci on first
# use) and a local HTTPS EC2 endpoint that re-verifies every signature.
phase providers show tests/providers/run-all.sh "$top"
count_tap providers
# The OpenStack provider, and burstd's crash test with it, against one real
# Keystone + Nova on this machine shared by the tests (tests/openstack; its
# first run installs about 730 MB of Debian packages).
phase openstack show env BURST_TEST_TIMEOUT=2400 tests/openstack/run-all.sh "$top"
count_tap openstack
finish
