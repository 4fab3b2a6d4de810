/*
 * tools/cmd_tour.c - softmma tour: a short guided printout that teaches the
 * project in ten sections: the formats, FP4, edge values, rounding, where
 * libraries disagree, block quantization, where the scales go, which lane
 * holds which element, the reference GEMM and the golden vectors.
 *
 * Every value printed is computed here by the library; the inputs (a block,
 * an operand shape, a dot product) are chosen to show one thing each.  Every
 * section names the page of doc/ and the command that go deeper.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <softmma/gemm.h>
#include <softmma/grid.h>
#include <softmma/quant.h>
#include <softmma/scale_layout.h>

#include "cli.h"
#include "options.h"

static void
show_code(smma_format f, uint32_t code, const char *note)
{
    char v[64], h[64];
    double x = smma_decode(f, code);

    cli_format_value(x, v, sizeof(v));
    cli_format_hex(x, h, sizeof(h));
    if (*note != '\0')
        printf("    %-5s 0x%0*x = %-24s %-18s %s\n", smma_format_name(f), cli_code_digits(f),
               (unsigned) code, v, h, note);
    else
        printf("    %-5s 0x%0*x = %-24s %s\n", smma_format_name(f), cli_code_digits(f),
               (unsigned) code, v, h);
}

static void
show_encode(smma_format f, double x, const char *xtext, smma_round rnd, bool sat,
            const char *profile, const char *note)
{
    const smma_profile *p = smma_profile_cuda();
    smma_cvt c;
    uint32_t code;
    char v[64];

    if (profile != NULL)
        smma_profile_from_name(profile, &p, NULL);
    c = smma_profile_cvt(p);
    c.round = rnd;
    c.sat = sat;
    code = smma_encode(f, x, &c);
    cli_format_value(smma_decode(f, code), v, sizeof(v));
    printf("    %-5s %-10s %s %-8s %-13s -> 0x%0*x = %-10s %s\n", smma_format_name(f), xtext,
           smma_round_name(rnd), sat ? "satfin" : "nosat", p->name, cli_code_digits(f),
           (unsigned) code, v, note);
}

/* The sixteen e2m1 codes, a positive code and its negative on each line. */
static void
show_fp4_codes(void)
{
    uint32_t c;

    for (c = 0; c < 8; c++) {
        char v[32], nv[32];

        cli_format_value(smma_decode(SMMA_E2M1, c), v, sizeof(v));
        cli_format_value(smma_decode(SMMA_E2M1, c | 8), nv, sizeof(nv));
        const char *note = c == 0 ? "two zeros" : c == 1 ? "subnormal (exponent field 0)" :
                           c == 7 ? "the largest" : NULL;

        if (note != NULL)
            printf("    0x%x = %-4s  0x%x = %-4s  %s\n", (unsigned) c, v, (unsigned) (c | 8), nv,
                   note);
        else
            printf("    0x%x = %-4s  0x%x = %s\n", (unsigned) c, v, (unsigned) (c | 8), nv);
    }
}

/* ------------------------------------------------------------ quantization */

/* Quantizes the block x of n values under profile pname and prints its
 * scale and codes (16 per line).  Sets *scale, *top to the largest element
 * code's magnitude and *clipped to the number of elements whose magnitude
 * over the scale passes the largest element (MX formats).  False after
 * printing an error. */
