/*
 * tools/cmd_match.c - softmma match: which numerics models reproduce a
 * subject's D bit for bit.
 *
 * The inputs are those of softmma gemm --check (the same options: --inputs
 * FILE, or --a, --b, --m, --n, --k and the rest generated from --seed), D a
 * text or .npy file (cli_gemm_read_d).  Every model that takes the problem
 * computes D in full (or on --samples sampled entries); those that
 * reproduce every entry checked are printed first, then the nearest others
 * with their first differing entry, expected and got in hex.
 *
 * Exit status: 0 when at least one model reproduces D, 1 when none does,
 * 2 on bad input.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/gemm.h>

#include "cli.h"
#include "options.h"

/* One model's answer. */
struct answer {
    const smma_model *model;
    size_t checked, bad, order;
    smma_mismatch first;
};

/* Whether model takes the problem: smma_model_check accepts its shape and
 * formats (a model refuses the inputs it does not define). */
static bool
model_takes(const smma_model *model, const smma_gemm_shape *s)
{
    smma_error err;

    return smma_model_check(model, s, &err) == SMMA_OK;
}

/* Ascending mismatches, ties in table order. */
static int
by_mismatches(const void *pa, const void *pb)
{
    const struct answer *a = pa, *b = pb;

    if (a->bad != b->bad)
        return a->bad < b->bad ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* The aliases of model, ", "-separated, in buf ("" when none). */
static void
aliases_of(const smma_model *model, char *buf, size_t n)
{
    size_t i, len = 0;

    buf[0] = '\0';
    for (i = 0; i < smma_model_alias_count(); i++) {
        const smma_model_alias *al = smma_model_alias_at(i);

        if (strcmp(al->model, model->name) == 0 && len < n)
            len += (size_t) snprintf(buf + len, n - len, "%s%s", len ? ", " : "", al->name);
    }
}

static void
print_answer(const struct answer *a, const smma_gemm_shape *s)
{
    char al[256];
    int w = cli_code_digits(s->d_fmt);

    aliases_of(a->model, al, sizeof(al));
    if (a->bad == 0) {
        printf("match    %-22s %zu of %zu entries equal%s%s%s\n", a->model->name, a->checked,
               a->checked, al[0] ? " (also named " : "", al, al[0] ? ")" : "");
        return;
    }
    printf("differs  %-22s %zu of %zu entries differ; first D[%zu][%zu]: want 0x%0*x got "
           "0x%0*x\n", a->model->name, a->bad, a->checked, a->first.i, a->first.j, w,
           (unsigned) a->first.want, w, (unsigned) a->first.got);
}

static const char match_usage[] =
    "Usage: softmma match DFILE --inputs FILE [--d FMT] [--alpha X] [OPTIONS]\n"
    "       softmma match DFILE --a FMT --b FMT --m M --n N --k K [--scale ...]\n"
    "           [--vec 16|32] [--c FMT] [--d FMT] [--seed S] [--class C] [--alpha X]\n"
    "           [OPTIONS]\n\n"
    "Which numerics models (softmma models) reproduce a subject's D bit for bit.\n"
    "The inputs are those softmma gemm --check takes: an inputs file, or the\n"
    "options that generate them from a seed.  DFILE holds the subject's D, m x n\n"
    "codes of --d (default fp32): a text file of m lines of n hex codes, or an\n"
    ".npy file of shape (m, n), uint32 (fp32) or uint16 (bf16, fp16) codes, or\n"
    "float32 / float16 for fp32 / fp16 D.  Every model that takes the problem\n"
    "computes D; the ones that reproduce every entry checked are printed first\n"
    "(match), then the others, nearest first, with the number of differing\n"
    "entries and the first one, expected and got in hex (differs).\n\n"
    "Options:\n"
    "  --models A,B,...  only these models (names or aliases; default every one)\n"
    "  --samples S       check S sampled entries per model (default: all m*n)\n"
    "  --show N          print at most N models that differ (default 5)\n\n"
    "Exit status: 0 at least one model reproduces D, 1 none does, 2 bad input.\n";

/* Adds the models of the --models list (or every model) to out. */
static int
pick_models(const char *list, const smma_model **out, size_t *n)
{
    char *copy, *tok, *save = NULL;
    size_t i;

    *n = 0;
    if (list == NULL) {
        for (i = 0; i < smma_model_count(); i++)
            out[(*n)++] = smma_model_at(i);
        return CLI_OK;
    }
    copy = strdup(list);
    if (copy == NULL)
        return cli_error("out of memory");
    for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        const smma_model *m;

        if (cli_model_from_name("--models", tok, &m) != CLI_OK) {
            free(copy);
            return CLI_USAGE;
        }
        for (i = 0; i < *n && out[i] != m; i++)
            ;
        if (i == *n && *n < smma_model_count())
            out[(*n)++] = m;
    }
    free(copy);
    if (*n == 0)
        return cli_error("--models: an empty list");
    return CLI_OK;
}

