/*
 * gpu/sm90/gemm_v2.cu - sm90-v2, the fast kernel: the GEMM of sm90-v1 (same
 * numbers, bit for bit: one chain of wgmma.m64nNk16 per output in k order,
 * C in the accumulator first) with the tensor core kept busy.
 *
 * What it adds over v1, and why:
 *   1. Warp specialization (384 threads): warpgroup 0 produces (one thread
 *      issues every TMA box, through the shared pipeline's producer loop,
 *      gpu/pipe.cuh) and gives most of its registers away (setmaxnreg 40);
 *      warpgroups 1 and 2 consume (setmaxnreg 232), each the 64 rows of its
 *      half of a 128 x bn tile (cooperative), so the tensor core never
 *      waits for a load that TMA could have started earlier.
 *   2. A full/empty mbarrier ring of up to 8 stage slots: a consumer
 *      releases a slot as soon as the wgmma that read it have completed
 *      (wgmma.wait_group 1 keeps the k-step just issued in flight), so the
 *      producer refills it while the next k-step multiplies.
 *   3. Tiles of 128 x 256 (128 x 128 for n <= 128): one m64n256k16 per
 *      warpgroup per 16 k, the largest wgmma, 128 accumulator registers a
 *      thread.
 *   4. Persistent CTAs (one per multiprocessor) with the pipeline's static
 *      scheduler and grouped tile order, so the loads of the next tile start
 *      during the epilogue of this one and CTAs that run together share
 *      panels of A and B in L2.
 *   5. Clusters of two CTAs along M with B multicast: the two tiles of a
 *      cluster share their columns of B, each CTA loads half of it and TMA
 *      writes it into both (half of B's traffic through L2); each consumer
 *      releases a slot in both CTAs.
 *   6. The epilogue through shared memory: each consumer warpgroup writes
 *      64 x 128-byte chunks of D (swizzled, two buffers) and one thread sends
 *      each with a TMA store, so the stores are whole lines and overlap the
 *      next chunk's conversion.  D whose rows are not 16-byte aligned is
 *      stored from the registers instead.
 * CUTLASS 3 calls this structure the "cooperative" warp-specialized kernel;
 * bench/sm90-kernels.md records how it compares.
 *
 * Build and run as sm90-v1 (SMMA_GPU_SM90_V2, `--kernel sm90-v2`); the
 * tuning knobs SMMA_SM90_BN, _STAGES, _CLUSTER and _GROUP (sm90.h) are for
 * bench/gemm-bench.
 */
#include <cuda_runtime.h>

#include "dev.cuh"

#if defined(SMMA_SM90_WG)

/* D of one consumer warpgroup (wg 0 or 1 of the tile) through its two
 * epilogue buffers: chunk q (CW columns: 128 bytes of D) of the
 * registers, converted (D's kind KIND, alpha or not: chosen once per tile),
 * into buffer *ebuf % 2 at plan.h's swizzled offsets, then one TMA store of
 * that box.  Before a buffer is written again, the thread that issued its
 * store waits until the store has read it. */
template <int BN, uint32_t KIND, bool ALPHA>
static __device__ __forceinline__ void
v2_epilogue_tma(const smma_sm90_plan &p, const s90_maps &maps, uint8_t *smem, uint32_t sbase,
                const uint32_t (&d)[BN / 2], uint32_t wg, uint32_t t, uint32_t m0, uint32_t n0,
                uint32_t *ebuf)
{
    constexpr int CW = KIND == SMMA_PIPE_F32 ? 32 : 64;
    constexpr int REGS = CW / 2;        /* registers of a thread per chunk */
    uint32_t row, col;

#pragma unroll
    for (int q = 0; q < BN / CW; q++) {
        uint32_t buf = *ebuf & 1u;
        int32_t c[2];

        if (t == 0)
            pipe_bulk_wait_read<1>();
        pipe_named_sync(1 + wg, 128);
#pragma unroll
        for (int r = q * REGS; r < (q + 1) * REGS; r += 2) {
            uint32_t v0 = pipe_epi<KIND, ALPHA>(p.alpha, d[r]);
            uint32_t v1 = pipe_epi<KIND, ALPHA>(p.alpha, d[r + 1]);

            smma_sm90_d_cell(0, t, (uint32_t) r, &row, &col);
            if (KIND == SMMA_PIPE_F32)
                *(uint2 *) (smem + smma_sm90_epi_off(&p, wg, buf, row, col - q * CW)) =
                    make_uint2(v0, v1);
            else
                *(uint32_t *) (smem + smma_sm90_epi_off(&p, wg, buf, row, col - q * CW)) =
                    v0 | v1 << 16;
        }
        /* Generic-proxy writes, read next by the TMA store. */
        pipe_fence_async_smem();
        pipe_named_sync(1 + wg, 128);
        if (t == 0) {
            smma_sm90_epi_coord(&p, m0, n0, wg, (uint32_t) q, c);
            pipe_tma_store_2d(&maps.m[SMMA_SM90_MAP_D], c[0], c[1],
                              sbase + smma_sm90_epi_off(&p, wg, buf, 0, 0));
            pipe_bulk_commit();
        }
        (*ebuf)++;
    }
}

