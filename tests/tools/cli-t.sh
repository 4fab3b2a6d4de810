#!/bin/sh
# tests/tools/cli-t.sh - the softmma program: decode, encode, errors, help.
#
# Every expected line below is worked out by hand from the format
# definitions (shared FACTS.md sections 1 and 2), not pasted from the
# program.  Output shapes: decode prints "FORMAT CODE VALUE HEXFLOAT" and
# encode "FORMAT INPUT CODE DECODED", with VALUE as %.17g (or nan, -nan,
# inf, -inf), HEXFLOAT as C99 %a, and CODE as 0x followed by at least two
# hex digits (softmma prints 4- and 6-bit codes with two digits too).
#
# Worked values used below:
#   e4m3 0x7e = S0 E1111 M110 = 1.75 * 2^(15-7) = 448 = 0x1.cp+8
#   e4m3 0x38 = S0 E0111 M000 = 1;  0x08 = 2^-6 (smallest normal);
#   e4m3 0x01 = 1/8 * 2^-6 = 2^-9 (smallest subnormal); 1.5 = 0x3c
#   e5m2 0x7c = +Inf, max finite 0x7b = 1.75 * 2^15 = 57344;
#   61440 is the midpoint of 57344 (odd mantissa 11) and 2^16, so RN goes up
#   e8m0 0x00 = 2^-127 = 5.8774717541114375e-39, 0x7f = 1, 0x80 = 2
#   e2m1 codes 0..7 = 0 0.5 1 1.5 2 3 4 6, codes 8..f the same negated
#
# The program is $SMMA_BUILDDIR/tools/softmma; every run goes through
# run_prog so that SMMA_VALGRIND can wrap it.

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

# ---------------------------------------------------------------- decode

expect_out "decode e4m3 0x7e is 448 (largest finite)" \
    "e4m3 0x7e 448 0x1.cp+8" decode e4m3 0x7e
expect_out "decode e4m3 0x7f is nan (the only NaN, positive)" \
    "e4m3 0x7f nan nan" decode e4m3 0x7f
expect_out "decode e4m3 0xff is -nan" \
    "e4m3 0xff -nan -nan" decode e4m3 0xff
expect_out "decode e5m2 0x7c is inf" \
    "e5m2 0x7c inf inf" decode e5m2 0x7c
expect_out "decode e5m2 0xfc is -inf" \
    "e5m2 0xfc -inf -inf" decode e5m2 0xfc
expect_out "decode e8m0 0x00 is 2^-127, not zero" \
    "e8m0 0x00 5.8774717541114375e-39 0x1p-127" decode e8m0 0x00
expect_out "decode e8m0 0xff is nan, not inf" \
    "e8m0 0xff nan nan" decode e8m0 0xff
expect_out "decode e8m0 0x7f is 1 and 0x80 is 2" \
    "e8m0 0x7f 1 0x1p+0${nl}e8m0 0x80 2 0x1p+1" decode e8m0 0x7f 0x80

e2m1_all="e2m1 0x00 0 0x0p+0
e2m1 0x01 0.5 0x1p-1
e2m1 0x02 1 0x1p+0
e2m1 0x03 1.5 0x1.8p+0
e2m1 0x04 2 0x1p+1
e2m1 0x05 3 0x1.8p+1
e2m1 0x06 4 0x1p+2
e2m1 0x07 6 0x1.8p+2
e2m1 0x08 -0 -0x0p+0
e2m1 0x09 -0.5 -0x1p-1
e2m1 0x0a -1 -0x1p+0
e2m1 0x0b -1.5 -0x1.8p+0
e2m1 0x0c -2 -0x1p+1
e2m1 0x0d -3 -0x1.8p+1
e2m1 0x0e -4 -0x1p+2
e2m1 0x0f -6 -0x1.8p+2"
expect_out "decode e2m1: all 16 codes, 0x0..0xf" \
    "$e2m1_all" decode e2m1 0x0 0x1 0x2 0x3 0x4 0x5 0x6 0x7 \
    0x8 0x9 0xa 0xb 0xc 0xd 0xe 0xf

expect_out "decode several codes in one call, hex and decimal" \
    "e4m3 0x38 1 0x1p+0
e4m3 0x08 0.015625 0x1p-6
e4m3 0x01 0.001953125 0x1p-9
e4m3 0x7e 448 0x1.cp+8" decode e4m3 56 0x08 1 0x7e

expect_out "decode ue4m3 0x7e is 448 and 0x7f nan" \
    "ue4m3 0x7e 448 0x1.cp+8${nl}ue4m3 0x7f nan nan" decode ue4m3 0x7e 0x7f
expect_err "decode ue4m3 0x80 is rejected (MSB set, strict by default)" \
    "0x80" decode ue4m3 0x80
expect_err "decode ue4m3 0x80 after a valid code prints nothing" \
    "0x80" decode ue4m3 0x38 0x80
