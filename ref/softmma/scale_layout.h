/*
 * softmma/scale_layout.h - where the block scale factors of one operand lie
 * in memory.
 *
 * A block-scaled operand with `rows` rows (M for A, N for B) and K elements
 * per row has one scale per V = 16 or 32 consecutive elements of a row:
 * a rows x Kb scale matrix with Kb = ceil(K / V) scale columns (the last
 * block of a row may be short).  Scale (m, kb) belongs to row m and elements
 * kb*V .. kb*V + V - 1.  A scale layout is the function that maps (m, kb)
 * to a byte offset in the stored array, and back.  Layouts other than
 * "linear" pad the matrix to whole tiles: the stored array then has bytes
 * that belong to no scale (padding), and smma_scale_pack writes the
 * caller's fill byte there.
 *
 * The layouts (doc/scale-layouts.md has pictures and the sources):
 *
 *   linear    Row-major rows x Kb, no padding:  off = m*Kb + kb.
 *
 *   128x4     cuBLAS "1D block scaling factors layout", CUTLASS
 *             Sm1xxBlockScaledConfig, PTX tcgen05 scale-factor layout.
 *             Rows padded to a multiple of 128 and Kb to a multiple of 4
 *             (Kb' below); 512-byte tiles of 128 rows x 4 scale columns,
 *             ordered K-first:
 *               off = ((m/128)*(Kb'/4) + kb/4)*512
 *                     + (m%32)*16 + ((m/32)%4)*4 + kb%4.
 *
 *   triton5d  The Triton tutorial's 5-D tensor (python/tutorials/
 *             10-block-scaled-matmul.py) of shape (R'/128, Kb'/4, 32, 4, 4),
 *             stored row-major, which the tutorial turns back into the
 *             (R', Kb') matrix with .permute(0, 3, 2, 1, 4).reshape(R', Kb').
 *             Element [a][b][c][d][e] is scale (m, kb) with
 *               m = a*128 + d*32 + c,   kb = b*4 + e,
 *             at  off = a*(Kb'/4)*512 + b*512 + c*16 + d*4 + e.
 *             Substituting a = m/128, d = (m/32)%4, c = m%32, b = kb/4,
 *             e = kb%4 gives the 128x4 formula term by term: the two are
 *             the same bytes, with the same padding; triton5d adds the 5-D
 *             index (smma_scale_triton5d_index).
 *
 *   cdna4-16  AMD CDNA4 (gfx950, MI350/MI355) scale pre-shuffle for
 *             V_MFMA_SCALE_F32_16X16X128_F8F6F4, exactly as Triton's
 *             shuffle_scales_cdna4(scales, mfma_nonkdim=16) in
 *             python/tutorials/10-block-scaled-matmul.py and
 *             python/test/unit/language/test_matmul.py:
 *               view(R'/32, 2, 16, Kb'/8, 2, 4, 1)
 *               .permute(0, 3, 5, 2, 4, 1, 6).contiguous()
 *             with rows padded to a multiple of 32 and Kb to a multiple
 *             of 8.  AITER's e8m0_shuffle (aiter/utility/fp4_utils.py) and
 *             rocm-libraries' preSwizzleScalesGFX950 (mxDataGenerator/
 *             PreSwizzle.hpp) apply the same permutation:
 *               off = (m/32)*(Kb'*32) + (kb/8)*256 + (kb%4)*64
 *                     + (m%16)*4 + ((kb%8)/4)*2 + (m%32)/16.
 *             Within each 256-byte chunk (32 rows x 8 scale columns) the
 *             dword of lane l = (kb%4)*16 + m%16 holds the scales of the
 *             four 16x16x128 MFMAs of a 32x256 tile in the order
 *             op0, op2, op1, op3 (op = 2*((m%32)/16) + (kb%8)/4).
 *
 *   cdna4-32  The same for V_MFMA_SCALE_F32_32X32X64_F8F6F4, Triton's
 *             shuffle_scales_cdna4(scales, mfma_nonkdim=32):
 *               view(R'/32, 32, Kb'/8, 4, 2, 1)
 *               .permute(0, 2, 4, 1, 3, 5).contiguous()
 *               off = (m/32)*(Kb'*32) + (kb/8)*256 + (kb%2)*128
 *                     + (m%32)*4 + (kb%8)/2.
 *             Lane l = (kb%2)*32 + m%32 holds in its dword the scales of
 *             the four 32x32x64 MFMAs op0..op3 (op = (kb%8)/2) in order.
 *
 *   The CDNA4 layouts take one e8m0 scale per 32 elements only (the
 *   scaled MFMAs support the OCP MX formats): they reject vec 16.
 *
 * Sizes and coordinates are size_t; every function checks its arguments
 * and reports overflow instead of wrapping.  Nothing here prints or exits.
 */
#ifndef SOFTMMA_SCALE_LAYOUT_H
#define SOFTMMA_SCALE_LAYOUT_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/format.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The layouts.  The numbering is part of the ABI. */
typedef enum smma_scale_layout {
    SMMA_SL_LINEAR = 0,
    SMMA_SL_128X4,
    SMMA_SL_TRITON5D,
    SMMA_SL_CDNA4_16,
    SMMA_SL_CDNA4_32,
    SMMA_SL_COUNT
} smma_scale_layout;

