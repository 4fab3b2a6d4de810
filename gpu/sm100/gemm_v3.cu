/*
 * gpu/sm100/gemm_v3.cu - sm100-v3: the block-scaled GEMM of sm100-v2 (the
 * same numbers, bit for bit: one chain of tcgen05.mma per output in k
 * order, under b200-fp8) computed by pairs of CTAs, each pair one 256 x bn
 * tile with tcgen05.mma.cta_group::2 (M = 256), the instruction of
 * CUTLASS's fastest block-scaled Blackwell GEMMs (its 2SM atoms).
 *
 * What it adds over v2, and why:
 *   1. CTA pairs (clusters of 2; rank 0 the leader, rank 1 its peer): one
 *      tcgen05.mma of M = 256 reads A's 128 rows of each CTA from that
 *      CTA's shared memory and B's bn columns half from each (b_rows = bn /
 *      2 per CTA), and writes D's 128 rows of each CTA into its own TMEM.
 *      Each CTA loads bn / 2 rows of B per k-step instead of bn: for the
 *      same 128 x bn outputs per CTA, a third less shared memory written
 *      by TMA and read by the tensor core at bn = 256 (doc/sm100.md counts
 *      it), which also leaves room for more stages.
 *   2. The leader issues all the pair's tensor-core work: the scale
 *      copies (tcgen05.cp.cta_group::2: each CTA's blocks into its own
 *      TMEM, scale_B's every block in both) and the MMAs, half the
 *      instructions v2 issues per 128 x bn outputs.
 *   3. TMA multicast: every CTA needs all bn rows of scale_B (its tensor
 *      core scales every column), so each block is loaded once, by one
 *      CTA of the pair, into both (cp.async.bulk.tensor ...
 *      .multicast::cluster), completing bytes on both CTAs' full barriers.
 *   4. Both CTAs' barriers: the leader releases a stage slot of both CTAs
 *      and hands both epilogues their accumulator with one
 *      tcgen05.commit.cta_group::2 ... .multicast::cluster of mask 0b11;
 *      the peer's warp 1 waits for its own full barrier, applies its fix-up
 *      of a ragged last k-step and tells the leader (pfull, an arrival
 *      released at cluster scope); both CTAs' epilogue warps arrive on the
 *      leader's acc_empty (8 arrivals).  CUTLASS instead makes the peer's
 *      TMA complete its bytes on the leader's barrier (TMA's .cta_group::2
 *      form), which saves that relay; softmma does not model that form.
 * Roles per CTA (192 threads, as v2): warp 0 the producer, warp 1 the MMA
 * issuer (leader) or the relay (peer), warps 2-5 the epilogue of the CTA's
 * own 128 rows.  Persistent pairs take the tiles of the scheduler's units
 * (gpu/pipe.h: a unit is the two 128-row tiles of one 256-row tile).
 * Every tcgen05 instruction of the kernel is cta_group::2 (alloc, cp, mma,
 * commit, dealloc), as ptxas requires of a kernel.
 *
 * Every address, box, descriptor and TMEM column comes from plan.h, whose
 * v3 plan tests/sim/sm100-dry-t runs on the simulator pair by pair.  Build
 * and run as sm100-v1 (SMMA_GPU_SM100_V3).  Not yet run on any GPU.
 */
#include <cuda_runtime.h>

#include "dev.cuh"
#include "kernels.h"
#include "tma.cuh"

#if defined(SMMA_SM100_TC05)

/* The producer (one thread) of CTA `cta`, rank `rank` of its pair: per
 * k-step of its tiles, its own A, B and scale-of-A boxes, and the scale-of-B
 * blocks it multicasts to both CTAs; then the tail (both CTAs' barriers
 * receive the leader's commits until the last slot is released). */