static bool
quant_line(smma_block_format bf, const uint32_t *x, size_t n, const char *pname,
           uint32_t global_amax_bits, uint8_t *scale, uint8_t *top, size_t *clipped)
{
    const smma_block_format_desc *bd = smma_block_format_info(bf);
    const smma_profile *p;
    smma_quant_opts o;
    uint8_t codes[32];
    unsigned sign = 1u << (smma_format_info(bd->elem)->bits - 1);
    smma_error err;
    char sv[32];
    size_t i;

    *top = 0;
    *clipped = 0;
    if (smma_profile_from_name(pname, &p, &err) != SMMA_OK) {
        cli_error("%s", err.msg);
        return false;
    }
    o = smma_quant_opts_default(p);
    if (bf == SMMA_NVFP4) {
        o.global = SMMA_GLOBAL_AMAX;
        o.global_bits = global_amax_bits;
    }
    if (smma_quantize(bf, x, n, &o, scale, codes, &err) != SMMA_OK) {
        cli_error("%s", err.msg);
        return false;
    }
    if (bd->scale == SMMA_E8M0)
        snprintf(sv, sizeof(sv), "2^%d", (int) *scale - 127);
    else
        cli_format_value(smma_decode(bd->scale, *scale), sv, sizeof(sv));
    printf("     %-13s scale 0x%02x = %-11s codes", pname, (unsigned) *scale, sv);
    for (i = 0; i < n; i++) {
        if (i > 0 && i % 16 == 0)
            printf("\n%52s", "");
        printf(" %02x", (unsigned) codes[i]);
        if ((codes[i] & (sign - 1)) > *top)
            *top = (uint8_t) (codes[i] & (sign - 1));
        if (bd->scale == SMMA_E8M0 &&
            fabs(ldexp(smma_decode(SMMA_FP32, x[i]), 127 - (int) *scale)) > bd->max_elem)
            (*clipped)++;
    }
    putchar('\n');
    return true;
}

static void
tour_quant(void)
{
    uint32_t x[32], amax_bits = smma_f32_bits(2688.0f);
    uint8_t s_ocp, s_cuda, s_te, s_ta, top_te, top_ta, top;
    size_t i, clip_ocp, clip_cuda, clip;
    char v_te[32], v_ta[32];

    printf("\n6. Block quantization (doc/profiles.md; softmma quant, softmma diff P1 P2).\n");
    for (i = 0; i < 32; i++)
        x[i] = smma_f32_bits(15.625f * (float) (i + 1));
    printf("   One MXFP8 block (32 e4m3 codes, one e8m0 scale): x[i] = 15.625 (i + 1), "
           "amax 500.\n");
    if (!quant_line(SMMA_MXFP8_E4M3, x, 32, "ocp", 0, &s_ocp, &top, &clip_ocp) ||
        !quant_line(SMMA_MXFP8_E4M3, x, 32, "cuda", 0, &s_cuda, &top, &clip_cuda))
        return;
    printf("   ocp's FLOOR scale 2^(floor(log2 500) - 8) = 2^%d leaves %zu elements above 448 "
           "to clip;\n   cuda's RCEIL rounds 500 * (1/448) up to 2^%d and %zu clip.\n",
           (int) s_ocp - 127, clip_ocp, (int) s_cuda - 127, clip_cuda);

    for (i = 0; i < 16; i++)
        x[i] = smma_f32_bits(ldexpf((float) (i + 1), -9));
    printf("   One NVFP4 block (16 e2m1 codes, one ue4m3 scale): x[i] = 2^-9 (i + 1), tensor "
           "amax 2688\n   (= 6 * 448: a per-tensor scale of 1):\n");
    if (!quant_line(SMMA_NVFP4, x, 16, "te", amax_bits, &s_te, &top_te, &clip) ||
        !quant_line(SMMA_NVFP4, x, 16, "torchao-floor", amax_bits, &s_ta, &top_ta, &clip))
        return;
    cli_format_value(smma_decode(SMMA_E2M1, top_te), v_te, sizeof(v_te));
    cli_format_value(smma_decode(SMMA_E2M1, top_ta), v_ta, sizeof(v_ta));
    printf("   te rounds amax / 6 to the subnormal ue4m3 0x%02x and its codes reach %s "
           "(0x%02x);\n   torchao clamps the scale to at least 2^-6 (0x%02x), so its codes "
           "stop at %s (0x%02x).\n", (unsigned) s_te, v_te, (unsigned) top_te,
           (unsigned) s_ta, v_ta, (unsigned) top_ta);
}

/* ------------------------------------------------------------ scale layout */

