#!/bin/sh
# shellcheck disable=SC2086  # $S is "layout scale", split on purpose
# tests/tools/layout-cli-t.sh - softmma layout scale: maps, single offsets,
# the inverse, errors, help.
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

expect_out "128x4 --at 129,4 (ragged: 130 rows, K 80, V 16)" "1552" \
    $S --layout 128x4 --rows 130 --k 80 --vec 16 --at 129,4
expect_out "128x4 --at 0,4: the second tile along K" "512" \
    $S --layout 128x4 --rows 130 --k 80 --vec 16 --at 0,4
expect_out "triton5d --at 129,4 is the same byte" "1552" \
    $S --layout triton5d --rows 130 --k 80 --vec 16 --at=129,4
expect_out "cdna4-16 --at 16,4 is op3 of lane 0: byte 3" "3" \
    $S --layout cdna4-16 --rows 32 --k 256 --vec 32 --at 16,4
expect_out "cdna4-16 --at 17,5" "71" \
    $S --layout cdna4-16 --rows 32 --k 256 --vec 32 --at 17,5
expect_out "cdna4-32 --at 0,1 is lane 32" "128" \
    $S --layout cdna4-32 --rows 32 --k 256 --vec 32 --at 0,1
expect_out "cdna4-32 --at 31,7" "255" \
    $S --layout cdna4-32 --rows 32 --k 256 --vec 32 --at 31,7
expect_out "layout names are case-insensitive" "17" \
    $S --layout 128X4 --rows 2 --k 64 --vec 32 --at 1,1

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
expect_err "unknown layout kind" "unknown layout kind 'fragment' (known: scale)" \
    layout fragment --layout 128x4
expect_err "layout without a kind" "KIND" layout

# ---------------------------------------------------------------- help

for args in "layout --help" "layout scale --help"; do
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
