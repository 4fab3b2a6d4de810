#!/bin/sh
# shellcheck disable=SC2086  # $gen, $exact and $small are option lists, split on purpose
# tests/tools/gemm-cli-t.sh - softmma gemm and softmma models: the models
# table, hand-worked products through inputs files, generated problems,
# the exact class, reproducibility, --check, errors, --bench.
#
# Expected values are worked out by hand (doc/models.md has the models),
# not pasted from the program.
#
# The three-way case of doc/models.md, "One case, three answers":
#   bf16 0x45e0 = S0 E10001011 (2^12) M1100000 (1.75) = 7168
#   bf16 0xb9e0 = S1 E01110011 (2^-12) M1100000 = -1.75 * 2^-12 = -7u,
#                 u = 2^-14, the fp32 ulp in [512, 1024)
#   bf16 0xc5c0 = S1 E10001011 (2^12) M1000000 (1.5) = -6144
#   bf16 0x3f80 = 1; so D = 7168 - 7u - 6144 = 1024 - 7u, no C.
#   exact-rn     1024 - 7u = 2^9 * (2 - 7 * 2^-23) is exact in fp32:
#                exponent 9 + 127 = 0x88, fraction 2^23 - 7 = 0x7ffff9,
#                0x88 << 23 = 0x44000000 -> 0x447ffff9; exact-rz the same.
#   fp32-fma-seq acc = 7168, then 7168 - 7u rounds at 7168's ulp 2^-11 = 8u
#                to 7168 - 8u (u away, not 7u); minus 6144 is exact:
#                1024 - 8u -> fraction 0x7ffff8 -> 0x447ffff8.
#   h100-bf16    one block, emax 12, 23 + neab 2 = 25 fraction bits: lsb
#                2^(12 - 25) = 2u; 7u = 3.5 lsb truncates to 6u:
#                1024 - 6u -> 0x447ffffa.
#   With --d bf16 (8 significant bits, ulp 4 in [512, 1024)): exact-rn
#   rounds 1024 - 7u to 1024 = 2^10 -> exponent 137 = 0x89 -> 0x4480;
#   exact-rz rounds down to 1020 = 1.9921875 * 2^9 -> 0x447f.
#
# A scaled product with a short last block (e2m1 x e2m1, e8m0 scales, V 32,
# K 33, so two scale columns, the second for k = 32 alone), fp32 C:
#   A = [6 (0x7), 0 x 31, 0.5 (0x1)], SA = [2^2 (0x81), 2^-1 (0x7e)]
#   B = [1 (0x2) x 33],               SB = [2^0 (0x7f), 2^1 (0x80)]
#   C = 1 (0x3f800000)
#   D = 1 + (6 * 4)(1 * 1) + (0.5 * 0.5)(1 * 2) = 25.5 = 1.59375 * 2^4
#     = 11001.1b: exponent 131 = 0x83, fraction .10011 = 0x4c0000
#     -> 0x41800000 | 0x4c0000 = 0x41cc0000.  Every partial sum has at most
#   6 significant bits, so every model gives the same bits.
#
# Generated shapes: e4m3 x e4m3 with e8m0 scales, V 32, fp32 C, m 2, n 3,
# k 40 has ceil(40/32) = 2 scale columns, so a saved inputs file holds the
# 9 header lines, then A (2 lines of 40 codes), SA (2 of 2), B (3 of 40),
# SB (3 of 2), C (2 of 3): 9 + 5 + 12 = 26 lines.  Codes print with 8 hex
# digits for fp32 and 4 for bf16 and fp16.
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
tmp=${TMPDIR:-/tmp}/smma-gemm-cli.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

plan_lazy

# expect_out and expect_err come from tests/tap/libtap.sh.

# run_gemm ARGS...: softmma gemm ARGS must exit 0 with nothing on stderr;
# sets $gemm_out to its stdout, or to "FAILED (exit N)" otherwise.
run_gemm() {
    run_prog "$prog" gemm "$@"
    if [ "$tap_rc" -eq 0 ] && [ -z "$tap_err" ]; then
        gemm_out=$tap_out
    else
        gemm_out="FAILED (exit $tap_rc): $tap_err"
    fi
}

