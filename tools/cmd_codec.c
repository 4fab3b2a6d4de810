/*
 * tools/cmd_codec.c - softmma formats, decode, encode and profiles.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

static const char *
specials_text(const smma_format_desc *d)
{
    switch (d->id) {
    case SMMA_E4M3:
        return "NaN=S.1111.111 (0x7f/0xff), no Inf";
    case SMMA_E8M0:
        return "0xff=NaN, 0x00=2^-127, no zero, no Inf, no sign";
    case SMMA_UE4M3:
        return "0x7f=NaN, no Inf, no sign, MSB must be 0";
    default:
        if (d->inf == SMMA_INF_IEEE)
            return "IEEE Inf and NaN";
        return "none (no Inf, no NaN)";
    }
}

/* Writes a positive power of two or other value as "2^k" when it is one. */
static void
format_pow2(double v, char *buf, size_t n)
{
    int e;
    double m = frexp(v, &e);

    if (m == 0.5)
        snprintf(buf, n, "2^%d", e - 1);
    else
        snprintf(buf, n, "%.17g", v);
}

int
cmd_formats(int argc, char **argv)
{
    unsigned i;
    static const char usage[] =
        "Usage: softmma formats\n\nPrints a table of every format softmma knows.\n";
    bool done;
    int rc = opt_no_args(argc, argv, usage, &done);

    if (rc != CLI_OK || done)
        return rc;
    printf("%-6s %4s %4s %3s %3s %5s %-9s %-9s %-32s %s\n", "format", "bits", "sign", "exp",
           "man", "bias", "min-sub", "min-norm", "max-finite", "specials");
    for (i = 0; i < SMMA_FORMAT_COUNT; i++) {
        const smma_format_desc *d = smma_format_info((smma_format) i);
        char sub[32], norm[32], maxv[64], hx[32];
        double maxd = smma_decode(d->id, d->max_code);

        format_pow2(smma_decode(d->id, d->min_sub_code), sub, sizeof(sub));
        if (d->has_subnormals)
            format_pow2(smma_decode(d->id, d->min_norm_code), norm, sizeof(norm));
        else
            snprintf(norm, sizeof(norm), "%s", sub);
        cli_format_hex(maxd, hx, sizeof(hx));
        snprintf(maxv, sizeof(maxv), "%.9g (%s)", maxd, hx);
        printf("%-6s %4u %4s %3u %3u %5d %-9s %-9s %-32s %s\n", d->name, d->bits,
               d->has_sign ? "yes" : "no", d->exp_bits, d->man_bits, d->bias, sub, norm, maxv,
               specials_text(d));
    }
    return CLI_OK;
}

int
cmd_decode(int argc, char **argv)
{
    bool lenient = false, strict = false;
    const char *profile_s = NULL;
    const smma_profile *p = smma_profile_cuda();
    const struct opt_spec specs[] = {
        { "lenient", false, NULL, &lenient },
        { "strict", false, NULL, &strict },
        { "profile", true, &profile_s, NULL },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    smma_format f;
    smma_error err;
    double *vals = NULL;
    uint32_t *codes = NULL;
    int i, rc = opt_parse(argc, argv, specs, &r);

    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        printf("Usage: softmma decode FORMAT CODE... [--strict|--lenient] [--profile P]\n\n"
               "Prints 'FORMAT CODE VALUE HEXFLOAT' for each code (decimal or 0x hex).\n"
               "VALUE is %%.17g (enough to identify the double), HEXFLOAT is exact; NaN\n"
               "and infinities print as nan/-nan/inf/-inf.  A ue4m3 code with its most\n"
               "significant bit set is an error in strict mode (the default, and the\n"
               "profile's choice unless it says otherwise); --lenient clears that bit.\n");
        goto done;
    }
    if (lenient && strict) {
        rc = cli_error("--lenient and --strict exclude each other");
        goto done;
    }
    if (r.npos < 2) {
        rc = cli_error("usage: softmma decode FORMAT CODE...");
        goto done;
    }
    if (smma_format_from_name(r.pos[0], &f, &err) != SMMA_OK ||
        (profile_s != NULL && smma_profile_from_name(profile_s, &p, &err) != SMMA_OK)) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (!lenient && !strict)
        strict = p->ue4m3_strict;
    vals = calloc((size_t) r.npos, sizeof(*vals));
    codes = calloc((size_t) r.npos, sizeof(*codes));
    if (vals == NULL || codes == NULL) {
        rc = cli_error("out of memory");
        goto done;
    }
    /* Check every argument before printing anything. */
    for (i = 1; i < r.npos; i++) {
        uint64_t c;

        if (!cli_parse_uint(r.pos[i], 0xffffffffu, &c)) {
            rc = cli_error("malformed code '%s' (argument %d)", r.pos[i], i + 1);
            goto done;
        }
        codes[i] = (uint32_t) c;
        if (smma_decode_checked(f, codes[i], strict, &vals[i], &err) != SMMA_OK) {
            rc = cli_error("%s (argument %d)", err.msg, i + 1);
            goto done;
        }
    }
    for (i = 1; i < r.npos; i++) {
        char v[64], h[64];

        cli_format_value(vals[i], v, sizeof(v));
        cli_format_hex(vals[i], h, sizeof(h));
        printf("%s 0x%0*x %s %s\n", smma_format_name(f), cli_code_digits(f),
               (unsigned) codes[i], v, h);
    }
done:
    free(vals);
    free(codes);
    opt_free(&r);
    return rc;
}

