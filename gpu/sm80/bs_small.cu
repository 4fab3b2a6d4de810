/*
 * gpu/sm80/bs_small.cu - the block-scaled GEMM for small M (M <= 16): the
 * decode-time product of a few activation rows with quantized weights,
 * limited by the bandwidth with which the weights (B) stream from memory.
 *
 * Computes the same D = alpha * (C + sum_k (A SA)(B SB)) as bs_large.cu,
 * bit for bit, with the model bf16-upcast-<gpu>: each element times its
 * scale rounded once to bf16, one fp32 accumulator chain per element of D
 * through mma.sync.m16n8k16 in k order.  No split-K: one warp owns eight
 * columns of D and walks all of K for them.
 *
 * The file holds four versions.  Version 1 (below) gives each warp its
 * columns' whole chain: load, shuffle, convert, mma.  Version 4 (further
 * down) puts B's rows on the mma's m16 side (D^T = B^T A^T) and lets
 * separate converter threads load and convert A and B for mma warps that
 * keep to their chains; version 5 (H = 2) is version 4 with half as many
 * converter threads, each converting twice the elements.  Version 6 (at
 * the end) has the mma warps convert e2m1 B themselves, in registers,
 * through a table of bf16 pairs in shared memory.  Versions 2 (converter
 * warps with B's columns on the n8 side) and 3 (version 6's orientation
 * with the ALU's conversion) have been removed; the numbers of the others
 * stay.  smma_gpu_bs_small_choose picks one; the launcher below runs it.
 *
 * Version 1: how it streams B, and why:
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
#include <stdlib.h>
#include <string.h>

#include "convert.cuh"
#include "common.cuh"
#include "sm80.h"
#include "tile.cuh"

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
    uint32_t a_row, a_kbytes; /* the same of A */
    int split;             /* 4 or 5: that version takes the problem, else 1 (small_run) */
};

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
        size_t at = smma_sm80_scale_off(s.layout, n, kb0, s.kb, s.kb_pad);

        return __ldg((const uint32_t *) (sc + at));
    }
