#!/bin/bash
# burstd as a system service, on a real cluster.
#
# Type=notify: started with NOTIFY_SOCKET at a datagram socket this test
# reads (lib/notify_listener.py stands in for systemd) and WATCHDOG_USEC,
# burstd sends READY=1 once both its sockets accept, WATCHDOG=1 at half the
# interval, a STATUS= when snapshots arrive, RELOADING=1 then READY=1 around
# SIGHUP and STOPPING=1 at SIGTERM; the slurmd the local provider starts does
# not inherit NOTIFY_SOCKET.
#
# One burstd per StateDir: a second burstd with the same configuration, and
# one with the same StateDir but other sockets, exit 1 naming the first's pid
# and touch nothing: the first's sockets are the same files and it still
# answers `burstctl status`.  --check-config takes no lock.  After kill -9 of
# the first (its slurmd still running), a new burstd starts at once: the lock
# died with it, and it replaces the stale sockets.
#
# burstd as burstd.service runs it, with no capabilities
# (CapabilityBoundingSet=) and no_new_privs: it still routes a job through
# libslurm, but the slurmd its local provider starts cannot run, which is why
# that provider needs conf/burstd-local-provider.conf.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
listener_pid=""
BURSTD_ON_EXIT='[ -z "$listener_pid" ] || kill "$listener_pid" 2>/dev/null'
burstd_test_cluster burstsvc --local 1 --cloud 2 --cpus 2 || exit 1
work=$BURSTD_DIR
tap_ok "cluster started in $CLUSTER_START_SECONDS s"

notify_log=$work/notify.log
python3 "$here/lib/notify_listener.py" "$work/notify" "$notify_log" "$work/snapshot.sock" "$work/control.sock" &
listener_pid=$!
wait_for "grep -q listening '$notify_log' 2>/dev/null" 10 || tap_fail "the notify listener started"
# The messages after the first N lines of the notify log.
notes_after() { tail -n +"$(($1 + 1))" "$notify_log"; }
notes_count() { wc -l <"$notify_log"; }

# The local provider's slurmd, through a wrapper that records its environment.
cat >"$work/slurmd" <<SH
#!/bin/sh
env >"$work/slurmd.env.\$\$"
exec /usr/sbin/slurmd "\$@"
SH
chmod 755 "$work/slurmd"
BURSTD_PROVIDER_EXTRA="SlurmdPath=$work/slurmd"

## Type=notify ##############################################################
# A slurmd up within a second of Slurm's boot request may report a boot time
# before it, and Slurm then waits for a boot until ResumeTimeout
# (burstd.conf(5), EarlyLaunch): CI's c1 did, and its job ran on c2.
burstd_write_conf always 1 EarlyLaunch=0
# WatchdogSec=0.4 s asks for a ping every 0.2 s.
NOTIFY_SOCKET=$work/notify WATCHDOG_USEC=400000 "$BURSTD_BIN" -f "$work/burstd.conf" >>"$work/burstd.log" 2>&1 &
BURSTD_PID=$!
first=$BURSTD_PID
if wait_for "grep -q '^READY=1' '$notify_log'" 15; then
    ready=$(grep -m1 '^READY=1' "$notify_log")
    tap_like "READY=1 with a STATUS naming both sockets" "$ready" \
        "^READY=1\|STATUS=listening on $work/snapshot.sock and $work/control.sock; waiting for the first snapshot from slurmctld"
    tap_like "both sockets accepted connections when READY=1 came" "$ready" \
        "\[$work/snapshot.sock:yes $work/control.sock:yes\]$"
else
    tap_fail "burstd sent READY=1" "$(tail -5 "$work/burstd.log")"
    exit 1
fi
n=$(notes_count)
sleep 1.5
pings=$(notes_after "$n" | grep -cx 'WATCHDOG=1')
# 7 at 0.2 s; a loaded machine may delay some.
if [ "$pings" -ge 3 ] && [ "$pings" -le 9 ]; then
    tap_ok "WATCHDOG=1 every 0.2 s: $pings in 1.5 s"
else
    tap_fail "WATCHDOG=1 every 0.2 s" "$pings in 1.5 s"
fi
tap_is "nothing but pings while idle" "$(notes_after "$n" | grep -vcx 'WATCHDOG=1')" 0

