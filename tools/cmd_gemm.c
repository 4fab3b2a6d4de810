/*
 * tools/cmd_gemm.c - softmma gemm and softmma models.
 *
 * gemm generates seeded inputs (or reads them from a file), computes D under
 * a numerics model, and prints D as hex codes; or checks a subject's D by
 * sampling; or times the reference.  With --on gpu the same inputs go through
 * a GPU kernel (tools/cmd_gpu.c): D printed the same way, checked by sampling
 * under the model the kernel follows on the device, or timed.
 *
 * The inputs file ("softmma-gemm-inputs 1") is text: a header of "key value"
 * lines (a, b, scale, vec, c, m, n, k in any order, and optionally alpha: the
 * epilogue multiplier, written like --alpha), then sections A (m lines of k hex
 * codes), SA (m lines of ceil(k/vec) codes), B (n lines of k codes: column j
 * of B, K-major), SB (n lines of ceil(k/vec) codes: column j of SB, which is
 * kb x n like B is k x n), C (m lines of n codes); sections for absent
 * scales or C are omitted.  '#' starts a comment line.  A D file is m lines
 * of n hex codes, '#' comment lines allowed.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <softmma/gemm.h>

#include "cli.h"
#include "options.h"

/* ---- small parsers ---------------------------------------------------------- */

static int
parse_fmt(const char *what, const char *s, bool allow_none, smma_format *out)
{
    smma_error err;

    if (allow_none && strcmp(s, "none") == 0) {
        *out = SMMA_NONE;
        return CLI_OK;
    }
    if (smma_format_from_name(s, out, &err) != SMMA_OK)
        return cli_error("%s: %s", what, err.msg);
    return CLI_OK;
}

static int
parse_size(const char *what, const char *s, size_t *out)
{
    uint64_t v;

    if (!cli_parse_uint(s, (uint64_t) 1 << 24, &v) || v == 0)
        return cli_error("%s: malformed or out-of-range size '%s' (1 .. 16777216)", what, s);
    *out = (size_t) v;
    return CLI_OK;
}

/* Parses alpha: "0x" and up to 8 hex digits is an fp32 bit pattern; anything
 * else a decimal number (or inf, nan) rounded to the nearest fp32, as strtof
 * rounds it.  A decimal beyond fp32's range is refused rather than made
 * infinite. */
static int
parse_alpha(const char *what, const char *s, uint32_t *bits)
{
    uint64_t v;
    char *end;
    float f;

    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (!cli_parse_uint(s, 0xffffffffu, &v))
            return cli_error("%s: malformed fp32 bit pattern '%s' (0x and at most 8 hex "
                             "digits)", what, s);
        *bits = (uint32_t) v;
        return CLI_OK;
    }
    errno = 0;
    f = strtof(s, &end);
    if (end == s || *end != '\0' || strpbrk(s, "xXpP") != NULL)
        return cli_error("%s: malformed alpha '%s' (a decimal number or an fp32 bit pattern "
                         "0xHHHHHHHH)", what, s);
    if (errno == ERANGE && isinf(f))
        return cli_error("%s: %s is out of fp32's range", what, s);
    *bits = smma_f32_bits(f);
    return CLI_OK;
}

/* A line reader that knows its file name and line number. */
struct reader {
    FILE *f;
    const char *name;
    unsigned long line;
    char *buf;
    size_t cap;
};

/* Reads the next line that is not empty or a comment; false at end of file. */
static bool
next_line(struct reader *r)
{
    for (;;) {
        size_t len = 0;
        int ch;

        while ((ch = fgetc(r->f)) != EOF && ch != '\n') {
            if (len + 2 > r->cap) {
                size_t ncap = r->cap ? 2 * r->cap : 256;
                char *nb = realloc(r->buf, ncap);

                if (nb == NULL)
                    return false;
                r->buf = nb;
                r->cap = ncap;
            }
            r->buf[len++] = (char) ch;
        }
        if (ch == EOF && len == 0)
            return false;
        if (r->buf == NULL) {
            r->buf = malloc(256);
            if (r->buf == NULL)
                return false;
            r->cap = 256;
        }
        r->buf[len] = '\0';
        r->line++;
        if (len > 0 && r->buf[len - 1] == '\r')
            r->buf[--len] = '\0';
        if (len == 0 || r->buf[strspn(r->buf, " \t")] == '\0' || r->buf[0] == '#')
            continue;
        return true;
    }
}

/* Parses exactly `count` hex codes from the current line into out, each at
 * most max. */
