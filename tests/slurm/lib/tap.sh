# TAP-style result lines for the integration tests (sourced by cluster.sh).
#
#   tap_ok WHAT                  prints "ok - WHAT"
#   tap_fail WHAT [DETAIL...]    prints "not ok - WHAT" and each DETAIL as a "#" line
#   tap_check WHAT CMD [ARG...]  runs CMD; ok when it succeeds, not ok (with its output) otherwise
#   tap_is WHAT GOT WANT         ok when GOT equals WANT, else not ok showing both
#   tap_like WHAT GOT REGEX      ok when GOT matches the extended REGEX
#   tap_note TEXT...             prints "# TEXT" (timings, diagnostics)
#   tap_finish                   prints "# N passed, N failed"; returns 1 if anything failed
#
# TAP_FAILED counts failures; cluster_stop keeps the cluster's logs when it is
# non-zero, so a failing test always leaves something to read.

TAP_PASSED=0
TAP_FAILED=0

tap_ok() {
    TAP_PASSED=$((TAP_PASSED + 1))
    echo "ok - $1"
}

tap_fail() {
    TAP_FAILED=$((TAP_FAILED + 1))
    echo "not ok - $1"
    shift
    local line
    for line in "$@"; do
        while IFS= read -r l; do echo "#   $l"; done <<<"$line"
    done
}

tap_check() {
    local what=$1 out
    shift
    if out=$("$@" 2>&1); then
        tap_ok "$what"
    else
        tap_fail "$what" "command: $*" "$out"
    fi
}

tap_is() {
    if [ "$2" = "$3" ]; then
        tap_ok "$1"
    else
        tap_fail "$1" "got:  '$2'" "want: '$3'"
    fi
}

tap_like() {
    if [[ "$2" =~ $3 ]]; then
        tap_ok "$1"
    else
        tap_fail "$1" "got:  '$2'" "want: match of /$3/"
    fi
}

tap_note() {
    echo "# $*"
}

tap_finish() {
    echo "# $TAP_PASSED passed, $TAP_FAILED failed"
    [ "$TAP_FAILED" = 0 ]
}
