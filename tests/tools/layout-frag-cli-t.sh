#!/bin/sh
# tests/tools/layout-frag-cli-t.sh - softmma layout INSTRUCTION OPERAND
# (text grids and SVG pictures of the mma.sync fragment layouts), softmma
# layout --list, and their errors.
#
# Every expected cell below is worked out by hand from the PTX ISA formulas
# (9.7.14.5.8 and 9.7.14.5.10; softmma/fragment.h), not pasted from the
# program.  For lane t: group = t / 4, tig = t % 4.  Solving for the lane:
#   A (16 x K), element (m, k): half = k / (K/2), pos = k % (K/2);
#       lane = (m % 8) * 4 + pos / E, reg = m / 8 + 2 * half, elem = pos % E
#       (E = 2 for K 16, 4 for K 32).
#   B (K x 8), element (k, n): half = k / (K/2), pos = k % (K/2);
#       lane = n * 4 + pos / E, reg = half, elem = pos % E.
#   C, D (16 x 8), element (m, n): lane = (m % 8) * 4 + n / 2,
#       reg = (m / 8) * 2 + n % 2, elem 0.
# Worked values:
#   k16 A (8, 9): half 1, pos 1 -> lane 0, reg 1 + 2 = 3, elem 1: T0:r3.1.
#   k16 A (15, 15): half 1, pos 7 -> lane 28 + 3 = 31, reg 3, elem 1: T31:r3.1.
#   k16 A (1, 11): half 1, pos 3 -> lane 4 + 1 = 5, reg 2, elem 1: T5:r2.1.
#   k16 A row 0: k 0..7 -> lanes 0,0,1,1,2,2,3,3 reg 0 elems 0,1,...;
#     k 8..15 the same lanes in reg 2.  Row 8: the same lanes, regs 1 and 3.
#   k16 B (9, 3): half 1, pos 1 -> lane 12, reg 1, elem 1: T12:r1.1.
#   k32 A (9, 21): half 1, pos 5 -> lane 4 + 1 = 5, reg 1 + 2 = 3, elem 1:
#     T5:r3.1.
#   k32 B (31, 7): half 1, pos 15 -> lane 28 + 3 = 31, reg 1, elem 3: T31:r1.3.
#   k32 B row 0: n 0..7 -> lanes 0, 4, ..., 28, reg 0, elem 0.
#   C row 0: n 0..7 -> lanes 0,0,1,1,2,2,3,3, regs 0,1,0,1,...
#   D (13, 5): lane 20 + 2 = 22, reg 2 + 1 = 3: T22:r3 (one element per
#   register: no element index).

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/tools/softmma
work=${TMPDIR:-/tmp}/smma-layout-frag.$$
rm -rf "$work"
if ! mkdir "$work"; then echo "Bail out! cannot create $work"; exit 1; fi
trap 'rm -rf "$work"' EXIT

plan_lazy

# expect_out and expect_err come from tests/tap/libtap.sh.

# expect_line DESC LINE ARGS...: softmma ARGS exits 0 and prints LINE as
# one whole line of its stdout.
expect_line() {
    el_desc=$1
    el_want=$2
    shift 2
    run_prog "$prog" "$@"
    case $nl$tap_out$nl in
        *"$nl$el_want$nl"*) el_ok=$tap_rc ;;
        *) el_ok=1 ;;
    esac
    ok "$el_ok" "$el_desc"
    if [ "$el_ok" -ne 0 ]; then
        diag "command: softmma $*"
        diag "wanted a line: $el_want"
        diag "  seen: exit $tap_rc, stdout:$nl$tap_out"
    fi
}

# expect_cell DESC INSTR OP ROW COL WANT: the text grid of INSTR OP has WANT
# in row ROW, column COL (the line starting with ROW, field COL + 2).
expect_cell() {
    run_prog "$prog" layout "$2" "$3"
    ec_seen=$(printf '%s\n' "$tap_out" | awk -v r="$4" -v c="$5" \
        'NR > 2 && $1 == r { print $(c + 2) }')
    if [ "$tap_rc" -eq 0 ]; then
        is "$6" "$ec_seen" "$1"
    else
        ok 1 "$1"
        diag "softmma layout $2 $3 exited $tap_rc: $tap_err"
    fi
}

# run_svg OUTFILE ARGS...: runs softmma ARGS (under valgrind when set) with
# stdout to OUTFILE and stderr to $work/err; sets $tap_rc.
run_svg() {
    rs_out=$1
    shift
    tap_vg_pick "$prog" "$@"
    # shellcheck disable=SC2086
    $tap_vg "$prog" "$@" >"$rs_out" 2>"$work/err" </dev/null
    tap_rc=$?
}