static int
parse_codes(struct reader *r, uint32_t *out, size_t count, uint32_t max, const char *what)
{
    char *p = r->buf;
    size_t i;

    for (i = 0; i < count; i++) {
        char tok[32];
        size_t n;
        uint64_t v;

        p += strspn(p, " \t");
        n = strcspn(p, " \t");
        if (n == 0)
            return cli_error("%s:%lu: %s: expected %zu codes, found %zu", r->name, r->line,
                             what, count, i);
        if (n >= sizeof(tok) || (memcpy(tok, p, n), tok[n] = '\0', 0) ||
            !cli_parse_uint(tok, max, &v))
            return cli_error("%s:%lu: %s: malformed code '%.*s' (0 .. 0x%x)", r->name, r->line,
                             what, (int) (n < 32 ? n : 32), p, (unsigned) max);
        out[i] = (uint32_t) v;
        p += n;
    }
    p += strspn(p, " \t");
    if (*p != '\0')
        return cli_error("%s:%lu: %s: more than %zu codes", r->name, r->line, what, count);
    return CLI_OK;
}

static uint32_t
code_max(smma_format f)
{
    const smma_format_desc *d = smma_format_info(f);

    if (d->storage_bits == 32)
        return 0xffffffffu;
    return (1u << (d->has_sign ? d->storage_bits : d->bits)) - 1;
}

/* Reads the rows lines of a matrix section whose name line was read. */
static int
read_rows(struct reader *r, const char *name, uint32_t *out, size_t rows, size_t cols,
          smma_format f)
{
    size_t i;
    int rc;

    for (i = 0; i < rows; i++) {
        if (!next_line(r))
            return cli_error("%s:%lu: section %s: expected %zu lines, found %zu", r->name,
                             r->line, name, rows, i);
        rc = parse_codes(r, out + i * cols, cols, code_max(f), name);
        if (rc != CLI_OK)
            return rc;
    }
    return CLI_OK;
}

/* Reads a matrix section: a line with the section's name, then rows lines. */
static int
read_section(struct reader *r, const char *name, uint32_t *out, size_t rows, size_t cols,
             smma_format f)
{
    if (!next_line(r))
        return cli_error("%s:%lu: missing section %s", r->name, r->line, name);
    if (strcmp(r->buf, name) != 0)
        return cli_error("%s:%lu: expected section %s, found '%.40s'", r->name, r->line, name,
                         r->buf);
    return read_rows(r, name, out, rows, cols, f);
}

