#!/bin/bash
# How fast a real job starts on a warm CLOUD node, and whether Slurm itself
# frees a warm node that a placeholder job holds (issue 27's target: a real
# job preempting a placeholder on a warm node starts <= 5 s after submission).
# One cluster: 1 local node, CLOUD nodes c1 (kept up: SuspendExcNodes) and c2, slurmdbd, a QOS
# "placeholder" (Priority=0) that QOS "normal" preempts, PreemptType=preempt/qos,
# PreemptMode=CANCEL.  Each case submits a 2-CPU job (a whole node) to the
# cloud partition and prints the seconds from submission to RUNNING (polled
# every 0.1 s), the node it got and what became of the placeholder:
#   idle         c1 up and idle, c2 powered down
#   held         a placeholder on c1, c2 powered down
#   held-only    a placeholder on c1, c2 drained (no node to power up)
#   cancelled    a placeholder on c1, cancelled just before the submission
#                (what a decision cycle can do before it routes a job)
#
#   bench/warm_node_start.sh [RUNS]      (default 3)
#   BURST_SLURM_PREFIX=/opt/slurm-24.11  another Slurm release (tests/slurm/lib/cluster.sh)
# Run as root.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-3}
# shellcheck source=../tests/slurm/lib/cluster.sh
source "$here/../tests/slurm/lib/cluster.sh"
# c1 is the warm node: never powered down for idleness (SuspendExcNodes)
cluster_start --dbd --local 1 --cloud 2 --conf PreemptType=preempt/qos --conf PreemptMode=CANCEL \
    --conf SuspendExcNodes=n1,c1 --name warmbench >/dev/null || exit 1
echo "# Slurm $(scontrol --version | awk '{ print $2 }'), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
sacctmgr -i add qos placeholder Priority=0 >/dev/null &&
    sacctmgr -i modify qos normal set Preempt=placeholder >/dev/null &&
    sacctmgr -i modify user root set qos+=placeholder >/dev/null || { echo "setting up the QOS failed" >&2; exit 1; }

now_s() { date +%s.%N; }
# seconds from T0 until JOB runs, or "-" after 60 s
until_running() { # JOB T0
    wait_for "[ \"\$(squeue -h -j $1 -o %T)\" = RUNNING ]" 60 || { echo -; return; }
    awk -v a="$2" -v b="$(now_s)" 'BEGIN { printf "%.2f", b - a }'
}
placeholder() {
    local id
    id=$(sbatch --parsable -p cloud -q placeholder -w c1 --exclusive -J placeholder -o /dev/null --wrap 'sleep 100000')
    wait_for "[ \"\$(squeue -h -j $id -o %T)\" = RUNNING ]" 60 || echo "# placeholder $id did not start" >&2
    echo "$id"
}
real_job() { sbatch --parsable -p cloud -N1 -n2 -o /dev/null --wrap 'sleep 2'; }
report() { # CASE JOB T0 [PLACEHOLDER]
    local s
    s=$(until_running "$2" "$3")
    printf '%-10s %6s s  on %-3s  placeholder %s\n' "$1" "$s" "$(squeue -h -j "$2" -o %N)" \
        "$([ -n "${4:-}" ] && sacct -n -X -j "$4" -o State%20 | xargs || echo -)"
    wait_job_done "$2" 60 >/dev/null
    [ -z "${4:-}" ] || scancel "$4" 2>/dev/null
    # the next case starts from c1 up and idle, c2 powered down
    scontrol update nodename=c2 state=power_down_force 2>/dev/null
    wait_for "sinfo -h -n c1 -o %T | grep -qx idle && sinfo -h -n c2 -o %T | grep -q '~'" 60 ||
        echo "# nodes not back to c1 idle, c2 powered down: $(sinfo -h -N -p cloud -o '%N %T' | xargs)" >&2
}

scontrol update nodename=c1 state=power_up
wait_for "sinfo -h -n c1 -o %T | grep -qx idle" 60 || { echo "c1 did not come up" >&2; exit 1; }
echo "case        start    node   placeholder"
for ((r = 1; r <= runs; r++)); do
    t0=$(now_s); j=$(real_job); report idle "$j" "$t0"
    ph=$(placeholder); t0=$(now_s); j=$(real_job); report held "$j" "$t0" "$ph"
    scontrol update nodename=c2 state=drain reason=warm_node_start
    ph=$(placeholder); t0=$(now_s); j=$(real_job); report held-only "$j" "$t0" "$ph"
    scontrol update nodename=c2 state=undrain
    ph=$(placeholder); t0=$(now_s); scancel "$ph"; j=$(real_job); report cancelled "$j" "$t0"
done
