/*
 * gpu/sm80/bs_large.cu - the block-scaled GEMM for large M on mma.sync:
 * MXFP8 (e4m3, e5m2, mixed), MXFP6 (e2m3, e3m2), MXFP4, NVFP4 (ue4m3 scales
 * per 16, the per-tensor scales as alpha), MXFP8 x MXFP4, and bf16 x
 * MXFP4 / bf16 x MXFP8 (activations unscaled).
 *
 * Computes D = alpha * (C + sum_k (A SA)(B SB)) with the model
 * bf16-upcast-<gpu> (bf16-upcast-h100 on an H100): every element times its
 * scale rounded once to bf16 (gpu/sm80/convert.cuh), then the bf16 chain of
 * sm80-v2, one fp32 accumulator per element of D, mma.sync.m16n8k16 after
 * mma.sync.m16n8k16 in k order.  doc/kernels.md gives the sequence of
 * roundings from the stored bytes to D.
 *
 * What it adds over sm80-v2 (gemm_v2.cu), and why: the operands travel and
 * wait in shared memory as their stored bytes (half or a quarter of bf16's),
 * in a 4-stage cp.async ring; one k tile ahead of the mma, the threads of
 * the CTA convert the next tile once into a bf16 tile (double-buffered) in
 * exactly the layout sm80-v2 reads, with each 16-element run's scale
 * applied in the conversion.  Converting in shared memory costs one more
 * read and write of the tile, but each element is converted once per CTA
 * instead of once per warp that reads it (4 times for A, twice for B), and
 * the mma loop, its ldmatrix and its swizzle are those of sm80-v2.
 *
 * Two conversion paths, chosen per CTA: where every e8m0 scale of the CTA's
 * rows and columns keeps every product an f16 normal number (e4m3 and e2m1
 * operands with scales near 1, and NVFP4 always), codes become f16 with one
 * instruction (cvt e4m3x2, or a prmt table for e2m1) and one f16 multiply
 * per pair, and the mma runs on f16: the values are the bf16 products the
 * model defines (they are exact in both formats), and the block-FMA model
 * is the same for f16 and bf16 inputs.  Elsewhere: exact fp32 products
 * rounded to bf16 (gpu/sm80/convert.cuh).  The
 * conversion of tile k + 1 is spread over the k16 steps of tile k, between
 * its mma.  A bf16 operand (bf16 x MXFP4) skips the conversion and is read
 * from its ring as sm80-v2 reads it.
 *
 * Scales are read from global memory (linear or 128x4 layout) one k tile
 * ahead into registers.  Tails: any M and N; K a multiple of 8: bytes past K
 * are zero-filled, and in the last k tile the A fragments past K become -0
 * (the identity of the sum) before their mma, as in sm80-v2.  Scales of
 * rows past M or N or of blocks past ceil(K / vec) are read as 1.
 *
 * That is version 1.  Version 2 (below, bs_ws_kernel; the one that runs
 * unless smma_gpu_bs_large_choose, the device's shared memory or code
 * built without setmaxnreg says otherwise) gives the conversion to warps
 * of its own and keeps the mma warps on sm80-v2's loop: its own header
 * says why.
 *
 * Run: `softmma gemm --on gpu --kernel sm80-bs-large ...`, tests/gpu/gemm-bs-t,
 * bench/gemm-bench --formats ... (SMMA_SM80_BS_LARGE=inline: version 1)
 */
#include <stdlib.h>

#include "convert.cuh"
#include "sm80.h"
#include "tile.cuh"

