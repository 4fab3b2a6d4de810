/*
 * gpu/pipe.cuh - the device side of the asynchronous pipeline that the
 * sm_90 (wgmma) and sm_100 (tcgen05) GEMM kernels share (its arithmetic is
 * gpu/pipe.h): the mbarrier and TMA instructions as small functions, the
 * tensor maps (host), the producer loop, the release of a stage slot
 * across a CTA cluster, and the epilogue's arithmetic.  CUDA C++ only.
 *
 * Which code exists where: SMMA_PIPE_TMA (mbarrier transaction counts,
 * cp.async.bulk.tensor, clusters) is defined in the sm_90a and sm_100a
 * builds; elsewhere the kernels that use it compile to stubs (their
 * launchers refuse to run code built for another architecture).
 *
 * The tensor maps are encoded with cuTensorMapEncodeTiled, a driver API
 * function reached through cudaGetDriverEntryPointByVersion, so that the
 * programs link the static cudart only (no -lcuda).
 */
#ifndef SOFTMMA_GPU_PIPE_CUH
#define SOFTMMA_GPU_PIPE_CUH 1

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <stdint.h>

#include "pipe.h"
#include "probes/probe_util.h"
#include "softmma/gpu.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900                                        \
    && (defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL))
#define SMMA_PIPE_TMA 1
#endif

/* ---- shared memory ------------------------------------------------------------------- */

/* The generic address of shared memory as the 32-bit shared address. */
static __device__ __forceinline__ uint32_t
pipe_smem(const void *p)
{
    return (uint32_t) __cvta_generic_to_shared(p);
}

/* The dynamic shared memory of a kernel, aligned up to 1024 bytes (the
 * 128B swizzle pattern repeats every 1024 bytes of address, and the plans
 * take stage bases at multiples of 1024). */
static __device__ __forceinline__ uint8_t *
pipe_smem_base(uint8_t *dyn)
{
    uint32_t a = pipe_smem(dyn);

    return dyn + ((1024u - (a & 1023u)) & 1023u);
}

#if defined(SMMA_PIPE_TMA)

/* ---- mbarriers ----------------------------------------------------------------------- */

static __device__ __forceinline__ void
pipe_bar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}

/* Makes the initialized barriers visible to the other threads of the
 * cluster and to the asynchronous proxy (TMA's complete_tx, tcgen05.commit). */
static __device__ __forceinline__ void
pipe_bar_init_fence(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

static __device__ __forceinline__ void
pipe_bar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

/* One arrival on the barrier at the same shared offset in CTA `rank` of
 * the cluster (the CTA itself included).  The default semantics (release
 * at CTA scope): a consumer's arrival says only that its wgmma have read
 * the slot, and a release at cluster scope would cost a fence of the whole
 * GPU (MEMBAR.ALL.GPU) per arrival.  With RELEASE, a release at cluster
 * scope: what this thread wrote before (shared memory the peer's tensor
 * core reads, a fence of its tcgen05 operations) is visible to a thread of
 * that CTA that waits with pipe_bar_wait<true>. */
template <bool RELEASE = false>
static __device__ __forceinline__ void
pipe_bar_arrive_cluster(uint32_t bar, uint32_t rank)
{
    if (RELEASE)
        asm volatile("{\n\t.reg .b32 ra;\n\t"
                     "mapa.shared::cluster.u32 ra, %0, %1;\n\t"
                     "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [ra];\n\t}"
                     :: "r"(bar), "r"(rank) : "memory");
    else
        asm volatile("{\n\t.reg .b32 ra;\n\t"
                     "mapa.shared::cluster.u32 ra, %0, %1;\n\t"
                     "mbarrier.arrive.shared::cluster.b64 _, [ra];\n\t}"
                     :: "r"(bar), "r"(rank) : "memory");
}

/* One arrival that also expects tx bytes of asynchronous writes. */
static __device__ __forceinline__ void
pipe_bar_arrive_tx(uint32_t bar, uint32_t tx)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(tx)
                 : "memory");
}

/* Waits until the phase of the given parity has completed; with CLUSTER,
 * acquiring at cluster scope (the wait for arrivals that other CTAs of the
 * cluster made with pipe_bar_arrive_cluster<true>). */
template <bool CLUSTER = false>
static __device__ __forceinline__ void
pipe_bar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done = 0;

    while (!done) {
        if (CLUSTER)
            asm volatile("{\n\t.reg .pred p;\n\t"
                         "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;"
                         "\n\tselp.u32 %0, 1, 0, p;\n\t}"
                         : "=r"(done) : "r"(bar), "r"(parity) : "memory");
        else
            asm volatile("{\n\t.reg .pred p;\n\t"
                         "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                         "selp.u32 %0, 1, 0, p;\n\t}"
                         : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    }
}

