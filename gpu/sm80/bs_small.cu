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
 * What it does differently from bs_large.cu, and why:
 *   - B never touches shared memory.  Each lane loads, straight into
 *     registers, the codes of exactly the k its mma fragment needs: in every
 *     16-k block of the mma, lane (group, tig) holds k = 4 tig .. 4 tig + 3
 *     of column n = group (a permutation of k inside the block, the same for
 *     A; the block-FMA arithmetic sums the 16 products of a block as one, so
 *     their order inside it does not matter, only which 16 k form a block).
 *     That is one 32-bit load per lane and block for 8-bit codes, 16-bit for
 *     e2m1: the four lanes of a column read 16 (8) contiguous bytes.
 *   - Loads run three chunks of 256 k ahead (registers, no barrier), so that
 *     enough bytes are in flight per SM for the memory system.
 *   - A (at most 16 rows) is loaded one chunk ahead into registers and
 *     converted once per CTA and chunk into shared memory in fragment order,
 *     in the same k permutation; every warp reads its A registers with one
 *     16-byte load per block.
 * A CTA has 4 warps, 32 columns.  Scales (linear or 128x4) are read with the
 * codes, one byte per lane and scale block.
 *
 * Tails: any N; M <= 16 (rows past M are zeros and not written); K a
 * multiple of 8 (codes past K read as +0 for B and -0 for A).
 *
 * Run: `softmma gemm --on gpu --kernel sm80-bs-small ...`, tests/gpu/gemm-bs-t,
 * bench/gemm-bench.
 */
#include "convert.cuh"
#include "common.cuh"
#include "sm80.h"