namespace {

using namespace sm80tile;

constexpr int RS = 4; /* stages of the ring of stored bytes */

/* Bytes of a tile row (BK = 64 k) of format f in the ring. */
__host__ __device__ constexpr int
ring_row(int f)
{
    return f == CV_BF16 ? 128 : f == CV_E2M1 ? 32 : 64;
}

/* The layout of the shared memory of one instantiation. */
template <int AF, int BF>
struct bs_smem {
    static constexpr int A_RING = BM * ring_row(AF);
    static constexpr int B_RING = BN * ring_row(BF);
    static constexpr int STAGE = A_RING + B_RING;
    static constexpr bool A_CONV = AF != CV_BF16;
    static constexpr int CONV = (A_CONV ? A_BYTES : 0) + B_BYTES; /* one bf16 buffer */
    static constexpr int TOTAL = RS * STAGE + 2 * CONV;
};

/* Everything about the scales of a problem. */
struct bs_params {
    const uint8_t *sa, *sb;
    uint32_t vec, kb, kb_pad; /* elements per scale, scale columns, padded to 4 */
    uint32_t vshift;          /* log2 vec (16 or 32) */
    int layout;               /* 0 linear, 1 128x4 */
    int sfmt;                 /* CV_E8M0 or CV_UE4M3 */
};

/* Scale byte (row, kbi) of an operand with `rows` rows; 1 (0x7f or 0x38)
 * outside the matrix. */
__device__ __forceinline__ uint32_t
scale_byte(const bs_params &b, const uint8_t *s, uint32_t rows, uint32_t row, uint32_t kbi)
{
    if (row >= rows || kbi >= b.kb)
        return cv_scale_one(b.sfmt);
    return s[smma_sm80_scale_off(b.layout, row, kbi, b.kb, b.kb_pad)];
}

/* A thread's share of the ring loads (NT threads load: all 256 in version
 * 1, the 128 converter threads in version 2) and of the conversions. */
template <int AF, int BF, int NT = THREADS>
struct bs_plan {
    static constexpr int A_CPR = ring_row(AF) / 16, B_CPR = ring_row(BF) / 16;
    static constexpr int A_LOADS = BM * A_CPR / NT, B_LOADS = BN * B_CPR / NT;
    /* version 1's conversion runs (all its THREADS convert) */
    static constexpr int A_CONVS = bs_smem<AF, BF>::A_CONV ? BM * 4 / THREADS : 0;
    static constexpr int B_CONVS = BN * 4 / THREADS;
    const char *ga, *gb;      /* chunk 0 of this thread in k tile 0 */
    uint32_t ga_step, gb_step; /* bytes from load it to it + 1 */
    uint32_t a_dst, b_dst;     /* ring offsets of load 0 */
    uint32_t a_rows, b_rows;   /* bit it: load it lies inside M (A) or N (B) */
    uint32_t a_kc, b_kc;       /* the first k of load 0 in a k tile */
    uint32_t a_frag, b_frag;   /* ldmatrix bases */
};

/* Bytes of n elements of format f (n even for e2m1). */
__device__ __forceinline__ size_t
elem_bytes(int f, size_t n)
{
    return f == CV_BF16 ? 2 * n : f == CV_E2M1 ? n / 2 : n;
}

template <int AF, int BF, int NT>
__device__ __forceinline__ void
bs_plan_make(const sm80_params &p, uint32_t tm, uint32_t tn, unsigned t, unsigned lane,
             uint32_t wm, uint32_t wn, bs_plan<AF, BF, NT> &q)
{
    using P = bs_plan<AF, BF, NT>;
    uint32_t am = tm * BM + t / P::A_CPR, bn = tn * BN + t / P::B_CPR;

    q.a_kc = (t % P::A_CPR) * (AF == CV_BF16 ? 8 : AF == CV_E2M1 ? 32 : 16);
    q.b_kc = (t % P::B_CPR) * (BF == CV_E2M1 ? 32 : 16);
    q.ga = (const char *) p.a + elem_bytes(AF, (size_t) am * p.lda + q.a_kc);
    q.gb = (const char *) p.b + elem_bytes(BF, (size_t) bn * p.ldb + q.b_kc);
    q.ga_step = (uint32_t) elem_bytes(AF, (size_t) (NT / P::A_CPR) * p.lda);
    q.gb_step = (uint32_t) elem_bytes(BF, (size_t) (NT / P::B_CPR) * p.ldb);
    q.a_dst = smma_sm80_load_base(t, ring_row(AF));
    q.b_dst = smma_sm80_load_base(t, ring_row(BF));
    q.a_rows = q.b_rows = 0;
    for (int it = 0; it < P::A_LOADS; it++)
        q.a_rows |= (am + it * (NT / P::A_CPR) < p.m ? 1u : 0u) << it;
    for (int it = 0; it < P::B_LOADS; it++)
        q.b_rows |= (bn + it * (NT / P::B_CPR) < p.n ? 1u : 0u) << it;
    q.a_frag = smma_sm80_ldsm_a_base(lane, wm, ROW);
    q.b_frag = smma_sm80_ldsm_bk_base(lane, wn, ROW);
}

/* Issues the ring loads of k tile kt (all of them when part < 0, else a
 * third) into stage st, branch-free: outside M, N, K or past the last tile
 * the rest of a chunk is zero-filled.  a_ring: the bytes of A's part of a
 * stage.  ops: 1 A's loads only, 2 B's only, 3 both. */
template <int AF, int BF, int NT>
__device__ __forceinline__ void
bs_load(const sm80_params &p, const bs_plan<AF, BF, NT> &q, uint32_t st, uint32_t kt,
        uint32_t ktiles, int part, uint32_t a_ring, int ops = 3)
{
    using P = bs_plan<AF, BF, NT>;
    constexpr int N = P::A_LOADS + P::B_LOADS, PER = (N + 2) / 3;
    const uint32_t k0 = kt * BK;
    const bool live = kt < ktiles;

#pragma unroll
    for (int it = 0; it < N; it++) {
        if ((part >= 0 && it / PER != part) || !((it < P::A_LOADS ? 1 : 2) & ops))
            continue;
        if (it < P::A_LOADS) {
            uint32_t kc = k0 + q.a_kc;
            uint32_t n = live && ((q.a_rows >> it) & 1) && kc < p.k
                             ? (uint32_t) min((size_t) 16, elem_bytes(AF, p.k - kc)) : 0;

            cp_async16(st + q.a_dst + it * smma_sm80_load_stride(NT, ring_row(AF)),
                       q.ga + elem_bytes(AF, k0) + (size_t) it * q.ga_step, n);
        } else {
            const int ib = it - P::A_LOADS;
            uint32_t kc = k0 + q.b_kc;
            uint32_t n = live && ((q.b_rows >> ib) & 1) && kc < p.k
                             ? (uint32_t) min((size_t) 16, elem_bytes(BF, p.k - kc)) : 0;

            cp_async16(st + a_ring + q.b_dst + ib * smma_sm80_load_stride(NT, ring_row(BF)),
                       q.gb + elem_bytes(BF, k0) + (size_t) ib * q.gb_step, n);
        }
    }
}

/* The scale bytes a thread's conversions of k tile kt need, packed four to
 * a register: A's first, then B's (run i: row t / 4 + 64 i, k16 step
 * t % 4). */
template <int AF, int BF>
__device__ __forceinline__ void
bs_scales(const sm80_params &p, const bs_params &b, uint32_t tm, uint32_t tn, uint32_t kt,
          uint32_t (&sc)[2])
{
    using P = bs_plan<AF, BF>;
    const unsigned t = threadIdx.x;
    const uint32_t kbi = (kt * BK + 16 * (t % 4)) / b.vec;
    uint32_t v[6];

#pragma unroll
    for (int i = 0; i < P::A_CONVS + P::B_CONVS; i++)
        v[i] = i < P::A_CONVS
                   ? scale_byte(b, b.sa, p.m, tm * BM + t / 4 + 64 * i, kbi)
                   : scale_byte(b, b.sb, p.n, tn * BN + t / 4 + 64 * (i - P::A_CONVS), kbi);
    sc[0] = sc[1] = 0;
#pragma unroll
    for (int i = 0; i < P::A_CONVS + P::B_CONVS; i++)
        sc[i / 4] |= v[i] << (8 * (i % 4));
}

/* The shared-memory offsets of a thread's conversion run 0 (row t / 4, 16
 * k at 16 (t % 4)) in the ring tile of format F and in the bf16 tile; run i
 * is 64 i rows further (whole groups of 8 rows: the swizzle repeats). */
template <int F>
__device__ __forceinline__ uint32_t
run_ring(unsigned t)
{
    return F == CV_E2M1 ? smma_sm80_smem_offset(t / 4, (t % 4) / 2, 8 * (t % 2), 32)
                        : smma_sm80_smem_offset(t / 4, t % 4, 0, 64);
}

__device__ __forceinline__ uint32_t
run_conv(unsigned t, int half)
{
    return smma_sm80_smem_offset(t / 4, 2 * (t % 4) + half, 0, ROW);
}

/* Converts run i of the thread: 16 codes of the ring tile at `ring` into
 * the bf16 (F16: f16) tile at `conv`, times scale byte sb. */
template <int F, bool F16>
__device__ __forceinline__ void
bs_convert_run(uint32_t ring, uint32_t conv, int i, uint32_t sb, int sfmt)
{
    const unsigned t = threadIdx.x;
    const uint32_t src = ring + run_ring<F>(t) + i * 64 * ring_row(F);
    uint32_t w[4], out[8];

    if (F == CV_E2M1) {
        asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];\n" : "=r"(w[0]), "=r"(w[1]) : "r"(src));
        w[2] = w[3] = 0;
    } else {
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                     : "r"(src));
    }
    cv_convert16<F, F16>(w, sfmt, sb, out);
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(
                     conv + run_conv(t, 0) + i * 64 * ROW),
                 "r"(out[0]), "r"(out[1]), "r"(out[2]), "r"(out[3]));
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(
                     conv + run_conv(t, 1) + i * 64 * ROW),
                 "r"(out[4]), "r"(out[5]), "r"(out[6]), "r"(out[7]));
}

