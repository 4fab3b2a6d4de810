#!/bin/sh
# shellcheck disable=SC2086  # $bf and $mx are option lists, split on purpose
# tests/tools/gpu-cli-t.sh - softmma gpu and softmma gemm --on gpu.
#
# Without a device (or without CUDA) both must exit 2 with one line on
# stderr that gives the reason, and print nothing on stdout.  The argument
# checks (--on, --kernel, --check COUNT, --samples) come before the device is
# looked for, so they are tested on every machine.  With a device, the
# GPU's D is compared with the reference's D under the model softmma gpu
# names for the kernel (the kernels reproduce it bit for bit), every kernel
# that runs here is checked on all entries of a generated problem, and
# --bench and a refused problem are tried; without one those points skip.
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
tmp=${TMPDIR:-/tmp}/smma-gpu-cli.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

plan_lazy

# skip DESCRIPTION: a test point skipped with the reason.
skip() {
    tap_count=$((tap_count + 1))
    echo "ok $tap_count # SKIP $*"
}

# has TEXT NEEDLE: 0 when TEXT contains NEEDLE.
has() {
    case $1 in
        *"$2"*) return 0 ;;
    esac
    return 1
}

bf="--a bf16 --b bf16"
mx="--a e4m3 --b e4m3 --scale e8m0 --vec 32"

# ---------------------------------------------------------------- usage

run_prog "$prog" gpu --help
has "$nl$tap_out" "${nl}Usage: softmma gpu" && [ "$tap_rc" -eq 0 ]
ok $? "gpu --help exits 0 and prints a Usage line"
run_prog "$prog" gemm --help
has "$tap_out" "--on gpu [--kernel NAME]" && [ "$tap_rc" -eq 0 ]
ok $? "gemm --help shows --on gpu [--kernel NAME]"
run_prog "$prog" --help
has "$tap_out" "  gpu " && [ "$tap_rc" -eq 0 ]
ok $? "softmma --help lists the gpu command"
expect_err "gpu takes no argument" "'extra'" gpu extra

# ---------------------------------------------------------------- the kernel table

run_prog "$prog" gpu --table
[ "$tap_rc" -eq 0 ] && [ -z "$tap_err" ] &&
    has "$tap_out" '| `sm90-bs` | sm_90a | 9.0 (wgmma, sm_90a) | block-scaled |' &&
    has "$tap_out" '| 1 | `sm100-v2` | yes |'
