#!/bin/bash
# Proves that a clone of slurm-burst sets itself up on a Debian 12 machine that
# has nothing: makes a minimal Debian 12 root (debootstrap --variant=minbase,
# from this machine's own Debian mirror), clones this repository's HEAD into
# its /root/slurm-burst, and runs there, as root in a chroot, the README's two
# set-up commands:
#
#   scripts/demo.sh        (its last line: "... done" when the burst worked)
#   scripts/run-tests.sh   (its last line: "N passed, N failed")
#
# then reports both results and their times, checks that no process of the
# run outlives it (every process whose root or working directory is in the
# new root: slurmctld, slurmd, slurmdbd, munged, mariadbd, burstd, the test
# servers...; any found is listed, then killed, and fails the run), unmounts
# everything and removes the root.
#
# Network: only the first step has the network: scripts/install-deps.sh
# (Debian packages, the Slurm source, npm ci) and the OpenStack test's
# packages (tests/openstack/lib/openstack.sh's openstack_install, about
# 730 MB).  The README's commands then run in a network namespace of their
# own with only a loopback interface, so their clusters' ports never clash
# with test clusters on this machine (whose port claims, under this machine's
# /tmp, the chroot cannot see), and so the run shows that both commands,
# whose first step is install-deps.sh again, need no network once installed.
#
# Packages' maintainer scripts start no daemons in the chroot (an
# /usr/sbin/policy-rc.d that answers 101, as in any chroot or container
# build: there is no init system to own them); the tests start private ones.
#
# Usage (as root, from a clone; it tests the commit checked out, not
# uncommitted changes):
#   tests/fresh-machine.sh [--keep] [--dir DIR] [--mirror URL] [--no-netns]
#                          [--skip-demo] [--skip-tests]
#     --keep        keep the root (unmounted) for debugging; its logs are in
#                   DIR/root/tmp (slurm-burst-tests/, slurm-burst-demo-*.log)
#     --dir DIR     work directory (default: a new /var/tmp/slurm-burst-fresh.XXXXXX);
#                   the root is DIR/root, the logs DIR/logs
#     --mirror URL  Debian mirror for debootstrap (default: the first one of
#                   this machine's apt sources that serves bookworm)
#     --no-netns    run the README's commands with this machine's network
# Exit status 0 only if the demo succeeded, run-tests reported 0 failed and
# no process outlived the run.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
keep=0 dir="" mirror="" netns=1 run_demo=1 run_tests=1
while (($#)); do
    case "$1" in
    --keep) keep=1 ;;
    --dir) dir=${2:?--dir needs a directory}; shift ;;
    --mirror) mirror=${2:?--mirror needs a URL}; shift ;;
    --no-netns) netns=0 ;;
    --skip-demo) run_demo=0 ;;
    --skip-tests) run_tests=0 ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh-machine: unknown option '$1' (--help)" >&2; exit 2 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "fresh-machine: run as root (debootstrap, chroot, mount)" >&2; exit 2; }

t_start=$SECONDS
say() { printf '%s  %5d s  %s\n' "$(date +%T)" $((SECONDS - t_start)) "$*"; }
die() { say "fresh-machine: $*" >&2; exit 1; }

# The Debian mirror, as install-deps.sh finds its deb-src: from this machine's
# apt sources, never a hard-coded host.
debian_mirror() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk 'BEGIN { RS = "" }
            /(^|\n)Types:[^\n]*(^|[ \t])deb([ \t]|\n|$)/ && /(^|\n)Suites:[^\n]*[ \t]bookworm([ \t]|\n|$)/ {
                if (match($0, /(^|\n)URIs:[^\n]*/)) {
                    line = substr($0, RSTART, RLENGTH); sub(/^\n?URIs:[ \t]*/, "", line)
                    split(line, u, /[ \t]+/); print u[1]; exit
                } }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                           if ($(i + 1) == "bookworm") { print $i; exit } }' "$f"
    done
}

if [ -z "$mirror" ]; then
    mirror=$(debian_mirror | head -n 1)
    [ -n "$mirror" ] || die "no apt source of this machine serves bookworm: pass --mirror URL"
fi
if ! command -v debootstrap >/dev/null; then
    say "installing debootstrap (apt-get)"
    apt-get install -y -q --no-install-recommends debootstrap >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends debootstrap >/dev/null; } ||
        die "cannot install debootstrap"
fi
command -v unshare >/dev/null && command -v ip >/dev/null || netns=0