# ---------------------------------------------------------------- text grids

expect_line "k16 A: header line" \
"mma.m16n8k16.bf16 a: 16 x 16 bf16 (rows m, cols k), 4 registers x 2 elements per lane; \
cell T<lane>:r<register>.<element>" layout mma.m16n8k16.bf16 a
expect_line "k16 A: column indices" \
"    0        1        2        3        4        5        6        7        8        9        \
10       11       12       13       14       15" layout mma.m16n8k16.bf16 a
expect_line "k16 A: row 0" \
"  0 T0:r0.0  T0:r0.1  T1:r0.0  T1:r0.1  T2:r0.0  T2:r0.1  T3:r0.0  T3:r0.1  \
T0:r2.0  T0:r2.1  T1:r2.0  T1:r2.1  T2:r2.0  T2:r2.1  T3:r2.0  T3:r2.1" \
    layout mma.m16n8k16.bf16 a
expect_line "k16 A: row 8 (registers 1 and 3)" \
"  8 T0:r1.0  T0:r1.1  T1:r1.0  T1:r1.1  T2:r1.0  T2:r1.1  T3:r1.0  T3:r1.1  \
T0:r3.0  T0:r3.1  T1:r3.0  T1:r3.1  T2:r3.0  T2:r3.1  T3:r3.0  T3:r3.1" \
    layout mma.m16n8k16.bf16 a
expect_line "k16 C: row 0" \
"  0 T0:r0  T0:r1  T1:r0  T1:r1  T2:r0  T2:r1  T3:r0  T3:r1" \
    layout mma.m16n8k16.f16 c
expect_line "k32 B: header line" \
"mma.m16n8k32.e4m3 b: 32 x 8 e4m3 (rows k, cols n), 2 registers x 4 elements per lane; \
cell T<lane>:r<register>.<element>" layout mma.m16n8k32.e4m3 b
expect_line "k32 B: row 0" \
"  0 T0:r0.0  T4:r0.0  T8:r0.0  T12:r0.0 T16:r0.0 T20:r0.0 T24:r0.0 T28:r0.0" \
    layout mma.m16n8k32.e4m3 b
expect_line "k16 D: header says 1 element" \
"mma.m16n8k16.bf16 d: 16 x 8 fp32 (rows m, cols n), 4 registers x 1 element per lane; \
cell T<lane>:r<register>" layout mma.m16n8k16.bf16 d

expect_cell "k16 A (0, 0) is T0:r0.0" mma.m16n8k16.bf16 a 0 0 T0:r0.0
expect_cell "k16 A (8, 9) is T0:r3.1" mma.m16n8k16.bf16 a 8 9 T0:r3.1
expect_cell "k16 A (15, 15) is T31:r3.1" mma.m16n8k16.bf16 a 15 15 T31:r3.1
expect_cell "k16 A (1, 11) is T5:r2.1" mma.m16n8k16.f16 a 1 11 T5:r2.1
expect_cell "k16 B (9, 3) is T12:r1.1" mma.m16n8k16.bf16 b 9 3 T12:r1.1
expect_cell "k32 A (9, 21) is T5:r3.1" mma.m16n8k32.e4m3 a 9 21 T5:r3.1
expect_cell "k32 B (31, 7) is T31:r1.3" mma.m16n8k32.e5m2 b 31 7 T31:r1.3
expect_cell "D (13, 5) is T22:r3" mma.m16n8k32.e5m2 d 13 5 T22:r3

# ldmatrix / stmatrix (softmma/ldmatrix.h): element (r, c) of matrix i is row
# 8i + r.  Without .trans lane = 4r + c/2, elem c%2; with .trans lane =
# 4c + r/2, elem r%2; the register is i; lane 8i + r gives the row address.
#   .x4 (10, 5): matrix 1, r 2, c 5 -> lane 10, reg 1, elem 1: T10:r1.1;
#   .x4.trans: lane 21, elem 0: T21:r1.0; addr of row 10: T10.
expect_cell "ldmatrix.x4 (10, 5) is T10:r1.1" ldmatrix.x4 regs 10 5 T10:r1.1
expect_cell "ldmatrix.x4.trans (10, 5) is T21:r1.0" ldmatrix.x4.trans regs 10 5 T21:r1.0
expect_cell "stmatrix.x2.trans (10, 5) is T21:r1.0" stmatrix.x2.trans regs 10 5 T21:r1.0
expect_cell "ldmatrix.x4 addr of row 10 is T10" ldmatrix.x4 addr 10 0 T10

