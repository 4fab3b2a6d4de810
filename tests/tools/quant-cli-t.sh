#!/bin/sh
# tests/tools/quant-cli-t.sh - softmma quant, dequant and diff: outputs,
# round trips and errors.
#
# Expected outputs are worked out by hand (doc/profiles.md has the rules):
#   mxfp8e4m3 under cuda, values 1 2 3 448: amax 448, 448 * fp32(1/448) rounds
#   to 1, so the scale is 2^0 (0x7f); e4m3 codes 1 = 0x38, 2 = 0x40,
#   3 = 1.5 * 2 = 0x44, 448 = 0x7e.
#   The same under ocp: FLOOR(log2 448) - 8 = 0: the same bytes.
#   500 under ocp: FLOOR 8 - 8 = 0, 500 saturates to 448 (0x7e); under cuda
#   500/448 rounds up to 2 (0x80) and 250 rounds to 256 (0x78).
#   nvfp4 two-level under ocp, tensor amax 16, values 16 1: G = fp32(16/2688)
#   = 0x3bc30c31 = 0.0059523810632526875; scale 16 / (6 G) = 447.99999 ->
#   448 (0x7e); 16 / (448 G) -> 6 (0x7), 1 / (448 G) = 0.375 -> 0.5 (0x1);
#   dequantized exactly: 6 * 448 * G = 16.000000298023224 and
#   0.5 * 448 * G = 1.333333358168602.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/tools/softmma
tmp=${TMPDIR:-/tmp}/smma-quant-cli.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

plan_lazy

# expect_out and expect_err come from tests/tap/libtap.sh.

# expect_has DESC NEEDLE ARGS...: exit 0 and NEEDLE somewhere in stdout.
expect_has() {
    eh_desc=$1
    eh_needle=$2
    shift 2
    run_prog "$prog" "$@"
    eh_ok=1
    if [ "$tap_rc" -eq 0 ] && [ -z "$tap_err" ]; then
        case $tap_out in
            *"$eh_needle"*) eh_ok=0 ;;
        esac
    fi
    ok "$eh_ok" "$eh_desc"
    if [ $eh_ok -ne 0 ]; then
        diag "command: softmma $*"
        diag "wanted: exit 0 and stdout containing '$eh_needle'"
        diag "  seen: exit $tap_rc, stdout:$nl$tap_out"
        [ -z "$tap_err" ] || diag "stderr: $tap_err"
    fi
}

# ---------------------------------------------------------------- quant

printf '1 2\n3 448  # a comment\n' >"$tmp/a.txt"
q_cuda="# softmma quant --format mxfp8e4m3 --profile cuda: 4 values, 1 block of 32
format mxfp8e4m3 profile cuda values 4
block 0 scale 0x7f 2^0 codes 38 40 44 7e"
expect_out "quant mxfp8e4m3 cuda: scale 2^0, codes 1 2 3 448" \
    "$q_cuda" quant --format mxfp8e4m3 --profile cuda "$tmp/a.txt"
# run_prog closes standard input, so this one runs directly.
tap_vg_pick "$prog" quant
# shellcheck disable=SC2086
seen=$($tap_vg "$prog" quant --format mxfp8e4m3 - <"$tmp/a.txt")
is "$q_cuda" "$seen" "quant reads standard input as -"

printf '500 1\n' >"$tmp/b.txt"
expect_out "quant 500 under ocp: FLOOR 2^0, 500 saturates to 448" \
    "# softmma quant --format mxfp8e4m3 --profile ocp: 2 values, 1 block of 32
format mxfp8e4m3 profile ocp values 2
block 0 scale 0x7f 2^0 codes 7e 38" quant --format mxfp8e4m3 --profile ocp "$tmp/b.txt"
expect_out "quant 500 under cuda: RCEIL 2^1, 250 -> 256" \
    "# softmma quant --format mxfp8e4m3 --profile cuda: 2 values, 1 block of 32
format mxfp8e4m3 profile cuda values 2
block 0 scale 0x80 2^1 codes 78 30" quant --format mxfp8e4m3 --profile cuda "$tmp/b.txt"