if [ -n "$dir" ]; then
    mkdir -p "$dir" || die "cannot create $dir"
    dir=$(cd "$dir" && pwd)
    [ ! -e "$dir/root" ] || die "$dir/root exists already"
else
    dir=$(mktemp -d /var/tmp/slurm-burst-fresh.XXXXXX) || die "cannot create a work directory in /var/tmp"
fi
root=$dir/root logs=$dir/logs
mkdir -p "$root" "$logs"
chmod 0755 "$dir" "$root"

# Every mount point under the root, deepest first.
mounts_under_root() {
    awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}
unmount_all() {
    local m _
    for _ in 1 2 3; do
        for m in $(mounts_under_root); do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
        [ -z "$(mounts_under_root)" ] && return 0
        sleep 1
    done
    return 1
}
# processes_in_root: "pid command line" of every process whose root or
# working directory is in the new root.
processes_in_root() {
    local d pid r c
    for d in /proc/[0-9]*; do
        pid=${d#/proc/}
        [ "$pid" = $$ ] && continue
        r=$(readlink "$d/root" 2>/dev/null) || continue
        c=$(readlink "$d/cwd" 2>/dev/null) || c=""
        if [ "$r" = "$root" ] || [[ $r == "$root"/* ]] || [ "$c" = "$root" ] || [[ $c == "$root"/* ]]; then
            echo "$pid $(tr '\0' ' ' <"$d/cmdline" 2>/dev/null | cut -c1-160)"
        fi
    done
}
kill_in_root() {
    local pids i sig
    for i in $(seq 40); do
        pids=$(processes_in_root | awk '{ print $1 }')
        [ -n "$pids" ] || return 0
        sig=-TERM
        ((i < 20)) || sig=-KILL
        # shellcheck disable=SC2086
        kill "$sig" $pids 2>/dev/null
        sleep 0.5
    done
    [ -z "$(processes_in_root)" ]
}
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    kill_in_root || say "processes still in the root: $(processes_in_root | tr '\n' ';')"
    if ! unmount_all; then
        say "still mounted under $root: $(mounts_under_root | tr '\n' ' '); the root is left in $dir"
        exit 1
    fi
    if ((keep)); then
        say "kept $root (logs in $logs)"
    else
        rm -rf --one-file-system "$root"
        say "removed the root; logs in $logs"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 1. A minimal Debian 12.
say "debootstrap --variant=minbase bookworm $root $mirror"
t0=$SECONDS
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$logs/debootstrap.log" 2>&1 ||
    { tail -n 20 "$logs/debootstrap.log"; die "debootstrap failed (log: $logs/debootstrap.log)"; }
t_debootstrap=$((SECONDS - t0))
# minbase has no /etc/hosts (MariaDB's install needs one); the host's name is
# the kernel's, shared with the chroot.
printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s %s\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    "$(hostname -f 2>/dev/null || hostname)" "$(hostname -s)" >"$root/etc/hosts"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# This machine's apt sources (not install-deps.sh's deb-src, which it adds itself).
rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    case "${f##*/}" in slurm-burst-src*) continue ;; esac
    mkdir -p "$root$(dirname "$f")"
    cp "$f" "$root$f"
    # and the keyrings they name, where the new root lacks them
    for k in $(sed -nE 's/.*[Ss]igned-[Bb]y[:=][[:space:]]*([^] ,]+).*/\1/p' "$f"); do
        [ -f "$k" ] && [ ! -e "$root$k" ] && mkdir -p "$root$(dirname "$k")" && cp "$k" "$root$k"
    done
done
# This machine's locally added trust anchors (a network whose HTTPS goes
# through an inspecting proxy has its CA there): the new root reaches the npm
# registry through the same network.  ca-certificates, installed by
# install-deps.sh, adds them to the system store.
if [ -d /usr/local/share/ca-certificates ]; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
printf '#!/bin/sh\n# fresh-machine.sh: no init system here; packages start no daemons\nexit 101\n' \
    >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"

# 2. The clone, in root's home.
commit=$(git -C "$top" rev-parse HEAD) || die "$top is not a git checkout"
say "cloning ${commit:0:7} into $root/root/slurm-burst"
git clone -q --no-hardlinks "$top" "$root/root/slurm-burst" &&
    git -C "$root/root/slurm-burst" checkout -q "$commit" ||
    die "git clone of $top failed"

# 3. /proc, /sys, /dev, /run.
mount -t proc proc "$root/proc" &&
    mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" &&
    mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" &&
    mount -t tmpfs -o mode=0755 tmpfs "$root/run" ||
    die "mounting /proc, /sys, /dev or /run in $root failed"

# in_root [--netns] COMMAND: runs COMMAND (bash) in the chroot as root, in
# /root/slurm-burst, with a login's environment and nothing of ours.
in_root() {
    local ns=0
    [ "$1" = --netns ] && { ns=1; shift; }
    local -a cmd=(chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb
        /bin/bash -c "cd /root/slurm-burst && $1")
    if ((ns)); then
        # lo, and on it the host name's 127.0.1.1 (etc/hosts above): with no
        # IPv4 address but 127.0.0.1, glibc's getaddrinfo(AI_ADDRCONFIG)
        # finds no IPv4 and the Slurm daemons cannot resolve their listening
        # address, which a machine with any network never sees.
        unshare --net -- /bin/bash -c 'ip link set lo up && ip addr add 127.0.1.1/8 dev lo && exec "$@"' netns "${cmd[@]}"
    else
        "${cmd[@]}"
    fi
}

# 4. With the network: what the README's commands install on first use.
say "installing the dependencies with the network (scripts/install-deps.sh, then the OpenStack test's packages)"
t0=$SECONDS
in_root 'scripts/install-deps.sh && source tests/openstack/lib/openstack.sh && openstack_install' \
    >"$logs/install.log" 2>&1 || { tail -n 30 "$logs/install.log"; die "installing the dependencies failed (log: $logs/install.log)"; }
t_install=$((SECONDS - t0))
say "installed in $t_install s: $(tail -n 2 "$logs/install.log" | tr '\n' ' ')"
if ((netns)); then
    ns_flag=--netns
    say "the README's commands run in a network namespace with only loopback"
else
    ns_flag=""
fi

# 5. The README's two commands.
demo_rc=skipped demo_result="" t_demo=0 tests_rc=skipped tests_result="" t_tests=0
if ((run_demo)); then
    say "scripts/demo.sh"
    t0=$SECONDS
    in_root $ns_flag 'scripts/demo.sh' >"$logs/demo.log" 2>&1
    demo_rc=$?
    t_demo=$((SECONDS - t0))
    demo_result=$(tail -n 1 "$logs/demo.log")
    say "demo: exit $demo_rc in $t_demo s; last line: $demo_result"
fi
if ((run_tests)); then
    say "scripts/run-tests.sh"
    t0=$SECONDS
    in_root $ns_flag 'scripts/run-tests.sh' >"$logs/run-tests.log" 2>&1
    tests_rc=$?
    t_tests=$((SECONDS - t0))
    tests_result=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logs/run-tests.log" | tail -n 1)
    say "run-tests: exit $tests_rc in $t_tests s: ${tests_result:-no result line}"
    grep -E '^(   [a-z_/.-]+: .*(passed|failed|FAILED|crashed)|not ok )' "$logs/run-tests.log" | sed 's/^/    /'
fi
cp -r "$root/tmp/slurm-burst-tests" "$logs/" 2>/dev/null
cp "$root"/tmp/slurm-burst-demo-*.log "$logs/" 2>/dev/null

# 6. Nothing of the run may outlive it.
sleep 2
left=$(processes_in_root)
if [ -n "$left" ]; then
    say "FAIL: processes outlived the run (pid, command line):"
    sed 's/^/    /' <<<"$left"
    # what they are, for the record
    ps -o pid,ppid,lstart,stat,args -p "$(awk '{ print $1 }' <<<"$left" | paste -sd,)" >"$logs/leftovers.txt" 2>&1
fi

echo
echo "== fresh machine ($mirror, commit ${commit:0:7})"
printf '   %-22s %6d s\n' debootstrap "$t_debootstrap" install-deps+openstack "$t_install"
((run_demo)) && printf '   %-22s %6d s  exit %s: %s\n' scripts/demo.sh "$t_demo" "$demo_rc" "$demo_result"
((run_tests)) && printf '   %-22s %6d s  exit %s: %s\n' scripts/run-tests.sh "$t_tests" "$tests_rc" "${tests_result:-no result line}"
printf '   %-22s %s\n' leftover-processes "$( [ -n "$left" ] && echo "$(wc -l <<<"$left") (see above)" || echo none)"
printf '   %-22s %6d s\n' total $((SECONDS - t_start))
ok=1
[ "$demo_rc" = 0 ] || [ "$demo_rc" = skipped ] || ok=0
[ "$tests_rc" = 0 ] || [ "$tests_rc" = skipped ] || ok=0
[ -z "$left" ] || ok=0
((ok))
