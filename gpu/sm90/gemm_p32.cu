/*
 * gpu/sm90/gemm_p32.cu - sm90-promote32 (version 3 of the sm90 kernels):
 * the MX pairs (e8m0 scales per 32 k) -- MXFP8 (e4m3 or e5m2 operands),
 * MXFP6 (e2m3, e3m2), MXFP4 and MXFP8 x MXFP4 -- on the fp8 tensor
 * core of Hopper, which has no block-scaled instruction.
 *
 * What it computes, and why that way: each 32-k scale block of each output
 * is one wgmma.m64n128k32 (e4m3/e5m2, fp32 accumulation) from zero into
 * temporary registers; the block's partial sum tmp is then promoted into
 * the fp32 accumulator with the block's scales,
 *     acc = fma(tmp, rn_fp32(sa * sb), acc),
 * from acc = C, block after block in k order: the model h100-fp8-promote32
 * (doc/models.md), which plan.h's smma_sm90_promote writes once for the
 * kernel and the dry run.  The tensor work runs at the fp8 rate (twice
 * bf16's); the price is two fp32 operations per accumulator per 32 k
 * (the scales' product and the fma), which the CUDA cores issue while the
 * tensor core computes the next block.
 *
 * Structure (sm90-v2's, on the same pipeline, gpu/pipe.cuh):
 *   1. Warpgroup 0 produces.  Its thread 0 issues the TMA boxes of A and B
 *      (128 bytes = 128 k of each row per k-step, the 128-byte swizzle);
 *      its threads 32 .. 127 are converters: they read the k-step's e8m0
 *      scales of the tile's 128 rows of A and 128 columns of B from global
 *      memory (linear or 128x4 layout: smma_sm90_sf_goff), and write them
 *      into the stage as fp32 where each consumer thread finds its own with
 *      nine vector loads (plan.h, smma_sm90_sfa_off / _sfb_off).  A stage
 *      is full when TMA's bytes have landed and every converter has
 *      arrived (its full barrier counts 1 + 96 arrivals).
 *   2. Warpgroups 1 and 2 consume: 64 rows each of a 128 x 128 tile.  Two
 *      sets of temporary registers alternate, so that the wgmma of block
 *      j + 1 runs while block j is promoted (wgmma.wait_group 1).  The
 *      accumulator, two temporaries: 192 registers of 224 (setmaxnreg;
 *      the producer warpgroup keeps 56 for the converters).
 *   3. Persistent CTAs, clusters of two along M with B multicast, the
 *      grouped tile order, D through shared memory and TMA stores: as v2.
 *   4. e2m1, e2m3 and e3m2 operands (the fp8 wgmma takes e4m3 and e5m2
 *      only): TMA lands them as stored, unswizzled, in an area of the stage
 *      after the scales, on a fourth barrier per slot (smma_sm90_rawfull);
 *      the converters, once it completes, write each code's value as e4m3
 *      (exact) where TMA would have put e4m3 codes -- e2m1 by prmt from a
 *      table of eight bytes, e2m3 and e3m2 by moving the exponent to e4m3's
 *      bias, their subnormals by prmt -- before they arrive on the full
 *      barrier.  The model sees the same e4m3 codes (doc/models.md).
 * A ragged K: TMA fills past K with 0 (+0 products, which leave a block's
 * sum as the model's shorter block has it: every wgmma starts from +0, so
 * no fix-up is needed), and blocks past K are not promoted.  Scales past the
 * matrix are not read (the converters write 1.0 there).
 *
 * The scales' products on the tensor core (by default; SMMA_SM90_P32_SPROD=0
 * keeps them in fp32): the converters also write each k-step's scales as
 * bf16 at k 0 of two wgmma operand tiles (plan.h, smma_sm90_sfs_off) and
 * flag a k-step with a scale outside e8m0 64 .. 190; a consumer takes an
 * unflagged k-step with p32_kstep_s: per block the block's wgmma and a
 * bf16 wgmma of the scale tiles (s = sa * sb exactly, in the accumulator's
 * registers) in one group, then acc = fma(tmp, s, acc) -- half the fp32
 * work, no scale loads; a flagged one with p32_kstep as above.  The same
 * numbers either way.  With one set of each, a warpgroup waits for its own
 * wgmma before it promotes; the other warpgroup's run meanwhile.
 *
 * By default such an operand is converted once, before the GEMM, by the
 * pass at the end of this file (s90_p32_pre: the same functions, into an
 * e4m3 copy), and the kernel runs on the copy as an e4m3 operand: 376-386
 * TFLOP/s at 8192^3 on an H200 for the three converted pairs, where the
 * converters writing e4m3 in every k-step ran at 65-209
 * (bench/sm90-kernels.md); SMMA_SM90_PRE=0 keeps the conversion here.
 *
 * Run as `--kernel sm90-promote32` (SMMA_GPU_SM90_PROMOTE32); SMMA_SM90_STAGES,
 * _CLUSTER and _GROUP (sm90.h) tune it as they tune v2.
 */