expect_out "decode --lenient ue4m3 0x80 clears the MSB: 0" \
    "ue4m3 0x80 0 0x0p+0" decode --lenient ue4m3 0x80
expect_out "decode ue4m3 0xfe --lenient is 448" \
    "ue4m3 0xfe 448 0x1.cp+8" decode ue4m3 0xfe --lenient

expect_err "decode: malformed code 0xZZ" "0xZZ" decode e4m3 0xZZ
expect_err "decode: malformed code 12abc after a valid one" "12abc" decode e4m3 0x7e 12abc
expect_err "decode: empty code" "''" decode e4m3 0x01 ""
expect_err "decode: negative code -1" "-1" decode e4m3 0x01 -1
expect_err "decode: 0x100 does not fit in e4m3" "0x100" decode e4m3 0x7e 0x100
expect_err "decode: 0x10 does not fit in e2m1" "0x10" decode e2m1 0x10

# ---------------------------------------------------------------- encode

expect_out "encode e4m3 448 is 0x7e" "e4m3 448 0x7e 448" encode e4m3 448
expect_out "encode e4m3 464 ties to even: 0x7e" "e4m3 464 0x7e 448" encode e4m3 464
expect_out "encode e4m3 465 saturates by default (cuda profile)" \
    "e4m3 465 0x7e 448" encode e4m3 465
expect_out "encode e4m3 --nosat 465 overflows to NaN" \
    "e4m3 465 0x7f nan" encode e4m3 --nosat 465
expect_out "encode e4m3 -465 --nosat overflows to -NaN" \
    "e4m3 -465 0xff -nan" encode e4m3 -465 --nosat
expect_out "encode e5m2 --nosat 61440 rounds to inf" \
    "e5m2 61440 0x7c inf" encode e5m2 --nosat 61440
expect_out "encode e5m2 61440 saturates by default" \
    "e5m2 61440 0x7b 57344" encode e5m2 61440

expect_out "encode e2m1 0.25 ties to even: 0" "e2m1 0.25 0x00 0" encode e2m1 0.25
expect_out "encode e2m1 0.75 ties to even: 1" "e2m1 0.75 0x02 1" encode e2m1 0.75
expect_out "encode e2m1 5 ties to even: 4" "e2m1 5 0x06 4" encode e2m1 5
expect_out "encode e2m1 --round ra 5 ties away: 6" \
    "e2m1 5 0x07 6" encode e2m1 --round ra 5
expect_out "encode e2m1 -1.5 is a value, not an option" \
    "e2m1 -1.5 0x0b -1.5" encode e2m1 -1.5
expect_out "encode e2m1 several values, negatives among them" \
    "e2m1 -6 0x0f -6
e2m1 1 0x02 1
e2m1 -0.5 0x09 -0.5" encode e2m1 -6 1 -0.5
expect_out "encode e4m3 hex-float 0x1.8p+0 is 1.5" \
    "e4m3 0x1.8p+0 0x3c 1.5" encode e4m3 0x1.8p+0
expect_out "encode e4m3 --bits 0x3fc00000 (fp32 1.5)" \
    "e4m3 0x3fc00000 0x3c 1.5" encode e4m3 --bits 0x3fc00000

expect_out "encode e2m1 nan under cuda: +max" \
    "e2m1 nan 0x07 6" encode e2m1 --profile cuda nan
expect_out "encode e2m1 -nan under cuda: +max too" \
    "e2m1 -nan 0x07 6" encode e2m1 --profile cuda -- -nan
expect_out "encode e2m1 -nan under cutlass-host: -max" \
    "e2m1 -nan 0x0f -6" encode e2m1 --profile cutlass-host -nan
expect_out "encode e2m1 nan under ml_dtypes: -0" \
    "e2m1 nan 0x08 -0" encode e2m1 --profile ml_dtypes nan

expect_out "encode e8m0 1.5 --round rz: 1" "e8m0 1.5 0x7f 1" encode e8m0 --round rz 1.5
expect_out "encode e8m0 1.5 --round rp: 2" "e8m0 1.5 0x80 2" encode e8m0 --round rp 1.5
expect_out "encode e8m0 0 under cuda: 0x00 (2^-127)" \
    "e8m0 0 0x00 5.8774717541114375e-39" encode e8m0 --profile cuda 0

# Stochastic: 0.75 lies halfway from 0.5 to 1, so frac * 2^32 = 2^31 and it
# rounds up exactly when rbits >= 2^31.
expect_out "encode rs rbits 0: 0.75 rounds down to 0.5" \
    "e2m1 0.75 0x01 0.5" encode e2m1 --round rs --rbits 0 0.75
expect_out "encode rs rbits 0xffffffff: 0.75 rounds up to 1" \
    "e2m1 0.75 0x02 1" encode e2m1 --round rs --rbits 0xffffffff 0.75