# Raw little-endian fp32 and --bits give the same as text.
printf '\000\000\200\077\000\000\000\100\000\000\100\100\000\000\340\103' >"$tmp/a.raw"
expect_out "quant --raw: the same bytes from little-endian fp32" \
    "$q_cuda" quant --format mxfp8e4m3 --raw "$tmp/a.raw"
printf '0x3f800000 0x40000000 0x40400000 0x43e00000\n' >"$tmp/a.bits"
expect_out "quant --bits: the same bytes from fp32 bit patterns" \
    "$q_cuda" quant --format mxfp8e4m3 --bits "$tmp/a.bits"

# 33 values: two blocks, the second [3] padded with zeros: 3 * fp32(1/448)
# = 1.34 * 2^-8 rounds up to 2^-7 (0x78); 3 * 2^7 = 384 (0x7c).
i=0
: >"$tmp/c.txt"
while [ $i -lt 32 ]; do echo 1 >>"$tmp/c.txt"; i=$((i + 1)); done
echo 3 >>"$tmp/c.txt"
expect_out "quant 33 values: a full block and a padded one" \
    "# softmma quant --format mxfp8e4m3 --profile cuda: 33 values, 2 blocks of 32
format mxfp8e4m3 profile cuda values 33
block 0 scale 0x77 2^-8 codes 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78
block 1 scale 0x78 2^-7 codes 7c" quant --format mxfp8e4m3 "$tmp/c.txt"

printf '16 1\n' >"$tmp/n.txt"
q_nv="# softmma quant --format nvfp4 --profile ocp: 2 values, 1 block of 16
format nvfp4 profile ocp values 2
global 0x3bc30c31 0.0059523810632526875
block 0 scale 0x7e 448 codes 07 01"
expect_out "quant nvfp4 two-level: G, ue4m3 448, codes 6 and 0.5" \
    "$q_nv" quant --format nvfp4 --profile ocp --global-amax 16 "$tmp/n.txt"
expect_out "quant nvfp4 with the decode scale itself: the same" \
    "$q_nv" quant --format nvfp4 --profile ocp --global-scale 0x1.861862p-8 "$tmp/n.txt"

# Stochastic rounding: [6, 0.75] under cuda: 0.75 rounds up iff its word >= 2^31.
printf '6 0.75\n' >"$tmp/r.txt"
printf '0 0x7fffffff\n' >"$tmp/r.bits"
expect_out "quant --round rs --rbits: 0x7fffffff rounds 0.75 down" \
    "# softmma quant --format mxfp4 --profile cuda: 2 values, 1 block of 32
format mxfp4 profile cuda values 2
block 0 scale 0x7f 2^0 codes 07 01" quant --format mxfp4 --round rs --rbits "$tmp/r.bits" \
    "$tmp/r.txt"

# ---------------------------------------------------------------- dequant

"$prog" quant --format mxfp8e4m3 "$tmp/a.txt" >"$tmp/a.q"
expect_out "dequant gives 1 2 3 448 back" "1
2
3
448" dequant "$tmp/a.q"
expect_out "dequant --hex" "0x1p+0
0x1p+1
0x1.8p+1
0x1.cp+8" dequant --hex "$tmp/a.q"
"$prog" quant --format nvfp4 --profile ocp --global-amax 16 "$tmp/n.txt" >"$tmp/n.q"
expect_out "dequant nvfp4 two-level: element * scale * G exactly" \
    "16.000000298023224
1.333333358168602" dequant "$tmp/n.q"

# Round trip: quant | dequant | quant gives the same file.
"$prog" quant --format mxfp4 --profile ocp "$tmp/c.txt" >"$tmp/c.q"
"$prog" dequant "$tmp/c.q" >"$tmp/c.back"
run_prog "$prog" quant --format mxfp4 --profile ocp "$tmp/c.back"
is "$(cat "$tmp/c.q")" "$tap_out" "quant, dequant, quant again: the same bytes"
run_prog "$prog" dequant --raw "$tmp/a.q"
rawsum=$(cat "$tmp/a.raw" | od -An -tx1 | tr -d ' \n')
is "$rawsum" "$("$prog" dequant --raw "$tmp/a.q" | od -An -tx1 | tr -d ' \n')" \
    "dequant --raw writes the little-endian fp32 words of 1 2 3 448"