#include <cuda_runtime.h>

#include "dev.cuh"

/* Threads 32 .. 127 of the producer warpgroup convert the scales. */
#define P32_CONVERTERS 96u

#if defined(SMMA_SM90_WG)

/* The e8m0 scales of a k-step of one row (or column) of A or B, from row
 * (its scales of k-step 0; NULL past the matrix) as one little-endian
 * word, byte j the k-step's 32-k block j: one 4-byte load where the plan
 * says the four lie in an aligned word (sf_words), else four byte loads;
 * 0x7f (1.0) for a row past the matrix and blocks past K. */
static __device__ __forceinline__ uint32_t
p32_scale_word(const smma_sm90_plan &p, const uint8_t *row, uint32_t kit, uint32_t nb)
{
    uint32_t w = 0x7f7f7f7fu, j;

    if (row == NULL)
        return w;
    row += (size_t) kit * smma_sm90_sf_kstep(&p);
    if (p.sf_words) {
        w = __ldg((const uint32_t *) row);
        return nb >= 4 ? w : (w & (0xffffffffu >> (32 - 8 * nb))) | (0x7f7f7f7fu << (8 * nb));
    }
    for (j = 0, w = 0; j < 4; j++)
        w |= (j < nb ? (uint32_t) __ldg(row + j) : 0x7fu) << (8 * j);
    return w;
}

/* Four e4m3 codes (the bytes of one word) of the eight e2m1 codes of x
 * from nibble 4 h on: the magnitudes' e4m3 bytes (0, 0.5, 1, 1.5, 2, 3, 4,
 * 6: 00 30 38 3c 40 44 48 4c) picked by prmt, the sign from each nibble's
 * bit 3 (prmt's sign-replicating selection of a 0x80 byte, shifted into
 * bit 7), as gpu/sm80/convert.cuh builds bf16 bytes. */
static __device__ __forceinline__ uint32_t
p32_e2m1x4(uint32_t x)
{
    uint32_t mag, sg;

    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(mag) : "r"(0x3c383000u), "r"(0x4c484440u),
        "r"(x & 0x7777u));
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(sg) : "r"(0x80808080u), "r"(0x80808080u), "r"(x));
    return mag | ((sg << 1) & 0x80808080u);
}

/* The e4m3 codes of four e2m3 (EBITS 2) or e3m2 (EBITS 3) codes, one a
 * byte (bits 7:6 ignored): a normal value moves its exponent to e4m3's bias
 * (+6 or +4) with its mantissa, a subnormal one (exponent field 0) is looked
 * up by prmt (e2m3 m/8: 00 20 28 2c 30 32 34 36; e3m2 m/16: 00 18 20 24),
 * each byte takes one or the other, and the sign moves from bit 5 to 7. */
template <int EBITS>
static __device__ __forceinline__ uint32_t
p32_fp6x4(uint32_t w)
{
    uint32_t mag = w & 0x1f1f1f1fu, sign = (w & 0x20202020u) << 2, normal, s, t, sub, nm;

    if (EBITS == 2) {
        normal = mag + 0x30303030u;
        s = mag & 0x07070707u;
        nm = (mag & 0x18181818u) + 0x78787878u;
    } else {
        normal = (mag << 1) + 0x20202020u;
        s = mag & 0x03030303u;
        nm = (mag & 0x1c1c1c1cu) + 0x7c7c7c7cu;
    }
    t = s | (s >> 4);
    t = (t & 0xffu) | ((t >> 8) & 0xff00u);
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(sub)
        : "r"(EBITS == 2 ? 0x2c282000u : 0x24201800u), "r"(EBITS == 2 ? 0x36343230u : 0u),
          "r"(t));
    nm = ((nm & 0x80808080u) >> 7) * 0xffu;
    return (normal & nm) | (sub & ~nm) | sign;
}

/* Converter ct's share of the converted operands of the k-step in the slot
 * at `stage` (sm90-promote32 with an e2m1, e2m3 or e3m2 operand): chunks ct,
 * ct + 96, ... of smma_sm90_cvt_chunk, 16 bytes as stored each, written as
 * e4m3 where TMA would have put them. */
