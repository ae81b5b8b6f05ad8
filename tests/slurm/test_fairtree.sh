#!/bin/bash
# burstsim's Fair Tree (burstd/src/sim/fair_tree.*) against Slurm 22.05's own:
# a cluster with slurmdbd and Slurm's default PriorityFlags (Fair Tree), an
# association tree with accounts of different shares and two users each,
# jobs that give the users different usage; then the model, fed sshare's
# RawShares and RawUsage (tests/slurm/burst_fairtree), must give sshare's
# NormShares, EffectvUsage, LevelFS and FairShare for every association.
#
#   root ─ user root (1)          no usage: LF ∞, ranks first
#        ├ alpha (30): root, nobody      both used, different amounts
#        ├ beta (10):  root, daemon      only root used
#        │  └ epsilon (parent): nobody   used
#        ├ delta (parent): bin, root     both used, different amounts
#        ├ gamma (0):  root, bin         only root used
#        └ omega (0):  root, sys         only root used
# gamma and omega have 0 shares, so LF 0 both: a tie between accounts, which
# 22.05 does not merge (omega's first user ties with gamma's last).  An
# account at Fairshare=parent hands its users to its parent's level (delta's
# to root's, epsilon's to beta's), where their shares count and their usage
# is measured against that parent's; it has LF NO_VAL and ranks no one.
# delta is made with sacctmgr modify (as sites do), epsilon at creation.
# PriorityDecayHalfLife=0 (which needs a PriorityUsageResetPeriod): usage is
# exact CPU-seconds, so sshare's integer RawUsage loses nothing.
# AccountingStorageEnforce=limits: without it slurmctld never charges the
# time a job ran since the last decay pass when it ends (acct_policy.c
# calls priority_g_job_end only then), and these jobs end between passes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
model=${BURST_BUILDDIR:?run through run-all.sh BUILDDIR}/tests/slurm/burst_fairtree
[ -x "$model" ] || { echo "not ok - $model is built (make tests/slurm/burst_fairtree)"; exit 1; }

cluster_start --dbd --local 1 --cloud 0 --cpus 32 --name fairtree \
    --conf PriorityDecayHalfLife=0 --conf PriorityUsageResetPeriod=YEARLY --conf DebugFlags=Priority \
    --conf AccountingStorageEnforce=associations,limits
tap_ok "cluster with slurmdbd started in $CLUSTER_START_SECONDS s"
tap_is "PriorityFlags is Slurm's default (Fair Tree)" \
    "$(scontrol show config | awk -F' = ' '$1 ~ /^PriorityFlags/ { print $2 }')" ""

# gamma before omega, in name and creation order alike: the order Slurm keeps
# between the two tied accounts is then the one sshare lists.
if out=$(sacctmgr -i add account gamma,omega Fairshare=0 Description=test Organization=burst 2>&1) &&
    out=$(sacctmgr -i add user root,bin account=gamma 2>&1) &&
    out=$(sacctmgr -i add user root,sys account=omega 2>&1); then
    tap_ok "accounts gamma and omega (Fairshare=0) with users root, bin and root, sys"
else
    tap_fail "sacctmgr adds gamma and omega" "$out"
fi
if out=$(sacctmgr -i add account delta Fairshare=1 Description=test Organization=burst 2>&1) &&
    out=$(sacctmgr -i modify account delta set Fairshare=parent 2>&1) &&
    out=$(sacctmgr -i add user bin,root account=delta 2>&1) &&
    out=$(sacctmgr -i add account epsilon parent=beta Fairshare=parent Description=test Organization=burst 2>&1) &&
    out=$(sacctmgr -i add user nobody account=epsilon 2>&1); then
    tap_ok "accounts delta (modified to Fairshare=parent) with users bin, root and epsilon under beta (Fairshare=parent) with nobody"
else
    tap_fail "sacctmgr adds delta and epsilon at Fairshare=parent" "$out"
fi
wait_for "sshare -a -P -o Account,User | grep -q '^ *omega|sys$'" 20 &&
    wait_for "sshare -a -P -o Account,User | grep -q '^ *epsilon|nobody$'" 20 ||
    tap_fail "slurmctld sees the new associations within 20 s"

# Jobs run at once on the 32-CPU node; usage = CPUs × whole seconds run.
submit_sleep root alpha 16 3
submit_sleep nobody alpha 4 3
submit_sleep root beta 4 3
submit_sleep root gamma 2 2
submit_sleep root omega 6 2
submit_sleep bin delta 2 2
submit_sleep root delta 4 3
submit_sleep nobody epsilon 2 2
tap_is "8 jobs submitted (root and, through runuser, nobody and bin)" "${#SUBMITTED_JOBS[@]}" 8
for j in "${SUBMITTED_JOBS[@]}"; do
    wait_job_done "$j" 60 || tap_fail "job $j done within 60 s" "$(scontrol show job -o "$j" 2>&1)"
done
tap_is "every job COMPLETED" \
    "$(for j in "${SUBMITTED_JOBS[@]}"; do job_field "$j" JobState; done | sort -u | tr '\n' ' ')" "COMPLETED "