# Shape: a header, a column line, one line per row; every slot exactly once.
for spec in "mma.m16n8k16.bf16 a 16 16" "mma.m16n8k16.bf16 b 16 8" \
    "mma.m16n8k32.e4m3 a 16 32" "mma.m16n8k32.e4m3 b 32 8" "mma.m16n8k16.f16 c 16 8"
do
    # shellcheck disable=SC2086
    set -- $spec
    run_prog "$prog" layout "$1" "$2"
    lines=$(printf '%s\n' "$tap_out" | wc -l | tr -d ' ')
    cells=$(printf '%s\n' "$tap_out" | awk 'NR > 2 { for (i = 2; i <= NF; i++) print $i }' \
        | sort -u | wc -l | tr -d ' ')
    is "$(($3 + 2)) $(($3 * $4))" "$lines $cells" \
        "$1 $2: $3 rows of $4 cells, $(($3 * $4)) distinct slots"
done

run_prog "$prog" layout mma.m16n8k16.bf16 a
want=$tap_out
expect_out "the full PTX spelling and upper-case operand draw the same grid" "$want" \
    layout MMA.SYNC.ALIGNED.M16N8K16.ROW.COL.F32.BF16.BF16.F32 A
expect_out "--text is the default" "$want" layout mma.m16n8k16.bf16 a --text
expect_out "options may come first" "$want" layout --text mma.m16n8k16.bf16 a

# ---------------------------------------------------------------- --list

run_prog "$prog" layout --list
is 0 "$tap_rc" "--list exits 0"
is "16" "$(printf '%s\n' "$tap_out" | grep -cE '^  mma\.m16n8k(16|32)\.(bf16|f16|e4m3|e5m2) [abcd] ')" \
    "--list names 16 fragment layouts (4 instructions x a, b, c, d)"
is "5" "$(printf '%s\n' "$tap_out" | grep -c '^  scale --layout ')" \
    "--list names the 5 scale layouts"
expect_line "--list: k16 bf16 A" \
"  mma.m16n8k16.bf16 a                      16 x 16 bf16 (rows m, cols k), 4 registers x 2 elements per lane" \
    layout --list
expect_line "--list: k32 e5m2 B" \
"  mma.m16n8k32.e5m2 b                      32 x 8 e5m2 (rows k, cols n), 2 registers x 4 elements per lane" \
    layout --list
expect_line "--list: f16 D" \
"  mma.m16n8k16.f16 d                       16 x 8 fp32 (rows m, cols n), 4 registers x 1 element per lane" \
    layout --list
for name in linear 128x4 triton5d cdna4-16 cdna4-32; do
    expect_line "--list: scale layout $name" "  scale --layout $name" layout --list
done

# ---------------------------------------------------------------- SVG

svg=$work/a16.svg
run_prog "$prog" layout mma.m16n8k16.bf16 a --svg "$svg"
if [ "$tap_rc" -eq 0 ] && [ -z "$tap_out" ] && [ -z "$tap_err" ] && [ -f "$svg" ]; then
    ok 0 "--svg writes the file, prints nothing"
else
    ok 1 "--svg writes the file, prints nothing"
    diag "exit $tap_rc, stdout: $tap_out, stderr: $tap_err"
fi
is "<svg " "$(head -c 5 "$svg" 2>/dev/null)" "the SVG starts with <svg"
is "</svg>" "$(tail -n 1 "$svg" 2>/dev/null)" "the SVG ends with </svg>"
if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout "$svg" 2>"$work/xml"
    ok $? "the SVG is well-formed XML (xmllint)"
    [ -s "$work/xml" ] && diag "$(cat "$work/xml")"
else
    ok 0 "the SVG is well-formed XML # SKIP xmllint not found"
fi
is 256 "$(grep -c 'class="cell"' "$svg")" "k16 A: 256 cells (16 x 16)"
is 32 "$(grep -o 'class="cell"[^>]*fill="#[0-9a-f]*"' "$svg" | sed 's/.*fill=//' \
    | sort -u | wc -l | tr -d ' ')" "k16 A: 32 fills, one per lane"
is 1 "$(grep -c '>T5</text><text [^>]*>r2\.1</text>' "$svg")" \
    "k16 A: one cell labelled T5 / r2.1"
