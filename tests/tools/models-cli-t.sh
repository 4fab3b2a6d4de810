#!/bin/sh
# tests/tools/models-cli-t.sh - what each model takes (softmma models
# --inputs, the refusal of softmma gemm --model), the unknown-model message,
# softmma help COMMAND and the progress line of long work.
#
# The sets of each model come from the committed vector suites (a model
# takes at least what vectors/ computes under it; doc/models.md): h100-fp8
# e4m3 and e5m2 without scales or with e8m0 (gemm.mxfp8.model.h100-fp8);
# b200-fp8 every fp4, fp6 and fp8 pair, scales or none (mma.m16n8k64.mxf4,
# gemm.nvfp4.model.b200-fp8); h100-f16acc bf16 or fp16 with an fp16 D.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/tools/softmma
tmp=${TMPDIR:-/tmp}/smma-models-cli.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

plan_lazy

# names ARGS...: the model names (first column of the name lines) that
# softmma ARGS prints, space-separated; sets $tap_rc.
names() {
    run_prog "$prog" "$@"
    printf '%s\n' "$tap_out" | awk '/^[^ ]/ { printf "%s%s", n++ ? " " : "", $1 }'
}

# ---------------------------------------------------------------- models --inputs

is "exact-rn exact-rz fp32-fma-seq b200-fp8 bf16-upcast-h100 bf16-upcast-a100 bf16-upcast-ada bf16-upcast-b200 h100-fp8-promote32 h100-fp8-promote16" \
    "$(names models --inputs e2m1)" "models --inputs e2m1: the models that take MXFP4/NVFP4"
is "exact-rn exact-rz fp32-fma-seq ada-fp8 h100-fp8 b200-fp8 b200-fp8-trunc h100-fp8-mma-sync cublaslt-fp8-promoted cublaslt-fp8-fast triton-dot-fp8" \
    "$(names models --inputs e4m3,e5m2 --scale none)" \
    "models --inputs e4m3,e5m2 --scale none: fp8 models and their aliases"
is "exact-rn exact-rz fp32-fma-seq a100-bf16 ada-bf16 h100-bf16 b200-bf16 h100-f16acc cublaslt-bf16 triton-dot-bf16" \
    "$(names models --inputs fp16 --scale none --d fp16)" \
    "models --inputs fp16 --scale none --d fp16: h100-f16acc among them"
case " $(names models --inputs fp16 --scale none --d fp32) " in
    *" h100-f16acc "*) hl=1 ;;
    *) hl=0 ;;
esac
ok $hl "models --inputs fp16 --d fp32 leaves out h100-f16acc (fp16 D only)"
run_prog "$prog" models
case $tap_out in
    *"inputs: A and B e4m3 or e5m2; scales none or e8m0; any D; status: validated on H100 for wgmma"*)
        hl=0 ;;
    *) hl=1 ;;
esac
ok $hl "models shows what h100-fp8 takes"
expect_err "models --inputs: an unknown format" "--inputs: unknown format 'e9m9'" \
    models --inputs e9m9
expect_err "models --inputs: a scale format as elements" "e8m0 is not an element format" \
    models --inputs e8m0
expect_err "models --scale without --inputs" "give --inputs too" models --scale e8m0
expect_err "models --scale: unknown format" "--scale: unknown format 'e7'" \
    models --inputs e4m3 --scale e7

# ---------------------------------------------------------------- refusals

gen="--m 2 --n 3 --k 64"
# shellcheck disable=SC2086  # $gen is an option list
expect_err "gemm: h100-fp8 refuses MXFP4, naming what it takes" \
    "model h100-fp8 takes A and B e4m3 or e5m2; scales none or e8m0; any D; not e2m1 x e2m1, e8m0 scales, D fp32" \
    gemm --model h100-fp8 --a e2m1 --b e2m1 --scale e8m0 $gen
# shellcheck disable=SC2086
expect_err "gemm: h100-f16acc refuses an fp32 D" "model h100-f16acc takes A and B bf16 or fp16; scales none; D fp16" \
    gemm --model h100-f16acc --a fp16 --b fp16 $gen
# shellcheck disable=SC2086
run_prog "$prog" gemm --model h100-f16acc --a fp16 --b fp16 --d fp16 $gen
[ "$tap_rc" -eq 0 ] && [ -z "$tap_err" ] && [ "$(printf '%s\n' "$tap_out" | wc -l)" -eq 2 ]
ok $? "gemm: h100-f16acc computes fp16 x fp16 with an fp16 D"
# shellcheck disable=SC2086
expect_err "gemm: an alias refuses under its model's name" "model h100-fp8 takes" \
    gemm --model triton-dot-fp8 --a bf16 --b bf16 $gen

# ---------------------------------------------------------------- unknown model

