#!/bin/bash
# What a snapshot costs slurmctld at growing queue sizes, next to the cost of
# one `squeue --json` (what a plugin-less poller would pay per look).
#
#   bench/plugin_snapshot.sh BUILDDIR [JOBS...]      (default: 1000 5000 20000)
#
# Run as root from the source tree, e.g. `bench/plugin_snapshot.sh . 1000 5000
# 20000 50000`.  Starts a private cluster (tests/slurm/lib/cluster.sh) with
# job_submit/burst (ExportInterval=1, default ExportJobsPerLock) and a
# stand-in listener, fills the queue with held jobs (bench/submit_held,
# libslurm from several threads), and at each size measures two kinds of
# snapshot, SNAPSHOTS (default 10) of each:
#
#  full    jobs changed since the last snapshot (the bench changes one job's
#          comment before each), so every job is copied under the read locks,
#          in holds of ExportJobsPerLock jobs; only the changed job is
#          serialized again, the others' text is taken from the last snapshot
#          (the "serialized" count on each size's note line);
#  steady  no job changed (last_job_update unmoved): only nodes, partitions
#          and shares are copied and the kept jobs array is sent again.
#
# With DELTAS=1 the stand-in listener asks for deltas as burstd does
# (doc/protocol.md, version 2; FullSnapshotEvery=1000000): "full" and
# "steady" are then deltas, whose serialization writes only the changed job
# (full) or nothing but the check (steady), and MB is a delta's size.
#
# With CYCLE=1 (implies DELTAS=1) the cluster also has 64 CLOUD nodes, the
# listener records the stream, and at each size, after the phases above:
#  1%      TimeLimit of 1% of the jobs changes in one scontrol call; a line
#          reports the deltas that carried them (jobs each, the exporter's
#          pass CPU and lock holds);
#  burstd  bench/ingest_cycle replays that size's recording (from a whole
#          snapshot the listener asks for with a resync) and prints burstd's
#          parse and apply time per message kind and one decision cycle
#          (ingest -> decide -> act) under bench/ingest_cycle.conf, with the
#          held jobs released and the local nodes busy (its header says how).
#
# Columns (ms unless named otherwise; wall and CPU of the exporter thread
# from its own debug line, SlurmctldDebug=debug):
#   holds      read-lock holds in one full snapshot (median)
#   hold_max   the longest single hold: wall median, wall p99, CPU median
#   hold_all   all holds of one full snapshot together: wall median, CPU median
#   ser        serializing a full snapshot: wall median, wall p99, CPU median
#   MB         a snapshot's size
#   full_cpu   everything the exporter thread spent per full snapshot
#              (copy, serialize, queue, write to the socket, poll wakeups),
#              from its /proc schedstat run time over the phase
#   steady_cpu the same per steady snapshot (its holds are in steady_hold,
#              the longest one, wall median)
#   squeue_cpu slurmctld's CPU per `squeue --json`: the process's utime+stime
#              (which counts exited threads) over SQUEUES (default 5) runs,
#              more until slurmctld used SQUEUE_CPU (default 1) s, minus the
#              run time of every thread alive before and after (exporter,
#              main, backfill...), leaving the short-lived threads that served
#              the RPCs; squeue_wall is one run's wall time (median)
#   ratio_full, ratio_steady  squeue_cpu / full_cpu, squeue_cpu / steady_cpu
# Wall times include time the thread waited for a core, which on a busy
# machine dwarfs the work itself: read the CPU columns, and the load average
# printed at each size.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
builddir=$(cd "${1:?usage: $0 BUILDDIR [JOBS...]}" && pwd) || exit 1
shift
sizes=("$@")
((${#sizes[@]})) || sizes=(1000 5000 20000)
snapshots=${SNAPSHOTS:-10}
squeues=${SQUEUES:-5}
squeue_cpu_min=${SQUEUE_CPU:-1}
plugdir=$(cd "$builddir/plugin/.libs" && pwd) || exit 1
submit=$builddir/bench/submit_held
[ -x "$submit" ] || { echo "$submit not built (make bench/submit_held)" >&2; exit 1; }
# shellcheck source=../tests/slurm/lib/cluster.sh
source "$top/tests/slurm/lib/cluster.sh"

cycle=${CYCLE:-0}
deltas=${DELTAS:-$cycle}
((cycle)) && [ ! -x "$builddir/bench/ingest_cycle" ] &&
    { echo "$builddir/bench/ingest_cycle not built (make bench/ingest_cycle)" >&2; exit 1; }
cluster_start --local 2 --cloud $((cycle ? 64 : 0)) --plugin-dir "$plugdir" --name plugbench \
    --conf SlurmctldDebug=debug --conf MaxJobCount=200000 --conf MaxArraySize=100001 || exit 1
listener_args=()
((deltas)) && listener_args=(--deltas)
record=/dev/null
((cycle)) && record=$CLUSTER_DIR/stream.ndjson
python3 "$top/tests/slurm/lib/snapshot_listener.py" "$CLUSTER_DIR/burst.sock" "$record" "$CLUSTER_DIR/outbox" \
    "${listener_args[@]}" &
listener=$!
trap 'kill $listener 2>/dev/null; cluster_stop' EXIT
printf 'SocketPath=%s\nExportInterval=1\nFullSnapshotEvery=1000000\n' "$CLUSTER_DIR/burst.sock" >"$CLUSTER_DIR/burst.conf"
echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
scontrol reconfigure
ctld_log=$CLUSTER_DIR/log/slurmctld.log
ctld_pid=$(cat "$CLUSTER_DIR/run/slurmctld.pid")
ticks=$(getconf CLK_TCK)

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
p99() { sort -g | awk '{ v[NR] = $1 } END { i = int(NR * 0.99 + 0.999); print v[i < 1 ? 1 : i] }'; }
# slurmctld's CPU in seconds, counting threads that have exited (the RPC ones)
ctld_cpu() { awk -v t="$ticks" '{ printf "%.3f", ($14 + $15) / t }' "/proc/$ctld_pid/stat"; }
exporter_tid() {
    local t
    for t in /proc/"$ctld_pid"/task/*; do
        [ "$(cat "$t/comm" 2>/dev/null)" = burst_export ] && { basename "$t"; return 0; }
    done
    return 1
}
# TID and run time in ns of every slurmctld thread
threads_cpu() {
    local t
    for t in /proc/"$ctld_pid"/task/*; do
        echo "${t##*/} $(cut -d' ' -f1 "$t/schedstat" 2>/dev/null)"
    done
}
# the exporter thread's run time in seconds (ns precision)
exp_cpu() { awk '{ printf "%.6f", $1 / 1e9 }' "/proc/$ctld_pid/task/$tid/schedstat"; }
snap_kind=snapshot
((deltas)) && snap_kind=delta
snap_lines() { tail -n +"$1" "$ctld_log" | grep "$snap_kind seq .*: $have jobs"; }
field() { sed -n "s/.*$1.*/\\1/p"; }
calc() { awk "BEGIN { printf \"%.${1}f\", $2 }"; }

wait_for "exporter_tid >/dev/null" 30 || { echo "no exporter thread" >&2; exit 1; }
tid=$(exporter_tid)
held_job=""

printf '%6s %5s %6s | %5s %21s %15s | %21s %5s | %8s %10s %11s | %10s %11s %6s %6s\n' \
    jobs load holds "" "hold_max wall/p99/cpu" "hold_all w/cpu" "ser wall/p99/cpu" MB \
    full_cpu steady_cpu steady_hold squeue_cpu squeue_wall r_full r_stdy
have=0
for n in "${sizes[@]}"; do
    need=$((n - have))
    if ((need > 0)); then
        "$submit" local "$need" 4 >/dev/null || { echo "submitting $need jobs failed" >&2; exit 1; }
    fi
    have=$(squeue -h -r -t PD | wc -l)
    [ -n "$held_job" ] || held_job=$(squeue -h -t PD -o %i | head -1)
    if ((cycle)); then
        # this size's recording starts from a whole snapshot
        : >"$record"
        mark=$(($(wc -l <"$ctld_log") + 1))
        printf '{"v":2,"type":"resync","cluster":"plugbench","seq":%d,"time":%d,"reason":"bench size %d"}\n' \
            "$((1000 + have))" "$(date +%s)" "$have" >"$CLUSTER_DIR/outbox"
        wait_for "tail -n +$mark \"\$ctld_log\" | grep -q 'snapshot seq .*: $have jobs'" 300 ||
            { echo "no whole snapshot of $have jobs after the resync" >&2; exit 1; }
    fi

    # full: change one job, wait for the snapshot that copied everything
    mark=$(($(wc -l <"$ctld_log") + 1))
    c0=$(exp_cpu)
    for i in $(seq "$snapshots"); do
        scontrol update JobId="$held_job" Comment="bench $n $i"
        wait_for "[ \$(snap_lines $mark | grep -c 'jobs copied') -ge $i ]" 300 ||
            { echo "no snapshot copying $have jobs within 300 s" >&2; exit 1; }
    done
    c1=$(exp_cpu)
    lines=$(snap_lines "$mark")
    full=$(grep 'jobs copied' <<<"$lines" | head -"$snapshots")
    n_full=$(grep -c 'jobs copied' <<<"$lines")
    n_unch=$(grep -c 'jobs unchanged' <<<"$lines")

    # steady: nothing changes; SNAPSHOTS snapshots after the first unchanged one
    wait_for "snap_lines $mark | tail -1 | grep -q 'jobs unchanged'" 60 ||
        { echo "no steady snapshot of $have jobs within 60 s" >&2; exit 1; }
    mark=$(($(wc -l <"$ctld_log") + 1))
    s0=$(exp_cpu)
    wait_for "[ \$(snap_lines $mark | wc -l) -ge $snapshots ]" 300 ||
        { echo "no $snapshots steady snapshots of $have jobs within 300 s" >&2; exit 1; }
    s1=$(exp_cpu)
    steady=$(snap_lines "$mark")
    n_steady=$(wc -l <<<"$steady")
    if grep -q 'jobs copied' <<<"$steady"; then
        echo "warning: $(grep -c 'jobs copied' <<<"$steady") of the steady snapshots at $have jobs copied jobs (something changed a job)" >&2
    fi
    steady_cpu=$(calc 3 "($s1 - $s0) * 1000 / $n_steady")
    # the full phase also ran a few steady snapshots between the changes
    full_cpu=$(calc 3 "(($c1 - $c0) * 1000 - $n_unch * $steady_cpu) / $n_full")
    steady_hold=$(field 'longest \([0-9.]*\) ms.*' <<<"$steady" | median)

    holds=$(field 'locks held \([0-9]*\) times.*' <<<"$full" | median)
    hmax=$(field 'longest \([0-9.]*\) ms.*' <<<"$full")
    hmax_cpu=$(field 'longest [0-9.]* ms (cpu \([0-9.]*\) ms).*' <<<"$full" | median)
    hall=$(field 'in all \([0-9.]*\) ms.*' <<<"$full" | median)
    hall_cpu=$(field 'in all [0-9.]* ms (cpu \([0-9.]*\) ms).*' <<<"$full" | median)
    ser=$(field 'bytes in \([0-9.]*\) ms.*' <<<"$full")
    ser_cpu=$(field 'bytes in [0-9.]* ms (cpu \([0-9.]*\) ms).*' <<<"$full" | median)
    bytes=$(field 'serialized \([0-9]*\) bytes.*' <<<"$full" | median)
    reser=$(field 'reused, \([0-9]*\) serialized.*' <<<"$full" | median)

    # squeue --json: slurmctld's CPU less that of its long-lived threads
    # (exporter, main, backfill...): what is left ran in the short-lived
    # threads that serve RPCs, i.e. answered the squeues
    sq="" runs=0
    c0=$(ctld_cpu); threads_cpu >"$CLUSTER_DIR/threads0"
    while ((runs < squeues)) || [ "$(calc 0 "($(ctld_cpu) - $c0) < $squeue_cpu_min && $runs < 400")" = 1 ]; do
        r0=$EPOCHREALTIME
        squeue --json >/dev/null
        sq+="$(calc 3 "$EPOCHREALTIME - $r0")"$'\n'
        runs=$((runs + 1))
    done
    c1=$(ctld_cpu); threads_cpu >"$CLUSTER_DIR/threads1"
    kept=$(awk 'NR == FNR { a[$1] = $2; next } ($1 in a) { d += $2 - a[$1] } END { printf "%.6f", d / 1e9 }' \
        "$CLUSTER_DIR/threads0" "$CLUSTER_DIR/threads1")
    sq_cpu=$(calc 2 "(($c1 - $c0) - $kept) * 1000 / $runs")
    sq_wall=$(median <<<"$sq")
    load=$(cut -d' ' -f1 /proc/loadavg)

    printf '%6d %5s %6s | %5s %6s %6s %7s %7s %7s | %6s %6s %7s %5s | %8s %10s %11s | %10s %11s %6s %6s\n' \
        "$have" "$load" "$holds" "" "$(median <<<"$hmax")" "$(p99 <<<"$hmax")" "$hmax_cpu" "$hall" "$hall_cpu" \
        "$(median <<<"$ser")" "$(p99 <<<"$ser")" "$ser_cpu" "$(calc 1 "$bytes / 1e6")" \
        "$full_cpu" "$steady_cpu" "$steady_hold" "$sq_cpu" "${sq_wall}s" \
        "$(calc 0 "$sq_cpu / $full_cpu")" "$(calc 0 "$sq_cpu / $steady_cpu")"
    echo "#   ($n_full full + $n_unch steady snapshots in the full phase, $n_steady steady; a full one serialized ${reser:-?} jobs afresh; $runs squeues, in which slurmctld's long-lived threads used $(calc 0 "$kept * 1000") ms)"
    ((cycle)) || continue

    # 1%: one scontrol call changes TimeLimit of 1% of the jobs
    want=$(((have + 99) / 100))
    ids=$(squeue -h -t PD -o %i | awk -v n="$want" 'NR % 100 == 1 && c < n { print; c++ }' | paste -sd,)
    mark=$(($(wc -l <"$ctld_log") + 1))
    scontrol update JobId="$ids" TimeLimit=$((10 + ${#have})) >/dev/null ||
        { echo "changing $want jobs' TimeLimit failed" >&2; exit 1; }
    pct_jobs() { snap_lines "$mark" | field 'delta: \([0-9]*\) jobs.*' | awk '{ s += $1 } END { print s + 0 }'; }
    wait_for "[ \$(pct_jobs) -ge $want ]" 120 || echo "warning: deltas carried $(pct_jobs) of the $want changed jobs" >&2
    pct=$(snap_lines "$mark" | grep -v 'delta: 0 jobs')
    echo "#   1%: $want jobs changed, carried by $(wc -l <<<"$pct") deltas: jobs $(field 'delta: \([0-9]*\) jobs.*' <<<"$pct" | paste -sd' '); pass cpu ms $(field '; pass cpu \([0-9.]*\) ms; socket.*' <<<"$pct" | paste -sd' '); lock holds cpu ms $(field 'in all [0-9.]* ms (cpu \([0-9.]*\) ms).*' <<<"$pct" | paste -sd' '); bytes $(field 'serialized \([0-9]*\) bytes.*' <<<"$pct" | paste -sd' ')"
    # burstd's side of this size's stream
    sleep 2
    cp "$record" "$CLUSTER_DIR/stream-$have.ndjson"
    "$builddir/bench/ingest_cycle" --release-held --busy-local "$CLUSTER_DIR/stream-$have.ndjson" \
        "$top/bench/ingest_cycle.conf" | sed 's/^/#   /'
    rm -f "$CLUSTER_DIR/stream-$have.ndjson"
done