# shape_of TEXT: "LINES FIELDS-PER-LINE DIGITS" when every line has the same
# number of fields and every field is 0x and the same number of lowercase
# hex digits, or "ragged" otherwise.
shape_of() {
    printf '%s\n' "$1" | awk '
        NR == 1 { nf = NF; w = length($1) }
        NF != nf { bad = 1 }
        { for (i = 1; i <= NF; i++)
              if (length($i) != w || $i !~ /^0x[0-9a-f]+$/) bad = 1 }
        END { if (bad || NR == 0) print "ragged"; else print NR, nf, w - 2 }'
}

# ---------------------------------------------------------------- models

# Status and parameters as doc/models.md gives them.
run_prog "$prog" models
models_out=$tap_out
[ "$tap_rc" -eq 0 ] && [ -z "$tap_err" ]
ok $? "models exits 0 with nothing on stderr"
for ms in "exact-rn=definition" "exact-rz=definition" "fp32-fma-seq=definition" \
    "h100-bf16=validated on H100 (mma.sync.m16n8k16 bf16 and f16, 1,000,000 cases each; wgmma m64n8k16 bf16 and f16, 100,000 cases each)" \
    "h100-fp8=validated on H100 for wgmma (m64n8k32, every e4m3/e5m2 pair, 100,000 cases each); refuted for mma.sync.m16n8k32 (0 of 10,000 cases)" \
    "b200-fp8=provisional (fits 9,999 of 10,000 published measurements)" \
    "bf16-upcast-h100=provisional" "bf16-upcast-a100=provisional" "bf16-upcast-ada=provisional" \
    "bf16-upcast-b200=provisional" "h100-fp8-promote32=provisional"; do
    m=${ms%%=*}
    want=${ms#*=}
    # The model's name line, then its kind line, then "inputs: ...; status: ...".
    seen=$(printf '%s\n' "$models_out" | awk -v m="$m" '
        $1 == m && /^[^ ]/ { f = 1; n = 0 }
        f { n++ }
        f && n == 3 { sub(/^ +inputs: .*; status: /, ""); print; exit }')
    is "$want" "$seen" "models lists $m with status: $want"
done
for mk in "exact-rn=kind exact; final rounding rn" "exact-rz=kind exact; final rounding rz" \
    "h100-bf16=fma 16, neab 2, floor -133" "h100-fp8=fma 32, neab -10" \
    "b200-fp8=fma 32, exact alignment" "bf16-upcast-h100=operands rounded to bf16 first" \
    "h100-fp8-promote32=every 32 k through h100-fp8"; do
    m=${mk%%=*}
    want=${mk#*=}
    seen=$(printf '%s\n' "$models_out" | awk -v m="$m" '
        $1 == m && /^[^ ]/ { getline; print; exit }')
    case $seen in
        *"$want"*) hl=0 ;;
        *) hl=1 ;;
    esac
    ok "$hl" "models: $m's kind line says '$want'"
    [ $hl -eq 0 ] || diag "seen: $seen"
done
expect_err "models takes no argument" "'extra'" models extra

# ---------------------------------------------------------------- inputs files

printf '%s\n' "softmma-gemm-inputs 1" "a bf16" "b bf16" "scale none" "vec 32" "c none" \
    "m 1" "n 1" "k 3" "A" "0x45e0 0xb9e0 0xc5c0" "B" "0x3f80 0x3f80 0x3f80" >"$tmp/three.txt"
expect_out "three-way case: exact-rn 1024 - 7u" "0x447ffff9" \
    gemm --inputs "$tmp/three.txt" --model exact-rn
expect_out "three-way case: exact-rz, exact too" "0x447ffff9" \
    gemm --inputs "$tmp/three.txt" --model exact-rz
expect_out "three-way case: fp32-fma-seq 1024 - 8u" "0x447ffff8" \
    gemm --inputs "$tmp/three.txt" --model fp32-fma-seq
expect_out "three-way case: h100-bf16 truncates 7u to 6u" "0x447ffffa" \
    gemm --inputs "$tmp/three.txt" --model h100-bf16
expect_out "three-way case, --d bf16: exact-rn rounds up to 1024" "0x4480" \
    gemm --inputs "$tmp/three.txt" --model exact-rn --d bf16
expect_out "three-way case, --d bf16: exact-rz rounds down to 1020" "0x447f" \
    gemm --inputs "$tmp/three.txt" --model exact-rz --d bf16

# Comments, blank lines, header keys in another order, extra blanks and a
# decimal code (17888 = 0x45e0) read the same.
printf '%s\n' "softmma-gemm-inputs 1" "# the three-way case" "" "k 3" "n 1" "m 1" "c none" \
    "vec 32" "scale none" "b bf16" "a bf16" "A" "17888   0xb9e0	0xc5c0 " "# B is K-major" \
    "B" "0x3f80 0x3f80 0x3f80" >"$tmp/three2.txt"
expect_out "an inputs file with comments, blanks and reordered keys" "0x447ffff9" \
    gemm --inputs "$tmp/three2.txt" --model exact-rn

z31=$(i=0; while [ $i -lt 31 ]; do printf ' 0x0'; i=$((i + 1)); done)
o33=$(i=0; while [ $i -lt 33 ]; do printf ' 0x2'; i=$((i + 1)); done)
printf '%s\n' "softmma-gemm-inputs 1" "a e2m1" "b e2m1" "scale e8m0" "vec 32" "c fp32" \
    "m 1" "n 1" "k 33" "A" "0x7$z31 0x1" "SA" "0x81 0x7e" "B" "${o33# }" "SB" "0x7f 0x80" \
    "C" "0x3f800000" >"$tmp/scaled.txt"
for m in exact-rn fp32-fma-seq bf16-upcast-h100 b200-fp8 h100-fp8-promote32; do
    expect_out "scales and a short last block under $m: 1 + 24 + 0.5 = 25.5" "0x41cc0000" \
        gemm --inputs "$tmp/scaled.txt" --model "$m"
done

# ---------------------------------------------------------------- generated

gen="--a e4m3 --b e4m3 --scale e8m0 --c fp32"
run_gemm $gen --m 3 --n 5 --k 40 --model exact-rn --seed 3
is "3 5 8" "$(shape_of "$gemm_out")" "generated fp32 D: 3 lines of 5 codes of 8 hex digits"
run_gemm $gen --m 3 --n 5 --k 40 --model exact-rn --seed 3 --d bf16
is "3 5 4" "$(shape_of "$gemm_out")" "--d bf16: 3 lines of 5 codes of 4 hex digits"
run_gemm --a bf16 --b fp16 --m 4 --n 1 --k 7 --model h100-bf16 --d fp16
is "4 1 4" "$(shape_of "$gemm_out")" "--d fp16, n 1: 4 lines of 1 code of 4 hex digits"

run_gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9
d_first=$gemm_out
run_gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9
is "$d_first" "$gemm_out" "the same seed gives the same D twice"
run_gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 0x9
is "$d_first" "$gemm_out" "--seed 0x9 is --seed 9"
run_gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 10
[ "$d_first" != "$gemm_out" ] && [ "$(shape_of "$gemm_out")" = "4 3 8" ]
ok $? "another seed gives another D"
run_prog "$prog" gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9 --out "$tmp/d.txt"
[ "$tap_rc" -eq 0 ] && [ -z "$tap_out" ] && [ -z "$tap_err" ] &&
    [ "$(cat "$tmp/d.txt")" = "$d_first" ]
ok $? "--out writes D to the file and nothing to stdout"

# --save-inputs, then --inputs: the same D, under two models.
run_gemm $gen --m 2 --n 3 --k 40 --model exact-rn --seed 4 --save-inputs "$tmp/in.txt"
d_gen=$gemm_out
run_gemm --inputs "$tmp/in.txt" --model exact-rn
is "$d_gen" "$gemm_out" "--save-inputs then --inputs: the same D (exact-rn)"
run_gemm $gen --m 2 --n 3 --k 40 --model h100-fp8 --seed 4
d_gen=$gemm_out
run_gemm --inputs "$tmp/in.txt" --model h100-fp8
is "$d_gen" "$gemm_out" "the saved inputs under h100-fp8: the same D as generated"
run_gemm $gen --m 2 --n 3 --k 40 --model exact-rn --seed 4 --d bf16
d_gen=$gemm_out
run_gemm --inputs "$tmp/in.txt" --model exact-rn --d bf16
is "$d_gen" "$gemm_out" "the saved inputs with --d bf16: the same D as generated"
is "softmma-gemm-inputs 1
a e4m3
b e4m3
scale e8m0
vec 32
c fp32
m 2
n 3
k 40" "$(sed -n 1,9p "$tmp/in.txt")" "the saved file's header"
is "A 2x40 SA 2x2 B 3x40 SB 3x2 C 2x3 lines 26" "$(awk '
        NR <= 9 { next }
        /^[A-Z]+$/ { if (s != "") printf "%s %dx%d ", s, r, c; s = $1; r = 0; next }
        { r++; c = NF }
        END { printf "%s %dx%d lines %d\n", s, r, c, NR }' "$tmp/in.txt")" \
    "the saved file's sections: A, SA, B, SB, C with their sizes"

# ---------------------------------------------------------------- exact class

# e4m3 x e4m3, e8m0 scales, fp32 C, m = n = 8, k = 100: every model gives
# exact-rn's bits; on random inputs of the same shape they do not.
exact="$gen --m 8 --n 8 --k 100 --class exact --seed 5"
run_gemm $exact --model exact-rn
d_exact=$gemm_out
is "8 8 8" "$(shape_of "$d_exact")" "exact class: an 8 x 8 fp32 D"
for m in exact-rz fp32-fma-seq b200-fp8-trunc h100-fp8 b200-fp8 bf16-upcast-h100 \
    h100-fp8-promote32 h100-fp8-promote16; do
    run_gemm $exact --model "$m"
    is "$d_exact" "$gemm_out" "exact class: $m gives exact-rn's D"
done
run_gemm $exact --model exact-rn --class random
d_rand=$gemm_out
run_gemm $exact --model h100-fp8 --class random
[ "$d_rand" != "$gemm_out" ]
ok $? "random class, same shape: h100-fp8 differs from exact-rn"
run_gemm --a e2m1 --b e2m1 --scale ue4m3 --vec 16 --m 4 --n 4 --k 64 --class exact \
    --seed 2 --model exact-rn
d_exact=$gemm_out
run_gemm --a e2m1 --b e2m1 --scale ue4m3 --vec 16 --m 4 --n 4 --k 64 --class exact \
    --seed 2 --model h100-fp8-promote16
is "$d_exact" "$gemm_out" "exact class, nvfp4 shape (ue4m3, V 16): promote16 = exact-rn"

# ---------------------------------------------------------------- --check

# d.txt is exact-rn's D of the 4 x 3 problem of seed 9 (written above).
run_prog "$prog" gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9 --check "$tmp/d.txt"
hl=1
[ "$tap_rc" -eq 0 ] && [ -z "$tap_err" ] &&
    [ "$tap_out" = "$tmp/d.txt: checked 12 of 12 entries of D under exact-rn: 0 mismatches" ] &&
    hl=0
ok "$hl" "--check the reference's own D: exit 0, all 12 checked, 0 mismatches"
[ $hl -eq 0 ] || diag "exit $tap_rc, stdout: $tap_out$nl stderr: $tap_err"
run_prog "$prog" gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9 --check "$tmp/d.txt" \
    --samples 5
case $tap_out in
    *": checked 5 of 12 entries of D under exact-rn: 0 mismatches") hl=$tap_rc ;;
    *) hl=1 ;;
