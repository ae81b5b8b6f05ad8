#!/bin/bash
# Brings up ONE real OpenStack (lib/openstack.sh, about 3 minutes on 2
# cores) and runs every tests/openstack/test_*.sh against it through
# tests/slurm/run-all.sh (per-test timeout, a test that dies without saying
# so is a failure).  The tests find the cloud through the exported OS_*
# variables (OS_SHARED=1) and keep out of each other's way with projects of
# their own (openstack_project).  Each test also runs alone, starting its
# own cloud.  Usage: run-all.sh BUILDDIR [test...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/openstack.sh
source "$here/lib/openstack.sh"
builddir=${1:-$(cd "$here/../.." && pwd)}
shift || true
tests=("$@")
((${#tests[@]})) || tests=("$here"/test_*.sh)

unset OS_SHARED
openstack_install || { tap_fail "OpenStack packages are installed"; exit 1; }
openstack_start || { tap_fail "a real OpenStack comes up"; exit 1; }
tap_ok "a real OpenStack comes up (${OS_START_SECONDS} s)"
out=$(mktemp)
OS_SHARED=1 "$here/../slurm/run-all.sh" "$builddir" "${tests[@]}" | tee "$out"
# the cloud's logs stay for a failed test (openstack_stop, from the EXIT trap)
grep -q '^not ok ' "$out" && OS_KEEP_LOGS=1
rm -f "$out"