is 16 "$(grep -c '<text [^>]*text-anchor="end">[0-9]*</text>' "$svg")" \
    "k16 A: 16 row indices"
for spec in "mma.m16n8k32.e4m3 a 512" "mma.m16n8k32.e5m2 b 256" "mma.m16n8k16.bf16 d 128"; do
    # shellcheck disable=SC2086
    set -- $spec
    run_prog "$prog" layout "$1" "$2" --svg "$work/n.svg"
    is "0 $3" "$tap_rc $(grep -c 'class="cell"' "$work/n.svg" 2>/dev/null)" \
        "$1 $2: $3 cells"
done

run_svg "$work/stdout.svg" layout mma.m16n8k16.bf16 a --svg -
if [ "$tap_rc" -eq 0 ] && cmp -s "$svg" "$work/stdout.svg"; then
    ok 0 "--svg - writes the same picture to stdout"
else
    ok 1 "--svg - writes the same picture to stdout"
fi

printf 'old\n' >"$work/keep.svg"
run_prog "$prog" layout mma.m16n8k16.bf16 a --svg "$work/keep.svg"
if [ "$tap_rc" -eq 0 ] && cmp -s "$svg" "$work/keep.svg"; then
    ok 0 "--svg replaces an existing file"
else
    ok 1 "--svg replaces an existing file"
fi
is "" "$(find "$work" -name '*.tmp' | tr '\n' ' ')" "no temporary file is left behind"

# Errors write nothing: no new file, an existing one untouched.
printf 'old\n' >"$work/keep.svg"
expect_err "unknown instruction with --svg" "unknown instruction 'mma.m16n8k16.bf32'" \
    layout mma.m16n8k16.bf32 a --svg "$work/keep.svg"
is "old" "$(cat "$work/keep.svg")" "... the existing file is untouched"
expect_err "unknown operand with --svg" "unknown operand 'e' of mma.m16n8k16.bf16 (known: a, b, c, d)" \
    layout mma.m16n8k16.bf16 e --svg "$work/new.svg"
expect_err "--text with --svg" "exclude" \
    layout mma.m16n8k16.bf16 a --text --svg "$work/new.svg"
expect_err "--svg into a missing directory" "$work/no/such" \
    layout mma.m16n8k16.bf16 a --svg "$work/no/such/dir.svg"
is "" "$(find "$work" -name 'new.svg*' | tr '\n' ' ')" "... no file was created"
mkdir "$work/adir"
expect_err "--svg onto a directory" "cannot rename" \
    layout mma.m16n8k16.bf16 a --svg "$work/adir"
is "" "$(find "$work" -name '*.tmp' | tr '\n' ' ')" "... and its temporary file is removed"

# The pictures in doc/layouts/ are what the program draws now (make
# layouts-svg redraws them).
for f in "$SMMA_SRCDIR"/doc/layouts/*.svg; do
    base=${f##*/}
    base=${base%.svg}
    run_svg "$work/doc.svg" layout "${base%-*}" "${base##*-}" --svg -
    if [ "$tap_rc" -eq 0 ] && cmp -s "$f" "$work/doc.svg"; then
        ok 0 "doc/layouts/$base.svg is up to date"
    else
        ok 1 "doc/layouts/$base.svg is up to date"
        diag "run 'make layouts-svg' and commit the result"
    fi
done

# ---------------------------------------------------------------- --at, --thread

expect_out "--at 5,9 of mma.m16n8k16 A names lane 20, register 2, element 1" \
    "mma.m16n8k16.bf16 a (m 5, k 9): T20:r2.1 (lane 20, register 2, element 1)" \
    layout mma.m16n8k16.bf16 a --at 5,9
expect_out "--thread 20 lists the 8 elements lane 20 holds" \
"mma.m16n8k16.bf16 a: lane 20 holds 8 elements
  T20:r0.0     m 5, k 0
  T20:r0.1     m 5, k 1
  T20:r1.0     m 13, k 0
  T20:r1.1     m 13, k 1
  T20:r2.0     m 5, k 8
  T20:r2.1     m 5, k 9
  T20:r3.0     m 13, k 8
  T20:r3.1     m 13, k 9" layout mma.m16n8k16.bf16 a --thread 20
expect_out "--thread of wgmma D: thread 127 of the warpgroup" \
"wgmma.m64n8k16.bf16 d: thread 127 holds 4 elements
  T127:r0      m 55, n 6
  T127:r1      m 55, n 7
  T127:r2      m 63, n 6
  T127:r3      m 63, n 7" layout wgmma.m64n8k16.bf16 d --thread 127
