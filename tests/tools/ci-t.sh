#!/bin/sh
# tests/tools/ci-t.sh - the machinery that keeps CI's time in view and in
# bounds (doc/ci.md): the sampled points of TEST_SAMPLE in C tests
# (sample_point, through tests/tap/sample-demo) and in shell tests
# (tap_vg_pick of tests/tap/libtap.sh), the wall time tests/run-test adds to
# every test's log, tests/tap-summary.sh --slowest, and .ci/report, which
# fails a run over its limit and names the phases that grew.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

demo=$SMMA_BUILDDIR/tests/tap/sample-demo
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smma-ci-t.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

plan_lazy

# ---------------------------------------------------------------- sample_point

# 40 points of 3 classes: a, b (one point) and c.
pts=
i=0
while [ $i -lt 40 ]; do
    case $i in
        0 | 5 | 7) c=a ;;
        20) c=b ;;
        *) c=c ;;
    esac
    pts="$pts $c/p$i"
    i=$((i + 1))
done

# shellcheck disable=SC2086
TEST_SAMPLE= "$demo" $pts >"$tmp/all" 2>&1
nrun=$(grep -c '^run ' "$tmp/all")
[ "$nrun" -eq 40 ] && ! grep -q 'sampled' "$tmp/all"
ok $? "without TEST_SAMPLE every point runs and nothing is said ($nrun of 40)"
# shellcheck disable=SC2086
TEST_SAMPLE=1:7 "$demo" $pts >"$tmp/one" 2>&1
[ "$(grep -c '^run ' "$tmp/one")" -eq 40 ] && ! grep -q 'sampled' "$tmp/one"
ok $? "TEST_SAMPLE=1:7 runs every point"

# shellcheck disable=SC2086
TEST_SAMPLE=4:1 "$demo" $pts >"$tmp/s1" 2>&1
rc=$?
nrun=$(grep -c '^run ' "$tmp/s1")
[ $rc -eq 0 ] && [ "$nrun" -ge 5 ] && [ "$nrun" -le 20 ]
ok $? "TEST_SAMPLE=4:1 runs a part of the points ($nrun of 40), and the test passes"
first=$(awk '$1 == "run" && !seen[$2]++ { n++ } END { print n + 0 }' "$tmp/s1")
ordered=$(awk '$2 == "a" { print $1; exit }' "$tmp/s1")$(awk '$2 == "b" { print $1 }' "$tmp/s1")
[ "$first" -eq 3 ] && [ "$ordered" = runrun ] && grep -q '^run c p1$' "$tmp/s1"
ok $? "the first point of each class runs (a p0, b p20, c p1)"
line=$(grep -n 'sampled' "$tmp/s1" | cut -d: -f1)
plan_line=$(grep -n '^1\.\.1$' "$tmp/s1" | cut -d: -f1)
grep -q "^# sampled (TEST_SAMPLE=4:1): ran $nrun of 40 points, the first of each of 3 classes" \
    "$tmp/s1" && [ -n "$line" ] && [ "$plan_line" = $((line + 1)) ]
ok $? "the line beside the plan says how many of how many ran, K, the seed and the classes"
# shellcheck disable=SC2086
TEST_SAMPLE=4:1 "$demo" $pts >"$tmp/s1b" 2>&1
cmp -s "$tmp/s1" "$tmp/s1b"
ok $? "the same seed picks the same points"
# shellcheck disable=SC2086
TEST_SAMPLE=4:2 "$demo" $pts >"$tmp/s2" 2>&1
! cmp -s "$tmp/s1" "$tmp/s2" && [ "$(grep -c '^run a p0$' "$tmp/s2")" -eq 1 ]
ok $? "another seed picks other points, and still the first of each class"
# shellcheck disable=SC2086
TEST_SAMPLE=4:0x10 "$demo" $pts >"$tmp/hex" 2>&1
[ $? -eq 0 ] && grep -q '^# sampled (TEST_SAMPLE=4:16): ' "$tmp/hex"
ok $? "the seed may be written in hex (4:0x10 is seed 16)"
for bad in 0 1001 x 0x10 4: 4:x 4:-1 :3 4x; do
    TEST_SAMPLE=$bad "$demo" a/x >"$tmp/bad" 2>&1
    rc=$?
    [ $rc -eq 255 ] && grep -q "^Bail out! TEST_SAMPLE must be" "$tmp/bad" &&
        ! grep -q '^run ' "$tmp/bad"
    ok $? "TEST_SAMPLE='$bad' is refused: Bail out!, exit 255, no point run"
