#!/bin/bash
# The exporter copies the queue in several read-lock holds (here
# ExportJobsPerLock=2, so a dozen jobs take several holds) and sends the
# kept jobs array again while no job changes.  With jobs submitted, started,
# ended and purged (MinJobAge=2) between the holds:
#  - every snapshot lists each job at most once, and slurmctld keeps scheduling
#  - the copy really took several holds
#  - once the queue is quiet, the snapshot lists exactly squeue's jobs
#  - quiet snapshots reuse the jobs array: the same jobs, the same bytes
#  - a change to a job while quiet is in the next snapshot
#  - unchanged jobs' texts are reused, and (ExportSelfCheck=yes) every
#    jobs array built from them equals a fresh serialization
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
builddir=${BURST_BUILDDIR:-$(cd "$here/../.." && pwd)}
plugdir=$builddir/plugin/.libs
if [ ! -e "$plugdir/job_submit_burst.so" ]; then
    tap_fail "plugin built in $plugdir (run make first)"
    exit 1
fi

listener_pid=""
on_exit() {
    local rc=$?
    [ -n "$listener_pid" ] && kill "$listener_pid" 2>/dev/null
    cluster_stop "$rc"
}
cluster_start --local 2 --cloud 0 --cpus 2 --plugin-dir "$plugdir" --name plugchunk \
    --conf SlurmctldDebug=debug --conf MinJobAge=2 || exit 1
trap on_exit EXIT
sock=$CLUSTER_DIR/burst.sock
log=$CLUSTER_DIR/listener.jsonl
ctld_log=$CLUSTER_DIR/log/slurmctld.log

python3 "$here/lib/snapshot_listener.py" "$sock" "$log" "$CLUSTER_DIR/outbox" &
listener_pid=$!
wait_for "[ -S '$sock' ]" 20 || tap_fail "listener started"
printf 'SocketPath=%s\nExportInterval=1\nExportJobsPerLock=2\nExportSelfCheck=yes\n' "$sock" >"$CLUSTER_DIR/burst.conf"
echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
scontrol reconfigure
wait_for "grep -q '\"type\":\"hello\"' '$log'" 15 || tap_fail "plugin connected" "$(tail -5 "$ctld_log")"

snapshots() { grep -c '"type":"snapshot"' "$log" 2>/dev/null || true; }
# SEQ_MIN: every snapshot with seq >= SEQ_MIN lists each job id once
no_duplicates() {
    python3 - "$log" <<'PY'
import collections, json, sys
bad = []
n = 0
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("type") != "snapshot":
        continue
    n += 1
    ids = collections.Counter(j["id"] for j in m["jobs"])
    dup = [i for i, c in ids.items() if c > 1]
    if dup:
        bad.append("seq %d: %s" % (m["seq"], dup))
print("%d snapshots checked" % n)
if bad:
    print("duplicates:", *bad[:5])
    sys.exit(1)
PY
}

held=()
for i in $(seq 12); do
    held+=("$(sbatch --parsable -H -p local -J "held$i" --wrap true)")
done

# --- churn: jobs start, end, get cancelled and purged while snapshots run
before=$(snapshots)
churn_end=$((SECONDS + 20))
churned=0
while ((SECONDS < churn_end)); do
    # One job a round: the nodes end about as many as come, so the queue
    # drains soon after the churn (three a round left 150 s of draining).
    sbatch -Q -p local -J churn --wrap 'sleep 0.3' >/dev/null && churned=$((churned + 1))
    victim=$(sbatch --parsable -H -p local -J victim --wrap true) && scancel "$victim"
    sleep 0.2
done
during=$(($(snapshots) - before))
if ((during >= 10)); then
    tap_ok "$during snapshots while $churned jobs came and went"
else
    tap_fail "at least 10 snapshots during 20 s of churn" "got $during"
