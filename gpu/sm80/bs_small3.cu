/*
 * gpu/sm80/bs_small3.cu - version 3 of the block-scaled GEMM for small M
 * (M <= 16): B's rows on the mma's 16-row side.
 *
 * Computes the same D = alpha * (C + sum_k (A SA)(B SB)) as versions 1 and
 * 2 (bs_small.cu), bit for bit, with the model bf16-upcast-<gpu>: each
 * element times its scale rounded once to bf16, one fp32 accumulator chain
 * per element of D through mma.sync.m16n8k16 in k order, no split-K.
 *
 * What it changes, and why.  Versions 1 and 2 put A (at most 16 rows) on the
 * mma's m16 side and eight columns of B on its n8 side.  For every 128
 * elements of B an mma warp then read 512 bytes of A's fragments and 256 of
 * B's converted ones from shared memory, besides the raw bytes: about 10
 * bytes of shared-memory traffic per element of B.  Nsight Compute found
 * version 2 at M = 1 with L1/shared throughput at 83% and DRAM at 49%: the
 * shared memory, not the memory bus, set the pace, and e2m1, with two
 * elements a byte, ran at half the bytes per second of the 8-bit formats.
 * Here the kernel computes D^T = B^T A^T with the same mma:
 *   - A warp owns 16 rows n of B, the mma's m16 side; A's rows are its n8
 *     side (one n8 tile for M <= 8, two for M <= 16).  Each element of D is
 *     still one chain over k; the products of a block are the same products
 *     (the block-FMA's sum of a block does not depend on which operand
 *     holds which factor, nor on the order of its 16 products).
 *   - B never passes through a converted buffer.  Each warp copies its 16
 *     rows by cp.async into its own ring of raw chunks (256 bytes a row: 256
 *     k, or 512 of e2m1; 4 stages, 3 in flight), reads them with
 *     ldmatrix.x4 (four 8 x 16-byte matrices: two pieces of rows 0-7 and
 *     8-15), converts them in registers into the mma's A fragments and
 *     multiplies.  ldmatrix gives lane (g, t) bytes 4 t .. 4 t + 3 of its
 *     rows' pieces: four 8-bit codes, k = 4 t .. 4 t + 3 of a block, which
 *     become its registers a0 / a2 (a1 / a3 for row g + 8).  For e2m1 the
 *     four bytes are eight codes of one block, and lanes t and t ^ 2 swap
 *     halves (one shuffle and one byte permute a register) so that each
 *     holds four of each of the piece's two blocks
 *     (smma_sm80_s3_k0, sim/softmma/sm80.h).
 *   - A is converted once per CTA and chunk into shared memory as bf16 rows
 *     (smma_sm80_s3_act_off), one chunk ahead, by all the CTA's threads from
 *     registers loaded during the chunk before; each lane reads its B
 *     fragment, A's k0 .. k0 + 3 of row g, with one 8-byte load.
 *   - Shared-memory traffic per element of B: its raw bytes written and
 *     read once (1 byte, or 1/2 for e2m1) and A's fragments (1 byte per
 *     n8 tile): 2 to 3 bytes instead of 10.
 *   - A CTA is 4 warps (64 rows of B), 83 to 106 KB of shared memory, two
 *     CTAs an SM; one barrier a chunk (A's buffers and the raw ring).  A's
 *     pieces are dealt to the warps in turn, so that at M = 1 each warp
 *     converts its share and none waits at the barrier for another.
 *
 * What it costs, measured on the H100 (bench/sm80-kernels.md, seventh
 * round): the conversion is back on the mma warps.  N = 8192 gives 128 CTAs,
 * one warp per scheduler, and that warp issued an instruction every 3
 * cycles (Nsight Compute: 15.7 M instructions, version 2's 21.5 M, but
 * issue slots 30% busy, stalls on fixed-latency dependences and on the
 * barrier), where version 2 keeps 24 warps an SM busy: 0.54-0.76x version 2
 * for the 8-bit formats.  Loading, converting and multiplying in batches of
 * 8 blocks changed nothing; warps of 8 rows (twice the warps, half of each
 * mma idle) helped the 8-bit formats a little and cost e2m1 more.  With two
 * CTAs an SM (N = 28672) and e2m1 B with e8m0 scales, whose bytes carry
 * twice the elements that version 2's shared memory must move, it is
 * 1.02-1.15x version 2.
 *
 * Where it runs: `smma_gpu_bs_small_choose` gives it e2m1 B with e8m0
 * scales per 32, A e2m1 or e4m3, N >= 16384, and SMMA_SM80_BS_SMALL=
 * transposed any pair with e8m0 scales per 32 or NVFP4 whose scales it can
 * read a word at a time (as version 2); "split" and "regs" ask for
 * versions 2 and 1.  The launcher runs version 2 (or 1) on a device
 * without its shared memory.  Not on compute capability 8.x (k is permuted
 * inside 16-k blocks; doc/kernels.md).
 *
 * Tails: any N (rows of B past N are never copied and never written); M <=
 * 16; K a multiple of 8 (B's bytes past K copied as zeros, with zero scale
 * bytes past the last scale block, A's elements past K stored as -0: every
 * padded product is -0).
 *
 * Run: `softmma gemm --on gpu --kernel sm80-bs-small ...`, tests/gpu/gemm-bs-t,
 * bench/gemm-bench.
 */
