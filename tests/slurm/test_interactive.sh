#!/bin/bash
# Interactive readiness on a real cluster (burstd.conf Interactive=local:1):
# burstd holds one core of the local partition with a hold job of QOS ihold,
# which batch work cannot take.  job_submit/burst gives a script-less job
# (salloc) QOS interactive when its association may use it; that QOS
# preempts the hold, and the salloc is granted at once, while the local node
# is otherwise full.  A salloc whose association may not use the QOS keeps
# its default QOS (it is not refused) and, like batch work, cannot take the
# held core.  Once the interactive job runs, burstd queues a new hold, which
# takes the next core to come free before the batch job waiting there.  A restart of burstd neither loses nor
# duplicates the hold; a reload without Interactive= cancels it, and a
# salloc then waits for batch work.  No hold ever runs on, or powers up, a
# CLOUD node.
# Cluster: one local node of 2 CPUs, CLOUD node c1, slurmdbd with
# AccountingStorageEnforce=associations,qos, PreemptType=preempt/qos,
# PreemptMode=CANCEL; QOS interactive (Preempt=ihold) for root's alpha
# association only, QOS ihold for burstd (root).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
burstd_test_cluster interact --dbd --local 1 --cloud 1 --cpus 2 \
    --conf AccountingStorageEnforce=associations,qos --conf PreemptType=preempt/qos --conf PreemptMode=CANCEL \
    --conf SchedulerParameters=sched_interval=5 || exit 1
work=$BURSTD_DIR
tap_ok "cluster started in $CLUSTER_START_SECONDS s"
if sacctmgr -i add qos ihold >/dev/null && sacctmgr -i add qos interactive Preempt=ihold >/dev/null &&
    sacctmgr -i modify user root set qos+=ihold,interactive >/dev/null &&
    sacctmgr -i modify user root where account=beta set qos-=interactive >/dev/null; then
    tap_ok "QOS interactive (preempts ihold) for root in alpha, ihold for root"
else
    tap_fail "QOS set up"
    exit 1
fi
conf_lines=("InteractiveQOS=interactive" "InteractiveHoldQOS=ihold")
BURST_CONF_EXTRA="InteractiveQOS=interactive"
burstd_bring_up always 1 "${conf_lines[@]}" "Interactive=local:1" || exit 1
tap_ok "burstd started with Interactive=local:1"

holds() { squeue -h -n burst-interactive-hold -t "${1:-PD,R,CG}" -o %i | wc -l; }
running_hold() { squeue -h -n burst-interactive-hold -t R -o %i | head -1; }
if wait_for "[ \"\$(holds R)\" = 1 ]" 20; then
    tap_ok "a hold runs on the local node"
else
    tap_fail "a hold runs on the local node" "$(squeue; tail -5 "$work/burstd.log")"
fi
hold=$(running_hold)
tap_is "it holds one core of n1" "$(squeue -h -j "$hold" -o '%N %C %q')" "n1 1 ihold"
tap_is "and 1 MB of memory (never a whole node's)" "$(job_field "$hold" MinMemoryNode)" 1M

# Batch work fills the other core; the second batch job waits: the held core is not its.
batch1=$(sbatch --parsable -p local -n1 --comment burst:never -o /dev/null --wrap 'sleep 600')
batch2=$(sbatch --parsable -p local -n1 --comment burst:never -o /dev/null --wrap 'sleep 600')
wait_for "[ \"\$(job_field $batch1 JobState)\" = RUNNING ]" 15 || tap_fail "batch job $batch1 runs"
sleep 6 # a main scheduler pass (sched_interval 5) and burstd cycles
tap_is "a batch job cannot take the held core" "$(job_field "$batch2" JobState)" PENDING
tap_is "the batch job has its default QOS" "$(job_field "$batch1" QOS)" normal
tap_is "the hold still runs" "$(running_hold)" "$hold"

# A salloc whose association may use QOS interactive starts at once.
t0=$(date +%s.%N)
out=$(timeout 40 salloc --no-shell --immediate=30 -p local -n1 --comment burst:never -J probe 2>&1)
t1=$(date +%s.%N)
alloc=$(sed -n 's/.*Granted job allocation \([0-9]*\).*/\1/p' <<<"$out")
start_seconds=$(echo "$t1 - $t0" | bc)
echo "# salloc with the hold: granted in $start_seconds s"
if [ -n "$alloc" ] && [ "$(echo "$start_seconds <= 5" | bc)" = 1 ]; then
    tap_ok "salloc was granted within 5 s (time-to-start $start_seconds s)"
else
    tap_fail "salloc was granted within 5 s" "$out; took $start_seconds s; $(squeue)"
fi
tap_is "job_submit/burst gave it QOS interactive" "$(job_field "$alloc" QOS)" interactive
tap_is "it runs on the held core" "$(job_field "$alloc" NodeList)" n1
tap_is "Slurm preempted the hold (burstd did not cancel it)" "$(sacct -n -X -j "$hold" -o State%20 | xargs)" PREEMPTED
tap_is "it has the priority above every hold" "$(job_field "$alloc" Priority)" 4294901761
tap_is "the batch job still waits" "$(job_field "$batch2" JobState)" PENDING

# burstd queues a new hold at once; it takes the next core to come free, before batch work.
if wait_for "[ \"\$(holds PD)\" = 1 ]" 15; then
    tap_ok "burstd queued a new hold"
