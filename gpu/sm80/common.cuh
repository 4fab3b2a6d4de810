/*
 * gpu/sm80/common.cuh - what the mma.sync kernels share: the PTX of the
 * instructions they use (cp.async, ldmatrix, mma.sync), the epilogue that
 * turns an fp32 accumulator into D, and the kernel parameters.
 *
 * The address arithmetic is not here: it is in sim/softmma/sm80.h, which the
 * simulator compiles too.  CUDA C++ only.
 */
#ifndef SOFTMMA_GPU_SM80_COMMON_CUH
#define SOFTMMA_GPU_SM80_COMMON_CUH 1

#include <stdint.h>
#include <stdio.h>

#include <cuda_runtime.h>

#include <softmma/gpu.h>
#include "../gemm_internal.h"
#include <softmma/sm80.h>

/* The parameters of one product, in the form the kernels read them.  Set up
 * by the launchers from smma_gpu_gemm_args (gpu/gemm.cu checked them). */
struct sm80_params {
    const void *a, *b;      /* operands */
    const uint8_t *sa, *sb; /* scale bytes (block-scaled kernels), or NULL */
    const float *c;         /* C (fp32) or NULL */
    void *d;                /* D */
    uint32_t m, n, k;
    uint32_t lda, ldb, ldc, ldd; /* in elements */
    uint32_t alpha_bits;    /* fp32 bits of alpha */
    int has_alpha;
    int d_fmt;              /* 0 fp32, 1 bf16, 2 fp16 */
    int d_pairs;            /* D (and C) may be written (read) two elements at a time */
    int d_vec16;            /* every row of D starts 16-byte aligned */
    uint32_t tiles_m, tiles_n, group; /* CTA tiles and their order */
};

enum { SM80_D_FP32 = 0, SM80_D_BF16 = 1, SM80_D_FP16 = 2 };

/* ---- PTX ------------------------------------------------------------------ */

__device__ __forceinline__ uint32_t
smem_u32(const void *p)
{
    return (uint32_t) __cvta_generic_to_shared(p);
}

/* cp.async of 16 bytes; src_bytes < 16 reads that many bytes and fills the
 * rest of the 16 with zeros (0: nothing is read). */
__device__ __forceinline__ void
cp_async16(uint32_t dst, const void *src, uint32_t src_bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
                 "r"(src_bytes));
}

/* The same for data read once, streamed: with a hint to fetch 256 bytes
 * into L2, so that a run of one row reaches DRAM as long requests. */
__device__ __forceinline__ void
cp_async16_stream(uint32_t dst, const void *src, uint32_t src_bytes)
{
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
                 "r"(src_bytes));
}

/* The same, all 16 bytes. */
__device__ __forceinline__ void
cp_async16_stream_all(uint32_t dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}

/* 8 bytes streamed the same way (cp.async.cg copies 16 bytes only). */
__device__ __forceinline__ void
cp_async8_stream(uint32_t dst, const void *src, uint32_t src_bytes)
{
    asm volatile("cp.async.ca.shared.global.L2::256B [%0], [%1], 8, %2;\n" ::"r"(dst), "l"(src),
                 "r"(src_bytes));
}

/* cp.async of 16 bytes streamed, 8 bytes streamed and 4 bytes, issued only
 * where p holds: predicated, no branch. */
__device__ __forceinline__ void
cp_async16_stream_if(uint32_t dst, const void *src, bool p)
{
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n"
                 " @q cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n}\n" ::"r"(dst),
                 "l"(src), "r"((uint32_t) p));
}

__device__ __forceinline__ void
cp_async8_stream_if(uint32_t dst, const void *src, bool p)
{
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n"
                 " @q cp.async.ca.shared.global.L2::256B [%0], [%1], 8;\n}\n" ::"r"(dst),
                 "l"(src), "r"((uint32_t) p));
}

__device__ __forceinline__ void
cp_async4_if(uint32_t dst, const void *src, bool p)
{
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n"
                 " @q cp.async.ca.shared.global [%0], [%1], 4;\n}\n" ::"r"(dst), "l"(src),
                 "r"((uint32_t) p));
}

/* cp.async of 4 bytes (src_bytes < 4: that many, the rest zeros). */
__device__ __forceinline__ void
cp_async4(uint32_t dst, const void *src, uint32_t src_bytes)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src),
                 "r"(src_bytes));
}

__device__ __forceinline__ void
cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void
cp_async_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/* ---- mbarriers (sm_80: test_wait in a loop; sm_90: try_wait, which lets
 * the hardware suspend the warp for a while) ---------------------------- */

__device__ __forceinline__ void
mbar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

