/*
 * tests/gpu/gemm-check-t.c - the host-side rules of the GPU GEMM kernels
 * (softmma/gpu.h), which need no GPU: kernel names, which kernel takes which
 * problem on which compute capability and why the others are refused, the
 * model each kernel follows per device, the storage of operands, and
 * sm80-v2's tuning knobs.  Runs on every machine, with or without CUDA.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <softmma/gpu.h>

#include "../../gpu/gemm_internal.h"
#include "../../gpu/kernels.h"
#include "../../gpu/sm90/sm90.h"

#include "tap/basic.h"

/* A checked-looking problem: bf16, M x N x K, A K-major, B K-major, 16-byte
 * aligned (fake) pointers, D fp32. */
static smma_gpu_gemm_args
bf16_args(size_t m, size_t n, size_t k)
{
    smma_gpu_gemm_args x;

    memset(&x, 0, sizeof(x));
    x.shape.a_fmt = x.shape.b_fmt = SMMA_BF16;
    x.shape.scale_fmt = SMMA_NONE;
    x.shape.vec = 32;
    x.shape.c_fmt = SMMA_NONE;
    x.shape.d_fmt = SMMA_FP32;
    x.shape.m = m;
    x.shape.n = n;
    x.shape.k = k;
    x.a = (const void *) 0x1000;
    x.b = (const void *) 0x2000;
    x.d = (void *) 0x3000;
    x.a_kmajor = x.b_kmajor = true;
    x.lda = x.ldb = (k + 7) / 8 * 8;
    x.ldd = n;
    x.ldc = n;
    x.kernel = SMMA_GPU_AUTO;
    return x;
}

/* Checks that the rules refuse x on major.minor with status st and a
 * message containing `has`. */
static void
refuses(const smma_gpu_gemm_args *x, int major, int minor, int st, const char *has,
        const char *what)
{
    char msg[256] = "";
    smma_gpu_kernel k = SMMA_GPU_AUTO;
    int rc = smma_gpu_gemm_check(x, major, minor, &k, msg, sizeof(msg));

    ok(rc == st && strstr(msg, has) != NULL, "refused: %s (%d: %s)", what, rc, msg);
}

static void
chooses(const smma_gpu_gemm_args *x, int major, int minor, smma_gpu_kernel want,
        const char *what)
{
    char msg[256] = "";
    smma_gpu_kernel k = SMMA_GPU_KERNEL_COUNT;
    int rc = smma_gpu_gemm_check(x, major, minor, &k, msg, sizeof(msg));

    ok(rc == SMMA_GPU_STATUS_OK && k == want, "%s on %d.%d: %s (%s)", what, major, minor,
       smma_gpu_kernel_name(k), msg);
}

static void
test_names(void)
{
    smma_gpu_kernel k;
    smma_error err;
    unsigned i;
    bool all = true;

    for (i = 0; i < SMMA_GPU_KERNEL_COUNT; i++)
        all &= smma_gpu_kernel_from_name(smma_gpu_kernel_name((smma_gpu_kernel) i), &k, &err) ==
                   SMMA_OK &&
               k == (smma_gpu_kernel) i;
    ok(all, "every kernel name looks itself up");
    is_string("sm80-v2", smma_gpu_kernel_name(SMMA_GPU_SM80_V2), "name of sm80-v2");
    is_string("?", smma_gpu_kernel_name(SMMA_GPU_KERNEL_COUNT), "name of a bad kernel");
    ok(smma_gpu_kernel_from_name("sm80-v9", &k, &err) == SMMA_EINVAL &&
           strstr(err.msg, "sm80-v9") != NULL && strstr(err.msg, "sm80-v1") != NULL,
       "an unknown kernel is refused, naming it and the known ones: %s", err.msg);
}

static void
test_choice(void)
{
    smma_gpu_gemm_args x = bf16_args(8192, 8192, 8192);

    chooses(&x, 9, 0, SMMA_GPU_SM90_V2, "auto, 8192^3 bf16");
    chooses(&x, 8, 0, SMMA_GPU_SM80_V2, "auto, 8192^3 bf16 (3 stages)");
    chooses(&x, 8, 6, SMMA_GPU_SM80_V1, "auto, 8192^3 bf16 (99 KB of shared memory)");
    x.kernel = SMMA_GPU_SM80_V2;
    refuses(&x, 8, 9, SMMA_GPU_STATUS_EARCH, "shared memory", "sm80-v2 on 8.9");
    refuses(&x, 7, 5, SMMA_GPU_STATUS_EARCH, "8.0", "compute capability 7.5");
    x.kernel = SMMA_GPU_SM80_V1;
    chooses(&x, 9, 0, SMMA_GPU_SM80_V1, "sm80-v1 asked for");

    x = bf16_args(100, 200, 12);
    chooses(&x, 9, 0, SMMA_GPU_SM90_V2, "auto, k = 12");
    chooses(&x, 8, 0, SMMA_GPU_SM80_V1, "auto, k = 12");
    x.kernel = SMMA_GPU_SM80_V2;
    x.lda = x.ldb = 16;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "k = 12 must be a multiple of 8", "sm80-v2, k 12");

    x = bf16_args(100, 200, 64);
    x.kernel = SMMA_GPU_SM80_V2;
    x.a_kmajor = false;
    x.lda = 104;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "K-major", "sm80-v2, M-major A");
    x.kernel = SMMA_GPU_SM80_V1;
    chooses(&x, 9, 0, SMMA_GPU_SM80_V1, "sm80-v1, M-major A");
    x.kernel = SMMA_GPU_AUTO;
    chooses(&x, 9, 0, SMMA_GPU_SM80_V1, "auto, M-major A");

    x = bf16_args(100, 200, 64);
    x.kernel = SMMA_GPU_SM80_V2;
    x.lda = 68;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "multiples of 8", "sm80-v2, lda 68");
    x = bf16_args(100, 200, 64);
    x.kernel = SMMA_GPU_SM80_V2;
    x.b = (const void *) 0x2008;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "16-byte", "sm80-v2, B 8-byte aligned");
    x.b_kmajor = false;
    x.b = (const void *) 0x2000;
    x.ldb = 200;
    chooses(&x, 9, 0, SMMA_GPU_SM80_V2, "sm80-v2, N-major B");
}

/* Why AUTO chooses what it chooses: msg on success. */
static void
because(const smma_gpu_gemm_args *x, int major, int minor, bool sm90a, smma_gpu_kernel want,
        const char *has, const char *what)
{
    char msg[256] = "";
    smma_gpu_kernel k = SMMA_GPU_KERNEL_COUNT;
    int rc = smma_gpu_gemm_check_ex(x, major, minor, smma_gpu_smem_optin(major, minor), sm90a,
                                    &k, msg, sizeof(msg));

    ok(rc == SMMA_GPU_STATUS_OK && k == want && strstr(msg, has) != NULL,
       "%s on %d.%d: %s, because \"%s\"", what, major, minor, smma_gpu_kernel_name(k), msg);
}