else
    tap_fail "burstd queued a new hold" "$(squeue; grep -i interactive "$work/burstd.log" | tail -5)"
fi
scancel "$batch1"
if wait_for "[ \"\$(holds R)\" = 1 ]" 20; then
    tap_ok "the new hold took the core batch job $batch1 left"
else
    tap_fail "the new hold took the freed core" "$(squeue; grep -i interactive "$work/burstd.log" | tail -5)"
fi
sleep 6
tap_is "the batch job waiting there still waits" "$(job_field "$batch2" JobState)" PENDING
hold=$(running_hold)

# One whose association may not use the QOS keeps its default (it is not
# refused) and cannot take the held core.
timeout 60 salloc --no-shell -A beta -p local -n1 --comment burst:never -J probe-beta >/dev/null 2>&1 &
salloc_pid=$!
if wait_for "[ -n \"\$(squeue -h -n probe-beta -o %i)\" ]" 10; then
    tap_ok "salloc -A beta (no access to QOS interactive) is accepted"
else
    tap_fail "salloc -A beta is accepted" "$(grep -i 'probe-beta\|qos' "$CLUSTER_DIR/log/slurmctld.log" | tail -3)"
fi
sleep 4
tap_is "it kept QOS normal and waits" "$(squeue -h -n probe-beta -o '%q %T')" "normal PENDING"
scancel -n probe-beta
wait "$salloc_pid" 2>/dev/null
tap_is "the hold still runs" "$(running_hold)" "$hold"

# The interactive job ends: its core goes to batch work, the reserve being held.
scancel "$alloc"
if wait_for "[ \"\$(job_field $batch2 JobState)\" = RUNNING ]" 20; then
    tap_ok "the batch job took the core the interactive job left"
else
    tap_fail "the batch job took the core the interactive job left" "$(squeue)"
fi

# A restart of burstd neither loses nor duplicates the hold.
burstd_stop
burstd_start || tap_fail "burstd restarted" "$(tail -5 "$work/burstd.log")"
sleep 8
tap_is "after a restart: still one hold, the same" "$(holds) $(running_hold)" "1 $hold"

status=$(burstd_status_json)
tap_like "burstctl status shows the partition's interactive cores" \
    "$("$BURSTCTL_BIN" --socket "$work/control.sock" status)" 'interactive local: keep 1 core\(s\) ready, 1 held'
tap_is "the status JSON has them" "$(python3 -c 'import json,sys; s=json.load(sys.stdin); s=s.get("status", s); print(s["interactive"]["local"])' <<<"$status")" \
    "{'keep': 1, 'held': 1, 'queued': 0, 'waiting': 0}"

# A batch job first in line that needs the held core too is not starved: the
# hold yields to it and comes back after it started.
scancel "$batch2"
wide=$(sbatch --parsable -p local -n2 --comment burst:never -o /dev/null --wrap 'sleep 5')
if wait_for "[ \"\$(job_field $wide JobState)\" = RUNNING ]" 30; then
    tap_ok "a 2-CPU batch job, first in line, got the held core"
else
    tap_fail "the 2-CPU batch job started" "$(squeue; grep -i 'interactive hold' "$work/burstd.log" | tail -3)"
fi
tap_like "burstd said why the hold yielded" "$(grep 'cancel interactive hold' "$work/burstd.log" | tail -1)" \
    "job $wide, first in line, needs the held cores too"
if wait_for "[ \"\$(holds R)\" = 1 ]" 30; then
    tap_ok "the hold came back after it"
else
    tap_fail "the hold came back" "$(squeue)"
fi
batch3=$(sbatch --parsable -p local -n1 --comment burst:never -o /dev/null --wrap 'sleep 600')
wait_for "[ \"\$(job_field $batch3 JobState)\" = RUNNING ]" 15 || tap_fail "batch job $batch3 runs" "$(squeue)"

# A reload without Interactive= cancels the hold; a salloc then waits for batch work.
burstd_write_conf always 1 "${conf_lines[@]}"
kill -HUP "$BURSTD_PID"
if wait_for "[ \"\$(holds)\" = 0 ]" 20; then
    tap_ok "a reload without Interactive= cancelled the hold"
else
    tap_fail "the reload cancelled the hold" "$(squeue; tail -5 "$work/burstd.log")"
fi
batch4=$(sbatch --parsable -p local -n1 --comment burst:never -o /dev/null --wrap 'sleep 600')
wait_for "[ \"\$(job_field $batch4 JobState)\" = RUNNING ]" 15 || tap_fail "batch job $batch4 took the freed core" "$(squeue)"
out=$(salloc --no-shell --immediate=3 -p local -n1 --comment burst:never -J probe-unheld 2>&1)
tap_unlike() { if [[ $2 =~ $3 ]]; then tap_fail "$1" "$2"; else tap_ok "$1"; fi; }
tap_unlike "without a hold, salloc is not granted within 3 s" "$out" 'Granted job allocation'

tap_is "no hold ran on a CLOUD node" "$(sacct -n -X --name burst-interactive-hold -o NodeList%20 | grep -c c1)" 0
tap_is "no instance was launched" "$(grep -c 'launched c[0-9]* as' "$work/burstd.log")" 0
tap_is "burstd logged no failed decision" "$(grep -c 'failed:' "$work/burstd.log")" 0
scancel "$batch3" "$batch4"
tap_finish