static int
read_inputs(const char *path, smma_gemm_shape *s, smma_gemm_data *g)
{
    struct reader r = { NULL, path, 0, NULL, 0 };
    static const char *const keys[] = { "a", "b", "scale", "vec", "c", "m", "n", "k", "alpha" };
    bool seen[9] = { false };
    smma_error err;
    int rc = CLI_OK;
    size_t kb;

    memset(g, 0, sizeof(*g));
    r.f = fopen(path, "r");
    if (r.f == NULL)
        return cli_error("%s: cannot open: %s", path, strerror(errno));
    if (!next_line(&r) || strcmp(r.buf, "softmma-gemm-inputs 1") != 0) {
        rc = cli_error("%s:%lu: not a softmma-gemm-inputs 1 file", path, r.line);
        goto done;
    }
    s->scale_fmt = SMMA_NONE;
    s->c_fmt = SMMA_NONE;
    s->d_fmt = SMMA_FP32;
    s->vec = 32;
    s->has_alpha = false;
    /* The header: the eight keys and perhaps alpha, in any order, up to the
     * line "A" that starts the first section. */
    for (;;) {
        char key[16], val[64], extra[8];
        size_t ki;

        if (!next_line(&r)) {
            rc = cli_error("%s:%lu: the header ends early", path, r.line);
            goto done;
        }
        if (strcmp(r.buf, "A") == 0) {
            for (ki = 0; ki < 8 && seen[ki]; ki++)
                ;
            if (ki == 8)
                break;
            rc = cli_error("%s:%lu: the header ends early: no key '%s'", path, r.line,
                           keys[ki]);
            goto done;
        }
        if (sscanf(r.buf, "%15s %63s %7s", key, val, extra) != 2) {
            rc = cli_error("%s:%lu: expected 'key value'", path, r.line);
            goto done;
        }
        for (ki = 0; ki < 9 && strcmp(key, keys[ki]) != 0; ki++)
            ;
        if (ki == 9 || seen[ki]) {
            rc = cli_error("%s:%lu: %s key '%s'", path, r.line, ki == 9 ? "unknown" : "repeated",
                           key);
            goto done;
        }
        seen[ki] = true;
        {
            char where[300];

            snprintf(where, sizeof(where), "%s:%lu: %s", path, r.line, key);
            switch (ki) {
            case 0: rc = parse_fmt(where, val, false, &s->a_fmt); break;
            case 1: rc = parse_fmt(where, val, false, &s->b_fmt); break;
            case 2: rc = parse_fmt(where, val, true, &s->scale_fmt); break;
            case 3: {
                uint64_t v = 0;

                if (!cli_parse_uint(val, 32, &v))
                    rc = cli_error("%s: malformed vec '%s'", where, val);
                s->vec = (unsigned) v;
                break;
            }
            case 4: rc = parse_fmt(where, val, true, &s->c_fmt); break;
            case 5: rc = parse_size(where, val, &s->m); break;
            case 6: rc = parse_size(where, val, &s->n); break;
            case 7: rc = parse_size(where, val, &s->k); break;
            default:
                rc = parse_alpha(where, val, &s->alpha);
                s->has_alpha = true;
                break;
            }
        }
        if (rc != CLI_OK)
            goto done;
    }
    if (smma_gemm_shape_check(s, &err) != SMMA_OK) {
        rc = cli_error("%s: %s", path, err.msg);
        goto done;
    }
    kb = smma_gemm_kblocks(s);
    g->a = malloc(s->m * s->k * sizeof(uint32_t));
    g->b = malloc(s->n * s->k * sizeof(uint32_t));
    g->sa = kb ? malloc(s->m * kb * sizeof(uint32_t)) : NULL;
    g->sb = kb ? malloc(s->n * kb * sizeof(uint32_t)) : NULL;
    g->c = s->c_fmt != SMMA_NONE ? malloc(s->m * s->n * sizeof(uint32_t)) : NULL;
    if (g->a == NULL || g->b == NULL || (kb && (g->sa == NULL || g->sb == NULL)) ||
        (s->c_fmt != SMMA_NONE && g->c == NULL)) {
        rc = cli_error("out of memory");
        goto done;
    }
    rc = read_rows(&r, "A", g->a, s->m, s->k, s->a_fmt);
    if (rc == CLI_OK && kb)
        rc = read_section(&r, "SA", g->sa, s->m, kb, s->scale_fmt);
    if (rc == CLI_OK)
        rc = read_section(&r, "B", g->b, s->n, s->k, s->b_fmt);
    if (rc == CLI_OK && kb)
        rc = read_section(&r, "SB", g->sb, s->n, kb, s->scale_fmt);
    if (rc == CLI_OK && s->c_fmt != SMMA_NONE)
        rc = read_section(&r, "C", g->c, s->m, s->n, s->c_fmt);
    if (rc == CLI_OK && next_line(&r))
        rc = cli_error("%s:%lu: unexpected text after the last section", path, r.line);
done:
    if (rc != CLI_OK)
        smma_gemm_data_free(g);
    free(r.buf);
    fclose(r.f);
    return rc;
}

/* D from an .npy file (cli_gemm_read_d). */
static int
read_d_npy(const char *path, const smma_gemm_shape *s, uint32_t *d)
{
    cli_npy x;
    char what[64];
    size_t i;
    int rc = cli_npy_read(path, &x);

    if (rc != CLI_OK)
        return rc;
    snprintf(what, sizeof(what), "m x n %s D", smma_format_name(s->d_fmt));
    rc = cli_npy_expect(&x, path, s->d_fmt == SMMA_FP32 ? 4 : 2, s->d_fmt, s->m, s->n, what);
    for (i = 0; rc == CLI_OK && i < x.count; i++)
        d[i] = (uint32_t) x.v[i];
    cli_npy_free(&x);
    return rc;
}

int
cli_gemm_read_d(const char *path, const smma_gemm_shape *s, uint32_t *d)
{
    struct reader r = { NULL, path, 0, NULL, 0 };
    size_t i;
    int rc = CLI_OK;

    if (cli_is_npy_name(path))
        return read_d_npy(path, s, d);
    r.f = fopen(path, "r");
    if (r.f == NULL)
        return cli_error("%s: cannot open: %s", path, strerror(errno));
    for (i = 0; i < s->m && rc == CLI_OK; i++) {
        if (!next_line(&r))
            rc = cli_error("%s:%lu: expected %zu rows of D, found %zu", path, r.line, s->m, i);
        else
            rc = parse_codes(&r, d + i * s->n, s->n, code_max(s->d_fmt), "D");
    }
    if (rc == CLI_OK && next_line(&r))
        rc = cli_error("%s:%lu: more than %zu rows of D", path, r.line, s->m);
    free(r.buf);
    fclose(r.f);
    return rc;
}

/* ---- writers ------------------------------------------------------------------ */

static void
write_rows(FILE *f, const uint32_t *x, size_t rows, size_t cols, smma_format fmt)
{
    size_t i, j;
    int w = cli_code_digits(fmt);

    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            fprintf(f, "0x%0*x%c", w, (unsigned) x[i * cols + j], j + 1 == cols ? '\n' : ' ');
}