/* Part `part` of the conversion of the ring stage at `ring` into the
 * buffer at `conv` (all of it when part < 0). */
template <int AF, int BF, bool F16>
__device__ __forceinline__ void
bs_convert(uint32_t ring, uint32_t conv, const uint32_t (&sc)[2], int sfmt, int part)
{
    using P = bs_plan<AF, BF>;
    using S = bs_smem<AF, BF>;
    constexpr int N = P::A_CONVS + P::B_CONVS, PER = (N + 2) / 3;

#pragma unroll
    for (int i = 0; i < N; i++) {
        uint32_t sb = (sc[i / 4] >> (8 * (i % 4))) & 0xffu;

        if (part >= 0 && i / PER != part)
            continue;
        if (i < P::A_CONVS)
            bs_convert_run<AF, F16>(ring, conv, i, sb, sfmt);
        else
            bs_convert_run<BF, F16>(ring + S::A_RING, conv + (S::A_CONV ? A_BYTES : 0),
                                    i - P::A_CONVS, sb, sfmt);
    }
}

/* Whether all four scale bytes of w let the f16 path convert codes of
 * format F (cv_f16_scale). */
template <int F>
__device__ __forceinline__ bool
bs_f16_word(uint32_t w)
{
    bool good = true;

#pragma unroll
    for (int e = 0; e < 4; e++)
        good = good & cv_f16_scale(F, (w >> (8 * e)) & 0xffu);
    return good;
}

/* Whether the n scale bytes at s all let the f16 path convert codes of
 * format F, read by the whole block: 16 bytes a load where s is aligned
 * to them (the bytes before and after one at a time), four loads in flight
 * a thread, every load issued whatever the ones before found.  The 384
 * rows of a CTA hold 96 KB of scales at K = 8192; read a byte at a time in
 * a chain that stopped at the first byte out of range, the scan took about
 * 18% of the time of the CTAs that pass it (mxfp4 at 8192^3 on the H100,
 * bench/sm80-kernels.md). */
template <int F>
__device__ __forceinline__ bool
bs_f16_scan(const uint8_t *s, size_t n)
{
    const size_t head = min(n, (size_t) ((16u - ((uintptr_t) s & 15u)) & 15u));
    const size_t nv = (n - head) / 16, tail = head + 16 * nv;
    const uint4 *v = (const uint4 *) (s + head);
    bool good = true;

    for (size_t i = threadIdx.x; i < head; i += blockDim.x)
        good = good & cv_f16_scale(F, s[i]);
    for (size_t i = tail + threadIdx.x; i < n; i += blockDim.x)
        good = good & cv_f16_scale(F, s[i]);
#pragma unroll 4
    for (size_t i = threadIdx.x; i < nv; i += blockDim.x) {
        const uint4 x = __ldg(v + i);

        good = good & bs_f16_word<F>(x.x) & bs_f16_word<F>(x.y) & bs_f16_word<F>(x.z) &
               bs_f16_word<F>(x.w);
    }
    return good;
}

/* Whether every scale of the CTA's rows of A and columns of B lets the f16
 * path convert them (cv_f16_scale): ue4m3 scales always; e8m0 scales in the
 * range of the format.  The scales are read as stored, the padding of the
 * 128x4 layout included (a padding byte out of range only costs the faster
 * path). */
template <int AF, int BF>
__device__ __forceinline__ bool
bs_f16_ok(const sm80_params &p, const bs_params &b, uint32_t tm, uint32_t tn)
{
    bool good = true;

    if (b.sfmt == CV_E8M0) {
        for (int op = 0; op < 2; op++) {
            const uint32_t rows = op == 0 ? BM : BN, first = op == 0 ? tm * BM : tn * BN;
            const uint32_t all = op == 0 ? p.m : p.n;
            const uint8_t *sc = op == 0 ? b.sa : b.sb;
            size_t start, bytes;

            if (b.layout) { /* 128-row groups of 128 x kb_pad bytes, K first; the
                             * last group ends the array */
                uint32_t end = min(first + rows, (all + 127) / 128 * 128);

                start = (size_t) (first / 128) * 128 * b.kb_pad;
                bytes = (size_t) (end - first / 128 * 128) * b.kb_pad;
            } else {
                uint32_t last = min(first + rows, all);

                start = (size_t) first * b.kb;
                bytes = (size_t) (last - first) * b.kb;
            }
            good = good & (op == 0 ? bs_f16_scan<AF>(sc + start, bytes)
                                   : bs_f16_scan<BF>(sc + start, bytes));
        }
    }
    return __syncthreads_and(good);
}

template <int AF, int BF>
__device__ __forceinline__ void
bs_frags(uint32_t ring, uint32_t conv, const bs_plan<AF, BF> &q, int kk, frags &f)
{
    using S = bs_smem<AF, BF>;

    frags_a(S::A_CONV ? conv : ring, q.a_frag, kk, f);
    frags_bk(conv + (S::A_CONV ? A_BYTES : 0), q.b_frag, kk, f);
}