namespace {

constexpr int WARPS = 4, THREADS = 32 * WARPS, BN = 8 * WARPS;
constexpr int KC = 256;         /* k per chunk */
constexpr int NB = KC / 16;     /* 16-k blocks per chunk */
constexpr int DEPTH = 3;        /* chunks of B in registers */

struct small_params {
    const uint8_t *sa, *sb;
    uint32_t vec, kb, kb_pad;
    int layout, sfmt;
};

__device__ __forceinline__ uint32_t
small_scale(const small_params &s, const uint8_t *sc, uint32_t row, uint32_t kbi)
{
    if (kbi >= s.kb)
        return s.sfmt == CV_E8M0 ? 0x7fu : 0x38u;
    return sc[s.layout ? smma_sm80_scale_128x4(row, kbi, s.kb_pad) : (size_t) row * s.kb + kbi];
}

/* One chunk of B as a lane holds it: per block, its four codes (8-bit: one
 * word; e2m1: 16 bits), and the scale byte of each block. */
struct bchunk {
    uint32_t code[NB];
    uint32_t scale[NB / 4]; /* four scale bytes per word */
};

/* Loads chunk c of column n (its codes for k = c KC + 16 j + 4 tig ..). */
template <int BF>
__device__ __forceinline__ void
load_b(const sm80_params &p, const small_params &s, uint32_t n, unsigned tig, uint32_t c,
       bchunk &ch)
{
    const uint8_t *b = (const uint8_t *) p.b;
    const bool nin = n < p.n;

#pragma unroll
    for (int j = 0; j < NB / 4; j++)
        ch.scale[j] = 0;
#pragma unroll
    for (int j = 0; j < NB; j++) {
        uint32_t k = c * KC + 16 * j + 4 * tig;
        bool in = nin && k < p.k;

        if (BF == CV_E2M1)
            ch.code[j] = in ? *(const uint16_t *) (b + ((size_t) n * p.ldb + k) / 2) : 0;
        else
            ch.code[j] = in ? __ldg((const unsigned int *) (b + (size_t) n * p.ldb + k)) : 0;
        if (nin)
            ch.scale[j / 4] |= small_scale(s, s.sb, n, (c * KC + 16 * j) / s.vec)
                               << (8 * (j % 4));
    }
}

/* A thread's share of one chunk of A, as loaded: slot q is word
 * w = threadIdx.x + THREADS q of the fragment-order buffer below, the codes
 * of an element pair (i, k), (i, k + 1) (16 bits of two 8-bit codes, 8 of
 * two e2m1, 32 of two bf16) and its scale byte. */
constexpr int A_SLOTS = NB * 32 * 4 / THREADS;

struct araw {
    uint32_t code[A_SLOTS];
    uint32_t scale[A_SLOTS / 4]; /* four scale bytes per word */
};

/* The row and first k of slot word w of chunk c: register r of lane `lane`
 * for block j holds row group + 8 (r % 2) and k 16 j + 4 tig + 2 (r / 2)
 * and the next (the k permutation of the B loads). */
__device__ __forceinline__ void
a_slot(uint32_t c, unsigned w, uint32_t &i, uint32_t &k)
{
    unsigned r = w % 4, lane = (w / 4) % 32, j = w / 128;

    i = smma_frag_a_row(lane, r);
    k = c * KC + 16 * j + 4 * (lane % 4) + 2 * (r / 2);
}

/* Loads this thread's codes of chunk c of A (rows past M and k past K are
 * not read). */
template <int AF>
__device__ __forceinline__ void
load_a(const sm80_params &p, const small_params &s, uint32_t c, araw &ar)
{
#pragma unroll
    for (int q = 0; q < A_SLOTS / 4; q++)
        ar.scale[q] = 0;
#pragma unroll
    for (int q = 0; q < A_SLOTS; q++) {
        uint32_t i, k;

        a_slot(c, threadIdx.x + THREADS * q, i, k);
        ar.code[q] = 0;
        if (i < p.m && k < p.k) {
            size_t at = (size_t) i * p.lda + k;

            if (AF == CV_BF16)
                ar.code[q] = *(const uint32_t *) ((const uint16_t *) p.a + at);
            else if (AF == CV_E2M1)
                ar.code[q] = ((const uint8_t *) p.a)[at / 2];
            else
                ar.code[q] = *(const uint16_t *) ((const uint8_t *) p.a + at);
            if (AF != CV_BF16)
                ar.scale[q / 4] |= small_scale(s, s.sa, i, k / s.vec) << (8 * (q % 4));
        }
    }
}

/* Converts the loaded chunk c of A into shared memory in fragment order:
 * word ((j * 32 + lane) * 4 + r) is register r of lane `lane` for block j;
 * -0 past K (the identity of the sum), +0 past M. */
template <int AF>
__device__ __forceinline__ void
store_a(const sm80_params &p, const small_params &s, uint32_t c, const araw &ar, uint32_t *dst)
{
#pragma unroll
    for (int q = 0; q < A_SLOTS; q++) {
        unsigned w = threadIdx.x + THREADS * q;
        uint32_t i, k, x = ar.code[q], v;
        float f0, f1;

        a_slot(c, w, i, k);
        if (k >= p.k)
            v = 0x80008000u;
        else if (i >= p.m)
            v = 0;
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
        dst[w] = v;
    }
}

/* The mma of one chunk: B codes converted with their scales (register 0 of
 * the B fragment: k 4 tig, 4 tig + 1; register 1: 4 tig + 2, + 3). */
template <int BF>
__device__ __forceinline__ void
chunk_mma(float (&acc)[4], const bchunk &ch, const uint32_t *afrag, unsigned lane, int sfmt)
{
#pragma unroll
    for (int j = 0; j < NB; j++) {
        uint4 a = ((const uint4 *) afrag)[j * 32 + lane];
        uint32_t av[4] = { a.x, a.y, a.z, a.w }, bv[2];
        float sc = cv_scale(sfmt, (ch.scale[j / 4] >> (8 * (j % 4))) & 0xffu), f0, f1, f2, f3;

        if (BF == CV_E2M1) {
            float f[4];

            cv_e2m1x4(ch.code[j], f);
            f0 = f[0];
            f1 = f[1];
            f2 = f[2];
            f3 = f[3];
        } else if (BF == CV_E4M3) {
            cv_e4m3x2(ch.code[j], f0, f1);
            cv_e4m3x2(ch.code[j] >> 16, f2, f3);
        } else if (BF == CV_E5M2) {
            cv_e5m2x2(ch.code[j], f0, f1);
            cv_e5m2x2(ch.code[j] >> 16, f2, f3);
        } else {
            f0 = cv_fp6<BF == CV_E2M3 ? 2 : 3>(ch.code[j] & 0x3fu);
            f1 = cv_fp6<BF == CV_E2M3 ? 2 : 3>((ch.code[j] >> 8) & 0x3fu);
            f2 = cv_fp6<BF == CV_E2M3 ? 2 : 3>((ch.code[j] >> 16) & 0x3fu);
            f3 = cv_fp6<BF == CV_E2M3 ? 2 : 3>((ch.code[j] >> 24) & 0x3fu);
        }
        bv[0] = cv_pack(f0, f1, sc);
        bv[1] = cv_pack(f2, f3, sc);
        mma16816<false>(acc, av, bv);
    }
}

template <int AF, int BF>
__global__ void __launch_bounds__(THREADS)
bs_small_kernel(sm80_params p, small_params s)
{
    __shared__ __align__(16) uint32_t afrag[2][NB * 32 * 4]; /* 16 KB */
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const uint32_t j0 = blockIdx.x * BN + warp * 8, n = j0 + lane / 4;
    const uint32_t chunks = (p.k + KC - 1) / KC;
    float acc[4];
    bchunk ring[DEPTH];
    araw ar;

    for (unsigned r = 0; r < 4; r++) {
        uint32_t i = smma_frag_cd_row(lane, r), j = j0 + smma_frag_cd_col(lane, r);

        acc[r] = i < p.m && j < p.n ? epi_c(p, i, j) : 0.0f;
    }
#pragma unroll
    for (int d = 0; d < DEPTH - 1; d++)
        load_b<BF>(p, s, n, lane % 4, d, ring[d]);
    load_a<AF>(p, s, 0, ar);
    store_a<AF>(p, s, 0, ar, afrag[0]);
    load_a<AF>(p, s, 1, ar);

    /* Chunk c: the loads of B's chunk c + DEPTH - 1 go out, A of chunk c + 1
     * (loaded one chunk ago) is converted into the other buffer and A of
     * chunk c + 2 is loaded, then chunk c is multiplied.  The ring of B
     * chunks is indexed at compile time: the loop is unrolled DEPTH times. */
    for (uint32_t c0 = 0; c0 < chunks; c0 += DEPTH) {
#pragma unroll
        for (int d = 0; d < DEPTH; d++) {
            uint32_t c = c0 + d;

            if (c >= chunks)
                break;
            __syncthreads(); /* A of chunk c is in afrag[c % 2]; c - 1's buffer is free */
            load_b<BF>(p, s, n, lane % 4, c + DEPTH - 1, ring[(d + DEPTH - 1) % DEPTH]);
            if (c + 1 < chunks) {
                store_a<AF>(p, s, c + 1, ar, afrag[(c + 1) % 2]);
                load_a<AF>(p, s, c + 2, ar);
            }
            chunk_mma<BF>(acc, ring[d], afrag[c % 2], lane, s.sfmt);
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
    small_params s;

    s.sa = (const uint8_t *) x->sa;
    s.sb = (const uint8_t *) x->sb;
    s.vec = sh->vec;
    s.kb = (uint32_t) ((sh->k + sh->vec - 1) / sh->vec);
    s.kb_pad = (s.kb + 3) / 4 * 4;
    s.layout = x->scale_layout == SMMA_SL_128X4;
    s.sfmt = sh->scale_fmt == SMMA_UE4M3 ? CV_UE4M3 : CV_E8M0;
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