static const char *
fmt_or_none(smma_format f)
{
    return f == SMMA_NONE ? "none" : smma_format_name(f);
}

static int
write_inputs(const char *path, const smma_gemm_shape *s, const smma_gemm_data *g)
{
    FILE *f = fopen(path, "w");
    size_t kb = smma_gemm_kblocks(s);

    if (f == NULL)
        return cli_error("%s: cannot create: %s", path, strerror(errno));
    fprintf(f, "softmma-gemm-inputs 1\na %s\nb %s\nscale %s\nvec %u\nc %s\nm %zu\nn %zu\nk %zu\n",
            smma_format_name(s->a_fmt), smma_format_name(s->b_fmt), fmt_or_none(s->scale_fmt),
            s->vec, fmt_or_none(s->c_fmt), s->m, s->n, s->k);
    if (s->has_alpha)
        fprintf(f, "alpha 0x%08x\n", (unsigned) s->alpha);
    fprintf(f, "A\n");
    write_rows(f, g->a, s->m, s->k, s->a_fmt);
    if (kb) {
        fprintf(f, "SA\n");
        write_rows(f, g->sa, s->m, kb, s->scale_fmt);
    }
    fprintf(f, "B\n");
    write_rows(f, g->b, s->n, s->k, s->b_fmt);
    if (kb) {
        fprintf(f, "SB\n");
        write_rows(f, g->sb, s->n, kb, s->scale_fmt);
    }
    if (s->c_fmt != SMMA_NONE) {
        fprintf(f, "C\n");
        write_rows(f, g->c, s->m, s->n, s->c_fmt);
    }
    if (ferror(f) | fclose(f)) {
        remove(path);
        return cli_error("%s: write error", path);
    }
    return CLI_OK;
}

/* Prints the result of a sampled check: the line, then the first
 * mismatches. */
static void
print_check(const char *subject, const smma_gemm_shape *s, const char *model, size_t checked,
            size_t bad, const smma_mismatch *first, size_t nfirst)
{
    size_t i;

    printf("%s: checked %zu of %zu entries of D under %s: %zu mismatches\n", subject, checked,
           s->m * s->n, model, bad);
    for (i = 0; i < bad && i < nfirst; i++) {
        char w[64], gv[64];

        cli_format_value(smma_decode(s->d_fmt, first[i].want), w, sizeof(w));
        cli_format_value(smma_decode(s->d_fmt, first[i].got), gv, sizeof(gv));
        printf("  D[%zu][%zu]: want 0x%0*x (%s) got 0x%0*x (%s)\n", first[i].i, first[i].j,
               cli_code_digits(s->d_fmt), (unsigned) first[i].want, w,
               cli_code_digits(s->d_fmt), (unsigned) first[i].got, gv);
    }
}

/* Writes D as an .npy file: (m, n), uint32 codes for fp32, uint16 else. */
static int
write_d_npy(const char *path, const smma_gemm_shape *s, const uint32_t *d)
{
    unsigned bytes = s->d_fmt == SMMA_FP32 ? 4 : 2, k;
    size_t i, len = s->m * s->n * bytes;
    unsigned char *buf = malloc(len ? len : 1);
    int rc;

    if (buf == NULL)
        return cli_error("out of memory");
    for (i = 0; i < s->m * s->n; i++)
        for (k = 0; k < bytes; k++)
            buf[i * bytes + k] = (unsigned char) (d[i] >> (8 * k));
    rc = cli_npy_write(path, bytes, s->m, s->n, buf, len);
    free(buf);
    return rc;
}

/* Writes the inputs (--save-inputs) and D (--out, else stdout; a name
 * ending .npy gets an .npy file). */
static int
write_result(const char *save_s, const char *out_s, const smma_gemm_shape *s,
             const smma_gemm_data *g, const uint32_t *d)
{
    int rc;

    if (save_s != NULL && (rc = write_inputs(save_s, s, g)) != CLI_OK)
        return rc;
    if (out_s != NULL && cli_is_npy_name(out_s))
        return write_d_npy(out_s, s, d);
    if (out_s != NULL) {
        FILE *f = fopen(out_s, "w");

        if (f == NULL)
            return cli_error("%s: cannot create: %s", out_s, strerror(errno));
        write_rows(f, d, s->m, s->n, s->d_fmt);
        if (ferror(f) | fclose(f)) {
            remove(out_s);
            return cli_error("%s: write error", out_s);
        }
    } else {
        write_rows(stdout, d, s->m, s->n, s->d_fmt);
    }
    return CLI_OK;
}

static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* ---- the problem (shared with softmma match) --------------------------------- */