/* The k loop and the epilogue, with the conversions of one path. */
template <int AF, int BF, bool F16>
__device__ __forceinline__ void
bs_mainloop(const sm80_params &p, const bs_params &b, uint32_t tm, uint32_t tn,
            const bs_plan<AF, BF> &q, float (&acc)[4][8][4])
{
    using S = bs_smem<AF, BF>;
    extern __shared__ __align__(128) uint8_t smem[];
    const uint32_t base = smem_u32(smem), conv0 = base + RS * S::STAGE;
    const unsigned lane = threadIdx.x % 32;
    const uint32_t ktiles = (p.k + BK - 1) / BK;
    uint32_t sc[2];
    frags f[2];

    /* Prologue: tiles 0 .. RS - 2 in flight; tile 0 converted; the scales of
     * tile 1 in registers; the fragments of tile 0's first k16 step. */
#pragma unroll
    for (int s = 0; s < RS - 1; s++) {
        bs_load<AF, BF, THREADS>(p, q, base + s * S::STAGE, s, ktiles, -1, S::A_RING);
        cp_async_commit();
    }
    bs_scales<AF, BF>(p, b, tm, tn, 0, sc);
    cp_async_wait<RS - 3>(); /* tiles 0 and 1 */
    __syncthreads();
    bs_convert<AF, BF, F16>(base, conv0, sc, b.sfmt, -1);
    bs_scales<AF, BF>(p, b, tm, tn, 1, sc);
    __syncthreads();
    bs_frags<AF, BF>(base, conv0, q, 0, f[0]);

    /* Tile kt: its four k16 steps; during the first three, a third of the
     * loads of tile kt + RS - 1 and a third of the conversion of tile kt + 1
     * (landed two barriers ago); the barrier after the third step publishes
     * that conversion and tile kt + 2 (the next conversion's input), and the
     * last step reads the first fragments of tile kt + 1. */
    for (uint32_t kt = 0; kt + 1 < ktiles; kt++) {
        const uint32_t ring = base + (kt % RS) * S::STAGE, conv = conv0 + (kt % 2) * S::CONV;
        const uint32_t nring = base + ((kt + 1) % RS) * S::STAGE;
        const uint32_t nconv = conv0 + ((kt + 1) % 2) * S::CONV;
        const uint32_t lt = kt + RS - 1, lring = base + (lt % RS) * S::STAGE;

#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++) {
            if (kk + 1 < BK / 16)
                bs_frags<AF, BF>(ring, conv, q, kk + 1, f[(kk + 1) % 2]);
            else
                bs_frags<AF, BF>(nring, nconv, q, 0, f[(kk + 1) % 2]);
            if (kk < 3) {
                bs_load<AF, BF, THREADS>(p, q, lring, lt, ktiles, kk, S::A_RING);
                bs_convert<AF, BF, F16>(nring, nconv, sc, b.sfmt, kk);
            }
            mma_step<F16>(acc, f[kk % 2]);
            if (kk == 2) {
                bs_scales<AF, BF>(p, b, tm, tn, kt + 2, sc);
                cp_async_commit();
                cp_async_wait<RS - 3>();
                __syncthreads();
            }
        }
    }

    /* The last k tile, its A padding past K made -0 (the same bits in f16). */
    {
        const uint32_t kt = ktiles - 1;
        const uint32_t ring = base + (kt % RS) * S::STAGE, conv = conv0 + (kt % 2) * S::CONV;

#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++) {
            if (kk + 1 < BK / 16)
                bs_frags<AF, BF>(ring, conv, q, kk + 1, f[(kk + 1) % 2]);
            mask_tail(f[kk % 2], kt * BK + 16 * kk, p.k, lane);
            mma_step<F16>(acc, f[kk % 2]);
        }
    }
    cp_async_wait<0>();
}

template <int AF, int BF>
__global__ void __launch_bounds__(THREADS, 1)
bs_large_kernel(sm80_params p, bs_params b)
{
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const uint32_t wm = (warp / 4) * 64, wn = (warp % 4) * 64;
    uint32_t tm, tn;
    float acc[4][8][4];
    bs_plan<AF, BF> q;

    smma_sm80_tile_of(blockIdx.x, p.tiles_m, p.tiles_n, p.group, &tm, &tn);
    bs_plan_make<AF, BF, THREADS>(p, tm, tn, threadIdx.x, lane, wm, wn, q);
    acc_init(p, tm * BM + wm, tn * BN + wn, lane, acc);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    /* Where every product of the CTA's operands is an f16 normal number,
     * they are converted to f16 (two instructions a pair) and multiplied by
     * the f16 mma: the same values, so the same block-FMA arithmetic. */
    if (cv_f16_format<AF>() && cv_f16_format<BF>() && bs_f16_ok<AF, BF>(p, b, tm, tn))
        bs_mainloop<AF, BF, cv_f16_format<AF>() && cv_f16_format<BF>()>(p, b, tm, tn, q, acc);
    else
#endif
        bs_mainloop<AF, BF, false>(p, b, tm, tn, q, acc);
    store_d(p, tm * BM + wm, tn * BN + wn, lane, acc);
}

template <int AF, int BF>
int
bs_run(const sm80_params &p, const bs_params &b, cudaStream_t st, char *msg, size_t msg_len)
{
    const int smem = bs_smem<AF, BF>::TOTAL;
    int rc;

    /* The rules (gpu/gemm_check_bs.c) computed the same size. */
    if ((size_t) smem != smma_gpu_bs_large_smem((smma_format) AF, (smma_format) BF))
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_ECUDA, "sm80-bs-large: shared memory "
                            "%d differs from the rules' %zu", smem,
                            smma_gpu_bs_large_smem((smma_format) AF, (smma_format) BF));
    rc = raise_smem<bs_large_kernel<AF, BF>>(smem, "sm80-bs-large", msg, msg_len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    bs_large_kernel<AF, BF><<<p.tiles_m * p.tiles_n, THREADS, smem, st>>>(p, b);
    return sm80_launched("sm80-bs-large", msg, msg_len);
}

/* ---- Version 2: converter warps feeding mma warps ------------------------
 *
 * What it adds over version 1, and why: Nsight Compute on version 1
 * (mxfp8, 8192^3; bench/sm80-kernels.md) finds every warp issuing an
 * instruction only every 5.7 cycles, with the tensor pipe 29% busy and no
 * pipe saturated: each warp runs 859 instructions a k tile, 128 of them
 * mma, and with 255 registers a thread (the accumulators, two sets of
 * fragments and the conversion's values; it spills) only 8 warps share an
 * SM.  Version 2 gives the two jobs to different warps, as sm80-bs-small's
 * versions 4 and 5 do: 8 mma warps run the k loop of sm80-v2 over bf16 tiles,
 * and 8 converter warps copy the stored bytes and a word of scales per
 * tile row into a ring (cp.async), convert them into a ring of WS_CS bf16
 * tiles, and hand each tile over through mbarriers (full: converted;
 * empty: read by every mma warp).  On sm_90a and sm_100a, setmaxnreg
 * shares the block's registers out between the two roles (ws_mma_regs:
 * 176 to 192 a thread for the mma warps, 64 to 80 for the converter
 * warps), so that 16 warps fit where 8 did.  The mma warps' sums are those
 * of version 1 (the same fragments in the same k order), and the
 * conversion is the same function.  bf16 A needs no conversion: it goes by
 * cp.async straight into the bf16 stages (ws_converter_bf16a), 6-13%
 * faster on the H100 than copying it through the stored ring.
 * Scales are read a 4-byte word per row and k tile, so version 2 takes
 * scales at 4-byte aligned addresses in the 128x4 layout, and in the
 * linear one where rows of scales are whole words
 * (smma_gpu_bs_large_choose). */

constexpr int WS_THREADS = 512; /* 8 mma warps, then 8 converter warps */
constexpr int WS_CT = 256;      /* converter threads */
constexpr int WS_CS = 3;        /* stages of the bf16 ring */
constexpr int WS_CONV = A_BYTES + B_BYTES;
constexpr int WS_SCALES = 4 * (BM + BN); /* a word of scales per tile row and k tile */
constexpr int WS_SMEM_MAX = 232448;      /* 227 KB: the most a block may opt in to (sm_90) */
/* The handoff of the bf16 stages: mbarriers full[s] (the 256 converter
 * threads arrive once they have written stage s) and empty[s] (the 256 mma
 * threads arrive once they have read it), after the stages in shared
 * memory; a named barrier among the converter warps. */
