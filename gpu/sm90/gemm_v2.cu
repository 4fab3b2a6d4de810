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

template <int BN, int FP16, int TRANS_B, int HAS_C>
__global__ void __launch_bounds__(384, 1)
s90_gemm_v2(const smma_sm90_plan plan, const __grid_constant__ s90_maps maps, const s90_bufs x)
{
#if defined(SMMA_SM90_WG)
    const smma_sm90_plan p = s90_plan_for<2>(plan);
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
        uint32_t c = wg - 1, ebuf = 0, i, tm, tn, m0, n0;
        smma_pipe_pos pos = { 0, 0 };
        uint32_t d[BN / 2];
        s90_no_pre none;

        s90_setmaxnreg_inc<232>();
        for (i = 0; i < ntiles; i++) {
            bool inside = smma_pipe_cta_tile(&p.pipe, cta, i, &tm, &tn);

            smma_sm90_origin(&p, tm, tn, &m0, &n0);
            if (HAS_C)
                s90_load_c(p, x.c, d, c, t, m0, n0);
            s90_mainloop<BN, FP16, TRANS_B, true>(p, p.pipe, sbase, sbase, smem, d, &pos, c,
                                                  t, none);
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

} /* namespace */

const void *
s90_v2_kernel(const smma_sm90_plan *p)
{
    return p->bn == 256 ? v2_pick_types<256>(p) : v2_pick_types<128>(p);
}