void
cli_gemm_arg_specs(cli_gemm_args *x, struct opt_spec *specs, size_t *n)
{
    const struct opt_spec mine[] = {
        { "a", true, &x->a, NULL }, { "b", true, &x->b, NULL },
        { "scale", true, &x->scale, NULL }, { "vec", true, &x->vec, NULL },
        { "m", true, &x->m, NULL }, { "n", true, &x->n, NULL }, { "k", true, &x->k, NULL },
        { "seed", true, &x->seed, NULL }, { "class", true, &x->cls, NULL },
        { "c", true, &x->c, NULL }, { "d", true, &x->d, NULL },
        { "inputs", true, &x->inputs, NULL }, { "alpha", true, &x->alpha, NULL },
    };

    memcpy(specs + *n, mine, sizeof(mine));
    *n += sizeof(mine) / sizeof(mine[0]);
}

/* The problem generated from the options (no --inputs). */
static int
generate_problem(const cli_gemm_args *x, bool gpu, uint64_t seed, smma_gemm_shape *s,
                 smma_gemm_data *g)
{
    smma_input_class cls = SMMA_CLASS_RANDOM;
    const char *cls_s = x->cls != NULL ? x->cls : "random";
    smma_error err;
    uint64_t v;
    int rc;

    if (x->a == NULL || x->b == NULL || x->m == NULL || x->n == NULL || x->k == NULL)
        return cli_error("--a, --b, --m, --n and --k are required (or --inputs FILE)");
    if ((rc = parse_fmt("--a", x->a, false, &s->a_fmt)) != CLI_OK ||
        (rc = parse_fmt("--b", x->b, false, &s->b_fmt)) != CLI_OK ||
        (rc = parse_fmt("--scale", x->scale ? x->scale : "none", true, &s->scale_fmt)) !=
            CLI_OK ||
        (rc = parse_fmt("--c", x->c ? x->c : "none", true, &s->c_fmt)) != CLI_OK ||
        (rc = parse_size("--m", x->m, &s->m)) != CLI_OK ||
        (rc = parse_size("--n", x->n, &s->n)) != CLI_OK ||
        (rc = parse_size("--k", x->k, &s->k)) != CLI_OK)
        return rc;
    if (!cli_parse_uint(x->vec ? x->vec : "32", 32, &v) || (v != 16 && v != 32))
        return cli_error("--vec: '%s' is not 16 or 32", x->vec);
    s->vec = (unsigned) v;
    if (strcmp(cls_s, "exact") == 0)
        cls = SMMA_CLASS_EXACT;
    else if (strcmp(cls_s, "random") != 0)
        return cli_error("--class: '%s' is not exact or random", cls_s);
    if (smma_gemm_shape_check(s, &err) != SMMA_OK ||
        (gpu ? cli_gpu_generate(s, cls, seed, g, &err)
             : smma_gemm_generate(s, cls, seed, g, &err)) != SMMA_OK)
        return cli_error("%s", err.msg);
    return CLI_OK;
}

int
cli_gemm_problem(const cli_gemm_args *x, bool gpu, smma_gemm_shape *s, smma_gemm_data *g,
                 uint64_t *seed)
{
    smma_format d_fmt;
    int rc;

    memset(s, 0, sizeof(*s));
    memset(g, 0, sizeof(*g));
    *seed = 1;
    if (x->seed != NULL && !cli_parse_uint(x->seed, UINT64_MAX, seed))
        return cli_error("--seed: malformed seed '%s'", x->seed);
    if ((rc = parse_fmt("--d", x->d ? x->d : "fp32", false, &d_fmt)) != CLI_OK)
        return rc;
    s->d_fmt = d_fmt;
    if (x->inputs != NULL) {
        if (x->a || x->b || x->m || x->n || x->k || x->scale || x->vec || x->c || x->cls)
            return cli_error("--inputs gives the shape, formats and values; do not also give "
                             "--a, --b, --scale, --vec, --c, --m, --n, --k or --class");
        if ((rc = read_inputs(x->inputs, s, g)) != CLI_OK)
            return rc;
        s->d_fmt = d_fmt;   /* the file holds no D format */
    } else if ((rc = generate_problem(x, gpu, *seed, s, g)) != CLI_OK) {
        return rc;
    }
    if (x->alpha != NULL) {
        if (s->has_alpha)
            return cli_error("--alpha: %s already gives alpha", x->inputs);
        if ((rc = parse_alpha("--alpha", x->alpha, &s->alpha)) != CLI_OK)
            return rc;
        s->has_alpha = true;
    }
    return CLI_OK;
}

/* ---- gemm -------------------------------------------------------------------- */

/* D under model, a block of rows at a time, with progress on a terminal
 * ("gemm: row R of M") for a product that takes more than a second. */
