/*
 * gpu/sm80/bs_small.cu - the block-scaled GEMM for small M (M <= 16): the
 * decode-time product of a few activation rows with quantized weights,
 * limited by the bandwidth with which the weights (B) stream from memory.
 *
 * Computes the same D = alpha * (C + sum_k (A SA)(B SB)) as bs_large.cu,
 * bit for bit, with the model bf16-upcast-<gpu>: each element times its
 * scale rounded once to bf16, one fp32 accumulator chain per element of D
 * through mma.sync.m16n8k16 in k order.  No split-K: each warp owns eight
 * columns of D and walks all of K for them.
 *
 * How it streams B, and why:
 *   - B never touches shared memory.  A warp reads its eight columns in
 *     chunks of 512 k (512 bytes a column, 256 for e2m1): every lane loads
 *     16 contiguous bytes per instruction, the four lanes of a column 64
 *     contiguous bytes, eight instructions (four for e2m1) a chunk, with an
 *     L2 prefetch hint of 256 bytes, so that memory sees long runs of one
 *     row and not scattered sectors.
 *   - What a lane loads is a whole 16-k block (two for e2m1), but the mma
 *     wants from each of the four lanes of a column four k of every block.
 *     In every 16-k block, lane (group, tig) takes k = 4 tig .. 4 tig + 3 of
 *     column n = group (a permutation of k inside the block, the same for A;
 *     the block-FMA arithmetic sums the 16 products of a block as one, so
 *     their order inside it does not matter, only which 16 k form a block).
 *     Four lanes exchange their words with two rounds of shuffles (a 4 x 4
 *     transpose), in registers.
 *   - Chunks are loaded ahead in a ring in registers: one chunk ahead for
 *     the 8-bit formats (4 KB a warp in flight), two for e2m1 (2 KB each).
 *     A 16-byte load is unpacked just before its blocks, so that the chunk
 *     being multiplied holds few registers: 160 a thread, which lets three
 *     CTAs of 4 warps share an SM (__launch_bounds__(128, 3)), 24 to 48 KB
 *     in flight per SM; with more warps the conversions of one hide the
 *     latencies of another.
 *   - The scales of a chunk are loaded with its codes, one byte per 16-k
 *     block (a scale of 32 k twice), two words a lane, and shared among the
 *     four lanes of a column by shuffles.
 *   - A (at most 16 rows) is loaded at the start of each chunk for the next
 *     one, only its M live rows, spread over all threads, and converted
 *     after the chunk's mma into shared memory in fragment order (the same
 *     k permutation); every warp reads its A registers with one 16-byte
 *     load per block.  One barrier per chunk.
 *   - The code of a chunk is straight-line, with no division and no branch
 *     per block (cv_scale); the first version of this kernel, which
 *     loaded four bytes per lane and block, compiled to 22,000 instructions
 *     per format pair with 319 integer divisions and branches around every
 *     scale, and moved 3 to 8% of the copy bandwidth.
 * A CTA has 4 warps, 32 columns.
 *
 * Tails: any N; M <= 16 (rows past M are zeros and not written); K a
 * multiple of 8 (codes past K read as +0 for B and stored as -0 for A, with
 * the scale 1 past the last scale block).
 *
 * Run: `softmma gemm --on gpu --kernel sm80-bs-small ...`, tests/gpu/gemm-bs-t,
 * bench/gemm-bench.
 */
#include "convert.cuh"
#include "common.cuh"
#include "sm80.h"

