/*
 * gpu/sm80/tile.cuh - the warp tile of the 128 x 256 mma.sync kernels
 * (sm80-v2, sm80-bs-large): 8 warps of 64 x 64, each a 4 x 8 grid of
 * m16n8k16 accumulators; their fragments read with ldmatrix.x4 from
 * swizzled shared-memory tiles of 128-byte rows (64 bf16 or f16 k); the C
 * start and the D epilogue.  The addresses come from sim/softmma/sm80.h.
 * CUDA C++ only.
 */
#ifndef SOFTMMA_GPU_SM80_TILE_CUH
#define SOFTMMA_GPU_SM80_TILE_CUH 1

#include "common.cuh"

namespace sm80tile {

constexpr int BM = 128, BN = 256, BK = 64; /* CTA tile, k per stage */
constexpr int THREADS = 256;
constexpr int ROW = BK * 2;                /* bytes of a K-major tile row */
constexpr int A_BYTES = BM * ROW;          /* 16 KB */
constexpr int B_BYTES = BN * ROW;          /* 32 KB */
/* Tile rows per group of the CTA order (smma_sm80_tile_of).  16: the 132
 * CTAs of a wave on an H100 cover about 16 x 8 tiles of 128 x 256, the
 * fewest rows of A and B for that many tiles (2048 + 2112 against 1024 +
 * 4224 with groups of 8); Nsight Compute at 8192^3 saw DRAM reads fall from
 * 1.49 to 1.23 GB a product (bench/sm80-kernels.md, sixth round). */
constexpr uint32_t GROUP = 16;

/* The fragments of one k16 step of a warp: 4 m16 tiles of A, 8 n8 tiles of
 * B. */
struct frags {
    uint32_t a[4][4];
    uint32_t b[8][2];
};

/* A from a K-major tile at shared address at, the lane's base from
 * smma_sm80_ldsm_a_base. */
__device__ __forceinline__ void
frags_a(uint32_t at, uint32_t base, int kk, frags &f)
{
    const uint32_t a = at + (base ^ (32u * kk));

#pragma unroll
    for (int mi = 0; mi < 4; mi++)
        ldsm_x4(a + smma_sm80_ldsm_step128(0, mi, 0), f.a[mi]);
}

/* B from a K-major tile (rows n), the lane's base from
 * smma_sm80_ldsm_bk_base. */
__device__ __forceinline__ void
frags_bk(uint32_t at, uint32_t base, int kk, frags &f)
{
#pragma unroll
    for (int nj = 0; nj < 4; nj++) {
        uint32_t r[4];

        ldsm_x4(at + smma_sm80_ldsm_step128(base, nj, kk), r);
        f.b[2 * nj][0] = r[0];
        f.b[2 * nj][1] = r[1];
        f.b[2 * nj + 1][0] = r[2];
        f.b[2 * nj + 1][1] = r[3];
    }
}

/* B from an N-major tile (rows k of row_bytes bytes), the lane's bases from
 * smma_sm80_ldsm_bn_base for the four n16 pairs. */
__device__ __forceinline__ void
frags_bn(uint32_t at, const uint32_t base[4], int kk, int row_bytes, frags &f)
{
#pragma unroll
    for (int nj = 0; nj < 4; nj++) {
        uint32_t r[4];

        ldsm_x4_trans(at + base[nj] + 16u * row_bytes * kk, r);
        f.b[2 * nj][0] = r[0];
        f.b[2 * nj][1] = r[1];
        f.b[2 * nj + 1][0] = r[2];
        f.b[2 * nj + 1][1] = r[3];
    }
}

/* The 32 mma of one k16 step: acc[mi][nj] += A(mi) B(nj), in a serpentine
 * order (the n8 tiles forward for even mi, backward for odd), so that each
 * mma shares a source fragment with the one before and ptxas can mark it
 * for the operand reuse cache: fewer register-file reads per mma.  The
 * accumulators are independent, so the order changes no result.  ptxas
 * still reorders part of it: of the 128 mma of sm80-v2's k tile, 92 carry
 * a reuse flag (80 in row order, 124 in CUTLASS's loop); about 1% faster
 * at 4096^3 (bench/sm80-kernels.md, sixth round). */
template <bool FP16>
__device__ __forceinline__ void
mma_step(float (&acc)[4][8][4], const frags &f)
{
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int j = 0; j < 8; j++) {
            const int nj = mi % 2 ? 7 - j : j;

            mma16816<FP16>(acc[mi][nj], f.a[mi], f.b[nj]);
        }
}

/* In the k16 step starting at k = k16, the A registers holding k >= K
 * (pairs: K is a multiple of 8) become -0, the identity of the sum. */
__device__ __forceinline__ void
mask_tail(frags &f, uint32_t k16, uint32_t k, unsigned lane)
{
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int r = 0; r < 4; r++)
            if (k16 + smma_frag_a_col(lane, r, 0, 2, 16) >= k)
                f.a[mi][r] = 0x80008000u;
}

/* The accumulators start as C (or +0); (i0, j0) is the warp tile's origin. */
__device__ __forceinline__ void
acc_init(const sm80_params &p, uint32_t i0, uint32_t j0, unsigned lane,
         float (&acc)[4][8][4])
{
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int nj = 0; nj < 8; nj++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                uint32_t i = i0 + 16 * mi + smma_frag_cd_row(lane, r);
                uint32_t j = j0 + 8 * nj + smma_frag_cd_col(lane, r);

                acc[mi][nj][r] = i < p.m && j < p.n ? epi_c(p, i, j) : 0.0f;
            }
}

/* Stores the warp tile of D. */
__device__ __forceinline__ void
store_d(const sm80_params &p, uint32_t i0, uint32_t j0, unsigned lane,
        const float (&acc)[4][8][4])
{
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int nj = 0; nj < 8; nj++)
#pragma unroll
            for (int r = 0; r < 4; r += 2) {
                uint32_t i = i0 + 16 * mi + smma_frag_cd_row(lane, r);
                uint32_t j = j0 + 8 * nj + smma_frag_cd_col(lane, r);

                if (i < p.m && j < p.n)
                    epi_store(p, i, j, acc[mi][nj][r], acc[mi][nj][r + 1], j + 1 < p.n);
            }
}

/* Whether the current device gives a block `bytes` of shared memory (its
 * opt-in limit); false where the device cannot be asked. */
__host__ inline bool
device_holds_smem(int bytes)
{
    int dev = 0, optin = 0;

    return cudaGetDevice(&dev) == cudaSuccess &&
           cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) ==
               cudaSuccess &&
           optin >= bytes;
}

/* Raises the dynamic shared memory limit of KERNEL once per device. */
template <auto KERNEL>
__host__ int
raise_smem(int bytes, const char *name, char *msg, size_t msg_len)
{
    static int raised[64];
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);

    if (e == cudaSuccess && (dev < 0 || dev >= 64 || !raised[dev])) {
        e = cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
        if (e == cudaSuccess && dev >= 0 && dev < 64)
            raised[dev] = 1;
    }
    if (e != cudaSuccess)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_ECUDA, "%s: cudaFuncSetAttribute: "
                            "%s (%s)", name, cudaGetErrorString(e), cudaGetErrorName(e));
    return SMMA_GPU_STATUS_OK;
}

} /* namespace sm80tile */

#endif /* SOFTMMA_GPU_SM80_TILE_CUH */