static void
tour_scale_layout(void)
{
    static const unsigned rows[] = { 0, 1, 2, 31, 32, 33, 127, 128, 159 };
    const size_t m = 160, k = 256;
    smma_scale_shape sh;
    smma_error err;
    size_t i, kb, off;

    printf("\n7. Where the scales go: the 128x4 layout (doc/scale-layouts.md; softmma layout "
           "scale).\n");
    if (smma_scale_layout_shape(SMMA_SL_128X4, m, k, 32, &sh, &err) != SMMA_OK) {
        cli_error("%s", err.msg);
        return;
    }
    printf("   An MX operand of %zu rows, K = %zu: %zu x %zu scales, stored padded to %zu x %zu "
           "= %zu bytes\n   in 512-byte tiles of 128 rows x 4 scale columns, K first:\n"
           "   off(m, kb) = ((m/128) (Kb'/4) + kb/4) 512 + (m%%32) 16 + ((m/32)%%4) 4 + kb%%4,"
           " Kb' = %zu\n   row m:  kb", m, k, sh.rows, sh.kb, sh.rows_pad, sh.kb_pad, sh.bytes,
           sh.kb_pad);
    for (kb = 0; kb < sh.kb; kb++)
        printf(" %5zu", kb);
    putchar('\n');
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        printf("   %5u     ", rows[i]);
        for (kb = 0; kb < sh.kb; kb++) {
            /* Cannot fail: (row, kb) is inside the shape just checked. */
            smma_scale_offset(SMMA_SL_128X4, m, k, 32, rows[i], kb, &off, &err);
            printf(" %5zu", off);
        }
        putchar('\n');
    }
    printf("   All rows: softmma layout scale --layout 128x4 --rows %zu --k %zu --vec 32 "
           "(triton5d: same bytes).\n", m, k);
}

/* ------------------------------------------------------------ fragments */

/* Draws the picked rows and first ncols columns of one layout with the
 * drawing code of softmma layout, then the command that draws all of it. */
static void
tour_grid(const char *instr, const char *operand, const unsigned *rows, size_t nrows,
          unsigned ncols, const char *svg)
{
    smma_grid_opts o = SMMA_GRID_OPTS_NONE;
    smma_grid g;
    smma_error err;

    if (smma_grid_find(instr, operand, &o, &g, &err) != SMMA_OK) {
        cli_error("%s", err.msg);
        return;
    }
    cli_grid_print_text(&g, rows, nrows, ncols, "   ");
    printf("   All of it: softmma layout %s %s [--svg %s]\n", instr, operand, svg);
}

static void
tour_fragments(void)
{
    static const unsigned a_rows[] = { 0, 1, 7, 8, 9, 15 };
    static const unsigned d_rows[] = { 0, 15, 16, 31, 32, 47, 48 };

    printf("\n8. Which lane holds what: fragment layouts (doc/layouts.md; softmma layout "
           "--list).\n"
           "   mma.sync m16n8k16, A (16 x 16 bf16): lane t holds rows t/4 and t/4 + 8, "
           "columns\n   2(t%%4) + {0, 1} and 8 more; columns 0-7 shown (8-15 repeat them "
           "in r2, r3):\n");
    tour_grid("mma.m16n8k16.bf16", "a", a_rows, sizeof(a_rows) / sizeof(a_rows[0]), 8,
              "a.svg");
    printf("   tcgen05.mma D, M = 64 (Layout F) in tensor memory: row m in lane "
           "32 (m/16) + m%%16,\n   column n; lanes 16-31 of each 32-lane partition stay "
           "free (columns 0-7 shown):\n");
    tour_grid("tcgen05.mma.m64", "d", d_rows, sizeof(d_rows) / sizeof(d_rows[0]), 8, "d.svg");
}

/* ------------------------------------------------------------ GEMM */