template <int AF, int BF>
static __device__ __forceinline__ void
p32_convert_operands(const smma_sm90_plan &p, uint8_t *stage, uint32_t ct)
{
    uint32_t q, op, row, k0, raw;

    for (q = ct; q < smma_sm90_cvt_chunks(&p); q += P32_CONVERTERS) {
        smma_sm90_cvt_chunk(&p, q, &op, &row, &k0, &raw);
        uint4 v = *(const uint4 *) (stage + raw);
        uint32_t f = op ? BF : AF, w[4] = { v.x, v.y, v.z, v.w };

        if (f == SMMA_E2M1) {
            /* 32 codes: k0 .. k0 + 31, two chunks of e4m3 */
#pragma unroll
            for (int h = 0; h < 2; h++) {
                uint32_t o[4];

#pragma unroll
                for (int i = 0; i < 4; i++)
                    o[i] = p32_e2m1x4(w[2 * h + i / 2] >> (16 * (i % 2)));
                *(uint4 *) (stage + (op ? smma_sm90_smem_b(&p, row, k0 + 16 * h)
                                        : smma_sm90_smem_a(&p, row, k0 + 16 * h))) =
                    make_uint4(o[0], o[1], o[2], o[3]);
            }
        } else {
            uint32_t o[4];

#pragma unroll
            for (int i = 0; i < 4; i++)
                o[i] = f == SMMA_E2M3 ? p32_fp6x4<2>(w[i]) : p32_fp6x4<3>(w[i]);
            *(uint4 *) (stage + (op ? smma_sm90_smem_b(&p, row, k0)
                                    : smma_sm90_smem_a(&p, row, k0))) =
                make_uint4(o[0], o[1], o[2], o[3]);
        }
    }
}

/* Converter ct (0 .. 95) of CTA cta: for every k-step the CTA's consumers
 * take, the e8m0 scales of rows ct, ct + 96 and (ct < 64) ct + 192 of the
 * 256 (A's 128 rows, then B's 128 columns), loaded one k-step ahead (a
 * load's latency passes during the k-step before, not before each: +4-6%
 * for MXFP8 at 8192^3, bench/sm90-kernels.md), written into the slot as
 * fp32 once every consumer thread has read the last ones (smma_sm90_sfree),
 * then one arrival on the slot's full barrier. */
template <int AF, int BF>
static __device__ __forceinline__ void
p32_convert(const smma_sm90_plan &p, const s90_bufs &x, uint8_t *smem, uint32_t sbase,
            uint32_t cta, uint32_t ct)
{
    constexpr bool CONV = AF != SMMA_E4M3 && AF != SMMA_E5M2 || (BF != SMMA_E4M3
                                                                 && BF != SMMA_E5M2);
    smma_pipe_pos pos = { 0, 0 };
    uint32_t i, kit, tm, tn, m0, n0, u, j;

    for (i = 0; i < smma_pipe_cta_nunits(&p.pipe, cta); i++) {
        const uint8_t *row[3];

        smma_pipe_cta_tile(&p.pipe, cta, i, &tm, &tn);
        smma_sm90_origin(&p, tm, tn, &m0, &n0);
#pragma unroll
        for (u = 0; u < 3; u++) {
            uint32_t task = ct + u * P32_CONVERTERS, isb = task >= 128;
            uint32_t g = (isb ? n0 : m0) + (task & 127u);

            row[u] = task < 256 && g < (isb ? p.n : p.m)
                     ? (isb ? x.sb : x.sa) + smma_sm90_sf_goff(&p, g, 0) : NULL;
        }
        /* wn: the words of the next k-step, in flight during this one */
        uint32_t wn[3];

#pragma unroll
        for (u = 0; u < 3; u++)
            wn[u] = p32_scale_word(p, row[u], 0, smma_sm90_kblocks(&p, 0));
        for (kit = 0; kit < p.pipe.kiters; kit++, smma_pipe_next(&p.pipe, &pos)) {
            uint32_t w[3];
            uint8_t *stage = smem + pos.slot * p.pipe.stage_bytes;

#pragma unroll
            for (u = 0; u < 3; u++) {
                w[u] = wn[u];
                if (kit + 1 < p.pipe.kiters)
                    wn[u] = p32_scale_word(p, row[u], kit + 1, smma_sm90_kblocks(&p, kit + 1));
            }
            pipe_bar_wait(sbase + smma_sm90_sfree(&p, pos.slot), pos.phase ^ 1u);
#pragma unroll
            for (u = 0; u < 3; u++) {
                uint32_t task = ct + u * P32_CONVERTERS, r = task & 127u;

                if (task >= 256)
                    continue;
#pragma unroll
                for (j = 0; j < 4; j++) {
                    uint32_t f = smma_sm90_e8m0((w[u] >> (8 * j)) & 0xffu);

                    *(uint32_t *) (stage + (task >= 128 ? smma_sm90_sfb_off(&p, j, r)
                                                        : smma_sm90_sfa_off(&p, j, r))) = f;
                    /* with sprod also as a bf16: e8m0 is the upper half */
                    if (p.sprod)
                        *(uint16_t *) (stage + (task >= 128 ? smma_sm90_sfs_off(&p, j, r)
                                                            : smma_sm90_sfsa_off(&p, j, r))) =
                            (uint16_t) (f >> 16);
                }
            }
            /* The k-step's range flag: any scale of the tile outside the
             * products' safe range, one word per converter warp. */
            if (p.sprod) {
                bool out = false;

#pragma unroll
                for (u = 0; u < 3; u++)
#pragma unroll
                    for (j = 0; j < 4; j++) {
                        uint32_t e = (w[u] >> (8 * j)) & 0xffu;

                        out |= ct + u * P32_CONVERTERS < 256
                               && (e < SMMA_SM90_SFS_LO || e > SMMA_SM90_SFS_HI);
                    }
                out = __any_sync(0xffffffffu, out);
                if (ct % 32 == 0)
                    *(uint32_t *) (stage + p.off_sflag + 4 * (ct / 32)) = out;
            }
            /* The converted operands, once their bytes have landed (the
             * slot is free then: TMA waited for it), read by wgmma. */
            if (CONV) {
                pipe_bar_wait(sbase + smma_sm90_rawfull(&p, pos.slot), pos.phase);
                p32_convert_operands<AF, BF>(p, stage, ct);
            }
            if (CONV || p.sprod)
                pipe_fence_async_smem();
            pipe_bar_arrive(sbase + smma_pipe_full(&p.pipe, pos.slot));
        }
    }
}

