#!/bin/sh
# shellcheck disable=SC2086  # $S is "layout scale", split on purpose
# tests/tools/layout-cli-t.sh - softmma layout scale: maps, single offsets
# with their derivation, SVG pictures, the inverse, errors, help; softmma
# layout smem: shared-memory tiles of the descriptors, --at, --svg, errors.
#
# Every expected offset below is worked out by hand from the formulas in
# doc/scale-layouts.md, not pasted from the program (Kb = ceil(K / V), Kb'
# = Kb padded to the layout's column tile):
#   128x4    ((m/128)*(Kb'/4) + kb/4)*512 + (m%32)*16 + ((m/32)%4)*4 + kb%4
#   cdna4-16 (m/32)*(Kb'*32) + (kb/8)*256 + (kb%4)*64 + (m%16)*4
#            + ((kb%8)/4)*2 + (m%32)/16
#   cdna4-32 (m/32)*(Kb'*32) + (kb/8)*256 + (kb%2)*128 + (m%32)*4 + (kb%8)/2
# Worked values:
#   128x4, 2 rows, K 64, V 32: Kb 2, padded 128 x 4 = 512 bytes;
#     (0,0) 0, (0,1) 1, (1,0) 16, (1,1) 17.
#   128x4, 130 rows, K 80, V 16: Kb 5 -> Kb' 8, rows -> 256, 2048 bytes;
#     (129,4): tile (1,1) = 3*512 = 1536, + (129%32)*16 = 16 -> 1552;
#     (0,4): tile (0,1) = 512.
#   cdna4-16, 32 rows, K 256, V 32 (Kb 8): (16,4) = 2 + 1 = 3,
#     (17,5) = 64 + 4 + 2 + 1 = 71.
#   cdna4-32, same: (0,1) = 128, (31,7) = 128 + 124 + 3 = 255.
#   cdna4-16 / -32, 2 rows, K 64 (Kb 2 -> 8, rows -> 32, 256 bytes):
#     16: (0,1) = 64, (1,0) = 4, (1,1) = 68;  32: (0,1) = 128, (1,1) = 132.
#   Inverse in 128x4 (2 rows, K 64): byte 17 = (1,1); byte 18 = (1,2),
#     padding (column 2 >= Kb); byte 32 = row 32/16 = 2, padding; byte 511
#     = (127,3), padding.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/tools/softmma

plan_lazy

# expect_out and expect_err come from tests/tap/libtap.sh.

S="layout scale"

# ---------------------------------------------------------------- maps

expect_out "128x4 map: 2 rows, K 64, V 32" \
"scale layout 128x4: rows 2, k 64, vec 32 -> 2 x 2 scales; padded 128 x 4 = 512 bytes
row 0: 0 1
row 1: 16 17" $S --layout 128x4 --rows 2 --k 64 --vec 32

expect_out "linear map: Kb = ceil(100/32) = 4, no padding" \
"scale layout linear: rows 2, k 100, vec 32 -> 2 x 4 scales; padded 2 x 4 = 8 bytes
row 0: 0 1 2 3
row 1: 4 5 6 7" $S --layout linear --rows 2 --k 100 --vec 32

expect_out "cdna4-16 map: 2 rows, K 64" \
"scale layout cdna4-16: rows 2, k 64, vec 32 -> 2 x 2 scales; padded 32 x 8 = 256 bytes
row 0: 0 64
row 1: 4 68" $S --layout cdna4-16 --rows 2 --k 64 --vec 32

expect_out "cdna4-32 map: 2 rows, K 64" \
"scale layout cdna4-32: rows 2, k 64, vec 32 -> 2 x 2 scales; padded 32 x 8 = 256 bytes
row 0: 0 128
row 1: 4 132" $S --layout cdna4-32 --rows 2 --k 64 --vec 32

expect_out "triton5d map equals 128x4's bytes" \
"scale layout triton5d: rows 2, k 64, vec 32 -> 2 x 2 scales; padded 128 x 4 = 512 bytes
row 0: 0 1
row 1: 16 17" $S --layout triton5d --rows 2 --k 64 --vec 32