static int
gemm_rows(const smma_model *model, const smma_gemm_shape *s, const smma_gemm_operands *op,
          uint32_t *d, smma_error *err)
{
    double per_row = (double) s->n * (double) s->k;
    size_t step = per_row >= 1 << 20 ? 1 : (size_t) ((1 << 20) / per_row), r0, kb;
    smma_gemm_shape part = *s;
    smma_gemm_operands po = *op;
    cli_progress pr;
    int rc = SMMA_OK;

    kb = smma_gemm_kblocks(s);
    cli_progress_start(&pr);
    for (r0 = 0; rc == SMMA_OK && r0 < s->m; r0 += step) {
        cli_progress_show(&pr, "gemm: row %zu of %zu", r0, s->m);
        part.m = s->m - r0 < step ? s->m - r0 : step;
        po.a = op->a_kmajor ? op->a + r0 * op->lda : op->a + r0;
        po.sa = op->sa != NULL ? op->sa + r0 * kb : NULL;
        po.c = op->c != NULL ? op->c + r0 * s->n : NULL;
        rc = smma_gemm(model, &part, &po, d + r0 * s->n, err);
    }
    cli_progress_end(&pr);
    return rc;
}

/* Timed runs of --bench --on gpu, after one warm-up run. */
#define GPU_BENCH_REPS 20u

/* softmma gemm --on gpu: the problem through a GPU kernel (kernel, or the
 * one smma_gpu_gemm chooses); D printed or written as on the CPU, or
 * checked on `samples` entries (0: no check) under model (NULL: the one the
 * kernel follows on the device), or timed. */
static int
gemm_gpu(const smma_gemm_shape *s, const smma_gemm_data *g, const smma_model *model,
         smma_gpu_kernel kernel, uint64_t samples, bool bench, uint64_t seed,
         const char *save_s, const char *out_s, uint32_t *d)
{
    smma_gemm_operands op = smma_gemm_data_operands(s, g);
    cli_gpu_plan plan;
    smma_error err;
    int rc;

    /* With auto, --model picks the kernel: the fastest that follows it. */
    if ((rc = cli_gpu_plan_gemm(s, g, kernel,
                                kernel == SMMA_GPU_AUTO && model != NULL ? model->name : NULL,
                                &plan)) != CLI_OK)
        return rc;
    /* With --check or --bench, which kernel runs and why. */
    if ((samples > 0 || bench) && plan.why[0] != '\0')
        printf("%s\n", plan.why);
    if (samples > 0 && model == NULL) {
        if (plan.model == NULL)
            return cli_error("--check: %s; name the model to check against with --model",
                             plan.no_model);
        if (smma_model_from_name(plan.model, &model, &err) != SMMA_OK ||
            smma_model_check(model, s, &err) != SMMA_OK)
            return cli_error("--check: %s: %s", plan.model, err.msg);
    }
    if (bench) {
        double ms = 0, flops = 2.0 * (double) s->m * (double) s->n * (double) s->k;

        if ((rc = cli_gpu_run_gemm(&plan, s, g, NULL, GPU_BENCH_REPS, &ms)) != CLI_OK)
            return rc;
        printf("gemm %s x %s scale %s vec %u %zux%zux%zu on %s (%d.%d) kernel %s model %s: "
               "median %.4f ms of %u runs, %.2f TFLOP/s\n", smma_format_name(s->a_fmt),
               smma_format_name(s->b_fmt), fmt_or_none(s->scale_fmt), s->vec, s->m, s->n, s->k,
               plan.dev.name, plan.dev.sm_major, plan.dev.sm_minor,
               smma_gpu_kernel_name(plan.kernel), plan.model != NULL ? plan.model : "none", ms,
               GPU_BENCH_REPS, ms > 0 ? flops / (ms * 1e-3) / 1e12 : 0.0);
        return CLI_OK;
    }
    if ((rc = cli_gpu_run_gemm(&plan, s, g, d, 0, NULL)) != CLI_OK)
        return rc;
    if (samples > 0) {
        smma_mismatch first[10];
        size_t checked, bad;
        char subject[200];

        if (smma_gemm_verify(model, s, &op, d, samples > SIZE_MAX ? SIZE_MAX : (size_t) samples,
                             seed ^ 0x5a5a5a5aull, &checked, &bad, first, 10, &err) != SMMA_OK)
            return cli_error("%s", err.msg);
        snprintf(subject, sizeof(subject), "%s on %s (%d.%d)",
                 smma_gpu_kernel_name(plan.kernel), plan.dev.name, plan.dev.sm_major,
                 plan.dev.sm_minor);
        print_check(subject, s, model->name, checked, bad, first, 10);
        return bad ? CLI_MISMATCH : CLI_OK;
    }
    return write_result(save_s, out_s, s, g, d);
}