/* The TMA boxes of k-step kit with a converted operand: its stored bytes
 * on the slot's raw barrier (their byte count announced first), the other
 * operand's e4m3/e5m2 on the full one. */
static __device__ __forceinline__ void
p32_load_kstep(const smma_sm90_plan &p, const s90_maps &maps, uint32_t sbase, uint32_t st,
               uint32_t full, uint32_t m0, uint32_t n0, uint32_t kit, uint32_t rank)
{
    uint32_t raw = sbase + smma_sm90_rawfull(&p, (st - sbase) / p.pipe.stage_bytes), i, off;

    pipe_bar_arrive_tx(raw, smma_sm90_raw_tx(&p));
    for (i = 0; i < smma_sm90_nboxes(&p); i++) {
        uint32_t bar = smma_sm90_box_raw(&p, i) ? raw : full;
        unsigned map;
        int32_t c[2];

        if (smma_sm90_box(&p, i, m0, n0, kit, rank, &map, c, &off))
            pipe_tma_2d_mc(st + off, &maps.m[map], c[0], c[1], bar,
                           (uint16_t) ((1u << p.pipe.cluster) - 1));
        else
            pipe_tma_2d(st + off, &maps.m[map], c[0], c[1], bar);
    }
}

/* Block j of stage slot `slot` into tmp (from zero), the descriptors moved
 * from d0 (plan.h, smma_sm90_p32_descs_at): fence, the wgmma, commit. */
template <int AE5, int BE5>
static __device__ __forceinline__ void
p32_issue(const smma_sm90_plan &p, uint32_t (&tmp)[64], const smma_sm90_p32_descs &d0,
          uint32_t slot, uint32_t j)
{
    smma_sm90_p32_descs d = smma_sm90_p32_descs_at(&p, &d0, slot, j);

    s90_wgmma_fence();
    s90_wgmma_fp8_zero<AE5, BE5>(tmp, d.a, d.b);
    s90_wgmma_commit();
}

/* The first scales thread t of consumer warpgroup wg needs for block j of
 * the stage at `stage`: its two rows' (one 8-byte load) and its first eight
 * columns' (two 16-byte loads); loaded before the wait for the block's
 * wgmma, so that their latency passes during it. */
struct p32_first {
    float2 sa;
    float4 sb0, sb1;
};

static __device__ __forceinline__ p32_first
p32_first_scales(const smma_sm90_plan &p, const uint8_t *stage, uint32_t wg, uint32_t t,
                 uint32_t j)
{
    const float4 *sbp = (const float4 *) (stage + smma_sm90_sfb_off(&p, j, 2 * (t % 4)));
    p32_first f;

    f.sa = *(const float2 *) (stage + smma_sm90_sfa_off(&p, j, 64 * wg + 16 * (t / 32)
                                                               + (t % 32) / 4));
    f.sb0 = sbp[0];
    f.sb1 = sbp[1];
    return f;
}