/* The geometry of one scale matrix in one layout, as computed by
 * smma_scale_layout_shape. */
typedef struct smma_scale_shape {
    smma_scale_layout layout;
    size_t rows;        /* rows of the scale matrix (M or N) */
    size_t k;           /* elements per row (K) */
    unsigned vec;       /* elements per scale (V: 16 or 32) */
    size_t kb;          /* scale columns: ceil(k / vec) */
    unsigned row_tile;  /* rows are padded to a multiple of this */
    unsigned col_tile;  /* scale columns are padded to a multiple of this */
    size_t rows_pad;    /* rows rounded up to row_tile */
    size_t kb_pad;      /* kb rounded up to col_tile */
    size_t bytes;       /* rows_pad * kb_pad: the size of the stored array */
} smma_scale_shape;

/* Looks up a layout by name: "linear", "128x4", "triton5d", "cdna4-16",
 * "cdna4-32" (case-insensitive).  Returns SMMA_OK and sets *out, or
 * SMMA_EINVAL with a message naming the unknown name and the known ones. */
int smma_scale_layout_from_name(const char *name, smma_scale_layout *out, smma_error *err);

/* Returns the canonical name of a layout ("?" when l is not a layout). */
const char *smma_scale_layout_name(smma_scale_layout l);

/* Computes the geometry of a rows x ceil(k / vec) scale matrix stored in
 * layout l.  Returns SMMA_OK and fills *out; SMMA_EINVAL (the message names
 * the argument) when l is not a layout, rows or k is 0, vec is neither 16
 * nor 32, vec is 16 for a CDNA4 layout, or out is NULL; SMMA_ERANGE when
 * the padded size does not fit in size_t. */
int smma_scale_layout_shape(smma_scale_layout l, size_t rows, size_t k, unsigned vec,
                            smma_scale_shape *out, smma_error *err);

/* Sets *bytes to the size in bytes of the stored array, padding included
 * (shape.bytes above).  Errors as smma_scale_layout_shape. */
int smma_scale_layout_size(smma_scale_layout l, size_t rows, size_t k, unsigned vec,
                           size_t *bytes, smma_error *err);

/* Sets *off to the byte offset of scale (m, kb), that is, of row m and scale
 * column kb, in the stored array.  Errors as smma_scale_layout_shape, and
 * SMMA_EINVAL when m >= rows or kb >= ceil(k / vec) (the message names m or
 * kb and the bound) or off is NULL. */
int smma_scale_offset(smma_scale_layout l, size_t rows, size_t k, unsigned vec, size_t m,
                      size_t kb, size_t *off, smma_error *err);

/* The inverse of smma_scale_offset over the whole stored array: sets *m and
 * *kb to the coordinate in the padded matrix (m < rows_pad, kb < kb_pad)
 * whose byte lies at offset off, and *is_padding to whether that coordinate
 * is outside the rows x ceil(k / vec) matrix (always false for linear).
 * Errors as smma_scale_layout_shape, and SMMA_EINVAL when off >= the size of
 * the array or an output pointer is NULL. */
int smma_scale_coord(smma_scale_layout l, size_t rows, size_t k, unsigned vec, size_t off,
                     size_t *m, size_t *kb, bool *is_padding, smma_error *err);

/* Stores a scale matrix in layout l.  linear holds rows * ceil(k / vec)
 * bytes, row-major (scale (m, kb) at linear[m * ceil(k / vec) + kb]); out
 * receives smma_scale_layout_size bytes: every scale at its offset and the
 * byte fill in every padding byte (callers who feed cuBLAS or AMD kernels
 * pass 0, which is what the softmma program uses; PreSwizzle.hpp pads with
 * zeros too).  The two arrays must not overlap.  Errors as
 * smma_scale_layout_shape, and SMMA_EINVAL when a pointer is NULL; on error
 * out is left untouched. */
int smma_scale_pack(smma_scale_layout l, size_t rows, size_t k, unsigned vec,
                    const uint8_t *linear, uint8_t *out, uint8_t fill, smma_error *err);

/* The inverse of smma_scale_pack: reads the rows * ceil(k / vec) scales of
 * the stored array in (smma_scale_layout_size bytes) into linear, row-major.
 * Padding bytes are not read.  Same errors as smma_scale_pack. */
int smma_scale_unpack(smma_scale_layout l, size_t rows, size_t k, unsigned vec,
                      const uint8_t *in, uint8_t *linear, smma_error *err);

/* The 5-D index [a][b][c][d][e] of scale (m, kb) in the Triton tutorial's
 * tensor of shape (R'/128, Kb'/4, 32, 4, 4): a = m/128, b = kb/4, c = m%32,
 * d = (m/32)%4, e = kb%4.  Errors as smma_scale_offset (the layout is
 * triton5d), and SMMA_EINVAL when idx is NULL. */
int smma_scale_triton5d_index(size_t rows, size_t k, unsigned vec, size_t m, size_t kb,
                              size_t idx[5], smma_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_SCALE_LAYOUT_H */