static void
tour_gemm(void)
{
    static const char *const models[] = { "exact-rn", "fp32-fma-seq", "h100-bf16" };
    const double av[3] = { 7168.0, -1.75 * 0x1p-12, -6144.0 };
    smma_gemm_shape s;
    uint32_t a[3], b[3];
    smma_cvt cvt = smma_cvt_default();
    smma_error err;
    size_t i;

    memset(&s, 0, sizeof(s));
    s.a_fmt = s.b_fmt = SMMA_BF16;
    s.scale_fmt = SMMA_NONE;
    s.vec = 32;
    s.c_fmt = SMMA_NONE;
    s.d_fmt = SMMA_FP32;
    s.m = s.n = 1;
    s.k = 3;
    for (i = 0; i < 3; i++) {
        a[i] = smma_encode(SMMA_BF16, av[i], &cvt);
        b[i] = smma_encode(SMMA_BF16, 1.0, &cvt);
    }
    printf("\n9. The reference GEMM: one case, three answers (doc/models.md; softmma gemm, "
           "softmma models).\n   bf16 a = [7168, -1.75 * 2^-12, -6144] (0x%04x 0x%04x "
           "0x%04x), b = [1, 1, 1], no C, fp32 D:\n", (unsigned) a[0], (unsigned) a[1],
           (unsigned) a[2]);
    for (i = 0; i < 3; i++) {
        const smma_model *md;
        uint32_t d;
        char v[64];

        if (smma_model_from_name(models[i], &md, &err) != SMMA_OK ||
            smma_model_check(md, &s, &err) != SMMA_OK) {
            cli_error("%s", err.msg);
            return;
        }
        d = smma_dot(md, &s, a, b, NULL, NULL, 0);
        cli_format_value(smma_decode(SMMA_FP32, d), v, sizeof(v));
        printf("     %-13s 0x%08x = %s\n", models[i], (unsigned) d, v);
    }
    printf("   The exact sum 1024 - 7 * 2^-14 is an fp32 number; fp32-fma-seq first rounds "
           "7168 - 7 * 2^-14\n   to 7168's ulp 2^-11; the H100 block-FMA model aligns all "
           "three products to 2^12 with\n   25 fraction bits (lsb 2^-13) and truncates. A "
           "kernel is right only with its model.\n");
}

/* ------------------------------------------------------------ the tour */