# ---------------------------------------------------------------- --at

# expect_at DESC OFF ARGS...: --at ends with the line "       = OFF".
expect_at() {
    ea_desc=$1
    ea_want=$2
    shift 2
    run_prog "$prog" "$@"
    ea_got=$(printf '%s\n' "$tap_out" | tail -n 1)
    if [ "$tap_rc" -eq 0 ] && [ "$ea_got" = "       = $ea_want" ]; then
        ok 0 "$ea_desc"
    else
        ok 1 "$ea_desc"
        diag "exit $tap_rc, last line '$ea_got', want '       = $ea_want'"
    fi
}

expect_at "128x4 --at 129,4 (ragged: 130 rows, K 80, V 16)" "1552" \
    $S --layout 128x4 --rows 130 --k 80 --vec 16 --at 129,4
expect_at "128x4 --at 0,4: the second tile along K" "512" \
    $S --layout 128x4 --rows 130 --k 80 --vec 16 --at 0,4
expect_at "triton5d --at 129,4 is the same byte" "1552" \
    $S --layout triton5d --rows 130 --k 80 --vec 16 --at=129,4
expect_at "cdna4-16 --at 16,4 is op3 of lane 0: byte 3" "3" \
    $S --layout cdna4-16 --rows 32 --k 256 --vec 32 --at 16,4
expect_at "cdna4-16 --at 17,5" "71" \
    $S --layout cdna4-16 --rows 32 --k 256 --vec 32 --at 17,5
expect_at "cdna4-32 --at 0,1 is lane 32" "128" \
    $S --layout cdna4-32 --rows 32 --k 256 --vec 32 --at 0,1
expect_at "cdna4-32 --at 31,7" "255" \
    $S --layout cdna4-32 --rows 32 --k 256 --vec 32 --at 31,7
expect_at "layout names are case-insensitive" "17" \
    $S --layout 128X4 --rows 2 --k 64 --vec 32 --at 1,1

