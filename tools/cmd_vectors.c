/*
 * tools/cmd_vectors.c - softmma gen, ver and export: golden vector files.
 *
 *   gen     writes a suite (softmma/suites.h) in the vector format of
 *           softmma/vectors.h; --list names the suites, --all writes the
 *           committed ones and their SHA256SUMS, --check regenerates them and
 *           compares byte for byte (the drift test of make check).
 *   ver     reads a subject's results (the same format, or raw binary) and
 *           reports the first mismatches TestFloat-style: the case's inputs,
 *           the expected and the got outputs, as bits and decoded.
 *   export  writes a suite's fields as NumPy .npy files (format 1.0).
 *
 * Exit status: 0 success (every case equal), 1 mismatches, 2 bad input.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <softmma/suites.h>

#include "cli.h"
#include "options.h"

/* Files read whole (a committed suite, SHA256SUMS) may not be larger. */
#define MAX_FILE (256u << 20)

/* ------------------------------------------------------------------ shared */

/* Parses --level and --seed; the defaults are the committed files'. */
static int
parse_level_seed(const char *level_s, const char *seed_s, unsigned *level, uint64_t *seed)
{
    uint64_t v;

    *level = SMMA_SUITE_LEVEL;
    *seed = SMMA_SUITE_SEED;
    if (level_s != NULL) {
        if (!cli_parse_uint(level_s, 2, &v) || v < 1)
            return cli_error("--level must be 1 or 2, not '%s'", level_s);
        *level = (unsigned) v;
    }
    if (seed_s != NULL && !cli_parse_uint(seed_s, UINT64_MAX, seed))
        return cli_error("malformed --seed '%s' (a decimal or 0x number)", seed_s);
    return CLI_OK;
}

/* Generates suite s; prints the error. */
static int
generate(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **w,
         const char **text, size_t *len)
{
    smma_error err;

    if (smma_suite_generate(s, level, seed, w, &err) != SMMA_OK ||
        smma_vec_finish(*w, text, len, &err) != SMMA_OK) {
        smma_vec_writer_free(*w);
        *w = NULL;
        return cli_error("%s: %s", s->name, err.msg);
    }
    return CLI_OK;
}

/* Where a suite's expected cases come from: a file, or a suite generated
 * in memory. */
struct expected {
    smma_vec_writer *w;
    smma_vec_reader *r;
};

static void
expected_close(struct expected *e)
{
    smma_vec_close(e->r);
    smma_vec_writer_free(e->w);
    e->r = NULL;
    e->w = NULL;
}

/* An existing file, or an argument with a '/', is a file; anything else a
 * suite name. */
static bool
is_file_arg(const char *arg)
{
    struct stat st;

    return strchr(arg, '/') != NULL || stat(arg, &st) == 0;
}