#pragma unroll
    for (int e = 0; e < 4; e++) {
        uint32_t kbi = kb0 + e, b = cv_scale_one(s.sfmt);

        if (kbi < s.kb)
            b = sc[smma_sm80_scale_off(s.layout, n, kbi, s.kb, s.kb_pad)];
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
            b0 = sc[smma_sm80_scale_off(s.layout, n, kb0, s.kb, s.kb_pad)];
        if (kb0 + 1 < s.kb)
            b1 = sc[smma_sm80_scale_off(s.layout, n, kb0 + 1, s.kb, s.kb_pad)];
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

            cv_codes4<BF>(BF == CV_E2M1 ? w[jj / 2] >> (16 * (jj % 2)) : w[jj], f);
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
                size_t sat = smma_sm80_scale_off(s.layout, i, kbi, s.kb, s.kb_pad);

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

/* ---- versions 4 and 5: converter threads and mma warps --------------------
 *
 * Version 1 gives each warp its eight columns' whole chain: load, shuffle,
 * convert, mma.  Without split-K a column group is one warp's, so N = 8192
 * gives under 8 warps per SM, and each warp's chain of dependent
 * instructions, not the memory, sets the speed (bench/sm80-kernels.md).
 * Here a CTA owns 32 rows of B (columns of D): 2 mma warps run the chains
 * and do nothing else, and converter threads (8 warps in version 4, 4 in
 * version 5) load and convert A and B for them, so that no conversion sits
 * on an mma warp's chain.  The mma warps multiply D^T = B^T A^T as version
 * 3 does: an mma warp owns 16 rows of B, the mma's m16 side, and A's rows
 * are the n8 side (one n8 tile for M <= 8, two for M <= 16), so that an
 * mma reads 512 bytes of B and 256 of A for 256 elements of B
 * (sim/softmma/sm80.h section 7):
 *   - A and B stream into a ring of STAGES (4; 3 for bf16 A, whose rows are
 *     twice as long) raw chunks of 256 k in shared memory by cp.async,
 *     STAGES - 2 chunks ahead, so that the bytes in flight cost no
 *     registers.  A converter thread copies the same 16-k block of rows r
 *     and r + 8 of B (16 bytes each, 8 for e2m1, whose pieces are one block
 *     so that every thread holds two rows; smma_sm80_s4_piece) and 16-byte
 *     pieces of A, a row after the other (smma_sm80_small_apiece), with the
 *     4-byte words of scales they need, a word copied once for the pieces
 *     that share it (spiece::slead).  Each thread converts exactly the
 *     pieces it copied, so a raw chunk needs no barrier, only
 *     cp.async.wait_group and a __syncwarp for the scale words; every
 *     address is computed once, before the loop.  102 KB of shared memory
 *     (93 KB in version 5 with e2m1 A: sgeom::SMEM), two CTAs an SM; a
 *     device with less per block runs version 1 (small_run).
 *   - A converter thread converts its block of rows r and r + 8 and stores,
 *     for each of the four lanes of row r % 8, the lane's four registers
 *     a0 .. a3 with one 16-byte store (smma_sm80_s4_bfrag_off: the mma
 *     warp's load of a block goes straight into the mma's registers; a
 *     first layout that needed the registers permuted cost 64 moves a
 *     chunk).  Lane (g, t) holds k 4 t .. 4 t + 3 of each 16-k block, the k
 *     order of version 1, for A and B alike.  A's pieces become n8
 *     fragments (smma_sm80_s4_afrag_off).  Both layouts keep the
 *     converters' 16-byte stores and the mma warps' loads free of bank
 *     conflicts (tests/sim/sm80-plan-t.c).
 *   - Chunk c: the mma warps multiply chunk c from converted buffer c % 2,
 *     while the converter threads issue the copies of chunk c + STAGES - 1
 *     and convert their pieces of chunk c + 1 into the other buffer.  The
 *     two roles run separate loops and hand the buffers over through
 *     mbarriers (full: converted, empty: read), so that the mma warps'
 *     loop holds none of the converters' state: per block a 16-byte load
 *     of B, an 8-byte load of A for each n8 tile and the mma, every address
 *     a register plus an immediate (s4_mma).
 *   - Measured on the H100 (bench/sm80-kernels.md) with the first version
 *     of this design: with the conversion on the mma warps too (8 warps,
 *     all converting) the kernel waited at the barrier for the mma warps a
 *     third of the time; moving it off them and adding converter warps
 *     took mxfp8 at M = 1 from 45-50% to 52-60% of the copy bandwidth, and
 *     the layout of A, the e2m1 conversion and a lean mma loop to 56-71%
 *     (M = 16: 28-32% to 44-52%); it was faster than version 1 in 86 of
 *     the 90 benchmark cases.
 *   - The copies are predicated, without a branch, and a scale word takes
 *     one slot of the stage for all the pieces that share it (1.5 KB a
 *     stage, not 3): 0.99-1.22x (median 1.10) on the H100 over the first
 *     version 4 (bench/sm80-kernels.md, ninth round).
 * That first version (version 2) had B's columns on the mma's n8 side and
 * A's 16 rows on the m16 side: per mma its warps read A's four registers
 * and B's two, 768 bytes of shared memory for 128 elements of B, and
 * Nsight Compute found them, not the converters, setting the pace, their
 * mma waiting for fragments that queued behind the converters'
 * shared-memory traffic.  It was removed: on no benchmark pair and shape,
 * on the H100 or the H200, was it 10% faster than every other version
 * (bench/sm80-kernels.md).
 *
 * Version 5 (H = 2) has half as many converter threads (4 warps), each
 * converting pieces 2 i and 2 i + 1 of blocks b and b + 8 of its two rows
 * (64 elements a chunk, smma_sm80_s4_piece): the work of a chunk that does
 * not grow with its elements (the copies' and stores' addresses, the
 * waits, the scale words) is spread over twice the elements: about 390
 * instructions a thread and chunk for 64 elements of MXFP8 where version 4
 * spends about 260 on 32 (Nsight Compute).  Everything else, the layouts
 * included, is version 4's.  On the H100, against version 4: 1.03-1.21x
 * for e2m1 B with quantized A, a median 1.02-1.06x for 6- and 8-bit B with
 * quantized A at N = 8192, but 0.88-0.99x where the CTAs take more than
 * one wave (N = 28672): at the end of the last wave a lone CTA an SM has 4
 * converter warps where version 4's has 8 (smma_gpu_bs_small_choose).
 *
 * The arithmetic is version 1's: each element rounded to bf16 with its
 * scale, one mma per 16 k in k order into one accumulator, so the results
 * are equal bit for bit (tests/gpu/gemm-bs-t, SMMA_SM80_BS_SMALL=
 * split-transposed and =split-transposed-wide); A is -0 past K and B +0.
 * Needs the scales readable a word at a time (the 128x4 layout, or linear
 * with a multiple of 4 blocks a row and 4-byte aligned pointers);
 * otherwise the launcher runs version 1 (smma_gpu_bs_small_choose). */

constexpr int KC2 = 256; /* k per chunk of versions 4 and 5 */

template <int F>
struct fbytes { /* bytes of a row of a chunk of KC k in format F */
    static constexpr int V = (F == CV_BF16 ? 2 * KC2 : F == CV_E2M1 ? KC2 / 2 : KC2);
};

/* The geometry of version 4 (H = 1) and version 5 (H = 2) for A x B. */
template <int AF, int BF, int H>
struct sgeom {
    static constexpr int BN = 32, MMA_WARPS = BN / 16;
    /* H: blocks of B a converter thread converts, 2 in version 5 */
    static_assert(H == 1 || H == 2, "H is 1 (version 4) or 2 (version 5)");
    static constexpr int CONV = 256 / H;                        /* the converter threads */
    static constexpr int WARPS = MMA_WARPS + CONV / 32, THREADS = 32 * WARPS;
    static constexpr int KC = KC2, BLOCKS = KC / 16;
    static constexpr int CB = fbytes<BF>::V, CA = fbytes<AF>::V; /* bytes of a row a chunk */
    static constexpr int BP = 2 * H;                            /* B pieces a thread */
    /* bytes of a piece of B: 16, or one block of e2m1 */
    static constexpr int BPS = BF == CV_E2M1 ? 8 : 16;
    static constexpr int AP_ALL = 16 * CA / 16;                 /* A pieces of 16 rows */
    static constexpr int AP = (AP_ALL + CONV - 1) / CONV;       /* A pieces a thread */
    static constexpr int PIECES = BP + AP;
    static constexpr int STAGES = AF == CV_BF16 ? 3 : 4;        /* two CTAs an SM */
    /* A scale word serves SG pieces or more (every word is shared by 2
     * pieces at least, spiece::sslot), one slot each. */
    static constexpr int SG = 2;
    static constexpr int RAW = CONV * PIECES * 16;              /* a raw chunk */
    static constexpr int SCL = CONV * PIECES * 4 / SG;          /* its scale words */
    /* B of a chunk converted, in two buffers (three, with a raw ring of three
     * stages to hold two CTAs an SM, measured 0.89-1.04x of two in version
     * 4: bench/sm80-kernels.md, ninth round) */
    static constexpr int CVT = BN * KC * 2;
    static constexpr int AFR = 2 * BLOCKS * 256; /* A's fragments of a chunk: two n8 tiles */
    static constexpr int OFF_SCL = STAGES * RAW, OFF_CVT = OFF_SCL + STAGES * SCL;
    static constexpr int OFF_AFR = OFF_CVT + 2 * CVT;
    static constexpr int OFF_BAR = OFF_AFR + 2 * AFR; /* mbarriers full[2], empty[2] */
    static constexpr int SMEM = OFF_BAR + 32;
};

/* Where one piece of a thread comes from, computed once: its bytes at
 * chunk c are src + c * cb (valid below lim - c * cb), its scale word
 * scl + c * sstep (valid below kb - c * kstep blocks). */
struct spiece {
    const uint8_t *src, *scl;
    uint32_t lim, slim;  /* bytes of the row from the piece on; scale blocks from its word on */
    uint32_t row;        /* row of B (in the CTA) or of A */
    uint32_t k0;         /* its first k inside a chunk */
    uint32_t sslot;      /* the slot of the scale word it reads (and copies, if slead) */
    bool live;           /* inside N (B) or M (A): copied and converted */
    bool slead;          /* it copies that word (it leads the pieces sharing sslot) */
};

/* The pieces of this thread: B's (it < BP) and A's. */
template <int AF, int BF, int H>
__device__ __forceinline__ void
split_plan(const sm80_params &p, const small_params &s, spiece (&pc)[sgeom<AF, BF, H>::PIECES],
           uint32_t &sstep)
{
    using G = sgeom<AF, BF, H>;
    const uint32_t kstep = G::KC >> s.vshift;

    sstep = s.layout ? kstep / 4 * 512 : kstep;
#pragma unroll
    for (int it = 0; it < G::PIECES; it++) {
        const bool isb = it < G::BP;
        const int f = isb ? BF : AF, rb = isb ? G::CB : G::CA;
        const uint32_t ct = threadIdx.x - 32 * G::MMA_WARPS; /* converter thread */
        const uint32_t idx = isb ? 0 : (it - G::BP) * G::CONV + ct; /* A's piece */
        unsigned row, byte;
        uint32_t gr, kb0, live;

        if (isb) {
            smma_sm80_s4_piece(it, ct, H, &row, &byte);
            byte *= G::BPS;
        } else
            smma_sm80_small_apiece(idx, G::CA / 16, &row, &byte);
        gr = isb ? blockIdx.x * G::BN + row : row;
        live = isb ? gr < p.n : idx < G::AP_ALL && gr < p.m;
        pc[it].row = row;
        pc[it].live = live;
        pc[it].k0 = byte * G::KC / rb;
        kb0 = (pc[it].k0 >> s.vshift) & ~3u;
        {
            /* Runs of consecutive slots hold consecutive pieces of a row
             * (16 / H blocks of B's row, a row of A); in each, the first of
             * the pieces that share a scale word copies it for all, which
             * read it after a __syncwarp (they are one warp's): one 4-byte
             * copy a word instead of one a piece.  Nsight Compute had found
             * the 4-byte copies of every piece at 16 shared-memory
             * wavefronts an instruction, a third of the kernel's
             * (bench/sm80-kernels.md, eighth round). */
            const uint32_t psz = isb ? G::BPS : 16, run = isb ? 16u / H : G::CA / 16;
            const uint32_t wb = (f == CV_E2M1 ? 2u : 4u) << s.vshift; /* bytes of a word */
            const uint32_t grp = min(run, wb / psz), slot = it * G::CONV + ct;

            pc[it].sslot = (slot - slot % grp) / G::SG; /* grp >= SG: vec 16 or 32 */
            pc[it].slead = slot % grp == 0;
        }
        {
            const uint8_t *base = isb ? (const uint8_t *) p.b : (const uint8_t *) p.a;
            const uint32_t ld = isb ? s.b_row : s.a_row, kbytes = isb ? s.b_kbytes : s.a_kbytes;
            const uint8_t *sc = isb ? s.sb : s.sa;

            /* A piece outside the matrix is never copied; bf16 A has no
             * scales. */
            pc[it].src = live ? base + (size_t) gr * ld + byte : base;
            pc[it].lim = live && kbytes > byte ? kbytes - byte : 0;
            pc[it].scl = f == CV_BF16 ? s.sb
                         : !live ? sc
                         : sc + smma_sm80_scale_off(s.layout, gr, kb0, s.kb, s.kb_pad);
            pc[it].slim = f != CV_BF16 && live && s.kb > kb0 ? s.kb - kb0 : 0;
        }
    }
}

/* Issues this thread's copies of chunk c into stage st; `inside`: the
 * chunk lies inside K (every piece whole, every scale word too), the
 * common case, with nothing to compute but the addresses. */
template <int AF, int BF, int H>
__device__ __forceinline__ void
split_issue(const spiece (&pc)[sgeom<AF, BF, H>::PIECES], uint32_t sstep, uint32_t kstep,
            uint32_t smem, uint32_t st, uint32_t c, bool inside)
{
    using G = sgeom<AF, BF, H>;

    if (inside) {
        /* Predicated copies, no branch: a piece outside N or M points at
         * the matrix and is not copied, nor is the scale word of a piece
         * that does not lead its group (spiece::slead). */
#pragma unroll
        for (int it = 0; it < G::PIECES; it++) {
            const int rb = it < G::BP ? G::CB : G::CA;
            const uint32_t slot = it * G::CONV + threadIdx.x - 32 * G::MMA_WARPS;
            const uint32_t dst = smem + st * G::RAW + slot * 16;

            if (it < G::BP && G::BPS == 8)
                cp_async8_stream_if(dst, pc[it].src + c * rb, pc[it].live);
            else
                cp_async16_stream_if(dst, pc[it].src + c * rb, pc[it].live);
            if ((it < G::BP ? BF : AF) != CV_BF16)
                cp_async4_if(smem + G::OFF_SCL + st * G::SCL + pc[it].sslot * 4,
                             pc[it].scl + (size_t) c * sstep, pc[it].live && pc[it].slead);
        }
        return;
    }
#pragma unroll
    for (int it = 0; it < G::PIECES; it++) {
        const int rb = it < G::BP ? G::CB : G::CA;
        const uint32_t off = c * rb, koff = c * kstep;
        const uint32_t slot = it * G::CONV + threadIdx.x - 32 * G::MMA_WARPS;
        uint32_t bytes, sbytes;

        if (!pc[it].live)
            continue;

        const uint32_t psz = it < G::BP ? G::BPS : 16;

        bytes = pc[it].lim > off ? min(psz, pc[it].lim - off) : 0;
        sbytes = pc[it].slim > koff ? min(4u, pc[it].slim - koff) : 0;
        if (psz == 8)
            cp_async8_stream(smem + st * G::RAW + slot * 16, pc[it].src + (bytes ? off : 0), bytes);
        else
            cp_async16_stream(smem + st * G::RAW + slot * 16, pc[it].src + (bytes ? off : 0),
                              bytes);
        if ((it < G::BP ? BF : AF) != CV_BF16 && pc[it].slead)
            cp_async4(smem + G::OFF_SCL + st * G::SCL + pc[it].sslot * 4,
                      pc[it].scl + (sbytes ? (size_t) c * sstep : 0), sbytes);
    }
}

/* The bf16 pairs of a piece of A in format F (k order), with the scale word sw
 * (byte (k0 + 16 b) >> vshift & 3 for block b of the piece): the
 * conversion of sm80-bs-large (cv_convert16), which for e2m1 builds bf16
 * pairs and multiplies them in bf16, about half the instructions of the
 * way through fp32. */
template <int F, int SF>
__device__ __forceinline__ void
piece_pairs(const uint32_t (&x)[4], uint32_t sw, uint32_t k0, uint32_t vshift,
            uint32_t (&out)[F == CV_E2M1 ? 16 : F == CV_BF16 ? 4 : 8])
{
    constexpr int PB = F == CV_E2M1 ? 2 : 1; /* blocks to convert */

    if constexpr (F == CV_BF16) {
#pragma unroll
        for (int q = 0; q < 4; q++)
            out[q] = x[q];
    } else {
#pragma unroll
        for (int b = 0; b < PB; b++)
            cv_convert16<F, false>(x + 2 * b, SF,
                                   (sw >> (8 * (((k0 + 16 * b) >> vshift) & 3u))) & 0xffu,
                                   out + 8 * b);
    }
}

/* Converts this thread's pieces of chunk c (landed in stage st) into the
 * converted B buffer cvt (smma_sm80_s4_bfrag_off) and A's fragments afr
 * (smma_sm80_s4_afrag_off), shared addresses. */
template <int AF, int BF, int SF, int H>
__device__ __forceinline__ void
split_convert(const sm80_params &p, const small_params &s,
              const spiece (&pc)[sgeom<AF, BF, H>::PIECES], uint32_t smem, uint32_t st,
              uint32_t c, uint32_t cvt, uint32_t afr)
{
    using G = sgeom<AF, BF, H>;

    uint32_t raw[G::PIECES][4], sws[G::PIECES];

    __syncwarp(); /* the scale words other lanes copied (spiece::sslot) */
    /* Every piece's bytes first, so that their latencies overlap. */
#pragma unroll
    for (int it = 0; it < G::PIECES; it++) {
        const uint32_t slot = it * G::CONV + threadIdx.x - 32 * G::MMA_WARPS;

        if (it >= G::BP && !pc[it].live)
            continue;
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(raw[it][0]), "=r"(raw[it][1]), "=r"(raw[it][2]), "=r"(raw[it][3])
                     : "r"(smem + st * G::RAW + slot * 16));
        asm volatile("ld.shared.u32 %0, [%1];\n"
                     : "=r"(sws[it]) : "r"(smem + G::OFF_SCL + st * G::SCL + pc[it].sslot * 4));
    }
    /* B: the thread's pieces 2 b and 2 b + 1 are one block of rows r and r
     * + 8; their pairs 2 u, 2 u + 1 (k 4 u .. 4 u + 3) are the registers a0
     * .. a3 of lane (r % 8) 4 + u, one 16-byte store
     * (smma_sm80_s4_bfrag_off). */
#pragma unroll
    for (int b = 0; b < G::BP / 2; b++) {
        uint32_t e[2][8];
        const uint32_t row = pc[2 * b].row, j = pc[2 * b].k0 / 16;
        const uint32_t sh = 8 * ((pc[2 * b].k0 >> s.vshift) & 3u);

#pragma unroll
        for (int it = 0; it < 2; it++)
            cv_convert16<BF, false>(raw[2 * b + it], SF, (sws[2 * b + it] >> sh) & 0xffu, e[it]);
#pragma unroll
        for (int u = 0; u < 4; u++) {
            const uint32_t at = cvt + smma_sm80_s4_bfrag_off(row / 16, j, G::BLOCKS,
                                                             (row % 8) * 4 + u);

            asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(at),
                         "r"(e[0][2 * u]), "r"(e[1][2 * u]), "r"(e[0][2 * u + 1]),
                         "r"(e[1][2 * u + 1]));
        }
    }
    /* A: four pairs (8 k) are the b0, b1 of two lanes of n8 tile i / 8
     * (smma_sm80_s4_afrag_off). */
