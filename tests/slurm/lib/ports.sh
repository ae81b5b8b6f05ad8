# TCP ports for test clusters that run at the same time on one machine
# (sourced by cluster.sh).
#
#   ports_claim OWNER_PID TAG COUNT
#       prints COUNT distinct free ports, one a line, and records them as
#       claimed by process OWNER_PID (under the name TAG) until ports_release.
#   ports_release OWNER_PID TAG
#
# A port is only "free" for a cluster if no socket uses it now AND no other
# live cluster has claimed it: a CLOUD node's slurmd binds its port only when
# the node is resumed, long after the cluster chose it.  Claims are made under
# one lock and belong to a process; a claim whose process is gone is ignored,
# so a test killed with SIGKILL leaks nothing.  Ports come from below the
# kernel's ephemeral range (32768-60999 on Debian) so that outgoing
# connections never take them in the meantime.

PORTS_REGISTRY=${PORTS_REGISTRY:-/tmp/slurm-burst-ports}
PORTS_FIRST=${PORTS_FIRST:-20000}
PORTS_LAST=${PORTS_LAST:-32000}

ports_claim() {
    local count=$3 claim=$PORTS_REGISTRY/$1.$2.ports
    mkdir -p "$PORTS_REGISTRY" || return 1
    (
        exec 9>"$PORTS_REGISTRY/.lock"
        flock -w 30 9 || { echo "ports_claim: cannot lock $PORTS_REGISTRY/.lock within 30 s" >&2; exit 1; }
        declare -A taken=()
        local f p pid
        for f in "$PORTS_REGISTRY"/*.ports; do
            [ -e "$f" ] || continue
            pid=${f##*/}; pid=${pid%%.*}
            if kill -0 "$pid" 2>/dev/null; then
                while read -r p; do taken[$p]=1; done <"$f"
            else
                rm -f "$f"
            fi
        done
        while read -r p; do taken[$p]=1; done < <(ss -Htan | awk '{ n = split($4, a, ":"); print a[n] }')
        local picked=() span=$((PORTS_LAST - PORTS_FIRST + 1)) tries=0
        while ((${#picked[@]} < count)); do
            ((++tries <= 100000)) || { echo "ports_claim: no $count free ports in $PORTS_FIRST-$PORTS_LAST" >&2; exit 1; }
            p=$((PORTS_FIRST + (RANDOM * 32768 + RANDOM) % span))
            [ -z "${taken[$p]:-}" ] || continue
            taken[$p]=1
            picked+=("$p")
        done
        printf '%s\n' "${picked[@]}" >"$claim.tmp" && mv "$claim.tmp" "$claim"
        printf '%s\n' "${picked[@]}"
    )
}

ports_release() {
    rm -f "$PORTS_REGISTRY/$1.$2.ports"
}