/* Generic-proxy writes to shared memory, then read by the asynchronous
 * proxy (wgmma, tcgen05.mma, tcgen05.cp, a TMA store). */
static __device__ __forceinline__ void
pipe_fence_async_smem(void)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* ---- clusters ------------------------------------------------------------------------- */

static __device__ __forceinline__ uint32_t
pipe_cluster_rank(void)
{
    uint32_t r;

    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

/* Every thread of every CTA of the cluster. */
static __device__ __forceinline__ void
pipe_cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
                 "barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/* The `count` threads (a multiple of 32) that meet at named barrier id. */
static __device__ __forceinline__ void
pipe_named_sync(uint32_t id, uint32_t count)
{
    asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(count) : "memory");
}

/* ---- TMA -------------------------------------------------------------------------------- */

/* One 2-D box of the tensor map at coordinates (x0, x1) to shared memory
 * dst, completing its bytes on the barrier. */
static __device__ __forceinline__ void
pipe_tma_2d(uint32_t dst, const void *map, int32_t x0, int32_t x1, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(map), "r"(x0), "r"(x1), "r"(bar) : "memory");
}

/* The same box written to the same shared offset (dst, and the barrier at
 * bar) of every CTA of the cluster named in the 16-bit mask. */
static __device__ __forceinline__ void
pipe_tma_2d_mc(uint32_t dst, const void *map, int32_t x0, int32_t x1, uint32_t bar,
               uint16_t mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                 :: "r"(dst), "l"(map), "r"(x0), "r"(x1), "r"(bar), "h"(mask) : "memory");
}

static __device__ __forceinline__ void
pipe_tma_4d(uint32_t dst, const void *map, int32_t x0, int32_t x1, int32_t x2, int32_t x3,
            uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%2, %3, %4, %5}], [%6];"
                 :: "r"(dst), "l"(map), "r"(x0), "r"(x1), "r"(x2), "r"(x3), "r"(bar)
                 : "memory");
}

/* The 4-D box to the same shared offset (and the barrier's) of every CTA
 * of the cluster named in the mask. */
static __device__ __forceinline__ void
pipe_tma_4d_mc(uint32_t dst, const void *map, int32_t x0, int32_t x1, int32_t x2, int32_t x3,
               uint32_t bar, uint16_t mask)
{
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3, %4, %5}], [%6], %7;"
                 :: "r"(dst), "l"(map), "r"(x0), "r"(x1), "r"(x2), "r"(x3), "r"(bar), "h"(mask)
                 : "memory");
}

static __device__ __forceinline__ void
pipe_tma_prefetch_map(const void *map)
{
    asm volatile("prefetch.tensormap [%0];" :: "l"(map) : "memory");
}

/* A 2-D box from shared memory src to the tensor map's box at (x0, x1):
 * elements outside the tensor are not written.  One bulk async-group per
 * pipe_bulk_commit; the issuing thread waits with pipe_bulk_wait_read (the
 * source may be overwritten) or pipe_bulk_wait (the writes are done). */
static __device__ __forceinline__ void
pipe_tma_store_2d(const void *map, int32_t x0, int32_t x1, uint32_t src)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                 :: "l"(map), "r"(x0), "r"(x1), "r"(src) : "memory");
}

static __device__ __forceinline__ void
pipe_bulk_commit(void)
{
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

/* At most N of this thread's bulk groups still read their source. */
template <int N>
static __device__ __forceinline__ void
pipe_bulk_wait_read(void)
{
    asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(N) : "memory");
}

