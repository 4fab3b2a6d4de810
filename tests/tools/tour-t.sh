#!/bin/sh
# tests/tools/tour-t.sh - softmma tour: its structure and its key values,
# each compared with what another command of the program computes (not with
# a transcript):
#   - ten numbered sections in order, each naming a doc/ page and a command,
#     at most 160 lines, nothing on stderr, exit 0;
#   - the MXFP8 block under ocp and cuda and the NVFP4 block under te and
#     torchao-floor: scale bytes and codes equal softmma quant's on the same
#     values, and the two profiles' scale bytes differ;
#   - the 128x4 offsets equal softmma layout scale --at;
#   - the fragment grids equal the rows of softmma layout;
#   - the dot product: three answers equal softmma gemm --inputs under each
#     model, and all three differ;
#   - the vectors: one line per family, its suite count equal to what
#     softmma gen --list calls committed, all equal; --all-suites gives one
#     line per suite; a missing vectors directory is skipped;
#   - bad arguments: exit 2.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/tools/softmma
tmp=${TMPDIR:-/tmp}/smma-tour-t.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

plan_lazy

# The tour verifies every committed suite: under valgrind
# (make check-valgrind) that takes many minutes, and the code it runs is the
# library's, which tests/ref and the ASan/UBSan builds cover; so the full
# tours here run without it, and only the one without vectors runs under it.
vg=${SMMA_VALGRIND:-}
SMMA_VALGRIND=
run_prog "$prog" tour
tour=$tap_out
SMMA_VALGRIND=$vg
printf '%s\n' "$tour" >"$tmp/tour"
[ "$tap_rc" -eq 0 ] && [ -z "$tap_err" ]
ok $? "tour exits 0 and writes nothing on stderr"
[ $? -eq 0 ] || diag "exit $tap_rc, stderr: $tap_err"

nlines=$(wc -l <"$tmp/tour" | tr -d ' ')
[ "$nlines" -le 160 ] && [ "$nlines" -ge 100 ]
ok $? "tour prints between 100 and 160 lines ($nlines)"

