/*
 * tools/cmd_quant.c - softmma quant, dequant and diff: block quantization of
 * fp32 values under a profile, its inverse, and the search for blocks on
 * which two profiles give different bytes.
 *
 * The text format written by quant and read by dequant (one line per block,
 * everything in hex where it is a bit pattern):
 *
 *   # softmma quant --format mxfp8e4m3 --profile cuda: 40 values, 2 blocks of 32
 *   format mxfp8e4m3 profile cuda values 40
 *   global 0x3a800000 0.0009765625        (nvfp4 two-level only: fp32 bits of G)
 *   block 0 scale 0x7f 2^0 codes 38 40 44 ...
 *   block 1 scale 0x80 2^1 codes 38 ...
 *
 * Lines starting with '#' and blank lines are ignored; the decoded scale
 * after the scale byte is for people and is not read back.  Nothing is
 * printed until all the input has been read and checked.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/quant.h>
#include <softmma/scale_layout.h>
#include <softmma/suites.h>

#include "cli.h"
#include "options.h"

/* ------------------------------------------------------------------ input */

struct u32buf {
    uint32_t *v;
    size_t n, cap;
};

static int
buf_push(struct u32buf *b, uint32_t x)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        uint32_t *nv = realloc(b->v, cap * sizeof(*nv));

        if (nv == NULL)
            return -1;
        b->v = nv;
        b->cap = cap;
    }
    b->v[b->n++] = x;
    return 0;
}

/* Parses an fp32 number: decimal (correctly rounded to fp32), C99 hex-float,
 * inf, -inf, nan, -nan.  The fp32 is returned as bits. */
static bool
parse_f32(const char *s, uint32_t *out)
{
    char *end;
    float v;

    if (s == NULL || *s == '\0' || strchr(s, '(') != NULL)
        return false;
    errno = 0;
    v = strtof(s, &end);
    if (end == s || *end != '\0')
        return false;
    *out = smma_f32_bits(v);
    return true;
}

static FILE *
open_input(const char *path, const char *mode)
{
    if (strcmp(path, "-") == 0)
        return stdin;
    return fopen(path, mode);
}

static void
close_input(FILE *f)
{
    if (f != NULL && f != stdin)
        fclose(f);
}

/* Reads whitespace-separated tokens (a '#' starts a comment to the end of the
 * line), each an fp32 number or, with bits, the 0x bits of one; or, with raw,
 * little-endian fp32 words.  Errors name the file and line. */
static int
read_values(const char *path, bool raw, bool bits, struct u32buf *out)
{
    FILE *f = open_input(path, raw ? "rb" : "r");
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t len;
    int rc = CLI_OK;

    if (f == NULL)
        return cli_error("%s: cannot open: %s", path, strerror(errno));
    if (raw) {
        unsigned char w[4];
        size_t got, total = 0;

        while ((got = fread(w, 1, 4, f)) == 4) {
            total += 4;
            if (buf_push(out, (uint32_t) w[0] | ((uint32_t) w[1] << 8) |
                                  ((uint32_t) w[2] << 16) | ((uint32_t) w[3] << 24)) != 0) {
                rc = cli_error("out of memory");
                goto done;
            }
        }
        if (ferror(f))
            rc = cli_error("%s: read error: %s", path, strerror(errno));
        else if (got != 0)
            rc = cli_error("%s: %zu bytes is not a whole number of 4-byte fp32 values",
                           path, total + got);
        goto done;
    }
    while ((len = getline(&line, &cap, f)) >= 0) {
        char *tok, *save = NULL, *hash;

        lineno++;
        (void) len;
        hash = strchr(line, '#');
        if (hash != NULL)
            *hash = '\0';
        for (tok = strtok_r(line, " \t\r\n\v\f", &save); tok != NULL;
             tok = strtok_r(NULL, " \t\r\n\v\f", &save)) {
            uint32_t v;
            uint64_t u;

            if (bits) {
                if (!cli_parse_uint(tok, 0xffffffffu, &u)) {
                    rc = cli_error("%s:%zu: malformed fp32 bits '%s'", path, lineno, tok);
                    goto done;
                }
                v = (uint32_t) u;
            } else if (!parse_f32(tok, &v)) {
                rc = cli_error("%s:%zu: malformed number '%s'", path, lineno, tok);
                goto done;
            }
            if (buf_push(out, v) != 0) {
                rc = cli_error("out of memory");
                goto done;
            }
        }
    }
    if (ferror(f))
        rc = cli_error("%s: read error: %s", path, strerror(errno));
done:
    free(line);
    close_input(f);
    if (rc == CLI_OK && out->n == 0)
        rc = cli_error("%s: no values", path);
    return rc;
}

/* ------------------------------------------------------------------ printing */

/* The decoded scale as people read it: 2^k for e8m0, the value for ue4m3. */
static void
format_scale(smma_block_format f, uint8_t s, char *buf, size_t n)
{
    const smma_block_format_desc *d = smma_block_format_info(f);

    if (d->scale == SMMA_E8M0) {
        if (s == 0xff)
            snprintf(buf, n, "nan");
        else
            snprintf(buf, n, "2^%d", (int) s - 127);
    } else {
        cli_format_value(smma_decode(SMMA_UE4M3, s & 0x7f), buf, n);
    }
}

static void
format_short(double v, char *buf, size_t n)
{
    if (isnan(v) || isinf(v))
        cli_format_value(v, buf, n);
    else
        snprintf(buf, n, "%.9g", v);
}

static int
parse_global(const char *amax_s, const char *scale_s, smma_quant_opts *o)
{
    uint32_t b;

    if (amax_s != NULL && scale_s != NULL)
        return cli_error("--global-amax and --global-scale exclude each other");
    if (amax_s == NULL && scale_s == NULL)
        return CLI_OK;
    if (!parse_f32(amax_s != NULL ? amax_s : scale_s, &b))
        return cli_error("malformed number '%s' for --global-%s",
                         amax_s != NULL ? amax_s : scale_s, amax_s != NULL ? "amax" : "scale");
    o->global = amax_s != NULL ? SMMA_GLOBAL_AMAX : SMMA_GLOBAL_SCALE;
    o->global_bits = b;
    return CLI_OK;
}

/* ------------------------------------------------------------------ quant */

/* Writes PREFIX.codes.npy: the m x k codes, an e2m1 format's packed two a
 * byte, low nibble first (smma_pack_fp4), each row on its own: (m,
 * ceil(k/2)); other formats one code a byte, (m, k). */
static int
write_codes(const char *prefix, smma_block_format f, const uint8_t *codes, size_t m, size_t k)
{
    bool fp4 = smma_block_format_info(f)->elem == SMMA_E2M1;
    size_t w = fp4 ? (k + 1) / 2 : k, i;
    uint8_t *out = malloc(m * w != 0 ? m * w : 1);
    char path[4096];
    int rc;

    if (out == NULL)
        return cli_error("out of memory");
    for (i = 0; i < m; i++) {
        if (fp4)
            smma_pack_fp4(codes + i * k, k, out + i * w);
        else
            memcpy(out + i * w, codes + i * k, k);
    }
    snprintf(path, sizeof(path), "%s.codes.npy", prefix);
    rc = cli_npy_write(path, 1, m, w, out, m * w);
    free(out);
    return rc;
}