esac
ok "$hl" "--check --samples 5: checks 5 of 12"

# Flip the last bit of D[1][2] (line 2, field 3) by its last hex digit.
awk 'NR == 2 {
        c = substr($3, length($3)); i = index("0123456789abcdef", c) - 1
        i = i % 2 ? i - 1 : i + 1
        $3 = substr($3, 1, length($3) - 1) substr("0123456789abcdef", i + 1, 1)
     } { print }' "$tmp/d.txt" >"$tmp/d-flip.txt"
want12=$(awk 'NR == 2 { print $3 }' "$tmp/d.txt")
got12=$(awk 'NR == 2 { print $3 }' "$tmp/d-flip.txt")
run_prog "$prog" gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9 \
    --check "$tmp/d-flip.txt"
line1=$(printf '%s\n' "$tap_out" | sed -n 1p)
line2=$(printf '%s\n' "$tap_out" | sed -n 2p)
nlines=$(printf '%s\n' "$tap_out" | wc -l | tr -d ' ')
is 1 "$tap_rc" "--check a D with one bit flipped: exit 1"
case $line1 in
    *": checked 12 of 12 entries of D under exact-rn: 1 mismatch"*) hl=0 ;;
    *) hl=1 ;;
esac
ok "$hl" "--check: the summary counts 1 mismatch"
[ $hl -eq 0 ] || diag "seen: $line1"
case $line2 in
    "  D[1][2]: want $want12 ("*") got $got12 ("*")") hl=0 ;;
    *) hl=1 ;;
