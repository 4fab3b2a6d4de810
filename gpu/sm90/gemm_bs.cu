/*
 * gpu/sm90/gemm_bs.cu - sm90-bs (version 4 of the sm90 kernels): the
 * block-scaled pairs of sm80-bs-large -- MXFP8 (e4m3, e5m2, mixed), MXFP6
 * (e2m3, e3m2), MXFP4, NVFP4 (ue4m3 scales per 16; the per-tensor scales
 * as alpha), MXFP8 x MXFP4, bf16 x MXFP4 and bf16 x MXFP8 -- on the bf16
 * tensor core of Hopper, which has no block-scaled instruction.
 *
 * What it computes: every element times its scale, rounded once to bf16
 * (gpu/sm80/convert.cuh, the conversion sm80-bs-large runs), then sm90-v2's
 * chain: wgmma.m64n256k16 after wgmma.m64n256k16 in k order from C, one
 * fp32 accumulator per output.  That is the model bf16-upcast-h100, bit
 * for bit; sm90-promote32 computes the MX pairs under another model
 * (h100-fp8-promote32), and doc/kernels.md sets the two side by side.
 *
 * What it adds over sm90-v2 (gemm_v2.cu), and why:
 *   1. Two rings.  TMA lands the operands as stored (a quarter to a half of
 *      bf16's bytes; B multicast to the two CTAs of a cluster) in the ring
 *      `pipe`; converter threads turn each k-step into bf16 in a slot of
 *      the ring `conv`, laid out exactly as v2's stage, which the
 *      consumers read with v2's loop (s90_mainloop).  A slot of the stored
 *      ring is free as soon as the converters have read it, so TMA runs
 *      several k-steps ahead while the bf16 slots stay few (48 KB each).
 *   2. Converter warps of their own for B (the 128 threads of warpgroup 0,
 *      whose thread 0 issues the TMA boxes between its conversions), and
 *      each consumer warpgroup for its own 64 rows of A, which only its
 *      own wgmma read (s90_mainloop calls it before it waits for B; the
 *      tensor core is busy with the k-step before).  The conversion costs
 *      some 50 instructions per 16 elements, half of them at half the
 *      fp32 rate (the e4m3 and bf16 conversions, bench/cvt-rate.cu), and
 *      one warp a scheduler cannot issue them fast enough: with the
 *      converters alone on both operands the kernel ran at 0.27-0.37x
 *      cuBLAS bf16 on an H200, with the consumers' share 0.30-0.38x
 *      (bench/sm90-kernels.md).  Every
 *      thread owns the same units (16 k of one row, plan.h's
 *      smma_sm90_unit_first) in every k-step, loads their words before it
 *      converts the first, reads their scales from global memory a k-step
 *      ahead, and writes +0 into the elements past K in the last k-step
 *      (zero products change no sum: h100-bf16's zero_plus).
 *   3. 384 threads, as v2: ptxas gives a warp no more registers than the
 *      kernel's entry count (65536 / 384: 168) whatever setmaxnreg asks
 *      for, and a wgmma.m64n256k16's operands need more than the 128 of 512
 *      threads (C7602).  setmaxnreg (152 for the producer warpgroup, 176
 *      for the consumers) stays: without it ptxas serializes the wgmma
 *      (C7520) and spills.
 *   4. The scales a k-step ahead: each converter thread loads its eight
 *      scale bytes for the next k-step into registers before it waits for
 *      this one (a consumer thread its two).  Loaded four at a time just
 *      before use, their latency (the stall Nsight Compute blamed: long
 *      scoreboard) held the kernel at 0.12x cuBLAS.
 * Tiles of 128 x 256, persistent CTAs in clusters of two along M, the
 * grouped tile order and the TMA-store epilogue are v2's.
 *
 * That kernel is the teaching version of an in-kernel upcast, and the way
 * that needs no copy: each CTA converts its tile's rows in every k-step,
 * so each unit of B is converted once per tile row of D and each of A once
 * per tile column, at the rate above (0.30-0.38x cuBLAS bf16 at 8192^3 on
 * an H200).  What runs by default is the conversion pass at the end of
 * this file (s90_bs_pre): every unit once, at memory speed, into a bf16
 * copy of A and B, whose product v2 computes (launch.cu, pre_gemm):
 * 0.92-0.99x cuBLAS bf16 (bench/sm90-kernels.md).
 *
 * Run as `--kernel sm90-bs` (SMMA_GPU_SM90_BS); SMMA_SM90_PRE=0 runs the
 * kernel above instead of the pass; SMMA_SM90_STAGES sets its stored
 * ring's slots (v2's stages after the pass), _CLUSTER and _GROUP as for v2.
 */
