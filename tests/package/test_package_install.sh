#!/bin/bash
# The Debian packages, built from these sources with dpkg-buildpackage,
# installed on this machine with apt, and run: tests/slurm/test_burstd_burst.sh
# bursts a real cluster with the INSTALLED /usr/sbin/burstd, /usr/sbin/burstctl,
# the job_submit plugin in Slurm's own plugin directory (the cluster's only
# PluginDir) and the example PrologSlurmctld, not the build tree's.  Checks
# that the plugins package depends on exactly the installed Slurm, that the
# unit is installed but not enabled and passes systemd-analyze verify, and
# lintian (when installed).  Purges both packages at the end, leaving the
# machine as it found it; refuses to run if either is installed already.
# Run as root: tests/package/test_package_install.sh [SRCDIR [PREBUILT]]
# PREBUILT is a build-debs.sh OUTDIR of the same sources (scripts/run-tests.sh
# builds the packages while the integration tests run); without it the
# packages are built here.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=${1:-$(cd "$here/../.." && pwd)}
prebuilt=${2:-}
top=$(cd "$top" && pwd)
# shellcheck source=../slurm/lib/tap.sh
source "$top/tests/slurm/lib/tap.sh"
packages=(slurm-burst slurm-burst-plugins)

# They install into /usr and Slurm's plugin directory: one such test at a time.
exec 9>/tmp/slurm-burst-package-test.lock
flock -w 3600 9 || { tap_fail "no other package test runs (/tmp/slurm-burst-package-test.lock)"; exit 1; }
for p in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$'; then
        tap_fail "$p is not installed before the test" "it is: this test would replace it and then purge it"
        exit 1
    fi
done

build=$(mktemp -d /tmp/slurm-burst-deb.XXXXXX)
installed=0
cleanup() {
    local rc=$?
    if [ "$installed" = 1 ]; then
        dpkg --purge "${packages[@]}" >"$build/purge.log" 2>&1
    fi
    if [ "$TAP_FAILED" = 0 ] && [ "$rc" = 0 ]; then
        rm -rf "$build"
    else
        echo "# package test files kept in $build${prebuilt:+, the packages in $prebuilt}"
    fi
}
trap cleanup EXIT

## Build #####################################################################
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -SVersion)
if [ -z "$prebuilt" ]; then
    "$here/build-debs.sh" "$top" "$build"
    prebuilt=$build
fi
if [ "$(cat "$prebuilt/status" 2>/dev/null)" = 0 ]; then
    tap_ok "dpkg-buildpackage -us -uc -b built the packages in $(cat "$prebuilt/seconds") s"
else
    tap_fail "dpkg-buildpackage -us -uc -b" "$(tail -n 30 "$prebuilt/build.log" 2>/dev/null || echo "no build in $prebuilt")"
    exit 1
fi
arch=$(dpkg --print-architecture)
deb=$prebuilt/slurm-burst_${version}_$arch.deb
plugins_deb=$prebuilt/slurm-burst-plugins_${version}_$arch.deb
slurm_version=$(dpkg-query -W -f='${Version}' slurm-wlm-basic-plugins)
tap_like "slurm-burst-plugins depends on exactly the Slurm it was built for" \
    "$(dpkg-deb -f "$plugins_deb" Depends)" "(^|, )slurm-wlm-basic-plugins \(= ${slurm_version//+/\\+}\)(,|$)"
if command -v lintian >/dev/null; then
    # Errors and warnings fail; the rest is shown (debian/*.lintian-overrides explain what is overridden).
    out=$(lintian --fail-on error,warning --info --pedantic "$prebuilt"/slurm-burst_*.changes 2>&1)
    rc=$?
    out=$(grep -v 'running with root privileges is not recommended' <<<"$out")
    if [ "$rc" = 0 ]; then
        tap_ok "lintian: no errors or warnings"
    else
        tap_fail "lintian: no errors or warnings" "$out"
    fi
    [ -z "$out" ] || tap_note "lintian: $(tr '\n' ';' <<<"$out")"
fi

## Install ###################################################################
if DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" "$plugins_deb" \
    >"$build/install.log" 2>&1; then
    installed=1
    tap_ok "apt-get installed both packages"
else
    installed=1 # whatever got unpacked is purged
    tap_fail "apt-get installed both packages" "$(tail -n 20 "$build/install.log")"
    exit 1
fi
plugin_dir=$(dirname "$(dpkg -L slurm-burst-plugins | grep '/job_submit_burst\.so$')")
tap_is "the plugins went to Slurm's plugin directory" "$plugin_dir" /usr/lib/x86_64-linux-gnu/slurm-wlm
tap_check "and spank_burst.so beside job_submit_burst.so" test -f "$plugin_dir/spank_burst.so"
tap_like "burstd --version" "$(/usr/sbin/burstd --version)" "^burstd $version$"
tap_check "burstsim is installed" test -x /usr/bin/burstsim
examples=/usr/share/doc/slurm-burst/examples
for f in burstd.conf.example burstd.service burstd-local-provider.conf slurm.conf.burst; do
    tap_check "example $f is there, uncompressed" test -f "$examples/$f"
done
tap_check "example prolog_slurmctld_wait_nodes is executable" test -x "$examples/prolog_slurmctld_wait_nodes"
tap_check "man pages: burstd(8), burstd.conf(5), burstctl(1), burstsim(1), spank_burst(8)" \
    man -w burstd.8 burstd.conf.5 burstctl.1 burstsim.1 spank_burst.8
tap_check "the unit is installed" test -f /lib/systemd/system/burstd.service
tap_is "and not enabled" "$(find /etc/systemd/system -name burstd.service | wc -l)" 0
if command -v systemd-analyze >/dev/null; then
    tap_check "systemd-analyze verify accepts the installed unit" systemd-analyze verify /lib/systemd/system/burstd.service
fi

## Burst from the installed files ############################################
BURSTD_BIN=/usr/sbin/burstd BURSTCTL_BIN=/usr/sbin/burstctl BURSTD_PLUGIN_DIR=$plugin_dir \
    CLUSTER_PROLOG_PROGRAM=$examples/prolog_slurmctld_wait_nodes \
    "$top/tests/slurm/run-all.sh" "$top" "$top/tests/slurm/test_burstd_burst.sh" | tee "$build/burst.log"
bad=$(grep -c '^not ok ' "$build/burst.log") good=$(grep -c '^ok ' "$build/burst.log")
if [ "$bad" = 0 ] && [ "$good" -gt 0 ]; then
    tap_ok "the end-to-end burst from the installed files passed ($good checks)"
else
    tap_fail "the end-to-end burst from the installed files passed" "$good ok, $bad not ok"
fi

## Purge #####################################################################
if dpkg --purge "${packages[@]}" >"$build/purge.log" 2>&1; then
    installed=0
    tap_ok "dpkg --purge removed both packages"
else
    tap_fail "dpkg --purge removed both packages" "$(tail -n 20 "$build/purge.log")"
fi
left=$(ls -d /usr/sbin/burstd /usr/sbin/burstctl /usr/bin/burstsim "$plugin_dir"/*_burst.so \
    /lib/systemd/system/burstd.service /usr/share/doc/slurm-burst 2>/dev/null)
tap_is "no file of theirs is left" "$left" ""
tap_finish