esac
[ "$nlines" -eq 2 ] && [ -z "$tap_err" ] || hl=1
ok "$hl" "--check: one more line, D[1][2] with want $want12 and got $got12"
[ $hl -eq 0 ] || diag "seen:$nl$tap_out$nl$tap_err"
expect_err "--check a 4 x 3 D against the 2 x 3 problem of in.txt" \
    "d-flip.txt:3: more than 2 rows of D" \
    gemm --inputs "$tmp/in.txt" --model exact-rn --check "$tmp/d-flip.txt"

sed -n 1,3p "$tmp/d.txt" >"$tmp/d-short.txt"
expect_err "--check a D file with 3 rows of 4" "d-short.txt:3: expected 4 rows of D, found 3" \
    gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9 --check "$tmp/d-short.txt"
cat "$tmp/d.txt" "$tmp/d.txt" >"$tmp/d-long.txt"
expect_err "--check a D file with 8 rows of 4" "d-long.txt:5: more than 4 rows of D" \
    gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9 --check "$tmp/d-long.txt"
sed '3s/^0x[0-9a-f]*/0x1ffffffff/' "$tmp/d.txt" >"$tmp/d-wide.txt"
expect_err "--check a D file with a 33-bit code" "d-wide.txt:3: D: malformed code '0x1ffffffff'" \
    gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9 --check "$tmp/d-wide.txt"
