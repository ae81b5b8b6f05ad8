#!/bin/bash
# A burstd that reads more slowly than the plugin exports (a whole snapshot
# of many megabytes takes a real one seconds to parse) still gets deltas: the
# stand-in listener reads 50 KB a second, a whole snapshot of 2,000 jobs
# (0.9 MB, more than the socket buffers hold) takes it many export
# intervals, and meanwhile
#  - the exporter waits with its passes instead of dropping their messages
#    (a dropped one would be followed by another whole snapshot, and so on);
#  - the first message after the whole snapshot is a delta that carries the
#    job changed while it was being read;
#  - jobs that end meanwhile arrive as job_end, and their lines, queued
#    ahead of a pass's state message, make it wait too;
#  - nothing was dropped.
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

cluster_start --local 1 --cloud 0 --cpus 2 --plugin-dir "$plugdir" --name plugslow --conf SlurmctldDebug=debug || exit 1
sock=$CLUSTER_DIR/burst.sock
log=$CLUSTER_DIR/stream.ndjson
python3 "$here/lib/snapshot_listener.py" "$sock" "$log" "$CLUSTER_DIR/outbox" --deltas --read-rate 50000 &
listener=$!
trap 'kill $listener 2>/dev/null; cluster_stop' EXIT
printf 'SocketPath=%s\nExportInterval=1\nFullSnapshotEvery=1000000\n' "$sock" >"$CLUSTER_DIR/burst.conf"
echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
scontrol reconfigure
ctld_log=$CLUSTER_DIR/log/slurmctld.log

submit=$builddir/bench/submit_held
[ -x "$submit" ] || { tap_fail "bench/submit_held is built at $submit"; exit 1; }
"$submit" local 2000 2 >/dev/null || { tap_fail "2000 held jobs submitted"; exit 1; }
changed=$(squeue -h -o %i | head -n 7 | tail -n 1)
# the messages that carry the submissions are read: the listener has the last one sent
sent() { sed -n 's/.*job_submit\/burst: [a-z]* seq \([0-9]*\): 2000 jobs unchanged.*/\1/p' "$ctld_log" | tail -n 1; }
read_up_to() { grep -o '"seq":[0-9]*' "$log" | tail -n 1 | cut -d: -f2; }
wait_for "[ -n \"\$(sent)\" ] && [ \"\$(read_up_to)\" -ge \"\$(sent)\" ]" 120 ||
    { tap_fail "the submissions reached the listener" "sent $(sent), read $(read_up_to)"; exit 1; }

# ask for a whole snapshot (as burstd does after a gap) and change a job while it is read
mark=$(wc -l <"$log")
ctld_mark=$(($(wc -l <"$ctld_log") + 1))
printf '{"v":2,"type":"resync","cluster":"plugslow","seq":900,"time":%d,"reason":"test"}\n' "$(date +%s)" \
    >"$CLUSTER_DIR/outbox"
wait_for "tail -n +$ctld_mark '$ctld_log' | grep -q 'snapshot seq [0-9]*: 2000 jobs'" 60 ||
    { tap_fail "the plugin sends a whole snapshot after the resync"; exit 1; }
scontrol update JobId="$changed" TimeLimit=20
# jobs that end meanwhile: their job_end lines queue ahead of the passes' state messages
for i in 1 2 3 4; do sbatch -Q -p local -J "short$i" -t 1 --wrap true >/dev/null; done
if wait_for "tail -n +$((mark + 1)) '$log' | grep '\"type\":\"delta\"' | grep -q '\"id\":$changed,'" 120; then
    tap_ok "the job changed while the whole snapshot was read arrives in a delta"
else
    tap_fail "the job changed while the whole snapshot was read arrives in a delta" \
        "$(tail -n +$((mark + 1)) "$log" | cut -c1-120)"
fi
after=$(tail -n +$((mark + 1)) "$log")
tap_is "exactly one whole snapshot after the resync" "$(grep -c '"type":"snapshot"' <<<"$after")" 1
first_after_whole=$(awk '/"type":"snapshot"/ { seen = 1; next } seen && !/"type":"job_end"/ { print; exit }' <<<"$after")
tap_like "the next state message is a delta" "$first_after_whole" '"type":"delta"'
waited=$(sed -n 's/.*burstd is still reading the last message; \([0-9]*\) passes waited.*/\1/p' "$ctld_log" | tail -1)
if [ "${waited:-0}" -gt 0 ]; then
    tap_ok "the exporter waited with its passes while the listener read ($waited so far)"
else
    tap_fail "the exporter waited with its passes while the listener read" "$(grep 'job_submit/burst' "$ctld_log" | tail -5)"
fi
if wait_for "[ \$(grep -c '\"type\":\"job_end\"' '$log') -ge 4 ]" 120; then
    tap_ok "the jobs that ended meanwhile arrive as job_end"
else
    tap_fail "the jobs that ended meanwhile arrive as job_end" "$(grep -c '"type":"job_end"' "$log") of 4"
fi
tap_is "... and still no state message was dropped, nor another whole snapshot sent" \
    "$(grep -c 'messages dropped' "$ctld_log") $(tail -n +$((mark + 1)) "$log" | grep -c '"type":"snapshot"')" "0 1"
tap_finish