#pragma unroll
    for (int it = G::BP; it < G::PIECES; it++) {
        constexpr int NP = AF == CV_E2M1 ? 16 : AF == CV_BF16 ? 4 : 8; /* pairs */
        uint32_t e[NP];
        const uint32_t i = pc[it].row, kc = c * G::KC + pc[it].k0;

        if (!pc[it].live)
            continue; /* no such piece of A, or a row past M: zeros */
        piece_pairs<AF, SF>(raw[it], sws[it], pc[it].k0, s.vshift, e);
        if (kc + 2 * NP > p.k) /* past K: -0 */
#pragma unroll
            for (int q = 0; q < NP; q++)
                e[q] = kc + 2 * q < p.k ? e[q] : 0x80008000u;
#pragma unroll
        for (int q = 0; q < NP / 4; q++) {
            const uint32_t k = pc[it].k0 + 8 * q, j = k / 16, h = (k % 16) / 8;
            const uint32_t at = afr + smma_sm80_s4_afrag_off(i / 8, j, G::BLOCKS,
                                                             (i % 8) * 4 + 2 * h);

            asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(at),
                         "r"(e[4 * q]), "r"(e[4 * q + 1]), "r"(e[4 * q + 2]), "r"(e[4 * q + 3]));
        }
    }
}

/* The mma chain of one chunk for 16-row tile w: per block one
 * 16-byte load of B's four registers, an 8-byte load of A's two for each
 * of the MT n8 tiles, and MT mma, straight from the loads' registers.
 * bo[f]: the lane's offset of block f < 8 (block j's is block j % 8's plus
 * 512 (j - j % 8)); ao[f]: A's of block f < 8 (block j's is that of the
 * first block with its XOR plus 256 times the difference,
 * smma_sm80_s4_axor). */
template <int MT>
__device__ __forceinline__ void
s4_mma(float (&acc)[2][4], uint32_t cvt, uint32_t afr, const uint32_t (&bo)[8],
       const uint32_t (&ao)[8])
{
    constexpr int BLOCKS = KC2 / 16, AHEAD = 4; /* blocks whose fragments are loaded ahead */
    uint32_t bv[AHEAD][4], av[AHEAD][MT][2];

#pragma unroll
    for (int j = 0; j < BLOCKS + AHEAD; j++) {
        if (j >= AHEAD)
#pragma unroll
            for (int nt = 0; nt < MT; nt++)
                mma16816<false>(acc[nt], bv[(j - AHEAD) % AHEAD], av[(j - AHEAD) % AHEAD][nt]);
        if (j < BLOCKS) {
            const int fa = j < 8 ? j : (j - 8) ^ 1; /* the block < 8 with j's XOR */

            asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                         : "=r"(bv[j % AHEAD][0]), "=r"(bv[j % AHEAD][1]),
                           "=r"(bv[j % AHEAD][2]), "=r"(bv[j % AHEAD][3])
                         : "r"(cvt + bo[j % 8] + 512u * (j - j % 8)));
#pragma unroll
            for (int nt = 0; nt < MT; nt++)
                asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];\n"
                             : "=r"(av[j % AHEAD][nt][0]), "=r"(av[j % AHEAD][nt][1])
                             : "r"(afr + ao[fa] + 256u * (nt * BLOCKS + j - fa)));
        }
    }
}

/* Mma warp w: rows 16 w .. 16 w + 15 of the CTA's B, D^T =
 * B^T A^T; MT n8 tiles of A (M <= 8 or <= 16). */
template <int MT, int CVT, int AFR>
__device__ __forceinline__ void
s4_role(const sm80_params &p, uint32_t cvt0, uint32_t afr0, uint32_t full0, uint32_t empty0,
        uint32_t chunks, unsigned w, unsigned lane)
{
    constexpr int BLOCKS = KC2 / 16;
    const uint32_t n0 = blockIdx.x * 32 + 16 * w;
    uint32_t bo[8], ao[8];
    float acc[2][4];

#pragma unroll
    for (int f = 0; f < 8; f++) {
        bo[f] = smma_sm80_s4_bfrag_off(w, f, BLOCKS, lane);
        ao[f] = smma_sm80_s4_afrag_off(0, f, BLOCKS, lane);
    }
    tacc_init<MT>(p, acc, n0, lane);
    for (uint32_t c = 0; c < chunks; c++) {
        const uint32_t buf = c % 2;

        mbar_wait(full0 + 8 * buf, (c / 2) & 1u);
        s4_mma<MT>(acc, cvt0 + buf * CVT, afr0 + buf * AFR, bo, ao);
        mbar_arrive(empty0 + 8 * buf);
    }
    tacc_store<MT>(p, acc, n0, lane);
}