int
cmd_encode(int argc, char **argv)
{
    const char *round_s = NULL, *profile_s = NULL, *rbits_s = NULL;
    bool nosat = false, sat = false, bits = false;
    const struct opt_spec specs[] = {
        { "round", true, &round_s, NULL },
        { "profile", true, &profile_s, NULL },
        { "rbits", true, &rbits_s, NULL },
        { "nosat", false, NULL, &nosat },
        { "sat", false, NULL, &sat },
        { "bits", false, NULL, &bits },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    smma_format f;
    smma_error err;
    const smma_profile *p = smma_profile_cuda();
    smma_cvt cvt;
    uint32_t *out = NULL;
    int i, rc = opt_parse(argc, argv, specs, &r);

    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        printf("Usage: softmma encode FORMAT VALUE... [--round rn|ra|rz|rp|rm|rs]\n"
               "           [--sat|--nosat] [--profile P] [--bits] [--rbits N]\n\n"
               "Prints 'FORMAT VALUE CODE DECODED' for each value.  VALUE is decimal\n"
               "(rounded to the nearest double first), a C99 hex-float, inf, -inf or nan;\n"
               "with --bits it is the 0x bits of an fp32.  Rounding and saturation default\n"
               "to the profile's (cuda: rn, satfinite; e8m0 takes the profile's scale\n"
               "rounding, rp for cuda).  --rbits gives the 32 random bits\n"
               "of stochastic rounding (rs).\n");
        goto done;
    }
    if (r.npos < 2) {
        rc = cli_error("usage: softmma encode FORMAT VALUE... [options]");
        goto done;
    }
    if (smma_format_from_name(r.pos[0], &f, &err) != SMMA_OK ||
        (profile_s != NULL && smma_profile_from_name(profile_s, &p, &err) != SMMA_OK)) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    cvt = smma_profile_cvt_for(p, f);
    if (round_s != NULL && smma_round_from_name(round_s, &cvt.round, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (sat && nosat) {
        rc = cli_error("--sat and --nosat exclude each other");
        goto done;
    }
    if (sat || nosat)
        cvt.sat = sat;
    if (rbits_s != NULL) {
        uint64_t v;

        if (!cli_parse_uint(rbits_s, 0xffffffffu, &v)) {
            rc = cli_error("malformed --rbits '%s' (an integer 0..0xffffffff)", rbits_s);
            goto done;
        }
        if (cvt.round != SMMA_RS) {
            rc = cli_error("--rbits needs --round rs");
            goto done;
        }
        cvt.rbits = (uint32_t) v;
    }
    out = calloc((size_t) r.npos, sizeof(*out));
    if (out == NULL) {
        rc = cli_error("out of memory");
        goto done;
    }
    for (i = 1; i < r.npos; i++) {
        if (bits) {
            uint64_t b;

            if (!cli_parse_uint(r.pos[i], 0xffffffffu, &b)) {
                rc = cli_error("malformed fp32 bits '%s' (argument %d)", r.pos[i], i + 1);
                goto done;
            }
            out[i] = smma_encode_f32bits(f, (uint32_t) b, &cvt);
        } else {
            double x;

            if (!cli_parse_double(r.pos[i], &x)) {
                rc = cli_error("malformed number '%s' (argument %d)", r.pos[i], i + 1);
                goto done;
            }
            out[i] = smma_encode(f, x, &cvt);
        }
    }
    for (i = 1; i < r.npos; i++) {
        char v[64];

        cli_format_value(smma_decode(f, out[i]), v, sizeof(v));
        printf("%s %s 0x%0*x %s\n", smma_format_name(f), r.pos[i], cli_code_digits(f),
               (unsigned) out[i], v);
    }
done:
    free(out);
    opt_free(&r);
    return rc;
}

static const char *
nanf_text(smma_nan_to_finite v)
{
    switch (v) {
    case SMMA_NANF_POS_MAX: return "+max";
    case SMMA_NANF_SIGNED_MAX: return "+-max (sign kept)";
    case SMMA_NANF_FLIPPED_ZERO: return "-0 for +NaN, +0 for -NaN";
    case SMMA_NANF_POS_ZERO: return "+0";
    case SMMA_NANF_ONE_AND_HALF: return "1.5 with the NaN's sign";
    case SMMA_NANF_POS_TWO: return "+2";
    case SMMA_NANF_XLA: return "-0 in e2m1, +0 in e2m3 and e3m2";
    }
    return "?";
}

static const char *
nano_text(smma_nan_out v)
{
    switch (v) {
    case SMMA_NANO_CANONICAL: return "canonical positive NaN (0x7f)";
    case SMMA_NANO_SIGNED: return "NaN with the input's sign";
    }
    return "?";
}

int
cmd_profiles(int argc, char **argv)
{
    size_t i;
    static const char usage[] =
        "Usage: softmma profiles\n\nLists the semantic profiles and their choices.\n";
    bool done;
    int rc = opt_no_args(argc, argv, usage, &done);

    if (rc != CLI_OK || done)
        return rc;
    for (i = 0; i < smma_profile_count(); i++) {
        const smma_profile *p = smma_profile_at(i);

        printf("%s: %s\n", p->name, p->summary);
        printf("  rounding %s, %s\n", smma_round_name(p->round),
               p->sat ? "satfinite" : "non-saturating");
        printf("  NaN into FP4/FP6: %s; NaN into formats with NaN: %s\n",
               nanf_text(p->nan_to_finite), nano_text(p->nan_out));
        printf("  Inf into e4m3/ue4m3: %s; into e8m0: %s\n",
               p->inf_nonf == SMMA_INFN_NAN ? "NaN" : "+-max if satfinite, else NaN",
               p->e8m0_inf == SMMA_INFN_NAN ? "NaN" : "0xfe if satfinite, else NaN");
        printf("  negative into e8m0/ue4m3: %s; zero into e8m0: %s; e8m0 rounding %s\n",
               p->neg_unsigned == SMMA_NEGU_ABS   ? "magnitude"
               : p->neg_unsigned == SMMA_NEGU_NAN ? "NaN"
                                                  : "smallest code",
               p->e8m0_zero == SMMA_E8Z_NAN ? "NaN (0xff)" : "0x00 (2^-127)",
               smma_round_name(p->e8m0_round));
        if (p->e8m0_rn == SMMA_E8RN_ML_DTYPES)
            printf("  e8m0 rn: ties to an even significand (up), (2^-127, 2^-126) -> 0x01\n");
        printf("  ue4m3 byte with MSB set: %s\n", p->ue4m3_strict ? "rejected" : "MSB cleared");
        cli_print_quant_choices(p);
    }
    return CLI_OK;
}