constexpr int WS_MBARS = 64;
enum { WS_CONV_BAR = 1 };
/* setmaxnreg's split of the block's 512 x 128 registers: 256 x MMA for the
 * mma warps, 256 x (256 - MMA) for the converter warps.  The converter
 * warps set the pace (bench/sm80-kernels.md), and with more registers they
 * keep more conversions in flight, so the mma warps hold one set of
 * fragments (ws_mma) and few registers: 176 (80 for the converters) where
 * ptxas compiles both roles into that without spilling; 184 for the pairs
 * with an f16 path (ptxas spills them at 176) and for bf16 x e4m3 (4%
 * faster than at 176); 192 for e2m1 x e2m1 (within 2% of 184).  At 168
 * every pair spills.  On the H100 this split made version 2 6 to 17%
 * faster than the double-buffered fragments at 216 / 40 and 208 / 48
 * (bench/sm80-kernels.md, 2026-11-26, fourth round). */
template <int AF, int BF>
__host__ __device__ constexpr int
ws_mma_regs(void)
{
    return AF == CV_E2M1 && BF == CV_E2M1 ? 192
           : (cv_f16_format<AF>() && cv_f16_format<BF>()) || (AF == CV_BF16 && BF == CV_E4M3)
               ? 184
               : 176;
}

template <int AF, int BF>
struct ws_geom {
    /* bf16 A skips the stored ring: it is copied into the bf16 stages */
    static constexpr int A_RING = AF == CV_BF16 ? 0 : BM * ring_row(AF);
    static constexpr int B_RING = BN * ring_row(BF);
    static constexpr int RAW = A_RING + B_RING + WS_SCALES; /* a stage: A, B, scale words */
    static constexpr int RS_FIT = (WS_SMEM_MAX - WS_CS * WS_CONV - WS_MBARS) / RAW;
    static constexpr int RS = RS_FIT > 4 ? 4 : RS_FIT; /* stages of the stored ring */
    static constexpr int BARS = RS * RAW + WS_CS * WS_CONV; /* full[s], then empty[s] */
    static constexpr int SMEM = BARS + WS_MBARS;
    static_assert(RS >= 2, "the stored ring needs two stages");
};

__device__ __forceinline__ void
named_sync(uint32_t id, uint32_t n)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(n) : "memory");
}

/* The register counts after setmaxnreg (ws_mma_regs).  Elsewhere (sm_80
 * code) the kernel is the same and ptxas fits it into 128 registers. */
template <int REGS>
__device__ __forceinline__ void
ws_regs_mma(void)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGS) : "memory");
#endif
}

template <int REGS>
__device__ __forceinline__ void
ws_regs_conv(void)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGS) : "memory");
#endif
}

/* Load it of format F by converter thread ct (bs_plan<.., WS_CT>): tile row
 * ct / cpr + it * (WS_CT / cpr), 16-byte chunk ct % cpr of the row, which
 * holds 64 / cpr k: one run of 16 codes for the 8-bit formats, two for
 * e2m1, eight bf16 for bf16.  Run h of the load starts at k
 * chunk * (64 / cpr) + 16 h of the k tile. */
template <int F>
__device__ __forceinline__ uint32_t
ws_row(unsigned ct, int it)
{
    constexpr int CPR = ring_row(F) / 16;
    return ct / CPR + it * (WS_CT / CPR);
}

template <int F>
__device__ __forceinline__ uint32_t
ws_k(unsigned ct, int h)
{
    constexpr int CPR = ring_row(F) / 16;
    return (ct % CPR) * (64 / CPR) + 16 * h;
}

/* Where converter thread ct copies the scale words of k tile kt from: the
 * word of scale blocks 4w .. 4w + 3 of a tile row holds every block of the
 * tile (w = (64 kt / vec) / 4), at byte offset row part + w * step (the
 * 128x4 layout: 512-byte blocks of 4 columns; linear: 4 bytes, rows of kb
 * bytes, kb a multiple of 4).  Thread ct copies the words of tile rows ct
 * and ct + 256 of the 384 (A's 128 rows, then B's 256). */
struct ws_splan {
    uint32_t off[2]; /* the row parts of the thread's two words */
    uint32_t live;   /* bit i: word i is a row inside M or N (else zero-filled) */
    uint32_t step;   /* bytes from word w to w + 1 */
};

__device__ __forceinline__ void
ws_splan_make(const sm80_params &p, const bs_params &b, uint32_t tm, uint32_t tn, unsigned ct,
              bool a_scaled, ws_splan &sp)
{
    sp.live = 0;
    sp.step = b.layout ? 512u : 4u;
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const uint32_t w = ct + 256 * i;
        const bool is_a = w < (uint32_t) BM;
        const uint32_t row = is_a ? tm * BM + w : tn * BN + (w - BM);
        const bool in = w < (uint32_t) (BM + BN) && (is_a ? a_scaled && row < p.m : row < p.n);

        sp.off[i] = b.layout ? smma_sm80_scale_128x4(row, 0, b.kb_pad) : row * b.kb;
        sp.live |= (in ? 1u : 0u) << i;
    }
}

/* cp.async of the scale words of k tile kt into the stage's word area. */
__device__ __forceinline__ void
ws_load_scales(const bs_params &b, const ws_splan &sp, uint32_t words, unsigned ct, uint32_t kt)
{
    const uint32_t w = ((kt * BK) >> b.vshift) / 4;

#pragma unroll
    for (int i = 0; i < 2; i++) {
        const uint32_t idx = ct + 256 * i;

        if (idx < (uint32_t) (BM + BN)) {
            const uint8_t *base = idx < (uint32_t) BM ? b.sa : b.sb;
            const bool in = (sp.live >> i) & 1u;

            cp_async4(words + 4 * idx, base + (in ? sp.off[i] + w * sp.step : 0), in ? 4 : 0);
        }
    }
}

/* Converts (or copies, bf16) the loads of one operand of format F: from
 * the stored stage at `ring` (the operand's part) into the bf16 tile at
 * `conv`, each run with the byte of its block from the word of its row
 * (words at `words`, the operand's first row); blocks at or past kb (past
 * K) take scale 1. */