namespace {

constexpr int WARPS = 4, THREADS = 32 * WARPS, BN = 8 * WARPS;
constexpr int KC = 512;     /* k per chunk */
constexpr int BLOCKS = KC / 16;

/* For B's format: the bytes of a column per chunk, a lane's 16-byte loads
 * per chunk (64 bytes per column each), and the chunks of the ring in
 * registers (DEPTH - 1 loaded ahead). */
template <int BF>
struct geom {
    static constexpr int CB = BF == CV_E2M1 ? KC / 2 : KC;
    static constexpr int LOADS = CB / 64;
    static constexpr int DEPTH = BF == CV_E2M1 ? 3 : 2;
};

struct small_params {
    const uint8_t *sa, *sb;
    uint32_t kb, kb_pad;   /* scale blocks along K, and rounded up to 4 */
    int layout, sfmt;      /* 128x4 layout; CV_E8M0 or CV_UE4M3 */
    int sword;             /* B's scales may be read a word at a time */
    int vec16;             /* 16 k per scale (else 32) */
    uint32_t vshift;       /* log2 of the k per scale */
    uint32_t b_row;        /* bytes of a row (column n) of B */
    uint32_t b_kbytes;     /* bytes of a row of B inside K */
};

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

/* One chunk of B as a lane loaded it: 16-byte pieces and its scale words. */
template <int BF>
struct bchunk {
    uint4 raw[geom<BF>::LOADS];
    uint32_t sw[2]; /* scale bytes of blocks 4 w .. 4 w + 3, w = 2 tig, 2 tig + 1 */
};

/* Scale blocks kb0 .. kb0 + 3 of row n as a word (kb0 a multiple of 4): a
 * byte of 1.0 past the last block. */
__device__ __forceinline__ uint32_t
scale_word(const small_params &s, const uint8_t *sc, uint32_t n, uint32_t kb0)
{
    uint32_t v = 0;

    if (s.sword && kb0 + 4 <= s.kb) {
        size_t at = s.layout ? smma_sm80_scale_128x4(n, kb0, s.kb_pad) : (size_t) n * s.kb + kb0;

        return __ldg((const uint32_t *) (sc + at));
    }
#pragma unroll
    for (int e = 0; e < 4; e++) {
        uint32_t kbi = kb0 + e, b = cv_scale_one(s.sfmt);

        if (kbi < s.kb)
            b = sc[s.layout ? smma_sm80_scale_128x4(n, kbi, s.kb_pad) : (size_t) n * s.kb + kbi];
        v |= b << (8 * e);
    }
    return v;
}

/* The scale bytes of 16-k blocks 4 w .. 4 w + 3 of chunk c of row n, one
 * byte per block whatever the vector size (with vec 32 each scale twice). */
__device__ __forceinline__ uint32_t
block_scales(const small_params &s, const uint8_t *sc, uint32_t n, uint32_t c, uint32_t w)
{
    if (s.vec16)
        return scale_word(s, sc, n, c * (KC / 16) + 4 * w);
    {
        uint32_t kb0 = c * (KC / 32) + 2 * w, b0 = cv_scale_one(s.sfmt), b1 = b0;

        if (kb0 < s.kb)
            b0 = sc[s.layout ? smma_sm80_scale_128x4(n, kb0, s.kb_pad) : (size_t) n * s.kb + kb0];
        if (kb0 + 1 < s.kb)
            b1 = sc[s.layout ? smma_sm80_scale_128x4(n, kb0 + 1, s.kb_pad)
                             : (size_t) n * s.kb + kb0 + 1];
        return b0 * 0x0101u + b1 * 0x01010000u;
    }
}

/* Issues the loads of chunk c of column n (nothing for a column past N or a
 * chunk past the last: zeros). */
template <int BF>
__device__ __forceinline__ void
load_b(const sm80_params &p, const small_params &s, uint32_t n, unsigned tig, uint32_t c,
       uint32_t chunks, bchunk<BF> &ch)
{
    const bool live = n < p.n && c < chunks;
    const uint8_t *row = (const uint8_t *) p.b + (size_t) n * s.b_row;

#pragma unroll
    for (int i = 0; i < geom<BF>::LOADS; i++)
        ch.raw[i] = live ? ld_row16(row, c * geom<BF>::CB + 64 * i + 16 * tig, s.b_kbytes)
                         : make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int h = 0; h < 2; h++)
        ch.sw[h] = live ? block_scales(s, s.sb, n, c, 2 * tig + h) : 0;
}

/* The 4 x 4 transpose among the four lanes of a column: lane tig holds
 * words x[0..3] of item tig; afterwards y[b] is word tig of item b. */
__device__ __forceinline__ void
transpose4(const uint32_t x[4], unsigned tig, uint32_t y[4])
{
    const bool odd = tig & 1u, hi = tig & 2u;
    uint32_t r0 = __shfl_xor_sync(0xffffffffu, odd ? x[0] : x[1], 1);
    uint32_t r1 = __shfl_xor_sync(0xffffffffu, odd ? x[2] : x[3], 1);
    uint32_t k0 = odd ? x[1] : x[0], k1 = odd ? x[3] : x[2];
    /* u[p][q]: item (tig & ~1) | p, word (tig & 1) | 2 q */
    uint32_t u00 = odd ? r0 : k0, u10 = odd ? k0 : r0;
    uint32_t u01 = odd ? r1 : k1, u11 = odd ? k1 : r1;
    uint32_t g0 = __shfl_xor_sync(0xffffffffu, hi ? u00 : u01, 2);
    uint32_t g1 = __shfl_xor_sync(0xffffffffu, hi ? u10 : u11, 2);
    uint32_t c0 = hi ? u01 : u00, c1 = hi ? u11 : u10;

    y[0] = hi ? g0 : c0;
    y[1] = hi ? g1 : c1;
    y[2] = hi ? c0 : g0;
    y[3] = hi ? c1 : g1;
}