static void
test_sm90(void)
{
    smma_gpu_gemm_args x = bf16_args(4096, 4096, 4096);
    const char *m = NULL;
    char msg[256] = "";
    int rc;

    /* Asked for by name: compute capability 9.0 alone, sm90-v1 and sm90-v2
     * take what smma_sm90_check takes (tests/sim/sm90-dry-t tests it). */
    x.kernel = SMMA_GPU_SM90_V2;
    chooses(&x, 9, 0, SMMA_GPU_SM90_V2, "sm90-v2 asked for");
    refuses(&x, 10, 0, SMMA_GPU_STATUS_EARCH, "9.0 (wgmma, sm_90a)", "sm90-v2 on 10.0");
    refuses(&x, 8, 0, SMMA_GPU_STATUS_EARCH, "the device has 8.0", "sm90-v2 on 8.0");
    x.kernel = SMMA_GPU_SM90_V1;
    chooses(&x, 9, 0, SMMA_GPU_SM90_V1, "sm90-v1 asked for");
    x.shape.a_fmt = x.shape.b_fmt = SMMA_FP16;
    chooses(&x, 9, 0, SMMA_GPU_SM90_V1, "sm90-v1, fp16");
    x.lda = 4100;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "lda = 4100", "sm90-v1, lda 4100");

    /* AUTO, and why. */
    x = bf16_args(4096, 4096, 4096);
    because(&x, 9, 0, true, SMMA_GPU_SM90_V2, "wgmma", "auto, 4096^3");
    because(&x, 9, 0, false, SMMA_GPU_SM80_V2, "no sm_90a code", "auto without sm_90a code");
    because(&x, 8, 0, true, SMMA_GPU_SM80_V2, "mma.sync", "auto, 4096^3");
    x.a_kmajor = false;
    because(&x, 9, 0, true, SMMA_GPU_SM80_V1, "K-major", "auto, M-major A");
    x = bf16_args(100, 200, 64);
    x.lda = 68;
    because(&x, 9, 0, true, SMMA_GPU_SM80_V1, "lda = 68", "auto, lda 68");
    x = bf16_args(100, 200, 64);
    x.a = (const void *) 0x1008;
    because(&x, 9, 0, true, SMMA_GPU_SM80_V1, "16-byte", "auto, A 8-byte aligned");
    x = bf16_args(100, 200, 64);
    x.kernel = SMMA_GPU_SM80_V2;
    chooses(&x, 9, 0, SMMA_GPU_SM80_V2, "sm80-v2 asked for on 9.0");

    /* Their model: h100-bf16 on 9.0, for bf16 and fp16. */
    x = bf16_args(64, 64, 64);
    rc = smma_gpu_gemm_model(SMMA_GPU_SM90_V2, &x.shape, 9, 0, &m, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && m != NULL && strcmp(m, "h100-bf16") == 0,
       "sm90-v2 on 9.0 follows h100-bf16");
    x.shape.a_fmt = x.shape.b_fmt = SMMA_FP16;
    rc = smma_gpu_gemm_model(SMMA_GPU_SM90_V1, &x.shape, 9, 0, &m, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && m != NULL && strcmp(m, "h100-bf16") == 0,
       "sm90-v1 with fp16 on 9.0 follows h100-bf16");
    rc = smma_gpu_gemm_model(SMMA_GPU_SM90_V2, &x.shape, 10, 0, &m, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_EARCH && strstr(msg, "9.0") != NULL,
       "sm90-v2 has no model on 10.0: %s", msg);
}

static void
test_common(void)
{
    smma_gpu_gemm_args x = bf16_args(64, 64, 64);

    x.shape.c_fmt = SMMA_BF16;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "C must be fp32", "C in bf16");
    x = bf16_args(64, 64, 64);
    x.lda = 32;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "lda = 32", "lda < k");
    x = bf16_args(64, 64, 64);
    x.ldd = 10;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "ldd", "ldd < n");
    x = bf16_args(64, 64, 64);
    x.shape.m = 0;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "m", "m = 0");
    x = bf16_args(64, 64, 64);
    x.shape.b_fmt = SMMA_FP16;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "bf16 x fp16", "bf16 x fp16");
    x = bf16_args(64, 64, 64);
    x.kernel = (smma_gpu_kernel) 99;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "99", "kernel 99");
    ok(smma_gpu_gemm_check(NULL, 9, 0, NULL, NULL, 0) == SMMA_GPU_STATUS_EINVAL,
       "NULL arguments refused");
}

static void
test_models(void)
{
    static const struct {
        int major, minor;
        const char *model;
    } want[] = { { 8, 0, "a100-bf16" }, { 8, 9, "ada-bf16" }, { 9, 0, "h100-bf16" },
                 { 10, 0, "b200-bf16" }, { 8, 6, NULL }, { 12, 0, NULL } };
    smma_gpu_gemm_args x = bf16_args(64, 64, 64);
    size_t i;

    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const char *m = NULL;
        char msg[256] = "";
        int rc = smma_gpu_gemm_model(SMMA_GPU_SM80_V2, &x.shape, want[i].major, want[i].minor,
                                     &m, msg, sizeof(msg));

        if (want[i].model != NULL)
            ok(rc == SMMA_GPU_STATUS_OK && m != NULL && strcmp(m, want[i].model) == 0,
               "sm80-v2 on %d.%d follows %s", want[i].major, want[i].minor, want[i].model);
        else
            ok(rc == SMMA_GPU_STATUS_EARCH && strstr(msg, "no model") != NULL,
               "sm80-v2 on %d.%d has no model: %s", want[i].major, want[i].minor, msg);
    }
}

static void
test_storage(void)
{
    const uint32_t fp4[6] = { 0x1, 0x2, 0x3, 0xf, 0x8, 0x7 };
    const uint32_t fp6[3] = { 0x3f, 0x21, 0x15 };
    const uint32_t b16[2] = { 0x3f80, 0xc000 };
    uint8_t out[16];
    uint16_t o16[4];
    char msg[256];

    memset(out, 0xee, sizeof(out));
    ok(smma_gpu_pack_matrix(SMMA_E2M1, fp4, 2, 3, 4, out, msg, sizeof(msg)) == 0 &&
           out[0] == 0x21 && out[1] == 0x03 && out[2] == 0x8f && out[3] == 0x07,
       "e2m1: two codes per byte, the even one low, rows padded with zeros (%02x %02x %02x "
       "%02x)", out[0], out[1], out[2], out[3]);
    is_int(4, (long long) smma_gpu_matrix_bytes(SMMA_E2M1, 2, 4), "bytes of 2 x 4 e2m1");
    ok(smma_gpu_pack_matrix(SMMA_E2M1, fp4, 2, 3, 3, out, msg, sizeof(msg)) ==
           SMMA_GPU_STATUS_EINVAL && strstr(msg, "even") != NULL,
       "e2m1 with an odd ld is refused: %s", msg);
    ok(smma_gpu_pack_matrix(SMMA_E2M3, fp6, 1, 3, 3, out, msg, sizeof(msg)) == 0 &&
           out[0] == 0x3f && out[1] == 0x21 && out[2] == 0x15,
       "e2m3: one code per byte");
    ok(smma_gpu_pack_matrix(SMMA_BF16, b16, 1, 2, 4, o16, msg, sizeof(msg)) == 0 &&
           o16[0] == 0x3f80 && o16[1] == 0xc000 && o16[2] == 0 && o16[3] == 0,
       "bf16: two bytes per element, padded with zeros");
    ok(smma_gpu_pack_matrix(SMMA_E8M0, b16, 1, 2, 4, out, msg, sizeof(msg)) ==
           SMMA_GPU_STATUS_EINVAL && strstr(msg, "e8m0") != NULL,
       "e8m0 is no element format: %s", msg);
}

