/*
 * tests/gpu/zero-sign-t.c - the sign of a zero sum on the tensor cores of
 * an sm_90 GPU: wgmma.mma_async m64n8k16 (bf16, f16) and m64n8k32 (e4m3),
 * and mma.sync m16n8k16 (bf16, f16; f16 with an f16 accumulator) and
 * m16n8k32 (e4m3), each with every
 * element of A, B and C the same code, so that every output is the same
 * dot product whatever the register layouts:
 *   - C = -0 and every product -0 (A -0, B 1): IEEE 754 would give -0;
 *   - C = +0 and every product -0; C = -0 and every product +0;
 *   - C = -0 and every product -0 but some +0 (the high half or byte of
 *     A's register 3: +0 under either rule, the probe's control);
 *   - wgmma with scale-d 0 (C ignored) and every product -0;
 *   - C = -1 and every product 1 (K - 1: not a zero, the probe's sanity).
 * Each output must equal smma_dot under the instruction's model (h100-bf16,
 * h100-fp8 for wgmma e4m3, h100-fp8-mma-sync for mma.sync e4m3,
 * h100-f16acc for the f16 accumulator), whose
 * zero_plus gives +0 for a block of zeros (doc/models.md, "Special values").
 *
 * Skips without CUDA or a device, and on a device other than sm_90 (the
 * models are those of the H100/H200).
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/gemm.h>

#include "tap/basic.h"

#ifndef HAVE_CUDA

int
main(void)
{
    skip_all("CUDA not configured (configure found no working nvcc, or --without-cuda)");
}

#else

#include "../../sim/softmma/wgmma_addr.h"
#include "probes/probes.h"
#include "probes/wgmma_probe.h"

/* One instruction: its probe, format, K, one code of 1, its model, and
 * whether it accumulates in fp16 (C and D fp16, two to a register). */
struct instr {
    const char *name;
    bool wgmma;
    int id;
    smma_format f;
    unsigned k;
    uint32_t one;
    const char *model;
    bool f16acc;
};

static const struct instr instrs[] = {
    { "wgmma m64n8k16 bf16", true, SMMA_GPU_WGMMA_M64N8K16_BF16, SMMA_BF16, 16, 0x3f80,
      "h100-bf16", false },
    { "wgmma m64n8k16 f16", true, SMMA_GPU_WGMMA_M64N8K16_F16, SMMA_FP16, 16, 0x3c00,
      "h100-bf16", false },
    { "wgmma m64n8k32 e4m3", true, SMMA_GPU_WGMMA_M64N8K32_E4M3_E4M3, SMMA_E4M3, 32, 0x38,
      "h100-fp8", false },
    { "mma.sync m16n8k16 bf16", false, SMMA_GPU_MMA_M16N8K16_BF16, SMMA_BF16, 16, 0x3f80,
      "h100-bf16", false },
    { "mma.sync m16n8k16 f16", false, SMMA_GPU_MMA_M16N8K16_F16, SMMA_FP16, 16, 0x3c00,
      "h100-bf16", false },
    { "mma.sync m16n8k32 e4m3", false, SMMA_GPU_MMA_M16N8K32_E4M3, SMMA_E4M3, 32, 0x38,
      "h100-fp8-mma-sync", false },
    { "mma.sync m16n8k16 f16 (f16 accumulator)", false, SMMA_GPU_MMA_M16N8K16_F16_F16,
      SMMA_FP16, 16, 0x3c00, "h100-f16acc", true },
};

/* One case: A's code, A's last k (as a code), B's, C's fp32 bits, scale-d. */
struct zcase {
    const char *what;
    bool a_neg_zero, last_pos_zero, a_one;
    uint32_t c;
    bool no_acc;
};

static const struct zcase cases[] = {
    { "C -0, every product -0", true, false, false, 0x80000000u, false },
    { "C +0, every product -0", true, false, false, 0x00000000u, false },
    { "C -0, every product +0", false, false, false, 0x80000000u, false },
    { "C -0, every product -0 but some +0", true, true, false, 0x80000000u, false },
    { "scale-d 0, every product -0", true, false, false, 0x3f800000u, true },
    { "C -1, every product 1", false, false, true, 0xbf800000u, false },
};

/* The code of element kk of A in case zc. */
static uint32_t
a_code(const struct instr *in, const struct zcase *zc, unsigned kk)
{
    uint32_t neg_zero = in->f == SMMA_E4M3 ? 0x80 : 0x8000;

    if (zc->a_one)
        return in->one;
    if (zc->last_pos_zero && kk == in->k - 1)
        return 0;
    return zc->a_neg_zero ? neg_zero : 0;
}

/* Register r of A of a lane (mma.sync) or thread (wgmma): every element
 * a_code(.., 0), but the highest half (byte) of register 3 a_code(.., k -
 * 1) (the +0 of the control case; which k it holds does not matter). */
