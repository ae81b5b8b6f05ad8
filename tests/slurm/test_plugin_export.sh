#!/bin/bash
# job_submit/burst and spank_burst inside a real slurmctld, with a small
# listener (lib/snapshot_listener.py) in burstd's place:
#  - burst.conf is read (an unknown key is logged with file:line), hello is sent
#  - the snapshot's jobs, nodes and shares match scontrol/sshare, for running,
#    pending, dependent and array jobs in two accounts, with and without options,
#    and what a job asks of each node (GPUs per node, task and job; a
#    constraint; CPUs per node, also of a job held to one node; memory per node
#    or per CPU)
#  - invalid --burst/--threads/--comment values are refused with a clear message
#  - job_end is sent for a finished job
#  - burstd going away does not stop slurmctld; the plugin reconnects
#  - malformed advice changes nothing; valid advice sets --threads=auto jobs' CPUs
#  - OMP_NUM_THREADS follows the CPUs per task in the job
#  - reconfigure keeps exactly one exporter thread, also across plugin changes
#  - (ExportSelfCheck=yes) every jobs array built from kept job texts equals
#    a fresh serialization
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
builddir=${BURST_BUILDDIR:-$(cd "$here/../.." && pwd)}
plugdir=$builddir/plugin/.libs
if [ ! -e "$plugdir/job_submit_burst.so" ] || [ ! -e "$plugdir/spank_burst.so" ]; then
    tap_fail "plugins built in $plugdir (run make first)"
    exit 1
fi

listener_pid=""
stop_listener() {
    if [ -n "$listener_pid" ]; then
        kill "$listener_pid" 2>/dev/null
        wait "$listener_pid" 2>/dev/null
        listener_pid=""
    fi
}
on_exit() {
    local rc=$?
    stop_listener
    cluster_stop "$rc"
}

cluster_start --dbd --local 2 --cloud 1 --cpus 2 --cloud-gres gpu:a100:2 --plugin-dir "$plugdir" --name plugexp || exit 1
trap on_exit EXIT
sock=$CLUSTER_DIR/burst.sock
log=$CLUSTER_DIR/listener.jsonl
outbox=$CLUSTER_DIR/outbox
ctld_log=$CLUSTER_DIR/log/slurmctld.log