/* The lane's words of load i of a chunk: w[b] holds its four codes of
 * block 4 i + b (8-bit formats), or of blocks 8 i + 2 b (low half) and
 * 8 i + 2 b + 1 (e2m1). */
template <int BF>
__device__ __forceinline__ void
unpack_b(const uint4 &raw, unsigned tig, uint32_t w[4])
{
    uint32_t x[4] = { raw.x, raw.y, raw.z, raw.w };

    if (BF == CV_E2M1) {
        /* x[0..1]: block 8 i + 2 tig, x[2..3]: block 8 i + 2 tig + 1; word
         * u pairs halfword u of the two */
        uint32_t v[4] = { __byte_perm(x[0], x[2], 0x5410), __byte_perm(x[0], x[2], 0x7632),
                          __byte_perm(x[1], x[3], 0x5410), __byte_perm(x[1], x[3], 0x7632) };

        transpose4(v, tig, w);
    } else {
        transpose4(x, tig, w); /* x: block 4 i + tig */
    }
}

/* The mma of one chunk with the A fragments at afrag (uint4 per block and
 * lane); each 16-byte load is unpacked just before its blocks, so that few
 * registers hold the chunk's words at a time. */
template <int BF>
__device__ __forceinline__ void
chunk_mma(float (&acc)[4], const bchunk<BF> &ch, const uint4 *afrag, unsigned lane, int sfmt)
{
    constexpr int PER_LOAD = BLOCKS / geom<BF>::LOADS; /* blocks of one load: 4 or 8 */
    uint32_t sc[BLOCKS / 4];
    const unsigned tig = lane % 4;

#pragma unroll
    for (int q = 0; q < BLOCKS / 4; q++) /* block word q is word q % 2 of lane q / 2 */
        sc[q] = __shfl_sync(0xffffffffu, ch.sw[q % 2], (lane & ~3u) | (q / 2));
#pragma unroll
    for (int i = 0; i < geom<BF>::LOADS; i++) {
        uint32_t w[4];

        unpack_b<BF>(ch.raw[i], tig, w);
#pragma unroll
        for (int jj = 0; jj < PER_LOAD; jj++) {
            const int j = PER_LOAD * i + jj;
            uint4 a = afrag[j * 32 + lane];
            uint32_t av[4] = { a.x, a.y, a.z, a.w }, bv[2];
            float s = cv_scale(sfmt, (sc[j / 4] >> (8 * (j % 4))) & 0xffu), f[4];

            if (BF == CV_E2M1) {
                cv_e2m1x4(w[jj / 2] >> (16 * (jj % 2)), f);
            } else if (BF == CV_E4M3) {
                cv_e4m3x2(w[jj], f[0], f[1]);
                cv_e4m3x2(w[jj] >> 16, f[2], f[3]);
            } else if (BF == CV_E5M2) {
                cv_e5m2x2(w[jj], f[0], f[1]);
                cv_e5m2x2(w[jj] >> 16, f[2], f[3]);
            } else {
#pragma unroll
                for (int e = 0; e < 4; e++)
                    f[e] = cv_fp6<BF == CV_E2M3 ? 2 : 3>((w[jj] >> (8 * e)) & 0x3fu);
            }
            bv[0] = cv_pack(f[0], f[1], s);
            bv[1] = cv_pack(f[2], f[3], s);
            mma16816<false>(acc, av, bv);
        }
    }
}

/* A of one chunk as a thread loads it: pair q (row q / 2 of the live rows,
 * k = 2 threadIdx.x + 256 (q % 2) within each 512 k) and its scale byte. */
struct araw {
    static constexpr int PAIRS = 16 * KC / 2 / THREADS;
    uint32_t code[PAIRS];
    uint32_t scale[PAIRS / 4]; /* four scale bytes a word */
};

__device__ __forceinline__ void
a_pair(int q, uint32_t &i, uint32_t &kl)
{
    constexpr int PER_ROW = KC / 2 / THREADS; /* pairs of a row per thread */

    i = q / PER_ROW;
    kl = 2 * threadIdx.x + 2 * THREADS * (q % PER_ROW);
}