# A triton file with scale 0x00: Triton reads it as 0.
printf 'format mxfp8e4m3 profile triton values 1\nblock 0 scale 0x00 2^-127 codes 38\n' \
    >"$tmp/t.q"
expect_out "dequant under triton: e8m0 0x00 is 0" "0" dequant "$tmp/t.q"
expect_out "dequant --profile cuda: e8m0 0x00 is 2^-127" "5.8774717541114375e-39" \
    dequant --profile cuda "$tmp/t.q"

# ---------------------------------------------------------------- diff

expect_has "diff mxfp8e4m3 ocp cuda finds a difference" "ocp and cuda differ on" \
    diff --format mxfp8e4m3 ocp cuda
expect_has "diff mxfp8e4m3 ocp cuda shows amax 448 + 1 ulp decoded" \
    "x[0] = 0x43e00001 448.000031 -> ocp 0x7e 448, cuda 0x76 224  (differ)" \
    diff --format mxfp8e4m3 ocp cuda
expect_has "diff mxfp8e4m3 cuda cuda agrees" "cuda and cuda agree on all" \
    diff --format mxfp8e4m3 cuda cuda
expect_has "diff mxfp4 torchao-floor torchao-rceil finds a difference" \
    "torchao-floor and torchao-rceil differ on" diff --format mxfp4 torchao-floor torchao-rceil
expect_has "diff nvfp4 te ocp finds a difference" "te and ocp differ on" \
    diff --format nvfp4 te ocp --random 100

# ---------------------------------------------------------------- errors

printf '1\n2\nabc 3\n' >"$tmp/bad.txt"
expect_err "a malformed number names the file and line" "bad.txt:3: malformed number 'abc'" \
    quant --format mxfp8e4m3 "$tmp/bad.txt"
expect_err "quant without --format" "--format is required" quant "$tmp/a.txt"
expect_err "quant with an unknown block format" "'mxfp7'" quant --format mxfp7 "$tmp/a.txt"
expect_err "quant with an unknown profile" "'nvidia'" \
    quant --format mxfp4 --profile nvidia "$tmp/a.txt"
expect_err "quant of a missing file" "cannot open" quant --format mxfp4 "$tmp/none.txt"
: >"$tmp/empty.txt"
expect_err "quant of an empty file" "no values" quant --format mxfp4 "$tmp/empty.txt"
printf '\000\000\200' >"$tmp/short.raw"
expect_err "quant --raw of 3 bytes" "3 bytes is not a whole number" \
    quant --format mxfp4 --raw "$tmp/short.raw"
expect_err "a per-tensor scale for an MX format" "nvfp4" \
    quant --format mxfp8e4m3 --global-amax 16 "$tmp/a.txt"
expect_err "a negative global amax" "must be finite and not negative" \
    quant --format nvfp4 --global-amax -1 "$tmp/n.txt"
expect_err "--rbits without --round rs" "--rbits needs --round rs" \
    quant --format mxfp4 --rbits "$tmp/r.bits" "$tmp/r.txt"
printf '0\n' >"$tmp/r1.bits"
expect_err "--rbits with too few words" "1 random words for 2 values" \
    quant --format mxfp4 --round rs --rbits "$tmp/r1.bits" "$tmp/r.txt"

printf 'format mxfp4 profile ocp values 2\nblock 0 scale 0x7f codes 01 10\n' >"$tmp/d1.q"
expect_err "dequant: an e2m1 code that does not fit" "code 0x10 does not fit" \
    dequant "$tmp/d1.q"
printf 'format mxfp4 profile ocp values 2\nblock 1 scale 0x7f codes 01 02\n' >"$tmp/d2.q"
expect_err "dequant: a block out of order names the line" "d2.q:2: block 1 where block 0" \
    dequant "$tmp/d2.q"
printf 'format mxfp4 profile ocp values 2\nblock 0 scale 0x7f codes 01 02 03\n' >"$tmp/d3.q"
expect_err "dequant: too many codes" "d3.q:2: more than 2 codes" dequant "$tmp/d3.q"
printf 'format mxfp4 profile ocp values 40\nblock 0 scale 7f codes 01\n' >"$tmp/d4.q"
expect_err "dequant: a scale without 0x" "d4.q:2: malformed scale byte '7f'" \
    dequant "$tmp/d4.q"