static __device__ __forceinline__ void
v3_produce(const smma_sm100_plan &p, const s100_maps *maps, uint32_t sbase, uint32_t cta,
           uint32_t rank)
{
    smma_pipe_pos end;
    uint32_t w;

    for (w = 0; w < 4; w++)
        pipe_tma_prefetch_map(&maps->m[w]);
    end = pipe_produce(p.pipe, sbase, cta,
                       [&](uint32_t st, uint32_t full, uint32_t tm, uint32_t tn, uint32_t kit) {
                           uint32_t m0 = tm * SMMA_SM100_BM, n0 = tn * p.bn, q, i, off;
                           int32_t c[4];

                           for (q = 0; q < 3; q++) {
                               off = smma_sm100_tma_coord_cta(&p, rank, q, m0, n0, kit, c);
                               if (q < 2)
                                   pipe_tma_2d(st + off, &maps->m[q], c[0], c[1], full);
                               else
                                   pipe_tma_4d(st + off, &maps->m[q], c[0], c[1], c[2], c[3],
                                               full);
                           }
                           for (i = 0; i < smma_sm100_v3_nsfb(&p, rank); i++) {
                               off = smma_sm100_v3_sfb_box(&p, rank, i, n0, kit, c);
                               pipe_tma_4d_mc(st + off, &maps->m[SMMA_SM100_BUF_SFB], c[0], c[1],
                                              c[2], c[3], full, SMMA_SM100_PAIR_MASK);
                           }
                       });
    pipe_produce_tail(p.pipe, sbase, end);
}

/* Hands accumulator i % acc_stages to the leader for local tile i: C
 * stored into this CTA's rows of it first when there is a C, then one
 * arrival per warp on the leader's acc_empty, released at cluster scope. */
static __device__ __forceinline__ void
v3_give_acc(const smma_sm100_plan &p, const s100_bufs &x, uint32_t sbase, uint32_t tbase,
            uint32_t part, uint32_t lane, uint32_t i)
{
    uint32_t acc = i % p.acc_stages, tm, tn;

    if (p.c_kind != SMMA_SM100_NONE) {
        smma_pipe_cta_tile(&p.pipe, blockIdx.x, i, &tm, &tn);
        s100_load_c(p, x.c, tbase + acc * p.bn, part, lane, tm * SMMA_SM100_BM, tn * p.bn);
    }
    s100_tc05_before_sync();
    __syncwarp();
    if (lane == 0)
        pipe_bar_arrive_cluster<true>(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_EMPTY, acc),
                                      0);
}

#endif /* SMMA_SM100_TC05 */