/* Thread t of consumer warpgroup wg promotes block j's partial sums tmp
 * into acc with the block's scales: f, then its other 24 columns' (six
 * 16-byte loads, each issued two groups of eight accumulators before the
 * group that uses it, so that the shared memory's latency passes while
 * the fp32 pipe works). */
static __device__ __forceinline__ void
p32_promote(const smma_sm90_plan &p, uint32_t (&acc)[64], const uint32_t (&tmp)[64],
            const uint8_t *stage, uint32_t wg, uint32_t t, uint32_t j, p32_first f)
{
    const float4 *sbp = (const float4 *) (stage + smma_sm90_sfb_off(&p, j, 2 * (t % 4)));
    float4 b4[8];

    (void) wg;
    b4[0] = f.sb0;
    b4[1] = f.sb1;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        if (i + 2 < 8)
            b4[i + 2] = sbp[i + 2];
        float sb[4] = { b4[i].x, b4[i].y, b4[i].z, b4[i].w };

        /* Registers 8 i .. 8 i + 7: columns 8 (2 i + h) + 2 (t % 4) + e,
         * rows +0 (r / 2 == 0) and +8 (smma_sm90_d_cell). */
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                int reg = 8 * i + 4 * h + r;

                acc[reg] = __float_as_uint(smma_sm90_promote(__uint_as_float(tmp[reg]),
                                                             r / 2 ? f.sa.y : f.sa.x,
                                                             sb[2 * h + r % 2],
                                                             __uint_as_float(acc[reg])));
            }
    }
}

/*
 * One k-step of a consumer, the stage at *pos: its four blocks into two
 * sets of temporaries in turn, each block promoted while the wgmma of the
 * next one runs (wgmma.wait_group 1), the last after all (wait_group 0).
 * The last k-step (LAST) promotes only its nb blocks below K (those past K
 * hold TMA's zeros).  Then every thread tells the converters that it has
 * read the slot's scales, and the slot is released for TMA.  No wgmma stays in
 * flight past the k-step: ptxas follows the groups of straight-line code
 * only, and a temporary read while a wgmma that it cannot prove complete
 * is in flight makes it serialize every wgmma (its warning C7514); the
 * other consumer warpgroup's wgmma run during this one's last promotion.
 */
template <int AE5, int BE5, bool LAST>
static __device__ __forceinline__ void
p32_kstep(const smma_sm90_plan &p, uint32_t (&acc)[64], uint32_t (&tmp0)[64],
          uint32_t (&tmp1)[64], const uint8_t *smem, uint32_t sbase, smma_pipe_pos *pos,
          const smma_sm90_p32_descs &d0, uint32_t wg, uint32_t t, uint32_t nb)
{
    const uint8_t *stage = smem + pos->slot * p.pipe.stage_bytes;

    p32_first f;

    pipe_wait_full(p.pipe, sbase, *pos);
    p32_issue<AE5, BE5>(p, tmp0, d0, pos->slot, 0);
    p32_issue<AE5, BE5>(p, tmp1, d0, pos->slot, 1);
    f = p32_first_scales(p, stage, wg, t, 0);
    s90_wgmma_wait<1>();
    s90_fence_regs(tmp0);
    p32_promote(p, acc, tmp0, stage, wg, t, 0, f);
    p32_issue<AE5, BE5>(p, tmp0, d0, pos->slot, 2);
    f = p32_first_scales(p, stage, wg, t, 1);
    s90_wgmma_wait<1>();
    s90_fence_regs(tmp1);
    if (!LAST || nb > 1)
        p32_promote(p, acc, tmp1, stage, wg, t, 1, f);
    p32_issue<AE5, BE5>(p, tmp1, d0, pos->slot, 3);
    f = p32_first_scales(p, stage, wg, t, 2);
    s90_wgmma_wait<1>();
    s90_fence_regs(tmp0);
    if (!LAST || nb > 2)
        p32_promote(p, acc, tmp0, stage, wg, t, 2, f);
    f = p32_first_scales(p, stage, wg, t, 3);
    s90_wgmma_wait<0>();
    s90_fence_regs(tmp1);
    if (!LAST || nb > 3)
        p32_promote(p, acc, tmp1, stage, wg, t, 3, f);
    /* Each thread has read the slot's scales (the converters may write the
     * next ones), and the warpgroup's wgmma have read A and B. */
    pipe_bar_arrive(sbase + smma_sm90_sfree(&p, pos->slot));
    pipe_release(p.pipe, sbase, pos->slot, t);
    smma_pipe_next(&p.pipe, pos);
}