# The section titles, in order; each title (one or two lines) names a page
# of doc/ and a softmma command.
titles=$(grep -E '^[0-9]+\. ' "$tmp/tour" | sed 's/\. .*//' | tr '\n' ' ')
is "1 2 3 4 5 6 7 8 9 10 " "$titles" "ten numbered sections in order"
for want in "1. The formats" "2. FP4 (e2m1)" "3. Edge values" "4. Rounding" \
        "5. Where libraries disagree" "6. Block quantization" "7. Where the scales go" \
        "8. Which lane holds what" "9. The reference GEMM" "10. Golden vectors"; do
    title=$(grep -A1 -F "$want" "$tmp/tour" | tr '\n' ' ')
    case $title in
        *doc/*.md*softmma\ [a-z]*) t=0 ;;
        *) t=1 ;;
    esac
    ok $t "section '$want' names a doc page and a command"
    [ $t -eq 0 ] || diag "title: $title"
done

# ---------------------------------------------------------------- quantization

# The "PROFILE scale 0xSS = V codes ..." line of a profile (with its
# continuation line for 32 codes) as "SS c0 c1 ...".
tour_block() {
    awk -v p="$1" '
        go && /^ +[0-9a-f][0-9a-f]( [0-9a-f][0-9a-f])+$/ { printf " %s", $0; go = 0; next }
        go { go = 0 }
        $1 == p && $2 == "scale" { sub(/^0x/, "", $3); printf "%s", $3
            for (i = 7; i <= NF; i++) printf " %s", $i; go = 1 }
        END { print "" }' "$tmp/tour" | tr -s ' '
}
# softmma quant's answer in the same form.
quant_block() {
    qb_fmt=$1
    qb_profile=$2
    shift 2
    run_prog "$prog" quant --format "$qb_fmt" --profile "$qb_profile" "$@" "$tmp/x"
    printf '%s\n' "$tap_out" | awk '$1 == "block" { sub(/^0x/, "", $4); printf "%s", $4
        for (i = 7; i <= NF; i++) printf " %s", $i; print "" }'
}

awk 'BEGIN { for (i = 1; i <= 32; i++) printf "%.3f\n", 15.625 * i }' >"$tmp/x"
for p in ocp cuda; do
    is "$(quant_block mxfp8e4m3 $p)" "$(tour_block $p)" \
        "MXFP8 block under $p: scale byte and 32 codes equal softmma quant's"
done
s_ocp=$(tour_block ocp | cut -d' ' -f1)
s_cuda=$(tour_block cuda | cut -d' ' -f1)
[ -n "$s_ocp" ] && [ -n "$s_cuda" ] && [ "$s_ocp" != "$s_cuda" ]
ok $? "MXFP8: the two profiles' scale bytes differ ($s_ocp, $s_cuda)"

awk 'BEGIN { for (i = 1; i <= 16; i++) printf "%.9f\n", i / 512 }' >"$tmp/x"
for p in te torchao-floor; do
    is "$(quant_block nvfp4 $p --global-amax 2688)" "$(tour_block $p)" \
        "NVFP4 block under $p: scale byte and 16 codes equal softmma quant's"
done
s_te=$(tour_block te | cut -d' ' -f1)
s_ta=$(tour_block torchao-floor | cut -d' ' -f1)
[ -n "$s_te" ] && [ -n "$s_ta" ] && [ "$s_te" != "$s_ta" ]
ok $? "NVFP4: the two profiles' scale bytes differ ($s_te, $s_ta)"
case $tour in
    *"ocp's FLOOR scale"*"cuda's RCEIL"*"torchao clamps the scale"*) t=0 ;;
    *) t=1 ;;
esac
ok $t "each pair is followed by why they differ"

# ---------------------------------------------------------------- scale layout

# The rows of the offset table: "m off0 off1 ... off7".
rows=$(awk '/^   row m:  kb/ { go = 1; next } go && NF == 9 { print; next } go { exit }' \
    "$tmp/tour" | tr -s ' ' | sed 's/^ //')
want=
for m in $(printf '%s\n' "$rows" | cut -d' ' -f1); do
    line=$m
    for kb in 0 1 2 3 4 5 6 7; do
        run_prog "$prog" layout scale --layout 128x4 --rows 160 --k 256 --vec 32 --at "$m,$kb"
        # --at derives the offset; its last line is "       = OFF".
        line="$line $(printf '%s\n' "$tap_out" | tail -n 1 | sed 's/^ *= //')"
    done
    want="$want$line$nl"
done
nrows=$(printf '%s\n' "$rows" | wc -l | tr -d ' ')
[ "$nrows" -ge 6 ]
ok $? "the 128x4 table shows $nrows rows"
is "$want" "$rows$nl" "every 128x4 offset shown equals softmma layout scale --at"
case $tour in
    *"off(m, kb) = ((m/128) (Kb'/4) + kb/4) 512 + (m%32) 16 + ((m/32)%4) 4 + kb%4"*) t=0 ;;
    *) t=1 ;;
esac
ok $t "the offset formula is printed"

# ---------------------------------------------------------------- fragments

# Rows of a grid printed by the tour after its header line, the first nine
# fields (row index and eight cells), against softmma layout's full grid.
grid_rows() {
    awk -v h="$1" 'index($0, h) == 4 { go = 1; skip = 1; next }
        go && skip { skip = 0; next }
        go && $1 == "..." { next }
        go && $1 ~ /^[0-9]+$/ { print; next }
        go { exit }' "$tmp/tour" | tr -s ' ' | sed 's/^ //'
}
layout_rows() {
    run_prog "$prog" layout "$1" "$2"
    printf '%s\n' "$tap_out" | awk 'NR > 2 { print $1, $2, $3, $4, $5, $6, $7, $8, $9 }' >"$tmp/l"
    for r in $3; do
        awk -v r="$r" '$1 == r' "$tmp/l"
    done
}
for g in "mma.m16n8k16.bf16 a" "tcgen05.mma.m64 d"; do
    # shellcheck disable=SC2086
    set -- $g
    seen=$(grid_rows "$1 $2:")
    shown=$(printf '%s\n' "$seen" | cut -d' ' -f1 | tr '\n' ' ')
    [ "$(printf '%s\n' "$seen" | wc -l)" -ge 5 ]
    ok $? "$1 $2: the tour draws rows $shown"
    is "$(layout_rows "$1" "$2" "$shown")" "$seen" \
        "$1 $2: those rows equal softmma layout's (first 8 columns)"
    case $tour in
        *"softmma layout $1 $2 [--svg "*) t=0 ;;
        *) t=1 ;;
    esac
    ok $t "$1 $2: followed by the command that draws it as SVG"
done

# ---------------------------------------------------------------- GEMM

printf 'softmma-gemm-inputs 1\na bf16\nb bf16\nscale none\nvec 32\nc none\nm 1\nn 1\nk 3\nA\n%s\nB\n%s\n' \
    '0x45e0 0xb9e0 0xc5c0' '0x3f80 0x3f80 0x3f80' >"$tmp/three.txt"
answers=
for model in exact-rn fp32-fma-seq h100-bf16; do
    run_prog "$prog" gemm --inputs "$tmp/three.txt" --model "$model"
    want=$tap_out
    seen=$(awk -v m="$model" '$1 == m && $3 == "=" { print $2 }' "$tmp/tour")
    is "$want" "$seen" "dot product under $model equals softmma gemm --inputs"
    answers="$answers$seen$nl"
done
ndistinct=$(printf '%s' "$answers" | sort -u | grep -c .)
is 3 "$ndistinct" "the three models give three different answers"
case $tour in
    *"0x45e0 0xb9e0 0xc5c0"*"The exact sum"*"fp32-fma-seq"*"H100 block-FMA"*) t=0 ;;
    *) t=1 ;;
esac
ok $t "the inputs and the reason are printed"

# ---------------------------------------------------------------- vectors

run_prog "$prog" gen --list
printf '%s\n' "$tap_out" | awk '$2 == "committed" { split($1, f, "."); n[f[1]]++ }
    END { for (k in n) print k, n[k] }' | sort >"$tmp/fam-want"
awk '$3 == "suites" && $6 == "all" && $7 == "equal" { print $1, $2 }' "$tmp/tour" |
    sort >"$tmp/fam-seen"
is "$(cat "$tmp/fam-want")" "$(cat "$tmp/fam-seen")" \
    "one 'all equal' line per family, with the committed suites of each"
total=$(awk '{ s += $2 } END { print s }' "$tmp/fam-want")
case $tour in
    *"   $total suites: the reference reproduces every committed vector file"*) t=0 ;;
    *) t=1 ;;
esac
ok $t "the total of $total suites is verified"
case $tour in
    *"softmma gen "*" -o in.vec"*"softmma ver "*" out.vec"*) t=0 ;;
    *) t=1 ;;
esac
ok $t "the section ends with how a subject is checked against a suite"

SMMA_VALGRIND=
run_prog "$prog" tour --all-suites
SMMA_VALGRIND=$vg
nsuite=$(printf '%s\n' "$tap_out" | grep -cE '^   [a-z0-9.+_-]+ +[0-9]+ cases  equal$')
[ "$tap_rc" -eq 0 ]
ok $? "tour --all-suites exits 0"
is "$total" "$nsuite" "tour --all-suites: one line per committed suite"

SMMA_VECTORS=$tmp/none
export SMMA_VECTORS
run_prog "$prog" tour
unset SMMA_VECTORS
case $tap_out in
    *"no vectors/ directory at $tmp/none"*"skipped"*) t=$tap_rc ;;
    *) t=1 ;;
esac
ok $t "without a vectors directory that part is skipped, exit 0"

expect_err "tour with an argument: exit 2" "unexpected argument 'x'" tour x
expect_err "tour with an unknown option: exit 2" "--bogus" tour --bogus

tap_done
