#!/bin/bash
# The snapshot's fair-share factors under Slurm's classic algorithm
# (PriorityFlags=NO_FAIR_TREE), which stores no factor in the association:
# slurmctld computes 2^(-EffectvUsage/NormShares) when a job's priority is
# calculated, and sshare prints the same.  After users in both accounts have
# used the cluster, every association's fs_factor in the plugin's snapshot
# must be sshare's FairShare (users and accounts alike: classic gives
# accounts one too; nobody in alpha, at Fairshare=parent, alpha's).  The
# job_submit plugin exported 0 for all of them.
# A decay pass leaves users' effective usage unset until something needs it;
# the plugin must fill it in itself, so the snapshot is read before anything
# here runs sshare (which fills it in too) after the jobs.
# PriorityDecayHalfLife=0 keeps usage exact; AccountingStorageEnforce=limits
# makes slurmctld charge a job's usage when it ends (see test_fairtree.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
builddir=${BURST_BUILDDIR:-$(cd "$here/../.." && pwd)}
plugdir=$builddir/plugin/.libs
[ -e "$plugdir/job_submit_burst.so" ] || { tap_fail "plugin built in $plugdir (run make first)"; exit 1; }

listener_pid=""
on_exit() {
    local rc=$?
    [ -n "$listener_pid" ] && kill "$listener_pid" 2>/dev/null && wait "$listener_pid" 2>/dev/null
    cluster_stop "$rc"
}

cluster_start --dbd --local 1 --cloud 0 --cpus 8 --plugin-dir "$plugdir" --name classic \
    --conf PriorityFlags=NO_FAIR_TREE --conf PriorityDecayHalfLife=0 \
    --conf PriorityUsageResetPeriod=YEARLY --conf AccountingStorageEnforce=associations,limits || exit 1
trap on_exit EXIT
tap_ok "cluster with slurmdbd started in $CLUSTER_START_SECONDS s"
tap_like "PriorityFlags is NO_FAIR_TREE" \
    "$(scontrol show config | awk -F' = ' '$1 ~ /^PriorityFlags/ { print $2 }')" 'NO_FAIR_TREE'

sock=$CLUSTER_DIR/burst.sock
log=$CLUSTER_DIR/listener.jsonl
python3 "$here/lib/snapshot_listener.py" "$sock" "$log" "$CLUSTER_DIR/outbox" &
listener_pid=$!
wait_for "[ -S '$sock' ]" 20 || tap_fail "listener socket within 20 s"
printf 'SocketPath=%s\nExportInterval=1\n' "$sock" >"$CLUSTER_DIR/burst.conf"
echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
scontrol reconfigure
wait_for "grep -q '\"type\":\"hello\"' '$log'" 15 ||
    tap_fail "plugin said hello within 15 s" "$(tail -5 "$CLUSTER_DIR/log/slurmctld.log")"

if out=$(sacctmgr -i modify user nobody where account=alpha set fairshare=parent 2>&1) &&
    wait_for "sshare -P -n -A alpha -u nobody -o User,RawShares | grep -qx 'nobody|parent'" 20; then
    tap_ok "nobody in alpha at Fairshare=parent"
else
    tap_fail "sacctmgr sets nobody in alpha to Fairshare=parent" "$out"
fi

# Different usage in both accounts: root in alpha and beta, nobody in alpha.
submit_sleep root alpha 4 3
submit_sleep nobody alpha 2 2
submit_sleep root beta 1 3
tap_is "3 jobs submitted" "${#SUBMITTED_JOBS[@]}" 3
for j in "${SUBMITTED_JOBS[@]}"; do
    wait_job_done "$j" 60 || tap_fail "job $j done within 60 s" "$(scontrol show job -o "$j" 2>&1)"
done

# Effective usage is recomputed at the next decay pass (PriorityCalcPeriod,
# 1 minute): wait for a snapshot that shows root's usage in alpha.
share_snapshot() { # prints "TIME FS_FACTOR" of alpha/root in the newest snapshot
    grep '"type":"snapshot"' "$log" | tail -1 | python3 -c '
import json, sys
m = json.loads(sys.stdin.read())
for s in m.get("shares", []):
    if s["account"] == "alpha" and s["user"] == "root":
        print(m["time"], s["fs_factor"])'
}
seen=""
for _ in $(seq 1 80); do
    read -r at fs <<<"$(share_snapshot)"
    if [ -n "${fs:-}" ] && awk -v f="$fs" 'BEGIN { exit !(f > 0 && f < 0.99) }'; then seen=$at; break; fi
    sleep 1
done
if [ -n "$seen" ]; then
    tap_ok "a snapshot after a decay pass gave root in alpha a factor below 1 ($fs)"
    tap_check "snapshot fs_factor of every association matches sshare's FairShare" \
        python3 "$here/lib/check_snapshot.py" "$log" "$seen" shares
else
    tap_fail "a snapshot shows root's usage in alpha within 80 s" "last: $(share_snapshot); sshare: $(sshare -a -l -P)"
fi
tap_note "sshare: $(sshare -a -P -o Account,User,RawShares,NormShares,EffectvUsage,FairShare | tr '\n' ' ')"
tap_is "no association exported a factor of 0" \
    "$(grep '"type":"snapshot"' "$log" | tail -1 | python3 -c '
import json, sys
print(sum(1 for s in json.loads(sys.stdin.read())["shares"] if s["fs_factor"] == 0))')" 0
tap_finish
