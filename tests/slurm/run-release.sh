#!/bin/bash
# Runs integration tests on a real cluster of another Slurm release than
# Debian's: builds that release into its own prefix (scripts/build-slurm.sh),
# builds slurm-burst against it in a copy of the source tree, and runs the
# named tests/slurm tests with BURST_SLURM_PREFIX set (lib/cluster.sh).
#
#   run-release.sh [--build-only] SRCDIR SERIES [test...]
#
# --build-only stops once both are built (scripts/run-tests.sh builds them in
# the background while the Debian-Slurm integration tests run; the later run
# finds the build up to date).
# SRCDIR is the slurm-burst tree (tracked and untracked, not ignored, files are
# copied; its own build is left alone); the copy is built in
# ${BURST_RELEASE_BUILDDIR:-/tmp/slurm-burst-SERIES} and reused by later runs.
# BURST_NATIVE_BUILDDIR (default SRCDIR) is the build for Debian's Slurm.
# The plugins' undefined symbols are checked against that slurmctld
# (plugin/check-symbols.sh).  Default tests: the plugin's export, the
# end-to-end burst, the crash and the budget tests, burstd's thread choice,
# the actuator and the warm pool (24.11 preempts placeholders itself); then, with no tests named, the wrong-release refusal both ways
# (release_refuses_foreign_plugin.sh: this build's plugin in Debian's
# slurmctld, the native build's in this release's).  Prints TAP lines like
# run-all.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build_only=0
[ "${1:-}" = --build-only ] && { build_only=1; shift; }
[ $# -ge 2 ] || { echo "usage: $0 [--build-only] SRCDIR SERIES [test...]" >&2; exit 2; }
src=$(cd "$1" && pwd) series=$2
shift 2
tests=("$@") both_ways=0
if ((${#tests[@]} == 0)); then
    tests=("$here"/test_plugin_export.sh "$here"/test_burstd_burst.sh "$here"/test_burstd_crash.sh
        "$here"/test_burstd_budget.sh "$here"/test_thread_choice.sh "$here"/test_actuator.sh
        "$here"/test_warm_pool.sh)
    both_ways=1
fi
build=${BURST_RELEASE_BUILDDIR:-/tmp/slurm-burst-$series}
jobs=$(nproc)

step() { # NAME command...: one TAP line; the output only on failure
    local name=$1 t0=$SECONDS out
    shift
    if out=$("$@" 2>&1); then
        echo "ok - $name ($((SECONDS - t0)) s)"
    else
        echo "not ok - $name ($((SECONDS - t0)) s)"
        tail -n 40 <<<"$out" | sed 's/^/#   /'
        return 1
    fi
}


copy_tree() {
    mkdir -p "$build" &&
        (cd "$src" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r ls -d 2>/dev/null |
            tar --no-recursion -cf - -T -) | tar -xpf - -C "$build"
}

build_burst() {
    cd "$build" || return 1
    # a tree copied for the first time, or one whose configure is older than configure.ac
    if [ ! -f Makefile ] || [ configure.ac -nt configure ]; then
        autoreconf -fi && ./configure --enable-werror --with-slurm="$prefix" || return 1
    fi
    make -j"$jobs" plugin/job_submit_burst.la plugin/spank_burst.la burstd/burstd burstd/tools/burstctl/burstctl \
        tests/slurm/burst_actuate
}

# step runs its command in a subshell: the prefix comes from build-slurm.sh's log
slurm_log=$(mktemp)
step "Slurm $series built (scripts/build-slurm.sh)" bash -c '"$1" "$2" | tee "$3"' - "$src/scripts/build-slurm.sh" "$series" "$slurm_log" || exit 1
prefix=$(sed -n 's/^slurm-prefix: //p' "$slurm_log")
rm -f "$slurm_log"
[ -n "$prefix" ] || { echo "not ok - build-slurm.sh named the prefix it installed"; exit 1; }
step "slurm-burst copied to $build" copy_tree || exit 1
step "slurm-burst built against Slurm $series in $build" build_burst || exit 1
echo "# Slurm $series in $prefix"
((build_only)) && exit 0
(cd "$build" && SLURMCTLD=$prefix/sbin/slurmctld sh plugin/check-symbols.sh)
native=${BURST_NATIVE_BUILDDIR:-$src}
BURST_SLURM_PREFIX=$prefix "$here/run-all.sh" "$build" "${tests[@]}"
((both_ways)) || exit 0
BURST_SLURM_PREFIX=$prefix BURST_FOREIGN_PLUGIN_DIR=$native/plugin/.libs \
    "$here/run-all.sh" "$build" "$here/release_refuses_foreign_plugin.sh"
BURST_SLURM_PREFIX="" BURST_FOREIGN_PLUGIN_DIR=$build/plugin/.libs \
    "$here/run-all.sh" "$native" "$here/release_refuses_foreign_plugin.sh"