/* The epilogue of a tile: through the TMA-store buffers in the case of D
 * and alpha the plan has, or from the registers where D's rows are not
 * 16-byte aligned. */
template <int BN>
static __device__ __forceinline__ void
v2_epilogue(const smma_sm90_plan &p, const s90_maps &maps, const s90_bufs &x, uint8_t *smem,
            uint32_t sbase, const uint32_t (&d)[BN / 2], uint32_t wg, uint32_t t, uint32_t m0,
            uint32_t n0, uint32_t *ebuf)
{
    if (!p.epi_tma)
        s90_store_regs(p, x.d, d, wg, t, m0, n0);
    else if (p.has_alpha && p.d_kind == SMMA_PIPE_F32)
        v2_epilogue_tma<BN, SMMA_PIPE_F32, true>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else if (p.has_alpha && p.d_kind == SMMA_PIPE_BF16)
        v2_epilogue_tma<BN, SMMA_PIPE_BF16, true>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else if (p.has_alpha)
        v2_epilogue_tma<BN, SMMA_PIPE_F16, true>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else if (p.d_kind == SMMA_PIPE_F32)
        v2_epilogue_tma<BN, SMMA_PIPE_F32, false>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else if (p.d_kind == SMMA_PIPE_BF16)
        v2_epilogue_tma<BN, SMMA_PIPE_BF16, false>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else
        v2_epilogue_tma<BN, SMMA_PIPE_F16, false>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
}

#endif /* SMMA_SM90_WG */