static __device__ __forceinline__ void
pipe_bulk_wait(void)
{
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

/* ---- the producer and the release of a slot ------------------------------------------- */

/*
 * The producer (one thread of CTA `cta`): for every tile of the CTA and
 * every k-step, in the order the consumers take them, waits until the
 * slot is empty, announces stage_tx bytes on full[slot], and calls
 * issue(st, full, tm, tn, kit), which issues the TMA boxes of k-step kit
 * of tile (tm, tn) into the slot at shared address st, completing on the
 * barrier at shared address full.  sbase: the shared address of the ring
 * (1024-aligned).  Returns the position after the last k-step.
 */
template <class Issue>
static __device__ __forceinline__ smma_pipe_pos
pipe_produce(const smma_pipe &p, uint32_t sbase, uint32_t cta, Issue &&issue)
{
    smma_pipe_pos pos = { 0, 0 };
    uint32_t i, kit, tm, tn;

    for (i = 0; i < smma_pipe_cta_nunits(&p, cta); i++) {
        smma_pipe_cta_tile(&p, cta, i, &tm, &tn);
        for (kit = 0; kit < p.kiters; kit++, smma_pipe_next(&p, &pos)) {
            uint32_t full = sbase + smma_pipe_full(&p, pos.slot);

            pipe_bar_wait(sbase + smma_pipe_empty(&p, pos.slot), pos.phase ^ 1u);
            pipe_bar_arrive_tx(full, p.stage_tx);
            issue(sbase + pos.slot * p.stage_bytes, full, tm, tn, kit);
        }
    }
    return pos;
}

/* After a producer's last k-step: waits until the consumers have released
 * every slot it filled, so that no commit or arrival is still on its way
 * to this CTA's barriers when it exits (a cluster's CTAs arrive on each
 * other's).  pos: the producer's position after its last k-step. */
static __device__ __forceinline__ void
pipe_produce_tail(const smma_pipe &p, uint32_t sbase, smma_pipe_pos pos)
{
    uint32_t s;

    for (s = 0; s < p.stages; s++, smma_pipe_next(&p, &pos))
        pipe_bar_wait(sbase + smma_pipe_empty(&p, pos.slot), pos.phase ^ 1u);
}

/* Thread 0 initializes the ring's barriers: full[s] completes on `fills`
 * arrivals (the producer's one, and those of threads that write the stage
 * themselves) plus the bytes, empty[s] on `releases` arrivals (the
 * consumers' releases, from every CTA of the cluster that reads the slot's
 * multicast data). */
static __device__ __forceinline__ void
pipe_init_ring(const smma_pipe &p, uint32_t sbase, uint32_t releases, uint32_t fills = 1)
{
    uint32_t s;

    for (s = 0; s < p.stages; s++) {
        pipe_bar_init(sbase + smma_pipe_full(&p, s), fills);
        pipe_bar_init(sbase + smma_pipe_empty(&p, s), releases);
    }
}

/* The consumers' wait for the slot at position pos to be full (TMA's
 * complete_tx makes the bytes visible, a peer's multicast too). */
static __device__ __forceinline__ void
pipe_wait_full(const smma_pipe &p, uint32_t sbase, smma_pipe_pos pos)
{
    pipe_bar_wait(sbase + smma_pipe_full(&p, pos.slot), pos.phase);
}

/* One consumer's release of stage slot `slot`, by thread t of the consumer
 * (a warpgroup): thread 0 arrives on this CTA's empty barrier, or in a
 * cluster thread r arrives on that of CTA r (each producer writes into its
 * peers' slots), so that the arrivals go out side by side. */
static __device__ __forceinline__ void
pipe_release(const smma_pipe &p, uint32_t sbase, uint32_t slot, uint32_t t)
{
    uint32_t empty = sbase + smma_pipe_empty(&p, slot);

    if (p.cluster == 1) {
        if (t == 0)
            pipe_bar_arrive(empty);
    } else if (t < p.cluster) {
        pipe_bar_arrive_cluster(empty, t);
    }
}

#endif /* SMMA_PIPE_TMA */

/* ---- the device (host) ------------------------------------------------------------------ */

/* The compute capability of device 0: SMMA_GPU_STATUS_OK, or _ENODEV
 * without a driver or a device, _ECUDA when the runtime cannot say. */
static int
pipe_device_cc(int *major, int *minor, char *msg, size_t len)
{
    int n = 0;
    cudaError_t e;

    if ((e = cudaGetDeviceCount(&n)) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ENODEV, "cudaGetDeviceCount", e);
    if (n == 0)
        return set_msg(msg, len, SMMA_GPU_STATUS_ENODEV, "no CUDA device");
    if ((e = cudaDeviceGetAttribute(major, cudaDevAttrComputeCapabilityMajor, 0))
        != cudaSuccess
        || (e = cudaDeviceGetAttribute(minor, cudaDevAttrComputeCapabilityMinor, 0))
        != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaDeviceGetAttribute", e);
    return SMMA_GPU_STATUS_OK;
}

/* ---- tensor maps (host) --------------------------------------------------------------- */

/* One tensor map: rank dims (innermost first) of elements of type t,
 * rank - 1 strides in bytes, the box, the swizzle; out-of-bounds elements
 * read as 0.  `what` names the operand in a message.  SMMA_GPU_STATUS_OK,
 * or _ENODEV when the driver lacks the function, or _ECUDA naming the map
 * the driver refused. */
static int
pipe_encode_map(CUtensorMap *m, CUtensorMapDataType t, uint32_t rank, const void *ptr,
                const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
                CUtensorMapSwizzle sw, const char *what, char *msg, size_t len)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
    cuuint64_t gdim[5], gstride[4];
    cuuint32_t gbox[5], estride[5] = { 1, 1, 1, 1, 1 };
    uint32_t i;
    CUresult r;

    if (encode == NULL) {
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        void *f = NULL;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000,
                                                         cudaEnableDefault, &q);

        if (e != cudaSuccess)
            return cuda_fail(msg, len, SMMA_GPU_STATUS_ENODEV,
                             "cudaGetDriverEntryPointByVersion", e);
        if (q != cudaDriverEntryPointSuccess || f == NULL)
            return set_msg(msg, len, SMMA_GPU_STATUS_ENODEV,
                           "the driver has no cuTensorMapEncodeTiled (result %d)", (int) q);
        encode = (PFN_cuTensorMapEncodeTiled_v12000) f;
    }
    if (rank < 1 || rank > 5)
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "tensor map of %s: rank %u", what,
                       rank);
    for (i = 0; i < rank; i++) {
        gdim[i] = dims[i];
        gbox[i] = box[i];
        if (i + 1 < rank)
            gstride[i] = strides[i];
    }
    r = encode(m, t, rank, (void *) ptr, gdim, gstride, gbox, estride,
               CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return set_msg(msg, len, SMMA_GPU_STATUS_ECUDA,
                       "cuTensorMapEncodeTiled (%s, rank %u, box %u x %u): CUresult %d", what,
                       rank, box[0], rank > 1 ? box[1] : 1, (int) r);
    return SMMA_GPU_STATUS_OK;
}