burstd_enable_plugin
wait_for "grep -q 'plugin hello' '$work/burstd.log'" 15 || tap_fail "the plugin connected" "$(tail -3 "$work/burstd.log")"
if wait_for "grep -q '^STATUS=receiving snapshots from cluster burstsvc$' '$notify_log'" 10; then
    tap_ok "STATUS says snapshots arrive"
else
    tap_fail "STATUS says snapshots arrive" "$(grep -v WATCHDOG "$notify_log")"
fi

burstd_fill_local n1
job=$(sbatch --parsable -p local -n2 -o /dev/null --wrap 'hostname')
if wait_job_done "$job" 60 && [ "$(job_field "$job" JobState)" = COMPLETED ]; then
    tap_ok "job $job ran on a cloud node burstd launched"
else
    tap_fail "job $job ran on a cloud node" "$(job_field "$job" JobState)" "$(tail -5 "$work/burstd.log")"
fi
slurmd_pid=$(burstd_instance_slurmds | head -1)
tap_like "its slurmd runs" "$slurmd_pid" '^[0-9]+$'
tap_like "its environment was recorded" "$(cat "$work"/slurmd.env.* 2>/dev/null | grep -c '^PATH=')" '^[1-9]'
tap_is "and did not inherit NOTIFY_SOCKET or WATCHDOG_*" \
    "$(cat "$work"/slurmd.env.* 2>/dev/null | grep -c '^NOTIFY_SOCKET=\|^WATCHDOG_')" 0

n=$(notes_count)
kill -HUP "$first"
if wait_for "notes_after $n | grep -q '^READY=1'" 10; then
    tap_is "SIGHUP: RELOADING=1, then READY=1 once reloaded" \
        "$(notes_after "$n" | grep -v '^WATCHDOG=1$' | sed -e 's/MONOTONIC_USEC=[0-9]*$/MONOTONIC_USEC=N/' -e 's/  \[.*\]$//' |
            head -2 | tr '\n' ' ')" \
        "RELOADING=1|MONOTONIC_USEC=N READY=1|STATUS=reloaded $work/burstd.conf "
else
    tap_fail "SIGHUP: READY=1 again" "$(notes_after "$n" | grep -v WATCHDOG)"
fi

## One burstd per StateDir ##################################################
# inode and change time: a new socket file may reuse the old one's inode.
inodes() { stat -c '%i %z' "$work/snapshot.sock" "$work/control.sock" 2>&1 | tr '\n' ' '; }
before=$(inodes)
"$BURSTD_BIN" -f "$work/burstd.conf" >"$work/second.log" 2>&1
tap_is "a second burstd with the same configuration exits 1" "$?" 1
tap_like "naming the first's pid and the lock" "$(cat "$work/second.log")" \
    "another burstd \(pid $first\) holds $work/state/burstd.lock: one burstd per StateDir"
sed -e "s|^SocketPath=.*|SocketPath=$work/other-snapshot.sock|" \
    -e "s|^ControlSocket=.*|ControlSocket=$work/other-control.sock|" "$work/burstd.conf" >"$work/other.conf"
"$BURSTD_BIN" -f "$work/other.conf" >"$work/other.log" 2>&1
tap_is "so does one with the same StateDir and other sockets" "$?" 1
tap_like "also naming the first's pid" "$(cat "$work/other.log")" "another burstd \(pid $first\) holds"
tap_is "which created neither of its sockets" \
    "$(ls "$work/other-snapshot.sock" "$work/other-control.sock" 2>/dev/null | wc -l)" 0
tap_is "the first's sockets are the same files" "$(inodes)" "$before"
tap_check "the first still answers burstctl status" "$BURSTCTL_BIN" --socket "$work/control.sock" status
tap_check "--check-config takes no lock" "$BURSTD_BIN" --check-config -f "$work/burstd.conf"
tap_is "the lock file holds the first's pid" "$(cat "$work/state/burstd.lock")" "$first"

kill -9 "$first"
wait "$first" 2>/dev/null
BURSTD_PID=""
tap_is "killed with SIGKILL, burstd left its sockets behind" \
    "$(find "$work/snapshot.sock" "$work/control.sock" -type s 2>/dev/null | wc -l)" 2
