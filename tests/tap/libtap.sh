# tests/tap/libtap.sh - TAP helpers for shell test scripts.
#
# Source this file, call plan N (or plan_lazy), then ok/is/expect_out/
# expect_err per test point, and end with tap_done.  SMMA_VALGRIND, when set, prefixes every
# program run through run_prog so that check-valgrind covers the CLI too.

tap_count=0
tap_failed=0
tap_planned=
tap_lazy=

plan() { tap_planned=$1; echo "1..$1"; }
plan_lazy() { tap_lazy=1; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
diag() { printf '%s\n' "$*" | sed 's/^/# /'; }

ok() {
    # ok CONDITION-STATUS DESCRIPTION
    tap_count=$((tap_count + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $tap_count - $2"
    else
        echo "not ok $tap_count - $2"
        tap_failed=$((tap_failed + 1))
    fi
}

is() {
    # is WANTED SEEN DESCRIPTION
    if [ "$1" = "$2" ]; then
        ok 0 "$3"
    else
        ok 1 "$3"
        diag "wanted: $1"
        diag "  seen: $2"
    fi
}

# Sampled memcheck (make check-valgrind).  With SMMA_VALGRIND set and
# TEST_SAMPLE=K or K:SEED (tests/tap/basic.h), tap_vg_pick PROG ARGS...
# sets $tap_vg to $SMMA_VALGRIND for the first run of each class -- the
# program, its first argument (softmma's command) and whether the run is
# expected to fail -- and for a seeded one in K of the other runs, and to
# nothing for the rest, which run without valgrind (every check of the test
# still runs).  Without TEST_SAMPLE, or with K = 1, $tap_vg is always
# $SMMA_VALGRIND.  tap_done prints the counts beside the plan.
tap_vg_all=0
tap_vg_run=0
tap_vg_classes=0
tap_vg_seen='|'
tap_vg_kind=ok
tap_vg_k=1
tap_vg_seed=1
case ${TEST_SAMPLE:-} in
    '') ;;
    *:*) tap_vg_k=${TEST_SAMPLE%%:*}; tap_vg_seed=${TEST_SAMPLE#*:} ;;
    *) tap_vg_k=$TEST_SAMPLE ;;
esac
case $tap_vg_k:$tap_vg_seed in
    *[!0-9:]* | :* | *:)
        echo "Bail out! TEST_SAMPLE must be K or K:SEED (decimal numbers), not '$TEST_SAMPLE'"
        exit 255 ;;
esac
if [ "$tap_vg_k" -lt 1 ] || [ "$tap_vg_k" -gt 1000 ]; then
    echo "Bail out! TEST_SAMPLE's K must be 1 to 1000, not '$tap_vg_k'"
    exit 255
fi

tap_vg_pick() {
    tap_vg=$SMMA_VALGRIND
    [ -n "$SMMA_VALGRIND" ] || return 0
    tap_vg_all=$((tap_vg_all + 1))
    if [ "$tap_vg_k" -gt 1 ]; then
        tap_vg_cls="${1##*/} ${2:-} $tap_vg_kind"
        case $tap_vg_seen in
            *"|$tap_vg_cls|"*)
                # The key: the seed, the run's number and its class (not its
                # arguments, which may name temporary files).
                tap_vg_h=$(printf '%s %s %s' "$tap_vg_seed" "$tap_vg_all" "$tap_vg_cls" |
                    cksum | cut -d' ' -f1)
                [ $((tap_vg_h % tap_vg_k)) -eq 0 ] || tap_vg= ;;
            *)
                tap_vg_seen="$tap_vg_seen$tap_vg_cls|"
                tap_vg_classes=$((tap_vg_classes + 1)) ;;
        esac
    fi
    [ -z "$tap_vg" ] || tap_vg_run=$((tap_vg_run + 1))
}

# run_prog PROG ARGS...: runs a program, setting $tap_out, $tap_err and
# $tap_rc.  Under SMMA_VALGRIND the program runs under valgrind (or not:
# tap_vg_pick), and a valgrind error (exit 99) fails the test through
# tap_rc.
run_prog() {
    tap_tmp_out=${TMPDIR:-/tmp}/smma-tap-out.$$
    tap_tmp_err=${TMPDIR:-/tmp}/smma-tap-err.$$
    tap_vg_pick "$@"
    # shellcheck disable=SC2086
    $tap_vg "$@" >"$tap_tmp_out" 2>"$tap_tmp_err" </dev/null
    tap_rc=$?
    tap_out=$(cat "$tap_tmp_out")
    tap_err=$(cat "$tap_tmp_err")
    rm -f "$tap_tmp_out" "$tap_tmp_err"
    if [ "$tap_rc" -eq 99 ] && [ -n "$tap_vg" ]; then
        diag "valgrind reported errors running: $*"
        diag "$tap_err"
    fi
}