/* A block-scaled problem: A, B of formats a, b, e8m0 scales per 32. */
static smma_gpu_gemm_args
bs_args(smma_format a, smma_format b, size_t m, size_t n, size_t k)
{
    smma_gpu_gemm_args x = bf16_args(m, n, k);

    x.shape.a_fmt = a;
    x.shape.b_fmt = b;
    x.shape.scale_fmt = SMMA_E8M0;
    x.shape.vec = 32;
    x.lda = x.ldb = (k + 31) / 32 * 32;
    x.sa = (const void *) 0x4000;
    x.sb = (const void *) 0x5000;
    x.scale_layout = SMMA_SL_128X4;
    return x;
}

static void
test_scaled(void)
{
    smma_gpu_gemm_args x = bs_args(SMMA_E4M3, SMMA_E4M3, 8192, 8192, 8192);

    chooses(&x, 9, 0, SMMA_GPU_SM90_BS, "auto, mxfp8 8192^3 (sm_90a: sm90-bs)");
    {
        smma_gpu_kernel k = SMMA_GPU_AUTO;
        char msg[256] = "";
        int rc = smma_gpu_gemm_check_ex(&x, 9, 0, 232448, false, &k, msg, sizeof(msg));

        ok(rc == SMMA_GPU_STATUS_OK && k == SMMA_GPU_SM80_BS_LARGE, "auto, mxfp8 8192^3 without "
           "sm_90a code: %s %s", smma_gpu_kernel_name(k), msg);
    }
    /* Where AUTO takes sm90-mixed: 17 .. 128 rows of X, at least 4096 of
     * W, either way; sm90-bs past that. */
    x.shape.m = 17;
    chooses(&x, 9, 0, SMMA_GPU_SM90_MIXED, "auto, mxfp8 m = 17");
    x.shape.m = 129;
    chooses(&x, 9, 0, SMMA_GPU_SM90_BS, "auto, mxfp8 m = 129");
    x.shape.m = 17;
    ok(smma_sm90_mx_auto(&x), "sm90-mixed's place fits mxfp8 m = 17");
    x.shape.m = 128;
    ok(smma_sm90_mx_auto(&x), "sm90-mixed's place fits m = 128");
    x.shape.m = 129;
    ok(!smma_sm90_mx_auto(&x), "sm90-mixed's place does not fit m = 129");
    x.shape.m = 16;
    ok(!smma_sm90_mx_auto(&x), "sm90-mixed's place does not fit m = 16");
    x.shape.m = 32;
    x.shape.n = 2048;
    ok(!smma_sm90_mx_auto(&x), "sm90-mixed's place does not fit 32 x 2048 (fewer than 4096 "
       "rows of W)");
    x.shape.m = 8192;
    x.shape.n = 64;
    ok(smma_sm90_mx_auto(&x), "sm90-mixed's place fits 8192 x 64 (the weights as A)");
    x.shape.n = 8192;
    x.shape.m = 16;
    chooses(&x, 9, 0, SMMA_GPU_SM80_BS_SMALL, "auto, mxfp8 m = 16");
    x.shape.m = 8192;
    chooses(&x, 8, 0, SMMA_GPU_SM80_BS_V1, "auto, mxfp8 on 8.0 (163 KB of shared memory)");
    x.kernel = SMMA_GPU_SM80_BS_LARGE;
    refuses(&x, 8, 0, SMMA_GPU_STATUS_EARCH, "shared memory", "sm80-bs-large on 8.0");
    x = bs_args(SMMA_E2M1, SMMA_E2M1, 1, 28672, 8192);
    chooses(&x, 9, 0, SMMA_GPU_SM80_BS_SMALL, "auto, mxfp4 m = 1");
    /* sm80-bs-small permutes k inside 16-k blocks: not on 8.x, whose
     * tensor cores sum blocks of 8 */
    chooses(&x, 8, 9, SMMA_GPU_SM80_BS_V1, "auto, mxfp4 m = 1 (99 KB)");
    chooses(&x, 8, 0, SMMA_GPU_SM80_BS_LARGE, "auto, mxfp4 m = 1 (163 KB)");
    x.kernel = SMMA_GPU_SM80_BS_SMALL;
    refuses(&x, 8, 0, SMMA_GPU_STATUS_EARCH, "blocks of 8", "sm80-bs-small on 8.0");
    x.kernel = SMMA_GPU_AUTO;
    x = bs_args(SMMA_E2M1, SMMA_E2M1, 17, 4096, 4096);
    x.kernel = SMMA_GPU_SM80_BS_SMALL;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "m = 17", "sm80-bs-small, m 17");
    x = bs_args(SMMA_BF16, SMMA_E2M1, 4096, 4096, 4096);
    x.sa = NULL;
    chooses(&x, 9, 0, SMMA_GPU_SM90_BS, "auto, bf16 x mxfp4");
    x = bs_args(SMMA_E2M1, SMMA_E4M3, 64, 64, 64);
    chooses(&x, 9, 0, SMMA_GPU_SM80_BS_V1, "auto, e2m1 x e4m3 (no fast kernel)");
    x.kernel = SMMA_GPU_SM80_BS_LARGE;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "not built", "sm80-bs-large, e2m1 x e4m3");
    x = bs_args(SMMA_E4M3, SMMA_E4M3, 64, 64, 68);
    x.kernel = SMMA_GPU_SM80_BS_LARGE;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "k = 68", "sm80-bs-large, k 68");
    x.kernel = SMMA_GPU_AUTO;
    chooses(&x, 9, 0, SMMA_GPU_SM90_BS, "auto, k 68 (sm90-bs takes any k)");
    chooses(&x, 8, 9, SMMA_GPU_SM80_BS_V1, "auto, k 68 on 8.9");
    x = bs_args(SMMA_E4M3, SMMA_E4M3, 64, 64, 64);
    x.b_kmajor = false;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "K-major", "N-major quantized B");
    x = bs_args(SMMA_E4M3, SMMA_E4M3, 64, 64, 64);
    x.scale_layout = SMMA_SL_CDNA4_32;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "cdna4-32", "CDNA4 scale layout");
    x = bs_args(SMMA_E2M1, SMMA_E2M1, 64, 64, 63);
    x.lda = x.ldb = 64;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "even", "e2m1 with odd k");
    x = bs_args(SMMA_E4M3, SMMA_E4M3, 64, 64, 64);
    x.shape.scale_fmt = SMMA_NONE;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "without scales", "e4m3 without scales");
    x = bs_args(SMMA_E8M0, SMMA_E4M3, 64, 64, 64);
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "e8m0", "e8m0 elements");
}

