/*
 * tests/ref/model-t.c - the numerics models, case by case.  Every expected
 * code below is derived by hand in the comment above it (u = 2^-14, the
 * fp32 ulp of [512, 1024), and so on); none is computed by softmma.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <softmma/gemm.h>

#include "tap/basic.h"

static smma_gemm_shape
shape(smma_format a, smma_format b, smma_format scale, smma_format c, size_t k)
{
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = a;
    s.b_fmt = b;
    s.scale_fmt = scale;
    s.vec = 32;
    s.c_fmt = c;
    s.d_fmt = SMMA_FP32;
    s.m = s.n = 1;
    s.k = k;
    return s;
}

static void
expect(const char *mname, const smma_gemm_shape *s, const uint32_t *a, const uint32_t *b,
       const uint32_t *sa, const uint32_t *sb, uint32_t c, uint32_t want, const char *why)
{
    /* The arithmetic of the model, also on inputs it does not define (the
     * special values of block-scaled bf16 under every model); what each
     * model takes is checked in check_takes. */
    smma_model m = smma_model_any_inputs(tap_model(mname));
    smma_error err;
    uint32_t got;

    if (smma_model_check(&m, s, &err) != SMMA_OK) {
        ok(false, "%s: %s: model check failed: %s", mname, why, err.msg);
        return;
    }
    got = smma_dot(&m, s, a, b, sa, sb, c);
    if (!is_hex(want, got, "%s: %s", mname, why))
        diag("want %a, got %a", smma_decode(s->d_fmt, want), smma_decode(s->d_fmt, got));
}

/* What each model takes (smma_model_takes), as smma_model_check applies it,
 * and the models that take a problem (smma_models_taking). */
static void
check_takes(void)
{
    smma_gemm_shape mx4 = shape(SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, SMMA_NONE, 64);
    smma_gemm_shape mx8 = shape(SMMA_E4M3, SMMA_E5M2, SMMA_E8M0, SMMA_NONE, 64);
    smma_gemm_shape nv4 = shape(SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, SMMA_NONE, 64);
    smma_gemm_shape h16 = shape(SMMA_FP16, SMMA_FP16, SMMA_NONE, SMMA_NONE, 64);
    smma_gemm_shape bfx = shape(SMMA_BF16, SMMA_E2M1, SMMA_E8M0, SMMA_NONE, 64);
    static const char *const mx4_models[] = {
        "exact-rn", "exact-rz", "fp32-fma-seq", "b200-fp8", "bf16-upcast-h100",
        "bf16-upcast-a100", "bf16-upcast-ada", "bf16-upcast-b200", "h100-fp8-promote32",
        "h100-fp8-promote16"
    };
    const smma_model *got[32];
    smma_error err;
    char text[512];
    size_t i, n, len;
    bool same;

    err.msg[0] = '\0';
    ok(smma_model_check(tap_model("h100-fp8"), &mx4, &err) == SMMA_EINVAL &&
           strstr(err.msg, "model h100-fp8 takes A and B e4m3 or e5m2; scales none or e8m0; "
                  "any D; not e2m1 x e2m1, e8m0 scales, D fp32") == err.msg,
       "h100-fp8 refuses MXFP4, naming what it takes (%s)", err.msg);
    ok(smma_model_check(tap_model("h100-fp8"), &mx8, &err) == SMMA_OK,
       "h100-fp8 takes MXFP8 e4m3 x e5m2 (gemm.mxfp8.model.h100-fp8)");
    ok(smma_model_takes(tap_model("h100-fp8"), &nv4, &err) == SMMA_EINVAL,
       "smma_model_takes: h100-fp8 refuses NVFP4");
    ok(smma_model_check(tap_model("h100-f16acc"), &h16, &err) == SMMA_EINVAL &&
           strstr(err.msg, "D fp16; not fp16 x fp16, no scales, D fp32") != NULL,
       "h100-f16acc refuses an fp32 D (%s)", err.msg);
    h16.d_fmt = SMMA_FP16;
    ok(smma_model_check(tap_model("h100-f16acc"), &h16, &err) == SMMA_OK,
       "h100-f16acc takes an fp16 D");
    ok(smma_model_check(tap_model("bf16-upcast-h100"), &h16, &err) == SMMA_EINVAL &&
           strstr(err.msg, "no scales") != NULL,
       "bf16-upcast-h100 refuses operands without scales (%s)", err.msg);
    ok(smma_model_check(tap_model("bf16-upcast-h100"), &bfx, &err) == SMMA_OK,
       "bf16-upcast-h100 takes bf16 x MXFP4 (sm90-mixed)");
    ok(smma_model_check(tap_model("b200-fp8"), &nv4, &err) == SMMA_OK,
       "b200-fp8 takes NVFP4 (tcgen05 kind::mxf4nvf4, provisional)");
    ok(smma_model_check(tap_model("b200-fp8-trunc"), &mx8, &err) == SMMA_OK &&
           smma_model_check(tap_model("b200-fp8-trunc"), &mx4, &err) == SMMA_EINVAL,
       "b200-fp8-trunc takes MXFP8 e4m3 x e5m2, not MXFP4");
    ok(smma_model_check(tap_model("a100-bf16"), &mx8, &err) == SMMA_EINVAL,
       "a100-bf16 refuses MXFP8");
    smma_model_inputs(tap_model("exact-rn"), text, sizeof(text));
    is_string("any inputs", text, "smma_model_inputs: exact-rn takes any inputs");
    {
        /* A set with the last format, fp32 (a variant: no model of the table
         * takes fp32 A and B). */
        smma_model v = *tap_model("h100-bf16");

        v.ab_formats = SMMA_FMT_BIT(SMMA_BF16) | SMMA_FMT_BIT(SMMA_FP32);
        smma_model_inputs(&v, text, sizeof(text));
        is_string("A and B bf16 or fp32; scales none; any D", text,
                  "smma_model_inputs names the last format, fp32");
    }
    smma_model_inputs(tap_model("bf16-upcast-h100"), text, 20);
    ok(strlen(text) == 19, "smma_model_inputs cuts at the buffer's size");

    n = smma_models_taking(&mx4, got, sizeof(got) / sizeof(got[0]));
    same = n == sizeof(mx4_models) / sizeof(mx4_models[0]);
    for (i = 0; same && i < n; i++)
        same = strcmp(got[i]->name, mx4_models[i]) == 0;
    ok(same, "smma_models_taking: MXFP4 is taken by the %zu models that define it (%zu)",
       sizeof(mx4_models) / sizeof(mx4_models[0]), n);
    ok(smma_models_taking(&mx4, NULL, 0) == n && smma_models_taking(&mx4, got, 2) == n &&
           strcmp(got[1]->name, "exact-rz") == 0,
       "smma_models_taking counts all, writes at most max");

    len = smma_model_names(text, sizeof(text));
    same = len == strlen(text) && smma_model_names(NULL, 0) == len;
    for (i = 0; same && i < smma_model_count(); i++)
        same = strstr(text, smma_model_at(i)->name) != NULL;
    for (i = 0; same && i < smma_model_alias_count(); i++)
        same = strstr(text, smma_model_alias_at(i)->name) != NULL;
    ok(same, "smma_model_names lists every model and alias (%zu bytes)", len);
}