template <int BN, int FP16, int TRANS_B, int HAS_C>
__global__ void __launch_bounds__(384, 1)
s90_gemm_v2(const smma_sm90_plan p, const __grid_constant__ s90_maps maps, const s90_bufs x)
{
#if defined(SMMA_SM90_WG)
    extern __shared__ uint8_t dyn[];
    uint8_t *smem = pipe_smem_base(dyn);
    uint32_t sbase = pipe_smem(smem), wg = threadIdx.x / 128, t = threadIdx.x % 128;
    uint32_t cta = blockIdx.x, cluster = p.pipe.cluster;
    uint32_t rank = cluster > 1 ? pipe_cluster_rank() : 0;
    uint32_t ntiles = smma_pipe_cta_nunits(&p.pipe, cta);

    /* The ring: full[s] completes on the producer's arrival and the stage's
     * bytes (its own loads and its peer's multicast), empty[s] on one
     * release from each consumer warpgroup of each CTA of the cluster. */
    if (threadIdx.x == 0) {
        pipe_init_ring(p.pipe, sbase, 2 * cluster);
        pipe_bar_init_fence();
    }
    if (cluster > 1)
        pipe_cluster_sync();
    else
        __syncthreads();

    if (wg == 0) {
        /* The producer. */
        s90_setmaxnreg_dec<40>();
        if (t == 0) {
            pipe_tma_prefetch_map(&maps.m[SMMA_SM90_MAP_A]);
            pipe_tma_prefetch_map(&maps.m[SMMA_SM90_MAP_B]);
            pipe_produce(p.pipe, sbase, cta,
                         [&](uint32_t st, uint32_t full, uint32_t tm, uint32_t tn, uint32_t kit) {
                             uint32_t m0, n0;

                             smma_sm90_origin(&p, tm, tn, &m0, &n0);
                             s90_load_kstep(p, maps, st, full, m0, n0, kit, rank);
                         });
        }
    } else {
        /* A consumer: rows 64 (wg - 1) .. + 63 of every tile. */
        uint32_t c = wg - 1, ebuf = 0, i, kit, tm, tn, m0, n0, prev = 0;
        uint32_t kfull = smma_sm90_full_ksteps(&p);
        smma_pipe_pos pos = { 0, 0 };
        uint32_t d[BN / 2];

        s90_setmaxnreg_inc<232>();
        for (i = 0; i < ntiles; i++) {
            bool inside = smma_pipe_cta_tile(&p.pipe, cta, i, &tm, &tn);

            smma_sm90_origin(&p, tm, tn, &m0, &n0);
            if (HAS_C)
                s90_load_c(p, x.c, d, c, t, m0, n0);
            /* The whole k-steps: four wgmma each, one group in flight
             * behind the one just issued; the previous k-step's slot is
             * free once its group is done. */
            for (kit = 0; kit < kfull; kit++, smma_pipe_next(&p.pipe, &pos)) {
                pipe_wait_full(p.pipe, sbase, pos);
                s90_kstep<BN, FP16, TRANS_B>(p, d, sbase + pos.slot * p.pipe.stage_bytes, c,
                                             kit);
                s90_wgmma_wait<1>();
                s90_fence_regs(d);
                if (kit > 0)
                    pipe_release(p.pipe, sbase, prev, t);
                prev = pos.slot;
            }
            /* A ragged last k-step: the fix-up, then the wgmma that hold a k
             * below K. */
            if (kfull < p.pipe.kiters) {
                uint32_t st = sbase + pos.slot * p.pipe.stage_bytes;

                pipe_wait_full(p.pipe, sbase, pos);
                if (smma_sm90_fix_cols(&p, kfull) != 0) {
                    s90_fixup(p, smem + pos.slot * p.pipe.stage_bytes, kfull, c, t);
                    pipe_fence_async_smem();
                    pipe_named_sync(1 + c, 128);
                }
                s90_kstep_short<BN, FP16, TRANS_B>(p, d, st, c, kfull,
                                                   smma_sm90_nk16(&p, kfull));
                s90_wgmma_wait<1>();
                s90_fence_regs(d);
                if (kfull > 0)
                    pipe_release(p.pipe, sbase, prev, t);
                prev = pos.slot;
                smma_pipe_next(&p.pipe, &pos);
            }
            s90_wgmma_wait<0>();
            s90_fence_regs(d);
            pipe_release(p.pipe, sbase, prev, t);
            if (inside)
                v2_epilogue<BN>(p, maps, x, smem, sbase, d, c, t, m0, n0, &ebuf);
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
    (void) p;
    (void) maps;
    (void) x;
    __trap(); /* smma_sm90_ready refuses to launch this */
#endif
}

namespace {

/* The instance for a plan. */
template <int BN, int FP16, int TRANS_B>
const void *
v2_pick_c(const smma_sm90_plan *p)
{
    return p->c_kind != SMMA_PIPE_NONE ? (const void *) s90_gemm_v2<BN, FP16, TRANS_B, 1>
                                       : (const void *) s90_gemm_v2<BN, FP16, TRANS_B, 0>;
}

template <int BN>
const void *
v2_pick_types(const smma_sm90_plan *p)
{
    if (p->fp16)
        return p->b_nmajor ? v2_pick_c<BN, 1, 1>(p) : v2_pick_c<BN, 1, 0>(p);
    return p->b_nmajor ? v2_pick_c<BN, 0, 1>(p) : v2_pick_c<BN, 0, 0>(p);
}

const void *
v2_kernel(const smma_sm90_plan *p)
{
    return p->bn == 256 ? v2_pick_types<256>(p) : v2_pick_types<128>(p);
}

/* The launch configuration of plan *p (cluster dimension attr). */
cudaLaunchConfig_t
v2_config(const smma_sm90_plan *p, cudaStream_t st, cudaLaunchAttribute *attr)
{
    cudaLaunchConfig_t cfg = {};

    cfg.gridDim = dim3(p->pipe.grid);
    cfg.blockDim = dim3(384);
    cfg.dynamicSmemBytes = p->smem_bytes;
    cfg.stream = st;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = p->pipe.cluster;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cfg;
}

} /* namespace */

unsigned
s90_v2_max_clusters(const smma_sm90_plan *p)
{
    /* The answers so far, per instance and shared memory (the query costs
     * more than a launch). */
    static struct {
        const void *k;
        uint32_t smem;
        unsigned n;
    } seen[32];
    static unsigned nseen;
    const void *k = v2_kernel(p);
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg = v2_config(p, 0, &attr);
    unsigned i;
    int n = 0;

    for (i = 0; i < nseen; i++)
        if (seen[i].k == k && seen[i].smem == p->smem_bytes)
            return seen[i].n;
    if (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int) p->smem_bytes) != cudaSuccess
        || cudaOccupancyMaxActiveClusters(&n, k, &cfg) != cudaSuccess) {
        (void) cudaGetLastError();
        return 0;
    }
    if (nseen < sizeof(seen) / sizeof(seen[0])) {
        seen[nseen].k = k;
        seen[nseen].smem = p->smem_bytes;
        seen[nseen++].n = n > 0 ? (unsigned) n : 0;
    }
    return n > 0 ? (unsigned) n : 0;
}

int
s90_launch_v2(const smma_sm90_plan *p, const s90_maps *maps, const s90_bufs *b, cudaStream_t st,
              char *msg, size_t len)
{
    const void *k = v2_kernel(p);
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg = v2_config(p, st, &attr);
    void *args[3] = { (void *) p, (void *) maps, (void *) b };
    cudaError_t e;

    if ((e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int) p->smem_bytes)) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaFuncSetAttribute", e);
    if ((e = cudaLaunchKernelExC(&cfg, k, args)) != cudaSuccess
        || (e = cudaGetLastError()) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "sm90-v2 launch", e);
    return SMMA_GPU_STATUS_OK;
}