expect_err "--check a missing file" "cannot open" \
    gemm $gen --m 4 --n 3 --k 40 --model exact-rn --check "$tmp/none.txt"
expect_err "--samples 0" "--samples: malformed count '0'" \
    gemm $gen --m 4 --n 3 --k 40 --model exact-rn --check "$tmp/d.txt" --samples 0

# ---------------------------------------------------------------- errors

small="--a e4m3 --b e4m3 --m 2 --n 2 --k 4"
expect_err "an unknown model" "--model: unknown model 'exact-nope'" gemm $small --model exact-nope
expect_err "an unknown format" "--a: unknown format 'e9m9'" \
    gemm --a e9m9 --b e4m3 --m 2 --n 2 --k 4 --model exact-rn
expect_err "--vec 24" "--vec: '24' is not 16 or 32" gemm $small --model exact-rn --vec 24
expect_err "--m 0" "--m: malformed or out-of-range size '0'" \
    gemm --a e4m3 --b e4m3 --m 0 --n 2 --k 4 --model exact-rn
expect_err "--k abc" "--k: malformed or out-of-range size 'abc'" \
    gemm --a e4m3 --b e4m3 --m 2 --n 2 --k abc --model exact-rn
expect_err "--n 16777217 is too large" "--n: malformed or out-of-range size '16777217'" \
    gemm --a e4m3 --b e4m3 --m 2 --n 16777217 --k 4 --model exact-rn
expect_err "no --model" "--model is required" gemm $small
expect_err "no --k" "--k are required" gemm --a e4m3 --b e4m3 --m 2 --n 2 --model exact-rn
expect_err "--inputs together with --m" "--inputs gives the shape" \
    gemm --inputs "$tmp/three.txt" --m 2 --model exact-rn
expect_err "--inputs together with --class" "--inputs gives the shape" \
    gemm --inputs "$tmp/three.txt" --class exact --model exact-rn
expect_err "--inputs together with --scale" "--inputs gives the shape" \
    gemm --inputs "$tmp/three.txt" --scale e8m0 --model exact-rn
expect_err "--samples without --check" "--samples needs --check" \
    gemm $small --model exact-rn --samples 5
expect_err "--bench with --out" "--bench prints only the timing" \
    gemm $small --model exact-rn --bench --out "$tmp/never.txt"
expect_err "--check with --out" "--check writes nothing" \
    gemm $gen --m 4 --n 3 --k 40 --model exact-rn --seed 9 --check "$tmp/d.txt" \
    --out "$tmp/never.txt"
[ ! -e "$tmp/never.txt" ]
ok $? "refused commands write no file"
expect_err "h100-bf16 refuses fp32 elements" "model h100-bf16" \
    gemm --a fp32 --b fp32 --m 2 --n 2 --k 4 --model h100-bf16
expect_err "h100-bf16 refuses fp16 x fp16 with ue4m3 (no scales)" \
    "model h100-bf16 takes A and B bf16 or fp16; scales none; any D; not fp16 x fp16, ue4m3" \
    gemm --a fp16 --b fp16 --scale ue4m3 --vec 16 --m 2 --n 2 --k 4 --model h100-bf16
expect_err "promote32 refuses V 16" "vec 16" \
    gemm --a e4m3 --b e4m3 --scale e8m0 --vec 16 --m 2 --n 2 --k 4 --model h100-fp8-promote32
expect_err "--class exact with --d bf16" "exact class needs fp32 D" \
    gemm $small --model exact-rn --class exact --d bf16