static void
test_scaled_models(void)
{
    smma_gpu_gemm_args x = bs_args(SMMA_E2M1, SMMA_E2M1, 64, 64, 64);
    const char *m = NULL;
    char msg[256] = "";

    ok(smma_gpu_gemm_model(SMMA_GPU_SM80_BS_LARGE, &x.shape, 9, 0, &m, msg, sizeof(msg)) == 0 &&
           strcmp(m, "bf16-upcast-h100") == 0,
       "sm80-bs-large on 9.0 follows bf16-upcast-h100");
    ok(smma_gpu_gemm_model(SMMA_GPU_SM80_BS_V1, &x.shape, 8, 0, &m, msg, sizeof(msg)) == 0 &&
           strcmp(m, "bf16-upcast-a100") == 0,
       "sm80-bs-v1 on 8.0 follows bf16-upcast-a100");
    ok(smma_gpu_gemm_model(SMMA_GPU_SM80_BS_SMALL, &x.shape, 9, 0, &m, msg, sizeof(msg)) == 0 &&
           strcmp(m, "bf16-upcast-h100") == 0,
       "sm80-bs-small on 9.0 follows bf16-upcast-h100");
    ok(smma_gpu_gemm_model(SMMA_GPU_SM80_BS_SMALL, &x.shape, 8, 0, &m, msg, sizeof(msg)) ==
           SMMA_GPU_STATUS_EARCH && strstr(msg, "blocks of 8") != NULL,
       "sm80-bs-small on 8.0 has no model: %s", msg);
    ok(smma_gpu_gemm_model(SMMA_GPU_SM80_BS_V1, &x.shape, 8, 6, &m, msg, sizeof(msg)) ==
           SMMA_GPU_STATUS_EARCH, "sm80-bs-v1 on 8.6 has no model: %s", msg);
    is_int(196608, (long long) smma_gpu_bs_large_smem(SMMA_E4M3, SMMA_E4M3),
           "sm80-bs-large mxfp8 shared memory");
    /* version 1 keeps bf16 A in its ring (version 2 does not) */
    is_int(163840, (long long) smma_gpu_bs_large_smem(SMMA_BF16, SMMA_E2M1),
           "sm80-bs-large version 1, bf16 x mxfp4 shared memory");
    is_int(196608, (long long) smma_gpu_bs_large_smem(SMMA_BF16, SMMA_E4M3),
           "sm80-bs-large version 1, bf16 x mxfp8 shared memory");
}

/* The sm_100 kernels behind the same entry point: chosen by name or, on
 * compute capability 10.0, by auto where they take the problem. */
static void
test_sm100(void)
{
    smma_gpu_gemm_args x = bs_args(SMMA_E4M3, SMMA_E4M3, 8192, 8192, 8192);
    const char *m = NULL;
    char msg[256] = "";

    chooses(&x, 10, 0, SMMA_GPU_SM100_V2, "auto, mxfp8 8192^3 on 10.0: sm100-v2");
    chooses(&x, 10, 3, SMMA_GPU_SM80_BS_LARGE, "auto on 10.3: no sm_100a code, sm80-bs-large");
    x.kernel = SMMA_GPU_SM100_V1;
    chooses(&x, 10, 0, SMMA_GPU_SM100_V1, "sm100-v1 by name on 10.0");
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EARCH, "10.0", "sm100-v1 on 9.0");
    x.b_kmajor = false;
    refuses(&x, 10, 0, SMMA_GPU_STATUS_EINVAL, "K-major", "sm100-v1 with N-major B");
    x = bs_args(SMMA_BF16, SMMA_E2M1, 4096, 4096, 4096);
    x.sa = NULL;
    chooses(&x, 10, 0, SMMA_GPU_SM80_BS_LARGE, "auto, bf16 x mxfp4 on 10.0 (no tcgen05 kind)");
    x = bs_args(SMMA_E2M1, SMMA_E2M1, 64, 64, 64);
    ok(smma_gpu_gemm_model(SMMA_GPU_SM100_V2, &x.shape, 10, 0, &m, msg, sizeof(msg)) == 0 &&
           strcmp(m, "b200-fp8") == 0,
       "sm100-v2 on 10.0 follows b200-fp8");
    ok(smma_gpu_gemm_model(SMMA_GPU_SM100_V1, &x.shape, 9, 0, &m, msg, sizeof(msg)) ==
           SMMA_GPU_STATUS_EARCH, "sm100-v1 has no model on 9.0: %s", msg);
}

/* v2_knob: smma_gpu_v2_choose on the knobs' values, expecting status want
 * and, when it is OK, the stages; a refusal's message must name the value
 * refused. */
static void
v2_knob(const char *tile, const char *stages, size_t smem, int want, size_t want_n,
        const char *named)
{
    size_t n = 0;
    char msg[256] = "";
    int rc = smma_gpu_v2_choose(tile, stages, smem, &n, msg, sizeof(msg));

    if (want == SMMA_GPU_STATUS_OK)
        ok(rc == want && n == want_n,
           "SMMA_SM80_V2_TILE=%s SMMA_SM80_V2_STAGES=%s with %zu bytes: %zu stages",
           tile ? tile : "(unset)", stages ? stages : "(unset)", smem, n);
    else
        ok(rc == want && strstr(msg, named) != NULL,
           "SMMA_SM80_V2_TILE=%s SMMA_SM80_V2_STAGES=%s with %zu bytes refused: %s",
           tile ? tile : "(unset)", stages ? stages : "(unset)", smem, msg);
}

/* sm80-v2's knobs: the stages on an H100 (227 KB per block) and an A100
 * (163 KB), the refusal of values they do not know and of stages the shared
 * memory cannot hold, and of every tile variant (removed: sm80-v2 has one
 * tile). */
static void
test_v2_knobs(void)
{
    const size_t h100 = 232448, a100 = 166912, tiny = 100000;

    v2_knob(NULL, NULL, h100, SMMA_GPU_STATUS_OK, 4, NULL);
    v2_knob("", "", a100, SMMA_GPU_STATUS_OK, 3, NULL);
    v2_knob(NULL, "3", h100, SMMA_GPU_STATUS_OK, 3, NULL);
    v2_knob(NULL, "4", h100, SMMA_GPU_STATUS_OK, 4, NULL);
    v2_knob(NULL, "", a100, SMMA_GPU_STATUS_OK, 3, NULL);
    v2_knob("128x128", NULL, h100, SMMA_GPU_STATUS_EINVAL, 0, "SMMA_SM80_V2_TILE=128x128");
    v2_knob("256x128", NULL, h100, SMMA_GPU_STATUS_EINVAL, 0, "SMMA_SM80_V2_TILE=256x128");
    v2_knob("mbar", "4", h100, SMMA_GPU_STATUS_EINVAL, 0, "SMMA_SM80_V2_TILE=mbar");
    v2_knob("128X256", NULL, tiny, SMMA_GPU_STATUS_EINVAL, 0, "SMMA_SM80_V2_TILE=128X256");
    v2_knob(NULL, "4", a100, SMMA_GPU_STATUS_EARCH, 0, "SMMA_SM80_V2_STAGES=4");
    v2_knob(NULL, "5", h100, SMMA_GPU_STATUS_EINVAL, 0, "SMMA_SM80_V2_STAGES=5");
    v2_knob(NULL, NULL, tiny, SMMA_GPU_STATUS_EARCH, 0, "100000 bytes");
}

/* sm80-bs-small's version: 1 where asked, where the scales cannot be read a
 * word at a time and for ue4m3 scales with 8-bit B; 6 where asked (MX's 32
 * and NVFP4's 16, e2m1 B); 6 for e2m1 B with e8m0 scales
 * and e2m1 A or m <= 8, and for NVFP4 with n >= 16384; 3 for e2m1 B with e8m0 scales, e4m3 A and n >= 16384; 5 or 4
 * elsewhere, the other scale vectors included; an unknown
 * knob ("split" and "transposed" among them, the removed versions 2 and
 * 3) is refused with its value named
 * ("=VALUE:"), and so is the version 0. */