/* Waits until the phase of parity `parity` of the mbarrier has completed. */
__device__ __forceinline__ void
mbar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done;

    do {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
#else
        asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
#endif
    } while (!done);
}

__device__ __forceinline__ void
mbar_arrive(uint32_t bar)
{
    asm volatile("{\n .reg .b64 st;\n mbarrier.arrive.shared.b64 st, [%0];\n}\n" ::"r"(bar)
                 : "memory");
}

__device__ __forceinline__ void
st_shared_v4(uint32_t dst, uint32_t x)
{
    asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};\n" ::"r"(dst), "r"(x));
}

__device__ __forceinline__ void
ldsm_x4(uint32_t addr, uint32_t *r)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

__device__ __forceinline__ void
ldsm_x4_trans(uint32_t addr, uint32_t *r)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

/* D = A B + C for one m16n8k16 tile; FP16 selects f16 operands, else bf16.
 * C and D are the same registers: the accumulator chain. */
template <bool FP16>
__device__ __forceinline__ void
mma16816(float *acc, const uint32_t *a, const uint32_t *b)
{
    if (FP16)
        asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                     : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                     : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* ---- streamed global loads (the small-M kernels) ---------------------- */

/* 16 bytes at p (16-byte aligned), through L2 with a 256-byte prefetch,
 * not kept in L1: the weights are read once. */
__device__ __forceinline__ uint4
ld_stream16(const void *p)
{
    uint4 v;

    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
}

/* The 16 bytes of a row at byte off, zero past lim (a multiple of 4). */
__device__ __forceinline__ uint4
ld_row16(const uint8_t *row, uint32_t off, uint32_t lim)
{
    uint4 v = make_uint4(0, 0, 0, 0);

    if (off + 16 <= lim)
        return ld_stream16(row + off);
    if (off < lim) {
        const uint32_t *w = (const uint32_t *) (row + off);

        v.x = __ldg(w);
        if (off + 8 <= lim)
            v.y = __ldg(w + 1);
        if (off + 12 <= lim)
            v.z = __ldg(w + 2);
    }
    return v;
}

/* ---- the epilogue ---------------------------------------------------------- */

/* The start of the accumulator chain: C, or +0 without C (an absent C is a
 * +0 term in every model). */
__device__ __forceinline__ float
epi_c(const sm80_params &p, uint32_t i, uint32_t j)
{
    return p.c != NULL ? p.c[(size_t) i * p.ldc + j] : 0.0f;
}

/* The fp32 result: alpha * acc rounded to nearest (one multiplication), a
 * NaN made the canonical 0x7fffffff, as the models define it. */
__device__ __forceinline__ uint32_t
epi_f32(const sm80_params &p, float acc)
{
    float v = p.has_alpha ? __fmul_rn(__uint_as_float(p.alpha_bits), acc) : acc;

    return v != v ? 0x7fffffffu : __float_as_uint(v);
}

/* The fp32 result rounded to nearest bf16 or fp16 (a NaN: 0x7fff). */
__device__ __forceinline__ uint16_t
epi_narrow(int d_fmt, uint32_t f)
{
    float v = __uint_as_float(f);
    uint16_t r;

    if (v != v)
        return 0x7fffu;
    if (d_fmt == SM80_D_BF16)
        asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(r) : "f"(v));
    else
        asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(r) : "f"(v));
    return r;
}

/* The bits of two adjacent elements of D, as epi_store writes them: fp32 in
 * r[0] and r[1], or a 16-bit pair in r[0] (the first element in the low
 * half), converted by one cvt.rn.{bf16,f16}x2.f32 (the rounding of
 * epi_narrow), a pair with a NaN by epi_narrow (0x7fff). */
__device__ __forceinline__ void
epi_bits2(const sm80_params &p, float v0, float v1, uint32_t r[2])
{
    uint32_t f0 = epi_f32(p, v0), f1 = epi_f32(p, v1);
    float a0 = __uint_as_float(f0), a1 = __uint_as_float(f1);

    r[0] = f0;
    r[1] = f1;
    if (p.d_fmt == SM80_D_FP32)
        return;
    if (a0 != a0 || a1 != a1)
        r[0] = epi_narrow(p.d_fmt, f0) | (uint32_t) epi_narrow(p.d_fmt, f1) << 16;
    else if (p.d_fmt == SM80_D_BF16)
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r[0]) : "f"(a1), "f"(a0));
    else
        asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(r[0]) : "f"(a1), "f"(a0));
}