ok $? "gpu --table prints the kernel and preference tables, on any machine"
table=$tap_out
doc=$(awk '/^<!-- softmma gpu --table: end -->$/ { f = 0 } f { print }
           /^<!-- softmma gpu --table: begin -->$/ { f = 1 }' "$SMMA_SRCDIR/doc/kernels.md")
is "$table" "$doc" "doc/kernels.md shows softmma gpu --table as the program prints it"
expect_err "gpu --table takes no argument either" "'x'" gpu --table x

# ---------------------------------------------------------------- arguments
#
# Refused before any device is looked for: the same on every machine.

expect_err "--kernel nosuch is refused, naming the kernel" "unknown kernel 'nosuch'" \
    gemm --on gpu --kernel nosuch $bf --m 4 --n 4 --k 16
expect_err "--kernel nosuch: the message lists the known kernels" "sm80-bs-small sm100-v1" \
    gemm --on gpu --kernel nosuch $bf --m 4 --n 4 --k 16
expect_err "--on tpu is refused, naming the value" "--on: 'tpu' is not cpu or gpu" \
    gemm --on tpu $bf --m 4 --n 4 --k 16 --model exact-rn
expect_err "--kernel without --on gpu is refused" "--kernel sm80-v1 needs --on gpu" \
    gemm --kernel sm80-v1 $bf --m 4 --n 4 --k 16 --model exact-rn
expect_err "--on gpu --check takes a count, not a D file" "--check: with --on gpu" \
    gemm --on gpu $bf --m 4 --n 4 --k 16 --check "$tmp/d.txt"
expect_err "--on gpu --check 0 is refused" "not '0'" \
    gemm --on gpu $bf --m 4 --n 4 --k 16 --check 0
expect_err "--on gpu refuses --samples (--check COUNT gives them)" "--samples: with --on gpu" \
    gemm --on gpu $bf --m 4 --n 4 --k 16 --check 5 --samples 5
expect_err "--on gpu --bench --check is refused" "--bench prints only the timing" \
    gemm --on gpu $bf --m 4 --n 4 --k 16 --check 5 --bench
expect_err "--on gpu with an unknown --model is refused" "--model" \
    gemm --on gpu $bf --m 4 --n 4 --k 16 --model nosuch
expect_err "--on cpu still needs --model" "--model is required" \
    gemm --on cpu $bf --m 4 --n 4 --k 16

# ---------------------------------------------------------------- --on cpu
#
# The three-way case of tests/tools/gemm-cli-t.sh: 7168 - 7u - 6144 with
# u = 2^-14 is 0x447ffff9 exactly and 0x447ffffa under h100-bf16 (its lsb
# 2u truncates 7u to 6u).

printf '%s\n' "softmma-gemm-inputs 1" "a bf16" "b bf16" "scale none" "vec 32" "c none" \
    "m 1" "n 1" "k 3" "A" "0x45e0 0xb9e0 0xc5c0" "B" "0x3f80 0x3f80 0x3f80" >"$tmp/three.txt"
expect_out "--on cpu: the three-way case under exact-rn" "0x447ffff9" \
    gemm --on cpu --inputs "$tmp/three.txt" --model exact-rn
expect_out "--on cpu: the three-way case under h100-bf16" "0x447ffffa" \
    gemm --on cpu --inputs "$tmp/three.txt" --model h100-bf16
run_prog "$prog" gemm $mx --c fp32 --m 3 --n 5 --k 40 --model exact-rn --seed 3
d_default=$tap_out
run_prog "$prog" gemm $mx --c fp32 --m 3 --n 5 --k 40 --model exact-rn --seed 3 --on cpu
[ -n "$d_default" ] && [ "$tap_rc" -eq 0 ] && [ "$tap_out" = "$d_default" ]
ok $? "--on cpu prints the same D as no --on"

# ---------------------------------------------------------------- the device

run_prog "$prog" gpu
gpu_rc=$tap_rc
gpu_out=$tap_out
gpu_err=$tap_err
if [ "$gpu_rc" -ne 0 ]; then
    # No device: exit 2, nothing on stdout, one line "no GPU: REASON".
    reason=${gpu_err#softmma: gpu: no GPU: }
    [ "$gpu_rc" -eq 2 ] && [ -z "$gpu_out" ] && [ "$reason" != "$gpu_err" ] &&
        [ -n "$reason" ] && [ "$(printf '%s\n' "$gpu_err" | wc -l)" -eq 1 ]
    ok $? "gpu without a device: exit 2, one stderr line 'no GPU: REASON'"
    [ "$gpu_rc" -eq 2 ] || diag "exit $gpu_rc, stdout: $gpu_out"
    diag "stderr: $gpu_err"
    run_prog "$prog" gemm --on gpu $bf --m 4 --n 4 --k 16
    [ "$tap_rc" -eq 2 ] && [ -z "$tap_out" ] &&
        [ "$tap_err" = "softmma: gemm: --on gpu: no GPU: $reason" ]
    ok $? "gemm --on gpu without a device: exit 2, no D, the same reason"
    [ "$tap_rc" -eq 2 ] || diag "exit $tap_rc, stdout: $tap_out"
    diag "stderr: $tap_err"
    run_prog "$prog" gemm --on gpu $mx --m 4 --n 4 --k 32 --bench
    [ "$tap_rc" -eq 2 ] && [ -z "$tap_out" ] && has "$tap_err" "no GPU: $reason"
    ok $? "gemm --on gpu --bench without a device: exit 2, the reason, no timing"
    why="no device: $reason"
    for p in "gpu prints the device and every kernel" "D on the GPU equals the reference's" \
        "every kernel that runs passes --check" "--bench prints the median and TFLOP/s" \
        "a kernel that refuses the problem says why"; do
        skip "$p ($why)"
    done
    tap_done
fi

# softmma gpu: the device lines, then one line per kernel.
ok_dev=0
for want in "device: " "compute capability: " "multiprocessors: " "clock: " \
    "shared memory per block (opt-in): "; do
    has "$nl$gpu_out" "$nl$want" || ok_dev=1
done
for k in sm80-v1 sm80-v2 sm80-bs-v1 sm80-bs-large sm80-bs-small sm100-v1 sm100-v2; do
    [ "$(printf '%s\n' "$gpu_out" | awk -v k="$k" '$1 == k' | wc -l)" -eq 1 ] || ok_dev=1
done
[ -z "$gpu_err" ] || ok_dev=1
ok $ok_dev "gpu prints the device and every kernel"
[ $ok_dev -eq 0 ] || diag "stdout:$nl$gpu_out${nl}stderr: $gpu_err"
diag "$gpu_out"

# runs KERNEL: 0 when softmma gpu says it runs here; model_of KERNEL: the
# model it names.
runs() {
    printf '%s\n' "$gpu_out" | awk -v k="$1" '$1 == k && $2 == "runs;" { f = 1 } END { exit !f }'
}
model_of() {
    printf '%s\n' "$gpu_out" | awk -v k="$1" '$1 == k && $3 == "model" { print $4 }'
}

# The GPU's D is the reference's under the kernel's model, printed the same
# way (also with C, alpha and a bf16 D).
m16=$(model_of sm80-v1)
if [ -n "$m16" ]; then
    run_prog "$prog" gemm --on gpu --kernel sm80-v1 --inputs "$tmp/three.txt"
    g1=$tap_out
    run_prog "$prog" gemm --inputs "$tmp/three.txt" --model "$m16"
    [ -n "$g1" ] && [ "$g1" = "$tap_out" ]
    ok $? "the three-way case on sm80-v1: the same D as the reference under $m16"
    run_prog "$prog" gemm --on gpu $bf --c fp32 --alpha 0.5 --d bf16 --m 37 --n 19 --k 72 \
        --seed 5
    g1=$tap_out
    run_prog "$prog" gemm $bf --c fp32 --alpha 0.5 --d bf16 --m 37 --n 19 --k 72 --seed 5 \
        --model "$m16"
    [ -n "$g1" ] && [ "$g1" = "$tap_out" ]
    ok $? "D on the GPU equals the reference's (bf16, C, alpha, bf16 D, under $m16)"
else
    skip "D on the GPU equals the reference's (sm80-v1 has no model on this device)"
fi

# Every kernel that runs here: a generated problem checked on all entries.
for k in sm80-v1 sm80-v2 sm80-bs-v1 sm80-bs-large sm80-bs-small sm100-v1 sm100-v2; do
    case $k in
        sm80-v*) opts="$bf --m 200 --n 136 --k 264" ;;
        sm80-bs-small) opts="$mx --m 16 --n 256 --k 256" ;;
        *) opts="$mx --m 256 --n 256 --k 256" ;;
    esac
    if ! runs "$k"; then
        skip "$k --check: it does not run on this device"
        continue
    fi
    if [ -z "$(model_of "$k")" ]; then
        skip "$k --check: softmma has no model of it on this device"
        continue
    fi
    run_prog "$prog" gemm --on gpu --kernel "$k" $opts --c fp32 --seed 7 --check 10000000
    [ "$tap_rc" -eq 0 ] && has "$tap_out" ": 0 mismatches" && has "$tap_out" "$k on "
    ok $? "$k --check: every entry agrees under $(model_of "$k")"
    [ "$tap_rc" -eq 0 ] || diag "exit $tap_rc: $tap_out $tap_err"