/*
 * One k-step of a consumer with the scales' products on the tensor core
 * (plan.h, smma_sm90_sfs_off), the slot already full (p32_sprod_step waited
 * for it): for each block, its wgmma into tmp and the products' wgmma into
 * s, one group from zero, then acc = fma(tmp, s, acc): one fp32 operation
 * per accumulator and block, no scale loads.
 */
template <int AE5, int BE5, bool LAST>
static __device__ __forceinline__ void
p32_kstep_s(const smma_sm90_plan &p, uint32_t (&acc)[64], uint32_t (&tmp)[64],
            uint32_t (&s)[64], uint32_t sbase, smma_pipe_pos *pos,
            const smma_sm90_p32_descs &d0, uint32_t t, uint32_t nb)
{
#pragma unroll
    for (uint32_t j = 0; j < 4; j++) {
        smma_sm90_p32_descs d = smma_sm90_p32_descs_at(&p, &d0, pos->slot, j);

        s90_wgmma_fence();
        s90_wgmma_fp8_zero<AE5, BE5>(tmp, d.a, d.b);
        /* s = the scales' products: A's scale tile of this warpgroup (64 x
         * 16 bf16) times B's (16 x 128), from zero */
        s90_wgmma<128, 0, 0>(s, d.sa, d.sb, 0u);
        s90_wgmma_commit();
        s90_wgmma_wait<0>();
        s90_fence_regs(tmp);
        s90_fence_regs(s);
        if (!LAST || nb > j)
#pragma unroll
            for (int r = 0; r < 64; r++)
                acc[r] = __float_as_uint(__fmaf_rn(__uint_as_float(tmp[r]),
                                                   __uint_as_float(s[r]),
                                                   __uint_as_float(acc[r])));
    }
    pipe_bar_arrive(sbase + smma_sm90_sfree(&p, pos->slot));
    pipe_release(p.pipe, sbase, pos->slot, t);
    smma_pipe_next(&p.pipe, pos);
}

/* Whether the k-step at pos takes p32_kstep_s: sprod, and no scale of it
 * outside the range (after the slot is full). */
static __device__ __forceinline__ bool
p32_sprod_step(const smma_sm90_plan &p, const uint8_t *smem, uint32_t sbase,
               const smma_pipe_pos &pos)
{
    if (!p.sprod)
        return false;
    pipe_wait_full(p.pipe, sbase, pos);
    uint4 f = *(const uint4 *) (smem + pos.slot * p.pipe.stage_bytes + p.off_sflag);

    return (f.x | f.y | f.z) == 0;
}

/* One k-step of a consumer either way: p32_kstep_s where p32_sprod_step
 * says so, else p32_kstep (nb blocks below K, the last k-step's). */
template <int AE5, int BE5, bool LAST>
static __device__ __forceinline__ void
p32_kstep_any(const smma_sm90_plan &p, uint32_t (&acc)[64], uint32_t (&tmp0)[64],
              uint32_t (&tmp1)[64], const uint8_t *smem, uint32_t sbase, smma_pipe_pos *pos,
              const smma_sm90_p32_descs &d0, uint32_t wg, uint32_t t, uint32_t nb)
{
    if (p32_sprod_step(p, smem, sbase, *pos))
        p32_kstep_s<AE5, BE5, LAST>(p, acc, tmp0, tmp1, sbase, pos, d0, t, nb);
    else
        p32_kstep<AE5, BE5, LAST>(p, acc, tmp0, tmp1, smem, sbase, pos, d0, wg, t, nb);
}

#endif /* SMMA_SM90_WG */