static void
small_version(const smma_gpu_gemm_args *x, const char *knob, int want, int want_v,
              const char *what)
{
    int v = -1;
    char msg[256] = "", named[64];
    int rc = smma_gpu_bs_small_choose(knob, x, &v, msg, sizeof(msg));

    if (want == SMMA_GPU_STATUS_OK) {
        ok(rc == want && v == want_v, "sm80-bs-small %s: version %d", what, v);
        return;
    }
    snprintf(named, sizeof(named), "=%s:", knob != NULL ? knob : "");
    ok(rc == want && v == 0 && knob != NULL && strstr(msg, named) != NULL &&
           strstr(msg, "split-transposed-wide") != NULL,
       "sm80-bs-small %s refused: %s", what, msg);
}

static void
test_bs_small_version(void)
{
    smma_gpu_gemm_args x = bs_args(SMMA_E4M3, SMMA_E4M3, 1, 8192, 8192);

    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "mxfp8 m 1, 128x4");
    small_version(&x, "", SMMA_GPU_STATUS_OK, 5, "knob empty");
    small_version(&x, "transposed", SMMA_GPU_STATUS_EINVAL, 0, "SMMA_SM80_BS_SMALL=transposed "
                  "(version 3, removed)");
    small_version(&x, "split", SMMA_GPU_STATUS_EINVAL, 0, "SMMA_SM80_BS_SMALL=split");
    small_version(&x, "split-transposed", SMMA_GPU_STATUS_OK, 4,
                  "SMMA_SM80_BS_SMALL=split-transposed");
    small_version(&x, "split-transposed-wide", SMMA_GPU_STATUS_OK, 5,
                  "SMMA_SM80_BS_SMALL=split-transposed-wide");
    small_version(&x, "regs", SMMA_GPU_STATUS_OK, 1, "SMMA_SM80_BS_SMALL=regs");
    small_version(&x, "Regs", SMMA_GPU_STATUS_EINVAL, 0, "SMMA_SM80_BS_SMALL=Regs");
    small_version(&x, "transposed-lut", SMMA_GPU_STATUS_OK, 5, "e4m3 B (version 6 is built "
                  "for e2m1 B), SMMA_SM80_BS_SMALL=transposed-lut");
    x.scale_layout = SMMA_SL_LINEAR;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "linear scales, 256 blocks a row");
    x.shape.k = x.lda = x.ldb = 8256; /* 258 blocks a row */
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 1, "linear scales, 258 blocks a row");
    x.scale_layout = SMMA_SL_128X4;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "128x4 scales, 258 blocks a row");
    small_version(&x, "transposed-lut", SMMA_GPU_STATUS_OK, 5, "128x4 scales, 258 blocks a "
                  "row, SMMA_SM80_BS_SMALL=transposed-lut (e4m3 B)");
    x.shape.vec = 16;
    small_version(&x, "transposed-lut", SMMA_GPU_STATUS_OK, 5, "e8m0 scales per 16, "
                  "SMMA_SM80_BS_SMALL=transposed-lut");
    small_version(&x, "split", SMMA_GPU_STATUS_EINVAL, 0, "e8m0 scales per 16, "
                  "SMMA_SM80_BS_SMALL=split");
    small_version(&x, "split-transposed", SMMA_GPU_STATUS_OK, 4, "e8m0 scales per 16, "
                  "SMMA_SM80_BS_SMALL=split-transposed");
    small_version(&x, "split-transposed-wide", SMMA_GPU_STATUS_OK, 5, "e8m0 scales per 16, "
                  "SMMA_SM80_BS_SMALL=split-transposed-wide");
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "e8m0 scales per 16");
    x.shape.n = 28672;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "e8m0 scales per 16, n 28672");
    x.shape.n = 8192;
    x.shape.vec = 32;
    x.sb = (const void *) 0x5001;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 1, "B's scales not 4-byte aligned");
    small_version(&x, "split-transposed", SMMA_GPU_STATUS_OK, 1, "B's scales not 4-byte "
                  "aligned, SMMA_SM80_BS_SMALL=split-transposed");
    x.sb = (const void *) 0x5000;
    x.sa = (const void *) 0x4002;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 1, "A's scales not 4-byte aligned");
    x.sa = (const void *) 0x4000;
    x.shape.scale_fmt = SMMA_UE4M3;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 1, "e4m3 x e4m3 with ue4m3 scales");
    small_version(&x, "split-transposed", SMMA_GPU_STATUS_OK, 1, "e4m3 x e4m3 with ue4m3 "
                  "scales, SMMA_SM80_BS_SMALL=split-transposed");
    small_version(&x, "split-transposed-wide", SMMA_GPU_STATUS_OK, 1, "e4m3 x e4m3 with ue4m3 "
                  "scales, SMMA_SM80_BS_SMALL=split-transposed-wide");
    x = bs_args(SMMA_E2M1, SMMA_E2M1, 16, 8192, 8192);
    x.shape.scale_fmt = SMMA_UE4M3;
    x.shape.vec = 16;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 6, "nvfp4 m 16");
    small_version(&x, "transposed-lut", SMMA_GPU_STATUS_OK, 6, "nvfp4 m 16, "
                  "SMMA_SM80_BS_SMALL=transposed-lut");
    x.shape.n = 16384;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 6, "nvfp4 m 16, n 16384");
    x.shape.n = 8192;
    x.shape.vec = 32;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "e2m1 with ue4m3 scales per 32");
    small_version(&x, "transposed-lut", SMMA_GPU_STATUS_OK, 5, "e2m1 with ue4m3 scales per "
                  "32, SMMA_SM80_BS_SMALL=transposed-lut");
    small_version(&x, "split-transposed", SMMA_GPU_STATUS_OK, 4, "e2m1 with ue4m3 scales per "
                  "32, SMMA_SM80_BS_SMALL=split-transposed");
    x = bs_args(SMMA_E2M1, SMMA_E2M1, 1, 16384, 8192);
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 6, "mxfp4 m 1, n 16384");
    small_version(&x, "transposed-lut", SMMA_GPU_STATUS_OK, 6, "mxfp4 m 1, n 16384, "
                  "SMMA_SM80_BS_SMALL=transposed-lut");
    small_version(&x, "split", SMMA_GPU_STATUS_EINVAL, 0, "mxfp4 m 1, n 16384, "
                  "SMMA_SM80_BS_SMALL=split");
    x.shape.vec = 16;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "e2m1 with e8m0 scales per 16, n 16384");
    x.shape.vec = 32;
    x.shape.n = 16383;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 6, "mxfp4 m 1, n 16383");
    x = bs_args(SMMA_E4M3, SMMA_E2M1, 16, 28672, 8192);
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 6, "mxfp8 x mxfp4 m 16, n 28672");
    x.shape.m = 8;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 6, "mxfp8 x mxfp4 m 8, n 28672");
    x.shape.m = 16;
    x.shape.n = 8192;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "mxfp8 x mxfp4 m 16, n 8192");
    x = bs_args(SMMA_BF16, SMMA_E2M1, 8, 8192, 8192);
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 6, "bf16 x mxfp4 m 8");
    x.shape.m = 9;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "bf16 x mxfp4 m 9");
    x = bs_args(SMMA_E4M3, SMMA_E4M3, 1, 28672, 8192);
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "mxfp8 m 1, n 28672");
    x.shape.n = 8193;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "mxfp8 m 1, n 8193");
    x.shape.n = 8192;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "mxfp8 m 1, n 8192");
    x.shape.n = 28672;
    x.shape.m = 4;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "mxfp8 m 4, n 28672");
    x.shape.b_fmt = SMMA_E5M2;
    x.shape.m = 16;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "e4m3 x e5m2 m 16");
    small_version(&x, "split", SMMA_GPU_STATUS_EINVAL, 0, "e4m3 x e5m2 m 16, "
                  "SMMA_SM80_BS_SMALL=split");
    x.shape.vec = 16;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "e4m3 x e5m2 m 16, e8m0 scales per 16");
    x.shape.vec = 32;
    x = bs_args(SMMA_E2M3, SMMA_E2M3, 16, 8192, 8192);
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "mxfp6 e2m3 m 16");
    x.shape.n = 28672;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "mxfp6 e2m3 m 16, n 28672");
    x = bs_args(SMMA_BF16, SMMA_E4M3, 4, 8192, 8192);
    x.sa = NULL;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "bf16 x mxfp8 m 4");
    x.shape.m = 1;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "bf16 x mxfp8 m 1");
    x.shape.m = 16;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 4, "bf16 x mxfp8 m 16");
    x.sb = (const void *) 0x5001;
    small_version(&x, "split", SMMA_GPU_STATUS_EINVAL, 0, "bf16 x mxfp8 m 16, "
                  "SMMA_SM80_BS_SMALL=split, B's scales not 4-byte aligned");
    small_version(&x, "transposed-lut", SMMA_GPU_STATUS_OK, 1, "bf16 x mxfp8 m 16, "
                  "SMMA_SM80_BS_SMALL=transposed-lut, B's scales not 4-byte aligned");
    x.sb = (const void *) 0x5000;
    x.shape.b_fmt = SMMA_E2M1;
    x.shape.m = 16;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "bf16 x mxfp4 m 16");
    x.shape.n = 28672;
    small_version(&x, NULL, SMMA_GPU_STATUS_OK, 5, "bf16 x mxfp4 m 16, n 28672");
}