template <int AF, int BF, int SF, int H>
__global__ void __launch_bounds__(sgeom<AF, BF, H>::THREADS, 2)
bs_split_kernel(sm80_params p, small_params s)
{
    using G = sgeom<AF, BF, H>;
    extern __shared__ __align__(128) uint8_t smem_raw[];
    const uint32_t smem = smem_u32(smem_raw);
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const uint32_t chunks = (p.k + G::KC - 1) / G::KC;
    const uint32_t full0 = smem + G::OFF_BAR, empty0 = full0 + 16;

    if (threadIdx.x < 4) /* full[b]: every converter thread; empty[b]: every mma thread */
        mbar_init(full0 + 8 * threadIdx.x, threadIdx.x < 2 ? G::CONV : 32 * G::MMA_WARPS);
    for (unsigned w = threadIdx.x; w < 2 * G::AFR / 4; w += G::THREADS)
        ((uint32_t *) (smem_raw + G::OFF_AFR))[w] = 0;
    __syncthreads();
    /* The two roles run separate loops and hand the converted buffers over
     * through mbarriers: full[c % 2] once the converters have written chunk
     * c into buffer c % 2, empty[c % 2] once the mma warps have read it.  So
     * that the converters' state is not live in the mma warps' loop. */
    if (warp < G::MMA_WARPS) {
        if (p.m > 8)
            s4_role<2, G::CVT, G::AFR>(p, smem + G::OFF_CVT, smem + G::OFF_AFR, full0, empty0,
                                       chunks, warp, lane);
        else
            s4_role<1, G::CVT, G::AFR>(p, smem + G::OFF_CVT, smem + G::OFF_AFR, full0, empty0,
                                       chunks, warp, lane);
    } else {
        const uint32_t kstep = G::KC >> s.vshift;
        spiece pc[G::PIECES];
        uint32_t sstep, ist = G::STAGES - 1, cst = 1; /* the stages issued into and
                                                       * converted from next */

        split_plan<AF, BF, H>(p, s, pc, sstep);
#pragma unroll
        for (int d = 0; d < G::STAGES - 1; d++) {
            if (d < chunks)
                split_issue<AF, BF, H>(pc, sstep, kstep, smem, d, d, (d + 1) * G::KC <= p.k);
            cp_async_commit();
        }
        cp_async_wait<G::STAGES - 2>();
        split_convert<AF, BF, SF, H>(p, s, pc, smem, 0, 0, smem + G::OFF_CVT,
                                     smem + G::OFF_AFR);
        mbar_arrive(full0);
        /* Chunk c: the mma warps multiply it while these issue the copies
         * of chunk c + STAGES - 1 and convert chunk c + 1 into the buffer
         * chunk c - 1 held, once the mma warps have read it. */
        for (uint32_t c = 0; c + 1 < chunks; c++) {
            const uint32_t nbuf = (c + 1) % 2;

            if (G::STAGES == 3)
                __syncwarp(); /* the scale words of the stage copied into next were read */
            if (c + G::STAGES - 1 < chunks)
                split_issue<AF, BF, H>(pc, sstep, kstep, smem, ist, c + G::STAGES - 1,
                                       (c + G::STAGES) * G::KC <= p.k);
            cp_async_commit();
            cp_async_wait<G::STAGES - 2>();
            if (c >= 1)
                mbar_wait(empty0 + 8 * nbuf, ((c - 1) / 2) & 1u);
            split_convert<AF, BF, SF, H>(p, s, pc, smem, cst, c + 1,
                                         smem + G::OFF_CVT + nbuf * G::CVT,
                                         smem + G::OFF_AFR + nbuf * G::AFR);
            mbar_arrive(full0 + 8 * nbuf);
            ist = ist + 1 == G::STAGES ? 0 : ist + 1;
            cst = cst + 1 == G::STAGES ? 0 : cst + 1;
        }
        cp_async_wait<0>();
    }
}

template <int AF, int BF, int SF, int H>
int
split_run(const sm80_params &p, const small_params &s, cudaStream_t st, char *msg,
          size_t msg_len)
{
    using G = sgeom<AF, BF, H>;
    int rc = sm80tile::raise_smem<bs_split_kernel<AF, BF, SF, H>>(G::SMEM, "sm80-bs-small", msg,
                                                                   msg_len);

    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    bs_split_kernel<AF, BF, SF, H>
        <<<(p.n + G::BN - 1) / G::BN, G::THREADS, G::SMEM, st>>>(p, s);
    return sm80_launched("sm80-bs-small", msg, msg_len);
}

/* Whether the device holds version 4's (H = 1) or 5's (H = 2) shared
 * memory for A x B. */
template <int AF, int BF, int H>
bool
split_fits(void)
{
    return sm80tile::device_holds_smem(sgeom<AF, BF, H>::SMEM);
}

/* Version 4 or 5 with the scale format of the problem: built with e8m0
 * scales, and with ue4m3 scales for e2m1 B (NVFP4) only (small_run asks
 * for no other). */
template <int AF, int BF, int H>
int
split_scales(const sm80_params &p, const small_params &s, cudaStream_t st, char *msg,
             size_t msg_len)
{
    if (s.sfmt == CV_E8M0)
        return split_run<AF, BF, CV_E8M0, H>(p, s, st, msg, msg_len);
    return split_run<AF, BF, BF == CV_E2M1 ? CV_UE4M3 : CV_E8M0, H>(p, s, st, msg, msg_len);
}

/* The version smma_gpu_bs_small_choose chose (s.split: 5 or 4) where the
 * device holds its shared memory, else version 4 where it holds that,
 * else version 1; version 1 too for s.split 0 and for a scale format
 * versions 4 and 5 are not built with. */
template <int AF, int BF>
int
small_run(const sm80_params &p, const small_params &s, cudaStream_t st, char *msg,
          size_t msg_len)
{
    const bool built = s.sfmt == CV_E8M0 || BF == CV_E2M1;

    if (built && s.split == 5 && split_fits<AF, BF, 2>())
        return split_scales<AF, BF, 2>(p, s, st, msg, msg_len);
    if (built && s.split >= 4 && split_fits<AF, BF, 1>())
        return split_scales<AF, BF, 1>(p, s, st, msg, msg_len);
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
    s.a_row = sh->a_fmt == SMMA_E2M1 ? p.lda / 2 : sh->a_fmt == SMMA_BF16 ? 2 * p.lda : p.lda;
    s.a_kbytes = sh->a_fmt == SMMA_E2M1 ? p.k / 2 : sh->a_fmt == SMMA_BF16 ? 2 * p.k : p.k;
    {
        /* Version 6 (at the end of this file), 5, 4 or 1
         * (gpu/gemm_check_bs.c; SMMA_SM80_BS_SMALL=transposed-lut,
         * =split-transposed-wide, =split-transposed and =regs ask for each,
         * for bench/gemm-bench and the tests). */
        int version, rc = smma_gpu_bs_small_choose(getenv("SMMA_SM80_BS_SMALL"), x, &version,
                                                   msg, msg_len);

        if (rc != SMMA_GPU_STATUS_OK)
            return rc;
        if (version == 6) {
            int ran = 0;

            rc = smma_sm80_bs_small6_launch(x, &ran, msg, msg_len);
            if (rc != SMMA_GPU_STATUS_OK || ran)
                return rc;
            /* the device lacks version 6's shared memory: 5 or 4, as chosen
             * where version 6 is not */
            version = smma_gpu_bs_small_split(sh);
        }
        s.split = version == 4 || version == 5 ? version : 0;
    }
    if (vec != 16 && vec != 32)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-small: vec = %u must "
                            "be 16 or 32", vec);
    return cv_fast_pair(
        sh->a_fmt, sh->b_fmt, "sm80-bs-small",
        [&](auto af, auto bf) {
            return small_run<decltype(af)::value, decltype(bf)::value>(p, s, st, msg, msg_len);
        },
        msg, msg_len);
}

/* ---- versions 3 and 6: B's rows on the mma's m16 side ---------------------------------- */

/*
 * The pieces below (the raw ring of B, its copies, A's pieces and their
 * conversion) began as version 3's: D^T = B^T A^T, a warp owning 16 rows
 * of B (the mma's m16 side) and A's at most 16 rows the n8 side, B copied
 * by cp.async into a ring of raw chunks (256 bytes a row) and converted in
 * the mma warps' registers, A converted once per CTA and chunk into shared
 * memory as bf16 rows (smma_sm80_s3_act_off).  Version 3 itself (e2m1 and
 * 8-bit B read with ldmatrix and converted by the ALU) was removed on
 * 2026-11-28: version 6 (below) was 1.10-1.57x it for e2m1 B on an H200,
 * and for 8-bit B it was never the fastest (bench/sm80-kernels.md).
 */