template <int F, bool F16, int LOADS, int SF>
__device__ __forceinline__ void
ws_convert_op(const bs_params &b, uint32_t ring, uint32_t conv, uint32_t words, unsigned ct,
              uint32_t kt)
{
    constexpr int RB = ring_row(F), RUNS = F == CV_E2M1 ? 2 : 1;
    const uint32_t src0 = ring + smma_sm80_load_base(ct, RB);

#pragma unroll
    for (int it = 0; it < LOADS; it++) {
        const uint32_t src = src0 + it * smma_sm80_load_stride(WS_CT, RB);
        const uint32_t row = ws_row<F>(ct, it);
        uint32_t w[4], sw = 0;

        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                     : "r"(src));
        if (F == CV_BF16) {
            /* the stored rows are bf16 tile rows already (128 bytes, the same swizzle) */
            asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(conv + src - ring),
                         "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]));
            continue;
        }
        asm volatile("ld.shared.u32 %0, [%1];\n" : "=r"(sw) : "r"(words + 4 * row));
#pragma unroll
        for (int h = 0; h < RUNS; h++) {
            const uint32_t kbi = (kt * BK + ws_k<F>(ct, h)) >> b.vshift;
            const uint32_t sb = kbi < b.kb ? (sw >> (8 * (kbi % 4))) & 0xffu : cv_scale_one(SF);
            const uint32_t chunk = ws_k<F>(ct, h) / 8; /* the run's first bf16 chunk */
            uint32_t out[8];

            cv_convert16<F, F16>(w + 2 * h, SF, sb, out);
            asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(
                             conv + smma_sm80_smem_offset(row, chunk, 0, ROW)),
                         "r"(out[0]), "r"(out[1]), "r"(out[2]), "r"(out[3]));
            asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(
                             conv + smma_sm80_smem_offset(row, chunk + 1, 0, ROW)),
                         "r"(out[4]), "r"(out[5]), "r"(out[6]), "r"(out[7]));
        }
    }
}

/* The converter warps when A is bf16: A is not converted, so it goes by
 * cp.async straight from memory into the bf16 stage, one tile ahead (into
 * the stage the mma warps released two tiles ago), and the stored ring
 * holds B alone, four stages of it.  Before: the converters copied A's 16
 * KB a tile through the stored ring into the stage, a shared-memory read
 * and write per byte, and the ring's size left bf16 x e4m3 two stages.
 * The cp.async groups come in pairs, A's tile then B's stored tile, so
 * that a thread waits for its A tile without waiting for the B tile it
 * issued after it. */
template <int AF, int BF, bool F16, int SF>
__device__ __forceinline__ void
ws_converter_bf16a(const sm80_params &p, const bs_params &b, uint32_t tm, uint32_t tn,
                   unsigned ct)
{
    using G = ws_geom<AF, BF>;
    using P = bs_plan<AF, BF, WS_CT>;
    extern __shared__ __align__(128) uint8_t smem[];
    const uint32_t ring0 = smem_u32(smem), conv0 = ring0 + G::RS * G::RAW;
    const uint32_t full0 = ring0 + G::BARS, empty0 = full0 + 8 * WS_CS;
    const uint32_t ktiles = (p.k + BK - 1) / BK;
    const uint32_t wofs = G::B_RING; /* the scale words of a stage */
    ws_splan sp;
    P q;

    static_assert(AF == CV_BF16 && G::A_RING == 0, "bf16 A has no stored ring");
    bs_plan_make<AF, BF, WS_CT>(p, tm, tn, ct, 0, 0, 0, q);
    ws_splan_make(p, b, tm, tn, ct, false, sp);
#pragma unroll
    for (int s = 0; s < G::RS - 1; s++) { /* A's group (tile 0 in the last), B's group */
        if (s == G::RS - 2)
            bs_load<AF, BF, WS_CT>(p, q, conv0, 0, ktiles, -1, 0, 1);
        cp_async_commit();
        if ((uint32_t) s < ktiles) {
            bs_load<AF, BF, WS_CT>(p, q, ring0 + s * G::RAW, s, ktiles, -1, 0, 2);
            ws_load_scales(b, sp, ring0 + s * G::RAW + wofs, ct, s);
        }
        cp_async_commit();
    }
    for (uint32_t kt = 0; kt < ktiles; kt++) {
        const uint32_t slot = kt % WS_CS, ring = ring0 + (kt % G::RS) * G::RAW;
        const uint32_t conv = conv0 + slot * WS_CONV, lt = kt + G::RS - 1;

        cp_async_wait<2 * (G::RS - 2)>(); /* this thread's stored tile kt */
        named_sync(WS_CONV_BAR, WS_CT);
        ws_convert_op<BF, F16, P::B_LOADS, SF>(b, ring, conv + A_BYTES, ring + wofs + 4 * BM,
                                               ct, kt);
        cp_async_wait<1>(); /* and its A tile kt */
        mbar_arrive(full0 + 8 * slot);
        if (kt + 1 < ktiles) {
            const uint32_t nslot = (kt + 1) % WS_CS;

            if (kt + 1 >= (uint32_t) WS_CS) /* tile kt + 1 - WS_CS read */
                mbar_wait(empty0 + 8 * nslot, ((kt + 1) / WS_CS - 1) & 1u);
            bs_load<AF, BF, WS_CT>(p, q, conv0 + nslot * WS_CONV, kt + 1, ktiles, -1, 0, 1);
        }
        cp_async_commit();
        if (lt < ktiles) {
            const uint32_t lring = ring0 + (lt % G::RS) * G::RAW;

            bs_load<AF, BF, WS_CT>(p, q, lring, lt, ktiles, -1, 0, 2);
            ws_load_scales(b, sp, lring + wofs, ct, lt);
        }
        cp_async_commit();
    }
    cp_async_wait<0>();
}

/* The converter warps: the stored ring RS - 1 tiles ahead of the tile they
 * convert; each tile converted into bf16 stage kt % WS_CS once the mma
 * warps have read what it held.  A barrier among the converter warps per
 * tile publishes every thread's copies (a run's scale word was copied by
 * another thread) and frees the stage converted before for the next
 * copies. */
