#!/bin/sh
# Every undefined symbol of the built plugins must be provided by the program
# that loads them or a library it has: slurmctld loads plugins lazily, so an
# unresolved function is not noticed at load time but kills it on first call.
# Run from the build directory (make check does, with the slurmctld configure
# found: SLURMCTLD).  The libslurmfull checked against is the one that
# slurmctld loads, wherever its Slurm keeps it (Debian: LIBDIR/slurm-wlm,
# a source build: PREFIX/lib/slurm); SLURMFULL overrides it.
set -u
slurmctld=${SLURMCTLD:-/usr/sbin/slurmctld}
[ -x "$slurmctld" ] || { echo "not ok - no slurmctld at $slurmctld" >&2; exit 1; }
slurmfull=${SLURMFULL:-$(ldd "$slurmctld" | awk '$1 == "libslurmfull.so" && $2 == "=>" {print $3; exit}')}
[ -n "$slurmfull" ] || { echo "not ok - $slurmctld does not load libslurmfull.so (ldd); set SLURMFULL" >&2; exit 1; }
status=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

exports() {
	for lib in "$@"; do
		[ -e "$lib" ] || { echo "missing $lib" >&2; exit 1; }
		nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//'
	done
}

libc_family() {
	for name in ld-linux-x86-64.so.2 libc.so.6 libpthread.so.0 libm.so.6 libdl.so.2 libjansson.so.4; do
		path=$(ldconfig -p | awk -v n="$name" '$1 == n && /x86-64/ {print $NF; exit}')
		[ -n "$path" ] || { echo "cannot find $name" >&2; exit 1; }
		echo "$path"
	done
}

check() { # plugin, then the files whose exports may resolve its symbols
	so=$1; shift
	if [ ! -e "$so" ]; then
		echo "not ok - $so was not built"
		status=1
		return
	fi
	exports "$@" | sort -u >"$tmp/provided"
	nm -D --undefined-only "$so" | awk '$1 == "U" {print $2}' | sed 's/@.*//' | sort -u >"$tmp/needed"
	missing=$(comm -23 "$tmp/needed" "$tmp/provided")
	if [ -n "$missing" ]; then
		for sym in $missing; do
			echo "not ok - $so: undefined symbol $sym is exported by none of: $*"
		done
		status=1
	else
		echo "ok - $so: all $(wc -l <"$tmp/needed") undefined symbols resolve"
	fi
}

libs=$(libc_family) || exit 1
# shellcheck disable=SC2086
check plugin/.libs/job_submit_burst.so "$slurmctld" "$slurmfull" $libs
# spank plugins are loaded by sbatch/srun/salloc and slurmstepd, which all
# carry libslurmfull.
# shellcheck disable=SC2086
check plugin/.libs/spank_burst.so "$slurmfull" $libs
exit $status