namespace {

struct s6_params {
    const uint8_t *sa, *sb;
    uint32_t kb, kb_pad;   /* scale blocks along K, and rounded up to 4 */
    int layout;            /* 128x4 layout */
    uint32_t b_row, b_kbytes; /* bytes of a row of B, and of it inside K */
    uint32_t a_row, a_kbytes; /* the same of A */
};

/* Version 6's parameters of checked arguments x. */
static void
s6_params_fill(const smma_gpu_gemm_args *x, const sm80_params &p, s6_params *s)
{
    const smma_gemm_shape *sh = &x->shape;

    s->sa = (const uint8_t *) x->sa;
    s->sb = (const uint8_t *) x->sb;
    s->kb = (uint32_t) ((sh->k + sh->vec - 1) / sh->vec);
    s->kb_pad = (s->kb + 3) / 4 * 4;
    s->layout = x->scale_layout == SMMA_SL_128X4;
    s->b_row = sh->b_fmt == SMMA_E2M1 ? p.ldb / 2 : p.ldb;
    s->b_kbytes = sh->b_fmt == SMMA_E2M1 ? p.k / 2 : p.k;
    s->a_row = sh->a_fmt == SMMA_E2M1 ? p.lda / 2 : sh->a_fmt == SMMA_BF16 ? 2 * p.lda : p.lda;
    s->a_kbytes = sh->a_fmt == SMMA_E2M1 ? p.k / 2 : sh->a_fmt == SMMA_BF16 ? 2 * p.k : p.k;
}

/* The byte of scale block kb of row `row` (1.0 past the last block). */
__device__ __forceinline__ uint32_t
s6_scale_byte(const s6_params &s, const uint8_t *sc, int sfmt, uint32_t row, uint32_t kb)
{
    if (kb >= s.kb)
        return cv_scale_one(sfmt);
    return __ldg(sc + smma_sm80_scale_off(s.layout, row, kb, s.kb, s.kb_pad));
}

/* Where a lane's copies of B and of B's scales come from, computed once.
 * A row past N copies row N - 1 (the rows of D^T it feeds are never
 * written), so that the copies of a chunk need no predicate. */
template <class G>
struct s6_plan {
    const uint8_t *b;          /* row lane / 16, byte 16 (lane % 16) of chunk 0 */
    uint32_t b_step;           /* two rows of B */
    uint32_t b_last;           /* piece i >= b_last copies piece b_last - 1's row */
    const uint8_t *sc[G::SWL]; /* scale word i of chunk 0 */
    uint32_t sc_kb[G::SWL];    /* its first scale block in chunk 0 */
    uint32_t sc_live;          /* bit i: its row lies inside N */
    uint32_t sc_step;          /* bytes from a chunk's scale word to the next's */
};

template <class G>
__device__ __forceinline__ void
s6_plan_make(const sm80_params &p, const s6_params &s, uint32_t n0, unsigned lane,
             s6_plan<G> &q)
{
    const uint32_t r0 = min(n0 + lane / 16, p.n - 1);

    q.b = (const uint8_t *) p.b + (size_t) r0 * s.b_row + 16 * (lane % 16);
    q.b_step = 2 * s.b_row;
    /* pieces i with n0 + 2 i + lane / 16 < n: the first b_last (at least
     * one: a lane whose rows all lie past N copies row N - 1 CP times) */
    q.b_last = min((p.n - 1 - r0) / 2 + 1, (uint32_t) G::CP);
    if (n0 + lane / 16 >= p.n)
        q.b_step = 0;
    q.sc_step = s.layout ? G::KC / G::VEC / 4 * 512 : G::KC / G::VEC;
    q.sc_live = 0;
#pragma unroll
    for (int i = 0; i < G::SWL; i++) {
        const uint32_t idx = 32 * i + lane, r = idx / G::SW, kb0 = 4 * (idx % G::SW);

        q.sc_kb[i] = kb0;
        q.sc[i] = s.sb;
        if (n0 + r < p.n) {
            q.sc_live |= 1u << i;
            q.sc[i] = s.sb + smma_sm80_scale_off(s.layout, n0 + r, kb0, s.kb, s.kb_pad);
        }
    }
}

/* Issues a lane's copies of chunk c of its warp's rows (and their scale
 * words) into ring stage at `ws` and scale stage at `ss`: a chunk inside K
 * without a predicate, the last one with its bytes past K zeros. */
template <class G>
__device__ __forceinline__ void
s6_issue(const s6_plan<G> &q, const s6_params &s, uint32_t c, uint32_t ws, uint32_t ss,
         unsigned lane)
{
    const uint32_t off = c * SMMA_SM80_S3_ROW + 16 * (lane % 16);
    const uint8_t *src = q.b + c * SMMA_SM80_S3_ROW;

    if ((c + 1) * SMMA_SM80_S3_ROW <= s.b_kbytes) {
#pragma unroll
        for (int i = 0; i < G::CP; i++)
            cp_async16_stream_all(ws + smma_sm80_s3_raw_off(2 * i + lane / 16, lane % 16),
                                  src + (size_t) min((uint32_t) i, q.b_last - 1) * q.b_step);
    } else {
        const uint32_t bytes = off < s.b_kbytes ? min(16u, s.b_kbytes - off) : 0;

#pragma unroll
        for (int i = 0; i < G::CP; i++)
            cp_async16_stream(ws + smma_sm80_s3_raw_off(2 * i + lane / 16, lane % 16),
                              (bytes ? src : q.b) + (size_t) min((uint32_t) i, q.b_last - 1) *
                                                        q.b_step,
                              bytes);
    }
#pragma unroll
    for (int i = 0; i < G::SWL; i++) {
        const uint32_t kb0 = q.sc_kb[i] + c * (G::KC / G::VEC);
        const uint32_t sb = kb0 < s.kb ? min(4u, s.kb - kb0) : 0;

        if (!(q.sc_live >> i & 1u))
            continue;
        cp_async4(ss + 4 * (32 * i + lane), sb ? q.sc[i] + (size_t) c * q.sc_step : q.sc[i], sb);
    }
}

/* A's pieces of one chunk as this thread loaded them. */
template <class G>
struct s6_apieces {
    uint4 x[G::AP];
    uint32_t sb[G::AP]; /* scale bytes: the piece's (e2m1 with 16 k a scale: two) */
};

/* The number of this thread's piece i of A: the pieces dealt to the warps
 * in turn, so that for a small M every warp has its share of the
 * conversion (the CTA's barrier waits for the slowest). */
template <class G>
__device__ __forceinline__ uint32_t
s6_apiece(int i)
{
    return G::THREADS * i + threadIdx.x % 32 * G::WARPS + threadIdx.x / 32;
}

/* Loads this thread's pieces of chunk c of A: piece idx (s6_apiece) is
 * bytes 16 (idx % ARP) .. of row idx / ARP's chunk. */
template <int AF, int SF, class G>
__device__ __forceinline__ void
s6_load_a(const sm80_params &p, const s6_params &s, uint32_t c, s6_apieces<G> &a)
{
#pragma unroll
    for (int i = 0; i < G::AP; i++) {
        const uint32_t idx = s6_apiece<G>(i), row = idx / G::ARP;
        const uint32_t byte = idx % G::ARP * 16, k = c * G::KC + byte * G::KC / G::CA;

        a.x[i] = make_uint4(0, 0, 0, 0);
        a.sb[i] = 0;
        if (idx >= G::MR * G::ARP || row >= p.m)
            continue;
        a.x[i] = ld_row16((const uint8_t *) p.a + (size_t) row * s.a_row, c * G::CA + byte,
                          s.a_kbytes);
        if (AF != CV_BF16) {
            a.sb[i] = s6_scale_byte(s, s.sa, SF, row, k / G::VEC);
            if (AF == CV_E2M1 && G::VEC == 16)
                a.sb[i] |= s6_scale_byte(s, s.sa, SF, row, k / G::VEC + 1) << 8;
        }
    }
}

/* Converts the pieces loaded for chunk c into A's buffer at `buf`: bf16
 * pairs in k order, -0 past K. */
template <int AF, int SF, class G>
__device__ __forceinline__ void
s6_convert_a(const sm80_params &p, uint32_t c, const s6_apieces<G> &a, uint32_t buf)
{
#pragma unroll
    for (int i = 0; i < G::AP; i++) {
        const uint32_t idx = s6_apiece<G>(i), row = idx / G::ARP;
        const uint32_t k0 = idx % G::ARP * 16 * G::KC / G::CA, kc = c * G::KC + k0;
        const uint32_t w[4] = { a.x[i].x, a.x[i].y, a.x[i].z, a.x[i].w };
        uint32_t e[G::NP];

        if (idx >= G::MR * G::ARP || row >= p.m)
            continue;
        if constexpr (AF == CV_BF16) {
#pragma unroll
            for (int u = 0; u < 4; u++)
                e[u] = w[u];
        } else if constexpr (AF == CV_E2M1) {
            cv_convert16<CV_E2M1, false>(w, SF, a.sb[i] & 0xffu, e);
            cv_convert16<CV_E2M1, false>(w + 2, SF, G::VEC == 16 ? a.sb[i] >> 8 : a.sb[i], e + 8);
        } else {
            cv_convert16<AF, false>(w, SF, a.sb[i], e);
        }
        if (kc + 2 * G::NP > p.k)
#pragma unroll
            for (int u = 0; u < G::NP; u++)
                e[u] = kc + 2 * u < p.k ? e[u] : 0x80008000u;
#pragma unroll
        for (int u = 0; u < G::NP / 4; u++)
            asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(
                             buf + smma_sm80_s3_act_off(row, k0 + 8 * u, G::KC)),
                         "r"(e[4 * u]), "r"(e[4 * u + 1]), "r"(e[4 * u + 2]), "r"(e[4 * u + 3]));
    }
}

/* Launches KERNEL with geometry G where the device holds its shared
 * memory (*ran 1); else launches nothing (*ran 0: the caller runs version
 * 5, 4 or 1). */