expect_err "--class exactly" "--class: 'exactly'" gemm $small --model exact-rn --class exactly
expect_err "e8m0 as an element format" "e8m0 is not an element format" \
    gemm --a e8m0 --b e4m3 --m 2 --n 2 --k 4 --model exact-rn
expect_err "bf16 as a scale format" "bf16 is not e8m0, ue4m3 or none" \
    gemm $small --model exact-rn --scale bf16
expect_err "e4m3 as D" "e4m3 is not fp32, bf16 or fp16" gemm $small --model exact-rn --d e4m3
expect_err "--seed -1" "--seed: malformed seed '-1'" gemm $small --model exact-rn --seed -1
expect_err "a positional argument" "unexpected argument 'extra'" gemm $small --model exact-rn extra
expect_err "an unknown option" "'--frobnicate'" gemm $small --model exact-rn --frobnicate
expect_err "--out into a missing folder" "cannot create" \
    gemm $small --model exact-rn --out "$tmp/no/d.txt"
expect_err "--inputs of a missing file" "cannot open" \
    gemm --inputs "$tmp/none.txt" --model exact-rn

# Malformed inputs files, each the three-way case with one fault.
bad() {
    # bad NAME LINE...: writes $tmp/NAME from the lines.
    bad_name=$1
    shift
    printf '%s\n' "$@" >"$tmp/$bad_name"
}
hdr="a bf16${nl}b bf16${nl}scale none${nl}vec 32${nl}c none${nl}m 1${nl}n 1${nl}k 3"
bad magic.txt "softmma-gemm-inputs 2" "$hdr" A "0x45e0 0xb9e0 0xc5c0" B "0x3f80 0x3f80 0x3f80"
expect_err "inputs: a wrong magic line" "magic.txt:1: not a softmma-gemm-inputs 1 file" \
    gemm --inputs "$tmp/magic.txt" --model exact-rn
# Line 11 is A's row: 1 magic + 8 header + "A".
bad code.txt "softmma-gemm-inputs 1" "$hdr" A "0x45e0 0xb9zz 0xc5c0" B "0x3f80 0x3f80 0x3f80"
expect_err "inputs: a bad hex code names file:line" "code.txt:11: A: malformed code '0xb9zz'" \
    gemm --inputs "$tmp/code.txt" --model exact-rn
bad big.txt "softmma-gemm-inputs 1" "$hdr" A "0x45e0 0x1b9e0 0xc5c0" B "0x3f80 0x3f80 0x3f80"
expect_err "inputs: a 17-bit code for bf16" "big.txt:11: A: malformed code '0x1b9e0'" \
    gemm --inputs "$tmp/big.txt" --model exact-rn
bad few.txt "softmma-gemm-inputs 1" "$hdr" A "0x45e0 0xb9e0 0xc5c0" B "0x3f80 0x3f80"
expect_err "inputs: too few codes on a line" "few.txt:13: B: expected 3 codes, found 2" \
    gemm --inputs "$tmp/few.txt" --model exact-rn
bad many.txt "softmma-gemm-inputs 1" "$hdr" A "0x45e0 0xb9e0 0xc5c0 0x0" B "0x3f80 0x3f80 0x3f80"
expect_err "inputs: too many codes on a line" "many.txt:11: A: more than 3 codes" \
    gemm --inputs "$tmp/many.txt" --model exact-rn
bad nosec.txt "softmma-gemm-inputs 1" "$hdr" A "0x45e0 0xb9e0 0xc5c0"
expect_err "inputs: a missing section" "missing section B" \
    gemm --inputs "$tmp/nosec.txt" --model exact-rn
bad wrongsec.txt "softmma-gemm-inputs 1" "$hdr" A "0x45e0 0xb9e0 0xc5c0" SB "0x3f80 0x3f80 0x3f80"
expect_err "inputs: another section where B belongs" "wrongsec.txt:12: expected section B" \
    gemm --inputs "$tmp/wrongsec.txt" --model exact-rn
bad tail.txt "softmma-gemm-inputs 1" "$hdr" A "0x45e0 0xb9e0 0xc5c0" B "0x3f80 0x3f80 0x3f80" \
    "0x3f80"
expect_err "inputs: trailing garbage" "tail.txt:14: unexpected text after the last section" \
    gemm --inputs "$tmp/tail.txt" --model exact-rn