/* Opens a reader and checks that its suite is one this program knows. */
static int
open_known(const char *path, FILE *f, smma_vec_reader **r)
{
    const smma_vec_header *h;
    smma_suite s;
    smma_error err;
    int rc = f != NULL ? smma_vec_open_file(f, path, r, &err) : smma_vec_open(path, r, &err);

    if (rc != SMMA_OK)
        return cli_error("%s", err.msg);
    h = smma_vec_header_of(*r);
    if (smma_suite_find(h->suite, &s, NULL) != SMMA_OK) {
        cli_error("%s:%zu: unknown suite '%s' (softmma gen --list lists them)", path,
                  h->suite_line, h->suite);
        smma_vec_close(*r);
        *r = NULL;
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int
open_expected(const char *arg, const char *level_s, const char *seed_s, struct expected *e)
{
    smma_suite s;
    smma_error err;
    const char *text;
    size_t len;
    unsigned level;
    uint64_t seed;
    int rc;

    memset(e, 0, sizeof(*e));
    if (is_file_arg(arg)) {
        if (level_s != NULL || seed_s != NULL)
            return cli_error("--level and --seed apply to a suite name, not to the file '%s'",
                             arg);
        return open_known(arg, NULL, &e->r);
    }
    if (smma_suite_find(arg, &s, NULL) != SMMA_OK)
        return cli_error("unknown suite '%s' (softmma gen --list lists them)", arg);
    if ((rc = parse_level_seed(level_s, seed_s, &level, &seed)) != CLI_OK ||
        (rc = generate(&s, level, seed, &e->w, &text, &len)) != CLI_OK)
        return rc;
    if (smma_vec_open_mem(text, len, s.name, &e->r, &err) != SMMA_OK) {
        expected_close(e);
        return cli_error("%s", err.msg);
    }
    return CLI_OK;
}

/* Reads a whole file (at most MAX_FILE bytes); false with errno set. */
static bool
read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 65536, n = 0;
    char *buf;

    *data = NULL;
    if (f == NULL)
        return false;
    buf = malloc(cap);
    while (buf != NULL) {
        size_t got = fread(buf + n, 1, cap - n, f);

        n += got;
        if (n < cap) {
            if (ferror(f)) {
                free(buf);
                buf = NULL;
                errno = EIO;
            }
            break;
        }
        if (cap >= MAX_FILE) {
            free(buf);
            buf = NULL;
            errno = EFBIG;
            break;
        }
        {
            char *nb = realloc(buf, cap * 2);

            if (nb == NULL) {
                free(buf);
                buf = NULL;
                errno = ENOMEM;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    *data = buf;
    *len = n;
    return buf != NULL;
}

static int
make_dir(const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return cli_error("%s: cannot create the directory: %s", dir, strerror(errno));
    return CLI_OK;
}

static char *
join(const char *dir, const char *name, const char *ext)
{
    size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
    char *p = malloc(n);

    if (p != NULL)
        snprintf(p, n, "%s/%s%s", dir, name, ext);
    return p;
}

/* ------------------------------------------------------------------ gen */

static const char gen_usage[] =
    "Usage: softmma gen SUITE [--level 1|2] [--seed N] [-o FILE]\n"
    "       softmma gen --list\n"
    "       softmma gen --all DIR\n"
    "       softmma gen --check DIR\n\n"
    "Writes the golden vectors of SUITE (doc/vectors.md) to standard output, or\n"
    "to FILE (written whole to a temporary file, then renamed).  --level 1\n"
    "(the default) gives the structured edge cases, 2 adds exhaustive or random\n"
    "ones; --seed (default 1) seeds the random cases.  The same arguments give\n"
    "the same bytes on every machine.\n\n"
    "  --list       names every suite, and whether vectors/ holds it\n"
    "  --all DIR    writes every committed suite as DIR/SUITE.vec and their\n"
    "               DIR/SHA256SUMS (make vectors)\n"
    "  --check DIR  regenerates every committed suite and compares it with\n"
    "               DIR/SUITE.vec byte for byte, and checks DIR/SHA256SUMS;\n"
    "               one line per suite; exit 1 on any difference\n";

static int
gen_list(void)
{
    smma_suite s;
    size_t i;

    for (i = 0; smma_suite_at(i, &s); i++)
        printf("%-40s %s\n", s.name, smma_suite_committed(&s) ? "committed" : "on demand");
    return CLI_OK;
}

/* The SHA256SUMS text of the committed suites: "HEX  SUITE.vec" lines. */
static int
gen_all(const char *dir)
{
    smma_suite s;
    char *sums = NULL, *path;
    size_t i, slen = 0, nsuites = 0, total = 0;
    smma_error err;
    int rc = make_dir(dir);

    for (i = 0; rc == CLI_OK && smma_suite_at(i, &s); i++) {
        smma_vec_writer *w;
        const char *text;
        size_t len;
        char hex[65], *ns;

        if (!smma_suite_committed(&s))
            continue;
        if ((rc = generate(&s, SMMA_SUITE_LEVEL, SMMA_SUITE_SEED, &w, &text, &len)) != CLI_OK)
            break;
        path = join(dir, s.name, ".vec");
        ns = realloc(sums, slen + 64 + 2 + strlen(s.name) + 6);
        if (path == NULL || ns == NULL) {
            free(path);
            if (ns != NULL)
                sums = ns;
            smma_vec_writer_free(w);
            rc = cli_error("out of memory");
            break;
        }
        sums = ns;
        smma_sha256_hex(text, len, hex);
        slen += (size_t) sprintf(sums + slen, "%s  %s.vec\n", hex, s.name);
        if (smma_vec_save_bytes(text, len, path, &err) != SMMA_OK)
            rc = cli_error("%s", err.msg);
        nsuites++;
        total += len;
        free(path);
        smma_vec_writer_free(w);
    }
    if (rc == CLI_OK) {
        path = join(dir, "SHA256SUMS", "");
        if (path == NULL)
            rc = cli_error("out of memory");
        else if (smma_vec_save_bytes(sums, slen, path, &err) != SMMA_OK)
            rc = cli_error("%s", err.msg);
        free(path);
    }
    if (rc == CLI_OK)
        printf("wrote %zu suites (%zu bytes) and SHA256SUMS to %s\n", nsuites, total, dir);
    free(sums);
    return rc;
}

/* The first line at which two texts differ (1-based). */
static size_t
first_diff_line(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t i, line = 1;

    for (i = 0; i < alen && i < blen && a[i] == b[i]; i++)
        if (a[i] == '\n')
            line++;
    return line;
}

/* One entry of SHA256SUMS. */
struct sum {
    char hex[65];
    char name[SMMA_VEC_TEXT_MAX + 8];
    bool used;
};

/* Reads DIR/SHA256SUMS ("HEX  NAME" or "HEX *NAME" lines). */
static int
read_sums(const char *path, struct sum **out, size_t *n)
{
    char *data, *p, *end;
    size_t len, line = 0, cap = 0;
    struct sum *s = NULL;

    *out = NULL;
    *n = 0;
    if (!read_file(path, &data, &len))
        return cli_error("%s: cannot read: %s", path, strerror(errno));
    for (p = data, end = data + len; p < end; p = p + strcspn(p, "\n") + 1) {
        size_t l = (size_t) (memchr(p, '\n', (size_t) (end - p)) != NULL
                                 ? (char *) memchr(p, '\n', (size_t) (end - p)) - p
                                 : end - p);
        size_t i;

        line++;
        if (p + l == end) {
            free(s);
            free(data);
            return cli_error("%s:%zu: the last line has no newline", path, line);
        }
        for (i = 0; i < 64 && i < l && ((p[i] >= '0' && p[i] <= '9') ||
                                        (p[i] >= 'a' && p[i] <= 'f'));
             i++)
            ;
        if (i != 64 || l < 67 || l - 66 >= sizeof(s->name) || p[64] != ' ' ||
            (p[65] != ' ' && p[65] != '*') || memchr(p, '\0', l) != NULL) {
            free(s);
            free(data);
            return cli_error("%s:%zu: malformed line (HEX  NAME)", path, line);
        }
        if (*n == cap) {
            struct sum *ns = realloc(s, (cap = cap ? 2 * cap : 512) * sizeof(*ns));

            if (ns == NULL) {
                free(s);
                free(data);
                return cli_error("out of memory");
            }
            s = ns;
        }
        memcpy(s[*n].hex, p, 64);
        s[*n].hex[64] = '\0';
        memcpy(s[*n].name, p + 66, l - 66);
        s[*n].name[l - 66] = '\0';
        s[*n].used = false;
        (*n)++;
        p[l] = '\0';
    }
    free(data);
    *out = s;
    return CLI_OK;
}

static int
gen_check(const char *dir)
{
    smma_suite s;
    struct sum *sums = NULL;
    size_t i, j, nsums = 0, nsuites = 0, bad = 0;
    char *path = join(dir, "SHA256SUMS", "");
    DIR *d;
    struct dirent *de;
    int rc;

    if (path == NULL)
        return cli_error("out of memory");
    rc = read_sums(path, &sums, &nsums);
    free(path);
    if (rc != CLI_OK)
        return rc;
    for (i = 0; rc == CLI_OK && smma_suite_at(i, &s); i++) {
        smma_vec_writer *w;
        const char *text;
        char *file, hex[65], fname[SMMA_VEC_TEXT_MAX + 8];
        size_t len, flen;
        struct sum *entry = NULL;

        if (!smma_suite_committed(&s))
            continue;
        nsuites++;
        if ((rc = generate(&s, SMMA_SUITE_LEVEL, SMMA_SUITE_SEED, &w, &text, &len)) != CLI_OK)
            break;
        snprintf(fname, sizeof(fname), "%s.vec", s.name);
        for (j = 0; j < nsums; j++)
            if (strcmp(sums[j].name, fname) == 0)
                entry = &sums[j];
        path = join(dir, s.name, ".vec");
        if (path == NULL) {
            smma_vec_writer_free(w);
            rc = cli_error("out of memory");
            break;
        }
        if (!read_file(path, &file, &flen)) {
            printf("MISSING  %s (%s)\n", fname, strerror(errno));
            bad++;
        } else if (flen != len || memcmp(file, text, len) != 0) {
            printf("DIFFERS  %s: regenerated, it differs from line %zu on\n", fname,
                   first_diff_line(text, len, file, flen));
            bad++;
        } else {
            smma_sha256_hex(file, flen, hex);
            if (entry == NULL) {
                printf("UNLISTED %s: not in SHA256SUMS\n", fname);
                bad++;
            } else if (strcmp(entry->hex, hex) != 0) {
                printf("BADSUM   %s: SHA-256 %s, SHA256SUMS says %s\n", fname, hex,
                       entry->hex);
                bad++;
            } else {
                printf("ok       %s\n", fname);
            }
        }
        if (entry != NULL)
            entry->used = true;
        free(file);
        free(path);
        smma_vec_writer_free(w);
    }
    for (j = 0; rc == CLI_OK && j < nsums; j++)
        if (!sums[j].used) {
            printf("EXTRA    %s: in SHA256SUMS but not a committed suite\n", sums[j].name);
            bad++;
        }
    d = rc == CLI_OK ? opendir(dir) : NULL;
    while (d != NULL && (de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);

        if (l > 4 && strcmp(de->d_name + l - 4, ".vec") == 0) {
            char name[SMMA_VEC_TEXT_MAX];

            snprintf(name, sizeof(name), "%.*s", (int) (l - 4), de->d_name);
            if (smma_suite_find(name, &s, NULL) != SMMA_OK || !smma_suite_committed(&s)) {
                printf("EXTRA    %s: not a committed suite\n", de->d_name);
                bad++;
            }
        }
    }
    if (d != NULL)
        closedir(d);
    free(sums);
    if (rc != CLI_OK)
        return rc;
    if (bad > 0) {
        printf("%zu of %zu committed suites checked: %zu problem%s\n", nsuites, nsuites, bad,
               bad == 1 ? "" : "s");
        return CLI_MISMATCH;
    }
    printf("%zu committed suites: regenerated byte for byte; SHA256SUMS checked\n", nsuites);
    return CLI_OK;
}

int
cmd_gen(int argc, char **argv)
{
    const char *level_s = NULL, *seed_s = NULL, *out_s = NULL, *all_s = NULL, *check_s = NULL;
    bool list = false;
    const struct opt_spec specs[] = {
        { "level", true, &level_s, NULL },   { "seed", true, &seed_s, NULL },
        { "output", true, &out_s, NULL },    { "list", false, NULL, &list },
        { "all", true, &all_s, NULL },       { "check", true, &check_s, NULL },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    smma_suite s;
    char **args;
    int i, rc, modes;

    /* "-o FILE" is "--output FILE". */
    args = calloc((size_t) argc + 1, sizeof(*args));
    if (args == NULL)
        return cli_error("out of memory");
    for (i = 0; i < argc; i++)
        args[i] = strcmp(argv[i], "-o") == 0 ? (char *) "--output" : argv[i];
    rc = opt_parse(argc, args, specs, &r);
    free(args);
    if (rc != CLI_OK) {
        opt_free(&r);
        return rc;
    }
    modes = (list ? 1 : 0) + (all_s != NULL) + (check_s != NULL);
    if (r.help) {
        fputs(gen_usage, stdout);
    } else if (modes > 1 || (modes == 1 && (r.npos > 0 || level_s || seed_s || out_s))) {
        rc = cli_error("--list, --all and --check take no suite and no other option");
    } else if (list) {
        rc = gen_list();
    } else if (all_s != NULL) {
        rc = gen_all(all_s);
    } else if (check_s != NULL) {
        rc = gen_check(check_s);
    } else if (r.npos != 1) {
        rc = cli_error(r.npos == 0 ? "no suite given (softmma gen --list lists them)"
                                   : "more than one suite given");
    } else if (smma_suite_find(r.pos[0], &s, NULL) != SMMA_OK) {
        rc = cli_error("unknown suite '%s' (softmma gen --list lists them)", r.pos[0]);
    } else {
        smma_vec_writer *w = NULL;
        const char *text;
        size_t len;
        unsigned level;
        uint64_t seed;
        smma_error err;

        rc = parse_level_seed(level_s, seed_s, &level, &seed);
        if (rc == CLI_OK)
            rc = generate(&s, level, seed, &w, &text, &len);
        if (rc == CLI_OK && out_s != NULL && smma_vec_save_bytes(text, len, out_s, &err) != 0)
            rc = cli_error("%s", err.msg);
        if (rc == CLI_OK && out_s == NULL &&
            (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0))
            rc = cli_error("write error on standard output");
        smma_vec_writer_free(w);
    }
    opt_free(&r);
    return rc;
}

/* ------------------------------------------------------------------ ver */

static const char ver_usage[] =
    "Usage: softmma ver SUITE RESULTS [--raw] [--max N] [--level 1|2] [--seed N]\n\n"
    "Compares a subject's RESULTS with the golden vectors of SUITE, which is a\n"
    "vector file or a suite name (then generated with --level and --seed).\n"
    "RESULTS is a vector file of the same suite, the same fields and the same\n"
    "inputs with the subject's outputs (- reads standard input), or with --raw\n"
    "the outputs alone as little-endian binary: for each case, each output field\n"
    "in header order, each value in the bytes of its type (doc/vectors.md).\n"
    "A RESULTS that is a directory holds the outputs as .npy files, as\n"
    "softmma export --npy writes them: DIR/FIELD.npy of shape (cases,) or\n"
    "(cases, n) for each scalar output field, DIR/FIELD.CASE.npy of the block's\n"
    "shape (rows, cols) for each block output field, dtype the unsigned integer\n"
    "of the field's size (float32 or float16 also for an fp32 or fp16 field);\n"
    "the inputs are the suite's.  A file of another dtype or shape is refused\n"
    "naming it and what was expected.\n"
    "Prints the first N (default 20) differing cases: their inputs, the\n"
    "expected and the got outputs, as bits and decoded.  Exit status: 0 every\n"
    "case equal, 1 some differ, 2 bad input.\n";

/* A value decoded for people: a format's value, a double, or the integer. */
static void
decoded(smma_vec_type t, uint64_t v, char *buf, size_t n)
{
    smma_format f = smma_vec_type_format(t);

    if (f != SMMA_FORMAT_COUNT)
        cli_format_value(smma_decode(f, (uint32_t) v), buf, n);
    else if (t == SMMA_VT_FP64)
        cli_format_value(smma_f64_from_bits(v), buf, n);
    else
        snprintf(buf, n, "%llu", (unsigned long long) v);
}

static void
print_value(FILE *out, const char *lead, smma_vec_type t, uint64_t v)
{
    char tok[20], dec[64];

    smma_vec_format_token(t, v, tok);
    decoded(t, v, dec, sizeof(dec));
    fprintf(out, "%s%-16s %s\n", lead, tok, dec);
}

/* Prints one differing case (at most 8 differing values per field). */
static void
report_case(FILE *out, const smma_vec_header *h, const smma_vec_case *e,
            const smma_vec_case *g, const char *where)
{
    size_t fi, j, shown;
    char lead[80];

    fprintf(out, "\ncase %llu (%s):\n", (unsigned long long) e->index, where);
    for (fi = 0; fi < h->nfields; fi++) {
        const smma_vec_field *f = &h->fields[fi];

        if (f->out)
            continue;
        if (f->block) {
            fprintf(out, "  in  %-14s %zu x %zu values (not shown)\n", f->name, e->blocks[fi].rows,
                   e->blocks[fi].cols);
        } else if (f->count == 1) {
            snprintf(lead, sizeof(lead), "  in  %-14s ", f->name);
            print_value(out, lead, f->type, e->scalars[f->offset]);
        } else {
            for (j = 0; j < f->count; j += 8) {
                size_t k;
                char tok[20];

                snprintf(lead, sizeof(lead), "%s[%zu..%zu]", f->name, j,
                         j + 8 < f->count ? j + 7 : f->count - 1);
                fprintf(out, "  in  %-14s", lead);
                for (k = j; k < j + 8 && k < f->count; k++) {
                    smma_vec_format_token(f->type, e->scalars[f->offset + k], tok);
                    fprintf(out, " %s", tok);
                }
                fprintf(out, "\n");
            }
        }
    }
    for (fi = 0; fi < h->nfields; fi++) {
        const smma_vec_field *f = &h->fields[fi];
        const uint64_t *ev = f->block ? e->blocks[fi].v : e->scalars + f->offset;
        const uint64_t *gv = f->block ? g->blocks[fi].v : g->scalars + f->offset;
        size_t n = f->block ? e->blocks[fi].rows * e->blocks[fi].cols : f->count;
        size_t differ = 0;

        if (!f->out)
            continue;
        for (j = 0, shown = 0; j < n; j++) {
            char name[64];

            if (ev[j] == gv[j])
                continue;
            if (++differ > 8)
                continue;
            if (f->block)
                snprintf(name, sizeof(name), "%s[%zu][%zu]", f->name, j / e->blocks[fi].cols,
                         j % e->blocks[fi].cols);
            else if (f->count > 1)
                snprintf(name, sizeof(name), "%s[%zu]", f->name, j);
            else
                snprintf(name, sizeof(name), "%s", f->name);
            snprintf(lead, sizeof(lead), "  out %-14s expected ", name);
            print_value(out, lead, f->type, ev[j]);
            print_value(out, "                     got      ", f->type, gv[j]);
            shown++;
        }
        if (differ > shown)
            fprintf(out, "  out %-14s ... and %zu more differing values\n", f->name, differ - shown);
    }
}

/* Checks that the results' header matches the suite's. */
static int
same_header(const smma_vec_header *e, const smma_vec_header *g, const char *gname)
{
    size_t i;

    if (strcmp(e->suite, g->suite) != 0)
        return cli_error("%s:%zu: suite '%s', but the expected suite is '%s'", gname,
                         g->suite_line, g->suite, e->suite);
    if (e->nfields != g->nfields)
        return cli_error("%s: %zu fields, but suite %s has %zu", gname, g->nfields, e->suite,
                         e->nfields);
    for (i = 0; i < e->nfields; i++) {
        const smma_vec_field *a = &e->fields[i], *b = &g->fields[i];

        if (strcmp(a->name, b->name) != 0 || a->type != b->type || a->out != b->out ||
            a->block != b->block || a->count != b->count)
            return cli_error("%s: field %zu is '%s', but suite %s's is '%s' (same names, "
                             "types, counts and order needed)", gname, i + 1, b->name,
                             e->suite, a->name);
    }
    if (e->cases != g->cases)
        return cli_error("%s: %llu cases, but suite %s has %llu", gname,
                         (unsigned long long) g->cases, e->suite,
                         (unsigned long long) e->cases);
    return CLI_OK;
}

/* Checks that the results' inputs and block sizes are the suite's. */
static int
same_inputs(const smma_vec_header *h, const smma_vec_case *e, const smma_vec_case *g,
            const char *where)
{
    size_t fi, j;

    for (fi = 0; fi < h->nfields; fi++) {
        const smma_vec_field *f = &h->fields[fi];
        const smma_vec_block *eb = &e->blocks[fi], *gb = &g->blocks[fi];

        if (f->block && (eb->rows != gb->rows || eb->cols != gb->cols))
            return cli_error("%s: case %llu: block '%s' is %zu x %zu, the suite's %zu x %zu",
                             where, (unsigned long long) e->index, f->name, gb->rows,
                             gb->cols, eb->rows, eb->cols);
        if (f->out)
            continue;
        for (j = 0; j < (f->block ? eb->rows * eb->cols : f->count); j++) {
            uint64_t a = f->block ? eb->v[j] : e->scalars[f->offset + j];
            uint64_t b = f->block ? gb->v[j] : g->scalars[f->offset + j];

            if (a != b)
                return cli_error("%s: case %llu: input %s value %zu is 0x%llx, the suite's "
                                 "0x%llx (results of other inputs?)", where,
                                 (unsigned long long) e->index, f->name, j,
                                 (unsigned long long) b, (unsigned long long) a);
        }
    }
    return CLI_OK;
}

static bool
same_outputs(const smma_vec_header *h, const smma_vec_case *e, const smma_vec_case *g)
{
    size_t fi;

    for (fi = 0; fi < h->nfields; fi++) {
        const smma_vec_field *f = &h->fields[fi];

        if (!f->out)
            continue;
        if (f->block ? memcmp(e->blocks[fi].v, g->blocks[fi].v,
                              e->blocks[fi].rows * e->blocks[fi].cols * sizeof(uint64_t)) != 0
                     : memcmp(e->scalars + f->offset, g->scalars + f->offset,
                              f->count * sizeof(uint64_t)) != 0)
            return false;
    }
    return true;
}

/* Reads one case's outputs from raw results into g (a copy of e with the
 * outputs replaced).  Returns CLI_OK, or CLI_USAGE after a message. */
static int
read_raw_case(FILE *in, const char *name, const smma_vec_header *h, const smma_vec_case *e,
              smma_vec_case *g, uint64_t **bufs, size_t *caps, uint64_t *offset)
{
    size_t fi, j;

    memcpy(g->scalars, e->scalars, h->nscalars * sizeof(uint64_t));
    g->index = e->index;
    for (fi = 0; fi < h->nfields; fi++) {
        const smma_vec_field *f = &h->fields[fi];
        unsigned bytes = smma_vec_type_get(f->type)->bytes;
        size_t n = f->block ? e->blocks[fi].rows * e->blocks[fi].cols : f->count;
        uint64_t *dst;

        g->blocks[fi] = e->blocks[fi];
        if (!f->out)
            continue;
        if (f->block) {
            if (caps[fi] < n) {
                uint64_t *nb = realloc(bufs[fi], n * sizeof(uint64_t));

                if (nb == NULL)
                    return cli_error("out of memory");
                bufs[fi] = nb;
                caps[fi] = n;
            }
            g->blocks[fi].v = bufs[fi];
            dst = bufs[fi];
        } else {
            dst = g->scalars + f->offset;
        }
        for (j = 0; j < n; j++) {
            unsigned char b[8];
            unsigned k;

            if (fread(b, 1, bytes, in) != bytes)
                return cli_error("%s: %s at byte %llu, inside case %llu (%s; truncated?)", name,
                                 ferror(in) ? "read error" : "end of file",
                                 (unsigned long long) *offset, (unsigned long long) e->index,
                                 f->name);
            dst[j] = 0;
            for (k = 0; k < bytes; k++)
                dst[j] |= (uint64_t) b[k] << (8 * k);
            *offset += bytes;
        }
    }
    return CLI_OK;
}

/* The results of ver as .npy files in a directory, as softmma export --npy
 * writes a suite: DIR/FIELD.npy for each scalar output field, of shape
 * (cases,) or (cases, count), read once; DIR/FIELD.CASE.npy for each block
 * output field of each case, of the expected block's shape. */
struct npy_results {
    const char *dir;
    cli_npy cols[SMMA_VEC_MAX_FIELDS];
};

/* Reads and checks the scalar output columns. */
static int
npy_open(struct npy_results *n, const smma_vec_header *h)
{
    size_t fi;
    int rc = CLI_OK;

    for (fi = 0; rc == CLI_OK && fi < h->nfields; fi++) {
        const smma_vec_field *f = &h->fields[fi];
        char what[SMMA_VEC_NAME_MAX + 64], *path;

        if (!f->out || f->block)
            continue;
        path = join(n->dir, f->name, ".npy");
        if (path == NULL)
            return cli_error("out of memory");
        snprintf(what, sizeof(what), "output %s of %llu cases", f->name,
                 (unsigned long long) h->cases);
        rc = cli_npy_read(path, &n->cols[fi]);
        if (rc == CLI_OK)
            rc = cli_npy_expect(&n->cols[fi], path, smma_vec_type_get(f->type)->bytes,
                                smma_vec_type_format(f->type), (size_t) h->cases,
                                f->count == 1 ? 0 : f->count, what);
        free(path);
    }
    return rc;
}

static void
npy_close(struct npy_results *n)
{
    size_t fi;

    for (fi = 0; fi < SMMA_VEC_MAX_FIELDS; fi++)
        cli_npy_free(&n->cols[fi]);
}

/* Reads the outputs of case number pos (in file order) into g, a copy of e
 * with the outputs replaced. */
static int
read_npy_case(struct npy_results *n, const smma_vec_header *h, const smma_vec_case *e,
              uint64_t pos, smma_vec_case *g, uint64_t **bufs, size_t *caps)
{
    size_t fi, j;
    int rc = CLI_OK;

    memcpy(g->scalars, e->scalars, h->nscalars * sizeof(uint64_t));
    g->index = e->index;
    for (fi = 0; rc == CLI_OK && fi < h->nfields; fi++) {
        const smma_vec_field *f = &h->fields[fi];
        const smma_vec_block *eb = &e->blocks[fi];
        char name[SMMA_VEC_NAME_MAX + 24], what[SMMA_VEC_NAME_MAX + 64], *path;
        cli_npy x;

        g->blocks[fi] = *eb;
        if (!f->out)
            continue;
        if (!f->block) {
            for (j = 0; j < f->count; j++)
                g->scalars[f->offset + j] = n->cols[fi].v[pos * f->count + j];
            continue;
        }
        snprintf(name, sizeof(name), "%s.%llu", f->name, (unsigned long long) e->index);
        snprintf(what, sizeof(what), "block %s of case %llu, %zu x %zu", f->name,
                 (unsigned long long) e->index, eb->rows, eb->cols);
        if ((path = join(n->dir, name, ".npy")) == NULL)
            return cli_error("out of memory");
        rc = cli_npy_read(path, &x);
        if (rc == CLI_OK) {
            rc = cli_npy_expect(&x, path, smma_vec_type_get(f->type)->bytes,
                                smma_vec_type_format(f->type), eb->rows, eb->cols, what);
            if (rc == CLI_OK && caps[fi] < x.count) {
                uint64_t *nb = realloc(bufs[fi], x.count * sizeof(uint64_t));

                if (nb == NULL)
                    rc = cli_error("out of memory");
                else
                    bufs[fi] = nb, caps[fi] = x.count;
            }
            if (rc == CLI_OK) {
                memcpy(bufs[fi], x.v, x.count * sizeof(uint64_t));
                g->blocks[fi].v = bufs[fi];
            }
            cli_npy_free(&x);
        }
        free(path);
    }
    return rc;
}

/* Compares the cases of results rpath with ex's, printing the first max
 * differing ones; sets *ncases and *ndiffer.  CLI_OK, or CLI_USAGE after a
 * message when either file is bad (and then nothing else is printed). */
static int
ver_run(struct expected *ex, const char *rpath, bool raw, uint64_t max, uint64_t *ncases_out,
        uint64_t *differ_out)
{
    const smma_vec_header *h = smma_vec_header_of(ex->r);
    smma_vec_reader *rr = NULL;
    FILE *rf = NULL;
    smma_vec_case g;
    uint64_t *bufs[SMMA_VEC_MAX_FIELDS] = { NULL }, offset = 0, ncases = 0, differ = 0;
    size_t caps[SMMA_VEC_MAX_FIELDS] = { 0 }, fi;
    smma_error err;
    char where[256], *repbuf = NULL;
    size_t replen = 0;
    FILE *rep;
    struct stat st;
    struct npy_results npy;
    bool is_npy = !raw && strcmp(rpath, "-") != 0 && stat(rpath, &st) == 0 &&
                  S_ISDIR(st.st_mode);
    int rc = CLI_OK;

    /* The report is kept until the results are known to be whole: a bad
     * file gets its message and nothing else. */
    rep = open_memstream(&repbuf, &replen);
    if (rep == NULL)
        return cli_error("out of memory");
    memset(&g, 0, sizeof(g));
    memset(&npy, 0, sizeof(npy));
    npy.dir = rpath;
    if (raw) {
        rf = strcmp(rpath, "-") == 0 ? stdin : fopen(rpath, "rb");
        if (rf == NULL)
            return cli_error("%s: cannot open: %s", rpath, strerror(errno));
        g.scalars = calloc(h->nscalars ? h->nscalars : 1, sizeof(uint64_t));
        if (g.scalars == NULL)
            rc = cli_error("out of memory");
    } else if (is_npy) {
        g.scalars = calloc(h->nscalars ? h->nscalars : 1, sizeof(uint64_t));
        rc = g.scalars == NULL ? cli_error("out of memory") : npy_open(&npy, h);
    } else {
        rc = strcmp(rpath, "-") == 0 ? open_known("-", stdin, &rr)
                                     : open_known(rpath, NULL, &rr);
        if (rc == CLI_OK)
            rc = same_header(h, smma_vec_header_of(rr), rpath);
    }
    while (rc == CLI_OK) {
        const smma_vec_case *e, *gc;

        if (smma_vec_next(ex->r, &e, &err) != SMMA_OK) {
            rc = cli_error("%s", err.msg);
            break;
        }
        if (is_npy) {
            if (e == NULL)
                break;
            rc = read_npy_case(&npy, h, e, ncases, &g, bufs, caps);
            gc = &g;
            snprintf(where, sizeof(where), "suite line %zu", e->line);
        } else if (raw) {
            if (e == NULL) {
                if (fgetc(rf) != EOF)
                    rc = cli_error("%s: more bytes than the %llu cases of %s hold", rpath,
                                   (unsigned long long) ncases, h->suite);
                break;
            }
            rc = read_raw_case(rf, rpath, h, e, &g, bufs, caps, &offset);
            gc = &g;
            snprintf(where, sizeof(where), "suite line %zu", e->line);
        } else {
            if (smma_vec_next(rr, &gc, &err) != SMMA_OK) {
                rc = cli_error("%s", err.msg);
                break;
            }
            if (e == NULL || gc == NULL) {
                if (e != gc)
                    rc = cli_error("%s: the case counts differ", rpath);
                break;
            }
            snprintf(where, sizeof(where), "%.100s:%zu", rpath, gc->line);
            rc = same_inputs(h, e, gc, where);
            snprintf(where, sizeof(where), "suite line %zu, %.100s line %zu", e->line, rpath,
                     gc->line);
        }
        if (rc != CLI_OK)
            break;
        ncases++;
        if (!same_outputs(h, e, gc) && ++differ <= max) {
            if (differ == 1)
                fprintf(rep, "%s: differences (expected from %s):\n", h->suite,
                        ex->w != NULL ? "the generator" : "the suite file");
            report_case(rep, h, e, gc, where);
        }
    }
    if (rf != NULL && rf != stdin)
        fclose(rf);
    smma_vec_close(rr);
    npy_close(&npy);
    free(g.scalars);
    for (fi = 0; fi < SMMA_VEC_MAX_FIELDS; fi++)
        free(bufs[fi]);
    if (fclose(rep) != 0 && rc == CLI_OK)
        rc = cli_error("out of memory");
    if (rc == CLI_OK)
        fwrite(repbuf, 1, replen, stdout);
    free(repbuf);
    *ncases_out = ncases;
    *differ_out = differ;
    return rc;
}

static int
ver_compare(struct expected *ex, const char *rpath, bool raw, uint64_t max)
{
    const smma_vec_header *h = smma_vec_header_of(ex->r);
    uint64_t ncases, differ;
    int rc = ver_run(ex, rpath, raw, max, &ncases, &differ);

    if (rc != CLI_OK)
        return rc;
    if (differ == 0) {
        printf("%s: all %llu cases equal\n", h->suite, (unsigned long long) ncases);
        return CLI_OK;
    }
    printf("\n%s: %llu of %llu cases differ", h->suite, (unsigned long long) differ,
           (unsigned long long) ncases);
    if (differ > max)
        printf(" (the first %llu shown)", (unsigned long long) max);
    printf("\n");
    return CLI_MISMATCH;
}

int
cmd_ver(int argc, char **argv)
{
    const char *max_s = NULL, *level_s = NULL, *seed_s = NULL;
    bool raw = false;
    const struct opt_spec specs[] = {
        { "raw", false, NULL, &raw },      { "max", true, &max_s, NULL },
        { "level", true, &level_s, NULL }, { "seed", true, &seed_s, NULL },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    struct expected ex;
    uint64_t max = 20;
    int rc = opt_parse(argc, argv, specs, &r);

    memset(&ex, 0, sizeof(ex));
    if (rc != CLI_OK) {
    } else if (r.help) {
        fputs(ver_usage, stdout);
    } else if (r.npos != 2) {
        rc = cli_error("expected SUITE and RESULTS (softmma ver --help)");
    } else if (max_s != NULL && !cli_parse_uint(max_s, UINT64_MAX, &max)) {
        rc = cli_error("malformed --max '%s'", max_s);
    } else if ((rc = open_expected(r.pos[0], level_s, seed_s, &ex)) == CLI_OK) {
        rc = ver_compare(&ex, r.pos[1], raw, max);
    }
    expected_close(&ex);
    opt_free(&r);
    return rc;
}

/* ------------------------------------------------------------------ export */

static const char export_usage[] =
    "Usage: softmma export --npy SUITE DIR [--level 1|2] [--seed N]\n\n"
    "Writes the fields of SUITE (a vector file or a suite name) as NumPy .npy\n"
    "files (format 1.0, little-endian unsigned integers holding the bits) in\n"
    "DIR, which is created if needed: DIR/FIELD.npy of shape (cases,) or\n"
    "(cases, n) for each scalar field, and DIR/FIELD.CASE.npy of shape\n"
    "(rows, cols) for each block of each case.  Each file is written whole to\n"
    "a temporary file, then renamed; nothing is written when SUITE is bad.\n";

/* A growable byte buffer. */
struct bytes {
    unsigned char *p;
    size_t len, cap;
};

static bool
bytes_put(struct bytes *b, uint64_t v, unsigned n)
{
    unsigned k;

    if (b->cap - b->len < n) {
        size_t cap = b->cap ? 2 * b->cap : 4096;
        unsigned char *np = realloc(b->p, cap);

        if (np == NULL)
            return false;
        b->p = np;
        b->cap = cap;
    }
    for (k = 0; k < n; k++)
        b->p[b->len++] = (unsigned char) (v >> (8 * k));
    return true;
}

/* One block kept for writing: field, case, size and where its bytes are. */
struct kept {
    size_t field, rows, cols, at;
    uint64_t index;
};

static int
export_npy(struct expected *ex, const char *dir)
{
    const smma_vec_header *h = smma_vec_header_of(ex->r);
    struct bytes col[SMMA_VEC_MAX_FIELDS], blk;
    struct kept *kept = NULL;
    size_t nkept = 0, capkept = 0, fi, j;
    uint64_t ncases = 0;
    smma_error err;
    int rc = CLI_OK;

    memset(col, 0, sizeof(col));
    memset(&blk, 0, sizeof(blk));
    /* Everything is read and checked before anything is written. */
    for (;;) {
        const smma_vec_case *c;

        if (smma_vec_next(ex->r, &c, &err) != SMMA_OK) {
            rc = cli_error("%s", err.msg);
            break;
        }
        if (c == NULL)
            break;
        ncases++;
        for (fi = 0; rc == CLI_OK && fi < h->nfields; fi++) {
            const smma_vec_field *f = &h->fields[fi];
            unsigned bytes = smma_vec_type_get(f->type)->bytes;
            const smma_vec_block *b = &c->blocks[fi];

            if (!f->block) {
                for (j = 0; j < f->count; j++)
                    if (!bytes_put(&col[fi], c->scalars[f->offset + j], bytes))
                        rc = cli_error("out of memory");
                continue;
            }
            if (nkept == capkept) {
                struct kept *nk = realloc(kept, (capkept = capkept ? 2 * capkept : 64) *
                                                    sizeof(*nk));

                if (nk == NULL) {
                    rc = cli_error("out of memory");
                    break;
                }
                kept = nk;
            }
            kept[nkept].field = fi;
            kept[nkept].rows = b->rows;
            kept[nkept].cols = b->cols;
            kept[nkept].at = blk.len;
            kept[nkept].index = c->index;
            nkept++;
            for (j = 0; rc == CLI_OK && j < b->rows * b->cols; j++)
                if (!bytes_put(&blk, b->v[j], bytes))
                    rc = cli_error("out of memory");
        }
        if (rc != CLI_OK)
            break;
    }
    if (rc == CLI_OK)
        rc = make_dir(dir);
    for (fi = 0; rc == CLI_OK && fi < h->nfields; fi++) {
        const smma_vec_field *f = &h->fields[fi];
        char *path;

        if (f->block)
            continue;
        path = join(dir, f->name, ".npy");
        if (path == NULL)
            rc = cli_error("out of memory");
        else
            rc = cli_npy_write(path, smma_vec_type_get(f->type)->bytes, (size_t) ncases,
                           f->count == 1 ? 0 : f->count, col[fi].p, col[fi].len);
        free(path);
    }
    for (j = 0; rc == CLI_OK && j < nkept; j++) {
        const smma_vec_field *f = &h->fields[kept[j].field];
        unsigned bytes = smma_vec_type_get(f->type)->bytes;
        char name[SMMA_VEC_NAME_MAX + 24], *path;

        snprintf(name, sizeof(name), "%s.%llu", f->name, (unsigned long long) kept[j].index);
        path = join(dir, name, ".npy");
        if (path == NULL)
            rc = cli_error("out of memory");
        else
            rc = cli_npy_write(path, bytes, kept[j].rows, kept[j].cols, blk.p + kept[j].at,
                           kept[j].rows * kept[j].cols * bytes);
        free(path);
    }
    for (fi = 0; fi < SMMA_VEC_MAX_FIELDS; fi++)
        free(col[fi].p);
    free(blk.p);
    free(kept);
    if (rc == CLI_OK)
        printf("%s: %llu cases, %zu fields written to %s\n", h->suite,
               (unsigned long long) ncases, h->nfields, dir);
    return rc;
}

int
cmd_export(int argc, char **argv)
{
    const char *level_s = NULL, *seed_s = NULL;
    bool npy = false;
    const struct opt_spec specs[] = {
        { "npy", false, NULL, &npy },
        { "level", true, &level_s, NULL },
        { "seed", true, &seed_s, NULL },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    struct expected ex;
    int rc = opt_parse(argc, argv, specs, &r);

    memset(&ex, 0, sizeof(ex));
    if (rc != CLI_OK) {
    } else if (r.help) {
        fputs(export_usage, stdout);
    } else if (!npy) {
        rc = cli_error("say which format: --npy (the only one today)");
    } else if (r.npos != 2) {
        rc = cli_error("expected SUITE and DIR (softmma export --help)");
    } else if ((rc = open_expected(r.pos[0], level_s, seed_s, &ex)) == CLI_OK) {
        rc = export_npy(&ex, r.pos[1]);
    }
    expected_close(&ex);
    opt_free(&r);
    return rc;
}

/* ------------------------------------------------------------------ tour */

/* The family of a suite: its name up to the first '.'. */
static size_t
family_len(const char *name)
{
    return strcspn(name, ".");
}

/* One line per family: suites, cases, and whether all are equal. */
static void
tour_family(const char *name, size_t len, size_t nsuites, uint64_t ncases, size_t bad)
{
    char family[SMMA_VEC_TEXT_MAX];

    if (nsuites == 0)
        return;
    snprintf(family, sizeof(family), "%.*s", (int) len, name);
    if (bad == 0)
        printf("   %-13s %4zu suites %8llu cases  all equal\n", family, nsuites,
               (unsigned long long) ncases);
    else
        printf("   %-13s %4zu suites %8llu cases  %zu DIFFER\n", family, nsuites,
               (unsigned long long) ncases, bad);
}

int
cli_vectors_tour(const char *dir, bool per_suite)
{
    const char *tmpdir = getenv("TMPDIR");
    char tmp[512], family[SMMA_VEC_TEXT_MAX] = "";
    smma_suite s;
    size_t i, nsuites = 0, bad = 0, fsuites = 0, fbad = 0, total = 0;
    uint64_t fcases = 0;
    cli_progress pr;
    int rc = CLI_OK;

    for (i = 0; smma_suite_at(i, &s); i++)
        total += smma_suite_committed(&s);
    snprintf(tmp, sizeof(tmp), "%s/softmma-tour.XXXXXX",
             tmpdir != NULL && *tmpdir != '\0' ? tmpdir : "/tmp");
    if (mkdtemp(tmp) == NULL)
        return cli_error("%s: cannot create a temporary directory: %s", tmp, strerror(errno));
    if (per_suite)
        printf("   generated into %s, verified against %s:\n", tmp, dir);
    else
        printf("   verified against %s:\n", dir);
    cli_progress_start(&pr);
    for (i = 0; rc == CLI_OK && smma_suite_at(i, &s); i++) {
        smma_vec_writer *w;
        struct expected ex;
        const char *text;
        char *gpath, *cpath;
        uint64_t ncases = 0, differ = 0;
        size_t len;
        smma_error err;

        if (!smma_suite_committed(&s))
            continue;
        /* The line goes before anything this suite prints on stdout. */
        cli_progress_show(&pr, "checking suites %zu/%zu", nsuites, total);
        nsuites++;
        if (!per_suite && (family_len(s.name) != strlen(family) ||
                           strncmp(s.name, family, strlen(family)) != 0)) {
            cli_progress_end(&pr);
            tour_family(family, strlen(family), fsuites, fcases, fbad);
            snprintf(family, sizeof(family), "%.*s", (int) family_len(s.name), s.name);
            fsuites = fbad = 0;
            fcases = 0;
        }
        fsuites++;
        if ((rc = generate(&s, SMMA_SUITE_LEVEL, SMMA_SUITE_SEED, &w, &text, &len)) != CLI_OK)
            break;
        gpath = join(tmp, s.name, ".vec");
        cpath = join(dir, s.name, ".vec");
        memset(&ex, 0, sizeof(ex));
        if (gpath == NULL || cpath == NULL) {
            rc = cli_error("out of memory");
        } else if (smma_vec_save_bytes(text, len, gpath, &err) != SMMA_OK) {
            rc = cli_error("%s", err.msg);
        } else if (open_known(cpath, NULL, &ex.r) != CLI_OK ||
                   ver_run(&ex, gpath, false, 0, &ncases, &differ) != CLI_OK) {
            cli_progress_end(&pr);
            printf("   %-36s cannot be compared (above)\n", s.name);
            bad++;
            fbad++;
        } else {
            /* Without per_suite only a differing suite gets a line. */
            if (per_suite || differ != 0) {
                cli_progress_end(&pr);
                printf("   %-36s %7llu cases  %s\n", s.name, (unsigned long long) ncases,
                       differ == 0 ? "equal" : "DIFFER");
            }
            bad += differ != 0;
            fbad += differ != 0;
            fcases += ncases;
        }
        expected_close(&ex);
        if (gpath != NULL)
            remove(gpath);
        free(gpath);
        free(cpath);
        smma_vec_writer_free(w);
    }
    cli_progress_end(&pr);
    rmdir(tmp);
    if (rc != CLI_OK)
        return rc;
    if (!per_suite)
        tour_family(family, strlen(family), fsuites, fcases, fbad);
    printf("   %zu suites: %s\n", nsuites,
           bad == 0 ? "the reference reproduces every committed vector file"
                    : "SOME DIFFER from the committed files");
    return bad == 0 ? CLI_OK : CLI_MISMATCH;
}
