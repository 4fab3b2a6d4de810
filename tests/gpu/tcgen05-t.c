/*
 * tests/gpu/tcgen05-t.c - tcgen05 on a Blackwell GPU against the simulator.
 *
 *   1. tcgen05.st then tcgen05.ld (gpu/probes/tcgen05_probe.cu): random
 *      TMEM contents stored with .32x32b.x32 are read back with six
 *      variants; every register of every thread is compared with the
 *      simulator's tcgen05.ld (smma_tmem_ld) of the same contents, one point
 *      per variant: this checks the ld layouts of softmma/tmem.h.
 *   2. One tcgen05.mma.kind::f16 M=128 N=8 from shared memory, D read back
 *      with tcgen05.ld.32x32b.x8: the shared memory image and descriptors
 *      are built with the simulator, and D is compared bit for bit with
 *      smma_tc05_mma_exec under b200-bf16 (the agreement of other models is
 *      printed): this checks the descriptors, the D placement and the
 *      numerics together.
 *
 * Skips without CUDA, without a device, or on a device that is not compute
 * capability 10.0 ("needs sm_100").  It has not yet run on such a device.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/tcgen05.h>
#include <softmma/tmem.h>

#include "tap/basic.h"

#ifndef HAVE_CUDA

int
main(void)
{
    skip_all("CUDA not configured (configure found no working nvcc, or --without-cuda)");
}

#else

#include "probes/tcgen05_probe.h"

static const char *const variant_names[SMMA_GPU_TC05_LD_COUNT] = {
    ".32x32b.x32", ".32x32b.x16.pack::16b", ".16x64b.x16", ".16x128b.x8", ".16x256b.x4",
    ".16x32bx2.x16 (split 16)",
};

static smma_tmem_ldst
variant(int v)
{
    static const smma_tmem_shape shapes[SMMA_GPU_TC05_LD_COUNT] = {
        SMMA_TMEM_32X32B, SMMA_TMEM_32X32B, SMMA_TMEM_16X64B, SMMA_TMEM_16X128B,
        SMMA_TMEM_16X256B, SMMA_TMEM_16X32BX2
    };
    static const unsigned nums[SMMA_GPU_TC05_LD_COUNT] = { 32, 16, 16, 8, 4, 16 };
    smma_tmem_ldst op;

    op.shape = shapes[v];
    op.num = nums[v];
    op.pack = v == SMMA_GPU_TC05_LD_32X32B_X16_PACK;
    op.half_off = op.shape == SMMA_TMEM_16X32BX2 ? 16 : 0;
    return op;
}

static void
test_ldst(smma_tmem *t)
{
    uint32_t *in = malloc(128 * 32 * sizeof(uint32_t));
    uint32_t *out = malloc(SMMA_GPU_TC05_LDST_OUT * sizeof(uint32_t));
    uint32_t regs[32 * 32];
    char msg[256];
    tap_rng rng;
    unsigned lane, col, i;
    int v, h, w, rc;

    if (in == NULL || out == NULL)
        sysbail("out of memory");
    tap_rng_seed(&rng, 0x7463303555ull);
    smma_tmem_init(t);
    for (lane = 0; lane < 128; lane++)
        for (col = 0; col < 32; col++)
            t->cell[lane][col] = in[lane * 32 + col] = (uint32_t) tap_rng_next(&rng);
    rc = smma_gpu_tcgen05_ldst(in, out, msg, sizeof(msg));
    if (rc != SMMA_GPU_OK)
        bail("tcgen05 ld/st probe: %s", msg);
    for (v = 0; v < SMMA_GPU_TC05_LD_COUNT; v++) {
        smma_tmem_ldst op = variant(v);
        unsigned nregs = smma_tmem_ldst_regs(&op), bad = 0;
        smma_error err;

        for (w = 0; w < 4; w++)
            for (h = 0; h < (op.shape == SMMA_TMEM_32X32B ? 1 : 2); h++) {
                uint32_t taddr = smma_tmem_addr(32 * w + 16 * h, 0);

                if (smma_tmem_ld(&op, t, (unsigned) w, taddr, regs, &err) != SMMA_OK)
                    bail("simulated ld: %s", err.msg);
                for (lane = 0; lane < 32; lane++)
                    for (i = 0; i < nregs; i++) {
                        uint32_t got = out[((((size_t) v * 2 + h) * 4 + w) * 32 + lane) * 32 + i];

                        if (got != regs[lane * nregs + i] && bad++ < 5)
                            diag("  %s warp %d half %d T%u r%u: GPU 0x%08lx, simulator 0x%08lx",
                                 variant_names[v], w, h, lane, i, (unsigned long) got,
                                 (unsigned long) regs[lane * nregs + i]);
                    }
            }
        ok(bad == 0, "tcgen05.ld%s: every register as the simulator's layout (%u differ)",
           variant_names[v], bad);
    }
    free(in);
    free(out);
}

static void
test_mma(smma_tmem *t)
{
    static const char *const others[] = { "exact-rn", "exact-rz", "h100-bf16", "fp32-fma-seq" };
    uint8_t *smem = calloc(SMMA_GPU_TC05_SMEM, 1);
    smma_tc05_layout la = { false, SMMA_TC05_SWIZZLE_NONE, 16, 2048, 128 };
    smma_tc05_layout lb = { false, SMMA_TC05_SWIZZLE_NONE, 16, 128, 256 };
    smma_tc05_sdesc sd;
    smma_tc05_idesc id;
    smma_tc05_mma op;
    smma_tc05_cta cta;
    smma_error err;
    uint32_t d[128 * 8], idw, byte;
    unsigned m, k, n, bit, bad = 0;
    char msg[256];
    tap_rng rng;
    size_t o;
    int rc;

    if (smem == NULL)
        sysbail("out of memory");
    /* K-major, no swizzle: A (128 x 16 bf16) at 0 with its two K halves
     * 2048 bytes apart, B (8 x 16) at 4096 with LBO 128. */
    tap_rng_seed(&rng, 0x6d6d6131ull);
    for (m = 0; m < 128; m++)
        for (k = 0; k < 16; k++) {
            uint32_t v = 0x3C00u + (uint32_t) (tap_rng_next(&rng) % 0x0800u) - 0x0400u;

            smma_tc05_smem_addr(&la, 0, m, k, &byte, &bit, NULL);
            v = (v & 0x7FFFu) | (tap_rng_next(&rng) & 1u) << 15;
            smem[byte] = (uint8_t) v;
            smem[byte + 1] = (uint8_t) (v >> 8);
        }
    for (n = 0; n < 8; n++)
        for (k = 0; k < 16; k++) {
            uint32_t v = 0x3F00u + (uint32_t) (tap_rng_next(&rng) % 0x0100u);

            smma_tc05_smem_addr(&lb, 4096, n, k, &byte, &bit, NULL);
            smem[byte] = (uint8_t) v;
            smem[byte + 1] = (uint8_t) (v >> 8);
        }
    memset(&id, 0, sizeof(id));
    id.d_fmt = SMMA_TC05_D_F32;
    id.a_fmt = id.b_fmt = SMMA_TC05_BF16;
    id.m = 128;
    id.n = 8;
    memset(&op, 0, sizeof(op));
    op.kind = SMMA_TC05_KIND_F16;
    op.cta_group = 1;
    if (smma_tc05_idesc_encode(SMMA_TC05_KIND_F16, &id, &idw, &err) != SMMA_OK)
        bail("%s", err.msg);
    op.idesc = idw;
    memset(&sd, 0, sizeof(sd));
    sd.lbo = la.lbo;
    sd.sbo = la.sbo;
    smma_tc05_sdesc_encode(&sd, &op.a_desc, NULL);
    sd.start = 4096;
    sd.lbo = lb.lbo;
    sd.sbo = lb.sbo;
    smma_tc05_sdesc_encode(&sd, &op.b_desc, NULL);
    rc = smma_gpu_tcgen05_mma_f16(smem, 8192, op.a_desc, op.b_desc, idw, d, msg, sizeof(msg));
    if (rc != SMMA_GPU_OK)
        bail("tcgen05.mma probe: %s", msg);
    cta.smem = smem;
    cta.smem_size = 8192;
    cta.tmem = t;
    for (o = 0; o <= sizeof(others) / sizeof(others[0]); o++) {
        const char *model = o == 0 ? "b200-bf16" : others[o - 1];
        unsigned agree = 0;

        smma_tmem_init(t);
        if (smma_tc05_mma_exec(&op, tap_model(model), &cta, &err) != SMMA_OK)
            bail("simulated mma: %s", err.msg);
        for (m = 0; m < 128; m++)
            for (n = 0; n < 8; n++) {
                if (d[m * 8 + n] == t->cell[m][n]) {
                    agree++;
                } else if (o == 0 && bad++ < 5) {
                    diag("  D[%u][%u]: GPU 0x%08lx (%a), simulator 0x%08lx (%a)", m, n,
                         (unsigned long) d[m * 8 + n], smma_decode(SMMA_FP32, d[m * 8 + n]),
                         (unsigned long) t->cell[m][n], smma_decode(SMMA_FP32, t->cell[m][n]));
                }
            }
        if (o == 0)
            ok(bad == 0, "tcgen05.mma.kind::f16 bf16 M128 N8: D equals the simulator under "
               "b200-bf16 (%u of 1024 differ)", bad);
        else
            diag("model %s agrees on %u of 1024 elements", model, agree);
    }
    free(smem);
}

int
main(void)
{
    int major = 0, minor = 0, rc;
    char name[128], msg[256];
    smma_tmem *t;

    rc = smma_gpu_device_info(&major, &minor, name, sizeof(name), msg, sizeof(msg));
    if (rc != SMMA_GPU_OK)
        skip_all("no CUDA device: %s", msg);
    if (major != 10 || minor != 0)
        skip_all("needs sm_100 (found sm_%d%d)", major, minor);
    plan(SMMA_GPU_TC05_LD_COUNT + 1);
    diag("device 0: %s (sm_%d%d)", name, major, minor);
    t = malloc(sizeof(*t));
    if (t == NULL)
        sysbail("out of memory");
    test_ldst(t);
    test_mma(t);
    free(t);
    return exit_status();
}

#endif /* HAVE_CUDA */