template <int AF, int BF, bool F16, int SF>
__device__ __forceinline__ void
ws_converter(const sm80_params &p, const bs_params &b, uint32_t tm, uint32_t tn, unsigned ct)
{
    using G = ws_geom<AF, BF>;
    using P = bs_plan<AF, BF, WS_CT>;
    extern __shared__ __align__(128) uint8_t smem[];
    const uint32_t ring0 = smem_u32(smem), conv0 = ring0 + G::RS * G::RAW;
    const uint32_t full0 = ring0 + G::BARS, empty0 = full0 + 8 * WS_CS;
    const uint32_t ktiles = (p.k + BK - 1) / BK;
    const uint32_t wofs = G::A_RING + G::B_RING; /* the scale words of a stage */
    ws_splan sp;
    P q;

    bs_plan_make<AF, BF, WS_CT>(p, tm, tn, ct, 0, 0, 0, q);
    ws_splan_make(p, b, tm, tn, ct, AF != CV_BF16, sp);
#pragma unroll
    for (int s = 0; s < G::RS - 1; s++) {
        if ((uint32_t) s < ktiles) {
            bs_load<AF, BF, WS_CT>(p, q, ring0 + s * G::RAW, s, ktiles, -1, G::A_RING);
            ws_load_scales(b, sp, ring0 + s * G::RAW + wofs, ct, s);
        }
        cp_async_commit();
    }
    for (uint32_t kt = 0; kt < ktiles; kt++) {
        const uint32_t slot = kt % WS_CS, ring = ring0 + (kt % G::RS) * G::RAW;
        const uint32_t conv = conv0 + slot * WS_CONV, lt = kt + G::RS - 1;

        cp_async_wait<G::RS - 2>(); /* this thread's copies of tile kt */
        named_sync(WS_CONV_BAR, WS_CT);
        if (lt < ktiles) {
            const uint32_t lring = ring0 + (lt % G::RS) * G::RAW;

            bs_load<AF, BF, WS_CT>(p, q, lring, lt, ktiles, -1, G::A_RING);
            ws_load_scales(b, sp, lring + wofs, ct, lt);
        }
        cp_async_commit();
        if (kt >= (uint32_t) WS_CS) /* tile kt - WS_CS read: phase kt / WS_CS - 1 */
            mbar_wait(empty0 + 8 * slot, (kt / WS_CS - 1) & 1u);
        ws_convert_op<AF, F16, P::A_LOADS, SF>(b, ring, conv, ring + wofs, ct, kt);
        ws_convert_op<BF, F16, P::B_LOADS, SF>(b, ring + G::A_RING, conv + A_BYTES,
                                           ring + wofs + 4 * BM, ct, kt);
        mbar_arrive(full0 + 8 * slot);
    }
    cp_async_wait<0>();
}

/* The mma warps: sm80-v2's k loop over the bf16 stages, with one set of
 * fragments (32 registers fewer than sm80-v2's two, which go to the
 * converter warps; while an mma warp waits for its fragments the other mma
 * warp of its scheduler issues its mma).  The reads of a tile's last k16
 * step release the tile; the wait for the next tile follows that step's
 * mma, so it overlaps them. */
template <bool F16>
__device__ __forceinline__ void
ws_mma(const sm80_params &p, uint32_t conv0, uint32_t full0, unsigned warp, unsigned lane,
       float (&acc)[4][8][4])
{
    const uint32_t wm = (warp / 4) * 64, wn = (warp % 4) * 64;
    const uint32_t a_frag = smma_sm80_ldsm_a_base(lane, wm, ROW);
    const uint32_t b_frag = smma_sm80_ldsm_bk_base(lane, wn, ROW);
    const uint32_t ktiles = (p.k + BK - 1) / BK, empty0 = full0 + 8 * WS_CS;
    frags f;

    mbar_wait(full0, 0);
    for (uint32_t kt = 0; kt < ktiles; kt++) {
        const uint32_t conv = conv0 + (kt % WS_CS) * WS_CONV;

#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++) {
            frags_a(conv, a_frag, kk, f);
            frags_bk(conv + A_BYTES, b_frag, kk, f);
            if (kk + 1 == BK / 16)
                mbar_arrive(empty0 + 8 * (kt % WS_CS)); /* every read of tile kt issued */
            if (kt + 1 == ktiles)
                mask_tail(f, kt * BK + 16 * kk, p.k, lane);
            mma_step<F16>(acc, f);
        }
        if (kt + 1 < ktiles)
            mbar_wait(full0 + 8 * ((kt + 1) % WS_CS), ((kt + 1) / WS_CS) & 1u);
    }
}

/* One role's work: the converter warps (MMA false) or the mma warps. */
template <int AF, int BF, bool F16, int SF, bool MMA>
__device__ __forceinline__ void
ws_body(const sm80_params &p, const bs_params &b, uint32_t tm, uint32_t tn)
{
    using G = ws_geom<AF, BF>;
    extern __shared__ __align__(128) uint8_t smem[];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;

    if (!MMA) {
        if constexpr (AF == CV_BF16)
            ws_converter_bf16a<AF, BF, F16, SF>(p, b, tm, tn, threadIdx.x - 256);
        else
            ws_converter<AF, BF, F16, SF>(p, b, tm, tn, threadIdx.x - 256);
    } else {
        const uint32_t wm = (warp / 4) * 64, wn = (warp % 4) * 64;
        float acc[4][8][4];

        acc_init(p, tm * BM + wm, tn * BN + wn, lane, acc);
        ws_mma<F16>(p, smem_u32(smem) + G::RS * G::RAW, smem_u32(smem) + G::BARS, warp, lane,
                    acc);
        store_d(p, tm * BM + wm, tn * BN + wn, lane, acc);
    }
}

/* The scale format is a parameter (SF): e8m0 for every pair, ue4m3 for
 * NVFP4 (e2m1 x e2m1) only, the pairs smma_gpu_bs_large_choose gives it.
 * Every thread takes part in the f16 decision (one barrier of the whole
 * block), then the roles part and the registers move. */
template <int AF, int BF, int SF>
__global__ void __launch_bounds__(WS_THREADS, 1)
bs_ws_kernel(sm80_params p, bs_params b)
{
    constexpr int MMA_REGS = ws_mma_regs<AF, BF>();
    constexpr bool F16_OK = cv_f16_format<AF>() && cv_f16_format<BF>();
    uint32_t tm, tn;
    bool f16 = false;

    static_assert(256 * MMA_REGS + 256 * (256 - MMA_REGS) == WS_THREADS * 128,
                  "the block's registers at launch (128 a thread), shared out");
    smma_sm80_tile_of(blockIdx.x, p.tiles_m, p.tiles_n, p.group, &tm, &tn);
    if (threadIdx.x < 2 * WS_CS) {
        extern __shared__ __align__(128) uint8_t smem[];

        mbar_init(smem_u32(smem) + ws_geom<AF, BF>::BARS + 8 * threadIdx.x, 256);
    }
    __syncthreads();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    if (F16_OK)
        f16 = bs_f16_ok<AF, BF>(p, b, tm, tn);
#endif
    if (threadIdx.x >= 256) {
        ws_regs_conv<256 - MMA_REGS>();
        if (f16)
            ws_body<AF, BF, F16_OK, SF, false>(p, b, tm, tn);
        else
            ws_body<AF, BF, false, SF, false>(p, b, tm, tn);
    } else {
        ws_regs_mma<MMA_REGS>();
        if (f16)
            ws_body<AF, BF, F16_OK, SF, true>(p, b, tm, tn);
        else
            ws_body<AF, BF, false, SF, true>(p, b, tm, tn);
    }
}

/* A question instead of a launch (smma_gpu_bs_large_version): which
 * version would run, and for which target version 2's loaded code was
 * compiled. */
