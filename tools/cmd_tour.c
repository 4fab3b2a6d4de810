/*
 * tools/cmd_tour.c - softmma tour: a short guided printout of the formats,
 * their edge values and the places where conversions disagree, ending with
 * every committed golden vector suite generated again and verified.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int
cmd_tour(int argc, char **argv)
{
    uint32_t c;
    char *fargv[] = { (char *) "formats", NULL };
    static const char usage[] =
        "Usage: softmma tour\n\nA short guided printout of the formats, their edge "
        "values and\nthe conversions on which libraries disagree; it ends by generating "
        "every\ncommitted golden vector suite into a temporary directory and verifying\n"
        "it against vectors/ (or $SMMA_VECTORS), one line per suite.\n";
    bool done;
    const char *vectors;
    struct stat st;
    int rc = opt_no_args(argc, argv, usage, &done);

    if (rc != CLI_OK || done)
        return rc;

    printf("softmma tour\n============\n\n"
           "1. The formats.  Every value of every format is a dyadic rational; softmma\n"
           "   decodes each code to a double exactly.\n\n");
    cmd_formats(1, fargv);

    printf("\n2. FP4 (e2m1) has 16 codes and no specials.  Two per byte, even element in\n"
           "   the low nibble; in kind::f8f6f4 MMAs each sits in bits 5:2 of a byte.\n");
    for (c = 0; c < 16; c++)
        show_code(SMMA_E2M1, c, c == 1 ? "subnormal" : c == 8 ? "negative zero" : "");

    printf("\n3. Edge values of the 8-bit formats.\n");
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

    printf("\n4. Rounding at the edges (RN = ties to the even code).\n");
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

    printf("\n5. Where libraries disagree: NaN into FP4 and zero into e8m0.\n");
    show_encode(SMMA_E2M1, NAN, "nan", SMMA_RN, true, "cuda", "+max");
    show_encode(SMMA_E2M1, -NAN, "-nan", SMMA_RN, true, "cutlass-host", "max with the sign");
    show_encode(SMMA_E2M1, NAN, "nan", SMMA_RN, false, "ml_dtypes", "-0 for +NaN");
    show_encode(SMMA_E8M0, 0.0, "0", SMMA_RP, true, "cuda", "0x00 = 2^-127");
    show_encode(SMMA_E8M0, 0.0, "0", SMMA_RN, false, "ml_dtypes", "NaN");

    printf("\n6. Golden vectors: what a kernel or a library is checked against\n"
           "   (doc/vectors.md).  Every committed suite, generated again now:\n");
    vectors = getenv("SMMA_VECTORS");
    if (vectors == NULL || *vectors == '\0')
        vectors = SMMA_VECTORS_DIR;
    if (stat(vectors, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("   no vectors/ directory at %s (set SMMA_VECTORS to one): skipped.\n",
               vectors);
        rc = CLI_OK;
    } else {
        rc = cli_vectors_tour(vectors);
    }

    printf("\nMore: softmma formats | decode | encode | profiles | gen | ver (each with "
           "--help).\n");
    return rc;
}