#include <cuda_runtime.h>

#include "../sm80/convert.cuh"
#include "dev.cuh"

#define BS_THREADS 384
#define BS_CONV_REGS 152 /* the producer warpgroup (TMA and the converters) */
#define BS_MMA_REGS 176  /* the consumers: 152 + 2 x 176 = 504 of 512 a thread triple */

/* Units of B a converter thread owns per k-step (smma_sm90_unit_count's,
 * as a constant). */
template <int BN>
__host__ __device__ constexpr int
bs_nu(void)
{
    return 4 * BN / (int) SMMA_SM90_BS_CONVERTERS;
}

#if defined(SMMA_SM90_WG)

/* The plan with the fields fixed by the instance as constants (the tile,
 * the stored rows, the bf16 slot), so that the unit offsets fold. */
template <int AF, int BF, int BN>
static __device__ __forceinline__ smma_sm90_plan
bs_plan_for(const smma_sm90_plan &in)
{
    smma_sm90_plan p = s90_plan_for<2>(in);

    p.version = 4;
    p.bm = 128;
    p.bn = BN;
    p.ra = 8 * smma_sm90_fmt_bits(AF);
    p.rb = 8 * smma_sm90_fmt_bits(BF);
    p.off_ra = 0;
    p.off_rb = 128 * p.ra;
    p.off_a = 0;
    p.off_b = 128 * SMMA_SM90_ROWB;
    return p;
}

/* The 32-bit words of a unit of format F as stored: 16 elements of 2
 * bytes (bf16), half a byte (e2m1) or a byte (the others; an fp6 code in
 * the low six bits of its byte). */
template <int F>
__host__ __device__ constexpr int
bs_words(void)
{
    return F == CV_BF16 ? 8 : F == CV_E2M1 ? 2 : 4;
}

/* Loads the words of a unit of format F at `raw` into w (the first
 * bs_words<F>() of them). */
template <int F>
static __device__ __forceinline__ void
bs_load(const uint8_t *raw, uint32_t (&w)[8])
{
    if constexpr (F == CV_BF16) {
        uint4 lo = *(const uint4 *) raw, hi = *(const uint4 *) (raw + 16);

        w[0] = lo.x; w[1] = lo.y; w[2] = lo.z; w[3] = lo.w;
        w[4] = hi.x; w[5] = hi.y; w[6] = hi.z; w[7] = hi.w;
    } else if constexpr (bs_words<F>() == 2) {
        uint2 v = *(const uint2 *) raw;

        w[0] = v.x; w[1] = v.y;
    } else {
        uint4 v = *(const uint4 *) raw;

        w[0] = v.x; w[1] = v.y; w[2] = v.z; w[3] = v.w;
    }
}

/* The unit of format F in w times the scale byte sb of format SF, as eight
 * bf16 pairs (element 0 lowest); bf16 is copied. */
template <int F, int SF>
static __device__ __forceinline__ void
bs_unit(const uint32_t (&w)[8], uint32_t sb, uint32_t (&out)[8])
{
    if constexpr (F == CV_BF16) {
#pragma unroll
        for (int i = 0; i < 8; i++)
            out[i] = w[i];
    } else {
        cv_convert16<F, false>(w, SF, sb, out);
    }
}

/* A unit of the last k-step that reaches past K: its elements from K on
 * become +0, whatever TMA's zero codes times the block's scale give (a NaN
 * scale would make them NaN). */
static __device__ __forceinline__ void
bs_tail(uint32_t (&out)[8], uint32_t k0, uint32_t k)
{
#pragma unroll
    for (int e = 0; e < 16; e++)
        if (k0 + e >= k)
            out[e / 2] &= ~(0xffffu << (16 * (e % 2)));
}