/* Loads the codes of chunk c of A (only rows below M; k past K not read). */
template <int AF>
__device__ __forceinline__ void
load_a(const sm80_params &p, const small_params &s, uint32_t c, araw &ar)
{
#pragma unroll
    for (int q = 0; q < araw::PAIRS; q++) {
        uint32_t i, kl, k;

        a_pair(q, i, kl);
        if (i >= p.m)
            break; /* uniform: the rows grow with q */
        k = c * KC + kl;
        ar.code[q] = 0;
        if (q % 4 == 0)
            ar.scale[q / 4] = 0;
        if (k < p.k) {
            size_t at = (size_t) i * p.lda + k;
            uint32_t kbi = k >> s.vshift;

            if (AF == CV_BF16)
                ar.code[q] = __ldg((const uint32_t *) ((const uint16_t *) p.a + at));
            else if (AF == CV_E2M1)
                ar.code[q] = __ldg((const uint8_t *) p.a + at / 2);
            else
                ar.code[q] = __ldg((const uint16_t *) ((const uint8_t *) p.a + at));
            if (AF != CV_BF16) {
                size_t sat = s.layout ? smma_sm80_scale_128x4(i, kbi, s.kb_pad)
                                      : (size_t) i * s.kb + kbi;

                ar.scale[q / 4] |= (uint32_t) s.sa[sat] << (8 * (q % 4));
            }
        }
    }
}

/* Converts the loaded chunk c of A into the fragment-order buffer dst: word
 * (j * 32 + lane) * 4 + r is register r of lane `lane` for block j (row
 * group + 8 (r % 2), k 16 j + 4 tig + 2 (r / 2) and the next); -0 past K.
 * Rows past M stay as zeroed at the start. */
template <int AF>
__device__ __forceinline__ void
store_a(const sm80_params &p, const small_params &s, uint32_t c, const araw &ar, uint32_t *dst)
{
#pragma unroll
    for (int q = 0; q < araw::PAIRS; q++) {
        uint32_t i, kl, v, x = ar.code[q];
        float f0, f1;

        a_pair(q, i, kl);
        if (i >= p.m)
            break;
        if (c * KC + kl >= p.k)
            v = 0x80008000u;
        else if (AF == CV_BF16)
            v = x;
        else {
            if (AF == CV_E4M3)
                cv_e4m3x2(x, f0, f1);
            else if (AF == CV_E5M2)
                cv_e5m2x2(x, f0, f1);
            else if (AF == CV_E2M1) {
                f0 = cv_e2m1(x);
                f1 = cv_e2m1(x >> 4);
            } else {
                f0 = cv_fp6<AF == CV_E2M3 ? 2 : 3>(x & 0x3fu);
                f1 = cv_fp6<AF == CV_E2M3 ? 2 : 3>((x >> 8) & 0x3fu);
            }
            v = cv_pack(f0, f1, cv_scale(s.sfmt, (ar.scale[q / 4] >> (8 * (q % 4))) & 0xffu));
        }
        {
            uint32_t j = kl / 16, kk = kl % 16, tig = kk / 4, half = (kk / 2) % 2;
            uint32_t lane = (i % 8) * 4 + tig, r = i / 8 + 2 * half;

            dst[(j * 32 + lane) * 4 + r] = v;
        }
    }
}

template <int AF, int BF>
__global__ void __launch_bounds__(THREADS, 3)
bs_small_kernel(sm80_params p, small_params s)
{
    constexpr int DEPTH = geom<BF>::DEPTH, AWORDS = BLOCKS * 32 * 4;
    __shared__ __align__(16) uint32_t afrag[2 * AWORDS]; /* 32 KB */
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, tig = lane % 4;
    const uint32_t j0 = blockIdx.x * BN + warp * 8, n = j0 + lane / 4;
    const uint32_t chunks = (p.k + KC - 1) / KC;
    float acc[4];
    bchunk<BF> ring[DEPTH];
    araw ar;

#pragma unroll
    for (int d = 0; d < DEPTH - 1; d++)
        load_b<BF>(p, s, n, tig, d, chunks, ring[d]);
    for (unsigned r = 0; r < 4; r++) {
        uint32_t i = smma_frag_cd_row(lane, r), j = j0 + smma_frag_cd_col(lane, r);

        acc[r] = i < p.m && j < p.n ? epi_c(p, i, j) : 0.0f;
    }
    load_a<AF>(p, s, 0, ar);
    for (unsigned w = threadIdx.x; w < 2 * AWORDS; w += THREADS)
        afrag[w] = 0;
    __syncthreads();
    store_a<AF>(p, s, 0, ar, afrag);
    __syncthreads();

    /* Chunk c: B's chunk c + DEPTH - 1 and A's chunk c + 1 are loaded, chunk
     * c is multiplied, A's chunk c + 1 is converted into the other buffer,
     * and one barrier.  The ring of B chunks is indexed at compile time:
     * the loop is unrolled DEPTH times. */
    for (uint32_t c0 = 0; c0 < chunks; c0 += DEPTH) {
#pragma unroll
        for (int d = 0; d < DEPTH; d++) {
            const uint32_t c = c0 + d;

            if (c >= chunks)
                break;
            load_b<BF>(p, s, n, tig, c + DEPTH - 1, chunks, ring[(d + DEPTH - 1) % DEPTH]);
            if (c + 1 < chunks)
                load_a<AF>(p, s, c + 1, ar);
            chunk_mma<BF>(acc, ring[d], (const uint4 *) (afrag + (c % 2) * AWORDS),
                                  lane, s.sfmt);
            if (c + 1 < chunks)
                store_a<AF>(p, s, c + 1, ar, afrag + ((c + 1) % 2) * AWORDS);
            __syncthreads();
        }
    }
    for (unsigned r = 0; r < 4; r += 2) {
        uint32_t i = smma_frag_cd_row(lane, r), j = j0 + smma_frag_cd_col(lane, r);

        if (i < p.m && j < p.n)
            epi_store(p, i, j, acc[r], acc[r + 1], j + 1 < p.n);
    }
}

