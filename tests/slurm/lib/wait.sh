# Polling helpers for the integration tests (sourced by cluster.sh).  Every
# wait is bounded; they poll every 0.25 s instead of sleeping a guessed time.
#
#   now                          wall-clock seconds with microseconds (e.g. 1763811234.123456)
#   elapsed SINCE                seconds since SINCE (a value of `now`), 2 decimals
#   wait_for CMD TIMEOUT         evaluates the shell string CMD until it succeeds; 1 on timeout
#   node_state NODE              the State= field of `scontrol show node -o NODE` (e.g. IDLE+CLOUD+POWERED_DOWN)
#   wait_node_state NODE REGEX TIMEOUT
#                                waits until node_state matches the extended REGEX;
#                                1 on timeout (the last state is printed to stderr)
#   wait_job_done JOBID TIMEOUT  waits until squeue no longer lists JOBID; 1 on timeout
#   job_field JOBID FIELD        FIELD of `scontrol show job -o JOBID` (JobState, ExitCode, NodeList...);
#                                when slurmctld has forgotten the job, the same FIELD from sacct
#                                (sacct's names: State, ExitCode, NodeList...)

now() {
    echo "$EPOCHREALTIME"
}

elapsed() {
    awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}

_now_us() {
    echo "${EPOCHREALTIME/./}"
}

wait_for() {
    local cmd=$1 deadline
    deadline=$(( $(_now_us) + $(awk -v t="$2" 'BEGIN { printf "%d", t * 1000000 }') ))
    while :; do
        if eval "$cmd" >/dev/null 2>&1; then
            return 0
        fi
        (( $(_now_us) < deadline )) || return 1
        sleep 0.25
    done
}

node_state() {
    local line
    line=$(scontrol show node -o "$1" 2>/dev/null) || return 1
    [[ " $line " =~ \ State=([^ ]+)\  ]] || return 1
    echo "${BASH_REMATCH[1]}"
}

wait_node_state() {
    local node=$1 regex=$2 timeout=$3
    if wait_for "[[ \"\$(node_state '$node')\" =~ $regex ]]" "$timeout"; then
        return 0
    fi
    echo "wait_node_state: $node did not reach /$regex/ within ${timeout}s (state: $(node_state "$node" || echo unknown))" >&2
    return 1
}

_job_gone() {
    local out
    # squeue fails with "Invalid job id" once the job has been purged: also gone.
    out=$(squeue -h -j "$1" -o %T 2>/dev/null) || return 0
    [ -z "$out" ]
}

wait_job_done() {
    local job=$1 timeout=$2
    if wait_for "_job_gone '$job'" "$timeout"; then
        return 0
    fi
    echo "wait_job_done: job $job still queued after ${timeout}s: $(squeue -h -j "$job" -o '%T %R' 2>/dev/null)" >&2
    return 1
}

job_field() {
    local job=$1 field=$2 line
    if line=$(scontrol show job -o "$job" 2>/dev/null) && [[ " $line " =~ \ $field=([^ ]*)\  ]]; then
        echo "${BASH_REMATCH[1]}"
        return 0
    fi
    line=$(sacct -n -P -X -j "$job" -o "$field" 2>/dev/null) || return 1
    [ -n "$line" ] || return 1
    echo "$line"
}