printf 'format mxfp4 profile ocp values 40\n' >"$tmp/d5.q"
expect_err "dequant: missing blocks" "0 of 2 blocks present" dequant "$tmp/d5.q"
printf 'hello\n' >"$tmp/d6.q"
expect_err "dequant: no header" "d6.q:1: expected 'format F profile P values K'" \
    dequant "$tmp/d6.q"
printf 'format nvfp4 profile ocp values 1\nblock 0 scale 0xb8 codes 07\n' >"$tmp/d7.q"
expect_err "dequant: a ue4m3 scale with bit 7 set under a strict profile" "0xb8" \
    dequant "$tmp/d7.q"
expect_out "dequant: cutlass-host clears the bit" "6" dequant --profile cutlass-host "$tmp/d7.q"

# ---------------------------------------------------------------- quant --match

# [NaN, 1] in mxfp8e4m3 (doc/profiles.md): jax's round-up bits make the NaN
# amax 0x100, kept to 8 bits: scale 0x00, then 1 / 2^-127 saturates to 448
# (0x7e) and the NaN stays NaN (0x7f); pytorch gives 0xff and 1 * 2^-128 ->
# 0; cuda and triton-mxfp 0xff and NaN everywhere.
printf 'nan 1\n' >"$tmp/m.txt"
printf 'format mxfp8e4m3 profile - values 2\nblock 0 scale 0x00 codes 7f 7e\n' >"$tmp/m-jax.q"
expect_has "quant --match: only jax and jax-jit give a NaN block scale 0x00" \
    "${nl}match: jax jax-jit$nl" quant --match "$tmp/m-jax.q" "$tmp/m.txt"
printf 'format mxfp8e4m3 profile - values 2\nblock 0 scale 0xff codes 7f 00\n' >"$tmp/m-pt.q"
expect_has "quant --match: pytorch alone multiplies by 2^-128" "${nl}match: pytorch$nl" \
    quant --match "$tmp/m-pt.q" "$tmp/m.txt"
expect_has "quant --match: the nearest others name the first differing byte" \
    "first block 0 scale: 0x00 given, 0xff under" quant --match "$tmp/m-jax.q" "$tmp/m.txt"
# What quant prints, matched back: its own profile is among the matches.
for p in pytorch jax jax-jit triton-mxfp; do
    "$prog" quant --format mxfp4 --profile $p "$tmp/c.txt" >"$tmp/c-$p.q" 2>/dev/null
    run_prog "$prog" quant --match "$tmp/c-$p.q" "$tmp/c.txt"
    case " $(printf '%s\n' "$tap_out" | sed -n 's/^match://p') " in
        *" $p "*) mm=$tap_rc ;;
        *) mm=1 ;;
    esac
    ok "$mm" "quant --match finds $p in what quant --profile $p printed"
done
# 1 3 quantized by nobody: exit 1, 'match: none', the first difference.
printf '1 3\n' >"$tmp/m2.txt"
printf 'format mxfp8e4m3 profile - values 2\nblock 0 scale 0x7f codes 38 40\n' >"$tmp/m2.q"
run_prog "$prog" quant --match "$tmp/m2.q" --show 1 "$tmp/m2.txt"
case $tap_out in
    *"${nl}match: none$nl"*"of 1 block differ; first block 0 "*) mn=$tap_rc ;;
    *) mn=0 ;;
esac
[ "$mn" -eq 1 ] && mn=0 || mn=1
ok "$mn" "quant --match: no profile reproduces it: exit 1, match: none, the nearest one"
[ "$mn" -eq 0 ] || diag "exit $tap_rc: $tap_out"
expect_err "quant --match with --profile" "it takes no --profile" \
    quant --match "$tmp/m2.q" --profile cuda "$tmp/m2.txt"
expect_err "quant --match: a count that differs" "quantizes 2 values, the input has 4" \
    quant --match "$tmp/m2.q" "$tmp/a.txt"
expect_err "quant --match: a --format the file does not hold" \
    "--format mxfp4, but $tmp/m2.q holds mxfp8e4m3" \
    quant --match "$tmp/m2.q" --format mxfp4 "$tmp/m2.txt"
expect_err "quant --match: an unknown --format" "unknown block format 'fp9'" \
    quant --match "$tmp/m2.q" --format fp9 "$tmp/m2.txt"