static void
gemm_usage(void)
{
    printf("Usage: softmma gemm --a FMT --b FMT [--scale e8m0|ue4m3|none] [--vec 16|32]\n"
           "           --m M --n N --k K --model NAME [--seed S] [--class exact|random]\n"
           "           [--c fp32|bf16|fp16|none] [--d fp32|bf16|fp16] [--alpha X]\n"
           "           [--out FILE] [--save-inputs FILE]\n"
           "       softmma gemm --inputs FILE --model NAME [--d FMT] [--alpha X]\n"
           "           [--out FILE]\n"
           "       softmma gemm ... --check DFILE [--samples S]\n"
           "       softmma gemm ... --bench\n"
           "       softmma gemm ... --on gpu [--kernel NAME] [--model NAME]\n"
           "           [--check COUNT | --bench | --out FILE]\n\n"
           "Computes D = alpha (C + sum_k (A*SA)(B*SB)) under a numerics model\n"
           "(softmma models) and prints D as hex codes, one row per line.  Inputs are\n"
           "generated from the seed (class random: finite codes, exponents within\n"
           "2^-20..2^20; class exact: every partial sum exact in fp32, so every model\n"
           "agrees), or read from FILE (format: softmma-gemm-inputs 1, see softmma(1)).\n"
           "--check verifies a subject's D on S sampled entries (all when S >= m*n;\n"
           "default 1000) and exits 1 on any mismatch; DFILE is text (m lines of n\n"
           "codes) or, named *.npy, a NumPy (m, n) array of the codes (uint32 for\n"
           "fp32, uint16 for bf16 and fp16), as --out FILE.npy writes D.\n"
           "--bench times the whole product and prints multiply-adds per second.\n"
           "--alpha X multiplies the result as a\n"
           "kernel's epilogue does (doc/models.md): X is an fp32 bit pattern when written\n"
           "0xHHHHHHHH, else a decimal number (or inf, nan) rounded to the nearest fp32;\n"
           "without it there is no alpha (the same bits as alpha 1).  An inputs file may\n"
           "give it in its header instead (alpha X).  Defaults: --scale none, --vec 32,\n"
           "--c none, --d fp32, --seed 1, --class random.\n\n"
           "--on gpu computes D on device 0 with a GPU kernel instead (softmma gpu lists\n"
           "them): --kernel sm80-v1, sm80-v2, sm80-bs-v1, sm80-bs-large, sm80-bs-small,\n"
           "sm100-v1, sm100-v2, sm100-v3, sm90-v1, sm90-v2, sm90-promote32 (the MX pairs,\n"
           "model h100-fp8-promote32; only by name), sm90-bs (the block-scaled pairs\n"
           "upcast to bf16, model bf16-upcast-h100; only by name) or auto (the default: the\n"
           "fastest that takes the problem; with --check or --bench a first line says which\n"
           "and why).\n"
           "The same inputs, except that a bf16 or fp16 operand of a scaled product is\n"
           "generated without scales (scale 1), as the kernels take it.  D is printed as\n"
           "above.  --check COUNT verifies COUNT sampled entries of the GPU's D (all\n"
           "when COUNT >= m*n) against the reference under the model the kernel\n"
           "follows on the device (or --model NAME; --model is optional with --on gpu;\n"
           "with --kernel auto it picks the fastest kernel whose arithmetic on the device\n"
           "is that model, for example sm90-promote32 for h100-fp8-promote32)\n"
           "and exits 1 on any mismatch.  --bench times one warm-up and 20 runs with\n"
           "CUDA events and prints the median time and TFLOP/s (2mnk flops).  Without\n"
           "CUDA or a device, or when the kernel refuses the problem, it exits 2 with\n"
           "the reason.\n");
}