template <class G, void (*KERNEL)(sm80_params, s6_params)>
int
s6_launch(const sm80_params &p, const s6_params &s, cudaStream_t st, int *ran, char *msg,
           size_t msg_len)
{
    int rc;

    if (!sm80tile::device_holds_smem(G::SMEM)) {
        *ran = 0;
        return SMMA_GPU_STATUS_OK;
    }
    *ran = 1;
    rc = sm80tile::raise_smem<KERNEL>(G::SMEM, "sm80-bs-small", msg, msg_len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    KERNEL<<<(p.n + G::ROWS - 1) / G::ROWS, G::THREADS, G::SMEM, st>>>(p, s);
    return sm80_launched("sm80-bs-small", msg, msg_len);
}

} /* namespace */

/* ---- version 6 ------------------------------------------------------------------------- */

/*
 * Version 6 of the block-scaled GEMM for small M: e2m1 B converted in the
 * mma warps' registers through a table in shared memory instead of by the
 * ALU (version 3, removed, did the same with the ALU).
 *
 * Computes the same D = alpha * (C + sum_k (A SA)(B SB)) as versions 1 to 5,
 * bit for bit, with the model bf16-upcast-<gpu>: each element times its
 * scale rounded once to bf16, one fp32 accumulator chain per element of D
 * through mma.sync.m16n8k16 in k order, no split-K.  D^T = B^T A^T as in
 * version 3: a warp owns 16 rows of B (the m16 side), A's rows are the n8
 * side (the pieces above).
 *
 * What it changes, and why.  Version 3 spent about 32 instructions a lane
 * on each 16-k block of its two rows (8 codes): a shuffle and a byte
 * permute to gather a lane's codes, then for every four codes a mask,
 * three table permutes, a shift, an or and two interleaving permutes, most
 * of them on the ALU pipe, which issues half as many instructions a clock
 * as the SM (64 lanes); and the scale of each block converted exactly
 * every time.  At the H200's copy bandwidth an SM must turn about 25 codes
 * of e2m1 B into bf16 every clock.  Here (smma_sm80_s6_lut_off):
 *   - A table holds the bf16 pair of every byte (two codes), one copy a
 *     lane: 256 x 32 words, 256 bytes a byte value, so that any 32 lookups
 *     of a warp meet no bank conflict.  A lane's two bytes of a block come
 *     from one 4-byte load of its row (the pair of lanes t, t ^ 1 loads the
 *     same word); one prmt makes the address of each (the byte above the
 *     lane's 4 lane), one load fetches the pair, one fma.rn.bf16x2 (adding
 *     -0) multiplies it by the block's scale, rounded once as the model
 *     rounds.  Per block and lane: 2 word loads, 4 permutes, 4 table loads,
 *     4 multiplies, A's 8-byte load and the mma.
 *   - The scale as a bf16 pair is the scale byte times 0x00800080 (e8m0
 *     2^(b - 127) for b in 1 .. 254) or times 0x00100010 plus 0x3c003c00
 *     (a normal ue4m3); a chunk whose scale words hold another byte (e8m0
 *     0x00 or 0xff; ue4m3 subnormal, NaN or bit 7 set) runs the same code
 *     with cv_scale_bf16x2's exact conversion instead, chosen once a chunk
 *     for the warp (each lane checks SW / 2 of its warp's scale words).
 *   - The table takes the lower 128 bytes of each 256 of 64 KB.  The raw
 *     ring, B's copies and the barrier a chunk are the pieces above (chunks of
 *     512 k, 256 bytes a row); a CTA is 4 warps (4 stages), or 8 warps (3
 *     stages) where N >= 16384, one CTA an SM: 149 to 219 KB.  An earlier
 *     form with chunks of 256 k in the table's upper halves, two CTAs of 4
 *     warps an SM, spent as many instructions on each chunk's copies and A
 *     as on its 16 blocks, and was 0.88-1.62x as slow (median 1.30).
 *   - A lanes of rows g >= M read row 0's A (row 8's in the second n8
 *     tile), the same words as lanes of row 0, so that their loads add no
 *     shared-memory traffic; their columns of D^T are never written.
 *   - A's pieces and scale words come by cp.async into slots of the thread
 *     that converts them (s6_issue_a), two chunks ahead, not by loads into
 *     registers as in version 3: with those, the chain waited on A's loads
 *     behind the stream of B every chunk (a build without them ran
 *     1.13-1.65x as fast), and this ran 1.02-1.53x the register form.
 *     bf16 A with two n8 tiles in 8 warps keeps the registers (the slots
 *     do not fit).
 *
 * Measured on an H200 (bench/sm80-kernels.md): 1.04-1.57x the best of
 * versions 3 and 5 for e2m1 B with e2m1 A at every shape and with e4m3 or
 * bf16 A at M <= 8 (MXFP4 1 x 8192^2: 0.0319 ms, version 5 0.0382); at M
 * = 16 with e4m3 or bf16 A 0.84-0.94x version 5 but for MXFP8 x MXFP4 at
 * N = 28672 (1.44x).  Nsight Compute (MXFP4 1 x 8192^2, the register form):
 * 30.5 warp instructions per 16-k block of a warp's 16 rows, version 3's
 * 53.  Not kept: warps of 8 rows (twice the warps a scheduler) 0.92-0.99x;
 * the body software-pipelined over three batches and A through the table,
 * 0.95-1.04x.
 *
 * Where it runs: smma_gpu_bs_small_choose gives it e2m1 B with scales read
 * a word at a time (e8m0 per 32, NVFP4's ue4m3 per 16) and e2m1 A, M <= 8,
 * or e4m3 A with N >= 16384; SMMA_SM80_BS_SMALL=transposed-lut asks for it
 * for any e2m1 B those scales allow.  The launcher runs version 5 or 4 (or
 * 1) on a device without its shared memory.  Not on compute capability
 * 8.x (k permuted inside 16-k blocks).  Tails: any N (rows past N copy
 * row N - 1 and are never written), M <= 16, K a multiple of 8.
 */
namespace {

/* The geometry of A x e2m1 B with scale format SF, MT n8 tiles of A's rows
 * and W warps (4, or 8 for a large N); the names the copies and A code
 * above (s6_issue, s6_load_a, s6_convert_a) read. */
template <int AF, int SF, int MT, int W>
struct g6 {
    static constexpr int RW = 16, WARPS = W, ROWS = RW * W, THREADS = 32 * W;
    static constexpr int CP = RW / 2;                     /* pieces of B a lane copies */
    static constexpr int KC = 512;                        /* k per chunk: 256 bytes a row */
    static constexpr int VEC = SF == CV_UE4M3 ? 16 : 32;
    static constexpr int SW = KC / VEC / 4;               /* scale words of a row a chunk */
    static constexpr int SWL = RW * SW / 32;              /* ... a lane copies */
    static constexpr int STAGES = W == 4 ? 4 : 3;
    static constexpr int WST = RW * SMMA_SM80_S3_ROW;     /* a warp's raw chunk */
    static constexpr int SST = RW * SW * 4;               /* its scale words */
    static constexpr int MR = 8 * MT;
    static constexpr int AROW = 2 * KC + 32;
    static constexpr int ABUF = MR * AROW;
    static constexpr int CA = AF == CV_BF16 ? 2 * KC : AF == CV_E2M1 ? KC / 2 : KC;
    static constexpr int ARP = CA / 16;
    static constexpr int AP = (MR * ARP + THREADS - 1) / THREADS;
    static constexpr int NP = AF == CV_E2M1 ? 16 : AF == CV_BF16 ? 4 : 8;
    static constexpr int OFF_R = 65536;                   /* after the table */
    static constexpr int OFF_S = OFF_R + WARPS * STAGES * WST;
    static constexpr int OFF_A = OFF_S + WARPS * STAGES * SST;
    /* A's raw pieces by cp.async (s6_issue_a), two slots of each thread's
     * AP pieces and scale words; not for bf16 A with two n8 tiles in 8
     * warps, whose slots the shared memory does not hold (registers,
     * s6_load_a) */
    static constexpr bool AASYNC = !(AF == CV_BF16 && MT == 2 && W == 8);
    static constexpr int ASLOT = AASYNC ? AP * THREADS * 16 : 0;
    static constexpr int ASSLOT = AASYNC && AF != CV_BF16 ? AP * THREADS * 4 : 0;
    static constexpr int OFF_AR = OFF_A + 2 * ABUF;
    static constexpr int OFF_AS = OFF_AR + 2 * ASLOT;
    static constexpr int SMEM = OFF_AS + 2 * ASSLOT;
    static_assert(SMEM <= 227 * 1024, "a block's shared memory on 9.0");
};

__device__ __forceinline__ uint32_t
s6_lds(uint32_t a)
{
    uint32_t v;

    asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(a));
    return v;
}

/* The scale byte `byte` of word w as a bf16 pair: exactly (cv_scale_bf16x2)
 * or, where PLAIN (s6_plain said so), by one multiply-add. */
template <int SF, bool PLAIN>
__device__ __forceinline__ uint32_t
s6_scale2(uint32_t w, int byte)
{
    const uint32_t b = (w >> (8 * byte)) & 0xffu;

    if (!PLAIN)
        return cv_scale_bf16x2(SF, b);
    return SF == CV_E8M0 ? b * 0x00800080u : b * 0x00100010u + 0x3c003c00u;
}