expect_out "--at of tcgen05 A in TMEM: lane, column, element of the cell" \
    "tcgen05.mma.m128 a (m 3, k 5): L3:c2.1 (TMEM lane 3, column 2, element 1)" \
    layout tcgen05.mma.m128 a --at 3,5
expect_out "--at of tcgen05 A, mxf4 (8 per cell)" \
    "tcgen05.mma.m64.mxf4 a (m 17, k 13): L33:c1.5 (TMEM lane 33, column 1, element 5)" \
    layout tcgen05.mma.m64.mxf4 a --at 17,13
expect_out "--at of tcgen05 D, M 128 cta_group::2 (Layout B), N 64: CTA 1" \
    "tcgen05.mma.m128n64.cg2 d (m 70, n 40): L198:c8 (CTA 1, TMEM lane 70, column 8)" \
    layout tcgen05.mma.m128n64.cg2 d --at 70,40
expect_out "--at of tcgen05 D, M 64 (Layout F), N 8" \
    "tcgen05.mma.m64n8 d (m 17, n 3): L33:c3 (TMEM lane 33, column 3)" \
    layout tcgen05.mma.m64n8 d --at 17,3
run_prog "$prog" layout tcgen05.mma.m256n256 d
case $tap_out in
    "tcgen05.mma.m256n256 d: D of M = 256, N = 256, cta_group::2 (Layout A)"*) hl=$tap_rc ;;
    *) hl=1 ;;
esac
lines=$(printf '%s\n' "$tap_out" | wc -l)
[ "$hl" = 0 ] && [ "$lines" -eq 258 ]
ok $? "tcgen05.mma.m256n256 d draws 256 lanes (got $lines lines)"
expect_out "--thread of tcgen05 D: a TMEM lane" \
"tcgen05.mma.m128n8 d: TMEM lane 5 holds 8 elements
  L5:c0        m 5, n 0
  L5:c1        m 5, n 1
  L5:c2        m 5, n 2
  L5:c3        m 5, n 3
  L5:c4        m 5, n 4
  L5:c5        m 5, n 5
  L5:c6        m 5, n 6
  L5:c7        m 5, n 7" layout tcgen05.mma.m128n8 d --thread 5
expect_out "--at of tcgen05 scale factors: the first of four copies" \
    "tcgen05.mma.mxf4.2x sfa (m 33, k block 1): L1:c1.1 (TMEM lane 1, column 1, byte 1; the first of 4 copies)" \
    layout tcgen05.mma.mxf4.2x sfa --at 33,1
expect_out "--at of tcgen05.ld: thread and register" \
    "tcgen05.ld.16x64b d (lane 3, col 1): T14:r0 (lane 14, register 0)" \
    layout tcgen05.ld.16x64b d --at 3,1
expect_out "--at of block-scaled mma.sync scale_A: the byte of the scale register" \
    "mma.m16n8k64.mxf4nvf4.4x sfa (m 3, k block 2): T12:b2 (lane 12, byte 2 of its scale register)" \
    layout mma.m16n8k64.mxf4nvf4.4x sfa --at 3,2
expect_out "--at of ldmatrix addr: the lane giving the row" \
    "ldmatrix.x2 addr (row 9): T9 (lane 9 gives the row's address)" layout ldmatrix.x2 addr --at 9,0

# --at agrees with the drawn grid: sixteen cells of mma.m16n8k32.e4m3 b,
# one per k row.
run_prog "$prog" layout mma.m16n8k32.e4m3 b
grid=$tap_out
bad=0
r=0
while [ $r -lt 32 ]; do
    c=$(( (3 * r) % 8 ))
    want=$(printf '%s\n' "$grid" | awk -v r="$r" -v c="$c" 'NR > 2 && $1 == r { print $(c + 2) }')
    run_prog "$prog" layout mma.m16n8k32.e4m3 b --at "$r,$c"
    case $tap_out in
        *": $want ("*) ;;
        *) bad=$((bad + 1)); diag "($r, $c): grid $want, --at: $tap_out" ;;
    esac
    r=$((r + 2))
done
ok "$bad" "--at of 16 cells of mma.m16n8k32.e4m3 b names the grid's label"

expect_err "--at past the last row names the bound" \
    "--at 16,0: row 16 is outside mma.m16n8k16.bf16 a: m is 0..15" \
    layout mma.m16n8k16.bf16 a --at 16,0
expect_err "--at past the last column names the bound" "k is 0..31" \
    layout mma.m16n8k32.e4m3 a --at 0,32