static void
test_no_device(void)
{
    smma_gpu_device dev;
    char msg[256] = "";
    int rc = smma_gpu_info(&dev, msg, sizeof(msg));

    if (rc == SMMA_GPU_STATUS_OK) {
        skip("a device is present (%s): the no-device path is not taken", dev.name);
        return;
    }
    ok(rc == SMMA_GPU_STATUS_ENODEV && msg[0] != '\0',
       "without a device smma_gpu_info says why: %s", msg);
    /* The question of which sm80-bs-large version runs gets the same
     * answer, not a version. */
    {
        smma_gpu_gemm_args x;
        int version = -1, arch = -1;
        char qmsg[256] = "";

        x = bf16_args(256, 256, 256);
        x.shape.a_fmt = x.shape.b_fmt = SMMA_E4M3;
        x.shape.scale_fmt = SMMA_E8M0;
        x.sa = (const void *) 0x4000;
        x.sb = (const void *) 0x5000;
        x.scale_layout = SMMA_SL_128X4;
        x.kernel = SMMA_GPU_SM80_BS_LARGE;
        rc = smma_gpu_bs_large_version(&x, &version, &arch, qmsg, sizeof(qmsg));
        ok(rc == SMMA_GPU_STATUS_ENODEV && version == 0 && arch == 0 && strcmp(qmsg, msg) == 0,
           "without a device smma_gpu_bs_large_version says so too: %s", qmsg);
    }
    /* So does the question of which kernel runs. */
    {
        smma_gpu_gemm_args x = bf16_args(256, 256, 256);
        smma_gpu_kernel k = SMMA_GPU_KERNEL_COUNT;
        char qmsg[256] = "";

        rc = smma_gpu_gemm_choose(&x, &k, qmsg, sizeof(qmsg));
        ok(rc == SMMA_GPU_STATUS_ENODEV && strcmp(qmsg, msg) == 0,
           "without a device smma_gpu_gemm_choose says so too: %s", qmsg);
    }
}

/* smma_gpu_bs_large_version refuses NULL arguments, with or without a
 * device (without CUDA: no CUDA, ENODEV). */
static void
test_bs_large_query_args(void)
{
    smma_gpu_gemm_args x;
    int version = -1, arch = -1;
    char msg[256] = "";
#ifdef HAVE_CUDA
    const int want = SMMA_GPU_STATUS_EINVAL;
#else
    const int want = SMMA_GPU_STATUS_ENODEV;
#endif

    memset(&x, 0, sizeof(x));
    ok(smma_gpu_bs_large_version(NULL, &version, &arch, msg, sizeof(msg)) == want &&
           msg[0] != '\0',
       "smma_gpu_bs_large_version without a problem: %s", msg);
    ok(smma_gpu_bs_large_version(&x, NULL, &arch, msg, sizeof(msg)) == want &&
           smma_gpu_bs_large_version(&x, &version, NULL, msg, sizeof(msg)) == want,
       "smma_gpu_bs_large_version without a place for the answer: %s", msg);
}

/* sm80-bs-large: which version SMMA_SM80_BS_LARGE asks for, and the
 * shared memory of version 2 (three bf16 stages of 48 KB and as many
 * stages of the stored bytes and scale words as fit in 227 KB, at most
 * four), and the problems it leaves to version 1. */