/* Writes PREFIX.scales.LAYOUT.npy for each layout of the comma-separated
 * list: linear (m, kb); the others the bytes a kernel reads, 1-D, padding
 * bytes 0 (smma_scale_pack).  Every layout is checked before any file is
 * written; with write false, only checked. */
static int
write_scales(const char *prefix, const char *list, const uint8_t *linear, size_t m, size_t k,
             unsigned vec, bool write)
{
    smma_scale_layout ls[SMMA_SL_COUNT];
    size_t n = 0, i, bytes[SMMA_SL_COUNT];
    char buf[256], *tok, *save = NULL;
    smma_error err;
    int rc = CLI_OK;

    snprintf(buf, sizeof(buf), "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        if (n == SMMA_SL_COUNT)
            return cli_error("--layout: at most %d layouts", (int) SMMA_SL_COUNT);
        if (smma_scale_layout_from_name(tok, &ls[n], &err) != SMMA_OK ||
            smma_scale_layout_size(ls[n], m, k, vec, &bytes[n], &err) != SMMA_OK)
            return cli_error("--layout: %s", err.msg);
        n++;
    }
    for (i = 0; write && rc == CLI_OK && i < n; i++) {
        uint8_t *out = malloc(bytes[i] ? bytes[i] : 1);
        char path[4096];

        if (out == NULL)
            return cli_error("out of memory");
        snprintf(path, sizeof(path), "%s.scales.%s.npy", prefix, smma_scale_layout_name(ls[i]));
        if (smma_scale_pack(ls[i], m, k, vec, linear, out, 0, &err) != SMMA_OK)
            rc = cli_error("--layout %s: %s", smma_scale_layout_name(ls[i]), err.msg);
        else if (ls[i] == SMMA_SL_LINEAR)
            rc = cli_npy_write(path, 1, m, (k + vec - 1) / vec, out, bytes[i]);
        else
            rc = cli_npy_write(path, 1, bytes[i], 0, out, bytes[i]);
        free(out);
    }
    return rc;
}

/* quant --k K --out PREFIX: the values as an m x k matrix, row-major, each
 * row quantized on its own (a row's last block, short when the block size
 * does not divide k, is padded with +0 for its scale, as one row is), the
 * codes and the scales written as .npy files. */
static int
quant_matrix(smma_block_format f, const smma_quant_opts *o, const uint32_t *x, size_t count,
             size_t k, const char *prefix, const char *layouts)
{
    const smma_block_format_desc *bd = smma_block_format_info(f);
    size_t m = count / k, kb = smma_block_count(f, k), i;
    uint8_t *scales, *codes;
    smma_quant_opts ro = *o;
    smma_error err;
    int rc = CLI_OK;

    if (count == 0 || count % k != 0)
        return cli_error("--k %zu: %zu values are not whole rows of %zu", k, count, k);
    scales = calloc(m * kb, 1);
    codes = calloc(count, 1);
    if (scales == NULL || codes == NULL)
        rc = cli_error("out of memory");
    for (i = 0; rc == CLI_OK && i < m; i++) {
        ro.rbits = o->rbits != NULL ? o->rbits + i * k : NULL;
        if (smma_quantize(f, x + i * k, k, &ro, scales + i * kb, codes + i * k, &err) != SMMA_OK)
            rc = cli_error("row %zu: %s", i, err.msg);
    }
    if (rc == CLI_OK)
        rc = write_scales(prefix, layouts, scales, m, k, bd->block, false);
    if (rc == CLI_OK)
        rc = write_codes(prefix, f, codes, m, k);
    if (rc == CLI_OK)
        rc = write_scales(prefix, layouts, scales, m, k, bd->block, true);
    if (rc == CLI_OK)
        printf("%s: %zu x %zu values, %zu x %zu scales of %u; written to %s.codes.npy and "
               "%s.scales.{%s}.npy\n", bd->name, m, k, m, kb, bd->block, prefix, prefix,
               layouts);
    free(scales);
    free(codes);
    return rc;
}

static int quant_match(const char *qpath, const char *format_s, smma_quant_opts *o,
                       const uint32_t *x, size_t n, const char *show_s);