start_listener() {
    rm -f "$sock"
    python3 "$here/lib/snapshot_listener.py" "$sock" "$log" "$outbox" &
    listener_pid=$!
    wait_for "[ -S '$sock' ]" 20
}
connects() { grep -c '"listener": "connect"' "$log" 2>/dev/null || true; }
# 24.11's `scontrol reconfigure` execs a new slurmctld: its pid is the pid file's
exporter_threads() { grep -lx burst_export /proc/"$(cat "$CLUSTER_DIR/run/slurmctld.pid")"/task/*/comm 2>/dev/null | wc -l; }
field() { # JOBID FIELD, keeping values with blanks (AdminComment, Comment) whole
    scontrol show job -o "$1" | python3 -c '
import re, sys
for part in re.split(r" (?=[A-Za-z][A-Za-z0-9_/:]*=)", sys.stdin.readline().strip()):
    k, _, v = part.partition("=")
    if k == sys.argv[1]:
        print(v.strip())' "$2"
}
admin_tag() { # JOBID TAG
    field "$1" AdminComment | tr ' ' '\n' | sed -n "s/^$2://p"
}
snapshot_since() { # SECONDS: newest snapshot time >= SECONDS exists
    python3 - "$log" "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("type") == "snapshot" and m.get("time", 0) >= int(sys.argv[2]):
        sys.exit(0)
sys.exit(1)
PY
}
set_plugins() { # on|off
    sed -i '/^JobSubmitPlugins=/d; /^PlugStackConfig=/d' "$SLURM_CONF"
    if [ "$1" = on ]; then
        echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
        echo "PlugStackConfig=$CLUSTER_DIR/plugstack.conf" >>"$SLURM_CONF"
    fi
    scontrol reconfigure
}

# --- start-up: burst.conf next to slurm.conf, plugin enabled by reconfigure
start_listener || tap_fail "listener started"
cat >"$CLUSTER_DIR/burst.conf" <<CONF
# test burst.conf
SocketPath=$sock
ExportInterval=2
ExportSelfCheck=yes
Colour=blue
CONF
echo "optional $CLUSTER_PLUGIN_DIR/spank_burst.so" >"$CLUSTER_DIR/plugstack.conf"
set_plugins on
if wait_for "grep -q '\"type\":\"hello\"' '$log'" 15; then
    tap_ok "plugin connected and said hello"
else
    tap_fail "plugin connected and said hello" "$(tail -5 "$ctld_log")"
fi
slurm_version=$(scontrol --version | awk '{ print $2 }')
tap_like "hello names the cluster and Slurm version" "$(grep -m1 '"type":"hello"' "$log")" \
    "\"cluster\":\"plugexp\".*\"slurm_version\":\"${slurm_version//./\\.}\""
tap_like "unknown burst.conf key logged with file:line" \
    "$(grep 'job_submit/burst' "$ctld_log" | grep Colour)" "burst\.conf:5: unknown key \"Colour\""
tap_is "one exporter thread" "$(exporter_threads)" 1

# --- options: refused when invalid, recorded when valid
out=$(sbatch -p local --comment "burst:sometimes" --wrap true 2>&1)
tap_like "--comment burst:sometimes is refused with a reason" "$out" \
    "slurm-burst: --comment: burst: expected never, allow or prefer, got \"sometimes\""
out=$(sbatch -p local --burst=bogus --wrap true 2>&1)
tap_like "--burst=bogus is refused by sbatch" "$out" "expected never, allow or prefer"
out=$(sbatch -p local --threads=3 -c 2 --wrap true 2>&1)
tap_like "--threads conflicting with -c is refused" "$out" "conflicts with --cpus-per-task=2"
out=$(sbatch -p local --burst-size=12GB --wrap true 2>&1)
tap_like "--burst-size=12GB is refused by sbatch" "$out" 'size: expected a positive number such as 12 or 0.5'
out=$(sbatch -p local --comment "size:12GB" --wrap true 2>&1)
tap_like "--comment size:12GB is refused with a reason" "$out" 'slurm-burst: --comment: size: expected a positive number'

j_run=$(sbatch --parsable -A alpha -p local -n1 -J runner -w n1 --wrap 'sleep 300')
j_com=$(sbatch --parsable -A alpha -p local -n1 -J commented -w n1 --comment "burst:never threads:auto keep this" --wrap 'sleep 300')
j_arr=$(sbatch --parsable -A beta -p local -n2 -J arr --array=1-6 --wrap 'sleep 300')
j_dep=$(sbatch --parsable -A beta -p local -n1 -J dep -d "afterok:$j_run" --wrap 'sleep 10')
j_opt=$(sbatch --parsable -A alpha -p local -J opts --burst=prefer --threads=2 --burst-size=2.5 --wrap 'sleep 10')
# What a job asks of every node it gets: GPUs per node, per task and per
# job, and a constraint (held, so that they stay in the snapshot).
j_gpn=$(sbatch --parsable -A alpha -p cloud -J gpn --hold --gres=gpu:a100:1 --constraint=cloud --mem=500 --wrap true)
j_mpc=$(sbatch --parsable -A alpha -p cloud -J mpc --hold -n1 -c2 --mem-per-cpu=200 --wrap true)
j_gpt=$(sbatch --parsable -A alpha -p cloud -J gpt --hold -n2 --gpus-per-task=1 --wrap true)
j_gpj=$(sbatch --parsable -A alpha -p cloud -J gpj --hold -n2 --gpus=2 --wrap true)
# The CPUs each node needs: all the tasks of a job held to one node, or a
# task per node of one that may spread.
j_one=$(sbatch --parsable -A alpha -p cloud -J one --hold -N1 -n2 --mem-per-cpu=100 --wrap true)
j_spr=$(sbatch --parsable -A alpha -p cloud -J spread --hold -n2 --mem-per-cpu=100 --wrap true)
j_tpn=$(sbatch --parsable -A alpha -p cloud -J tpn --hold -n2 --ntasks-per-node=2 --wrap true)
j_ovc=$(sbatch --parsable -A alpha -p cloud -J ovc --hold -N1 -n2 -O --wrap true)
wait_for "[ \"\$(field $j_run JobState)\" = RUNNING ] && [ \"\$(field $j_com JobState)\" = RUNNING ] && squeue -h -t R -j $j_arr | grep -q ." 30 ||
    tap_fail "jobs started" "$(squeue)"

tap_is "--threads=2 sets CPUs/Task" "$(field "$j_opt" CPUs/Task)" 2
tap_is "--threads=2 sets NumCPUs" "$(field "$j_opt" NumCPUs)" 2
tap_is "--burst=prefer recorded" "$(admin_tag "$j_opt" burst)" prefer
tap_is "--threads recorded" "$(admin_tag "$j_opt" threads)" 2
tap_is "--burst-size recorded as the user wrote it" "$(admin_tag "$j_opt" size)" 2.5
tap_is "comment burst:never recorded" "$(admin_tag "$j_com" burst)" never
tap_is "comment threads:auto recorded" "$(admin_tag "$j_com" threads)" auto
tap_like "job without options gets burst:allow and a category" "$(field "$j_run" AdminComment)" \
    '^burst:allow category:[0-9a-f]{16}$'
tap_is "user's own comment words are kept" "$(field "$j_com" Comment)" "burst:never threads:auto keep this"

# --- the snapshot matches Slurm's view
sleep 1
settle=$(date +%s)
if wait_for "snapshot_since $((settle + 1))" 10; then
    tap_check "snapshot jobs match scontrol show job" python3 "$here/lib/check_snapshot.py" "$log" "$((settle + 1))" jobs "$j_one" "$j_ovc"
    tap_check "snapshot nodes match scontrol show node" python3 "$here/lib/check_snapshot.py" "$log" "$((settle + 1))" nodes
    tap_check "snapshot shares match sshare" python3 "$here/lib/check_snapshot.py" "$log" "$((settle + 1))" shares
else
    tap_fail "a snapshot after the jobs settled"
fi
pending_array=$(grep '"type":"snapshot"' "$log" | tail -1 | python3 -c "
import json, sys
m = json.loads(sys.stdin.read())
print([j['array_tasks'] for j in m['jobs'] if j['id'] == $j_arr and j['state'] == 'PENDING'])")
tap_is "pending array is one record with its task count" "$pending_array" "[5]"
snap_job() { # JOBID FIELD of the newest snapshot
    grep '"type":"snapshot"' "$log" | tail -1 |
        python3 -c "import json, sys; print([j['$2'] for j in json.loads(sys.stdin.read())['jobs'] if j['id'] == $1][0])"
}
tap_is "--gres=gpu:a100:1 --constraint=cloud: what each node needs" \
    "$(snap_job "$j_gpn" gres) $(snap_job "$j_gpn" features)" "gres:gpu:a100:1 cloud"
tap_is "--gpus-per-task=1: a GPU on each node" "$(snap_job "$j_gpt" gres)" "gres:gpu:1"
tap_is "--gpus=2 over 2 tasks: a GPU on each node, not two" "$(snap_job "$j_gpj" gres)" "gres:gpu:1"
tap_is "--mem=500: each node needs 500 MiB" "$(snap_job "$j_gpn" node_mem_mb)" 500
tap_is "--mem-per-cpu=200 -c2: each node needs a task's 400 MiB" "$(snap_job "$j_mpc" node_mem_mb)" 400
tap_is "-N1 -n2 --mem-per-cpu=100: one node needs both tasks' CPUs and memory" \
    "$(snap_job "$j_one" node_cpus) $(snap_job "$j_one" node_mem_mb)" "2 200"
tap_is "-n2 --mem-per-cpu=100 may spread: a node needs one task's" \
    "$(snap_job "$j_spr" node_cpus) $(snap_job "$j_spr" node_mem_mb)" "1 100"
tap_is "--ntasks-per-node=2: each node needs 2 CPUs" "$(snap_job "$j_tpn" node_cpus)" 2
tap_is "-c2: each node needs 2 CPUs" "$(snap_job "$j_mpc" node_cpus)" 2
tap_is "-N1 -n2 -O: overcommitted tasks share one CPU" "$(snap_job "$j_ovc" node_cpus)" 1
scancel "$j_gpn" "$j_gpt" "$j_gpj" "$j_mpc" "$j_one" "$j_spr" "$j_tpn" "$j_ovc"

# --- job_end for a job that finished
scancel "$j_arr"
wait_for "! squeue -h -j $j_arr | grep -q ." 20
j_end=$(sbatch --parsable -A beta -p local -n1 -c2 -w n2 -J ender --comment size:40 --wrap 'sleep 1; exit 3')
if wait_for "grep -q '\"type\":\"job_end\".*\"id\":$j_end,' '$log'" 20; then
    line=$(grep "\"type\":\"job_end\".*\"id\":$j_end," "$log")
    tap_like "job_end carries exit code, account, nodes and state" "$line" \
        '"account":"beta".*"exit_code":3.*"node_list":\["n2"\].*"state":"FAILED"'
    tap_like "job_end carries the job's category" "$line" "\"category\":\"$(admin_tag "$j_end" category)\""
    tap_like "job_end carries its CPUs per task, the threads it ran with" "$line" '"cpus":2,"cpus_per_task":2,'
    tap_like "job_end carries its size hint" "$line" '"size":40(\.0)?,'
else
    tap_fail "job_end sent for job $j_end"
fi

# --- burstd goes away and comes back
stop_listener
t0=$(now)
probe=$(timeout 10 sbatch --parsable -p local -n1 --hold --wrap true)
tap_like "slurmctld accepts jobs while burstd is gone (took $(elapsed "$t0") s)" "$probe" '^[0-9]+$'
tap_check "slurmctld answers while burstd is gone" scontrol ping
sleep 3
before=$(connects)
start_listener
if wait_for "[ \"\$(connects)\" -gt $before ]" 70; then
    tap_ok "plugin reconnected after burstd came back"
else
    tap_fail "plugin reconnected after burstd came back" "$(grep job_submit/burst "$ctld_log" | tail -5)"
fi
wait_for "grep -c '\"type\":\"hello\"' '$log' | grep -qx 2" 10
tap_is "a new hello on the new connection" "$(grep -c '"type":"hello"' "$log")" 2

# --- advice: malformed changes nothing, valid applies to --threads=auto
submit_auto() { sbatch --parsable -A alpha -p local -n1 -J autojob --threads=auto --hold --wrap 'srun ./model --fast'; }
a1=$(submit_auto)
cat=$(admin_tag "$a1" category)
tap_like "threads=auto job has a category" "$cat" '^[0-9a-f]{16}$'
send() { printf '%s\n' "$@" >"$outbox.tmp" && mv "$outbox.tmp" "$outbox" && wait_for "[ ! -e '$outbox' ]" 10 && sleep 2; }
head='"v":1,"type":"advice","cluster":"plugexp","seq":1,"time":1'
send 'not json at all' \
    "{$head,\"threads\":{\"$cat\":0}}" \
    "{$head,\"threads\":{\"$cat\":\"4\"}}" \
    "{$head,\"threads\":{\"$cat\":4,\"NOTAHEXKEY\":2}}" \
    "{\"v\":1,\"type\":\"advice\",\"cluster\":\"other\",\"seq\":1,\"time\":1,\"threads\":{\"$cat\":4}}" \
    "{$head,\"threads\":[4]}"
python3 -c "import sys; sys.stdout.write('{\"pad\":\"' + 'x' * (2 << 20) + '\"}\n')" >"$outbox.tmp" && mv "$outbox.tmp" "$outbox"
wait_for "[ ! -e '$outbox' ]" 10 && sleep 2
tap_check "slurmctld alive after malformed advice" scontrol ping
tap_like "malformed advice is logged" "$(grep 'advice from burstd ignored' "$ctld_log" | head -1)" 'ignored: advice'
a2=$(submit_auto)
tap_is "malformed advice changed nothing" "$(field "$a2" CPUs/Task)" 1
send "{$head,\"threads\":{\"$cat\":2,\"00000000000000aa\":7}}"
a3=$(submit_auto)
tap_is "valid advice sets CPUs/Task of a threads=auto job" "$(field "$a3" CPUs/Task)" 2
tap_is "valid advice sets NumCPUs of a threads=auto job" "$(field "$a3" NumCPUs)" 2
a4=$(sbatch --parsable -A beta -p local -n1 -J autojob --threads=auto --hold --wrap 'srun ./model --fast')
tap_is "advice is per category (other account)" "$(field "$a4" CPUs/Task)" 1
scancel "$a1" "$a2" "$a3" "$a4" "$probe"

# --- OMP_NUM_THREADS follows CPUs per task
scancel "$j_run" "$j_com" "$j_dep" "$j_opt"
wait_for "! squeue -h | grep -q ." 30
omp=$(sbatch --parsable -p local -n1 --threads=2 -o "$CLUSTER_DIR/omp-%j.out" --wrap 'echo OMP=$OMP_NUM_THREADS')
plain=$(sbatch --parsable -p local -n1 -o "$CLUSTER_DIR/omp-%j.out" --wrap 'echo OMP=${OMP_NUM_THREADS:-unset}')
wait_job_done "$omp" 30
wait_job_done "$plain" 30
tap_is "--threads=2 job sees OMP_NUM_THREADS=2" "$(cat "$CLUSTER_DIR/omp-$omp.out" 2>&1)" "OMP=2"
tap_is "job without --threads keeps OMP_NUM_THREADS unset" "$(cat "$CLUSTER_DIR/omp-$plain.out" 2>&1)" "OMP=unset"

# --- reconfigure keeps exactly one exporter thread
scontrol reconfigure
sleep 3
tap_is "one exporter thread after scontrol reconfigure" "$(exporter_threads)" 1
set_plugins off
wait_for "[ \"\$(exporter_threads)\" = 0 ]" 10
tap_is "no exporter thread once the plugin is removed" "$(exporter_threads)" 0
before=$(connects)
set_plugins on
wait_for "[ \"\$(connects)\" -gt $before ]" 15
tap_is "one exporter thread once the plugin is back" "$(exporter_threads)" 1
# ExportSelfCheck: every jobs array built from kept job texts equalled a
# fresh serialization of the same copy
tap_is "kept job texts always equal to a fresh serialization" \
    "$(grep -c 'self check:' "$ctld_log")" 0
tap_check "slurmctld alive at the end" scontrol ping
tap_finish