static void
test_bs_large_version(void)
{
    static const struct {
        const char *knob;
        int rc, version;
    } k[] = {
        {NULL, SMMA_GPU_STATUS_OK, 2},     {"", SMMA_GPU_STATUS_OK, 2},
        {"split", SMMA_GPU_STATUS_OK, 2},  {"inline", SMMA_GPU_STATUS_OK, 1},
        {"Inline", SMMA_GPU_STATUS_EINVAL, 0}, {"regs", SMMA_GPU_STATUS_EINVAL, 0},
    };
    static const struct {
        smma_format a, b;
        size_t smem;
    } g[] = {
        /* stages x (A + B + 1536 bytes of scale words) + 3 x 48 KB + 64;
         * bf16 A is not in the stored stages */
        {SMMA_E4M3, SMMA_E4M3, 3 * 26112 + 147520}, {SMMA_E2M3, SMMA_E2M3, 3 * 26112 + 147520},
        {SMMA_E2M1, SMMA_E2M1, 4 * 13824 + 147520}, {SMMA_E4M3, SMMA_E2M1, 4 * 17920 + 147520},
        {SMMA_BF16, SMMA_E2M1, 4 * 9728 + 147520}, {SMMA_BF16, SMMA_E4M3, 4 * 17920 + 147520},
    };
    size_t i;

    smma_gpu_gemm_args x = bs_args(SMMA_E4M3, SMMA_E4M3, 8192, 8192, 8192);
    int v = 0, rc;
    char msg[256] = "";

    for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
        rc = smma_gpu_bs_large_choose(k[i].knob, &x, &v, msg, sizeof(msg));
        if (k[i].rc == SMMA_GPU_STATUS_OK)
            ok(rc == k[i].rc && v == k[i].version, "sm80-bs-large SMMA_SM80_BS_LARGE=%s: "
               "version %d", k[i].knob != NULL ? k[i].knob : "(unset)", v);
        else
            ok(rc == k[i].rc && strstr(msg, k[i].knob) != NULL,
               "sm80-bs-large SMMA_SM80_BS_LARGE=%s refused: %s", k[i].knob, msg);
    }
    /* Version 2 reads a word of scales per row and k tile. */
    x.scale_layout = SMMA_SL_LINEAR;
    rc = smma_gpu_bs_large_choose(NULL, &x, &v, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && v == 2, "sm80-bs-large, linear scales, 256 blocks a row: "
       "version %d", v);
    x.shape.k = x.lda = x.ldb = 8256; /* 258 blocks a row */
    rc = smma_gpu_bs_large_choose(NULL, &x, &v, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && v == 1, "sm80-bs-large, linear scales, 258 blocks a row: "
       "version %d", v);
    x.scale_layout = SMMA_SL_128X4;
    rc = smma_gpu_bs_large_choose("split", &x, &v, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && v == 2, "sm80-bs-large, 128x4 scales, 258 blocks a row: "
       "version %d", v);
    x.shape.k = x.lda = x.ldb = 8192;
    x.scale_layout = SMMA_SL_LINEAR;
    x.sb = (const void *) 0x5002;
    rc = smma_gpu_bs_large_choose(NULL, &x, &v, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && v == 1, "sm80-bs-large, linear, B's scales not 4-byte "
       "aligned: version %d", v);
    x.sb = (const void *) 0x5000;
    x.sa = (const void *) 0x4001;
    rc = smma_gpu_bs_large_choose(NULL, &x, &v, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && v == 1, "sm80-bs-large, linear, A's scales not 4-byte "
       "aligned: version %d", v);
    /* The 128x4 layout's words need aligned pointers too. */
    x.scale_layout = SMMA_SL_128X4;
    rc = smma_gpu_bs_large_choose(NULL, &x, &v, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && v == 1, "sm80-bs-large, 128x4, A's scales not 4-byte "
       "aligned: version %d", v);
    x.sa = (const void *) 0x4000;
    x.sb = (const void *) 0x5003;
    rc = smma_gpu_bs_large_choose(NULL, &x, &v, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && v == 1, "sm80-bs-large, 128x4, B's scales not 4-byte "
       "aligned: version %d", v);
    x.sb = (const void *) 0x5000;
    x.sa = (const void *) 0x4001;
    x.scale_layout = SMMA_SL_LINEAR;
    x.shape.a_fmt = SMMA_BF16;
    rc = smma_gpu_bs_large_choose(NULL, &x, &v, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && v == 2, "sm80-bs-large, bf16 A (no scales of A read): "
       "version %d", v);
    for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
        size_t got = smma_gpu_bs_large_smem2(g[i].a, g[i].b);

        ok(got == g[i].smem && got <= 232448, "sm80-bs-large version 2, %s x %s: %zu bytes of "
           "shared memory", smma_format_name(g[i].a), smma_format_name(g[i].b), got);
    }
}

/* sm90-promote32: asked for by name on 9.0 only, MXFP8 only, never by
 * AUTO (another model); its model h100-fp8-promote32. */
static void
test_promote32(void)
{
    smma_gpu_gemm_args x = bs_args(SMMA_E4M3, SMMA_E5M2, 8192, 8192, 8192);
    const char *m = NULL;
    char msg[256] = "";
    int rc;

    x.kernel = SMMA_GPU_SM90_PROMOTE32;
    chooses(&x, 9, 0, SMMA_GPU_SM90_PROMOTE32, "sm90-promote32 asked for, e4m3 x e5m2");
    refuses(&x, 10, 0, SMMA_GPU_STATUS_EARCH, "9.0 (wgmma, sm_90a)", "sm90-promote32 on 10.0");
    refuses(&x, 8, 9, SMMA_GPU_STATUS_EARCH, "the device has 8.9", "sm90-promote32 on 8.9");
    x = bs_args(SMMA_E2M1, SMMA_E2M1, 4096, 4096, 4096);
    x.kernel = SMMA_GPU_SM90_PROMOTE32;
    chooses(&x, 9, 0, SMMA_GPU_SM90_PROMOTE32, "sm90-promote32 asked for, mxfp4");
    x = bs_args(SMMA_E2M1, SMMA_E4M3, 4096, 4096, 4096);
    x.kernel = SMMA_GPU_SM90_PROMOTE32;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "computes the MX pairs",
            "sm90-promote32, e2m1 x e4m3");
    x = bs_args(SMMA_E4M3, SMMA_E4M3, 64, 64, 40);
    x.lda = x.ldb = 40;
    x.kernel = SMMA_GPU_SM90_PROMOTE32;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "multiples of 16", "sm90-promote32, lda 40");
    x = bs_args(SMMA_E4M3, SMMA_E4M3, 8192, 8192, 8192);
    chooses(&x, 9, 0, SMMA_GPU_SM90_BS, "auto on 9.0 keeps bf16-upcast-h100 (sm90-bs)");
    rc = smma_gpu_gemm_model(SMMA_GPU_SM90_PROMOTE32, &x.shape, 9, 0, &m, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && m != NULL && strcmp(m, "h100-fp8-promote32") == 0,
       "sm90-promote32 on 9.0 follows h100-fp8-promote32");
    rc = smma_gpu_gemm_model(SMMA_GPU_SM90_PROMOTE32, &x.shape, 10, 0, &m, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_EARCH && strstr(msg, "9.0") != NULL,
       "sm90-promote32 has no model on 10.0: %s", msg);
    x.shape.scale_fmt = SMMA_UE4M3;
    x.shape.vec = 16;
    rc = smma_gpu_gemm_model(SMMA_GPU_SM90_PROMOTE32, &x.shape, 9, 0, &m, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_EARCH && strstr(msg, "MXFP8") != NULL,
       "sm90-promote32 has no model for ue4m3 scales: %s", msg);
}

/* sm90-bs: asked for by name on 9.0 only, the pairs of sm80-bs-large
 * (NVFP4 the one pair with ue4m3 scales); its model bf16-upcast-h100, the
 * model of sm80-bs-large on 9.0. */
static void
test_sm90_bs(void)
{
    smma_gpu_gemm_args x = bs_args(SMMA_E2M1, SMMA_E2M1, 8192, 8192, 8192);
    const char *m = NULL;
    char msg[256] = "";
    int rc;

    x.kernel = SMMA_GPU_SM90_BS;
    chooses(&x, 9, 0, SMMA_GPU_SM90_BS, "sm90-bs asked for, mxfp4");
    refuses(&x, 10, 0, SMMA_GPU_STATUS_EARCH, "9.0 (wgmma, sm_90a)", "sm90-bs on 10.0");
    refuses(&x, 8, 0, SMMA_GPU_STATUS_EARCH, "the device has 8.0", "sm90-bs on 8.0");
    x = bs_args(SMMA_E2M1, SMMA_E4M3, 4096, 4096, 4096);
    x.kernel = SMMA_GPU_SM90_BS;
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "e2m1 x e4m3 is not built", "sm90-bs, e2m1 x e4m3");
    x = bs_args(SMMA_BF16, SMMA_E4M3, 4096, 4096, 4096);
    x.kernel = SMMA_GPU_SM90_BS;
    chooses(&x, 9, 0, SMMA_GPU_SM90_BS, "sm90-bs asked for, bf16 x mxfp8");
    rc = smma_gpu_gemm_model(SMMA_GPU_SM90_BS, &x.shape, 9, 0, &m, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && m != NULL && strcmp(m, "bf16-upcast-h100") == 0,
       "sm90-bs on 9.0 follows bf16-upcast-h100");
    rc = smma_gpu_gemm_model(SMMA_GPU_SM90_BS, &x.shape, 10, 0, &m, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_EARCH && strstr(msg, "9.0") != NULL,
       "sm90-bs has no model on 10.0: %s", msg);
}