printf 'format mxfp8e4m3 profile - values 2\nblock 0 scale 0x7f codes 38 zz\n' >"$tmp/m3.q"
expect_err "quant --match: a malformed code names the line" "m3.q:2: malformed code 'zz'" \
    quant --match "$tmp/m3.q" "$tmp/m2.txt"
printf 'format mxfp4 profile - values 2\nblock 0 scale 0x7f codes 38 01\n' >"$tmp/m4.q"
expect_err "quant --match: a code too wide for the format" "code 0x38 does not fit 4-bit" \
    quant --match "$tmp/m4.q" "$tmp/m2.txt"
expect_err "quant --match: --show out of range" "--show: malformed count '1001'" \
    quant --match "$tmp/m2.q" --show 1001 "$tmp/m2.txt"
expect_err "quant --show without --match" "--show goes with --match" \
    quant --format mxfp4 --show 2 "$tmp/m2.txt"
# jax on bf16 inputs rounds amax / 6 to bf16: amax (1.5 + 2^-7) 2^-125 gives
# the ratio 2^-127 (1 + 2^-7 / 1.5), a subnormal that rounds to 2^-127 in
# bf16 (its step is 2^-133): the round-up bits give 0x00 (x / 2^-127 = 6.03
# clips to 6, 0x7) instead of fp32's 0x01 (x / 2^-126 = 3.016 -> 3, 0x5).
printf '0x1.82p-125\n' >"$tmp/j.txt"
expect_has "quant jax, fp32 input: ratio kept in fp32, scale 0x01" \
    "block 0 scale 0x01 2^-126 codes 05" quant --format mxfp4 --profile jax "$tmp/j.txt"
expect_has "quant jax --bf16: the ratio rounds to 2^-127 in bf16, scale 0x00" \
    "block 0 scale 0x00 2^-127 codes 07" quant --format mxfp4 --profile jax --bf16 "$tmp/j.txt"
expect_has "quant pytorch --bf16: pytorch computes in fp32 whatever the input" \
    "block 0 scale 0x01 2^-126 codes 05" quant --format mxfp4 --profile pytorch --bf16 \
    "$tmp/j.txt"
# bf16 450 in mxfp8e4m3: op by op (jax) bf16(450 / 448) = 1.0078 rounds up to
# scale 0x80 and 450 / 2 = 225 -> 224 (0x76); under jit (jax-jit) XLA
# multiplies by bf16(1 / 448): bf16(450 * 0.0022277832) = 1.0, scale 0x7f, and
# 450 clips to 448 (0x7e).  In fp32 both give 0x80.
printf '450\n' >"$tmp/j450.txt"
expect_has "quant jax --bf16: 450 / 448 in bf16, scale 0x80" \
    "block 0 scale 0x80 2^1 codes 76" quant --format mxfp8e4m3 --profile jax --bf16 "$tmp/j450.txt"
expect_has "quant jax-jit --bf16: 450 * bf16(1/448) is 1 in bf16, scale 0x7f" \
    "block 0 scale 0x7f 2^0 codes 7e" quant --format mxfp8e4m3 --profile jax-jit --bf16 \
    "$tmp/j450.txt"
expect_has "quant jax-jit, fp32 input: 0x80 as op by op" \
    "block 0 scale 0x80 2^1 codes 76" quant --format mxfp8e4m3 --profile jax-jit "$tmp/j450.txt"
printf '1 448.5\n' >"$tmp/m5.txt"
expect_err "quant --bf16: the first value that is not bf16 is named" "x[1] = 0x43e04000" \
    quant --format mxfp8e4m3 --bf16 "$tmp/m5.txt"

expect_err "diff with one profile" "usage: softmma diff" diff --format mxfp4 ocp
expect_err "diff with an unknown profile" "'nvidia'" diff --format mxfp4 ocp nvidia

for cmd in quant dequant diff; do
    run_prog "$prog" "$cmd" --help
    case $nl$tap_out in
        *"${nl}Usage: softmma $cmd"*) hl=$tap_rc ;;
        *) hl=1 ;;
    esac
    ok "$hl" "$cmd --help exits 0 and prints a Usage line"
done

tap_done