int
cmd_tour(int argc, char **argv)
{
    char *fargv[] = { (char *) "formats", NULL };
    static const char usage[] =
        "Usage: softmma tour [--all-suites]\n\nA short guided printout: the formats, their "
        "edge values, the conversions on\nwhich libraries disagree, a block quantized under "
        "two profiles, where the\nscales of an operand go, which lane holds which element "
        "of an MMA, one dot\nproduct under three numerics models; it ends by generating "
        "every committed\ngolden vector suite and verifying it against vectors/ (or "
        "$SMMA_VECTORS),\none line per family.\n\n"
        "  --all-suites  one line per suite instead of one per family\n";
    bool all_suites = false;
    const struct opt_spec specs[] = {
        { "all-suites", false, NULL, &all_suites },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    const char *vectors;
    struct stat st;
    int rc = opt_parse(argc, argv, specs, &r);

    if (rc == CLI_OK && r.help)
        fputs(usage, stdout);
    else if (rc == CLI_OK && r.npos > 0)
        rc = cli_error("unexpected argument '%s'", r.pos[0]);
    if (rc != CLI_OK || r.help) {
        opt_free(&r);
        return rc;
    }
    opt_free(&r);

    printf("softmma tour\n============\n\n"
           "1. The formats (doc/formats.md; softmma formats).  Every value of every format "
           "is a dyadic\n   rational; softmma decodes each code to a double exactly.\n\n");
    cmd_formats(1, fargv);

    printf("\n2. FP4 (e2m1) has 16 codes, no Inf, no NaN (doc/formats.md; softmma decode e2m1 "
           "CODE).\n   Two per byte, the even element in the low nibble; in kind::f8f6f4 MMAs "
           "each sits in bits 5:2.\n");
    show_fp4_codes();

    printf("\n3. Edge values of the 8-bit formats (doc/formats.md; softmma decode FORMAT "
           "CODE).\n");
    show_code(SMMA_E4M3, 0x01, "smallest subnormal 2^-9");
    show_code(SMMA_E4M3, 0x08, "smallest normal 2^-6");
    show_code(SMMA_E4M3, 0x7e, "largest finite");
    show_code(SMMA_E4M3, 0x7f, "NaN (0xff too); e4m3 has no Inf");
    show_code(SMMA_E5M2, 0x7b, "largest finite");
    show_code(SMMA_E5M2, 0x7c, "infinity");
    show_code(SMMA_E5M2, 0x7e, "NaN");
    show_code(SMMA_E8M0, 0x00, "not zero: e8m0 has no zero");
    show_code(SMMA_E8M0, 0x7f, "scale 1");
    show_code(SMMA_E8M0, 0xfe, "largest scale");
    show_code(SMMA_E8M0, 0xff, "NaN, not infinity");
    show_code(SMMA_UE4M3, 0x7e, "largest NVFP4 block scale");
    show_code(SMMA_UE4M3, 0x7f, "NaN; a byte with bit 7 set is rejected");

    printf("\n4. Rounding at the edges, RN ties to even (doc/formats.md; softmma encode F X "
           "--round R).\n");
    show_encode(SMMA_E2M1, 0.25, "0.25", SMMA_RN, true, NULL, "tie 0|0.5 goes to 0");
    show_encode(SMMA_E2M1, 0.75, "0.75", SMMA_RN, true, NULL, "tie 0.5|1 goes to 1");
    show_encode(SMMA_E2M1, 5.0, "5", SMMA_RN, true, NULL, "tie 4|6 goes to 4");
    show_encode(SMMA_E2M1, 5.0, "5", SMMA_RA, true, NULL, "ties away: 6");
    show_encode(SMMA_E4M3, 464.0, "464", SMMA_RN, false, NULL, "midpoint 448|480: even");
    show_encode(SMMA_E4M3, 465.0, "465", SMMA_RN, false, NULL, "past it: NaN");
    show_encode(SMMA_E4M3, 465.0, "465", SMMA_RN, true, NULL, "satfinite clamps");
    show_encode(SMMA_E5M2, 61440.0, "61440", SMMA_RN, false, "ml_dtypes", "rounds to Inf");
    show_encode(SMMA_E5M2, 61440.0, "61440", SMMA_RN, true, NULL, "satfinite clamps");
    show_encode(SMMA_E8M0, 1.5, "1.5", SMMA_RZ, true, NULL, "scale toward zero");
    show_encode(SMMA_E8M0, 1.5, "1.5", SMMA_RP, true, NULL, "scale up (cuBLAS RCEIL)");

    printf("\n5. Where libraries disagree: NaN into FP4 and zero into e8m0 (doc/profiles.md; "
           "softmma profiles).\n");
    show_encode(SMMA_E2M1, NAN, "nan", SMMA_RN, true, "cuda", "+max");
    show_encode(SMMA_E2M1, -NAN, "-nan", SMMA_RN, true, "cutlass-host", "max with the sign");
    show_encode(SMMA_E2M1, NAN, "nan", SMMA_RN, false, "ml_dtypes", "-0 for +NaN");
    show_encode(SMMA_E8M0, 0.0, "0", SMMA_RP, true, "cuda", "0x00 = 2^-127");
    show_encode(SMMA_E8M0, 0.0, "0", SMMA_RN, false, "ml_dtypes", "NaN");

    tour_quant();
    tour_scale_layout();
    tour_fragments();
    tour_gemm();

    printf("\n10. Golden vectors: what a kernel or a library is checked against "
           "(doc/vectors.md;\n    softmma gen --list).  Every committed suite, generated "
           "again now and compared:\n");
    vectors = getenv("SMMA_VECTORS");
    if (vectors == NULL || *vectors == '\0')
        vectors = SMMA_VECTORS_DIR;
    if (stat(vectors, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("   no vectors/ directory at %s (set SMMA_VECTORS to one): skipped.\n",
               vectors);
        rc = CLI_OK;
    } else {
        rc = cli_vectors_tour(vectors, all_suites);
    }
    printf("   softmma tour --all-suites lists them one by one.  To check a subject against a "
           "suite:\n"
           "     softmma gen quant.mxfp8e4m3.cuda -o in.vec   # inputs and expected outputs\n"
           "     (the subject computes the outputs of in.vec and writes out.vec, same format,"
           " or raw)\n"
           "     softmma ver quant.mxfp8e4m3.cuda out.vec     # the first mismatches; exit 0 "
           "if all equal\n"
           "   A large GEMM: softmma gemm ... --check D.txt (sampled exact verification).\n");
    return rc;
}
