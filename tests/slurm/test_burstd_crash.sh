#!/bin/bash
# burstd killed with SIGKILL at random moments while Slurm resumes and
# suspends CLOUD nodes through it, with the local provider, restarted each
# time (the rounds and what is asserted after each: lib/burstd_crash.sh).
# The local provider's calls take as long as a cloud API's
# (LaunchLatency/TerminateLatency, the instance appears or stops halfway
# through), so most kills fall between the ledger's intent and the
# provider's answer.  The same test runs against a real Nova in
# tests/openstack/test_openstack_crash.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
# shellcheck source=lib/burstd_crash.sh
source "$here/lib/burstd_crash.sh"
rounds=${BURSTD_CRASH_ROUNDS:-20}
# MinJobAge: the jobs' final states are read at the end, with no accounting;
# --cred-expire: a job requeued from a forced-down node may start again 21 s
# later instead of 121 s.
burstd_test_cluster burstcrash --local 1 --cloud 4 --cpus 2 --conf MinJobAge=3600 --cred-expire 20 || exit 1
tap_ok "cluster started in $CLUSTER_START_SECONDS s"
# "never": the cycle hires nothing, so every launch here is one Slurm asked for.
BURSTD_PROVIDER_EXTRA="LaunchLatency=1 TerminateLatency=1"
burstd_bring_up never 0 || exit 1

# The local provider's live instances: a state file whose slurmd still runs.
local_instances() {
    "$CRASH_PY" - "$BURSTD_DIR/state/local-box" <<'PY'
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    rec = json.load(open(f))
    try:
        os.kill(int(rec["pid"]), 0)
    except (OSError, ValueError):
        continue
    print(rec["node"], rec["provider_id"])
PY
}
CRASH_INSTANCES=local_instances
burstd_crash_test "$rounds"
tap_finish