/* Checks D under each model that takes the problem; prints the answers.
 * CLI_OK when one matches, CLI_MISMATCH when none does. */
static int
match_models(const smma_model **models, size_t nmodels, const smma_gemm_shape *s,
             const smma_gemm_operands *op, const uint32_t *d, size_t samples, uint64_t seed,
             uint64_t show)
{
    struct answer *ans = calloc(nmodels ? nmodels : 1, sizeof(*ans));
    size_t i, n = 0, matched = 0, shown = 0;
    smma_error err;

    if (ans == NULL)
        return cli_error("out of memory");
    for (i = 0; i < nmodels; i++) {
        struct answer *a = &ans[n];

        if (!model_takes(models[i], s))
            continue;
        a->model = models[i];
        a->order = i;
        if (smma_gemm_verify(models[i], s, op, d, samples, seed, &a->checked, &a->bad,
                             &a->first, 1, &err) != SMMA_OK) {
            free(ans);
            return cli_error("%s: %s", models[i]->name, err.msg);
        }
        matched += a->bad == 0;
        n++;
    }
    qsort(ans, n, sizeof(*ans), by_mismatches);
    for (i = 0; i < n; i++) {
        if (ans[i].bad != 0 && shown++ >= show)
            continue;
        print_answer(&ans[i], s);
    }
    if (shown > show)
        printf("... and %zu more models that differ\n", (size_t) (shown - show));
    printf("%zu of %zu models that take the problem reproduce D (%zu models do not take "
           "it)\n", matched, n, nmodels - n);
    free(ans);
    return matched ? CLI_OK : CLI_MISMATCH;
}

int
cmd_match(int argc, char **argv)
{
    const char *models_s = NULL, *samples_s = NULL, *show_s = NULL;
    cli_gemm_args ga = { NULL };
    struct opt_spec specs[20] = {
        { "models", true, &models_s, NULL }, { "samples", true, &samples_s, NULL },
        { "show", true, &show_s, NULL },
    };
    size_t nspecs = 3, nmodels = 0;
    struct opt_result r;
    smma_gemm_shape s;
    smma_gemm_data g;
    smma_gemm_operands op;
    const smma_model **models = NULL;
    uint32_t *d = NULL;
    uint64_t seed, samples = 0, show = 5;
    int rc;

    memset(&g, 0, sizeof(g));
    cli_gemm_arg_specs(&ga, specs, &nspecs);
    specs[nspecs].name = NULL;
    rc = opt_parse(argc, argv, specs, &r);
    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        fputs(match_usage, stdout);
        goto done;
    }
    if (r.npos != 1) {
        rc = cli_error("expected one DFILE, the subject's D (softmma match --help)");
        goto done;
    }
    if (samples_s != NULL && (!cli_parse_uint(samples_s, UINT64_MAX, &samples) || !samples)) {
        rc = cli_error("--samples: malformed count '%s'", samples_s);
        goto done;
    }
    if (show_s != NULL && !cli_parse_uint(show_s, UINT64_MAX, &show)) {
        rc = cli_error("--show: malformed count '%s'", show_s);
        goto done;
    }
    models = malloc(smma_model_count() * sizeof(*models));
    if (models == NULL) {
        rc = cli_error("out of memory");
        goto done;
    }
    if ((rc = pick_models(models_s, models, &nmodels)) != CLI_OK ||
        (rc = cli_gemm_problem(&ga, false, &s, &g, &seed)) != CLI_OK)
        goto done;
    d = malloc(s.m * s.n * sizeof(*d));
    if (d == NULL) {
        rc = cli_error("out of memory for D (%zux%zu)", s.m, s.n);
        goto done;
    }
    if ((rc = cli_gemm_read_d(r.pos[0], &s, d)) != CLI_OK)
        goto done;
    op = smma_gemm_data_operands(&s, &g);
    rc = match_models(models, nmodels, &s, &op, d,
                      samples == 0 || samples > SIZE_MAX ? SIZE_MAX : (size_t) samples,
                      seed ^ 0x5a5a5a5aull, show);
done:
    free(d);
    free(models);
    smma_gemm_data_free(&g);
    opt_free(&r);
    return rc;
}