/* Whether every byte of scale word w takes s6_scale2's multiply-add: e8m0
 * not 0x00 or 0xff; ue4m3 a normal number, not NaN, bit 7 clear. */
template <int SF>
__device__ __forceinline__ bool
s6_plain(uint32_t w)
{
    if (SF == CV_E8M0) {
        const uint32_t nw = ~w;

        return ((((w - 0x01010101u) & nw) | ((nw - 0x01010101u) & w)) & 0x80808080u) == 0;
    }
    const uint32_t e = w & 0x78787878u, q = w ^ 0x7f7f7f7fu;

    return ((w | ((e - 0x01010101u) & ~e) | ((q - 0x01010101u) & ~q)) & 0x80808080u) == 0;
}

/* Version 6's A without a register waiting on a global load: each thread
 * copies its pieces of chunk c of A (s6_apiece; 16 bytes, zeros past K)
 * and the 4-byte words holding their scale bytes by cp.async into its own
 * slot (`raw`, `sc`), and after its own wait takes them back (s6_take_a)
 * and converts them (s6_convert_a): a thread sees its own copies without a
 * barrier.  Measured before this (the loads in registers, as version 3):
 * with them taken out of the loop altogether, 1.13-1.65x as fast. */
template <int AF, class G>
__device__ __forceinline__ void
s6_issue_a(const sm80_params &p, const s6_params &s, uint32_t c, uint32_t raw, uint32_t sc)
{
#pragma unroll
    for (int i = 0; i < G::AP; i++) {
        const uint32_t idx = s6_apiece<G>(i), row = idx / G::ARP;
        const uint32_t slot = i * G::THREADS + threadIdx.x;
        const uint32_t byte = idx % G::ARP * 16, off = c * G::CA + byte;
        const uint32_t bytes = off < s.a_kbytes ? min(16u, s.a_kbytes - off) : 0;
        const uint8_t *a = (const uint8_t *) p.a + (size_t) row * s.a_row;

        if (idx >= G::MR * G::ARP || row >= p.m)
            continue;
        cp_async16(raw + 16 * slot, bytes ? a + off : a, bytes);
        if (AF != CV_BF16) {
            const uint32_t kb = (c * G::KC + byte * G::KC / G::CA) / G::VEC;
            const uint32_t o =
                kb < s.kb ? smma_sm80_scale_off(s.layout, row, kb, s.kb, s.kb_pad) : 0;

            cp_async4(sc + 4 * slot, s.sa + (o & ~3u), kb < s.kb ? 4 : 0);
        }
    }
}

/* This thread's pieces of chunk c of A from its slot, as s6_load_a gives
 * them: the scale byte of a block is byte kb % 4 of its word (in both
 * layouts, the words of a row being aligned), 1.0 past the last block. */
template <int AF, int SF, class G>
__device__ __forceinline__ void
s6_take_a(const sm80_params &p, const s6_params &s, uint32_t c, uint32_t raw, uint32_t sc,
          s6_apieces<G> &a)
{
#pragma unroll
    for (int i = 0; i < G::AP; i++) {
        const uint32_t idx = s6_apiece<G>(i), row = idx / G::ARP;
        const uint32_t slot = i * G::THREADS + threadIdx.x;
        const uint32_t kb = (c * G::KC + idx % G::ARP * 16 * G::KC / G::CA) / G::VEC;

        a.x[i] = make_uint4(0, 0, 0, 0);
        a.sb[i] = 0;
        if (idx >= G::MR * G::ARP || row >= p.m)
            continue;
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(a.x[i].x), "=r"(a.x[i].y), "=r"(a.x[i].z), "=r"(a.x[i].w)
                     : "r"(raw + 16 * slot));
        if (AF != CV_BF16) {
            const uint32_t w = s6_lds(sc + 4 * slot);

            a.sb[i] = kb < s.kb ? (w >> (8 * (kb % 4))) & 0xffu : cv_scale_one(SF);
            if (AF == CV_E2M1 && G::VEC == 16) /* kb even: kb + 1 in the same word */
                a.sb[i] |= (kb + 1 < s.kb ? (w >> (8 * (kb % 4 + 1))) & 0xffu
                                          : cv_scale_one(SF)) << 8;
        }
    }
}

/* The mma chain of one chunk for a warp: its raw rows in ring stage ws
 * (xo[q]: the lane's word of row g in piece q and piece q + 8 at 128
 * more; row g + 8 at 2048 more), its scale words at ss, A's rows at
 * ab[nt], the table at `lut`.  In batches of 4 blocks: the word and A
 * loads, the table lookups, the multiplies and the mma. */
template <int SF, int MT, bool PLAIN, class G>
__device__ __forceinline__ void
s6_mma_chunk(float (&acc)[MT][4], uint32_t lut, uint32_t ws, const uint32_t (&xo)[8], uint32_t ss,
             const uint32_t (&ab)[MT], uint32_t lsel0, uint32_t lsel1, uint32_t l4, unsigned g)
{
    uint32_t sg[G::SW], s8[G::SW];

#pragma unroll
    for (int w = 0; w < G::SW; w++) {
        sg[w] = s6_lds(ss + 4 * (g * G::SW + w));
        s8[w] = s6_lds(ss + 4 * ((g + 8) * G::SW + w));
    }
#pragma unroll
    for (int h = 0; h < G::KC / 16 / 4; h++) {
        uint32_t wd[4][2], bf[4][MT][2], a[4][4], t[4][4];

#pragma unroll
        for (int jj = 0; jj < 4; jj++) {
            const int j = 4 * h + jj, pc = j / 2; /* block j: piece pc, its half j % 2 */
            const uint32_t wa = ws + xo[pc % 8] + 128 * (pc / 8) + 8 * (j % 2);

            wd[jj][0] = s6_lds(wa);
            wd[jj][1] = s6_lds(wa + 8 * SMMA_SM80_S3_ROW);
#pragma unroll
            for (int nt = 0; nt < MT; nt++)
                asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];\n"
                             : "=r"(bf[jj][nt][0]), "=r"(bf[jj][nt][1])
                             : "r"(ab[nt] + 32 * j));
        }
#pragma unroll
        for (int jj = 0; jj < 4; jj++)
#pragma unroll
            for (int r = 0; r < 2; r++) {
                uint32_t x0, x1;

                asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(x0) : "r"(wd[jj][r]), "r"(l4), "r"(lsel0));
                asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(x1) : "r"(wd[jj][r]), "r"(l4), "r"(lsel1));
                t[jj][r] = s6_lds(lut + x0);     /* a0 (row g), a1 (row g + 8) */
                t[jj][r + 2] = s6_lds(lut + x1); /* a2, a3 */
            }
#pragma unroll
        for (int jj = 0; jj < 4; jj++) {
            const int j = 4 * h + jj, sblk = 16 * j / G::VEC;
            const uint32_t mg = s6_scale2<SF, PLAIN>(sg[sblk / 4], sblk % 4);
            const uint32_t m8 = s6_scale2<SF, PLAIN>(s8[sblk / 4], sblk % 4);

            a[jj][0] = cv_bmul2(t[jj][0], mg);
            a[jj][1] = cv_bmul2(t[jj][1], m8);
            a[jj][2] = cv_bmul2(t[jj][2], mg);
            a[jj][3] = cv_bmul2(t[jj][3], m8);
#pragma unroll
            for (int nt = 0; nt < MT; nt++)
                mma16816<false>(acc[nt], a[jj], bf[jj][nt]);
        }
    }
}

/* One chunk of the chain: the check of its scale words (each lane
 * G::SW / 2 of the warp's 16 G::SW), then the body with the multiply-add
 * scales where every byte allows, else with the exact conversion. */
template <int SF, int MT, class G>
__device__ __forceinline__ void
s6_chunk(float (&acc)[MT][4], uint32_t lut, uint32_t ws, const uint32_t (&xo)[8], uint32_t ss,
         const uint32_t (&ab)[MT], uint32_t aoff, uint32_t lsel0, uint32_t lsel1, uint32_t l4,
         unsigned g, unsigned lane)
{
    uint32_t abc[MT];
    bool plain = true;

#pragma unroll
    for (int i = 0; i < G::SW / 2; i++)
        plain = plain && s6_plain<SF>(s6_lds(ss + 4 * (lane + 32 * i)));
#pragma unroll
    for (int nt = 0; nt < MT; nt++)
        abc[nt] = ab[nt] + aoff;
    if (__all_sync(0xffffffffu, plain))
        s6_mma_chunk<SF, MT, true, G>(acc, lut, ws, xo, ss, abc, lsel0, lsel1, l4, g);
    else
        s6_mma_chunk<SF, MT, false, G>(acc, lut, ws, xo, ss, abc, lsel0, lsel1, l4, g);
}