bad key.txt "softmma-gemm-inputs 1" "a bf16" "b bf16" "scale none" "d fp32" "c none" \
    "m 1" "n 1" "k 3" A "0x45e0 0xb9e0 0xc5c0" B "0x3f80 0x3f80 0x3f80"
expect_err "inputs: an unknown header key" "key.txt:5: unknown key 'd'" \
    gemm --inputs "$tmp/key.txt" --model exact-rn
# A header value the parser refuses: one line, like every other error.
bad hfmt.txt "softmma-gemm-inputs 1" "a e9m9" "b bf16" "scale none" "vec 32" "c none" \
    "m 1" "n 1" "k 3" A "0x45e0 0xb9e0 0xc5c0" B "0x3f80 0x3f80 0x3f80"
expect_err "inputs: an unknown format in the header, one line" "'e9m9'" \
    gemm --inputs "$tmp/hfmt.txt" --model exact-rn

# ---------------------------------------------------------------- alpha
#
# S = 1 + 2^-24 (bf16 1 and 2^-24 = 0x3380, times 1), alpha = 1 + 2^-23
# (0x3f800001): alpha S = 1 + 2^-23 + 2^-24 + 2^-47 lies more than half an
# ulp (2^-24) above 1 + 2^-23, so exact-rn gives 1 + 2^-22 = 0x3f800002;
# exact-rz truncates to 1 + 2^-23 = 0x3f800001; h100-bf16's one block keeps
# 1 + 2^-24 in its 25 fraction bits but truncates it to fp32 (1), and
# rn(alpha * 1) = 0x3f800001.  Rounding S first would give 0x3f800001 under
# exact-rn too.
printf '%s\n' "softmma-gemm-inputs 1" "a bf16" "b bf16" "scale none" "vec 32" "c none" \
    "m 1" "n 1" "k 2" "A" "0x3f80 0x3380" "B" "0x3f80 0x3f80" >"$tmp/s24.txt"
expect_out "--alpha 0x3f800001: exact-rn rounds alpha * S once" "0x3f800002" \
    gemm --inputs "$tmp/s24.txt" --model exact-rn --alpha 0x3f800001
expect_out "--alpha 0x3f800001: exact-rz" "0x3f800001" \
    gemm --inputs "$tmp/s24.txt" --model exact-rz --alpha 0x3f800001
expect_out "--alpha 0x3f800001: h100-bf16, rn(alpha * truncated acc)" "0x3f800001" \
    gemm --inputs "$tmp/s24.txt" --model h100-bf16 --alpha 0x3f800001
expect_out "no alpha: exact-rn rounds S = 1 + 2^-24 to even, 1" "0x3f800000" \
    gemm --inputs "$tmp/s24.txt" --model exact-rn
# 1.00000011920928955078125 is 1 + 2^-23 exactly: the same as its bits.
expect_out "--alpha as a decimal: 1.00000011920928955078125 is 0x3f800001" "0x3f800002" \
    gemm --inputs "$tmp/s24.txt" --model exact-rn --alpha 1.00000011920928955078125
# The header line alpha, anywhere before A.
printf '%s\n' "softmma-gemm-inputs 1" "a bf16" "alpha 0x3f800001" "b bf16" "scale none" \
    "vec 32" "c none" "m 1" "n 1" "k 2" "A" "0x3f80 0x3380" "B" "0x3f80 0x3f80" \
    >"$tmp/s24a.txt"
expect_out "an inputs file's alpha line" "0x3f800002" \
    gemm --inputs "$tmp/s24a.txt" --model exact-rn
# -0.75 (0xbf400000) times the three-way case's 1024 - 7u is -768 + 5.25u,
# u = 2^-14 the fp32 ulp of [512, 1024): 768 - 5.25u rounds to 768 - 5u,
# 0x44400000 - 5 = 0x443ffffb, negative: 0xc43ffffb.
expect_out "--alpha -0.75 times the three-way case" "0xc43ffffb" \
    gemm --inputs "$tmp/three.txt" --model exact-rn --alpha -0.75
# Special alphas: NaN gives the canonical NaN, inf the sum's infinity.
expect_out "--alpha nan" "0x7fffffff" gemm --inputs "$tmp/three.txt" --model h100-bf16 \
    --alpha nan
expect_out "--alpha -inf times a positive sum" "0xff800000" \
    gemm --inputs "$tmp/three.txt" --model exact-rn --alpha -inf