expect_out "--at 33,5 in 128x4 shows the formula evaluated step by step" \
"128x4: 34 x 8 scales padded to 128 x 8 (Kb' = 8)
m 33 = 128*0 + 32*1 + 1; kb 5 = 4*1 + 1
offset = ((m/128)*(Kb'/4) + kb/4)*512 + (m%32)*16 + ((m/32)%4)*4 + kb%4
       = (0*2 + 1)*512 + 1*16 + 1*4 + 1
       = 533" $S --layout 128x4 --rows 34 --k 256 --vec 32 --at 33,5
expect_out "--at in triton5d names the 5-D index" \
"triton5d: 130 x 5 scales padded to 256 x 8 (Kb' = 8)
m 129 = a*128 + d*32 + c, kb 4 = b*4 + e: index [a=1][b=1][c=1][d=0][e=0]
offset = a*(Kb'/4)*512 + b*512 + c*16 + d*4 + e
       = 1*2*512 + 1*512 + 1*16 + 0*4 + 0
       = 1552" $S --layout triton5d --rows 130 --k 80 --vec 16 --at 129,4

# Every --at of a 34 x 5 matrix (rows around the 16- and 32-row steps)
# ends with the offset the map prints, in every layout.
for l in linear 128x4 triton5d cdna4-16 cdna4-32; do
    run_prog "$prog" $S --layout $l --rows 34 --k 160 --vec 32
    map=$tap_out
    bad=0
    for m in 0 1 15 16 17 31 32 33; do
        row=$(printf '%s\n' "$map" | sed -n "s/^row $m: //p")
        kb=0
        for want in $row; do
            run_prog "$prog" $S --layout $l --rows 34 --k 160 --vec 32 --at $m,$kb
            got=$(printf '%s\n' "$tap_out" | tail -n 1)
            if [ "$got" != "       = $want" ]; then
                bad=$((bad + 1))
                diag "$l ($m, $kb): '$got', map $want"
            fi
            kb=$((kb + 1))
        done
    done
    ok "$bad" "$l: --at of 40 scales ends with the map's offset"
done

# ---------------------------------------------------------------- --svg

run_prog "$prog" $S --layout 128x4 --rows 2 --k 64 --vec 32 --svg -
cells=$(printf '%s\n' "$tap_out" | grep -c 'class="cell"')
case $tap_out in
    "<svg "*"<title>scale layout 128x4: rows 2, k 64, vec 32"*'>17</text>'*"</svg>") sv=$tap_rc ;;
    *) sv=1 ;;
esac
ok "$sv" "--svg - draws the 128x4 offsets as SVG (title, the offset 17)"
[ "$cells" = 4 ]
ok $? "... one cell per scale (4, got $cells)"
svgdir=${TMPDIR:-/tmp}/smma-scale-svg.$$
mkdir -p "$svgdir"
run_prog "$prog" $S --layout cdna4-32 --rows 32 --k 256 --vec 32 --svg "$svgdir/s.svg"
[ "$tap_rc" -eq 0 ] && [ "$(grep -c 'class="cell"' "$svgdir/s.svg")" = 256 ] \
    && [ -z "$(ls "$svgdir" | grep tmp)" ]
ok $? "--svg FILE writes 32 x 8 cells into the file, no temporary left"
expect_err "--svg into a missing directory" "cannot create" \
    $S --layout 128x4 --rows 2 --k 64 --vec 32 --svg "$svgdir/no/such.svg"
rm -rf "$svgdir"
# Coloured by 16-byte line (offset / 16), as --html groups them: in 128x4
# rows m and m + 32 share a line ((0,0) is byte 0, (32,0) byte 4), row 1
# starts the next one (byte 16).
run_prog "$prog" $S --layout 128x4 --rows 64 --k 64 --vec 32 --svg -
fills=$(printf '%s\n' "$tap_out" | sed -n 's/^.*class="cell"[^>]* fill="\([^"]*\)".*$/\1/p')
f00=$(printf '%s\n' "$fills" | sed -n 1p)
f10=$(printf '%s\n' "$fills" | sed -n 3p)
f320=$(printf '%s\n' "$fills" | sed -n 65p)
[ -n "$f00" ] && [ "$f00" = "$f320" ] && [ "$f00" != "$f10" ]
ok $? "--svg colours by 16-byte line: (0,0) as (32,0) ($f00 $f320), not as (1,0) ($f10)"
expect_exclusive "--at, --offset, --svg and --html: any two are refused, naming both" \
    "--at=0,0 --offset=1 --svg=- --html=-" $S --layout 128x4 --rows 2 --k 64 --vec 32
expect_err "--svg of too many scales" "70000 x 2 scales are too many to draw (at most 131072)" \
    $S --layout linear --rows 70000 --k 64 --vec 32 --svg -

# ---------------------------------------------------------------- --offset

expect_out "--offset 17 is row 1 col 1" "row 1 col 1" \
    $S --layout 128x4 --rows 2 --k 64 --vec 32 --offset 17
expect_out "--offset 18 is padding (column 2 of 2)" "padding row 1 col 2" \
    $S --layout 128x4 --rows 2 --k 64 --vec 32 --offset 18
expect_out "--offset 32 is padding row 2" "padding row 2 col 0" \
    $S --layout 128x4 --rows 2 --k 64 --vec 32 --offset 32
expect_out "--offset 511 is the tile's last byte" "padding row 127 col 3" \
    $S --layout 128x4 --rows 2 --k 64 --vec 32 --offset 511

# ---------------------------------------------------------------- errors

expect_err "unknown layout name" "256x4" $S --layout 256x4 --rows 2 --k 64 --vec 32
expect_err "malformed --rows" "12x" $S --layout 128x4 --rows 12x --k 64 --vec 32
expect_err "negative --k" "'-5'" $S --layout 128x4 --rows 2 --k -5 --vec 32
expect_err "--rows 0" "rows must be at least 1" $S --layout 128x4 --rows 0 --k 64 --vec 32
expect_err "--k 0" "k must be at least 1" $S --layout linear --rows 2 --k 0 --vec 32
expect_err "--vec 8" "vec must be 16 or 32" $S --layout 128x4 --rows 2 --k 64 --vec 8
expect_err "cdna4-16 with --vec 16" "vec must be 32" \
    $S --layout cdna4-16 --rows 32 --k 256 --vec 16
expect_err "--at row out of range" "m = 2" $S --layout 128x4 --rows 2 --k 64 --vec 32 --at 2,0
expect_err "--at column out of range, inside the padding" "kb = 2" \
    $S --layout 128x4 --rows 2 --k 64 --vec 32 --at 0,2
expect_err "--at without a comma" "--at" $S --layout 128x4 --rows 2 --k 64 --vec 32 --at 1
expect_err "--at with junk" "1;2" $S --layout 128x4 --rows 2 --k 64 --vec 32 --at '1;2'
expect_err "--offset past the end" "off = 512" \
    $S --layout 128x4 --rows 2 --k 64 --vec 32 --offset 512
expect_err "--at and --offset together" "exclude" \
    $S --layout 128x4 --rows 2 --k 64 --vec 32 --at 0,0 --offset 0
expect_err "missing --layout" "--layout" $S --rows 2 --k 64 --vec 32
expect_err "missing --rows" "--rows" $S --layout 128x4 --k 64 --vec 32
expect_err "missing --k" "missing --k" $S --layout 128x4 --rows 2 --vec 32
expect_err "missing --vec" "--vec" $S --layout 128x4 --rows 2 --k 64
expect_err "--rows without its value" "--rows" $S --layout 128x4 --k 64 --vec 32 --rows
expect_err "unknown option" "--frobnicate" $S --layout 128x4 --rows 2 --k 64 --vec 32 --frobnicate
expect_err "unexpected argument" "'extra'" $S extra --layout 128x4 --rows 2 --k 64 --vec 32
expect_err "unknown layout kind" "unknown layout kind 'fragment' (known: scale, smem)" \
    layout fragment --layout 128x4
expect_err "layout without a kind" "KIND" layout

# ---------------------------------------------------------------- smem
#
# Addresses worked by hand from the canonical layouts (softmma/tcgen05.h):
#   128B K-major, 16-bit, SBO 1024: (3, 9) = 3*128 + 9*2 = 402 = 0x192,
#     bits 4-6 (001) ^= bits 7-9 (011) -> 0x1a2 = 418;  (1, 0) = 128 ^ 16
#     = 144.
#   none K-major, 16-bit, LBO 128, SBO 256: (9, 12) = 1*16 + 1*256 + 4*2
#     + 1*128 = 408.
#   32B K-major, 4-bit: (3, 33) = 3*32 + 16 = 112 (bit 4), 112 = 0x70, bit
#     7 is 0: no swizzle.

M="layout smem"
expect_out "smem 128B k --at 3,9: formula, before swizzling, swizzle, byte" \
"smem 128B k (row 3, k 9): 16 x 64 16-bit elements, K-major, swizzle 128B, LBO 16, SBO 1024, from address 0
offset = (row%8)*128 + (row/8)*SBO + k*2
       = 3*128 + 0*1024 + 9*2
       = 402 (before swizzling)
swizzle 128B: 402 -> 418 (address bits 4-6 ^= 7-9)
= byte 418" $M 128B k --at 3,9
expect_out "smem none k --at 9,12: core matrices, LBO along K" \
"smem none k (row 9, k 12): 16 x 16 16-bit elements, K-major, swizzle none, LBO 128, SBO 256, from address 0
offset = (row%8)*16 + (row/8)*SBO + (k%8)*2 + (k/8)*LBO
       = 1*16 + 1*256 + 4*2 + 1*128
       = 408 (before swizzling)
= byte 408" $M none K --at 9,12
run_prog "$prog" $M 32B k --elem-bits 4 --at 3,33
case $tap_out in
    *"= 112, bit 4 (before swizzling)"*"= byte 112, bits 7-4") hl=$tap_rc ;;
    *) hl=1 ;;
