#!/bin/bash
# burstd chooses CPUs per task for --threads=auto jobs on a real cluster
# (ThreadPolicy=greedy lambda=0.1; local cores free of charge, the cloud
# group at 0.05 per core-hour).  One category is learned from six runs at 1,
# 2 and 4 CPUs per task taking 2 + 4/t s (c = 4/6, E = 6 s).  Then:
#   - an auto job pending behind a full n2 while n1 is idle is raised to 4
#     CPUs per task (NumCPUs with it, and its --mem-per-cpu memory); one
#     whose user gave -c 1 is left alone;
#   - with every local core idle, a new auto job gets 4 at submission from
#     burstd's advice, and its tasks see OMP_NUM_THREADS=4 and
#     SRUN_CPUS_PER_TASK=4;
#   - with every local core busy, cores cost what waiting costs, and a new
#     auto job gets 2: J(t) = T(t)(0.05 t + 0.1) is 0.9, 0.8, 0.9 at 1, 2, 4;
#   - a reload without ThreadPolicy= withdraws the advice from slurmctld.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
burstd_test_cluster thrchoice --local 2 --cloud 1 --cpus 4 --conf SelectTypeParameters=CR_Core_Memory || exit 1
echo "optional ${CLUSTER_PLUGIN_DIR:-$BURSTD_PLUGIN_DIR}/spank_burst.so" >"$CLUSTER_DIR/plugstack.conf"
echo "PlugStackConfig=$CLUSTER_DIR/plugstack.conf" >>"$SLURM_CONF"
burstd_bring_up never 2 "ThreadPolicy=greedy lambda=0.1 counts=1,2,4" || exit 1
tap_ok "burstd started with ThreadPolicy=greedy and the plugin connected"

out=$CLUSTER_DIR/out
mkdir -p "$out" && chmod 0777 "$out"
# One category: same account, job name and first script line.  sbatch sets
# SLURM_CPUS_PER_TASK only for its own -c; an auto job's count is in
# OMP_NUM_THREADS (spank_burst).
script='echo OMP=${OMP_NUM_THREADS:-unset} SRUN=${SRUN_CPUS_PER_TASK:-unset}; sleep $(( 2 + 4 / ${OMP_NUM_THREADS:-$SLURM_CPUS_PER_TASK} ))'
submit() { sbatch --parsable -p local -n1 -J scaler -o "$out/%j.out" "$@" --wrap "$script"; }
status() { "$BURSTCTL_BIN" --socket "$BURSTD_DIR/control.sock" status; }

filler=$(sbatch --parsable -p local -n1 -c4 -w n2 -o /dev/null --wrap 'sleep 3600')
wait_for "[ \"\$(job_field $filler JobState)\" = RUNNING ]" 15 || tap_fail "n2 filled"
pending_auto=$(submit --threads=auto -w n2 --mem-per-cpu=100)
pending_explicit=$(submit --threads=auto -c 1 -w n2)
tap_is "before anything is learned an auto job keeps one CPU per task" "$(job_field "$pending_auto" CPUs/Task)" 1
tap_is "an auto job whose user gave -c 1 is recorded as threads:1" \
    "$(scontrol show job "$pending_explicit" | grep -o 'threads:[^ ]*' | head -1)" "threads:1"

learners=()
for c in 1 2 4 1 2 4; do learners+=("$(submit -c "$c" -w n1)"); done
for j in "${learners[@]}"; do wait_job_done "$j" 60 || tap_fail "learning job $j ended"; done
if wait_for "status | grep -q 'thread scaling: 1 categories learned from completed runs, 1 known'" 10; then
    tap_ok "the category is known after six runs"
else
    tap_fail "the category is known after six runs" "$(status | grep -i thread)"
fi

if wait_for "[ \"\$(job_field $pending_auto CPUs/Task)\" = 4 ]" 10; then
    tap_ok "the pending auto job was raised to 4 CPUs per task while n1 is idle"
else
    tap_fail "the pending auto job was raised to 4 CPUs per task" "$(scontrol show job "$pending_auto" | grep -i cpus)"