/* The scale byte of unit q (of B when IS_B, else of A, format F) of the
 * tile at (m0, n0) in the k-step whose scale column is kb (the same for
 * every unit of a thread), koff its part of the offset (smma_sm90_sf_goff's,
 * split into a row's part and a column's): read from global memory, or 1
 * for a row past the matrix, a block past K and bf16.  32-bit offsets
 * (check.c keeps the scales below 4 GiB). */
template <int F, int SF, bool IS_B>
static __device__ __forceinline__ uint32_t
bs_scale(const smma_sm90_plan &p, const s90_bufs &x, uint32_t m0, uint32_t n0, uint32_t kb,
         uint32_t koff, uint32_t q)
{
    uint32_t g = IS_B ? n0 + q / 4 - 128 : m0 + q / 4, roff;

    if (F == CV_BF16 || g >= (IS_B ? p.n : p.m) || kb >= p.kb_cols)
        return cv_scale_one(SF);
    roff = p.sf_128x4
           ? (((g >> 7) * (p.kb_pad >> 2)) << 9) + ((g & 31) << 4) + (((g >> 5) & 3) << 2)
           : g * p.kb_cols;
    return __ldg((IS_B ? x.sb : x.sa) + roff + koff);
}

/* Issues the loads of the scale bytes of a thread's NU units q0 + cq + 128 j
 * in k-step kit of the tile at (m0, n0), one register each: they are read
 * a k-step later, so that their latency passes while this one converts. */
template <int F, int SF, bool IS_B, int NU>
static __device__ __forceinline__ void
bs_prefetch(uint32_t (&pre)[NU], const smma_sm90_plan &p, const s90_bufs &x, uint32_t m0,
            uint32_t n0, uint32_t kit, uint32_t q0, uint32_t cq)
{
    uint32_t kb = smma_sm90_unit_kb(&p, kit, cq);
    uint32_t koff = p.sf_128x4 ? ((kb >> 2) << 9) + (kb & 3) : kb;

#pragma unroll
    for (int j = 0; j < NU; j++)
        pre[j] = bs_scale<F, SF, IS_B>(p, x, m0, n0, kb, koff,
                                       q0 + cq + SMMA_SM90_BS_CONVERTERS * j);
}

/*
 * A thread's NU units q0 + cq + 128 j of a k-step (all of A or all of B:
 * format F), from the stored slot `raw` into the bf16 slot `conv`, with the
 * scale bytes sb[j]; TAIL: the last k-step reaches past K at k0 + 16 (a
 * separate instance, so that the other k-steps do not pay for its masks).
 * One straight line: cq is below 128 and q0 a multiple of 512 or of 256,
 * so unit j is row (q0 + cq) / 4 + 32 j with the k of cq % 4, and every
 * offset folds to a base plus a constant (the swizzle's row mod 8 is
 * cq's).  Every unit's words are loaded before the first is converted: the
 * compiler cannot move a shared load above a shared store it cannot tell
 * apart, and a unit at a time left the loads' latency between each unit
 * and the next.
 */
template <int F, int SF, int NU, bool TAIL>
static __device__ __forceinline__ void
bs_convert_units(const smma_sm90_plan &p, const uint8_t *raw, uint8_t *conv,
                 const uint32_t (&sb)[NU], uint32_t q0, uint32_t cq, uint32_t k0)
{
    constexpr uint32_t STEP = SMMA_SM90_BS_CONVERTERS;
    uint32_t w[NU][8];

#pragma unroll
    for (int j = 0; j < NU; j++)
        bs_load<F>(raw + smma_sm90_unit_raw(&p, q0 + cq + STEP * j), w[j]);
#pragma unroll
    for (int j = 0; j < NU; j++) {
        uint32_t q = q0 + cq + STEP * j, out[8];

        bs_unit<F, SF>(w[j], sb[j], out);
        if (TAIL)
            bs_tail(out, k0, p.k);
        *(uint4 *) (conv + smma_sm90_unit_conv(&p, q, 0))
            = make_uint4(out[0], out[1], out[2], out[3]);
        *(uint4 *) (conv + smma_sm90_unit_conv(&p, q, 1))
            = make_uint4(out[4], out[5], out[6], out[7]);
    }
}

/* Where the producer (converter thread 0) stands: the tile (its index
 * among the CTA's) and k-step of the next TMA, and its slot. */