/* AUTO with a model: the fastest kernel whose arithmetic on the device is
 * that model; a model no kernel follows there is refused by name. */
static void
test_by_model(void)
{
    smma_gpu_gemm_args x = bs_args(SMMA_E4M3, SMMA_E4M3, 8192, 8192, 8192);

    x.model = "h100-fp8-promote32";
    chooses(&x, 9, 0, SMMA_GPU_SM90_PROMOTE32, "auto for h100-fp8-promote32, mxfp8");
    x.model = "bf16-upcast-h100";
    chooses(&x, 9, 0, SMMA_GPU_SM90_BS, "auto for bf16-upcast-h100, mxfp8 (AUTO's own)");
    x.model = NULL;
    chooses(&x, 9, 0, SMMA_GPU_SM90_BS, "auto without a model, mxfp8");
    x.model = "h100-fp8-promote32";
    refuses(&x, 8, 9, SMMA_GPU_STATUS_EINVAL, "no kernel computes h100-fp8-promote32",
            "h100-fp8-promote32 on 8.9");
    x.model = "exact-rn";
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "which follows bf16-upcast-h100",
            "exact-rn: no kernel, and AUTO's is named with its model");
    x.model = "nosuch";
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "unknown model 'nosuch'", "an unknown model");
    x = bs_args(SMMA_E2M1, SMMA_E2M1, 1, 28672, 8192);
    x.model = "h100-fp8-promote32";
    chooses(&x, 9, 0, SMMA_GPU_SM90_PROMOTE32, "auto for h100-fp8-promote32, mxfp4 m = 1");
    x.model = "bf16-upcast-h100";
    chooses(&x, 9, 0, SMMA_GPU_SM80_BS_SMALL, "auto for bf16-upcast-h100, mxfp4 m = 1");
    x = bs_args(SMMA_E2M1, SMMA_E4M3, 4096, 4096, 4096);
    x.model = "h100-fp8-promote32";
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "no kernel computes h100-fp8-promote32",
            "h100-fp8-promote32 for e2m1 x e4m3 (not an MX pair of sm90-promote32)");
    x = bf16_args(4096, 4096, 4096);
    x.model = "h100-bf16";
    chooses(&x, 9, 0, SMMA_GPU_SM90_V2, "auto for h100-bf16, bf16 4096^3");
    x.model = "a100-bf16";
    chooses(&x, 8, 0, SMMA_GPU_SM80_V2, "auto for a100-bf16");
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "no kernel computes a100-bf16",
            "a100-bf16 on 9.0");
    x.model = "cublaslt-fp8-fast";
    refuses(&x, 9, 0, SMMA_GPU_STATUS_EINVAL, "no kernel computes h100-fp8",
            "an alias is the model it stands for");
    x.kernel = SMMA_GPU_SM80_V1;
    chooses(&x, 9, 0, SMMA_GPU_SM80_V1, "a named kernel does not read the model");
}

/* The kernel table: every kernel a row, found by its number, with a
 * distinct name, a kind, a file, the functions; the preference table names
 * every kernel once, and AUTO's places are of both kinds. */
static void
test_table(void)
{
    unsigned k, j, bad = 0, seen[SMMA_GPU_KERNEL_COUNT] = { 0 }, nauto[2] = { 0, 0 };
    size_t i;

    for (k = 1; k < SMMA_GPU_KERNEL_COUNT; k++) {
        const smma_gpu_kernel_row *r = smma_gpu_kernel_row_of((smma_gpu_kernel) k);

        if (r == NULL || r->id != (smma_gpu_kernel) k || r->name == NULL ||
            r->file == NULL || r->code == NULL || r->needs == NULL || r->summary == NULL ||
            r->accepts == NULL || r->model == NULL || r->launch == NULL ||
            strncmp(r->file, "gpu/", 4) != 0 ||
            strcmp(smma_gpu_kernel_name((smma_gpu_kernel) k), r->name) != 0) {
            diag("kernel %u: row missing or incomplete", k);
            bad++;
            continue;
        }
        for (j = 1; j < k; j++)
            bad += strcmp(smma_gpu_kernel_name((smma_gpu_kernel) j), r->name) == 0;
    }
    ok(bad == 0 && smma_gpu_kernel_row_of(SMMA_GPU_AUTO) == NULL
       && smma_gpu_kernel_row_of(SMMA_GPU_KERNEL_COUNT) == NULL,
       "every kernel is one row of the table, with its own name (%u bad)", bad);
    for (bad = 0, i = 0; i < smma_gpu_nprefs; i++) {
        const smma_gpu_kernel_row *r = smma_gpu_kernel_row_of(smma_gpu_prefs[i].id);

        if (r == NULL || seen[r->id]++ != 0 || smma_gpu_prefs[i].why == NULL)
            bad++;
        else if (smma_gpu_prefs[i].in_auto)
            nauto[r->kind]++;
    }
    ok(bad == 0 && smma_gpu_nprefs == SMMA_GPU_KERNEL_COUNT - 1 && nauto[0] > 0 && nauto[1] > 0,
       "the preference table names every kernel once (%zu places, %u and %u for AUTO's two "
       "kinds)", smma_gpu_nprefs, nauto[0], nauto[1]);
    ok(smma_gpu_row_runs_on(smma_gpu_kernel_row_of(SMMA_GPU_SM80_V1), 12, 0)
       && !smma_gpu_row_runs_on(smma_gpu_kernel_row_of(SMMA_GPU_SM80_V1), 7, 5)
       && smma_gpu_row_runs_on(smma_gpu_kernel_row_of(SMMA_GPU_SM90_BS), 9, 0)
       && !smma_gpu_row_runs_on(smma_gpu_kernel_row_of(SMMA_GPU_SM90_BS), 10, 0)
       && !smma_gpu_row_runs_on(smma_gpu_kernel_row_of(SMMA_GPU_SM100_V2), 10, 3),
       "sm_80 code runs on 8.0 and later, sm_90a on 9.0 alone, sm_100a on 10.0 alone");
}

int
main(void)
{
    plan_lazy();
    test_table();
    test_names();
    test_choice();
    test_sm90();
    test_promote32();
    test_sm90_bs();
    test_by_model();
    test_common();
    test_models();
    test_storage();
    test_scaled();
    test_scaled_models();
    test_sm100();
    test_v2_knobs();
    test_bs_small_version();
    test_bs_large_version();
    test_no_device();
    test_bs_large_query_args();
    return exit_status();
}
