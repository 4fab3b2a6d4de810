/*
 * tools/cmd_layout.c - softmma layout KIND ...: draws layouts as text.
 *
 * Each kind of layout is one branch with its own options; today there is
 * one, "scale" (the scale-factor layouts of softmma/scale_layout.h).
 * Fragment layouts ("softmma layout INSTRUCTION OPERAND ...") join the
 * kinds table below.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/scale_layout.h>

#include "cli.h"
#include "options.h"

static const char scale_usage[] =
    "Usage: softmma layout scale --layout NAME --rows R --k K --vec V\n"
    "           [--at ROW,COL | --offset OFF]\n\n"
    "Draws where the block scale factors of one operand lie in memory.  The\n"
    "operand has R rows of K elements and one scale per V (16 or 32) elements,\n"
    "so the scale matrix is R x Kb with Kb = ceil(K / V) scale columns.\n"
    "NAME is one of linear, 128x4, triton5d, cdna4-16, cdna4-32 (see\n"
    "doc/scale-layouts.md; the CDNA4 layouts need V 32).\n\n"
    "Prints a header line with the padded size, then one line per row:\n"
    "  row M: OFF(M,0) OFF(M,1) ... OFF(M,Kb-1)\n"
    "the byte offset of each scale in the stored array.  With --at ROW,COL it\n"
    "prints only the offset of that scale; with --offset OFF it prints which\n"
    "scale lies at byte OFF: 'row M col C', or 'padding row M col C' for a\n"
    "byte of the padded tile that holds no scale.\n";

static bool
parse_size(const char *s, size_t *out)
{
    uint64_t v;

    if (!cli_parse_uint(s, (uint64_t) SIZE_MAX, &v))
        return false;
    *out = (size_t) v;
    return true;
}

/* Parses "ROW,COL". */
static bool
parse_pair(const char *s, size_t *a, size_t *b)
{
    const char *comma = strchr(s, ',');
    char *first;
    bool good;

    if (comma == NULL)
        return false;
    first = malloc((size_t) (comma - s) + 1);
    if (first == NULL)
        return false;
    memcpy(first, s, (size_t) (comma - s));
    first[comma - s] = '\0';
    good = parse_size(first, a) && parse_size(comma + 1, b);
    free(first);
    return good;
}

static int
layout_scale(int argc, char **argv)
{
    const char *layout_s = NULL, *rows_s = NULL, *k_s = NULL, *vec_s = NULL, *at_s = NULL,
               *offset_s = NULL;
    const struct opt_spec specs[] = {
        { "layout", true, &layout_s, NULL },
        { "rows", true, &rows_s, NULL },
        { "k", true, &k_s, NULL },
        { "vec", true, &vec_s, NULL },
        { "at", true, &at_s, NULL },
        { "offset", true, &offset_s, NULL },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    smma_scale_layout l;
    smma_scale_shape s;
    smma_error err;
    size_t rows, k, at_m = 0, at_kb = 0, off = 0, m, kb;
    uint64_t vec;
    int rc = opt_parse(argc, argv, specs, &r);

    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        fputs(scale_usage, stdout);
        goto done;
    }
    if (r.npos > 0) {
        rc = cli_error("unexpected argument '%s'", r.pos[0]);
        goto done;
    }
    if (layout_s == NULL) {
        rc = cli_error("missing --layout (linear, 128x4, triton5d, cdna4-16, "
                       "cdna4-32)");
        goto done;
    }
    if (rows_s == NULL || k_s == NULL || vec_s == NULL) {
        rc = cli_error("missing --%s",
                       rows_s == NULL ? "rows" : k_s == NULL ? "k" : "vec");
        goto done;
    }
    if (smma_scale_layout_from_name(layout_s, &l, &err) != SMMA_OK) {
        rc = cli_error("--layout: %s", err.msg);
        goto done;
    }
    if (!parse_size(rows_s, &rows)) {
        rc = cli_error("malformed --rows '%s' (a positive integer)", rows_s);
        goto done;
    }
    if (!parse_size(k_s, &k)) {
        rc = cli_error("malformed --k '%s' (a positive integer)", k_s);
        goto done;
    }
    if (!cli_parse_uint(vec_s, 0xffffffffu, &vec)) {
        rc = cli_error("malformed --vec '%s' (16 or 32)", vec_s);
        goto done;
    }
    if (at_s != NULL && offset_s != NULL) {
        rc = cli_error("--at and --offset exclude each other");
        goto done;
    }
    if (at_s != NULL && !parse_pair(at_s, &at_m, &at_kb)) {
        rc = cli_error("malformed --at '%s' (ROW,COL: two integers)", at_s);
        goto done;
    }
    if (offset_s != NULL && !parse_size(offset_s, &off)) {
        rc = cli_error("malformed --offset '%s' (an integer)", offset_s);
        goto done;
    }
    if (smma_scale_layout_shape(l, rows, k, (unsigned) vec, &s, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (at_s != NULL) {
        if (smma_scale_offset(l, rows, k, s.vec, at_m, at_kb, &off, &err) != SMMA_OK) {
            rc = cli_error("--at %s: %s", at_s, err.msg);
            goto done;
        }
        printf("%zu\n", off);
        goto done;
    }
    if (offset_s != NULL) {
        bool pad;

        if (smma_scale_coord(l, rows, k, s.vec, off, &m, &kb, &pad, &err) != SMMA_OK) {
            rc = cli_error("--offset %s: %s", offset_s, err.msg);
            goto done;
        }
        printf("%srow %zu col %zu\n", pad ? "padding " : "", m, kb);
        goto done;
    }
    printf("scale layout %s: rows %zu, k %zu, vec %u -> %zu x %zu scales; "
           "padded %zu x %zu = %zu bytes\n",
           smma_scale_layout_name(l), s.rows, s.k, s.vec, s.rows, s.kb, s.rows_pad, s.kb_pad,
           s.bytes);
    for (m = 0; m < s.rows; m++) {
        printf("row %zu:", m);
        for (kb = 0; kb < s.kb; kb++) {
            /* Cannot fail: (m, kb) is in range and the shape was checked. */
            smma_scale_offset(l, rows, k, s.vec, m, kb, &off, &err);
            printf(" %zu", off);
        }
        putchar('\n');
    }
done:
    opt_free(&r);
    return rc;
}

struct layout_kind {
    const char *name;
    int (*run)(int, char **);
};

static const struct layout_kind kinds[] = {
    { "scale", layout_scale },
};

int
cmd_layout(int argc, char **argv)
{
    size_t i;

    if (argc < 2) {
        cli_error("usage: softmma layout KIND ... (known kinds: scale; "
                  "try 'softmma layout scale --help')");
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("Usage: softmma layout KIND [OPTIONS...]\n\n"
               "Draws layouts as text.  Kinds:\n"
               "  scale   scale-factor layouts (softmma layout scale --help)\n");
        return CLI_OK;
    }
    for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strcmp(argv[1], kinds[i].name) == 0)
            return kinds[i].run(argc - 1, argv + 1);
    return cli_error("unknown layout kind '%s' (known: scale)", argv[1]);
}