struct bs_cursor {
    uint32_t i, kit;
    smma_pipe_pos pos;
};

/* Issues the TMA boxes of the cursor's k-step once its slot is free (every
 * converter warp of both CTAs has released it), as pipe_produce does, and
 * moves the cursor on; nothing past the CTA's last tile. */
static __device__ __forceinline__ void
bs_produce(const smma_sm90_plan &p, const s90_maps &maps, uint32_t sbase, uint32_t cta,
           uint32_t rank, uint32_t nt, bs_cursor &c)
{
    uint32_t tm, tn, m0, n0, full = sbase + smma_pipe_full(&p.pipe, c.pos.slot);

    if (c.i >= nt)
        return;
    smma_pipe_cta_tile(&p.pipe, cta, c.i, &tm, &tn);
    smma_sm90_origin(&p, tm, tn, &m0, &n0);
    pipe_bar_wait(sbase + smma_pipe_empty(&p.pipe, c.pos.slot), c.pos.phase ^ 1u);
    pipe_bar_arrive_tx(full, p.pipe.stage_tx);
    s90_load_kstep(p, maps, sbase + c.pos.slot * p.pipe.stage_bytes, full, m0, n0, c.kit, rank);
    smma_pipe_next(&p.pipe, &c.pos);
    if (++c.kit == p.pipe.kiters) {
        c.kit = 0;
        c.i++;
    }
}

/*
 * Converter thread ct (0 .. 127) of CTA cta: for every k-step the CTA
 * computes, its units of B, 512 + ct + 128 j (rows ct / 4 + 32 j of B, the
 * k of 16 (ct % 4) on: the same in every k-step), from the slot of the
 * stored ring into the slot of the bf16 ring (the consumers convert A's
 * rows themselves: bs_a_side).  It issues the loads of the next k-step's
 * scales (those of this one were loaded during the last), waits for the
 * stored slot and for the bf16 slot to be free, converts, releases the
 * stored slot (each warp once per CTA of the cluster: TMA multicasts B into
 * both) and arrives on the bf16 slot's full barrier.  Thread 0 is the
 * producer too: it fills the first stages - 1 slots of the stored ring,
 * then issues k-step g + stages - 1 as k-step g begins (its slot is the one
 * k-step g - 1 released).  (Polling the empty barriers between units
 * instead, to issue each slot as soon as it is free, made the kernel 20-30%
 * slower on the H200: bench/sm90-kernels.md.)
 */