# The CLI checks below run the program named by $prog.
nl='
'

# expect_out DESC EXPECTED ARGS...: softmma ARGS exits 0, prints exactly
# EXPECTED on stdout (trailing newlines aside) and nothing on stderr.
expect_out() {
    eo_desc=$1
    eo_want=$2
    shift 2
    run_prog "$prog" "$@"
    if [ "$tap_rc" -eq 0 ] && [ "$tap_out" = "$eo_want" ] && [ -z "$tap_err" ]; then
        ok 0 "$eo_desc"
    else
        ok 1 "$eo_desc"
        diag "command: softmma $*"
        diag "wanted: exit 0, stdout:$nl$eo_want"
        diag "  seen: exit $tap_rc, stdout:$nl$tap_out"
        [ -z "$tap_err" ] || diag "stderr: $tap_err"
    fi
}

# expect_err DESC NEEDLE ARGS...: softmma ARGS exits 2, prints nothing on
# stdout, and exactly one line on stderr that contains NEEDLE.
expect_err() {
    ee_desc=$1
    ee_needle=$2
    shift 2
    tap_vg_kind=err
    run_prog "$prog" "$@"
    tap_vg_kind=ok
    ee_lines=$(printf '%s\n' "$tap_err" | wc -l | tr -d ' ')
    ee_ok=1
    if [ "$tap_rc" -eq 2 ] && [ -z "$tap_out" ] && [ -n "$tap_err" ] && [ "$ee_lines" -eq 1 ]
    then
        case $tap_err in
            *"$ee_needle"*) ee_ok=0 ;;
        esac
    fi
    ok "$ee_ok" "$ee_desc"
    if [ $ee_ok -ne 0 ]; then
        diag "command: softmma $*"
        diag "wanted: exit 2, empty stdout, one stderr line containing '$ee_needle'"
        diag "  seen: exit $tap_rc, stdout:$nl$tap_out"
        diag "stderr:$nl$tap_err"
    fi
}

# expect_exclusive DESC OPTIONS ARGS...: one point: softmma ARGS with any
# two of OPTIONS (a blank-separated list, an option joined to its value by
# '=': "--svg=FILE") is refused as expect_err refuses, the message naming
# the two in the list's order: "--svg and --html exclude each other".
expect_exclusive() {
    ex_desc=$1
    ex_opts=$2
    shift 2
    ex_bad=0
    ex_i=0
    for ex_a in $ex_opts; do
        ex_i=$((ex_i + 1))
        ex_j=0
        for ex_b in $ex_opts; do
            ex_j=$((ex_j + 1))
            [ "$ex_j" -gt "$ex_i" ] || continue
            ex_want="${ex_a%%=*} and ${ex_b%%=*} exclude each other"
            tap_vg_kind=err
            # shellcheck disable=SC2046  # an option and its value, split on purpose
            run_prog "$prog" "$@" $(printf '%s' "$ex_a" | tr = ' ') \
                $(printf '%s' "$ex_b" | tr = ' ')
            tap_vg_kind=ok
            case $tap_rc:$tap_out:$tap_err in
                "2::softmma: "*"$ex_want") ;;
                *)
                    ex_bad=$((ex_bad + 1))
                    diag "softmma $* $ex_a $ex_b: exit $tap_rc, stderr: $tap_err"
                    ;;
            esac
        done
    done
    ok "$ex_bad" "$ex_desc"
}

tap_done() {
    if [ "$tap_vg_run" -ne "$tap_vg_all" ]; then
        diag "sampled (TEST_SAMPLE=$tap_vg_k:$tap_vg_seed): $tap_vg_run of $tap_vg_all runs" \
            "under valgrind, the first of each of $tap_vg_classes classes and one in" \
            "$tap_vg_k of the rest by the seed; the others ran without it"
    fi
    if [ -n "$tap_lazy" ]; then
        echo "1..$tap_count"
    elif [ "$tap_count" != "$tap_planned" ]; then
        diag "planned $tap_planned tests but ran $tap_count"
        exit 255
    fi
    [ "$tap_failed" -eq 0 ] || exit 1
    exit 0
}
