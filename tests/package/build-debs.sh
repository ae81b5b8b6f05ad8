#!/bin/bash
# Builds the Debian packages from a copy of SRCDIR's tracked and untracked
# (not ignored) files with dpkg-buildpackage -us -uc -b, into OUTDIR:
# the .debs and .changes, build.log, `seconds` (the build's time) and
# `status` (dpkg-buildpackage's exit status, also this script's).  test_package_install.sh runs it, or
# takes its OUTDIR when scripts/run-tests.sh built the packages in the
# background while the integration tests ran.
#   build-debs.sh SRCDIR OUTDIR
set -uo pipefail
[ $# = 2 ] || { echo "usage: $0 SRCDIR OUTDIR" >&2; exit 2; }
top=$(cd "$1" && pwd) || exit 2
out=$2
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -SVersion) || exit 1
src=$out/slurm-burst-$version
rm -rf "$src" && mkdir -p "$src" || exit 1
# A copy, so the package build's clean never touches the caller's tree.
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$top" && git ls-files -co --exclude-standard | tar -cf - -T -) | tar -xf - -C "$src"
else
    cp -a "$top/." "$src" && { [ ! -f "$src/Makefile" ] || make -C "$src" distclean >/dev/null 2>&1; }
fi
t0=$SECONDS
# The unit tests are left to `make check` (scripts/run-tests.sh runs it on
# the same sources); here the build is what counts.
(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1
rc=$?
echo $((SECONDS - t0)) >"$out/seconds"
echo $rc >"$out/status"
rm -rf "$src"
exit $rc