int
cmd_quant(int argc, char **argv)
{
    const char *format_s = NULL, *profile_s = NULL, *gscale_s = NULL, *gamax_s = NULL;
    const char *round_s = NULL, *rbits_s = NULL, *k_s = NULL, *out_s = NULL;
    const char *layout_s = "linear,128x4,triton5d", *match_s = NULL, *show_s = NULL;
    bool raw = false, bits = false, bf16 = false;
    const struct opt_spec specs[] = {
        { "match", true, &match_s, NULL },
        { "show", true, &show_s, NULL },
        { "bf16", false, NULL, &bf16 },
        { "k", true, &k_s, NULL },
        { "out", true, &out_s, NULL },
        { "layout", true, &layout_s, NULL },
        { "format", true, &format_s, NULL },
        { "profile", true, &profile_s, NULL },
        { "global-scale", true, &gscale_s, NULL },
        { "global-amax", true, &gamax_s, NULL },
        { "round", true, &round_s, NULL },
        { "rbits", true, &rbits_s, NULL },
        { "raw", false, NULL, &raw },
        { "bits", false, NULL, &bits },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    struct u32buf in = { NULL, 0, 0 }, rb = { NULL, 0, 0 };
    const smma_profile *p = smma_profile_cuda();
    const smma_block_format_desc *bd;
    smma_block_format f;
    smma_quant_opts o;
    smma_error err;
    uint8_t *scales = NULL, *codes = NULL;
    size_t nb, b, i;
    int rc = opt_parse(argc, argv, specs, &r);

    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        printf("Usage: softmma quant --format F [--profile P] [--global-amax A |\n"
               "           --global-scale S] [--raw | --bits] [--round R [--rbits FILE]]\n"
               "           [--bf16] FILE\n"
               "       softmma quant --format F [options] --out PREFIX [--k K]\n"
               "           [--layout L,...] FILE\n"
               "       softmma quant --match QFILE [--format F] [--global-amax A |\n"
               "           --global-scale S] [--raw | --bits] [--bf16] [--show N] FILE\n\n"
               "Quantizes the fp32 values in FILE ('-' for standard input) as one row in\n"
               "block format F (mxfp4 mxfp6e2m3 mxfp6e3m2 mxfp8e4m3 mxfp8e5m2 nvfp4) under\n"
               "profile P (cuda by default) and prints, per block, the scale byte and the\n"
               "element codes in hex, in the format softmma dequant reads back.\n\n"
               "FILE holds numbers separated by white space (decimal, rounded to the nearest\n"
               "fp32; C99 hex-float; inf, -inf, nan, -nan; '#' starts a comment); with --bits\n"
               "the 0x bits of fp32 values; with --raw little-endian fp32 words.  When the\n"
               "count is not a multiple of the block size the last block is padded with +0\n"
               "for its scale.  nvfp4 is two-level with --global-amax (the tensor amax, from\n"
               "which the profile derives its per-tensor scales) or --global-scale (the\n"
               "per-tensor decode scale itself).  --round overrides the profile's element\n"
               "rounding; with rs, --rbits FILE gives one 32-bit random word per value.\n\n"
               "With --out PREFIX the values are a matrix of rows of K (--k K; without\n"
               "it one row of them all), row-major, each row quantized on its own (its\n"
               "last block padded with +0 for its scale when the block size does not\n"
               "divide K), and written as NumPy files: PREFIX.codes.npy, (M, ceil(K/2))\n"
               "bytes of two e2m1 codes each, low nibble first (mxfp4, nvfp4; each row\n"
               "starts a byte), else (M, K) codes; and PREFIX.scales.LAYOUT.npy for each\n"
               "layout of --layout L,... (default linear,128x4,triton5d; also cdna4-16,\n"
               "cdna4-32): linear (M, ceil(K/block)), the others the bytes the kernels\n"
               "read, 1-D, padding 0 (softmma layout scale, doc/scale-layouts.md).\n\n"
               "--bf16 says that the values are bf16 numbers (any other is refused): the\n"
               "profiles that compute in the input's precision (jax, jax-jit,\n"
               "triton-mxfp) then round their scale steps to bf16, as their libraries do\n"
               "on bf16 tensors.\n\n"
               "With --match QFILE, QFILE is a quantization of the values of FILE in the\n"
               "text format quant prints (its 'profile' word is not read; a 'global' line\n"
               "is the decode scale G, as --global-scale): every profile quantizes the\n"
               "values and is compared with it, scale and codes, block by block.  Prints\n"
               "the profiles that reproduce it bit for bit, then the --show N (default 3)\n"
               "nearest others with the count of blocks that differ and the first block\n"
               "and element that differ, with both bytes.  Exit status 0 when a profile\n"
               "reproduces it, 1 when none does.\n");
        goto done;
    }
    if (r.npos != 1) {
        rc = cli_error(r.npos == 0 ? "usage: softmma quant --format F [options] FILE"
                                   : "unexpected argument '%s'", r.npos > 1 ? r.pos[1] : "");
        goto done;
    }
    if (match_s != NULL) {
        if (profile_s != NULL || round_s != NULL || rbits_s != NULL || out_s != NULL ||
            k_s != NULL) {
            rc = cli_error("--match tries every profile on one row: it takes no --profile, "
                           "--round, --rbits, --out or --k");
            goto done;
        }
        if (raw && bits) {
            rc = cli_error("--raw and --bits exclude each other");
            goto done;
        }
        o = smma_quant_opts_default(NULL);
        o.input_bf16 = bf16;
        rc = parse_global(gamax_s, gscale_s, &o);
        if (rc == CLI_OK)
            rc = read_values(r.pos[0], raw, bits, &in);
        if (rc == CLI_OK)
            rc = quant_match(match_s, format_s, &o, in.v, in.n, show_s);
        goto done;
    }
    if (show_s != NULL) {
        rc = cli_error("--show goes with --match");
        goto done;
    }
    if (format_s == NULL) {
        rc = cli_error("--format is required (mxfp4 mxfp6e2m3 mxfp6e3m2 mxfp8e4m3 mxfp8e5m2 "
                       "nvfp4)");
        goto done;
    }
    if (smma_block_format_from_name(format_s, &f, &err) != SMMA_OK ||
        (profile_s != NULL && smma_profile_from_name(profile_s, &p, &err) != SMMA_OK)) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (raw && bits) {
        rc = cli_error("--raw and --bits exclude each other");
        goto done;
    }
    bd = smma_block_format_info(f);
    o = smma_quant_opts_default(p);
    o.input_bf16 = bf16;
    if (round_s != NULL) {
        if (smma_round_from_name(round_s, &o.round, &err) != SMMA_OK) {
            rc = cli_error("%s", err.msg);
            goto done;
        }
        o.override_round = true;
    }
    if (rbits_s != NULL && (!o.override_round || o.round != SMMA_RS)) {
        rc = cli_error("--rbits needs --round rs");
        goto done;
    }
    rc = parse_global(gamax_s, gscale_s, &o);
    if (rc != CLI_OK)
        goto done;
    if (o.global != SMMA_GLOBAL_NONE && f != SMMA_NVFP4) {
        rc = cli_error("%s has no per-tensor scale: --global-amax and --global-scale are for "
                       "nvfp4", bd->name);
        goto done;
    }
    rc = read_values(r.pos[0], raw, bits, &in);
    if (rc != CLI_OK)
        goto done;
    if (rbits_s != NULL) {
        rc = read_values(rbits_s, false, true, &rb);
        if (rc != CLI_OK)
            goto done;
        if (rb.n != in.n) {
            rc = cli_error("%s: %zu random words for %zu values", rbits_s, rb.n, in.n);
            goto done;
        }
        o.rbits = rb.v;
    }
    if (k_s != NULL || out_s != NULL) {
        uint64_t kv = in.n;

        if (out_s == NULL || (k_s != NULL && (!cli_parse_uint(k_s, SIZE_MAX, &kv) || !kv))) {
            rc = cli_error(out_s == NULL ? "--k needs --out PREFIX (the files to write)"
                                         : "--k: malformed row length '%s'", k_s);
            goto done;
        }
        rc = quant_matrix(f, &o, in.v, in.n, (size_t) kv, out_s, layout_s);
        goto done;
    }
    nb = smma_block_count(f, in.n);
    scales = calloc(nb, 1);
    codes = calloc(in.n, 1);
    if (scales == NULL || codes == NULL) {
        rc = cli_error("out of memory");
        goto done;
    }
    if (smma_quantize(f, in.v, in.n, &o, scales, codes, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    printf("# softmma quant --format %s --profile %s: %zu value%s, %zu block%s of %u\n",
           bd->name, p->name, in.n, in.n == 1 ? "" : "s", nb, nb == 1 ? "" : "s", bd->block);
    printf("format %s profile %s values %zu\n", bd->name, p->name, in.n);
    if (o.global != SMMA_GLOBAL_NONE) {
        uint32_t g = smma_quant_global_decode(f, &o);
        char gv[64];

        cli_format_value((double) smma_f32_from_bits(g), gv, sizeof(gv));
        printf("global 0x%08x %s\n", (unsigned) g, gv);
    }
    for (b = 0; b < nb; b++) {
        size_t base = b * bd->block, n = in.n - base < bd->block ? in.n - base : bd->block;
        char sv[64];

        format_scale(f, scales[b], sv, sizeof(sv));
        printf("block %zu scale 0x%02x %s codes", b, (unsigned) scales[b], sv);
        for (i = 0; i < n; i++)
            printf(" %02x", (unsigned) codes[base + i]);
        printf("\n");
    }
done:
    free(in.v);
    free(rb.v);
    free(scales);
    free(codes);
    opt_free(&r);
    return rc;
}

/* ------------------------------------------------------------------ dequant */

struct qfile {
    smma_block_format f;
    const smma_profile *p;
    size_t k;
    uint32_t global;
    uint8_t *scales, *codes;
};

static bool
parse_hex_byte(const char *s, bool need_0x, unsigned *out)
{
    uint64_t v;
    char buf[8];

    if (need_0x)
        return cli_parse_uint(s, 0xff, &v) && strncmp(s, "0x", 2) == 0 && (*out = (unsigned) v,
                                                                             true);
    if (strlen(s) == 0 || strlen(s) > 2)
        return false;
    snprintf(buf, sizeof(buf), "0x%s", s);
    if (!cli_parse_uint(buf, 0xff, &v))
        return false;
    *out = (unsigned) v;
    return true;
}

#define QERR(...) do { rc = cli_error(__VA_ARGS__); goto done; } while (0)

static int
read_qfile(const char *path, struct qfile *q)
{
    FILE *fp = open_input(path, "r");
    char *line = NULL, *save;
    size_t cap = 0, lineno = 0, nb = 0, next = 0;
    const smma_block_format_desc *bd = NULL;
    bool have_header = false, have_global = false;
    int rc = CLI_OK;

    if (fp == NULL)
        return cli_error("%s: cannot open: %s", path, strerror(errno));
    q->global = 0x3f800000u;
    while (getline(&line, &cap, fp) >= 0) {
        char *tok[8], *t;
        int nt = 0;

        lineno++;
        t = line;
        while (isspace((unsigned char) *t))
            t++;
        if (*t == '\0' || *t == '#')
            continue;
        save = NULL;
        tok[0] = strtok_r(t, " \t\r\n", &save);
        if (!have_header) {
            smma_error err;
            uint64_t k;

            for (nt = 1; nt < 7 && (tok[nt] = strtok_r(NULL, " \t\r\n", &save)) != NULL; nt++)
                ;
            if (nt != 6 || strcmp(tok[0], "format") != 0 || strcmp(tok[2], "profile") != 0 ||
                strcmp(tok[4], "values") != 0)
                QERR("%s:%zu: expected 'format F profile P values K'", path, lineno);
            if (smma_block_format_from_name(tok[1], &q->f, &err) != SMMA_OK)
                QERR("%s:%zu: %s", path, lineno, err.msg);
            if (q->p == NULL && smma_profile_from_name(tok[3], &q->p, &err) != SMMA_OK)
                QERR("%s:%zu: %s", path, lineno, err.msg);
            if (!cli_parse_uint(tok[5], (uint64_t) 1 << 40, &k) || k == 0)
                QERR("%s:%zu: malformed value count '%s'", path, lineno, tok[5]);
            q->k = (size_t) k;
            bd = smma_block_format_info(q->f);
            nb = smma_block_count(q->f, q->k);
            q->scales = calloc(nb, 1);
            q->codes = calloc(q->k, 1);
            if (q->scales == NULL || q->codes == NULL)
                QERR("out of memory");
            have_header = true;
            continue;
        }
        if (strcmp(tok[0], "global") == 0) {
            uint64_t g;

            t = strtok_r(NULL, " \t\r\n", &save);
            if (q->f != SMMA_NVFP4)
                QERR("%s:%zu: a 'global' line belongs to nvfp4 only", path, lineno);
            if (have_global || next != 0)
                QERR("%s:%zu: the 'global' line must come once, before the blocks", path,
                     lineno);
            if (t == NULL || strncmp(t, "0x", 2) != 0 || !cli_parse_uint(t, 0xffffffffu, &g))
                QERR("%s:%zu: malformed fp32 bits '%s'", path, lineno, t ? t : "");
            q->global = (uint32_t) g;
            have_global = true;
            continue;
        }
        if (strcmp(tok[0], "block") == 0) {
            uint64_t idx;
            unsigned s, c;
            size_t want, got = 0, base;

            t = strtok_r(NULL, " \t\r\n", &save);
            if (t == NULL || !cli_parse_uint(t, (uint64_t) 1 << 40, &idx))
                QERR("%s:%zu: malformed block number '%s'", path, lineno, t ? t : "");
            if (idx != next)
                QERR("%s:%zu: block %llu where block %zu was expected", path, lineno,
                     (unsigned long long) idx, next);
            if (next >= nb)
                QERR("%s:%zu: more blocks than %zu values fill", path, lineno, q->k);
            t = strtok_r(NULL, " \t\r\n", &save);
            if (t == NULL || strcmp(t, "scale") != 0)
                QERR("%s:%zu: expected 'scale' after the block number", path, lineno);
            t = strtok_r(NULL, " \t\r\n", &save);
            if (t == NULL || !parse_hex_byte(t, true, &s))
                QERR("%s:%zu: malformed scale byte '%s' (0x followed by hex)", path, lineno,
                     t ? t : "");
            while ((t = strtok_r(NULL, " \t\r\n", &save)) != NULL && strcmp(t, "codes") != 0)
                ;
            if (t == NULL)
                QERR("%s:%zu: expected 'codes'", path, lineno);
            base = next * bd->block;
            want = q->k - base < bd->block ? q->k - base : bd->block;
            while ((t = strtok_r(NULL, " \t\r\n", &save)) != NULL) {
                if (got == want)
                    QERR("%s:%zu: more than %zu codes in block %zu", path, lineno, want, next);
                if (!parse_hex_byte(t, false, &c))
                    QERR("%s:%zu: malformed code '%s' (two hex digits)", path, lineno, t);
                q->codes[base + got++] = (uint8_t) c;
            }
            if (got != want)
                QERR("%s:%zu: block %zu has %zu codes, %zu expected", path, lineno, next, got,
                     want);
            q->scales[next++] = (uint8_t) s;
            continue;
        }
        QERR("%s:%zu: unexpected '%s' (expected 'block')", path, lineno, tok[0]);
    }
    if (ferror(fp))
        QERR("%s: read error: %s", path, strerror(errno));
    if (!have_header)
        QERR("%s: no 'format F profile P values K' line", path);
    if (next != nb)
        QERR("%s: %zu of %zu blocks present", path, next, nb);
done:
    free(line);
    close_input(fp);
    return rc;
}

int
cmd_dequant(int argc, char **argv)
{
    const char *profile_s = NULL;
    bool raw = false, hex = false;
    const struct opt_spec specs[] = {
        { "profile", true, &profile_s, NULL },
        { "raw", false, NULL, &raw },
        { "hex", false, NULL, &hex },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    struct qfile q;
    smma_error err;
    double *out = NULL;
    size_t i;
    int rc = opt_parse(argc, argv, specs, &r);

    memset(&q, 0, sizeof(q));
    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        printf("Usage: softmma dequant [--profile P] [--hex | --raw] FILE\n\n"
               "Reads what softmma quant prints (FILE, or '-' for standard input) and prints\n"
               "the values, one per line: element value * scale (* the per-tensor scale of\n"
               "two-level nvfp4), computed exactly, as %%.17g (or C99 hex-float with --hex;\n"
               "or, with --raw, as little-endian fp32 words rounded to nearest even).\n"
               "The profile named in FILE applies (it decides how e8m0 0x00 and a ue4m3\n"
               "byte with bit 7 set are read) unless --profile names another.\n");
        goto done;
    }
    if (r.npos != 1) {
        rc = cli_error(r.npos == 0 ? "usage: softmma dequant [options] FILE"
                                   : "unexpected argument '%s'", r.npos > 1 ? r.pos[1] : "");
        goto done;
    }
    if (raw && hex) {
        rc = cli_error("--raw and --hex exclude each other");
        goto done;
    }
    if (profile_s != NULL && smma_profile_from_name(profile_s, &q.p, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    rc = read_qfile(r.pos[0], &q);
    if (rc != CLI_OK)
        goto done;
    out = calloc(q.k, sizeof(*out));
    if (out == NULL) {
        rc = cli_error("out of memory");
        goto done;
    }
    if (smma_dequantize(q.f, q.scales, q.codes, q.k, q.global, q.p, out, &err) != SMMA_OK) {
        rc = cli_error("%s: %s", r.pos[0], err.msg);
        goto done;
    }
    for (i = 0; i < q.k; i++) {
        char buf[64];

        if (raw) {
            smma_cvt c = smma_profile_cvt(smma_profile_cuda());
            uint32_t b;
            unsigned char w[4];

            c.sat = false;
            b = isnan(out[i]) ? (signbit(out[i]) ? 0xffc00000u : 0x7fc00000u)
                              : smma_encode(SMMA_FP32, out[i], &c);
            w[0] = (unsigned char) b;
            w[1] = (unsigned char) (b >> 8);
            w[2] = (unsigned char) (b >> 16);
            w[3] = (unsigned char) (b >> 24);
            fwrite(w, 1, 4, stdout);
            continue;
        }
        if (hex)
            cli_format_hex(out[i], buf, sizeof(buf));
        else
            cli_format_value(out[i], buf, sizeof(buf));
        printf("%s\n", buf);
    }
done:
    free(out);
    free(q.scales);
    free(q.codes);
    opt_free(&r);
    return rc;
}

/* ------------------------------------------------------------------ match */

struct match_row {
    const smma_profile *p;
    smma_quant_cmp c;
};

static int
cmp_match(const void *a, const void *b)
{
    const struct match_row *x = a, *y = b;

    if (x->c.differ != y->c.differ)
        return x->c.differ < y->c.differ ? -1 : 1;
    return x->p < y->p ? -1 : x->p > y->p;
}

/* quant --match: which profiles reproduce the quantization in qpath of the
 * n values x (o carries the per-tensor value and input_bf16). */
static int
quant_match(const char *qpath, const char *format_s, smma_quant_opts *o, const uint32_t *x,
            size_t n, const char *show_s)
{
    struct qfile q;
    struct match_row *rows = NULL;
    size_t np = smma_profile_count(), i, matched = 0;
    uint64_t show = 3;
    smma_block_format f;
    smma_error err;
    int rc;

    memset(&q, 0, sizeof(q));
    q.p = smma_profile_cuda();  /* the file's profile word is not read */
    if (show_s != NULL && (!cli_parse_uint(show_s, 1000, &show)))
        return cli_error("--show: malformed count '%s' (0 to 1000)", show_s);
    rc = read_qfile(qpath, &q);
    if (rc != CLI_OK)
        goto done;
    if (format_s != NULL && smma_block_format_from_name(format_s, &f, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (format_s != NULL && f != q.f) {
        rc = cli_error("--format %s, but %s holds %s", smma_block_format_name(f), qpath,
                       smma_block_format_name(q.f));
        goto done;
    }
    if (q.k != n) {
        rc = cli_error("%s quantizes %zu values, the input has %zu", qpath, q.k, n);
        goto done;
    }
    if (q.global != 0x3f800000u || o->global != SMMA_GLOBAL_NONE) {
        if (q.f != SMMA_NVFP4) {
            rc = cli_error("%s has no per-tensor scale: --global-amax and --global-scale are "
                           "for nvfp4", smma_block_format_name(q.f));
            goto done;
        }
        if (o->global == SMMA_GLOBAL_NONE) {
            o->global = SMMA_GLOBAL_SCALE;
            o->global_bits = q.global;
        }
    }
    rows = calloc(np, sizeof(*rows));
    if (rows == NULL) {
        rc = cli_error("out of memory");
        goto done;
    }
    for (i = 0; i < np; i++) {
        rows[i].p = smma_profile_at(i);
        o->profile = rows[i].p;
        o->round = rows[i].p->round;
        if (smma_quant_compare(q.f, x, n, o, q.scales, q.codes, &rows[i].c, &err) != SMMA_OK) {
            rc = cli_error("%s: %s", rows[i].p->name, err.msg);
            goto done;
        }
    }
    qsort(rows, np, sizeof(*rows), cmp_match);
    printf("# softmma quant --match %s: %s, %zu value%s, %zu block%s of %u\n", qpath,
           smma_block_format_name(q.f), n, n == 1 ? "" : "s", rows[0].c.blocks,
           rows[0].c.blocks == 1 ? "" : "s", smma_block_format_info(q.f)->block);
    printf("match:");
    for (i = 0; i < np && rows[i].c.differ == 0; i++, matched++)
        printf(" %s", rows[i].p->name);
    printf("%s\n", matched ? "" : " none");
    for (i = matched; i < np && i < matched + show; i++) {
        const smma_quant_cmp *c = &rows[i].c;

        printf("%-14s %zu of %zu block%s differ; first block %zu", rows[i].p->name, c->differ,
               c->blocks, c->blocks == 1 ? "" : "s", c->first_block);
        if (c->first_elem < 0)
            printf(" scale: 0x%02x given, 0x%02x under %s\n", (unsigned) c->given,
                   (unsigned) c->expected, rows[i].p->name);
        else
            printf(" element %ld: code 0x%02x given, 0x%02x under %s\n", c->first_elem,
                   (unsigned) c->given, (unsigned) c->expected, rows[i].p->name);
    }
    rc = matched ? CLI_OK : CLI_MISMATCH;
done:
    free(rows);
    free(q.scales);
    free(q.codes);
    return rc;
}

/* ------------------------------------------------------------------ diff */

#define MAXV 32

/* One searched block.  kind names its family (for variety in what is shown),
 * nz counts its non-zero elements, nonfinite its Inf and NaN elements. */
struct cand {
    uint32_t x[MAXV];
    char why[96];
    unsigned kind, nz, nonfinite;
    uint64_t seq;
};

struct found {
    struct cand c;
    uint8_t sa, sb, qa[MAXV], qb[MAXV];
    bool shown;
};

#define MAX_FOUND 200000

struct search {
    smma_block_format f;
    const smma_block_format_desc *bd;
    smma_quant_opts oa, ob;
    uint64_t searched, differ, seq;
    unsigned kind;       /* the family being searched */
    struct found *found; /* the differences (the first MAX_FOUND) */
    size_t nfound, capfound;
    bool oom;
    cli_progress progress; /* "diff: N blocks searched" on a terminal */
};

/* The order of "smallest": fewest non-zero elements, then fewest non-finite
 * ones, then the order of the search. */
static int
cmp_found(const void *va, const void *vb)
{
    const struct cand *a = &((const struct found *) va)->c, *b = &((const struct found *) vb)->c;

    if (a->nz != b->nz)
        return a->nz < b->nz ? -1 : 1;
    if (a->nonfinite != b->nonfinite)
        return a->nonfinite < b->nonfinite ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void
try_block(struct search *s, struct cand *c)
{
    uint8_t sa, sb, qa[MAXV], qb[MAXV];
    unsigned i, n = s->bd->block;
    struct found *fd;

    cli_progress_show(&s->progress, "diff: %llu blocks searched",
                      (unsigned long long) s->seq);
    c->seq = s->seq++;
    c->kind = s->kind;
    c->nz = c->nonfinite = 0;
    for (i = 0; i < n; i++) {
        if ((c->x[i] & 0x7fffffffu) != 0)
            c->nz++;
        if ((c->x[i] & 0x7f800000u) == 0x7f800000u)
            c->nonfinite++;
    }
    s->searched++;
    if (smma_quantize(s->f, c->x, n, &s->oa, &sa, qa, NULL) != SMMA_OK ||
        smma_quantize(s->f, c->x, n, &s->ob, &sb, qb, NULL) != SMMA_OK)
        return;
    if (sa == sb && memcmp(qa, qb, n) == 0)
        return;
    s->differ++;
    if (s->nfound == MAX_FOUND)
        return;
    if (s->nfound == s->capfound) {
        size_t cap = s->capfound ? s->capfound * 2 : 256;
        struct found *nf = realloc(s->found, cap * sizeof(*nf));

        if (nf == NULL) {
            s->oom = true;
            return;
        }
        s->found = nf;
        s->capfound = cap;
    }
    fd = &s->found[s->nfound++];
    fd->c = *c;
    fd->sa = sa;
    fd->sb = sb;
    memcpy(fd->qa, qa, n);
    memcpy(fd->qb, qb, n);
    fd->shown = false;
}

static uint32_t
f32_of(double v)
{
    smma_cvt c = smma_profile_cvt(smma_profile_cuda());

    c.sat = false;
    return smma_encode(SMMA_FP32, v, &c);
}

/* True when v is an fp32 number (and finite). */
static bool
exact_f32(double v, uint32_t *bits)
{
    uint32_t b;

    if (!isfinite(v))
        return false;
    b = f32_of(v);
    if ((double) smma_f32_from_bits(b) != v)
        return false;
    *bits = b;
    return true;
}

static void
one_element(struct search *s, uint32_t a, const char *why)
{
    struct cand c;

    memset(&c, 0, sizeof(c));
    c.x[0] = a;
    snprintf(c.why, sizeof(c.why), "%s", why);
    try_block(s, &c);
}

/* Blocks of one non-zero element at every kind of amax boundary: each
 * exponent's power of two, max_elem * 2^k (RCEIL), the element
 * saturation point, the EVEN rounding point, 1.5 * max_elem * 2^k (a
 * round-to-nearest scale) and the ue4m3 steps of NVFP4, each with its fp32
 * neighbours. */
static void
family_single(struct search *s)
{
    const smma_block_format_desc *bd = s->bd;
    static const char *const names[5] = {
        "", "max_elem * ", "(max_elem + half a step) * ", "the EVEN rounding point * ",
        "1.5 * max_elem * ",
    };
    char why[96], base[64];
    int k, kk, d, dd;
    uint32_t b;

    /* Exponents from 0 outwards, so that ordinary magnitudes come first. */
    for (kk = 0; kk <= 2 * 149; kk++) {
        double pts[5];
        unsigned j;

        k = kk % 2 ? (kk + 1) / 2 : -(kk / 2);
        smma_suite_amax_points(bd, k, pts);
        for (j = 0; j < 5; j++) {
            s->kind = 2 + j;
            if (!exact_f32(pts[j], &b) || b == 0)
                continue;
            snprintf(base, sizeof(base), "%s2^%d", names[j], k);
            for (dd = 0; dd < 5; dd++) {
                d = dd % 2 ? (dd + 1) / 2 : -(dd / 2);
                if (k > 127 || (int64_t) b + d <= 0 || (int64_t) b + d >= 0x7f800000)
                    continue;
                if (d == 0)
                    snprintf(why, sizeof(why), "amax = %s", base);
                else
                    snprintf(why, sizeof(why), "amax = %s %+d ulp", base, d);
                one_element(s, b + (uint32_t) d, why);
            }
        }
    }
    if (s->f == SMMA_NVFP4) {
        uint32_t q;

        s->kind = 7;
        for (q = 1; q < 0x7f; q++) {
            double lo = smma_decode(SMMA_UE4M3, q), hi = smma_decode(SMMA_UE4M3, q + 1);
            double pts[2] = { 6.0 * lo, 3.0 * (lo + hi) };

            for (k = 0; k < 2; k++) {
                if (q == 0x7e && k == 1)
                    continue;
                if (!exact_f32(pts[k], &b))
                    continue;
                for (d = -1; d <= 1; d++) {
                    snprintf(why, sizeof(why), "amax = 6 * %sue4m3 0x%02x%s%s",
                             k ? "(the midpoint above " : "", (unsigned) q, k ? ")" : "",
                             d < 0 ? " - 1 ulp" : d > 0 ? " + 1 ulp" : "");
                    one_element(s, b + (uint32_t) d, why);
                }
            }
        }
    }
}

static void
family_special(struct search *s)
{
    static const struct {
        uint32_t a, b;
        const char *why;
    } sp[] = {
        { 0x7fc00000u, 0, "a NaN" },
        { 0xffc00000u, 0, "a negative NaN" },
        { 0x7f800000u, 0, "+Inf" },
        { 0xff800000u, 0, "-Inf" },
        { 0x7fc00000u, 0x3f800000u, "NaN next to 1" },
        { 0x7f800000u, 0x3f800000u, "+Inf next to 1" },
        { 0xff800000u, 0x3f800000u, "-Inf next to 1" },
        { 0x7fc00000u, 0x7f800000u, "NaN next to +Inf" },
        { 0x7f7fffffu, 0, "FLT_MAX" },
        { 0x7f7fffffu, 0x3f800000u, "FLT_MAX next to 1" },
        { 0x00000001u, 0, "the smallest subnormal" },
        { 0x00400000u, 0, "2^-127" },
        { 0x007fffffu, 0x00000001u, "the largest and smallest subnormals" },
        { 0x3f800000u, 0x00000001u, "1 next to the smallest subnormal" },
    };
    struct cand c;
    unsigned i;

    s->kind = 0;
    memset(&c, 0, sizeof(c));
    snprintf(c.why, sizeof(c.why), "an all-zero block");
    try_block(s, &c);
    for (i = 0; i < s->bd->block; i++)
        c.x[i] = 0x80000000u;
    snprintf(c.why, sizeof(c.why), "a block of -0");
    try_block(s, &c);
    for (i = 0; i < s->bd->block; i++)
        c.x[i] = 0x00800000u;
    snprintf(c.why, sizeof(c.why), "a block of fp32 smallest normals");
    try_block(s, &c);
    s->kind = 1;
    for (i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
        memset(&c, 0, sizeof(c));
        c.x[0] = sp[i].a;
        c.x[1] = sp[i].b;
        snprintf(c.why, sizeof(c.why), "%s", sp[i].why);
        try_block(s, &c);
    }
}

/* Two non-zero elements: amax a, and b at an element rounding boundary (the
 * midpoint of two element codes, and its fp32 neighbours) under each scale
 * the profiles might choose for a. */
static void
family_pair(struct search *s)
{
    const smma_block_format_desc *bd = s->bd;
    const smma_format_desc *ed = smma_format_info(bd->elem);
    static const int ks[] = { -20, 0, 9 };
    unsigned ia, q;
    int d, sh;

    s->kind = 8;
    for (ia = 0; ia < sizeof(ks) / sizeof(ks[0]); ia++) {
        double a = ldexp(bd->max_elem, ks[ia]) * 1.0625;
        uint32_t ab;

        if (!exact_f32(a, &ab))
            continue;
        for (sh = -1; sh <= 1; sh++) {
            double scale = ldexp(1.0, ks[ia] + sh);

            for (q = 0; q < ed->max_code; q++) {
                double mid = (smma_decode(bd->elem, q) + smma_decode(bd->elem, q + 1)) / 2;
                uint32_t b;

                if (!exact_f32(mid * scale, &b) || b == 0)
                    continue;
                for (d = -1; d <= 1; d++) {
                    struct cand c;

                    memset(&c, 0, sizeof(c));
                    c.x[0] = ab;
                    c.x[1] = b + (uint32_t) d;
                    snprintf(c.why, sizeof(c.why),
                             "an element at a rounding midpoint%+d ulp", d);
                    try_block(s, &c);
                }
            }
        }
    }
}

static void
family_random(struct search *s, uint64_t seed, unsigned count)
{
    uint64_t st = seed;
    unsigned i;

    s->kind = 9;
    for (i = 0; i < count; i++) {
        struct cand c;

        memset(&c, 0, sizeof(c));
        smma_suite_random_block(&st, s->bd->block, c.x);
        snprintf(c.why, sizeof(c.why), "random block %u (seed %llu)", i,
                 (unsigned long long) seed);
        try_block(s, &c);
    }
}

static void
print_found(const struct search *s, const struct found *fd, unsigned idx, const char *na,
            const char *nb)
{
    const smma_block_format_desc *bd = s->bd;
    unsigned i, j, n = bd->block, rows = 0, same = 0, more = 0;
    char sa[32], sb[32];
    int w = (int) (strlen(na) > strlen(nb) ? strlen(na) : strlen(nb));

    printf("\n%u. %s: %u non-zero element%s of %u\n", idx, fd->c.why, fd->c.nz,
           fd->c.nz == 1 ? "" : "s", n);
    format_scale(s->f, fd->sa, sa, sizeof(sa));
    format_scale(s->f, fd->sb, sb, sizeof(sb));
    printf("   %-*s scale 0x%02x %s\n", w, na, (unsigned) fd->sa, sa);
    printf("   %-*s scale 0x%02x %s\n", w, nb, (unsigned) fd->sb, sb);
    for (i = 0; i < n; i = j) {
        char in[64], va[64], vb[64], at[32];

        /* A run of equal inputs with equal results prints as one row. */
        for (j = i + 1; j < n && fd->c.x[j] == fd->c.x[i] && fd->qa[j] == fd->qa[i] &&
                        fd->qb[j] == fd->qb[i];
             j++)
            ;
        if (fd->c.x[i] == 0 && fd->qa[i] == fd->qb[i]) {
            same += j - i;
            continue;
        }
        if (rows == 8) {
            more += j - i;
            continue;
        }
        rows++;
        if (j - i == 1)
            snprintf(at, sizeof(at), "x[%u]", i);
        else
            snprintf(at, sizeof(at), "x[%u..%u]", i, j - 1);
        format_short((double) smma_f32_from_bits(fd->c.x[i]), in, sizeof(in));
        format_short(smma_decode(bd->elem, fd->qa[i]), va, sizeof(va));
        format_short(smma_decode(bd->elem, fd->qb[i]), vb, sizeof(vb));
        printf("   %s = 0x%08x %s -> %s 0x%02x %s, %s 0x%02x %s%s\n", at,
               (unsigned) fd->c.x[i], in, na, (unsigned) fd->qa[i], va, nb,
               (unsigned) fd->qb[i], vb, fd->qa[i] != fd->qb[i] ? "  (differ)" : "");
    }
    if (more > 0)
        printf("   ... %u more element%s not shown\n", more, more == 1 ? "" : "s");
    if (same > 0)
        printf("   the other %u element%s are +0 and give the same code in both\n", same,
               same == 1 ? "" : "s");
}

int
cmd_diff(int argc, char **argv)
{
    const char *format_s = NULL, *seed_s = NULL, *random_s = NULL, *show_s = NULL;
    const char *gamax_s = NULL, *gscale_s = NULL;
    const struct opt_spec specs[] = {
        { "format", true, &format_s, NULL },
        { "seed", true, &seed_s, NULL },
        { "random", true, &random_s, NULL },
        { "show", true, &show_s, NULL },
        { "global-amax", true, &gamax_s, NULL },
        { "global-scale", true, &gscale_s, NULL },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    struct search s;
    const smma_profile *pa, *pb;
    smma_error err;
    uint64_t seed = 1, nrand = 4096, show = 3, structured;
    int rc = opt_parse(argc, argv, specs, &r);

    memset(&s, 0, sizeof(s));
    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        printf("Usage: softmma diff --format F [--seed N] [--random N] [--show N]\n"
               "           [--global-amax A | --global-scale S] PROFILE_A PROFILE_B\n\n"
               "Quantizes structured families of blocks (zero, -0, Inf and NaN blocks;\n"
               "one element at every scale-rule boundary of every exponent, with its fp32\n"
               "neighbours; elements at element-rounding midpoints) and --random seeded\n"
               "random blocks (4096, seed 1 by default) under both profiles, and prints\n"
               "the --show smallest blocks (fewest non-zero elements first; 3 by default)\n"
               "on which the scale byte or an element code differs, with both results\n"
               "decoded, or says that the profiles agree on every block searched.\n"
               "Exit status 0 either way; 2 on a usage error.\n");
        goto done;
    }
    if (r.npos != 2) {
        rc = cli_error("usage: softmma diff --format F [options] PROFILE_A PROFILE_B");
        goto done;
    }
    if (format_s == NULL) {
        rc = cli_error("--format is required (mxfp4 mxfp6e2m3 mxfp6e3m2 mxfp8e4m3 mxfp8e5m2 "
                       "nvfp4)");
        goto done;
    }
    if (smma_block_format_from_name(format_s, &s.f, &err) != SMMA_OK ||
        smma_profile_from_name(r.pos[0], &pa, &err) != SMMA_OK ||
        smma_profile_from_name(r.pos[1], &pb, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if ((seed_s != NULL && !cli_parse_uint(seed_s, UINT64_MAX, &seed)) ||
        (random_s != NULL && !cli_parse_uint(random_s, 100000000, &nrand)) ||
        (show_s != NULL && (!cli_parse_uint(show_s, 1000, &show) || show == 0))) {
        rc = cli_error("malformed --seed, --random or --show value (a non-negative integer; "
                       "--show 1 to 1000)");
        goto done;
    }
    s.bd = smma_block_format_info(s.f);
    s.oa = smma_quant_opts_default(pa);
    rc = parse_global(gamax_s, gscale_s, &s.oa);
    if (rc != CLI_OK)
        goto done;
    if (s.oa.global != SMMA_GLOBAL_NONE && s.f != SMMA_NVFP4) {
        rc = cli_error("--global-amax and --global-scale are for nvfp4");
        goto done;
    }
    s.ob = s.oa;
    s.ob.profile = pb;
    s.ob.round = pb->round;
    cli_progress_start(&s.progress);
    family_special(&s);
    family_single(&s);
    family_pair(&s);
    structured = s.searched;
    family_random(&s, seed, (unsigned) nrand);
    cli_progress_end(&s.progress);
    if (s.oom) {
        rc = cli_error("out of memory");
        goto done;
    }
    printf("softmma diff --format %s %s %s\n", s.bd->name, pa->name, pb->name);
    printf("searched %llu blocks: %llu structured (zero, -0, Inf, NaN, subnormal; one "
           "element at each\nscale boundary of every exponent, with its fp32 neighbours; "
           "rounding midpoints)\nand %llu random (seed %llu)\n",
           (unsigned long long) s.searched, (unsigned long long) structured,
           (unsigned long long) (s.searched - structured), (unsigned long long) seed);
    if (s.differ == 0) {
        printf("%s and %s agree on all %llu blocks searched\n", pa->name, pb->name,
               (unsigned long long) s.searched);
        goto done;
    }
    /* The smallest differences, the smallest of each family first. */
    qsort(s.found, s.nfound, sizeof(s.found[0]), cmp_found);
    {
        bool kinds[16] = { false };
        unsigned shown = 0;
        size_t j;

        for (j = 0; j < s.nfound && shown < show; j++)
            if (!kinds[s.found[j].c.kind % 16]) {
                kinds[s.found[j].c.kind % 16] = true;
                s.found[j].shown = true;
                shown++;
            }
        for (j = 0; j < s.nfound && shown < show; j++)
            if (!s.found[j].shown) {
                s.found[j].shown = true;
                shown++;
            }
        printf("%s and %s differ on %llu of them; %u of the smallest (fewest non-zero "
               "elements,\nthen fewest Inf and NaN, the first of each family first):\n",
               pa->name, pb->name, (unsigned long long) s.differ, shown);
        shown = 0;
        for (j = 0; j < s.nfound; j++)
            if (s.found[j].shown)
                print_found(&s, &s.found[j], ++shown, pa->name, pb->name);
    }
done:
    free(s.found);
    opt_free(&r);
    return rc;
}

/* ------------------------------------------------------------------ profiles */

void
cli_print_quant_choices(const smma_profile *p)
{
    static const char *const rules[] = { "FLOOR", "RCEIL", "CEIL", "EVEN", "RN cast" };
    static const char *const cvts[] = { "round up, satfinite (cvt.rp.satfinite.ue8m0x2)",
                                        "round up, NaN on Inf or overflow",
                                        "(bits + 0x7fffff) & 0x7f800000",
                                        "the profile's e8m0 conversion",
                                        "ml_dtypes' e8m0 cast (ties up)",
                                        "ceil(fp32 log2) + 127, clamped (NaN 0xff)",
                                        "floor(log2) + 127, clamped to 0..254 (<= 0, Inf, "
                                        "NaN: 0xff)",
                                        "exponent field, +1 if mantissa (8-bit sum)" };
    static const char *const nans[] = { "makes amax NaN", "is skipped (fmaxf)",
                                        "is skipped, amax starts at 0" };
    static const char *const zbs[] = { "0x00", "0xff (NaN)", "127 - emax_elem", "0x01" };
    static const char *const applies[] = { "x / 2^e (exact)", "x * 2^-e in fp32",
                                           "x * exp2f_rcp(s) (s=0: 1, 0xfe: 0, 0xff: -Inf)",
                                           "x * quant_scale (s=0 and 0xff: 0)",
                                           "x * 2^-e in fp32 (s=0: 1, 0xff: 2^-128)",
                                           "x / 2^e in fp32 (s=0xff: Inf)" };
    static const char *const nvs[] = { "exact (one rounding each)", "TransformerEngine",
                                       "torchao", "plain fp32 casts", "JAX (x / G first)" };
    static const char *const quirks[] = { "", "; Triton's e2m1 converter",
                                           "; e2m1 through bf16",
                                           "; e2m1 by nearest candidate (1e-6 bias)" };

    /* A ratio cast that rounds down makes RCEIL a floor of the ratio. */
    printf("  quant: %s", p->scale_cvt == SMMA_SCVT_LOG2_FLOOR ? "FLOOR" : rules[p->scale_rule]);
    if (p->scale_rule == SMMA_SCALE_RCEIL || p->scale_rule == SMMA_SCALE_RN)
        printf(" of %s", p->scale_ratio == SMMA_RATIO_MUL_RCP ? "amax * fp32(1/max)"
                         : p->scale_ratio == SMMA_RATIO_MUL_RCP_INPUT
                             ? "amax * (1/max) in the input's precision"
                             : "amax / max");
    if (p->scale_rule == SMMA_SCALE_RCEIL || p->scale_rule == SMMA_SCALE_RN)
        printf(", %s", cvts[p->scale_cvt]);
    printf("\n  quant: a NaN element %s; zero block %s; Inf/NaN amax %s; overflow %s\n",
           nans[p->amax_nan], zbs[p->zero_block],
           p->scale_rule == SMMA_SCALE_RCEIL || p->scale_rule == SMMA_SCALE_RN
               ? "as converted"
               : p->nonfinite_nan ? "0xff" : "by the exponent",
           p->scale_overflow == SMMA_SOVF_SAT ? "0xfe" : "0xff");
    printf("  quant: elements %s%s; NVFP4 %s%s\n", applies[p->elem_apply],
           p->nan_positive ? ", NaNs positive" : "", nvs[p->nvfp4],
           quirks[p->elem_quirk]);
    if (p->arith_in_input)
        printf("  quant: the scale steps run in the input's precision (bf16 inputs)\n");
    if (p->dq_zero_scale_zero)
        printf("  dequant: e8m0 0x00 read as 0\n");
}