done

# --check fails when the model is not the kernel's: the exact model differs
# from a tensor core's truncation on random bf16 inputs.
if runs sm80-v2; then
    run_prog "$prog" gemm --on gpu --kernel sm80-v2 $bf --m 64 --n 64 --k 256 --seed 3 \
        --model exact-rn --check 4096
    [ "$tap_rc" -eq 1 ] && has "$tap_out" "under exact-rn" && has "$tap_out" "  D["
    ok $? "--check under another model (--model exact-rn): mismatches listed, exit 1"
else
    skip "--check under another model (sm80-v2 does not run here)"
fi

run_prog "$prog" gemm --on gpu $mx --m 512 --n 512 --k 512 --bench
[ "$tap_rc" -eq 0 ] && has "$tap_out" "ms of 20 runs, " && has "$tap_out" " TFLOP/s"
ok $? "--bench prints the median and TFLOP/s"
diag "$tap_out"

expect_err "a kernel that refuses the problem says why" "--kernel sm80-v2: sm80-v2: k = 12" \
    gemm --on gpu --kernel sm80-v2 $bf --m 4 --n 4 --k 12
expect_err "sm80-bs-small refuses m = 17" "m = 17 must be at most 16" \
    gemm --on gpu --kernel sm80-bs-small $mx --m 17 --n 32 --k 32

tap_done