static uint32_t
a_reg(const struct instr *in, const struct zcase *zc, unsigned r)
{
    uint32_t v = 0;
    unsigned e, per = in->f == SMMA_E4M3 ? 4 : 2, bits = 32 / per;

    for (e = 0; e < per; e++) {
        bool last = r == 3 && e == per - 1;

        v |= (last ? a_code(in, zc, in->k - 1) : a_code(in, zc, 0)) << (bits * e);
    }
    return v;
}

static void
run(const struct instr *in, const struct zcase *zc)
{
    static uint32_t ar[128 * 4], cr[128 * 4], dr[128 * 4];
    static uint8_t bs[256];
    uint32_t a[32], b[32], want, bad = 0, first = 0;
    unsigned per = in->f == SMMA_E4M3 ? 4 : 2, i, n;
    const smma_model *model = tap_model(in->model);
    smma_gemm_shape s;
    char msg[256] = "";
    int rc;

    /* C as fp16 for an fp16 accumulator (-0, +0 and -1 are fp16 numbers). */
    smma_cvt cvt = smma_cvt_default();
    uint32_t c = in->f16acc ? smma_encode(SMMA_FP16, smma_decode(SMMA_FP32, zc->c), &cvt)
                            : zc->c;

    memset(&s, 0, sizeof(s));
    s.a_fmt = s.b_fmt = in->f;
    s.scale_fmt = SMMA_NONE;
    s.vec = 32;
    s.c_fmt = zc->no_acc ? SMMA_NONE : in->f16acc ? SMMA_FP16 : SMMA_FP32;
    s.d_fmt = in->f16acc ? SMMA_FP16 : SMMA_FP32;
    s.m = s.n = 1;
    s.k = in->k;
    for (i = 0; i < in->k; i++) {
        a[i] = a_code(in, zc, i);
        b[i] = in->one;
    }
    want = smma_dot(model, &s, a, b, NULL, NULL, c);
    for (i = 0; i < 256; i++)
        bs[i] = (uint8_t) (per == 2 ? in->one >> (8 * (i % 2)) : in->one);
    if (in->wgmma) {
        uint64_t desc = smma_wgmma_desc_word(0, 128, 256, 0, SMMA_WGMMA_SW_NONE);

        for (i = 0; i < 128 * 4; i++) {
            ar[i] = a_reg(in, zc, i % 4);
            cr[i] = zc->c;
        }
        rc = smma_gpu_wgmma(in->id, zc->no_acc ? SMMA_GPU_WGMMA_NO_ACC : 0, ar, bs, 256, &desc,
                            cr, dr, 1, msg, sizeof(msg));
        n = 128 * 4;
    } else {
        uint32_t br[32 * 2];

        for (i = 0; i < 32 * 4; i++) {
            ar[i] = a_reg(in, zc, i % 4);
            /* fp16 accumulators: two a register, in slots 0 and 1 */
            cr[i] = !in->f16acc ? zc->c : i % 4 < 2 ? c * 0x10001u : 0;
        }
        for (i = 0; i < 32 * 2; i++)
            br[i] = per == 2 ? in->one * 0x10001u : in->one * 0x01010101u;
        rc = smma_gpu_mma(in->id, ar, br, cr, dr, 1, msg, sizeof(msg));
        n = 32 * 4;
    }
    if (rc != 0) {
        ok(false, "%s, %s: %s", in->name, zc->what, msg);
        return;
    }
    for (i = 0; i < n; i++) {
        bool diff = in->f16acc ? i % 4 < 2 && dr[i] != want * 0x10001u : dr[i] != want;

        if (diff && bad++ == 0)
            first = dr[i];
    }
    ok(bad == 0, "%s, %s: every output 0x%08lx as %s says (%u differ%s)", in->name, zc->what,
       (unsigned long) want, model->name, bad, bad ? ", the GPU gives" : "");
    if (bad)
        diag("%s, %s: the GPU gives 0x%08lx", in->name, zc->what, (unsigned long) first);
}

int
main(void)
{
    int major = 0, minor = 0, rc;
    char name[256] = "", msg[256] = "";
    size_t i, j;

    rc = smma_gpu_device_info(&major, &minor, name, sizeof(name), msg, sizeof(msg));
    if (rc != 0)
        skip_all("%s", msg);
    if (major != 9 || minor != 0)
        skip_all("the H100/H200 models need compute capability 9.0, the device has %d.%d",
                 major, minor);
    plan_lazy();
    diag("%s", name);
    for (i = 0; i < sizeof(instrs) / sizeof(instrs[0]); i++)
        for (j = 0; j < sizeof(cases) / sizeof(cases[0]); j++)
            if (instrs[i].wgmma || !cases[j].no_acc)
                run(&instrs[i], &cases[j]);
    smma_gpu_release();
    return exit_status();
}

#endif /* HAVE_CUDA */