expect_out "encode rs rbits 0x7fffffff: just below the threshold, down" \
    "e2m1 0.75 0x01 0.5" encode e2m1 --round rs --rbits 0x7fffffff 0.75
expect_out "encode rs rbits 0x80000000: at the threshold, up" \
    "e2m1 0.75 0x02 1" encode e2m1 --round rs --rbits 0x80000000 0.75
expect_err "encode --rbits without --round rs" "--rbits" encode e2m1 --rbits 5 0.75

# ---------------------------------------------------------------- errors

expect_err "unknown format in decode" "e9m9" decode e9m9 0x00
expect_err "unknown format in encode" "e9m9" encode e9m9 1
expect_err "unknown rounding mode" "rq" encode e4m3 --round rq 1
expect_err "unknown profile" "nvidia" encode e4m3 --profile nvidia 1
expect_err "unknown option in encode" "--frobnicate" encode e4m3 --frobnicate 1
expect_err "unknown option in decode" "--nosat" decode e4m3 --nosat 0x01
expect_err "unknown subcommand" "frobnicate" frobnicate
expect_err "decode without a code" "CODE" decode e4m3
expect_err "decode without format and code" "FORMAT" decode
expect_err "encode without a value" "VALUE" encode e4m3
expect_err "encode --round without its value" "--round" encode e4m3 1 --round
expect_err "encode: malformed number" "1.5x" encode e4m3 1 1.5x
expect_err "encode: malformed --bits argument" "0x1p0" encode e4m3 --bits 0x1p0
expect_err "formats takes no argument" "extra" formats extra

run_prog "$prog"
if [ "$tap_rc" -eq 2 ] && [ -z "$tap_out" ] && [ -n "$tap_err" ]; then
    ok 0 "no subcommand: exit 2, usage on stderr only"
else
    ok 1 "no subcommand: exit 2, usage on stderr only"
    diag "seen: exit $tap_rc, stdout: $tap_out"
fi

# ---------------------------------------------------------------- help, tables

for cmd in formats decode encode profiles tour; do
    run_prog "$prog" "$cmd" --help
    case $nl$tap_out in
        *"${nl}Usage: softmma $cmd"*) hl=0 ;;
        *) hl=1 ;;
    esac
    [ "$tap_rc" -eq 0 ] || hl=1
    ok "$hl" "$cmd --help exits 0 and prints a Usage line"
    [ $hl -eq 0 ] || diag "exit $tap_rc, stdout:$nl$tap_out"
done

run_prog "$prog" --help
case $tap_out in
    Usage:*) hl=$tap_rc ;;
    *) hl=1 ;;
esac
ok "$hl" "softmma --help exits 0 and prints a Usage line"

# Name, value bits, sign, exponent and mantissa bits, bias, smallest
# subnormal and largest finite value (%.9g) of each format, in table order.
formats_want="e2m1 4 yes 2 1 1 2^-1 6
e2m3 6 yes 2 3 1 2^-3 7.5
e3m2 6 yes 3 2 3 2^-4 28
e4m3 8 yes 4 3 7 2^-9 448
e5m2 8 yes 5 2 15 2^-16 57344
e8m0 8 no 8 0 127 2^-127 1.70141183e+38
ue4m3 7 no 4 3 7 2^-9 448
bf16 16 yes 8 7 127 2^-133 3.38953139e+38
fp16 16 yes 5 10 15 2^-24 65504
fp32 32 yes 8 23 127 2^-149 3.40282347e+38"
run_prog "$prog" formats
f_lines=$(printf '%s\n' "$tap_out" | wc -l | tr -d ' ')
f_head=$(printf '%s\n' "$tap_out" | sed -n 1p | awk '{print $1}')
[ "$tap_rc" -eq 0 ] && [ "$f_lines" -eq 11 ] && [ "$f_head" = format ]
ok $? "formats prints a header and 10 format lines"
f_seen=$(printf '%s\n' "$tap_out" | sed 1d | awk '{print $1, $2, $3, $4, $5, $6, $7, $9}')
is "$formats_want" "$f_seen" "formats: shape and range of each format"

# The full tour verifies every committed suite, which takes valgrind many
# minutes; tests/tools/tour-t.sh memchecks the tour without vectors, so
# this one runs without it, as tour-t's full tours do.
vg=${SMMA_VALGRIND:-}
SMMA_VALGRIND=
run_prog "$prog" tour
SMMA_VALGRIND=$vg
case $tap_out in
    *e2m1*e8m0*) hl=$tap_rc ;;
    *) hl=1 ;;
esac
ok "$hl" "tour exits 0 and mentions e2m1 and e8m0"
[ -z "$tap_err" ]
ok $? "tour writes nothing on stderr"

run_prog "$prog" profiles
for p in cuda ocp ml_dtypes cutlass-host; do
    case $nl$tap_out in
        *"$nl$p:"*) hl=$tap_rc ;;
        *) hl=1 ;;
    esac
    ok "$hl" "profiles lists $p"
done

tap_done