tap_is "and the slurmd it started runs on" "$(burstd_instance_slurmds | head -1)" "$slurmd_pid"
stale=$(inodes)
n=$(notes_count)
NOTIFY_SOCKET=$work/notify "$BURSTD_BIN" -f "$work/burstd.conf" >>"$work/burstd.log" 2>&1 &
BURSTD_PID=$!
third=$BURSTD_PID
if wait_for "'$BURSTCTL_BIN' --socket '$work/control.sock' status >/dev/null 2>&1" 15; then
    tap_ok "a new burstd started: the lock died with the killed one"
else
    tap_fail "a new burstd started after kill -9" "$(tail -5 "$work/burstd.log")"
fi
fresh=$(inodes)
if [ "$fresh" != "$stale" ] && ! grep -q 'No such' <<<"$fresh"; then
    tap_ok "it replaced the stale sockets"
else
    tap_fail "it replaced the stale sockets" "before: $stale" "after:  $fresh"
fi
tap_is "the lock file holds the new pid" "$(cat "$work/state/burstd.lock")" "$third"
wait_for "notes_after $n | grep -q '^READY=1'" 5 || tap_fail "the new burstd sent READY=1"

n=$(notes_count)
kill "$third"
wait "$third"
rc=$?
BURSTD_PID=""
tap_is "SIGTERM: burstd exits 0" "$rc" 0
tap_is "after STOPPING=1" "$(notes_after "$n" | grep -v '^WATCHDOG=1$' | head -1)" "STOPPING=1|STATUS=shutting down"
tap_is "with its lock released and the file emptied" "$(cat "$work/state/burstd.lock")" ""

## Without capabilities, as burstd.service runs it ###########################
# The launched node powers down after SuspendTime; the next job needs a new one.
burstd_cleanup
wait_node_state c1 POWERED_DOWN 45 || tap_fail "c1 powered down" "$(scontrol show node c1 | head -5)"
setpriv --no-new-privs --bounding-set=-all --inh-caps=-all --ambient-caps=-all \
    "$BURSTD_BIN" -f "$work/burstd.conf" >>"$work/burstd.log" 2>&1 &
BURSTD_PID=$!
if wait_for "'$BURSTCTL_BIN' --socket '$work/control.sock' status >/dev/null 2>&1" 15; then
    tap_ok "burstd starts without capabilities and answers burstctl status"
else
    tap_fail "burstd starts without capabilities" "$(tail -5 "$work/burstd.log")"
fi
status=$(cat "/proc/$BURSTD_PID/status")
tap_like "it has none" "$(grep -E '^Cap(Prm|Eff|Bnd):' <<<"$status" | tr -s ' \t' ' ' | tr '\n' ' ')" \
    '^CapPrm: 0000000000000000 CapEff: 0000000000000000 CapBnd: 0000000000000000 $'
tap_like "and no_new_privs" "$(grep '^NoNewPrivs:' <<<"$status")" 'NoNewPrivs:[[:space:]]+1'
job=$(sbatch --parsable -p local -n2 -o /dev/null --wrap 'hostname')
if wait_for "job_field $job Partition | grep -q cloud" 20; then
    tap_ok "it made job $job cloud-eligible through libslurm"
else
    tap_fail "it made job $job cloud-eligible" "$(grep -i 'error' "$work/burstd.log" | tail -3)"
fi
# The earlier slurmds ran with capabilities, so any log that says so is the
# new one's; the bound covers Slurm scheduling the job and running ResumeProgram
# on a loaded two-core machine.
if wait_for "grep -qs 'Operation not permitted' '$work'/state/local-box/*.log" 60; then
    tap_ok "the local provider's slurmd cannot run without capabilities (burstd-local-provider.conf lifts that)"
else
    tap_fail "the local provider's slurmd fails without capabilities" \
        "job $job: $(squeue -h -j "$job" -o '%T %R %N' 2>&1)" "$(tail -5 "$work/burstd.log")" \
        "$(for f in "$work"/state/local-box/*.log; do echo "== $f"; tail -2 "$f"; done)"
fi
scancel "${FILLERS[@]}" "$job" 2>/dev/null
tap_finish