# Generated problems: alpha 1 is no alpha; 0.375 is 0x3ec00000, and
# --save-inputs writes it as bits.
run_gemm $gen --m 3 --n 4 --k 40 --model h100-fp8 --seed 5
d_none=$gemm_out
run_gemm $gen --m 3 --n 4 --k 40 --model h100-fp8 --seed 5 --alpha 1
is "$d_none" "$gemm_out" "--alpha 1 gives the D of no alpha"
run_gemm $gen --m 3 --n 4 --k 40 --model h100-fp8 --seed 5 --alpha 0.375 \
    --save-inputs "$tmp/a375.txt"
d_dec=$gemm_out
run_gemm $gen --m 3 --n 4 --k 40 --model h100-fp8 --seed 5 --alpha 0x3ec00000
[ "$d_dec" = "$gemm_out" ] && [ "$d_dec" != "$d_none" ]
ok $? "--alpha 0.375 is --alpha 0x3ec00000, and changes D"
is "alpha 0x3ec00000" "$(grep '^alpha' "$tmp/a375.txt")" "--save-inputs writes the alpha line"
run_gemm --inputs "$tmp/a375.txt" --model h100-fp8
is "$d_dec" "$gemm_out" "the saved inputs with their alpha give the same D"
expect_err "--alpha junk" "--alpha: malformed alpha 'half'" \
    gemm --inputs "$tmp/three.txt" --model exact-rn --alpha half
expect_err "--alpha beyond fp32" "--alpha: 1e39 is out of fp32's range" \
    gemm --inputs "$tmp/three.txt" --model exact-rn --alpha 1e39
expect_err "--alpha with nine hex digits" "--alpha: malformed fp32 bit pattern '0x3f8000000'" \
    gemm --inputs "$tmp/three.txt" --model exact-rn --alpha 0x3f8000000
expect_err "--alpha as a hex float" "--alpha: malformed fp32 bit pattern '0x1p-2'" \
    gemm --inputs "$tmp/three.txt" --model exact-rn --alpha 0x1p-2
expect_err "--alpha and an inputs file with alpha" "--alpha: $tmp/s24a.txt already gives alpha" \
    gemm --inputs "$tmp/s24a.txt" --model exact-rn --alpha 2
bad alpha.txt "softmma-gemm-inputs 1" "$hdr" "alpha 1.5x" A "0x45e0 0xb9e0 0xc5c0" B \
    "0x3f80 0x3f80 0x3f80"
expect_err "inputs: a bad alpha names file:line" "alpha.txt:10: alpha: malformed alpha '1.5x'" \
    gemm --inputs "$tmp/alpha.txt" --model exact-rn
bad alpha2.txt "softmma-gemm-inputs 1" "alpha 2" "$hdr" "alpha 3" A "0x45e0 0xb9e0 0xc5c0" B \
    "0x3f80 0x3f80 0x3f80"
expect_err "inputs: alpha twice" "alpha2.txt:11: repeated key 'alpha'" \
    gemm --inputs "$tmp/alpha2.txt" --model exact-rn
bad nok.txt "softmma-gemm-inputs 1" "a bf16" "b bf16" "scale none" "vec 32" "c none" \
    "m 1" "n 1" A "0x45e0 0xb9e0 0xc5c0" B "0x3f80 0x3f80 0x3f80"
expect_err "inputs: a key missing before A" "nok.txt:9: the header ends early: no key 'k'" \
    gemm --inputs "$tmp/nok.txt" --model exact-rn

# ---------------------------------------------------------------- bench, help

run_prog "$prog" gemm $gen --m 16 --n 16 --k 64 --model exact-rn --bench
nlines=$(printf '%s\n' "$tap_out" | wc -l | tr -d ' ')
case $tap_out in
    "gemm e4m3 x e4m3 scale e8m0 vec 32 16x16x64 model exact-rn: "*" s, "*" M MAC/s")
        hl=$tap_rc ;;
    *) hl=1 ;;
esac
[ "$nlines" -eq 1 ] && [ -z "$tap_err" ] || hl=1
ok "$hl" "--bench prints one line with the shape, the model and M MAC/s"
[ $hl -eq 0 ] || diag "exit $tap_rc, stdout:$nl$tap_out$nl stderr: $tap_err"

for cmd in gemm models; do
    run_prog "$prog" "$cmd" --help
    case $nl$tap_out in
        *"${nl}Usage: softmma $cmd"*) hl=$tap_rc ;;
        *) hl=1 ;;
    esac
    ok "$hl" "$cmd --help exits 0 and prints a Usage line"
done

tap_done