/* The CTA pair as the kernel's own cluster dimensions; a device pass for an
 * architecture without clusters (the sm_80 code of a build for several)
 * compiles the kernel without them (its body is empty there). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define S100_V3_CLUSTER
#else
#define S100_V3_CLUSTER __cluster_dims__(2, 1, 1)
#endif

template <int KIND>
__global__ void S100_V3_CLUSTER __launch_bounds__(192, 1)
s100_gemm_v3(const smma_sm100_plan p, const __grid_constant__ s100_maps maps, const s100_bufs x)
{
#if defined(SMMA_SM100_TC05)
    extern __shared__ uint8_t dyn[];
    uint8_t *smem = pipe_smem_base(dyn);
    uint32_t sbase = pipe_smem(smem), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    uint32_t rank = pipe_cluster_rank(), ntiles = smma_pipe_cta_nunits(&p.pipe, blockIdx.x);
    uint32_t tslot = smma_sm100_bar(&p, SMMA_SM100_TMEM_SLOT, 0), tbase, i, a;

    if (threadIdx.x == 0) {
        pipe_init_ring(p.pipe, sbase, smma_sm100_bar_count(&p, SMMA_SM100_BAR_EMPTY));
        for (a = 0; a < p.acc_stages; a++) {
            pipe_bar_init(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_FULL, a),
                          smma_sm100_bar_count(&p, SMMA_SM100_BAR_ACC_FULL));
            pipe_bar_init(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_EMPTY, a),
                          smma_sm100_bar_count(&p, SMMA_SM100_BAR_ACC_EMPTY));
        }
        for (a = 0; a < p.pipe.stages; a++)
            pipe_bar_init(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_PFULL, a),
                          smma_sm100_bar_count(&p, SMMA_SM100_BAR_PFULL));
        pipe_bar_init_fence();
    }
    if (warp == 1)
        s100_tmem_alloc<2>(sbase + tslot, p.tmem_cols);
    s100_tc05_before_sync();
    pipe_cluster_sync(); /* both CTAs' barriers exist before either multicasts to them */
    s100_tc05_after_sync();
    tbase = *(volatile uint32_t *) (smem + tslot);

    if (warp == 0) {
        if (lane == 0)
            v3_produce(p, &maps, sbase, blockIdx.x, rank);
    } else if (warp == 1 && rank == 0) {
        /* The leader's MMA warp: per tile, wait until both CTAs' epilogues
         * gave the accumulator back; per k-step, wait for its own stage and
         * the peer's relay, fix up a ragged last one, then one thread issues
         * the pair's copies and MMAs and releases both CTAs' slots. */
        smma_pipe_pos pos = { 0, 0 };

        for (i = 0; i < ntiles; i++) {
            uint32_t acc = i % p.acc_stages, kit;

            pipe_bar_wait<true>(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_EMPTY, acc),
                                (i / p.acc_stages) & 1u);
            s100_tc05_after_sync();
            for (kit = 0; kit < p.pipe.kiters; kit++, smma_pipe_next(&p.pipe, &pos)) {
                uint32_t st = sbase + pos.slot * p.pipe.stage_bytes;

                pipe_wait_full(p.pipe, sbase, pos);
                pipe_bar_wait<true>(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_PFULL, pos.slot),
                                    pos.phase);
                s100_tc05_after_sync();
                if (smma_sm100_fix_count(&p, kit) != 0) {
                    s100_fixup(p, kit, smem + pos.slot * p.pipe.stage_bytes, lane, 32);
                    pipe_fence_async_smem();
                    __syncwarp();
                }
                if (lane == 0) {
                    s100_issue_kstep<KIND, 2>(p, pos.slot, st, tbase, acc, kit);
                    s100_tc05_commit_pair(sbase + smma_pipe_empty(&p.pipe, pos.slot),
                                          SMMA_SM100_PAIR_MASK);
                }
                __syncwarp();
            }
            if (lane == 0)
                s100_tc05_commit_pair(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_FULL, acc),
                                      SMMA_SM100_PAIR_MASK);
            __syncwarp();
        }
    } else if (warp == 1) {
        /* The peer's relay: its stage has landed (and is fixed up) -> the
         * leader may read it. */
        smma_pipe_pos pos = { 0, 0 };
        uint32_t kit;

        for (i = 0; i < ntiles; i++)
            for (kit = 0; kit < p.pipe.kiters; kit++, smma_pipe_next(&p.pipe, &pos)) {
                pipe_wait_full(p.pipe, sbase, pos);
                if (smma_sm100_fix_count(&p, kit) != 0) {
                    s100_fixup(p, kit, smem + pos.slot * p.pipe.stage_bytes, lane, 32);
                    pipe_fence_async_smem();
                }
                __syncwarp();
                if (lane == 0)
                    pipe_bar_arrive_cluster<true>(
                        sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_PFULL, pos.slot), 0);
                __syncwarp();
            }
    } else {
        /* The epilogue warpgroup: this CTA's 128 rows of the pair's tile. */
        uint32_t part = warp % 4, chunk, tm, tn, row, col, regs[32];

        for (i = 0; i < ntiles && i < p.acc_stages; i++)
            v3_give_acc(p, x, sbase, tbase, part, lane, i);
        for (i = 0; i < ntiles; i++) {
            uint32_t acc = i % p.acc_stages;

            smma_pipe_cta_tile(&p.pipe, blockIdx.x, i, &tm, &tn);
            pipe_bar_wait(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_FULL, acc),
                          (i / p.acc_stages) & 1u);
            s100_tc05_after_sync();
            for (chunk = 0; chunk < p.bn / 32; chunk++) {
                s100_tmem_ld32(tbase + acc * p.bn + smma_sm100_epi_taddr(part, chunk), regs);
                smma_sm100_epi_cell(part, chunk, lane, 0, &row, &col);
                if (tn * p.bn + col < p.n)
                    s100_store_row(p, x.d, tm * SMMA_SM100_BM + row, tn * p.bn + col, regs);
            }
            if (i + p.acc_stages < ntiles)
                v3_give_acc(p, x, sbase, tbase, part, lane, i + p.acc_stages);
        }
    }
    s100_tc05_before_sync();
    __syncthreads();
    pipe_cluster_sync(); /* no arrival or multicast is still on its way to either CTA */
    if (warp == 1) {
        s100_tc05_after_sync();
        s100_tmem_dealloc<2>(tbase, p.tmem_cols);
    }
#else
    (void) p;
    (void) maps;
    (void) x;
    __trap(); /* s100_need refuses to launch this */
#endif
}

int
s100_launch_v3(const smma_sm100_plan *p, const s100_bufs *b, cudaStream_t st, char *msg,
               size_t len)
{
    return s100_launch_tma(p, b, st, s100_gemm_v3<4>, s100_gemm_v3<5>, s100_gemm_v3<6>,
                           "sm100-v3 launch", msg, len);
}