expect_err "--thread 32 names the bound" "threads are 0..31" layout mma.m16n8k16.bf16 a --thread 32
expect_err "--thread past the TMEM lanes of D" "threads are 0..255" \
    layout tcgen05.mma.m256n16 d --thread 256
expect_err "a malformed --at" "malformed --at '5'" layout mma.m16n8k16.bf16 a --at 5
expect_err "a malformed --thread" "malformed --thread 'x'" layout mma.m16n8k16.bf16 a --thread x
expect_exclusive "--text, --svg, --html, --at and --thread: any two are refused, naming both" \
    "--text --svg=$work/x.svg --html=$work/x.html --at=1,1 --thread=1" \
    layout mma.m16n8k16.bf16 a
expect_exclusive "... also for tcgen05.mma D of a CTA pair" \
    "--text --svg=$work/x.svg --html=$work/x.html --at=1,1 --thread=1" \
    layout tcgen05.mma.m128n64.cg2 d
expect_err "three of them are named together" "--svg, --html and --thread exclude each other" \
    layout mma.m16n8k16.bf16 a --thread 1 --html "$work/x.html" --svg "$work/x.svg"
is "" "$(find "$work" -name 'x.*' | tr '\n' ' ')" "... and none of them wrote a file"
expect_err "--list with --html" "--list takes no other arguments" \
    layout --list --html "$work/x.html"
expect_err "tcgen05 D: an N the instruction does not allow" \
    "tcgen05.mma.m128n12 d: D: N 12 is not a multiple of 8 in [8, 256]" layout tcgen05.mma.m128n12 d
expect_err "tcgen05 D: N 8 with cta_group::2" "multiple of 16" layout tcgen05.mma.m256n8 d
expect_err "tcgen05 D: an M with no data path" "M 96" layout tcgen05.mma.m96 d
expect_err "tcgen05 A: M 128 with cta_group::2 is not modelled" "not modelled" \
    layout tcgen05.mma.m128.cg2 a
expect_err "tcgen05: an unknown part of the name" "unknown part '.bf8'" layout tcgen05.mma.m128.bf8 a
expect_err "tcgen05: an unknown operand" "operand 'b' of tcgen05.mma.m128 is not one of: a, d" \
    layout tcgen05.mma.m128 b

# ---------------------------------------------------------------- errors

expect_err "unknown instruction" "unknown instruction 'mma.m16n8k8.tf32'" \
    layout mma.m16n8k8.tf32 a
expect_err "unknown first word, neither kind nor instruction" \
    "unknown layout kind 'fragment' (known: scale, smem) and no such instruction" layout fragment a
expect_err "a selector that the instruction does not take" \
    "mma.m16n8k16.bf16 takes no selectors" layout mma.m16n8k16.bf16 a --byte-id 1
expect_err "a malformed selector" "malformed --num 'x2'" layout mma.m16n8k16.bf16 a --num x2
expect_err "ldmatrix: an unknown variant" "unknown variant 'ldmatrix.x3'" layout ldmatrix.x3 regs
expect_err "ldmatrix: an unknown operand" "unknown operand 'a' of ldmatrix.x4" \
    layout ldmatrix.x4 a
expect_err "unknown operand" "unknown operand 'x'" layout mma.m16n8k16.bf16 x
expect_err "missing operand" "missing OPERAND" layout mma.m16n8k16.bf16
expect_err "extra argument" "unexpected argument 'c'" layout mma.m16n8k16.bf16 a c
expect_err "--svg without a file" "--svg" layout mma.m16n8k16.bf16 a --svg
expect_err "--list with an instruction" "--list" layout --list mma.m16n8k16.bf16
expect_err "unknown option" "--frobnicate" layout mma.m16n8k16.bf16 a --frobnicate
expect_err "options without an instruction" "INSTRUCTION OPERAND" layout --text

# ---------------------------------------------------------------- help

run_prog "$prog" layout mma.m16n8k16.bf16 a --help
case $nl$tap_out in
    *"${nl}Usage: softmma layout INSTRUCTION OPERAND"*) hl=$tap_rc ;;
    *) hl=1 ;;
esac
ok "$hl" "softmma layout INSTRUCTION OPERAND --help prints its Usage"
run_prog "$prog" layout --help
case $tap_out in
    *"INSTRUCTION OPERAND"*"--list"*) hl=$tap_rc ;;
    *) hl=1 ;;
esac
ok "$hl" "softmma layout --help names the fragment form and --list"

tap_done