/* Stores D[i][j] (and D[i][j + 1] when pair) from fp32 accumulators. */
__device__ __forceinline__ void
epi_store(const sm80_params &p, uint32_t i, uint32_t j, float v0, float v1, bool pair)
{
    uint32_t f0 = epi_f32(p, v0), f1 = epi_f32(p, v1);
    size_t at = (size_t) i * p.ldd + j;

    if (p.d_fmt == SM80_D_FP32) {
        uint32_t *d = (uint32_t *) p.d + at;

        if (pair && p.d_pairs)
            *(uint2 *) d = make_uint2(f0, f1);
        else {
            d[0] = f0;
            if (pair)
                d[1] = f1;
        }
    } else {
        uint16_t *d = (uint16_t *) p.d + at;
        uint16_t h0 = epi_narrow(p.d_fmt, f0), h1 = epi_narrow(p.d_fmt, f1);

        if (pair && p.d_pairs)
            *(uint32_t *) d = (uint32_t) h0 | ((uint32_t) h1 << 16);
        else {
            d[0] = h0;
            if (pair)
                d[1] = h1;
        }
    }
}

/* The accumulators of D^T = B^T A^T (sm80-bs-small versions 3 to 5: 16
 * rows n0 .. n0 + 15 of B on the mma's m16 side, MT n8 tiles of A's rows):
 * register r of n8 tile nt of lane (g, t) is D[8 nt + 2 t + (r & 1)][n0 +
 * g + 8 (r >> 1)].  tacc_init sets them from C (0 without C or outside D),
 * tacc_store writes those inside D. */
template <int MT, int NT>
__device__ __forceinline__ void
tacc_init(const sm80_params &p, float (&acc)[NT][4], uint32_t n0, unsigned lane)
{
#pragma unroll
    for (int nt = 0; nt < MT; nt++)
#pragma unroll
        for (int r = 0; r < 4; r++) {
            const uint32_t m = 8 * nt + 2 * (lane % 4) + (r & 1), n = n0 + lane / 4 + 8 * (r >> 1);

            acc[nt][r] = m < p.m && n < p.n ? epi_c(p, m, n) : 0.0f;
        }
}

template <int MT, int NT>
__device__ __forceinline__ void
tacc_store(const sm80_params &p, const float (&acc)[NT][4], uint32_t n0, unsigned lane)
{
#pragma unroll
    for (int nt = 0; nt < MT; nt++)
#pragma unroll
        for (int r = 0; r < 4; r++) {
            const uint32_t m = 8 * nt + 2 * (lane % 4) + (r & 1), n = n0 + lane / 4 + 8 * (r >> 1);

            if (m < p.m && n < p.n)
                epi_store(p, m, n, acc[nt][r], 0.0f, false);
        }
}

/* ---- host side --------------------------------------------------------- */

/* Fills the parameters every kernel reads from checked arguments. */
static inline sm80_params
sm80_params_of(const smma_gpu_gemm_args *x)
{
    const smma_gemm_shape *s = &x->shape;
    sm80_params p;
    size_t dsize = s->d_fmt == SMMA_FP32 ? 4 : 2;
    bool dp = ((uintptr_t) x->d % (2 * dsize)) == 0 && x->ldd % 2 == 0;
    bool dv = ((uintptr_t) x->d % 16) == 0 && (x->ldd * dsize) % 16 == 0;

    p.a = x->a;
    p.b = x->b;
    p.sa = (const uint8_t *) x->sa;
    p.sb = (const uint8_t *) x->sb;
    p.c = s->c_fmt == SMMA_FP32 ? (const float *) x->c : NULL;
    p.d = x->d;
    p.m = (uint32_t) s->m;
    p.n = (uint32_t) s->n;
    p.k = (uint32_t) s->k;
    p.lda = (uint32_t) x->lda;
    p.ldb = (uint32_t) x->ldb;
    p.ldc = (uint32_t) x->ldc;
    p.ldd = (uint32_t) x->ldd;
    p.alpha_bits = s->alpha;
    p.has_alpha = s->has_alpha;
    p.d_fmt = s->d_fmt == SMMA_FP32 ? SM80_D_FP32 : s->d_fmt == SMMA_BF16 ? SM80_D_BF16
                                                                          : SM80_D_FP16;
    p.d_pairs = dp;
    p.d_vec16 = dv;
    p.tiles_m = p.tiles_n = p.group = 0;
    return p;
}

/* Reports a failed launch (the kernel's error, or the last error). */
static inline int
sm80_launched(const char *kernel, char *msg, size_t msg_len)
{
    cudaError_t e = cudaGetLastError();

    if (e == cudaSuccess)
        return SMMA_GPU_STATUS_OK;
    return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_ECUDA, "%s: launch failed: %s (%s)", kernel,
                    cudaGetErrorString(e), cudaGetErrorName(e));
}

#endif /* SOFTMMA_GPU_SM80_COMMON_CUH */