run_prog "$prog" gemm --model nosuch --a e4m3 --b e4m3 --m 1 --n 1 --k 1
# Every model and every alias (with its model) appears, whole, on one line.
hl=0
for m in $(names models); do
    case $tap_err in
        *" $m "* | *" $m;"* | *" $m)"* | *"($m)"* | *"known: $m "*) ;;
        *) hl=1; diag "missing: $m" ;;
    esac
done
[ "$tap_rc" -eq 2 ] && [ "$(printf '%s\n' "$tap_err" | wc -l)" -eq 1 ] || hl=1
ok $hl "gemm --model nosuch lists every model and alias in full (${#tap_err} bytes)"
case $tap_err in
    *"aliases: cublaslt-bf16 (h100-bf16) "*"triton-dot-fp8 (h100-fp8))") hl=0 ;;
    *) hl=1 ;;
esac
ok $hl "the aliases close the list, each with its model"

# ---------------------------------------------------------------- help COMMAND

for c in gemm models tour diff; do
    run_prog "$prog" "$c" --help
    direct=$tap_out
    run_prog "$prog" help "$c"
    [ "$tap_rc" -eq 0 ] && [ -n "$tap_out" ] && [ "$tap_out" = "$direct" ] && [ -z "$tap_err" ]
    ok $? "help $c prints what $c --help prints"
done
run_prog "$prog" --help
top=$tap_out
run_prog "$prog" help
is "$top" "$tap_out" "help alone prints the usage"
expect_err "help: an unknown command" "help: unknown command 'nosuch'" help nosuch
expect_err "help: one command only" "help takes one command" help gemm models

# ---------------------------------------------------------------- progress

# Not on a terminal: nothing on stderr, whatever the size.
run_prog "$prog" gemm --model exact-rn --a e4m3 --b e4m3 --m 64 --n 64 --k 64
[ "$tap_rc" -eq 0 ] && [ -z "$tap_err" ]
ok $? "gemm: no progress when stderr is not a terminal"
# Forced (SOFTMMA_PROGRESS=1): the line, rewritten, then cleared; D unchanged.
d_plain=$tap_out
SOFTMMA_PROGRESS=1 "$prog" gemm --model exact-rn --a e4m3 --b e4m3 --m 64 --n 64 --k 64 \
    >"$tmp/d" 2>"$tmp/err"
is "$d_plain" "$(cat "$tmp/d")" "gemm: progress leaves D as it is"
esc=$(printf '\033')
cr=$(printf '\r')
is "${cr}gemm: row 0 of 64${esc}[K${cr}${esc}[K" "$(cat "$tmp/err")" \
    "gemm: 'row R of M' for each block of rows, then cleared"
SOFTMMA_PROGRESS=1 "$prog" diff --format mxfp8e4m3 --random 2 ocp cuda >"$tmp/d" 2>"$tmp/err"
n=$(tr '\r' '\n' <"$tmp/err" | grep -c '^diff: [0-9]* blocks searched')
last=$(tail -c 7 "$tmp/err" | od -An -c | tr -d ' \n')
[ "$n" -gt 1000 ] && [ "$last" = '\r033[K\r033[K' ] || [ "$last" = '033[K\r033[K' ]
ok $? "diff: 'N blocks searched' ($n lines), then cleared"
SOFTMMA_PROGRESS=0 script -qec "$prog gemm --model exact-rn --a e4m3 --b e4m3 --m 8 --n 8 --k 8 >/dev/null" \
    /dev/null >"$tmp/tty" 2>&1 </dev/null
[ ! -s "$tmp/tty" ]
ok $? "SOFTMMA_PROGRESS=0: none on a terminal"
# On a terminal (script(1)'s pty), after the first second of a ~2 s product.
if command -v script >/dev/null 2>&1; then
    script -qec "$prog gemm --model exact-rn --a e4m3 --b e4m3 --m 512 --n 512 --k 2048 >/dev/null" \
        /dev/null >"$tmp/tty" 2>&1 </dev/null
    tr '\r' '\n' <"$tmp/tty" | grep -q '^gemm: row [0-9]* of 512' &&
        ! tr '\r' '\n' <"$tmp/tty" | grep -q '^gemm: row 0 of 512'
    ok $? "gemm on a terminal: the line after a second, not at row 0"
    script -qec "$prog gemm --model exact-rn --a e4m3 --b e4m3 --m 8 --n 8 --k 8 >/dev/null" \
        /dev/null >"$tmp/tty" 2>&1 </dev/null
    [ ! -s "$tmp/tty" ]
    ok $? "gemm on a terminal: nothing for work under a second"
else
    ok 0 "gemm on a terminal # SKIP script(1) (util-linux) not found"
fi

tap_done