int
main(void)
{
    static const char *const all[] = { "exact-rn", "exact-rz", "fp32-fma-seq", "h100-bf16",
                                       "a100-bf16", "b200-bf16", "bf16-upcast-h100",
                                       "bf16-upcast-a100", "bf16-upcast-ada",
                                       "bf16-upcast-b200" };
    size_t i;

    plan_lazy();

    /* Three models, three results.  bf16 a = [7168, -1.75*2^-12, -6144],
     * b = [1, 1, 1], no C.  u = 2^-14 (fp32 ulp in [512, 1024)).
     *   exact: 7168 - 6144 - 7u = 1024 - 7u          -> 0x447ffff9
     *   fp32-fma-seq: 7168 - 7u rounds at ulp 8u (2^-11) to 7168 - 8u,
     *     then - 6144 = 1024 - 8u                      -> 0x447ffff8
     *   h100-bf16: one block, emax 12, 25 fraction bits: lsb 2^-13 = 2u;
     *     7u = 3.5 lsb truncates to 3 lsb = 6u: 1024 - 6u -> 0x447ffffa */
    {
        static const uint32_t a[3] = { 0x45e0, 0xb9e0, 0xc5c0 }, b[3] = { 0x3f80, 0x3f80, 0x3f80 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_NONE, 3);

        expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x447ffff9, "three-way case");
        expect("exact-rz", &s, a, b, NULL, NULL, 0, 0x447ffff9, "three-way case (exact)");
        expect("fp32-fma-seq", &s, a, b, NULL, NULL, 0, 0x447ffff8, "three-way case");
        expect("h100-bf16", &s, a, b, NULL, NULL, 0, 0x447ffffa, "three-way case");
    }

    /* A NaN into bf16 D from the models that accumulate in fp32 as D: Inf * 0
     * is NaN, and D is bf16's canonical NaN 0x7fff, not a rounded fp32 NaN. */
    {
        static const uint32_t a[2] = { 0x7f80, 0x3f80 }, b[2] = { 0x0000, 0x3f80 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_NONE, 2);

        s.d_fmt = SMMA_BF16;
        expect("fp32-fma-seq", &s, a, b, NULL, NULL, 0, 0x7fff, "Inf * 0 into bf16 D: 0x7fff");
        expect("h100-bf16", &s, a, b, NULL, NULL, 0, 0x7fff, "Inf * 0 into bf16 D: 0x7fff");
    }

    /* Round to nearest vs toward zero: 1 + 2^-24 + 2^-25 (bf16 1, 2^-24,
     * 2^-25 times 1): exact 1 + 1.5 * 2^-24 -> RN 1 + 2^-23 (0x3f800001),
     * RZ 1 (0x3f800000). */
    {
        static const uint32_t a[3] = { 0x3f80, 0x3380, 0x3300 }, b[3] = { 0x3f80, 0x3f80, 0x3f80 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_NONE, 3);

        expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x3f800001, "1 + 1.5*2^-24 rounds up");
        expect("exact-rz", &s, a, b, NULL, NULL, 0, 0x3f800000, "1 + 1.5*2^-24 truncates");
    }

    /* fp32-fma-seq's fma rounds once, also where the double sum lands on an
     * fp32 midpoint.  fp32 a = 1 + 2^-23 (0x3f800001), b = 2^-25 (1 -
     * 2^-23) (0x32fffffe): a * b = 2^-25 - 2^-71.  With C = 0.5 the exact
     * sum 0.5 + 2^-25 - 2^-71 is a hair below the midpoint 0.5 + 2^-25
     * (which is its nearest double): RN 0.5 (0x3f000000).  With a negated
     * and C = 0.5 + 2^-24 it is a hair above: RN 0.5 + 2^-24 (0x3f000001).
     * The same below 0 (C = -0.5, a negated: -0.5) and above 1 (b = 2^-23
     * (1 - 2^-23), C = 2: 2 + 2^-23 - 2^-69 -> 2). */
    {
        static const uint32_t a[1] = { 0x3f800001 }, na[1] = { 0xbf800001 },
                              b[1] = { 0x32fffffe }, b4[1] = { 0x33fffffe };
        smma_gemm_shape s = shape(SMMA_FP32, SMMA_FP32, SMMA_NONE, SMMA_FP32, 1);

        expect("fp32-fma-seq", &s, a, b, NULL, NULL, 0x3f000000, 0x3f000000,
               "a hair below an fp32 midpoint in (0, 1]");
        expect("fp32-fma-seq", &s, na, b, NULL, NULL, 0x3f000001, 0x3f000001,
               "a hair above an fp32 midpoint in (0, 1]");
        expect("fp32-fma-seq", &s, na, b, NULL, NULL, 0xbf000000, 0xbf000000,
               "a hair below -(a midpoint)");
        expect("fp32-fma-seq", &s, a, b4, NULL, NULL, 0x40000000, 0x40000000,
               "a hair below an fp32 midpoint above 1");
        expect("exact-rn", &s, a, b, NULL, NULL, 0x3f000000, 0x3f000000,
               "a hair below an fp32 midpoint");
    }

    /* fp8 alignment: e4m3 a = [448, 2^-9], b = [1, 1].  Exact: 448 + 2^-9;
     * fp32 ulp at 448 is 2^-15, so +64 ulps: 0x43e00040.  h100-fp8 keeps 13
     * fraction bits below emax = 8: lsb 2^-5, 2^-9 is dropped: 448 =
     * 0x43e00000.  b200-fp8 sums exactly: 0x43e00040. */
    {
        static const uint32_t a[2] = { 0x7e, 0x01 }, b[2] = { 0x38, 0x38 };
        smma_gemm_shape s = shape(SMMA_E4M3, SMMA_E4M3, SMMA_NONE, SMMA_NONE, 2);

        expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x43e00040, "448 + 2^-9");
        expect("h100-fp8", &s, a, b, NULL, NULL, 0, 0x43e00000, "2^-9 below the window");
        expect("ada-fp8", &s, a, b, NULL, NULL, 0, 0x43e00000, "2^-9 below the window");
        expect("b200-fp8", &s, a, b, NULL, NULL, 0, 0x43e00040, "exact block sum");
    }

    /* c is aligned too: e4m3 1 * 1 + c = 1 + 2^-20 (fp32 0x3f800008).
     * Exact: 2 + 2^-20, fp32 ulp at 2 is 2^-22: 0x40000004.  h100-fp8, emax 0,
     * lsb 2^-13: c becomes 1, sum 2 = 0x40000000.  h100-bf16, lsb 2^-25:
     * 0x40000004. */
    {
        static const uint32_t a[1] = { 0x38 }, b[1] = { 0x38 }, bb[1] = { 0x3f80 };
        smma_gemm_shape s = shape(SMMA_E4M3, SMMA_E4M3, SMMA_NONE, SMMA_FP32, 1);
        smma_gemm_shape t = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_FP32, 1);

        expect("exact-rn", &s, a, b, NULL, NULL, 0x3f800008, 0x40000004, "c = 1 + 2^-20");
        expect("h100-fp8", &s, a, b, NULL, NULL, 0x3f800008, 0x40000000, "c truncated");
        expect("h100-bf16", &t, bb, bb, NULL, NULL, 0x3f800008, 0x40000004, "c kept");
    }

    /* Blocks: a100-bf16 sums 8 products per block, h100-bf16 16.  bf16
     * a = [2^24, 1 x 8], b = 1: blocks of 8 see 2^24 + 7 (truncated to 24
     * bits: 2^24 + 6) then + 1 -> 2^24 + 6 (+1 truncated)... worked out:
     *   a100: block 1 = 2^24 + 7*1, 24 bits at emax 24 keep even numbers
     *         (ulp 2): 2^24 + 6; block 2: 2^24 + 6 + 1 -> 2^24 + 6 = 0x4b800003.
     *   h100: one block: 2^24 + 8 = 0x4b800004 (exact).
     *   exact-rn: 2^24 + 8 = 0x4b800004. */
    {
        uint32_t a[9], b[9];
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_NONE, 9);

        a[0] = 0x4b80; /* 2^24 */
        for (i = 1; i < 9; i++)
            a[i] = 0x3f80;
        for (i = 0; i < 9; i++)
            b[i] = 0x3f80;
        expect("a100-bf16", &s, a, b, NULL, NULL, 0, 0x4b800003, "blocks of 8 truncate");
        expect("ada-bf16", &s, a, b, NULL, NULL, 0, 0x4b800003, "blocks of 8 truncate");
        expect("h100-bf16", &s, a, b, NULL, NULL, 0, 0x4b800004, "one block of 9");
        expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x4b800004, "exact");
    }

    /* Triton's bf16 upcast: bf16 a = 1 + 2^-7 (0x3f81) times ue4m3 1.125
     * (0x39) is 1.0010001001b; bf16 keeps 1.0010001b = 1.1328125
     * (0x3f910000).  Exact: 1.1337890625 = 0x3f912000. */
    {
        static const uint32_t a[1] = { 0x3f81 }, b[1] = { 0x3f80 }, sa[1] = { 0x39 },
                              sb[1] = { 0x38 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_UE4M3, SMMA_NONE, 1);

        expect("bf16-upcast-h100", &s, a, b, sa, sb, 0, 0x3f910000, "a*sa rounded to bf16");
        expect("exact-rn", &s, a, b, sa, sb, 0, 0x3f912000, "a*sa exact");
    }

    /* The upcast's bf16 at the bottom of the range: bf16 a = 1 + 2^-7
     * (0x3f81) times e8m0 2^-127 (0x00) is 2^-127 + 2^-134, below bf16's
     * smallest normal 2^-126; as a bf16 subnormal (last bit 2^-133) it is
     * a tie, to the even 2^-127 (0x00400000).  Exact: 2^-127 + 2^-134 =
     * 0x00408000 (fp32's subnormals reach 2^-149). */
    {
        static const uint32_t a[1] = { 0x3f81 }, b[1] = { 0x3f80 }, sa[1] = { 0x00 },
                              sb[1] = { 127 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_E8M0, SMMA_NONE, 1);

        expect("bf16-upcast-h100", &s, a, b, sa, sb, 0, 0x00400000,
               "a*sa = 2^-127 + 2^-134 rounded to a bf16 subnormal: a tie, even");
        expect("exact-rn", &s, a, b, sa, sb, 0, 0x00408000, "a*sa exact: 2^-127 + 2^-134");
    }

    /* The upcast models keep the block-FMA parameters of their GPU: with
     * scales 1 the bf16 products are exact, so the blocks case above gives
     * a100's and Ada's blocks of 8 (0x4b800003) under bf16-upcast-a100 and
     * -ada, and one block of 16 (0x4b800004) under -h100 and -b200. */
    {
        uint32_t a[9], b[9], sa[1] = { 127 }, sb[1] = { 127 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_E8M0, SMMA_NONE, 9);

        a[0] = 0x4b80;
        for (i = 1; i < 9; i++)
            a[i] = 0x3f80;
        for (i = 0; i < 9; i++)
            b[i] = 0x3f80;
        expect("bf16-upcast-a100", &s, a, b, sa, sb, 0, 0x4b800003, "blocks of 8 truncate");
        expect("bf16-upcast-ada", &s, a, b, sa, sb, 0, 0x4b800003, "blocks of 8 truncate");
        expect("bf16-upcast-h100", &s, a, b, sa, sb, 0, 0x4b800004, "one block of 9");
        expect("bf16-upcast-b200", &s, a, b, sa, sb, 0, 0x4b800004, "one block of 9");
    }
    /* ... and the upcast itself: the a*sa case above under the three new
     * ones (one product, exact in every block-FMA window). */
    {
        static const uint32_t a[1] = { 0x3f81 }, b[1] = { 0x3f80 }, sa[1] = { 0x39 },
                              sb[1] = { 0x38 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_UE4M3, SMMA_NONE, 1);

        expect("bf16-upcast-a100", &s, a, b, sa, sb, 0, 0x3f910000, "a*sa rounded to bf16");
        expect("bf16-upcast-ada", &s, a, b, sa, sb, 0, 0x3f910000, "a*sa rounded to bf16");
        expect("bf16-upcast-b200", &s, a, b, sa, sb, 0, 0x3f910000, "a*sa rounded to bf16");
        expect("a100-bf16", &s, a, b, sa, sb, 0, 0x3f912000, "no upcast: a*sa exact");
    }

    /* Promotion: e4m3 [448, 2^-9] with e8m0 scales 1: the inner h100-fp8
     * drops 2^-9 (448), then fma(448, 1, 0) = 448 = 0x43e00000. */
    {
        static const uint32_t a[2] = { 0x7e, 0x01 }, b[2] = { 0x38, 0x38 }, sa[1] = { 127 },
                              sb[1] = { 127 };
        smma_gemm_shape s = shape(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, SMMA_NONE, 2);

        expect("h100-fp8-promote32", &s, a, b, sa, sb, 0, 0x43e00000, "inner model drops 2^-9");
        expect("exact-rn", &s, a, b, sa, sb, 0, 0x43e00040, "exact keeps it");
    }
    /* The promotion models write e2m3 and e3m2 as e4m3 before the fp8
     * blocks: e2m3 0.125 (code 0x01, a subnormal) is e4m3 2^-3, a normal
     * with exponent -3, and sets the block's emax to -3.  a = [0.125, 0.125]
     * (e2m3), b = [1, 2^-12] (e5m2 0x3c, 0x0c): products 2^-3 and 2^-15;
     * h100-fp8 keeps 13 fraction bits below emax, down to 2^-16, so 2^-15
     * stays: 2^-3 + 2^-15 (0x3e000800). */
    {
        uint32_t a[32], b[32], s1[1] = { 127 };
        smma_gemm_shape s = shape(SMMA_E2M3, SMMA_E5M2, SMMA_E8M0, SMMA_NONE, 32);

        memset(a, 0, sizeof(a));
        memset(b, 0, sizeof(b));
        a[0] = a[1] = 0x01;
        b[0] = 0x3c;
        b[1] = 0x0c;
        expect("h100-fp8-promote32", &s, a, b, s1, s1, 0, 0x3e000800,
               "e2m3 subnormals as e4m3 normals: the window reaches 2^-16");
        expect("exact-rn", &s, a, b, s1, s1, 0, 0x3e000800, "2^-3 + 2^-15");
    }
    /* Codes are read in their storage bits, as smma_decode reads them: e4m3
     * 0x138 is 0x38, 1 (h100-fp8-mma-sync converts it to fp16 first). */
    {
        uint32_t a[32], b[32];
        smma_gemm_shape s = shape(SMMA_E4M3, SMMA_E4M3, SMMA_NONE, SMMA_NONE, 32);

        memset(a, 0, sizeof(a));
        memset(b, 0, sizeof(b));
        a[0] = 0x138;
        b[0] = 0x38;
        expect("h100-fp8-mma-sync", &s, a, b, NULL, NULL, 0, 0x3f800000,
               "e4m3 code 0x138 read as 0x38");
        expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x3f800000, "e4m3 code 0x138 read as 0x38");
    }
    /* The exact sum's sticky bit at the edge of a 64-bit limb of the
     * accumulator: fp32 a = [1, 2^-24, 2^-64], b = 1: 1 + 2^-24 is the
     * midpoint of 1 and 1 + 2^-23, and 2^-64 (bit 0 of a limb, past the 53
     * bits kept) puts the sum above it: 1 + 2^-23 (0x3f800001). */
    {
        static const uint32_t a[3] = { 0x3f800000, 0x33800000, 0x1f800000 },
                              b[3] = { 0x3f800000, 0x3f800000, 0x3f800000 };
        smma_gemm_shape s = shape(SMMA_FP32, SMMA_FP32, SMMA_NONE, SMMA_NONE, 3);

        expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x3f800001,
               "1 + 2^-24 + 2^-64: 2^-64 breaks the tie");
    }
    /* An infinite sum times a negative alpha: -Inf * -1 = +Inf
     * (exact-rn's special path, with the product's sign). */
    {
        static const uint32_t a[1] = { 0xff80 }, b[1] = { 0x3f80 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_NONE, 1);

        s.has_alpha = true;
        s.alpha = 0xbf800000u;
        expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x7f800000, "-Inf times alpha -1: +Inf");
        expect("exact-rz", &s, b, b, NULL, NULL, 0, 0xbf800000, "1 times alpha -1: -1");
    }
    /* NaN into a promotion: a NaN scale (e8m0 0xff) or a NaN C gives NaN. */
    {
        static const uint32_t a[2] = { 0x7e, 0x01 }, b[2] = { 0x38, 0x38 }, sa[1] = { 0xff },
                              sb[1] = { 127 };
        smma_gemm_shape s = shape(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, SMMA_FP32, 2);

        expect("h100-fp8-promote32", &s, a, b, sa, sb, 0, 0x7fffffff, "a NaN scale");
        expect("h100-fp8-promote32", &s, a, b, sb, sb, 0x7fc00000, 0x7fffffff, "a NaN C");
    }
    /* Promotion rounds each step to fp32: two blocks of 16 (vec 16):
     * partials 1 and 1 (a = [1, 0 x 15, 1, 0 x 15]) with scales
     * (2^0, 2^0) and (2^-30, 2^0), C = 2^24: acc = fma(1, 1, 2^24) =
     * 2^24 + 1 -> RN ties to even: 2^24; then + 2^-30 -> 2^24 = 0x4b800000.
     * Exact: 2^24 + 1 + 2^-30 rounds up to 2^24 + 2 = 0x4b800001. */
    {
        uint32_t a[32], b[32], sa[2] = { 127, 97 }, sb[2] = { 127, 127 };
        smma_gemm_shape s = shape(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, SMMA_FP32, 32);

        s.vec = 16;
        for (i = 0; i < 32; i++) {
            a[i] = (i == 0 || i == 16) ? 0x38 : 0x00;
            b[i] = 0x38;
        }
        expect("h100-fp8-promote16", &s, a, b, sa, sb, 0x4b800000, 0x4b800000,
               "each promotion rounds");
        expect("exact-rn", &s, a, b, sa, sb, 0x4b800000, 0x4b800001, "one rounding");
    }

    /* cuBLASLt's promoted fp8 accumulation (no block scales): K = 256 of
     * e4m3, a = b = 1 at k = 0 and 2^-9 at k = 128 (products 1 and
     * 2^-18), C = 2^-30.  In one h100-fp8 chain every block aligns to
     * emax 0 and keeps 13 fraction bits: C and 2^-18 are dropped, 1.0.
     * Promoted: the running sum starts at C; the first 128 k give the
     * partial 1 and rn(2^-30 + 1) = 1; the next 128 the partial 2^-18
     * (from zero, exact) and rn(1 + 2^-18) = 1 + 2^-18 (0x3f800020). */
    {
        uint32_t a[256], b[256];
        smma_gemm_shape s = shape(SMMA_E4M3, SMMA_E4M3, SMMA_NONE, SMMA_FP32, 256);

        for (i = 0; i < 256; i++) {
            a[i] = i == 0 ? 0x38 : i == 128 ? 0x01 : 0x00;
            b[i] = a[i];
        }
        expect("cublaslt-fp8-promoted", &s, a, b, NULL, NULL, 0x30800000, 0x3f800020,
               "each 128 k from zero, then one fp32 addition");
        expect("h100-fp8", &s, a, b, NULL, NULL, 0x30800000, 0x3f800000,
               "one chain drops 2^-18");
        expect("cublaslt-fp8-fast", &s, a, b, NULL, NULL, 0x30800000, 0x3f800000,
               "the alias computes h100-fp8");
        /* A short last chunk (K = 200: k 128 .. 199) is promoted the same
         * way. */
        s.k = 200;
        expect("cublaslt-fp8-promoted", &s, a, b, NULL, NULL, 0x30800000, 0x3f800020,
               "a short last chunk");
        /* One chunk (K = 1): the chunk runs from zero and C meets its
         * partial in one fp32 addition to nearest, where h100-fp8 puts C
         * in the block's alignment. */
        s.k = 1;
        expect("cublaslt-fp8-promoted", &s, a, b, NULL, NULL, 0x30800000, 0x3f800000,
               "rn(2^-30 + 1) is 1");
        expect("cublaslt-fp8-promoted", &s, a, b, NULL, NULL, 0x34000000, 0x3f800001,
               "rn(2^-23 + 1) keeps 2^-23");
        expect("h100-fp8", &s, a, b, NULL, NULL, 0x34000000, 0x3f800000,
               "the chain from C = 2^-23 drops it");
    }

    /* Special values, every model. */
    for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        static const uint32_t one[1] = { 0x3f80 }, inf[1] = { 0x7f80 }, ninf[1] = { 0xff80 },
                              zero[1] = { 0x0000 }, nzero[1] = { 0x8000 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_FP32, 1);
        smma_gemm_shape sc = shape(SMMA_BF16, SMMA_BF16, SMMA_E8M0, SMMA_NONE, 1);
        static const uint32_t nanscale[1] = { 0xff }, unit[1] = { 127 };

        expect(all[i], &s, inf, one, NULL, NULL, 0x3f800000, 0x7f800000, "Inf propagates");
        expect(all[i], &s, inf, zero, NULL, NULL, 0x3f800000, 0x7fffffff, "Inf * 0 is NaN");
        expect(all[i], &s, inf, one, NULL, NULL, 0xff800000, 0x7fffffff, "Inf - Inf is NaN");
        expect(all[i], &s, ninf, one, NULL, NULL, 0x3f800000, 0xff800000, "-Inf propagates");
        expect(all[i], &s, one, one, NULL, NULL, 0x7fc00000, 0x7fffffff, "NaN C gives NaN");
        expect(all[i], &sc, one, one, nanscale, unit, 0, 0x7fffffff, "e8m0 0xff scale: NaN");
        /* -0 when every term is -0 (IEEE), +0 on the H100/H200 tensor cores
         * (zero_plus: tests/gpu/zero-sign-t). */
        expect(all[i], &s, nzero, one, NULL, NULL, 0x80000000,
               tap_model(all[i])->zero_plus ? 0x00000000 : 0x80000000,
               tap_model(all[i])->zero_plus ? "-0 + -0 = +0 (zero_plus)" : "-0 + -0 = -0");
        expect(all[i], &s, zero, one, NULL, NULL, 0x80000000, 0x00000000, "+0 + -0 = +0");
        expect(all[i], &sc, nzero, one, unit, unit, 0, 0x00000000, "absent C is +0");
    }
    {
        static const uint32_t a[2] = { 0x3f80, 0xbf80 }, b[2] = { 0x3f80, 0x3f80 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_NONE, 2);
        smma_gemm_shape u = shape(SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, SMMA_NONE, 1);
        static const uint32_t two[1] = { 0x4 }, nan7f[1] = { 0x7f }, us[1] = { 0x38 };

        expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x00000000, "1 - 1 = +0");
        expect("exact-rz", &s, a, b, NULL, NULL, 0, 0x00000000, "1 - 1 = +0 (rz)");
        expect("h100-bf16", &s, a, b, NULL, NULL, 0, 0x00000000, "1 - 1 = +0");
        expect("exact-rn", &u, two, two, nan7f, us, 0, 0x7fffffff, "ue4m3 0x7f scale: NaN");
    }
    /* The floor of the block's exponent.  bf16 a = [2^-70, 2^-80], b =
     * [2^-70, -2^-77 / -2^-78 / -2^-79]: products 2^-140 and -2^-157 /
     * -2^-158 / -2^-159, all below 2^-133, so emax is the model's floor and
     * the window's last bit is 2^(floor - 23 - neab): -2^-158 for floor -133
     * and neab 2, -2^-157 for -133 and 1, -2^-156 for -132 and 1.  A small
     * product the window keeps makes the sum 2^-140 - 2^-15x, which
     * truncates to 511 * 2^-149 (0x000001ff); one it drops leaves 2^-140 =
     * 512 * 2^-149 (0x00000200).  The upcast models see the same bf16
     * products, with e8m0 scales 1. */
    {
        static const uint32_t a[2] = { 0x1c80, 0x1780 }, unit[1] = { 127 };
        static const uint32_t small_b[3] = { 0x9900, 0x9880, 0x9800 }; /* -2^-77, -78, -79 */
        static const struct {
            const char *name;
            uint32_t want[3]; /* with -2^-157, -2^-158, -2^-159 */
        } floors[] = {
            { "h100-bf16", { 0x1ff, 0x1ff, 0x200 } },    /* -133, neab 2 */
            { "b200-bf16", { 0x1ff, 0x1ff, 0x200 } },    /* -133, neab 2 */
            { "h100-f16acc", { 0x1ff, 0x1ff, 0x200 } },  /* -133, neab 2 (fp32 D) */
            { "a100-bf16", { 0x200, 0x200, 0x200 } },    /* -132, neab 1 */
            { "ada-bf16", { 0x1ff, 0x200, 0x200 } },     /* -133, neab 1 */
            { "bf16-upcast-h100", { 0x1ff, 0x1ff, 0x200 } },
            { "bf16-upcast-b200", { 0x1ff, 0x1ff, 0x200 } },
            { "bf16-upcast-a100", { 0x200, 0x200, 0x200 } },
            { "bf16-upcast-ada", { 0x1ff, 0x200, 0x200 } },
        };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_NONE, 2);
        smma_gemm_shape sc = shape(SMMA_BF16, SMMA_BF16, SMMA_E8M0, SMMA_NONE, 2);
        char why[64];
        size_t j;

        for (i = 0; i < sizeof(floors) / sizeof(floors[0]); i++)
            for (j = 0; j < 3; j++) {
                uint32_t b[2] = { 0x1c80, small_b[j] };
                bool up = strncmp(floors[i].name, "bf16-upcast", 11) == 0;

                snprintf(why, sizeof(why), "products below the floor: 2^-140 - 2^-%zu",
                         157 + j);
                expect(floors[i].name, up ? &sc : &s, a, b, up ? unit : NULL,
                       up ? unit : NULL, 0, floors[i].want[j], why);
            }
        {
            /* h100-fp8-mma-sync: e4m3 products reach the floor only with
             * scales (its arithmetic takes e8m0 ones): a = [2, 2^-9, 0 x
             * 30], b = [1, -2^-9, 0 x 30], scales 2^-127 and 2^-14: 2^-140
             * and -2^-159, the latter dropped. */
            uint32_t fa[32], fb[32], sa8[1] = { 0x00 }, sb8[1] = { 113 };
            smma_gemm_shape s8 = shape(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, SMMA_NONE, 32);

            memset(fa, 0, sizeof(fa));
            memset(fb, 0, sizeof(fb));
            fa[0] = 0x40;
            fb[0] = 0x38;
            fa[1] = 0x01;
            fb[1] = 0x81;
            expect("h100-fp8-mma-sync", &s8, fa, fb, sa8, sb8, 0, 0x00000200,
                   "scaled products below the floor: 2^-140 - 2^-159");
        }
        {
            uint32_t b[2] = { 0x1c80, 0x9800 };

            expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x00000200,
                   "2^-140 - 2^-159, to nearest");
            expect("exact-rz", &s, a, b, NULL, NULL, 0, 0x000001ff,
                   "2^-140 - 2^-159, toward zero");
        }
    }

    /* smma_dot without smma_model_check: h100-bf16 refuses fp16 x fp16 with
     * ue4m3 scales (26 fraction bits a product), and computed anyway each
     * product is cut to the 23 its window keeps.  a = b = 1 + 2^-10
     * (0x3c01), sa = sb = 1.125 (ue4m3 0x39): the product is 1025^2 * 81 /
     * 2^26 = 85100625 / 2^26; truncated to 23 fraction bits 10637578 / 2^23,
     * an fp32 number: 0x3fa2510a. */
    {
        static const uint32_t a[1] = { 0x3c01 }, sc[1] = { 0x39 };
        smma_gemm_shape s = shape(SMMA_FP16, SMMA_FP16, SMMA_UE4M3, SMMA_NONE, 1);

        is_hex(0x3fa2510au, smma_dot(tap_model("h100-bf16"), &s, a, a, sc, sc, 0),
               "h100-bf16 unchecked: a product of 26 fraction bits cut to 23");
    }

    /* b200-fp8's exact blocks: a block of -0 products with C -0 is -0 (it is
     * not zero_plus); with C +0 it is +0. */
    {
        static const uint32_t nz[2] = { 0x80, 0x00 }, one[2] = { 0x38, 0x80 };
        smma_gemm_shape s = shape(SMMA_E4M3, SMMA_E4M3, SMMA_NONE, SMMA_FP32, 2);

        expect("b200-fp8", &s, nz, one, NULL, NULL, 0x80000000, 0x80000000,
               "-0 * 1 + 0 * -0 + -0 is -0");
        expect("b200-fp8", &s, nz, one, NULL, NULL, 0x00000000, 0x00000000,
               "-0 * 1 + 0 * -0 + +0 is +0");
        expect("b200-fp8-trunc", &s, nz, one, NULL, NULL, 0x80000000, 0x80000000,
               "-0 * 1 + 0 * -0, then + -0, is -0");
    }

    /* The exact models' fast path (narrow elements summed as integers) sees
     * the special codes of each format: e4m3's NaN is 0x7f and 0xff only
     * (0x7e is 448), e5m2's exponent field 31 is Inf (0x7c) or NaN. */
    {
        static const uint32_t one[2] = { 0x38, 0x38 }, nan7f[2] = { 0x7f, 0x38 },
                              nanff[2] = { 0x38, 0xff }, max7e[2] = { 0x7e, 0x38 },
                              inf[2] = { 0x7c, 0x3c }, nan5[2] = { 0x3c, 0x7d },
                              one5[2] = { 0x3c, 0x3c };
        smma_gemm_shape s = shape(SMMA_E4M3, SMMA_E4M3, SMMA_NONE, SMMA_NONE, 2);
        smma_gemm_shape t = shape(SMMA_E5M2, SMMA_E5M2, SMMA_NONE, SMMA_NONE, 2);

        expect("exact-rn", &s, nan7f, one, NULL, NULL, 0, 0x7fffffff, "e4m3 0x7f is NaN");
        expect("exact-rz", &s, one, nanff, NULL, NULL, 0, 0x7fffffff, "e4m3 0xff is NaN");
        expect("exact-rn", &s, max7e, one, NULL, NULL, 0, 0x43e08000, "e4m3 0x7e is 448: 449");
        expect("exact-rn", &t, inf, one5, NULL, NULL, 0, 0x7f800000, "e5m2 0x7c is Inf");
        expect("exact-rn", &t, nan5, one5, NULL, NULL, 0, 0x7fffffff, "e5m2 0x7d is NaN");
    }

    /* Outputs in bf16: exact-rn rounds the exact sum once (1 + 2^-8 + 2^-9:
     * bf16 ulp 2^-7, remainder 0.75 ulp -> 1 + 2^-7 = 0x3f81); h100-bf16
     * rounds its fp32 result to nearest (same value here). */
    {
        static const uint32_t a[3] = { 0x3f80, 0x3b80, 0x3b00 }, b[3] = { 0x3f80, 0x3f80, 0x3f80 };
        smma_gemm_shape s = shape(SMMA_BF16, SMMA_BF16, SMMA_NONE, SMMA_NONE, 3);

        s.d_fmt = SMMA_BF16;
        expect("exact-rn", &s, a, b, NULL, NULL, 0, 0x3f81, "bf16 output");
        expect("exact-rz", &s, a, b, NULL, NULL, 0, 0x3f80, "bf16 output, rz");
        expect("h100-bf16", &s, a, b, NULL, NULL, 0, 0x3f81, "fp32 result rounded to bf16");
    }

    /* Model checks and lookup. */
    {
        smma_gemm_shape s = shape(SMMA_FP32, SMMA_FP32, SMMA_NONE, SMMA_NONE, 4);
        smma_gemm_shape t = shape(SMMA_E4M3, SMMA_E4M3, SMMA_NONE, SMMA_NONE, 4);
        smma_gemm_shape u = shape(SMMA_FP16, SMMA_FP16, SMMA_UE4M3, SMMA_NONE, 4);
        smma_error err;
        const smma_model *m;
        smma_model hb;

        err.msg[0] = '\0';
        ok(smma_model_check(tap_model("h100-bf16"), &s, &err) == SMMA_EINVAL &&
               strstr(err.msg, "fp32") != NULL,
           "h100-bf16 refuses fp32 elements (%s)", err.msg);
        ok(smma_model_check(tap_model("h100-fp8-promote32"), &t, &err) == SMMA_EINVAL &&
               strstr(err.msg, "scales") != NULL,
           "promotion needs scales (%s)", err.msg);
        t.scale_fmt = SMMA_E8M0;
        t.vec = 16;
        ok(smma_model_check(tap_model("h100-fp8-promote32"), &t, &err) == SMMA_EINVAL &&
               strstr(err.msg, "divide") != NULL,
           "promotion interval must divide vec (%s)", err.msg);
        hb = smma_model_any_inputs(tap_model("h100-bf16"));
        ok(smma_model_check(&hb, &u, &err) == SMMA_EINVAL &&
               strstr(err.msg, "fraction bits") != NULL,
           "fp16 x fp16 with ue4m3 scales is too wide for the window (%s)", err.msg);
        ok(smma_model_check(tap_model("exact-rn"), &s, &err) == SMMA_OK, "exact takes anything");
        ok(smma_model_from_name("h100-bf17", &m, &err) == SMMA_EINVAL &&
               strstr(err.msg, "'h100-bf17'") != NULL && strstr(err.msg, "softmma models"),
           "unknown model: error names it and where the known ones are (%s)", err.msg);
        ok(smma_model_count() >= 12 && smma_model_at(smma_model_count()) == NULL,
           "the table has the models and ends");
        t.scale_fmt = SMMA_E8M0;
        t.vec = 32;
        ok(smma_model_check(tap_model("cublaslt-fp8-promoted"), &t, &err) == SMMA_EINVAL &&
               strstr(err.msg, "scales none;") != NULL,
           "cublaslt-fp8-promoted refuses block scales (%s)", err.msg);
        t.scale_fmt = SMMA_NONE;
        ok(smma_model_check(tap_model("cublaslt-fp8-promoted"), &t, &err) == SMMA_OK,
           "cublaslt-fp8-promoted takes e4m3 without scales");
        {
            /* The promotion interval of an unscaled model: 1 to 128 k. */
            smma_model pr = *tap_model("cublaslt-fp8-promoted");

            pr.promote = SMMA_PROMOTE_MAX + 1;
            ok(smma_model_check(&pr, &t, &err) == SMMA_EINVAL &&
                   strcmp(err.msg, "model cublaslt-fp8-promoted promotes every 129 k, which is "
                          "not in [1, 128]") == 0,
               "an unscaled promotion of 129 k is refused (%s)", err.msg);
            pr.promote = 0;
            ok(smma_model_check(&pr, &t, &err) == SMMA_EINVAL && strstr(err.msg, " 0 k,"),
               "... and of 0 k (%s)", err.msg);
            pr.promote = 1;
            ok(smma_model_check(&pr, &t, &err) == SMMA_OK, "... of 1 k taken");
            pr.promote = 128;
            ok(smma_model_check(&pr, &t, &err) == SMMA_OK, "... of 128 k taken");
        }
        ok(smma_model_alias_count() >= 1 && smma_model_alias_at(smma_model_alias_count()) == NULL,
           "the alias table has aliases and ends");
        for (i = 0; i < smma_model_alias_count(); i++) {
            const smma_model_alias *al = smma_model_alias_at(i);
            const smma_model *target = NULL;
            size_t j, shadows = 0;

            for (j = 0; j < smma_model_count(); j++)
                shadows += strcmp(smma_model_at(j)->name, al->name) == 0;
            ok(smma_model_from_name(al->name, &m, &err) == SMMA_OK &&
                   smma_model_from_name(al->model, &target, &err) == SMMA_OK && m == target &&
                   shadows == 0 && al->summary != NULL &&
                   (strncmp(al->status, "provisional", 11) == 0 ||
                    strncmp(al->status, "validated on ", 13) == 0),
               "alias %s looks up %s, names no model of its own and has a status (%s)",
               al->name, al->model, al->status);
        }
        for (i = 0; i < smma_model_count(); i++) {
            const smma_model *mm = smma_model_at(i);

            ok(mm->status != NULL && mm->summary != NULL && mm->inputs != NULL &&
                   (strcmp(mm->status, "definition") == 0 ||
                    strncmp(mm->status, "provisional", 11) == 0 ||
                    strncmp(mm->status, "validated on ", 13) == 0),
               "%s has a summary, inputs and a status (%s)", mm->name, mm->status);
        }
    }
    check_takes();
    return exit_status();
}