template <int AF, int BF, int HAS_C>
__global__ void __launch_bounds__(384, 1)
s90_gemm_p32(const smma_sm90_plan plan, const __grid_constant__ s90_maps maps, const s90_bufs x)
{
#if defined(SMMA_SM90_WG)
    /* The wgmma's types: e5m2 as stored, e4m3 for e4m3 and the converted
     * formats. */
    constexpr int AE5 = AF == SMMA_E5M2, BE5 = BF == SMMA_E5M2;
    constexpr bool CONV = AF != SMMA_E4M3 && AF != SMMA_E5M2 || (BF != SMMA_E4M3
                                                                 && BF != SMMA_E5M2);
    const smma_sm90_plan p = s90_plan_for<1>(plan);
    extern __shared__ uint8_t dyn[];
    uint8_t *smem = pipe_smem_base(dyn);
    uint32_t sbase = pipe_smem(smem), wg = threadIdx.x / 128, t = threadIdx.x % 128;
    uint32_t cta = blockIdx.x, cluster = p.pipe.cluster;
    uint32_t rank = cluster > 1 ? pipe_cluster_rank() : 0;
    uint32_t ntiles = smma_pipe_cta_nunits(&p.pipe, cta);

    /* sprod: the scale tiles of every slot and the zeros start as zeros
     * (the converters write only each row's and column's k 0). */
    if (p.sprod) {
        const uint4 z = make_uint4(0, 0, 0, 0);

        for (uint32_t s = 0; s < p.pipe.stages; s++)
            for (uint32_t o = 16 * threadIdx.x; o < 8 * SMMA_SM90_SFS_BLOCK; o += 16 * blockDim.x)
                *(uint4 *) (smem + s * p.pipe.stage_bytes + p.off_sfs + o) = z;
        for (uint32_t o = 16 * threadIdx.x; o < SMMA_SM90_SFS_BLOCK; o += 16 * blockDim.x)
            *(uint4 *) (smem + p.off_zero + o) = z;
        pipe_fence_async_smem();
    }
    /* full[s]: the producer's arrival and bytes, and one arrival of each
     * converter; empty[s]: one release of each consumer warpgroup of each
     * CTA of the cluster; sfree[s]: every consumer thread of this CTA. */
    if (threadIdx.x == 0) {
        pipe_init_ring(p.pipe, sbase, 2 * cluster, 1 + P32_CONVERTERS);
        for (uint32_t s = 0; s < p.pipe.stages; s++) {
            pipe_bar_init(sbase + smma_sm90_sfree(&p, s), 256);
            pipe_bar_init(sbase + smma_sm90_rawfull(&p, s), 1);
        }
        pipe_bar_init_fence();
    }
    if (cluster > 1)
        pipe_cluster_sync();
    else
        __syncthreads();

    if (wg == 0) {
        s90_setmaxnreg_dec<56>();
        if (t == 0) {
            pipe_tma_prefetch_map(&maps.m[SMMA_SM90_MAP_A]);
            pipe_tma_prefetch_map(&maps.m[SMMA_SM90_MAP_B]);
            pipe_produce(p.pipe, sbase, cta,
                         [&](uint32_t st, uint32_t full, uint32_t tm, uint32_t tn, uint32_t kit) {
                             uint32_t m0, n0;

                             smma_sm90_origin(&p, tm, tn, &m0, &n0);
                             if (CONV)
                                 p32_load_kstep(p, maps, sbase, st, full, m0, n0, kit, rank);
                             else
                                 s90_load_kstep(p, maps, st, full, m0, n0, kit, rank);
                         });
        } else if (t >= 32) {
            p32_convert<AF, BF>(p, x, smem, sbase, cta, t - 32);
        }
    } else {
        /* A consumer: rows 64 (wg - 1) .. + 63 of every tile. */
        uint32_t c = wg - 1, ebuf = 0, i, kit, tm, tn, m0, n0, r;
        smma_pipe_pos pos = { 0, 0 };
        uint32_t acc[64], tmp0[64], tmp1[64];
        /* The descriptors of block 0 in slot 0; every k-step moves them. */
        const smma_sm90_p32_descs d0 = smma_sm90_p32_descs0(&p, sbase, c);

        s90_setmaxnreg_inc<224>();
        for (i = 0; i < ntiles; i++) {
            bool inside = smma_pipe_cta_tile(&p.pipe, cta, i, &tm, &tn);

            smma_sm90_origin(&p, tm, tn, &m0, &n0);
            /* The temporaries defined afresh (the wgmma ignore them): the
             * last tile's values are dead during its epilogue. */
#pragma unroll
            for (r = 0; r < 64; r++)
                tmp0[r] = tmp1[r] = 0;
            if (HAS_C) {
                s90_load_c(p, x.c, acc, c, t, m0, n0);
            } else {
#pragma unroll
                for (r = 0; r < 64; r++)
                    acc[r] = 0;
            }
            /* The k-steps, the last one apart (its blocks below K). */
            for (kit = 0; kit + 1 < p.pipe.kiters; kit++)
                p32_kstep_any<AE5, BE5, false>(p, acc, tmp0, tmp1, smem, sbase, &pos, d0, c, t,
                                               4);
            p32_kstep_any<AE5, BE5, true>(p, acc, tmp0, tmp1, smem, sbase, &pos, d0, c, t,
                                          smma_sm90_kblocks(&p, kit));
            if (inside)
                s90_epilogue<128>(p, maps, x, smem, sbase, acc, c, t, m0, n0, &ebuf);
        }
        /* The stores have written D before the CTA ends. */
        if (t == 0 && p.epi_tma)
            pipe_bulk_wait();
    }
    /* No CTA leaves while its peer may still release its slots or
     * multicast into it. */
    if (cluster > 1)
        pipe_cluster_sync();
#else
    (void) plan;
    (void) maps;
    (void) x;
    __trap(); /* smma_sm90_ready refuses to launch this */
#endif
}