fi
tap_check "no snapshot lists a job twice" no_duplicates
tap_check "slurmctld alive after the churn" scontrol ping
# One node runs the churn jobs one after another; on a loaded machine each
# takes about a second from start to end, so the wait scales with their number.
if wait_for "[ -z \"\$(squeue -h -n churn,victim -o %i)\" ]" $((60 + 2 * churned)); then
    tap_ok "every churn job ran and ended"
else
    tap_fail "every churn job ran and ended" "$(squeue -n churn,victim)"
fi
holds=$(sed -n 's/.*: \([0-9]*\) jobs copied.*locks held \([0-9]*\) times.*/\1 \2/p' "$ctld_log" | sort -n | tail -1)
if [ -n "$holds" ] && (( ${holds#* } >= ${holds% *} / 2 )); then
    tap_ok "jobs copied in holds of at most 2 (largest copy: ${holds% *} jobs in ${holds#* } holds)"
else
    tap_fail "jobs copied in holds of at most 2" "largest copy (jobs holds): '$holds'"
fi

# --- quiet: the snapshot is squeue's queue, and is reused as is
wait_for "[ \$(squeue -h | wc -l) = 12 ]" 30 || tap_fail "only the held jobs left" "$(squeue)"
sleep 3
mark=$(($(wc -l <"$ctld_log") + 1))
# (Slurm itself may still touch the job table now and then, e.g. purging
# the ended jobs, which makes the next snapshot copy again.)
if wait_for "[ \$(tail -n +$mark '$ctld_log' | grep -c 'jobs unchanged') -ge 3 ]" 20; then
    tap_ok "snapshots while nothing changes reuse the jobs array"
else
    tap_fail "snapshots while nothing changes reuse the jobs array" "$(tail -n +"$mark" "$ctld_log" | grep 'snapshot seq' | tail -3)"
fi
quiet_check() {
    python3 - "$log" "$(squeue -h -o %i | sort -n | tr '\n' ' ')" <<'PY'
import json, sys
snaps = [m for m in map(json.loads, open(sys.argv[1])) if m.get("type") == "snapshot"]
want = sorted(map(int, sys.argv[2].split()))
last = snaps[-4:]
for m in last:
    got = sorted(j["id"] for j in m["jobs"])
    if got != want:
        print("seq %d lists %s, squeue %s" % (m["seq"], got, want))
        sys.exit(1)
arrays = {json.dumps(m["jobs"], sort_keys=False) for m in last}
if len(arrays) != 1:
    print("the quiet snapshots' jobs arrays differ")
    sys.exit(1)
PY
}
tap_check "quiet snapshots list exactly squeue's jobs, the same each time" quiet_check

# --- a change while quiet is seen at once
scontrol update JobId="${held[3]}" Name=renamed TimeLimit=7
renamed_seen() {
    python3 - "$log" "${held[3]}" <<'PY'
import json, sys
last = [m for m in map(json.loads, open(sys.argv[1])) if m.get("type") == "snapshot"][-1]
job = [j for j in last["jobs"] if j["id"] == int(sys.argv[2])]
sys.exit(0 if job and job[0]["name"] == "renamed" and job[0]["time_limit"] == 420 else 1)
PY
}
if wait_for renamed_seen 5; then
    tap_ok "a job renamed while quiet is renamed in the next snapshots"
else
    tap_fail "a job renamed while quiet is renamed in the next snapshots"
fi
# ExportSelfCheck: every array built from kept job texts was checked
# against a fresh serialization of the same copy
reuse_checked() {
    local reused
    reused=$(sed -n 's/.*; \([0-9]*\) job texts reused.*/\1/p' "$ctld_log" | sort -n | tail -1)
    if grep -q 'self check:' "$ctld_log"; then
        grep -m3 'self check:' "$ctld_log"
        return 1
    fi
    [ "${reused:-0}" -gt 0 ] || { echo "no snapshot reused a job's text"; return 1; }
}
tap_check "job texts were reused, always equal to a fresh serialization" reuse_checked
tap_check "slurmctld alive at the end" scontrol ping
tap_finish