template <int AF, int BF>
int
small_run(const sm80_params &p, const small_params &s, cudaStream_t st, char *msg,
          size_t msg_len)
{
    bs_small_kernel<AF, BF><<<(p.n + BN - 1) / BN, THREADS, 0, st>>>(p, s);
    return sm80_launched("sm80-bs-small", msg, msg_len);
}

} /* namespace */

int
smma_sm80_bs_small_launch(const smma_gpu_gemm_args *x, char *msg, size_t msg_len)
{
    sm80_params p = sm80_params_of(x);
    const smma_gemm_shape *sh = &x->shape;
    cudaStream_t st = (cudaStream_t) x->stream;
    unsigned vec = (unsigned) sh->vec;
    small_params s;

    s.sa = (const uint8_t *) x->sa;
    s.sb = (const uint8_t *) x->sb;
    s.kb = (uint32_t) ((sh->k + vec - 1) / vec);
    s.kb_pad = (s.kb + 3) / 4 * 4;
    s.layout = x->scale_layout == SMMA_SL_128X4;
    s.sfmt = sh->scale_fmt == SMMA_UE4M3 ? CV_UE4M3 : CV_E8M0;
    s.sword = ((uintptr_t) x->sb % 4) == 0 && (s.layout || s.kb % 4 == 0);
    s.vec16 = vec == 16;
    s.vshift = vec == 16 ? 4 : 5;
    s.b_row = sh->b_fmt == SMMA_E2M1 ? p.ldb / 2 : p.ldb;
    s.b_kbytes = sh->b_fmt == SMMA_E2M1 ? p.k / 2 : p.k;
    if (vec != 16 && vec != 32)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-small: vec = %u must "
                            "be 16 or 32", vec);
    switch (sh->a_fmt * 16 + sh->b_fmt) {
    case SMMA_E4M3 * 16 + SMMA_E4M3: return small_run<CV_E4M3, CV_E4M3>(p, s, st, msg, msg_len);
    case SMMA_E4M3 * 16 + SMMA_E5M2: return small_run<CV_E4M3, CV_E5M2>(p, s, st, msg, msg_len);
    case SMMA_E5M2 * 16 + SMMA_E4M3: return small_run<CV_E5M2, CV_E4M3>(p, s, st, msg, msg_len);
    case SMMA_E5M2 * 16 + SMMA_E5M2: return small_run<CV_E5M2, CV_E5M2>(p, s, st, msg, msg_len);
    case SMMA_E2M3 * 16 + SMMA_E2M3: return small_run<CV_E2M3, CV_E2M3>(p, s, st, msg, msg_len);
    case SMMA_E3M2 * 16 + SMMA_E3M2: return small_run<CV_E3M2, CV_E3M2>(p, s, st, msg, msg_len);
    case SMMA_E2M1 * 16 + SMMA_E2M1: return small_run<CV_E2M1, CV_E2M1>(p, s, st, msg, msg_len);
    case SMMA_E4M3 * 16 + SMMA_E2M1: return small_run<CV_E4M3, CV_E2M1>(p, s, st, msg, msg_len);
    case SMMA_BF16 * 16 + SMMA_E2M1: return small_run<CV_BF16, CV_E2M1>(p, s, st, msg, msg_len);
    case SMMA_BF16 * 16 + SMMA_E4M3: return small_run<CV_BF16, CV_E4M3>(p, s, st, msg, msg_len);
    default:
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-small: %s x %s is "
                            "not built", smma_format_name(sh->a_fmt), smma_format_name(sh->b_fmt));
    }
}