template <int AF, int BF, int SF, int BN>
static __device__ __forceinline__ void
bs_convert(const smma_sm90_plan &p, const s90_maps &maps, const s90_bufs &x, uint8_t *smem,
           uint32_t sbase, uint32_t cta, uint32_t rank, uint32_t ct)
{
    constexpr int NU = bs_nu<BN>();
    const uint32_t Q0 = smma_sm90_unit_first(&p, 0);
    const uint32_t lane = ct % 32, nt = smma_pipe_cta_nunits(&p.pipe, cta);
    smma_pipe_pos pos = { 0, 0 }, cpos = { 0, 0 };
    bs_cursor prod = { 0, 0, { 0, 0 } };
    uint32_t i, kit, tm, tn, m0, n0, pre[NU];

    if (nt == 0)
        return;
    if (ct == 0) {
        pipe_tma_prefetch_map(&maps.m[SMMA_SM90_MAP_A]);
        pipe_tma_prefetch_map(&maps.m[SMMA_SM90_MAP_B]);
        for (i = 0; i + 1 < p.pipe.stages; i++)
            bs_produce(p, maps, sbase, cta, rank, nt, prod);
    }
    smma_pipe_cta_tile(&p.pipe, cta, 0, &tm, &tn);
    smma_sm90_origin(&p, tm, tn, &m0, &n0);
    bs_prefetch<BF, SF, true, NU>(pre, p, x, m0, n0, 0, Q0, ct);
    for (i = 0; i < nt; i++) {
        uint32_t m1 = 0, n1 = 0;

        smma_pipe_cta_tile(&p.pipe, cta, i, &tm, &tn);
        smma_sm90_origin(&p, tm, tn, &m0, &n0);
        if (i + 1 < nt) {
            smma_pipe_cta_tile(&p.pipe, cta, i + 1, &tm, &tn);
            smma_sm90_origin(&p, tm, tn, &m1, &n1);
        }
        for (kit = 0; kit < p.pipe.kiters; kit++) {
            const uint8_t *raw = smem + pos.slot * p.pipe.stage_bytes;
            uint8_t *conv = smem + p.off_conv + cpos.slot * p.conv.stage_bytes;
            uint32_t k0 = kit * p.bk + 16 * (ct % 4), sb[NU], cq = ct;
            bool tail = k0 + 16 > p.k;

            /* The units' offsets computed afresh in each k-step (a few
             * integer operations): hoisted out of the loop, the sixteen
             * units' offsets went to local memory. */
            asm volatile("" : "+r"(cq));
            cq %= SMMA_SM90_BS_CONVERTERS;

            /* This k-step's scales (loaded during the last one); then the
             * loads of the next k-step's, before the waits. */
#pragma unroll
            for (int j = 0; j < NU; j++)
                sb[j] = pre[j];
            if (kit + 1 < p.pipe.kiters)
                bs_prefetch<BF, SF, true, NU>(pre, p, x, m0, n0, kit + 1, Q0, cq);
            else if (i + 1 < nt)
                bs_prefetch<BF, SF, true, NU>(pre, p, x, m1, n1, 0, Q0, cq);
            if (ct == 0)
                bs_produce(p, maps, sbase, cta, rank, nt, prod);
            pipe_wait_full(p.pipe, sbase, pos);
            pipe_bar_wait(sbase + smma_pipe_empty(&p.conv, cpos.slot), cpos.phase ^ 1u);
            if (tail)
                bs_convert_units<BF, SF, NU, true>(p, raw, conv, sb, Q0, cq, k0);
            else
                bs_convert_units<BF, SF, NU, false>(p, raw, conv, sb, Q0, cq, k0);
            /* The warp has read the stored slot; its bf16 writes go to the
             * consumers' wgmma (the asynchronous proxy). */
            __syncwarp();
            pipe_release(p.pipe, sbase, pos.slot, lane);
            pipe_fence_async_smem();
            pipe_bar_arrive(sbase + smma_pipe_full(&p.conv, cpos.slot));
            smma_pipe_next(&p.pipe, &pos);
            smma_pipe_next(&p.conv, &cpos);
        }
    }
}

/*
 * A consumer warpgroup's share of each bf16 slot: its own 64 rows of A
 * (units 256 c + t + 128 j, j = 0, 1), which only its own wgmma read, so
 * that no other warpgroup waits for them.  Called by s90_mainloop before
 * it waits for the converters' B; the tensor core is still busy with the
 * k-step before, whose group is in flight.  For k-step kit into bf16 slot
 * cslot: the scales (a k-step ahead, as the converters'; a tile's first
 * k-step's loaded as it begins), the stored slot's A, its release (each
 * warp, as the converters do), the conversion, and the warpgroup's barrier
 * after the fence, so that its wgmma read the whole of its A.
 */
template <int AF, int SF>
struct bs_a_side {
    const smma_sm90_plan &p;
    const s90_bufs &x;
    uint8_t *smem;
    uint32_t sbase, c, t, m0;
    smma_pipe_pos pos;
    uint32_t pre[2];

    __device__ __forceinline__ void
    operator()(uint32_t kit, uint32_t cslot)
    {
        const uint8_t *raw = smem + pos.slot * p.pipe.stage_bytes;
        uint8_t *conv = smem + p.off_conv + cslot * p.conv.stage_bytes;
        uint32_t k0 = kit * p.bk + 16 * (t % 4), sb[2], q0 = smma_sm90_unit_first(&p, 1 + c);

        if (kit == 0)
            bs_prefetch<AF, SF, false, 2>(pre, p, x, m0, 0, 0, q0, t);
        sb[0] = pre[0];
        sb[1] = pre[1];
        if (kit + 1 < p.pipe.kiters)
            bs_prefetch<AF, SF, false, 2>(pre, p, x, m0, 0, kit + 1, q0, t);
        pipe_wait_full(p.pipe, sbase, pos);
        if (k0 + 16 > p.k)
            bs_convert_units<AF, SF, 2, true>(p, raw, conv, sb, q0, t, k0);
        else
            bs_convert_units<AF, SF, 2, false>(p, raw, conv, sb, q0, t, k0);
        __syncwarp();
        pipe_release(p.pipe, sbase, pos.slot, t % 32);
        smma_pipe_next(&p.pipe, &pos);
        pipe_fence_async_smem();
        pipe_named_sync(1 + c, 128);
    }
};