fi
tap_is "... with NumCPUs set with it" "$(job_field "$pending_auto" NumCPUs)" 4
tap_like "... and burstd's reason in its log" "$(grep "decision: job $pending_auto: 4 cpus per task" "$BURSTD_DIR/burstd.log")" \
    "category [0-9a-f]{16} scales with c 0\.[5-8][0-9], E [4-8]\.[0-9]+ s: 4 CPUs per task on local nodes"
tap_is "the job whose user gave -c 1 is left alone" "$(job_field "$pending_explicit" CPUs/Task)" 1
explain() { "$BURSTCTL_BIN" --socket "$BURSTD_DIR/control.sock" explain "$1"; }
wait_for "explain $pending_auto | grep -q 'has 4 CPU'" 10 # the next snapshot shows the change
explained=$(explain "$pending_auto")
tap_like "burstctl explain: what the job asked and has, and each count's expected run time" "$explained" \
    "asked auto, has 4 CPU\(s\) per task.*expected run time by CPUs per task: 1: [5-8] s, 2: [3-5] s, 4: [2-4] s"
scancel "$filler" "$pending_explicit"
# Slurm 22.05 leaves the pending job's TRES at its submitted memory; the
# allocation is what counts (22.05 shows it as TRES=, 24.11 as AllocTRES=).
if wait_for "[ \"\$(job_field $pending_auto JobState)\" != PENDING ]" 15; then
    tap_like "once it starts, its --mem-per-cpu memory follows its CPUs (100 MB a CPU)" \
        "$(job_field "$pending_auto" TRES)$(job_field "$pending_auto" AllocTRES)" 'cpu=4,mem=400M'
else
    tap_fail "the raised job started once n2 was free" "$(squeue -j "$pending_auto")"
fi
scancel "$pending_auto"

category=$(scontrol show job "$pending_auto" 2>/dev/null | grep -o 'category:[0-9a-f]*' | head -1 | cut -d: -f2)
advised() { status | grep -q "thread policy greedy: CPUs per task for new --threads=auto jobs: $category $1"; }
if wait_for "advised 4" 10; then
    tap_ok "burstctl status: the advice for the category is 4 with every local core idle"
else
    tap_fail "burstctl status: the advice is 4 with every local core idle" "$(status | grep -i thread)"
fi
idle_auto=$(submit --threads=auto)
tap_is "a new auto job gets 4 CPUs per task at submission" "$(job_field "$idle_auto" CPUs/Task)" 4
wait_job_done "$idle_auto" 30 || tap_fail "the advised job ended"
tap_is "its tasks see OMP_NUM_THREADS and SRUN_CPUS_PER_TASK of 4" "$(cat "$out/$idle_auto.out" 2>&1)" "OMP=4 SRUN=4"

fillers=()
for n in n1 n2; do fillers+=("$(sbatch --parsable -p local -n1 -c4 -w $n -o /dev/null --wrap 'sleep 3600')"); done
if wait_for "advised 2" 15; then
    tap_ok "burstctl status: with every local core busy the advice drops to 2"
else
    tap_fail "with every local core busy the advice drops to 2" "$(status | grep -i thread)"
fi
busy_auto=$(submit --threads=auto)
tap_is "a new auto job gets 2 CPUs per task at submission" "$(job_field "$busy_auto" CPUs/Task)" 2
scancel "${fillers[@]}" "$busy_auto"

# A reload without ThreadPolicy= withdraws the plugin's advice.
sed -i '/^ThreadPolicy=/d' "$BURSTD_DIR/burstd.conf"
kill -HUP "$BURSTD_PID"
if wait_for "grep -q 'thread advice withdrawn' '$BURSTD_DIR/burstd.log'" 10; then
    tap_ok "after a reload without ThreadPolicy= burstd withdrew its advice"
else
    tap_fail "burstd withdrew its advice" "$(tail -3 "$BURSTD_DIR/burstd.log")"
fi
sleep 2 # the exporter reads burstd's messages every ExportInterval (1 s here)
withdrawn=$(submit --threads=auto)
tap_is "a new auto job keeps one CPU per task" "$(job_field "$withdrawn" CPUs/Task)" 1
scancel "$withdrawn"
tap_finish