/* ---- the epilogue's arithmetic (any architecture) ------------------------------------ */

/* C[idx] as the fp32 bits the accumulator starts from: fp32 as is, bf16
 * and fp16 widened exactly (kind SMMA_PIPE_*). */
static __device__ __forceinline__ uint32_t
pipe_c_bits(const void *c, uint64_t idx, uint32_t kind)
{
    if (kind == SMMA_PIPE_F32)
        return ((const uint32_t *) c)[idx];
    if (kind == SMMA_PIPE_BF16)
        return (uint32_t) ((const uint16_t *) c)[idx] << 16;
    return __float_as_uint(__half2float(__ushort_as_half(((const uint16_t *) c)[idx])));
}

/* D from the accumulator's fp32 bits: rn_fp32(alpha * acc) when there is
 * an alpha (ALPHA; fp32 bits; a NaN product is the canonical 0x7fffffff),
 * then to nearest into bf16 or fp16 (NaN: 0x7fff, the canonical NaN of
 * softmma/gemm.h) for KIND SMMA_PIPE_BF16 / _F16.  The template serves
 * epilogues that choose the case once per tile; pipe_epilogue below
 * chooses per element. */
template <uint32_t KIND, bool ALPHA>
static __device__ __forceinline__ uint32_t
pipe_epi(uint32_t alpha, uint32_t acc)
{
    uint32_t x = acc;
    float f;

    if (ALPHA) {
        f = __fmul_rn(__uint_as_float(alpha), __uint_as_float(acc));
        x = f != f ? 0x7fffffffu : __float_as_uint(f);
    }
    if (KIND == SMMA_PIPE_F32)
        return x;
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return 0x7fffu;
    f = __uint_as_float(x);
    if (KIND == SMMA_PIPE_BF16)
        return __bfloat16_as_ushort(__float2bfloat16_rn(f));
    return __half_as_ushort(__float2half_rn(f));
}

static __device__ __forceinline__ uint32_t
pipe_epilogue(uint32_t has_alpha, uint32_t alpha, uint32_t d_kind, uint32_t acc)
{
    if (has_alpha)
        return d_kind == SMMA_PIPE_F32 ? pipe_epi<SMMA_PIPE_F32, true>(alpha, acc)
               : d_kind == SMMA_PIPE_BF16 ? pipe_epi<SMMA_PIPE_BF16, true>(alpha, acc)
                                          : pipe_epi<SMMA_PIPE_F16, true>(alpha, acc);
    return d_kind == SMMA_PIPE_F32 ? pipe_epi<SMMA_PIPE_F32, false>(alpha, acc)
           : d_kind == SMMA_PIPE_BF16 ? pipe_epi<SMMA_PIPE_BF16, false>(alpha, acc)
                                      : pipe_epi<SMMA_PIPE_F16, false>(alpha, acc);
}

#endif /* SOFTMMA_GPU_PIPE_CUH */