done

# ---------------------------------------------------------------- tap_vg_pick

# A shell test under a stand-in for valgrind that logs what it runs.
cat >"$tmp/fakevg" <<'EOF'
#!/bin/sh
echo "$*" >>"$FAKEVG_LOG"
exec "$@"
EOF
cat >"$tmp/shtest.sh" <<EOF
. "$SMMA_SRCDIR/tests/tap/libtap.sh"
prog=/bin/echo
plan_lazy
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    expect_out "echo x \$i" "x \$i" x \$i
done
for i in 1 2 3 4 5 6 7 8 9 10; do
    expect_out "echo y \$i" "y \$i" y \$i
done
tap_done
EOF
FAKEVG_LOG=$tmp/vg1 SMMA_VALGRIND="sh $tmp/fakevg" TEST_SAMPLE= sh "$tmp/shtest.sh" \
    >"$tmp/sh1" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/vg1")" -eq 30 ] && ! grep -q sampled "$tmp/sh1"
ok $? "a shell test without TEST_SAMPLE runs every program under SMMA_VALGRIND"
FAKEVG_LOG=$tmp/vg4 SMMA_VALGRIND="sh $tmp/fakevg" TEST_SAMPLE=4:1 sh "$tmp/shtest.sh" \
    >"$tmp/sh4" 2>&1
rc=$?
nvg=$(wc -l <"$tmp/vg4" | tr -d ' ')
[ $rc -eq 0 ] && [ "$(grep -c '^ok ' "$tmp/sh4")" -eq 30 ] && [ "$nvg" -ge 2 ] &&
    [ "$nvg" -le 15 ] && grep -q '^/bin/echo x 1$' "$tmp/vg4" && grep -q '^/bin/echo y 1$' "$tmp/vg4"
ok $? "with TEST_SAMPLE=4:1 every point still runs, $nvg of 30 under SMMA_VALGRIND, the first of each class among them"
grep -q "^# sampled (TEST_SAMPLE=4:1): $nvg of 30 runs under valgrind, the first of each of 2 classes" \
    "$tmp/sh4" && [ "$(tail -n 1 "$tmp/sh4")" = "1..30" ]
ok $? "the shell test says so beside its plan"
FAKEVG_LOG=$tmp/vg4b SMMA_VALGRIND="sh $tmp/fakevg" TEST_SAMPLE=4:1 sh "$tmp/shtest.sh" \
    >/dev/null 2>&1
cmp -s "$tmp/vg4" "$tmp/vg4b"
ok $? "the same seed memchecks the same runs"
FAKEVG_LOG=$tmp/vgbad SMMA_VALGRIND="sh $tmp/fakevg" TEST_SAMPLE=4:y sh "$tmp/shtest.sh" \
    >"$tmp/shbad" 2>&1
rc=$?
[ $rc -eq 255 ] && grep -q "^Bail out! TEST_SAMPLE must be K or K:SEED" "$tmp/shbad" &&
    [ ! -s "$tmp/vgbad" ]
ok $? "a shell test refuses TEST_SAMPLE=4:y before running anything"

# ---------------------------------------------------------------- run-test

printf '#!/bin/sh\necho "1..1"\necho "ok 1"\nsleep 1\nexit 3\n' >"$tmp/prog"
chmod +x "$tmp/prog"
out=$(SMMA_VALGRIND= sh "$SMMA_SRCDIR/tests/run-test" "$tmp/prog")
rc=$?
[ $rc -eq 3 ] && [ "$(printf '%s\n' "$out" | head -n 2)" = "1..1${nl}ok 1" ] &&
    printf '%s\n' "$out" | tail -n 1 | grep -Eq '^# run-test: [1-9][0-9]* s$'