esac
ok "$hl" "smem 32B k, 4-bit elements: (3, 33) is the high nibble of byte 112"
run_prog "$prog" $M 128B k --rows 2 --k 16
want="smem 128B k: 2 x 16 16-bit elements, K-major, swizzle 128B, LBO 16, SBO 1024, from address 0 (rows mn, cols k); cell byte address
    0   1   2   3   4   5   6   7   8   9   10  11  12  13  14  15
  0 0   2   4   6   8   10  12  14  16  18  20  22  24  26  28  30
  1 144 146 148 150 152 154 156 158 128 130 132 134 136 138 140 142"
[ "$tap_rc" -eq 0 ] && [ "$tap_out" = "$want" ]
ok $? "smem 128B k draws row 1 with its 16-byte chunks swapped"
[ "$tap_out" = "$want" ] || diag "$tap_out"

# Every --at of an MN-major 64B tile of bytes agrees with the drawn grid
# (a sample: one cell per row).
run_prog "$prog" $M 64B mn --elem-bits 8 --rows 64 --k 16
grid=$tap_out
bad=0
r=0
while [ $r -lt 64 ]; do
    c=$(( (5 * r) % 16 ))
    want=$(printf '%s\n' "$grid" | awk -v r="$r" -v c="$c" 'NR > 2 && $1 == r { print $(c + 2) }')
    run_prog "$prog" $M 64B mn --elem-bits 8 --rows 64 --k 16 --at "$r,$c"
    got=$(printf '%s\n' "$tap_out" | tail -n 1)
    if [ "$got" != "= byte $want" ]; then
        bad=$((bad + 1))
        diag "($r, $c): grid $want, --at '$got'"
    fi
    r=$((r + 3))
