#!/bin/sh
# tests/tools/quant-matrix-cli-t.sh - softmma quant --k K --out PREFIX: an
# M x K matrix, each row quantized on its own, written as packed FP4 codes
# and the scale layouts the kernels read (.npy).
#
# The matrix (mxfp4, block 32, e8m0 scales), 2 x 40, so each row has a full
# block and a short one of 8 values padded with +0 for its scale:
#   row 0: x_i = (i+1) % 7 - 3 for i < 32 (amax 3: scale 2^(1-2) = 0x7e),
#          then 8 values 0.25 (amax 0.25 = 2^-2: scale 2^-4 = 0x7b);
#   row 1: 8 times the values of row 0's first block pattern, 40 of them
#          (first block amax 24: 2^(4-2) = 0x81).
# Every row must equal the one-row quant (no --k) of its values: the
# expected bytes are built from that output, and row 0's first packed bytes
# are worked by hand: -2, -1 at scale 1/2 are e2m1 -4 (0xe), -2 (0xc): one
# byte, the first code in the low nibble: 0xce; 0, 1 -> 0x0, 0x4: 0x40.
# An .npy file of this size has a 128-byte header (od -j128 skips it).
# 128x4 puts scale (m, kb) at (m % 32) * 16 + (m / 32 % 4) * 4 + kb % 4 in a
# 512-byte tile (doc/scale-layouts.md): (1, 0) at 16, (1, 1) at 17.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/tools/softmma
tmp=${TMPDIR:-/tmp}/smma-quant-matrix.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
plan_lazy

data() { od -An -tx1 -v -j128 "$1" | tr -s ' \n' '  ' | sed 's/^ //; s/ $//'; }

{ i=0; while [ $i -lt 32 ]; do echo $(( (i + 1) % 7 - 3 )); i=$((i + 1)); done
  i=0; while [ $i -lt 8 ]; do echo 0.25; i=$((i + 1)); done; } >"$tmp/r0"
i=0; while [ $i -lt 40 ]; do echo $(( 8 * ((i + 1) % 7 - 3) )); i=$((i + 1)); done >"$tmp/r1"
cat "$tmp/r0" "$tmp/r1" >"$tmp/m"

expect_out "quant --k --out: the summary line" \
    "mxfp4: 2 x 40 values, 2 x 2 scales of 32; written to $tmp/q.codes.npy and $tmp/q.scales.{linear,128x4,triton5d}.npy" \
    quant --format mxfp4 --k 40 --out "$tmp/q" "$tmp/m"

# The one-row answers, as bytes: scales, and codes packed low nibble first.
want_scales=''
want_codes=''
for r in r0 r1; do
    "$prog" quant --format mxfp4 "$tmp/$r" >"$tmp/$r.txt"
    want_scales="$want_scales $(awk '/^block/ { sub(/^0x/, "", $4); printf "%s ", $4 }' \
        "$tmp/$r.txt")"
    set -- $(awk '/^block/ { for (i = 7; i <= NF; i++) print $i }' "$tmp/$r.txt")
    while [ $# -ge 2 ]; do
        want_codes="$want_codes $(printf '%02x' $(( 0x$2 * 16 + 0x$1 )))"
        shift 2
    done
done
want_scales=$(echo $want_scales)
want_codes=$(echo $want_codes)
is "7e 7b 81" "$(echo "$want_scales" | cut -d' ' -f1-3)" "the rows' scales, worked by hand"
is "$want_scales" "$(data "$tmp/q.scales.linear.npy")" \
    "linear scales (2, 2): each row as the one-row quant of its values"
is "ce 40" "$(data "$tmp/q.codes.npy" | cut -d' ' -f1-2)" \
    "packed codes: two a byte, the first in the low nibble (by hand)"
is "$want_codes" "$(data "$tmp/q.codes.npy")" \
    "packed codes (2, 20): each row as the one-row quant of its values"
s128=$(data "$tmp/q.scales.128x4.npy")
is "512|7e 7b|81 $(echo "$want_scales" | cut -d' ' -f4)" \
    "$(echo $s128 | wc -w | tr -d ' ')|$(echo $s128 | cut -d' ' -f1-2)|$(echo $s128 | cut -d' ' -f17-18)" \
    "128x4: one 512-byte tile, row 1's scales at bytes 16 and 17"
is "$(head -c 10 "$tmp/q.scales.linear.npy" | od -An -tx1 | tr -d ' \n')" "934e554d505901007600" \
    "the files are .npy 1.0"

# An odd K: each row starts a byte, the last high nibble 0.  Rows 1 1 1 and
# 2 2 2: amax 1 gives scale 2^(0-2), amax 2 gives 2^(1-2), so every value is
# 4, e2m1 0x6.
printf '1\n1\n1\n2\n2\n2\n' >"$tmp/odd"
run_prog "$prog" quant --format mxfp4 --k 3 --layout linear --out "$tmp/o" "$tmp/odd"
is "0|66 06 66 06" "$tap_rc|$(data "$tmp/o.codes.npy")" \
    "odd K = 3: rows of two bytes, the last high nibble 0"
[ ! -e "$tmp/o.scales.128x4.npy" ]
ok $? "--layout linear: only that layout written"

run_prog "$prog" quant --format mxfp8e4m3 --out "$tmp/w" "$tmp/r0"
is "0|40" "$tap_rc|$(data "$tmp/w.codes.npy" | wc -w | tr -d ' ')" \
    "mxfp8 without --k: one row, one code a byte"

expect_err "--k: values that are not whole rows" "80 values are not whole rows of 7" \
    quant --format mxfp4 --k 7 --out "$tmp/x" "$tmp/m"
expect_err "--k needs --out" "--k needs --out" quant --format mxfp4 --k 40 "$tmp/m"
expect_err "--layout: an unknown layout" "--layout: " \
    quant --format mxfp4 --k 40 --layout nope --out "$tmp/x" "$tmp/m"
[ ! -e "$tmp/x.codes.npy" ]
ok $? "nothing written on a bad --layout"

tap_done