ok $? "run-test passes the exit status on and ends the output with the seconds taken"
out=$(SMMA_VALGRIND="sh $tmp/fakevg" FAKEVG_LOG=$tmp/rt sh "$SMMA_SRCDIR/tests/run-test" \
    "$tmp/prog")
[ "$(cat "$tmp/rt")" = "$tmp/prog" ]
ok $? "run-test runs a program under SMMA_VALGRIND"
printf 'echo "1..0 # SKIP shell"\n' >"$tmp/t.sh"
out=$(SMMA_VALGRIND="sh $tmp/fakevg" FAKEVG_LOG=$tmp/rt2 sh "$SMMA_SRCDIR/tests/run-test" \
    --sh sh "$tmp/t.sh")
[ $? -eq 0 ] && [ ! -e "$tmp/rt2" ] && printf '%s\n' "$out" | head -n 1 | grep -q SKIP &&
    printf '%s\n' "$out" | tail -n 1 | grep -Eq '^# run-test: [0-9]+ s$'
ok $? "run-test --sh runs a shell test by the shell named, not under SMMA_VALGRIND"

# ---------------------------------------------------------------- tap-summary --slowest

mkdir -p "$tmp/logs/a" "$tmp/logs/b"
printf 'ok 1\n# run-test: 5 s\n' >"$tmp/logs/a/x-t.log"
printf 'ok 1\n# run-test: 120 s\n' >"$tmp/logs/a/y-t.log"
printf 'ok 1\n# run-test: 7 s\n' >"$tmp/logs/b/z-t.log"
printf 'no time here\n' >"$tmp/logs/b/w-t.log"
printf 'ok 1\n# run-test: 999 s\n' >"$tmp/logs/test-suite.log"
out=$(sh "$SMMA_SRCDIR/tests/tap-summary.sh" --slowest 2 "$tmp/logs")
is "    120 s  $tmp/logs/a/y-t${nl}      7 s  $tmp/logs/b/z-t" "$out" \
    "tap-summary.sh --slowest 2 lists the two slowest tests, longest first"

# ---------------------------------------------------------------- .ci/report

report=$SMMA_SRCDIR/.ci/report
out=$(sh "$report" 2700 bootstrap:10 check:500 valgrind:600 other:2)
rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eq '^=== total +1112 +\(limit 2700\)$' &&
    printf '%s\n' "$out" | grep -Eq '^=== check +500 +[1-9][0-9]*$' &&
    ! printf '%s\n' "$out" | grep -q FAILED
ok $? ".ci/report: under the limit, a table of phases and records, exit 0"
# (Records below 2,000 s, as every one is: check grows most, then valgrind.)
out=$(sh "$report" 1000 bootstrap:1 check:9000 valgrind:6000 fuzz:1)
rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q '^=== FAILED: the run took 15002 s, over the limit of 1000 s' &&
    printf '%s\n' "$out" | grep '^===   ' | head -n 1 | grep -Eq '^===   check: 9000 s, [0-9]+ s over its recorded [0-9]+ s$' &&
    printf '%s\n' "$out" | grep '^===   ' | sed -n 2p | grep -q '^===   valgrind: 6000 s' &&
    [ "$(printf '%s\n' "$out" | grep -c '^===   ')" -eq 2 ]
ok $? ".ci/report: over the limit it fails and names the phases that grew, the largest growth first"
out=$(sh "$report" 100 check:90 valgrind:90)
[ $? -eq 1 ] && printf '%s\n' "$out" | grep -q 'none: every phase is within its record'
ok $? ".ci/report: over the limit with no phase over its record, it says so"
for bad in "x check:1" "100" "100 check" "100 check:x" "100 :5" "100 a:1:2"; do
    # shellcheck disable=SC2086
    out=$(sh "$report" $bad 2>"$tmp/err")
    rc=$?
    [ $rc -eq 2 ] && [ -z "$out" ] && grep -q '^\.ci/report: ' "$tmp/err"
    ok $? ".ci/report $bad: refused with exit 2 and a message"
done

tap_done