#include <stdlib.h>

#include "convert.cuh"
#include "common.cuh"
#include "sm80.h"
#include "tile.cuh"

namespace {

/* The geometry of A x B with scale format SF, MT n8 tiles of A's rows. */
template <int AF, int BF, int SF, int MT>
struct g3 {
    static constexpr int RW = 16;                         /* rows of B a warp */
    static constexpr int ROWS = 64, WARPS = ROWS / RW, THREADS = 32 * WARPS;
    static constexpr int CP = RW / 2;                     /* pieces of B a lane copies */
    static constexpr bool E2 = BF == CV_E2M1;
    static constexpr int KC = E2 ? 512 : 256;             /* k per chunk */
    static constexpr int VEC = SF == CV_UE4M3 ? 16 : 32;  /* k per scale */
    static constexpr int SW = KC / VEC / 4;               /* scale words of a row a chunk */
    static constexpr int SWL = RW * SW / 32;              /* ... a lane copies */
    static constexpr int STAGES = 4;
    static constexpr int WST = RW * SMMA_SM80_S3_ROW;     /* a warp's raw chunk */
    static constexpr int SST = RW * SW * 4;               /* its scale words */
    static constexpr int MR = 8 * MT;                     /* rows of A */
    static constexpr int AROW = 2 * KC + 32;              /* a converted row of A */
    static constexpr int ABUF = MR * AROW;
    static constexpr int CA = AF == CV_BF16 ? 2 * KC : AF == CV_E2M1 ? KC / 2 : KC;
    static constexpr int ARP = CA / 16;                   /* A's 16-byte pieces a row */
    static constexpr int AP = (MR * ARP + THREADS - 1) / THREADS; /* ... a thread */
    static constexpr int NP = AF == CV_E2M1 ? 16 : AF == CV_BF16 ? 4 : 8; /* pairs a piece */
    static constexpr int OFF_S = WARPS * STAGES * WST;
    static constexpr int OFF_A = OFF_S + WARPS * STAGES * SST;
    static constexpr int SMEM = OFF_A + 2 * ABUF;
};

struct s3_params {
    const uint8_t *sa, *sb;
    uint32_t kb, kb_pad;   /* scale blocks along K, and rounded up to 4 */
    int layout;            /* 128x4 layout */
    uint32_t b_row, b_kbytes; /* bytes of a row of B, and of it inside K */
    uint32_t a_row, a_kbytes; /* the same of A */
};

/* The byte of scale block kb of row `row` (1.0 past the last block). */
__device__ __forceinline__ uint32_t
s3_scale_byte(const s3_params &s, const uint8_t *sc, int sfmt, uint32_t row, uint32_t kb)
{
    if (kb >= s.kb)
        return cv_scale_one(sfmt);
    return __ldg(sc + smma_sm80_scale_off(s.layout, row, kb, s.kb, s.kb_pad));
}

/* Where a lane's copies of B and of B's scales come from, computed once. */
template <class G>
struct s3_plan {
    const uint8_t *b;          /* row lane / 16, byte 16 (lane % 16) of chunk 0 */
    size_t b_step;             /* two rows of B */
    uint32_t rows;             /* bit i (< CP): row 2 i + lane / 16 lies inside N */
    const uint8_t *sc[G::SWL]; /* scale word i of chunk 0 */
    uint32_t sc_kb[G::SWL];    /* its first scale block in chunk 0 */
    uint32_t sc_live;          /* bit i: its row lies inside N */
    uint32_t sc_step;          /* bytes from a chunk's scale word to the next's */
};

template <class G>
__device__ __forceinline__ void
s3_plan_make(const sm80_params &p, const s3_params &s, uint32_t n0, unsigned lane,
             s3_plan<G> &q)
{
    q.b = (const uint8_t *) p.b + (size_t) (n0 + lane / 16) * s.b_row + 16 * (lane % 16);
    q.b_step = 2 * (size_t) s.b_row;
    q.rows = 0;
#pragma unroll
    for (int i = 0; i < G::CP; i++)
        q.rows |= (n0 + 2 * i + lane / 16 < p.n ? 1u : 0u) << i;
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
 * words) into ring stage at `ws` and scale stage at `ss`. */
template <class G>
__device__ __forceinline__ void
s3_issue(const s3_plan<G> &q, const s3_params &s, uint32_t c, uint32_t ws, uint32_t ss,
         unsigned lane)
{
    const uint32_t off = c * SMMA_SM80_S3_ROW + 16 * (lane % 16);
    const bool inside = (c + 1) * SMMA_SM80_S3_ROW <= s.b_kbytes;
    const uint32_t bytes = off < s.b_kbytes ? min(16u, s.b_kbytes - off) : 0;

#pragma unroll
    for (int i = 0; i < G::CP; i++) {
        const uint32_t dst = ws + smma_sm80_s3_raw_off(2 * i + lane / 16, lane % 16);
        const uint8_t *src = q.b + i * q.b_step;

        if (!(q.rows >> i & 1u))
            continue;
        if (inside)
            cp_async16_stream_all(dst, src + c * SMMA_SM80_S3_ROW);
        else
            cp_async16_stream(dst, bytes ? src + c * SMMA_SM80_S3_ROW : src, bytes);
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
struct s3_apieces {
    uint4 x[G::AP];
    uint32_t sb[G::AP]; /* scale bytes: the piece's (e2m1 with 16 k a scale: two) */
};

/* The number of this thread's piece i of A: the pieces dealt to the warps
 * in turn, so that for a small M every warp has its share of the
 * conversion (the CTA's barrier waits for the slowest). */
template <class G>
__device__ __forceinline__ uint32_t
s3_apiece(int i)
{
    return G::THREADS * i + threadIdx.x % 32 * G::WARPS + threadIdx.x / 32;
}

/* Loads this thread's pieces of chunk c of A: piece idx (s3_apiece) is
 * bytes 16 (idx % ARP) .. of row idx / ARP's chunk. */
template <int AF, int SF, class G>
__device__ __forceinline__ void
s3_load_a(const sm80_params &p, const s3_params &s, uint32_t c, s3_apieces<G> &a)
{
#pragma unroll
    for (int i = 0; i < G::AP; i++) {
        const uint32_t idx = s3_apiece<G>(i), row = idx / G::ARP;
        const uint32_t byte = idx % G::ARP * 16, k = c * G::KC + byte * G::KC / G::CA;

        a.x[i] = make_uint4(0, 0, 0, 0);
        a.sb[i] = 0;
        if (idx >= G::MR * G::ARP || row >= p.m)
            continue;
        a.x[i] = ld_row16((const uint8_t *) p.a + (size_t) row * s.a_row, c * G::CA + byte,
                          s.a_kbytes);
        if (AF != CV_BF16) {
            a.sb[i] = s3_scale_byte(s, s.sa, SF, row, k / G::VEC);
            if (AF == CV_E2M1 && G::VEC == 16)
                a.sb[i] |= s3_scale_byte(s, s.sa, SF, row, k / G::VEC + 1) << 8;
        }
    }
}

/* Converts the pieces loaded for chunk c into A's buffer at `buf`: bf16
 * pairs in k order, -0 past K. */
template <int AF, int SF, class G>
__device__ __forceinline__ void
s3_convert_a(const sm80_params &p, uint32_t c, const s3_apieces<G> &a, uint32_t buf)
{
#pragma unroll
    for (int i = 0; i < G::AP; i++) {
        const uint32_t idx = s3_apiece<G>(i), row = idx / G::ARP;
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

/* Four codes of format F (the four bytes of x; e2m1: its low 16 bits)
 * times scale byte sb as two bf16 pairs: codes 0, 1 and 2, 3. */
template <int F, int SF>
__device__ __forceinline__ void
s3_convert4(uint32_t x, uint32_t sb, uint32_t &lo, uint32_t &hi)
{
    if constexpr (F == CV_E2M1) {
        const uint32_t s2 = cv_scale_bf16x2(SF, sb);
        uint32_t h[2];

        cv_e2m1x4_bf16(x, h);
        lo = cv_bmul2(h[0], s2);
        hi = cv_bmul2(h[1], s2);
    } else {
        const float s = cv_scale(SF, sb);
        float f[4];

        cv_codes4<F>(x, f);
        lo = cv_pack(f[0], f[1], s);
        hi = cv_pack(f[2], f[3], s);
    }
}

/* The mma chain of chunk c for a warp: ring stage ws (its 16 rows), scale
 * stage ss, A's buffer ab (the lane's address of row g, k0).  ld[q]: the
 * lane's ldmatrix address of pieces 2 q, 2 q + 1 (smma_sm80_s3_ldsm_off).
 * In batches of 8 blocks: every load of the batch first, then the
 * conversions, which do not depend on one another, then the mma of the
 * chain. */
template <int BF, int SF, int MT, class G>
__device__ __forceinline__ void
s3_mma_chunk(float (&acc)[MT][4], uint32_t ws, uint32_t ss, uint32_t ab, const uint32_t (&ld)[4],
             unsigned lane)
{
    constexpr int BPL = G::E2 ? 4 : 2; /* blocks an ldmatrix.x4 reads */
    constexpr int LPB = 8 / BPL;       /* ldmatrix.x4 a batch of 8 blocks */
    const unsigned g = lane / 4, tig = lane % 4;
    uint32_t sg[G::SW], s8[G::SW];

#pragma unroll
    for (int w = 0; w < G::SW; w++) {
        asm volatile("ld.shared.u32 %0, [%1];\n" : "=r"(sg[w]) : "r"(ss + 4 * (g * G::SW + w)));
        asm volatile("ld.shared.u32 %0, [%1];\n"
                     : "=r"(s8[w]) : "r"(ss + 4 * ((g + 8) * G::SW + w)));
    }
#pragma unroll
    for (int h = 0; h < G::KC / 16 / 8; h++) {
        uint32_t r[LPB][4], b[8][MT][2], a[8][4];

#pragma unroll
        for (int l = 0; l < LPB; l++) {
            const int x = h * LPB + l; /* the ldmatrix of the chunk */

            ldsm_x4(ws + ld[x & 3] + 128u * (x >> 2), r[l]);
        }
#pragma unroll
        for (int jj = 0; jj < 8; jj++)
#pragma unroll
            for (int nt = 0; nt < MT; nt++)
                asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];\n"
                             : "=r"(b[jj][nt][0]), "=r"(b[jj][nt][1])
                             : "r"(ab + nt * 8 * G::AROW + 32 * (8 * h + jj)));
        if constexpr (G::E2) {
            /* lanes t and t ^ 2 swap halves: low 16 bits the piece's first
             * block, high 16 bits its second (smma_sm80_s3_k0) */
            const uint32_t sel = tig & 2u ? 0x3276u : 0x5410u;

#pragma unroll
            for (int l = 0; l < LPB; l++)
#pragma unroll
                for (int q = 0; q < 4; q++) {
                    const uint32_t y = __shfl_xor_sync(0xffffffffu, r[l][q], 2);

                    asm("prmt.b32 %0, %1, %2, %3;\n"
                        : "=r"(r[l][q]) : "r"(r[l][q]), "r"(y), "r"(sel));
                }
        }
#pragma unroll
        for (int jj = 0; jj < 8; jj++) {
            const int j = 8 * h + jj, l = jj / BPL, bi = jj % BPL; /* block j of the chunk */
            const int q = G::E2 ? 2 * (bi / 2) : 2 * bi; /* register of row g (q + 1: g + 8) */
            const int sh = G::E2 ? 16 * (bi % 2) : 0;
            const int sblk = 16 * j / G::VEC;
            const uint32_t bg = (sg[sblk / 4] >> (8 * (sblk % 4))) & 0xffu;
            const uint32_t b8 = (s8[sblk / 4] >> (8 * (sblk % 4))) & 0xffu;

            s3_convert4<BF, SF>(r[l][q] >> sh, bg, a[jj][0], a[jj][2]);
            s3_convert4<BF, SF>(r[l][q + 1] >> sh, b8, a[jj][1], a[jj][3]);
        }
#pragma unroll
        for (int jj = 0; jj < 8; jj++)
#pragma unroll
            for (int nt = 0; nt < MT; nt++)
                mma16816<false>(acc[nt], a[jj], b[jj][nt]);
    }
}

template <int AF, int BF, int SF, int MT>
__global__ void __launch_bounds__(g3<AF, BF, SF, MT>::THREADS, 2)
bs_s3_kernel(sm80_params p, s3_params s)
{
    using G = g3<AF, BF, SF, MT>;
    extern __shared__ __align__(128) uint8_t smem_raw[];
    const uint32_t smem = smem_u32(smem_raw);
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const unsigned g = lane / 4, tig = lane % 4;
    const uint32_t n0 = blockIdx.x * G::ROWS + warp * 16; /* the warp's first row of B */
    const uint32_t chunks = (p.k + G::KC - 1) / G::KC;
    const uint32_t wring = smem + warp * G::STAGES * G::WST;
    const uint32_t sring = smem + G::OFF_S + warp * G::STAGES * G::SST;
    const uint32_t abuf = smem + G::OFF_A;
    const uint32_t ab = abuf + smma_sm80_s3_act_off(g, smma_sm80_s3_k0(G::E2, tig), G::KC);
    uint32_t ld[4];
    s3_plan<G> q;
    s3_apieces<G> ap;
    float acc[MT][4];

#pragma unroll
    for (int i = 0; i < 4; i++)
        ld[i] = smma_sm80_s3_ldsm_off(lane, 2 * i);
    s3_plan_make<G>(p, s, n0, lane, q);
    /* A's rows past M stay zeros */
    for (unsigned w = threadIdx.x; w < 2 * G::ABUF / 16; w += G::THREADS)
        st_shared_v4(abuf + 16 * w, 0);
#pragma unroll
    for (int d = 0; d < G::STAGES - 1; d++) {
        if (d < chunks)
            s3_issue<G>(q, s, d, wring + d * G::WST, sring + d * G::SST, lane);
        cp_async_commit();
    }
    tacc_init<MT>(p, acc, n0, lane);
    s3_load_a<AF, SF, G>(p, s, 0, ap);
    __syncthreads(); /* the zeros before A's rows */
    s3_convert_a<AF, SF, G>(p, 0, ap, abuf);
    /* Chunk c: its raw bytes and A's buffer c % 2 are ready after the
     * barrier, which also tells that every warp is done with chunk c - 1
     * (the ring stage the copies of chunk c + 3 go to, and A's other
     * buffer, which chunk c + 1 is converted into). */
    for (uint32_t c = 0; c < chunks; c++) {
        const uint32_t st = c % G::STAGES, nst = (c + G::STAGES - 1) % G::STAGES;

        cp_async_wait<G::STAGES - 2>();
        __syncthreads();
        if (c + G::STAGES - 1 < chunks)
            s3_issue<G>(q, s, c + G::STAGES - 1, wring + nst * G::WST, sring + nst * G::SST, lane);
        cp_async_commit();
        if (c + 1 < chunks)
            s3_load_a<AF, SF, G>(p, s, c + 1, ap);
        s3_mma_chunk<BF, SF, MT, G>(acc, wring + st * G::WST, sring + st * G::SST,
                                    ab + (c % 2) * G::ABUF, ld, lane);
        if (c + 1 < chunks)
            s3_convert_a<AF, SF, G>(p, c + 1, ap, abuf + ((c + 1) % 2) * G::ABUF);
    }
    cp_async_wait<0>();
    tacc_store<MT>(p, acc, n0, lane);
}

template <int AF, int BF, int SF, int MT>
int
s3_run(const sm80_params &p, const s3_params &s, cudaStream_t st, int *ran, char *msg,
       size_t msg_len)
{
    using G = g3<AF, BF, SF, MT>;
    int rc;

    if (!sm80tile::device_holds_smem(G::SMEM)) {
        *ran = 0; /* the caller runs version 2 or 1 */
        return SMMA_GPU_STATUS_OK;
    }
    *ran = 1;
    rc = sm80tile::raise_smem<bs_s3_kernel<AF, BF, SF, MT>>(G::SMEM, "sm80-bs-small", msg,
                                                             msg_len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    bs_s3_kernel<AF, BF, SF, MT><<<(p.n + G::ROWS - 1) / G::ROWS, G::THREADS, G::SMEM, st>>>(p, s);
    return sm80_launched("sm80-bs-small", msg, msg_len);
}

template <int AF, int BF, int SF>
int
s3_tiles(const sm80_params &p, const s3_params &s, cudaStream_t st, int *ran, char *msg,
         size_t msg_len)
{
    return p.m <= 8 ? s3_run<AF, BF, SF, 1>(p, s, st, ran, msg, msg_len)
                    : s3_run<AF, BF, SF, 2>(p, s, st, ran, msg, msg_len);
}

/* The scale format: e8m0 for every pair, ue4m3 for e2m1 B
 * (smma_gpu_bs_small_choose gives version 3 nothing else). */
template <int AF, int BF>
int
s3_pair(const sm80_params &p, const s3_params &s, int ue4m3, cudaStream_t st, int *ran,
        char *msg, size_t msg_len)
{
    constexpr int SF4 = BF == CV_E2M1 ? CV_UE4M3 : CV_E8M0;

    if (ue4m3 && BF == CV_E2M1)
        return s3_tiles<AF, BF, SF4>(p, s, st, ran, msg, msg_len);
    return s3_tiles<AF, BF, CV_E8M0>(p, s, st, ran, msg, msg_len);
}

} /* namespace */

int
smma_sm80_bs_small3_launch(const smma_gpu_gemm_args *x, int *ran, char *msg, size_t msg_len)
{
    sm80_params p = sm80_params_of(x);
    const smma_gemm_shape *sh = &x->shape;
    cudaStream_t st = (cudaStream_t) x->stream;
    const int ue4m3 = sh->scale_fmt == SMMA_UE4M3;
    s3_params s;

    *ran = 0;
    s.sa = (const uint8_t *) x->sa;
    s.sb = (const uint8_t *) x->sb;
    s.kb = (uint32_t) ((sh->k + sh->vec - 1) / sh->vec);
    s.kb_pad = (s.kb + 3) / 4 * 4;
    s.layout = x->scale_layout == SMMA_SL_128X4;
    s.b_row = sh->b_fmt == SMMA_E2M1 ? p.ldb / 2 : p.ldb;
    s.b_kbytes = sh->b_fmt == SMMA_E2M1 ? p.k / 2 : p.k;
    s.a_row = sh->a_fmt == SMMA_E2M1 ? p.lda / 2 : sh->a_fmt == SMMA_BF16 ? 2 * p.lda : p.lda;
    s.a_kbytes = sh->a_fmt == SMMA_E2M1 ? p.k / 2 : sh->a_fmt == SMMA_BF16 ? 2 * p.k : p.k;
    if (sh->vec != (ue4m3 ? 16u : 32u) || (ue4m3 && sh->b_fmt != SMMA_E2M1))
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-small version 3: "
                            "%s scales per %zu are not built", ue4m3 ? "ue4m3" : "e8m0",
                            (size_t) sh->vec);
    return cv_fast_pair(
        sh->a_fmt, sh->b_fmt, "sm80-bs-small",
        [&](auto af, auto bf) {
            return s3_pair<decltype(af)::value, decltype(bf)::value>(p, s, ue4m3, st, ran, msg,
                                                                     msg_len);
        },
        msg, msg_len);
}