struct bs_query {
    int version, code_arch;
};

/* Whether the code the device loaded for version 2 keeps its registers.
 * Version 2 needs setmaxnreg (sm_90a and sm_100a code) to give its mma
 * warps their registers; compiled for sm_80 (a build for sm_80 alone, whose
 * compute_80 PTX the driver compiles on an H100 or B200) ptxas fits its 512
 * threads into 128 registers and spills 1.7 KB a thread, and on the H100
 * that ran 3.5 to 6 times slower than version 1 (bench/sm80-kernels.md,
 * sixth round).  Such code uses local memory; version 1 runs instead.  The
 * target the code was compiled for (its PTX version) goes to q where
 * asked. */
template <auto KERNEL>
__host__ bool
holds_registers(bs_query *q, cudaError_t *e)
{
    cudaFuncAttributes fa;

    if ((*e = cudaFuncGetAttributes(&fa, KERNEL)) != cudaSuccess) {
        (void) cudaGetLastError();
        return false;
    }
    if (q != NULL)
        q->code_arch = fa.ptxVersion;
    return fa.localSizeBytes == 0;
}

/* Version 1, or where q asks, the answer that version 1 runs. */
template <int AF, int BF>
int
v1_run(const sm80_params &p, const bs_params &b, bs_query *q, cudaStream_t st, char *msg,
       size_t msg_len)
{
    if (q != NULL) {
        q->version = 1;
        return SMMA_GPU_STATUS_OK;
    }
    return bs_run<AF, BF>(p, b, st, msg, msg_len);
}

template <int AF, int BF, int SF>
int
ws_launch(const sm80_params &p, const bs_params &b, int smem, bs_query *q, cudaStream_t st,
          char *msg, size_t msg_len)
{
    cudaError_t e;
    int rc;

    if (!holds_registers<bs_ws_kernel<AF, BF, SF>>(q, &e)) {
        /* A launch goes on to version 1, whose own launch reports a
         * failing device; a question gets the error. */
        if (q != NULL && e != cudaSuccess)
            return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_ECUDA, "sm80-bs-large: "
                                "cudaFuncGetAttributes: %s (%s)", cudaGetErrorString(e),
                                cudaGetErrorName(e));
        return v1_run<AF, BF>(p, b, q, st, msg, msg_len);
    }
    if (q != NULL) {
        q->version = 2;
        return SMMA_GPU_STATUS_OK;
    }
    rc = raise_smem<bs_ws_kernel<AF, BF, SF>>(smem, "sm80-bs-large", msg, msg_len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    bs_ws_kernel<AF, BF, SF><<<p.tiles_m * p.tiles_n, WS_THREADS, smem, st>>>(p, b);
    return sm80_launched("sm80-bs-large", msg, msg_len);
}

/* Version 2 where smma_gpu_bs_large_choose chose it (ws), the device
 * holds its shared memory and its code keeps its registers
 * (holds_registers), else version 1; with q, only the answer. */
template <int AF, int BF>
int
ws_run(const sm80_params &p, const bs_params &b, bool ws, bs_query *q, cudaStream_t st,
       char *msg, size_t msg_len)
{
    const int smem = ws_geom<AF, BF>::SMEM;

    if (!ws || !sm80tile::device_holds_smem(smem))
        return v1_run<AF, BF>(p, b, q, st, msg, msg_len);
    if ((size_t) smem != smma_gpu_bs_large_smem2((smma_format) AF, (smma_format) BF))
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_ECUDA, "sm80-bs-large: shared memory "
                            "%d of version 2 differs from the rules' %zu", smem,
                            smma_gpu_bs_large_smem2((smma_format) AF, (smma_format) BF));
    if (b.sfmt == CV_E8M0)
        return ws_launch<AF, BF, CV_E8M0>(p, b, smem, q, st, msg, msg_len);
    if (AF == CV_E2M1 && BF == CV_E2M1)
        return ws_launch<AF, BF, AF == CV_E2M1 && BF == CV_E2M1 ? CV_UE4M3 : CV_E8M0>(
            p, b, smem, q, st, msg, msg_len);
    /* smma_gpu_bs_large_choose gives these version 1. */
    return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-large: version 2 is not "
                        "built with ue4m3 scales for this pair (only NVFP4)");
}

/* Launches sm80-bs-large for x, or with q, answers which version would
 * run. */
int
bs_large_go(const smma_gpu_gemm_args *x, bs_query *q, char *msg, size_t msg_len)
{
    sm80_params p = sm80_params_of(x);
    const smma_gemm_shape *s = &x->shape;
    cudaStream_t st = (cudaStream_t) x->stream;
    bs_params b;
    int version, rc = smma_gpu_bs_large_choose(getenv("SMMA_SM80_BS_LARGE"), x, &version, msg,
                                               msg_len);
    bool ws = version == 2;

    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    p.tiles_m = (p.m + BM - 1) / BM;
    p.tiles_n = (p.n + BN - 1) / BN;
    p.group = GROUP;
    b.sa = (const uint8_t *) x->sa;
    b.sb = (const uint8_t *) x->sb;
    b.vec = s->vec;
    b.vshift = s->vec == 16 ? 4 : 5;
    b.kb = (uint32_t) ((s->k + s->vec - 1) / s->vec);
    b.kb_pad = (b.kb + 3) / 4 * 4;
    b.layout = x->scale_layout == SMMA_SL_128X4;
    b.sfmt = s->scale_fmt == SMMA_UE4M3 ? CV_UE4M3 : CV_E8M0;
    return cv_fast_pair(
        s->a_fmt, s->b_fmt, "sm80-bs-large",
        [&](auto af, auto bf) {
            return ws_run<decltype(af)::value, decltype(bf)::value>(p, b, ws, q, st, msg, msg_len);
        },
        msg, msg_len);
}

} /* namespace */

int
smma_sm80_bs_large_launch(const smma_gpu_gemm_args *x, char *msg, size_t msg_len)
{
    return bs_large_go(x, NULL, msg, msg_len);
}

int
smma_gpu_bs_large_version(const smma_gpu_gemm_args *x, int *version, int *code_arch, char *msg,
                          size_t msg_len)
{
    bs_query q = { 0, 0 };
    smma_gpu_device dev;
    int rc;

    if (x == NULL || version == NULL || code_arch == NULL)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-large: no problem or "
                            "no place for the answer");
    *version = 0;
    *code_arch = 0;
    /* Without a device the launcher would fall back to version 1 and fail
     * at its launch; the question says there is none. */
    if ((rc = smma_gpu_info(&dev, msg, msg_len)) != SMMA_GPU_STATUS_OK)
        return rc;
    rc = bs_large_go(x, &q, msg, msg_len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    *version = q.version;
    *code_arch = q.code_arch;
    return rc;
}