done
ok "$bad" "smem 64B mn: --at of 22 cells ends with the grid's byte"

run_prog "$prog" $M 128B k --html -
case $tap_out in
    "<!DOCTYPE html>"*"<title>smem 128B k</title>"*'"group":"16-byte chunk"'*"</html>") ok 0 "smem --html - writes the page, an owner being a 16-byte chunk" ;;
    *) ok 1 "smem --html - writes the page, an owner being a 16-byte chunk" ;;
esac

run_prog "$prog" $M 128B mn --svg -
cells=$(printf '%s\n' "$tap_out" | grep -c 'class="cell"')
[ "$tap_rc" -eq 0 ] && [ "$cells" = $((64 * 16)) ]
ok $? "smem 128B mn --svg - draws 64 x 16 cells (got $cells)"

expect_err "smem: an unknown swizzle" "unknown swizzle '16B' (known: none, 32B, 64B, 128B" \
    $M 16B k
expect_err "smem: an unknown majorness" "unknown majorness 'row'" $M 128B row
expect_err "smem: 128B-base32B has no canonical layout" "not modelled" $M 128B-base32B mn
expect_err "smem: K past the swizzle atom" "k 64 is outside the 128-byte swizzle atom" \
    $M 128B k --k 65
expect_err "smem: --elem-bits 6" "--elem-bits 6 is not 4, 8, 16 or 32" $M 64B k --elem-bits 6
expect_err "smem: --at outside the tile" "row 16 is outside the tile: row is 0..15" \
    $M 32B k --at 16,0
expect_exclusive "smem: --text, --svg, --html and --at: any two are refused, naming both" \
    "--text --svg=- --html=- --at=1,1" $M 32B k
expect_err "smem: no majorness" "SWIZZLE MAJOR" $M 32B

# ---------------------------------------------------------------- help

for args in "layout --help" "layout scale --help" "layout smem --help"; do
    # shellcheck disable=SC2086
    run_prog "$prog" $args
    case $nl$tap_out in
        *"${nl}Usage: softmma layout"*) hl=$tap_rc ;;
        *) hl=1 ;;
    esac
    ok "$hl" "softmma $args exits 0 and prints a Usage line"
done

run_prog "$prog" --help
case $tap_out in
    *"layout "*"scale-factor layouts"*) hl=$tap_rc ;;
    *) hl=1 ;;
esac
ok "$hl" "softmma --help lists the layout command"

tap_done