/*
 * The conversion pass of sm90-promote32 (plan.h, smma_sm90_pre_ld): each
 * thread takes units of 16 codes of an e2m1, e2m3 or e3m2 operand op (a row
 * and a k0 from the unit's number, as stored at src + row src_ld) and
 * writes their e4m3 codes (p32_e2m1x4, p32_fp6x4: the converters' very
 * functions) at dst + row dst_ld + k0; the GEMM then takes the copy as an
 * e4m3 operand.  A last unit that reaches past K reads only its bytes
 * within the row (its codes past K are 0: e4m3 +0, which the GEMM's tensor
 * map does not reach).
 */
template <int F>
__global__ void __launch_bounds__(256)
s90_p32_pre(const smma_sm90_plan p, const s90_pre_op op)
{
#if defined(SMMA_SM90_WG)
    constexpr uint32_t EBITS = F == SMMA_E2M1 ? 4 : 8;
    const uint64_t units = (uint64_t) op.rows * ((p.k + 15u) / 16u);

    for (uint64_t u = (uint64_t) blockIdx.x * 256u + threadIdx.x; u < units;
         u += (uint64_t) gridDim.x * 256u) {
        uint32_t row, k0, w[4], o[4];
        const uint8_t *src;

        smma_sm90_pre_unit(u, p.k, &row, &k0);
        src = op.src + smma_sm90_pre_off(op.src_ld, row, k0, EBITS);
        if (k0 + 16 > p.k) {
            s90_pre_tail(src, ((p.k - k0) * EBITS + 7) / 8, w); /* the bytes below K */
        } else if (F == SMMA_E2M1) {
            uint2 v = *(const uint2 *) src;

            w[0] = v.x;
            w[1] = v.y;
        } else {
            uint4 v = *(const uint4 *) src;

            w[0] = v.x;
            w[1] = v.y;
            w[2] = v.z;
            w[3] = v.w;
        }
#pragma unroll
        for (int i = 0; i < 4; i++)
            o[i] = F == SMMA_E2M1 ? p32_e2m1x4(w[i / 2] >> (16 * (i % 2)))
                   : F == SMMA_E2M3 ? p32_fp6x4<2>(w[i]) : p32_fp6x4<3>(w[i]);
        *(uint4 *) (op.dst + smma_sm90_pre_off(op.dst_ld, row, k0, 8))
            = make_uint4(o[0], o[1], o[2], o[3]);
    }
#else
    (void) p;
    (void) op;
    __trap(); /* smma_sm90_ready refuses to launch this */
#endif
}

namespace {

template <int AF, int BF>
const void *
p32_pick_c(const smma_sm90_plan *p)
{
    return p->c_kind != SMMA_PIPE_NONE ? (const void *) s90_gemm_p32<AF, BF, 1>
                                       : (const void *) s90_gemm_p32<AF, BF, 0>;
}

} /* namespace */

const void *
s90_p32_kernel(const smma_sm90_plan *p)
{
#define P32_PAIR(A, B)                                                                       \
    case SMMA_##A * 16 + SMMA_##B:                                                           \
        return p32_pick_c<SMMA_##A, SMMA_##B>(p)

    switch (p->a_fmt * 16 + p->b_fmt) {
        P32_PAIR(E4M3, E4M3);
        P32_PAIR(E4M3, E5M2);
        P32_PAIR(E5M2, E4M3);
        P32_PAIR(E5M2, E5M2);
        P32_PAIR(E2M3, E2M3);
        P32_PAIR(E3M2, E3M2);
        P32_PAIR(E2M1, E2M1);
        P32_PAIR(E4M3, E2M1);
    default:
        return NULL;
    }
#undef P32_PAIR
}

const void *
s90_p32_pre_kernel(uint32_t f)
{
    switch (f) {
    case SMMA_E2M1: return (const void *) s90_p32_pre<SMMA_E2M1>;
    case SMMA_E2M3: return (const void *) s90_p32_pre<SMMA_E2M3>;
    case SMMA_E3M2: return (const void *) s90_p32_pre<SMMA_E3M2>;
    default: return NULL;
    }
}