#endif /* SMMA_SM90_WG */

template <int AF, int BF, int SF, int HAS_C>
__global__ void __launch_bounds__(BS_THREADS, 1)
s90_gemm_bs(const smma_sm90_plan plan, const __grid_constant__ s90_maps maps, const s90_bufs x)
{
#if defined(SMMA_SM90_WG)
    constexpr int BN = 256;
    const smma_sm90_plan p = bs_plan_for<AF, BF, BN>(plan);
    extern __shared__ uint8_t dyn[];
    uint8_t *smem = pipe_smem_base(dyn);
    uint32_t sbase = pipe_smem(smem), wg = threadIdx.x / 128, t = threadIdx.x % 128;
    uint32_t cta = blockIdx.x, cluster = p.pipe.cluster;
    uint32_t rank = cluster > 1 ? pipe_cluster_rank() : 0;
    uint32_t ntiles = smma_pipe_cta_nunits(&p.pipe, cta);

    /* The stored ring: full[s] on the producer's arrival and the bytes,
     * empty[s] on a release from each warp of each CTA of the cluster (the
     * converters read B, the consumers their rows of A); the bf16 ring:
     * full[s] on every converter thread, empty[s] on each consumer
     * warpgroup of this CTA. */
    if (threadIdx.x == 0) {
        pipe_init_ring(p.pipe, sbase, (BS_THREADS / 32) * cluster);
        pipe_init_ring(p.conv, sbase, 2, SMMA_SM90_BS_CONVERTERS);
        pipe_bar_init_fence();
    }
    if (cluster > 1)
        pipe_cluster_sync();
    else
        __syncthreads();

    if (wg == 0) {
        s90_setmaxnreg_dec<BS_CONV_REGS>();
        bs_convert<AF, BF, SF, BN>(p, maps, x, smem, sbase, cta, rank, t);
    } else {
        /* A consumer: rows 64 (wg - 1) .. + 63 of every tile. */
        uint32_t c = wg - 1, ebuf = 0, i, tm, tn, m0, n0;
        smma_pipe_pos pos = { 0, 0 };
        uint32_t d[BN / 2];
        bs_a_side<AF, SF> a_side = { p, x, smem, sbase, c, t, 0, { 0, 0 }, { 0, 0 } };

        s90_setmaxnreg_inc<BS_MMA_REGS>();
        for (i = 0; i < ntiles; i++) {
            bool inside = smma_pipe_cta_tile(&p.pipe, cta, i, &tm, &tn);

            smma_sm90_origin(&p, tm, tn, &m0, &n0);
            if (HAS_C)
                s90_load_c(p, x.c, d, c, t, m0, n0);
            a_side.m0 = m0;
            s90_mainloop<BN, 0, 0, false>(p, p.conv, sbase, sbase + p.off_conv,
                                          smem + p.off_conv, d, &pos, c, t, a_side);
            if (inside)
                s90_epilogue<BN>(p, maps, x, smem, sbase, d, c, t, m0, n0, &ebuf);
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
 * The conversion pass of sm90-bs (plan.h, smma_sm90_pre_ld): each thread
 * takes units of 16 elements of operand op (format F, scales SF) -- a row
 * and a k0 from the unit's number, as stored at src + row src_ld -- and
 * writes them times their scale as bf16 (bs_unit: the converters' very
 * function, so the bits are the fused kernel's) at dst + row dst_ld + 2 k0.
 * Consecutive threads take consecutive units of a row: the loads (8 or 16
 * bytes) and the stores (32) are coalesced.  A last unit that reaches past
 * K reads only its bytes within the row and writes +0 past K.
 */
template <int F, int SF>
__global__ void __launch_bounds__(256)
s90_bs_pre(const smma_sm90_plan p, const s90_pre_op op)
{
#if defined(SMMA_SM90_WG)
    /* An element as stored: 2 bits per word of the unit. */
    constexpr uint32_t EBITS = 2 * bs_words<F>();
    const uint64_t units = (uint64_t) op.rows * ((p.k + 15u) / 16u);

    for (uint64_t u = (uint64_t) blockIdx.x * 256u + threadIdx.x; u < units;
         u += (uint64_t) gridDim.x * 256u) {
        uint32_t row, k0, w[8], out[8];
        const uint8_t *src;
        uint4 *dst;

        smma_sm90_pre_unit(u, p.k, &row, &k0);
        src = op.src + smma_sm90_pre_off(op.src_ld, row, k0, EBITS);
        if (k0 + 16 <= p.k) {
            bs_load<F>(src, w);
        } else {
            s90_pre_tail(src, ((p.k - k0) * EBITS + 7) / 8, w); /* the bytes below K */
        }
        bs_unit<F, SF>(w, __ldg(op.sf + smma_sm90_sf_goff(&p, row, k0 >> p.vshift)), out);
        if (k0 + 16 > p.k)
            bs_tail(out, k0, p.k);
        dst = (uint4 *) (op.dst + smma_sm90_pre_off(op.dst_ld, row, k0, 16));
        dst[0] = make_uint4(out[0], out[1], out[2], out[3]);
        dst[1] = make_uint4(out[4], out[5], out[6], out[7]);
    }
#else
    (void) p;
    (void) op;
    __trap(); /* smma_sm90_ready refuses to launch this */
#endif
}

namespace {

template <int AF, int BF, int SF>
const void *
bs_pick_c(const smma_sm90_plan *p)
{
    return p->c_kind != SMMA_PIPE_NONE ? (const void *) s90_gemm_bs<AF, BF, SF, 1>
                                       : (const void *) s90_gemm_bs<AF, BF, SF, 0>;
}

} /* namespace */

/* The instance for a plan: the pairs of smma_gpu_bs_pair_fast with e8m0
 * scales, and NVFP4 (e2m1 x e2m1 with ue4m3); NULL for another (check.c
 * refuses it first). */
const void *
s90_bs_kernel(const smma_sm90_plan *p)
{
#define BS_PAIR(A, B)                                                                        \
    case SMMA_##A * 16 + SMMA_##B:                                                           \
        return bs_pick_c<CV_##A, CV_##B, CV_E8M0>(p)

    if (p->sf_fmt == SMMA_UE4M3)
        return p->a_fmt == SMMA_E2M1 && p->b_fmt == SMMA_E2M1
               ? bs_pick_c<CV_E2M1, CV_E2M1, CV_UE4M3>(p) : NULL;
    switch (p->a_fmt * 16 + p->b_fmt) {
        BS_PAIR(E4M3, E4M3);
        BS_PAIR(E4M3, E5M2);
        BS_PAIR(E5M2, E4M3);
        BS_PAIR(E5M2, E5M2);
        BS_PAIR(E2M3, E2M3);
        BS_PAIR(E3M2, E3M2);
        BS_PAIR(E2M1, E2M1);
        BS_PAIR(E4M3, E2M1);
        BS_PAIR(BF16, E2M1);
        BS_PAIR(BF16, E4M3);
    default:
        return NULL;
    }
#undef BS_PAIR
}

const void *
s90_bs_pre_kernel(const smma_sm90_plan *p, bool is_b)
{
    uint32_t f = is_b ? p->b_fmt : p->a_fmt;

    if (p->sf_fmt == SMMA_UE4M3)
        return f == SMMA_E2M1 ? (const void *) s90_bs_pre<CV_E2M1, CV_UE4M3> : NULL;
    switch (f) {
    case SMMA_E4M3: return (const void *) s90_bs_pre<CV_E4M3, CV_E8M0>;
    case SMMA_E5M2: return (const void *) s90_bs_pre<CV_E5M2, CV_E8M0>;
    case SMMA_E2M3: return (const void *) s90_bs_pre<CV_E2M3, CV_E8M0>;
    case SMMA_E3M2: return (const void *) s90_bs_pre<CV_E3M2, CV_E8M0>;
    case SMMA_E2M1: return (const void *) s90_bs_pre<CV_E2M1, CV_E8M0>;
    default: return NULL;
    }
}
