#!/bin/sh
# bench/sm100-sass.sh - the SASS of the sm_100a kernels sm100-v1, v2 and v3:
# dumps the cubin of gpu/sm100/gemm_v1.o, gemm_v2.o, gemm_v3.o (and of the TMA probe)
# with cuobjdump, and counts, per kernel function, the tcgen05 and TMA
# instructions: the block-scaled tensor-core MMAs (UTC*MMA), the scale copies
# (UTCCP*), commits (UTCBAR*), TMEM loads and stores (LDTM, STTM), TMEM
# allocation (UTCATOM*), TMA (UTMA*, UBLKCP*) and mbarrier waits (SYNCS*).
# Each kernel issues, per k-step, four tcgen05.mma (one per 32 bytes of K)
# and sf_blks * (1 + nrb) tcgen05.cp from one k-loop body (plan.h); with the
# j-loop unrolled, a kernel instantiation should hold exactly 4 UTC*MMA (a
# multiple of 4 if the compiler unrolls the k-loop too).  sm100-v3's are the
# cta_group::2 forms (one per 32 bytes of K for the pair's 256 rows), issued
# by the leader only; its multicast commits and scale-of-B boxes appear as
# UTCBAR* and UTMA*/UBLKCP* with a multicast mask.
#
# Usage (from the root of a tree built with ./configure && make, on a machine
# with the CUDA toolkit's cuobjdump):
#     bench/sm100-sass.sh [BUILD_DIR] [OUT_DIR]
# BUILD_DIR defaults to ., OUT_DIR to $OUT or bench/logs.  Writes
#     OUT_DIR/sm100-sass-gemm_v1.sass, -gemm_v2.sass, -gemm_v3.sass,
#     -tma_probe.sass                                                 (full dumps)
#     OUT_DIR/sm100-sass.txt                                          (the counts)
# and prints the counts.  Exit status 0, or 1 with a message when a tool or
# an object is missing or holds no sm_100a code.
set -eu

build=${1:-.}
out=${2:-${OUT:-bench/logs}}
mkdir -p "$out"

CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
if ! command -v "$CUOBJDUMP" >/dev/null 2>&1; then
    for d in /usr/local/cuda/bin /usr/local/cuda-13.0/bin; do
        if [ -x "$d/cuobjdump" ]; then CUOBJDUMP=$d/cuobjdump; break; fi
    done
fi
if ! command -v "$CUOBJDUMP" >/dev/null 2>&1; then
    echo "sm100-sass: cuobjdump not found (set CUOBJDUMP)" >&2
    exit 1
fi

summary=$out/sm100-sass.txt
{
    echo "# sm100 SASS: $("$CUOBJDUMP" --version | tail -1)"
    echo "# build: $build  date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$summary"

for name in gemm_v1 gemm_v2 gemm_v3 tma_probe; do
    case $name in
    tma_probe) obj=$build/gpu/probes/$name.o ;;
    *) obj=$build/gpu/sm100/$name.o ;;
    esac
    if [ ! -f "$obj" ]; then
        echo "sm100-sass: $obj not found (build with ./configure && make first)" >&2
        exit 1
    fi
    sass=$out/sm100-sass-$name.sass
    if ! "$CUOBJDUMP" -sass -arch sm_100a "$obj" >"$sass" 2>"$sass.err" || [ ! -s "$sass" ]; then
        echo "sm100-sass: $obj holds no sm_100a SASS ($(head -1 "$sass.err"))" >&2
        exit 1
    fi
    rm -f "$sass.err"
    # Per function: every opcode of the families above, and the instruction total.
    awk -v obj="$name" '
        /Function : / { fn = $NF; order[++nf] = fn; next }
        /^[ \t]*\/\*[0-9a-f]+\*\// {
            line = $0
            sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line)
            sub(/^@!?U?P[0-9T][ \t]+/, "", line)
            split(line, tok, /[ \t;]+/)
            op = tok[1]
            if (op == "") next
            total[fn]++
            base = op
            sub(/\..*/, "", base)
            if (base ~ /^UTC.*MMA$/ || base ~ /^UTC/ || base ~ /^LDTM/ || base ~ /^STTM/ ||
                base ~ /^UTMA/ || base ~ /^UBLKCP/ || base ~ /^SYNCS/) {
                key = fn SUBSEP op
                if (!(key in cnt)) ops[fn] = ops[fn] " " op
                cnt[key]++
                if (base ~ /^UTC.*MMA$/) mma[fn]++
            }
        }
        END {
            for (i = 1; i <= nf; i++) {
                fn = order[i]
                printf "%s %s: %d instructions, %d block-scaled MMA (UTC*MMA)\n", obj, fn,
                       total[fn], mma[fn] + 0
                n = split(ops[fn], list, " ")
                for (j = 1; j <= n; j++)
                    printf "    %-40s %d\n", list[j], cnt[fn SUBSEP list[j]]
            }
        }' "$sass" >>"$summary"
done

# The MMA instructions themselves, with their operands, for the record.
{
    echo "# every UTC*MMA of gemm_v1, gemm_v2 and gemm_v3 (address: instruction)"
    grep -h -E 'UTC[A-Z0-9]*MMA' "$out/sm100-sass-gemm_v1.sass" "$out/sm100-sass-gemm_v2.sass" \
        "$out/sm100-sass-gemm_v3.sass" \
        | sed -e 's/^[ \t]*//' -e 's/[ \t]*\/\*[^*]*\*\/[ \t]*$//'
} >>"$summary"
cat "$summary"
