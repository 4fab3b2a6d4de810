/*
 * gpu/storage.c - how the GPU kernels store their operands (softmma/gpu.h):
 * the size of a stored matrix and the packing of codes into it.
 */
#include <config.h>

#include <string.h>

#include "gemm_internal.h"

/* Bits of storage per element of f, or 0 for a format the kernels do not
 * take as an element. */
static unsigned
storage_bits(smma_format f)
{
    switch (f) {
    case SMMA_BF16:
    case SMMA_FP16:
        return 16;
    case SMMA_E4M3:
    case SMMA_E5M2:
    case SMMA_E2M3:
    case SMMA_E3M2:
        return 8;
    case SMMA_E2M1:
        return 4;
    default:
        return 0;
    }
}

size_t
smma_gpu_matrix_bytes(smma_format f, size_t rows, size_t ld)
{
    return rows * ld * storage_bits(f) / 8;
}

int
smma_gpu_pack_matrix(smma_format f, const uint32_t *codes, size_t rows, size_t cols, size_t ld,
                     void *out, char *msg, size_t len)
{
    unsigned bits = storage_bits(f);
    size_t r, c;

    if (bits == 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s is not an element format of "
                            "the kernels", smma_format_name(f));
    if (ld < cols || (bits == 4 && ld % 2 != 0) || codes == NULL || out == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "ld = %zu must be at least cols "
                            "= %zu (and even for e2m1), and the arrays given", ld, cols);
    memset(out, 0, smma_gpu_matrix_bytes(f, rows, ld));
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++) {
            uint32_t v = codes[r * cols + c];
            size_t at = r * ld + c;

            if (bits == 16)
                ((uint16_t *) out)[at] = (uint16_t) v;
            else if (bits == 8)
                ((uint8_t *) out)[at] = (uint8_t) (f == SMMA_E2M3 || f == SMMA_E3M2 ? v & 0x3f
                                                                                   : v);
            else
                ((uint8_t *) out)[at / 2] |= (uint8_t) ((v & 0xf) << (at % 2 ? 4 : 0));
        }
    return SMMA_GPU_STATUS_OK;
}