# The usage of an ended job is added at once; LevelFS and FairShare only at
# the next decay pass (PriorityCalcPeriod=1 minute), whose ranking
# DebugFlags=Priority logs, root's user first (LF ∞).
log=$CLUSTER_DIR/log/slurmctld.log
passes() { grep -c '_ft_debug:     =\?root (root):' "$log" || true; }
before=$(passes)
tap_like "slurmctld runs Fair Tree passes" "$before" '^[1-9][0-9]*$'
if wait_for "[ \$(passes) -gt $before ]" 75; then
    tap_ok "a Fair Tree pass ran after the jobs ended"
else
    tap_fail "a Fair Tree pass within 75 s of the jobs' end"
fi

shares=$CLUSTER_DIR/sshare.txt
sshare -a -l -P >"$shares"
note_lines() { # TITLE TEXT
    tap_note "$1"
    while IFS= read -r l; do tap_note "  $l"; done <<<"$2"
}
note_lines "sshare -a -l -P:" "$(cat "$shares")"
if ours=$("$model" <"$shares" 2>&1); then
    tap_ok "burst_fairtree read sshare's tree"
else
    tap_fail "burst_fairtree reads sshare's tree" "$ours"
fi
note_lines "model (burst_fairtree):" "$ours"

# One line per association: Slurm's values next to the model's (the python
# prints its own TAP lines, counted here too, so a failure keeps the logs).
printf '%s\n' "$ours" >"$CLUSTER_DIR/model.txt"
status=0
compared=$(python3 - "$shares" "$CLUSTER_DIR/model.txt" <<'PY'

import math, sys

def rows(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split("|")
    out = {}
    for line in lines[1:]:
        f = dict(zip(head, line.split("|")))
        out[(f["Account"].strip(), f["User"])] = f
    return out

slurm, model = rows(sys.argv[1]), rows(sys.argv[2])
ok = True

def same(a, b):
    if a == "" or b == "":
        return a == b
    x, y = float(a), float(b)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= 2e-6 + 1e-6 * abs(x)

for key, s in slurm.items():
    if key == ("root", ""):
        continue
    name = "/".join(k for k in key if k)
    m = model.get(key)
    if m is None:
        print(f"not ok - {name}: the model has the association")
        ok = False
        continue
    cols = ["NormShares", "EffectvUsage", "LevelFS", "FairShare"]
    bad = [c for c in cols if not same(s[c], m[c])]
    got = ", ".join(f"{c} {s[c] or '-'}" for c in cols)
    if bad:
        ok = False
        print(f"not ok - {name}: the model's " + ", ".join(f"{c} {m[c] or '-'}" for c in bad) + f" (Slurm: {got})")
    else:
        print(f"ok - {name}: the model gives Slurm's {got}")
if len(model) != len(slurm) - 1:
    print(f"not ok - the model has Slurm's {len(slurm) - 1} associations (it has {len(model)})")
    ok = False
sys.exit(0 if ok else 1)
PY
) || status=$?
printf '%s\n' "$compared"
TAP_PASSED=$((TAP_PASSED + $(grep -c '^ok ' <<<"$compared" || true)))
TAP_FAILED=$((TAP_FAILED + $(grep -c '^not ok ' <<<"$compared" || true)))
if [ "$status" != 0 ] && ! grep -q '^not ok ' <<<"$compared"; then
    tap_fail "the comparison of Slurm's values with the model's ran (exit status $status)"
fi

# The cases the tree was built for, read from sshare alone.
fs() { awk -F'|' -v a="$1" -v u="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { acct = $c["Account"]; sub(/^ */, "", acct) } acct == a && $c["User"] == u { print $c[f] }' f="$3" "$shares"; }
tap_is "gamma and omega tie at LevelFS 0" "$(fs gamma '' LevelFS) $(fs omega '' LevelFS)" "0.000000 0.000000"
tap_is "users without usage rank first in their account (LevelFS inf)" "$(fs beta daemon LevelFS) $(fs gamma bin LevelFS)" "inf inf"
tap_is "22.05 keeps tied accounts apart: omega's first user ties with gamma's last" \
    "$(fs omega sys FairShare)" "$(fs gamma root FairShare)"
tap_is "an account at Fairshare=parent has no LevelFS and its parent's NormShares" \
    "$(fs delta '' LevelFS)|$(fs delta '' NormShares) $(fs epsilon '' LevelFS)|$(fs epsilon '' NormShares)" \
    "|$(fs root '' NormShares) |$(fs beta '' NormShares)"
# Jobs are charged whole seconds as the passes fall, so the amounts vary.
tap_is "its users' usage is measured against its parent's (delta/bin's and epsilon/nobody's EffectvUsage)" \
    "$(fs delta bin EffectvUsage) $(fs epsilon nobody EffectvUsage)" \
    "$(awk -v u="$(fs delta bin RawUsage)" -v p="$(fs root '' RawUsage)" -v e="$(fs epsilon nobody RawUsage)" \
        -v b="$(fs beta '' RawUsage)" 'BEGIN { printf "%.6f %.6f", u / p, e / b }')"
tap_finish