int
cmd_gemm(int argc, char **argv)
{
    const char *model_s = NULL, *out_s = NULL, *save_s = NULL, *check_s = NULL,
               *samples_s = NULL, *on_s = "cpu", *kernel_s = NULL;
    bool bench = false, on_gpu = false;
    cli_gemm_args ga = { NULL };
    struct opt_spec specs[24] = {
        { "model", true, &model_s, NULL }, { "out", true, &out_s, NULL },
        { "save-inputs", true, &save_s, NULL }, { "check", true, &check_s, NULL },
        { "samples", true, &samples_s, NULL }, { "on", true, &on_s, NULL },
        { "kernel", true, &kernel_s, NULL }, { "bench", false, NULL, &bench },
    };
    size_t nspecs = 8;
    struct opt_result r;
    smma_gemm_shape s;
    smma_gemm_data g;
    smma_gemm_operands op;
    const smma_model *model = NULL;
    smma_error err;
    uint32_t *d = NULL;
    uint64_t seed = 1, gpu_samples = 0;
    smma_gpu_kernel kernel = SMMA_GPU_AUTO;
    int rc;

    cli_gemm_arg_specs(&ga, specs, &nspecs);
    specs[nspecs].name = NULL;
    rc = opt_parse(argc, argv, specs, &r);

    memset(&g, 0, sizeof(g));
    memset(&s, 0, sizeof(s));
    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        gemm_usage();
        goto done;
    }
    if (r.npos > 0) {
        rc = cli_error("unexpected argument '%s'", r.pos[0]);
        goto done;
    }
    if (strcmp(on_s, "gpu") == 0)
        on_gpu = true;
    else if (strcmp(on_s, "cpu") != 0) {
        rc = cli_error("--on: '%s' is not cpu or gpu", on_s);
        goto done;
    }
    if (kernel_s != NULL) {
        if (!on_gpu) {
            rc = cli_error("--kernel %s needs --on gpu", kernel_s);
            goto done;
        }
        if (smma_gpu_kernel_from_name(kernel_s, &kernel, &err) != SMMA_OK) {
            rc = cli_error("--kernel: %s", err.msg);
            goto done;
        }
    }
    if (model_s == NULL && !on_gpu) {
        rc = cli_error("--model is required (see softmma models)");
        goto done;
    }
    if (model_s != NULL && (rc = cli_model_from_name("--model", model_s, &model)) != CLI_OK)
        goto done;
    if ((rc = cli_gemm_problem(&ga, on_gpu, &s, &g, &seed)) != CLI_OK)
        goto done;
    if (model != NULL && smma_model_check(model, &s, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    op = smma_gemm_data_operands(&s, &g);
    d = malloc(s.m * s.n * sizeof(*d));
    if (d == NULL) {
        rc = cli_error("out of memory for D (%zux%zu)", s.m, s.n);
        goto done;
    }
    if (samples_s != NULL && on_gpu) {
        rc = cli_error("--samples: with --on gpu, --check COUNT gives the number of samples");
        goto done;
    }
    if (samples_s != NULL && check_s == NULL) {
        rc = cli_error("--samples needs --check");
        goto done;
    }
    if (bench && (check_s != NULL || out_s != NULL || save_s != NULL)) {
        rc = cli_error("--bench prints only the timing; do not give it with --check, --out or "
                       "--save-inputs");
        goto done;
    }
    if (check_s != NULL && (out_s != NULL || save_s != NULL)) {
        rc = cli_error("--check writes nothing; do not give it with --out or --save-inputs");
        goto done;
    }
    if (on_gpu) {
        if (check_s != NULL && (!cli_parse_uint(check_s, UINT64_MAX, &gpu_samples) ||
                                gpu_samples == 0)) {
            rc = cli_error("--check: with --on gpu it takes the number of entries of D to "
                           "sample (all when at least m*n), not '%s'", check_s);
            goto done;
        }
        rc = gemm_gpu(&s, &g, model, kernel, gpu_samples, bench, seed, save_s, out_s, d);
        goto done;
    }
    if (check_s != NULL) {
        size_t checked, bad;
        uint64_t samples;

        if (samples_s == NULL)
            samples_s = "1000";
        smma_mismatch first[10];

        if (!cli_parse_uint(samples_s, UINT64_MAX, &samples) || samples == 0) {
            rc = cli_error("--samples: malformed count '%s'", samples_s);
            goto done;
        }
        if ((rc = cli_gemm_read_d(check_s, &s, d)) != CLI_OK)
            goto done;
        if (smma_gemm_verify(model, &s, &op, d, (size_t) samples, seed ^ 0x5a5a5a5aull,
                             &checked, &bad, first, 10, &err) != SMMA_OK) {
            rc = cli_error("%s", err.msg);
            goto done;
        }
        print_check(check_s, &s, model->name, checked, bad, first, 10);
        rc = bad ? CLI_MISMATCH : CLI_OK;
        goto done;
    }
    {
        double t0 = now(), t;

        if (gemm_rows(model, &s, &op, d, &err) != SMMA_OK) {
            rc = cli_error("%s", err.msg);
            goto done;
        }
        t = now() - t0;
        if (bench) {
            double macs = (double) s.m * (double) s.n * (double) s.k;

            printf("gemm %s x %s scale %s vec %u %zux%zux%zu model %s: %.3f s, "
                   "%.1f M MAC/s\n", smma_format_name(s.a_fmt), smma_format_name(s.b_fmt),
                   fmt_or_none(s.scale_fmt), s.vec, s.m, s.n, s.k, model->name, t,
                   macs / t / 1e6);
            goto done;
        }
    }
    rc = write_result(save_s, out_s, &s, &g, d);
done:
    free(d);
    smma_gemm_data_free(&g);
    opt_free(&r);
    return rc;
}