template <int AF, int SF, int MT, int W>
__global__ void __launch_bounds__(g6<AF, SF, MT, W>::THREADS, 1)
bs_s6_kernel(sm80_params p, s6_params s)
{
    using G = g6<AF, SF, MT, W>;
    extern __shared__ __align__(128) uint8_t smem_raw[];
    const uint32_t smem = smem_u32(smem_raw);
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const unsigned g = lane / 4, tig = lane % 4;
    const uint32_t n0 = blockIdx.x * G::ROWS + warp * 16; /* the warp's first row of B */
    const uint32_t chunks = (p.k + G::KC - 1) / G::KC;
    const uint32_t lut = smem, wring = smem + G::OFF_R + warp * G::STAGES * G::WST;
    const uint32_t sring = smem + G::OFF_S + warp * G::STAGES * G::SST;
    const uint32_t abuf = smem + G::OFF_A;
    const uint32_t l4 = 4 * lane;
    /* prmt(word, l4, sel): byte 0 the lane's 4 lane, byte 1 the code byte */
    const uint32_t lsel0 = 0x7604u | smma_sm80_s6_byte(tig, 0) << 4;
    const uint32_t lsel1 = 0x7604u | smma_sm80_s6_byte(tig, 1) << 4;
    uint32_t xo[8], ab[MT];
    s6_plan<G> q;
    s6_apieces<G> ap;
    float acc[MT][4];

#pragma unroll
    for (int pc = 0; pc < 8; pc++)
        xo[pc] = smma_sm80_s3_raw_off(g, pc) + 4 * (tig / 2);
#pragma unroll
    for (int nt = 0; nt < MT; nt++) {
        const uint32_t r = 8 * nt + g < p.m ? 8 * nt + g : 8 * nt;

        ab[nt] = abuf + smma_sm80_s3_act_off(r, smma_sm80_s3_k0(tig), G::KC);
    }
    s6_plan_make<G>(p, s, n0, lane, q);
    /* the table: every byte's bf16 pair (the low code first), one copy a lane */
    for (unsigned e = threadIdx.x; e < 256 * 8; e += G::THREADS) {
        const uint32_t x = e / 8;
        const uint32_t v = (__float_as_uint(cv_e2m1(x & 15u)) >> 16) |
                           (__float_as_uint(cv_e2m1(x >> 4)) & 0xffff0000u);

        asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};\n" ::"r"(
                         lut + smma_sm80_s6_lut_off(x, 4 * (e % 8))),
                     "r"(v));
    }
    /* A's rows past M stay zeros */
    for (unsigned w = threadIdx.x; w < 2 * G::ABUF / 16; w += G::THREADS)
        st_shared_v4(abuf + 16 * w, 0);
    if constexpr (G::AASYNC) {
        /* cp.async groups in the loop's order, the prologue as iterations
         * -S+1 .. -1 (S = STAGES): A(j + 2), then B(j + S - 1); so B(c)
         * has 2 S - 4 groups after it at iteration c, and A(c + 1) three
         * at the end of iteration c */
        const uint32_t araw = smem + G::OFF_AR, asc = smem + G::OFF_AS;

#pragma unroll
        for (int d = 0; d < G::STAGES - 1; d++) {
            const int ai = d - G::STAGES + 3; /* A's chunk of pseudo-iteration d - S + 1 */

            if (ai >= 0 && ai < (int) chunks)
                s6_issue_a<AF, G>(p, s, ai, araw + (ai % 2) * G::ASLOT,
                                  asc + (ai % 2) * G::ASSLOT);
            cp_async_commit();
            if (d < chunks)
                s6_issue<G>(q, s, d, wring + d * G::WST, sring + d * G::SST, lane);
            cp_async_commit();
        }
        tacc_init<MT>(p, acc, n0, lane);
        cp_async_wait<3>();
        s6_take_a<AF, SF, G>(p, s, 0, araw, asc, ap);
        __syncthreads(); /* the zeros before A's rows */
        s6_convert_a<AF, SF, G>(p, 0, ap, abuf);
        for (uint32_t c = 0; c < chunks; c++) {
            const uint32_t st = c % G::STAGES, nst = (c + G::STAGES - 1) % G::STAGES;
            const uint32_t ss = sring + st * G::SST;

            cp_async_wait<2 * G::STAGES - 4>();
            __syncthreads();
            if (c + 2 < chunks) /* into the slot chunk c's A left */
                s6_issue_a<AF, G>(p, s, c + 2, araw + (c % 2) * G::ASLOT,
                                  asc + (c % 2) * G::ASSLOT);
            cp_async_commit();
            if (c + G::STAGES - 1 < chunks)
                s6_issue<G>(q, s, c + G::STAGES - 1, wring + nst * G::WST, sring + nst * G::SST,
                            lane);
            cp_async_commit();
            s6_chunk<SF, MT, G>(acc, lut, wring + st * G::WST, xo, ss,
                                ab, (c % 2) * G::ABUF, lsel0, lsel1, l4, g, lane);
            if (c + 1 < chunks) {
                const uint32_t sl = (c + 1) % 2;

                cp_async_wait<3>();
                s6_take_a<AF, SF, G>(p, s, c + 1, araw + sl * G::ASLOT, asc + sl * G::ASSLOT, ap);
                s6_convert_a<AF, SF, G>(p, c + 1, ap, abuf + sl * G::ABUF);
            }
        }
    } else {
#pragma unroll
        for (int d = 0; d < G::STAGES - 1; d++) {
            if (d < chunks)
                s6_issue<G>(q, s, d, wring + d * G::WST, sring + d * G::SST, lane);
            cp_async_commit();
        }
        tacc_init<MT>(p, acc, n0, lane);
        s6_load_a<AF, SF, G>(p, s, 0, ap);
        __syncthreads(); /* the zeros before A's rows */
        s6_convert_a<AF, SF, G>(p, 0, ap, abuf);
        /* One barrier a chunk. */
        for (uint32_t c = 0; c < chunks; c++) {
            const uint32_t st = c % G::STAGES, nst = (c + G::STAGES - 1) % G::STAGES;
            const uint32_t ss = sring + st * G::SST;

            cp_async_wait<G::STAGES - 2>();
            __syncthreads();
            if (c + G::STAGES - 1 < chunks)
                s6_issue<G>(q, s, c + G::STAGES - 1, wring + nst * G::WST, sring + nst * G::SST,
                            lane);
            cp_async_commit();
            if (c + 1 < chunks)
                s6_load_a<AF, SF, G>(p, s, c + 1, ap);
            s6_chunk<SF, MT, G>(acc, lut, wring + st * G::WST, xo, ss,
                                ab, (c % 2) * G::ABUF, lsel0, lsel1, l4, g, lane);
            if (c + 1 < chunks)
                s6_convert_a<AF, SF, G>(p, c + 1, ap, abuf + ((c + 1) % 2) * G::ABUF);
        }
    }
    cp_async_wait<0>();
    tacc_store<MT>(p, acc, n0, lane);
}

template <int AF, int SF, int MT, int W>
int
s6_run(const sm80_params &p, const s6_params &s, cudaStream_t st, int *ran, char *msg,
       size_t msg_len)
{
    return s6_launch<g6<AF, SF, MT, W>, bs_s6_kernel<AF, SF, MT, W>>(p, s, st, ran, msg,
                                                                      msg_len);
}

/* 8 warps a CTA (two a scheduler, one CTA an SM) where N gives at least
 * two waves of 4-warp CTAs (N >= 16384), else 4. */
template <int AF, int SF>
int
s6_tiles(const sm80_params &p, const s6_params &s, cudaStream_t st, int *ran, char *msg,
         size_t msg_len)
{
    if (p.n >= 16384)
        return p.m <= 8 ? s6_run<AF, SF, 1, 8>(p, s, st, ran, msg, msg_len)
                        : s6_run<AF, SF, 2, 8>(p, s, st, ran, msg, msg_len);
    return p.m <= 8 ? s6_run<AF, SF, 1, 4>(p, s, st, ran, msg, msg_len)
                    : s6_run<AF, SF, 2, 4>(p, s, st, ran, msg, msg_len);
}

} /* namespace */

int
smma_sm80_bs_small6_launch(const smma_gpu_gemm_args *x, int *ran, char *msg, size_t msg_len)
{
    sm80_params p = sm80_params_of(x);
    const smma_gemm_shape *sh = &x->shape;
    cudaStream_t st = (cudaStream_t) x->stream;
    const int ue4m3 = sh->scale_fmt == SMMA_UE4M3;
    s6_params s;

    *ran = 0;
    if (sh->b_fmt != SMMA_E2M1 || sh->vec != (ue4m3 ? 16u : 32u))
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-small version 6: "
                            "%s B with %s scales per %zu is not built", smma_format_name(sh->b_fmt),
                            ue4m3 ? "ue4m3" : "e8m0", (size_t) sh->vec);
    s6_params_fill(x, p, &s);
    return cv_fast_pair(
        sh->a_fmt, sh->b_fmt, "sm80-bs-small",
        [&](auto af, auto bf) {
            constexpr int AF = decltype(af)::value;

            if constexpr (decltype(bf)::value != CV_E2M1)
                return SMMA_GPU_STATUS_EINVAL; /* refused above */
            else
                return ue4m3 ? s6_tiles<AF, CV_UE4M3>(p, s, st, ran, msg, msg_len)
                             : s6_tiles<AF, CV_E8M0>(p, s, st, ran, msg, msg_len);
        },
        msg, msg_len);
}
