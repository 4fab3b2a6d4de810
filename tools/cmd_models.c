/*
 * tools/cmd_models.c - softmma models: the table of numerics models, their
 * parameters, the inputs each takes (smma_model_takes) and their status,
 * then the aliases; with --inputs only the models that take those inputs.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/gemm.h>

#include "cli.h"
#include "options.h"

static const char models_usage[] =
    "Usage: softmma models [--inputs FMT[,FMT] [--scale FMT|none] [--d FMT]]\n\n"
    "Lists the numerics models with their parameters, the inputs each takes and\n"
    "their status, then the aliases (names for a model that computes the same).\n\n"
    "  --inputs A[,B]  only the models that take A x B elements (B = A when not\n"
    "                  given), with some scale format and some D unless these say:\n"
    "  --scale FMT     with scales of FMT (e8m0, ue4m3), or none\n"
    "  --d FMT         with a D of FMT (fp32, bf16, fp16)\n"
    "A model refuses inputs it does not take (softmma gemm --model, softmma.gemm).\n";

/* The filter of --inputs: the formats, SMMA_FORMAT_COUNT + 1 for "any". */
#define ANY_FMT (SMMA_FORMAT_COUNT + 1)

struct filter {
    bool on;
    smma_format a, b;
    unsigned scale, d;      /* a format, SMMA_NONE (scale) or ANY_FMT */
};

/* Parses a format name of option opt into *out. */
static int
parse_fmt(const char *opt, const char *name, smma_format *out)
{
    smma_error err;

    if (smma_format_from_name(name, out, &err) != SMMA_OK)
        return cli_error("%s: %s", opt, err.msg);
    return CLI_OK;
}

static int
parse_filter(const char *in_s, const char *scale_s, const char *d_s, struct filter *f)
{
    char buf[64];
    char *comma;
    smma_format x;
    int rc;

    f->on = in_s != NULL;
    f->scale = f->d = ANY_FMT;
    if (!f->on)
        return scale_s != NULL || d_s != NULL
                   ? cli_error("--scale and --d narrow --inputs; give --inputs too")
                   : CLI_OK;
    if (strlen(in_s) >= sizeof(buf))
        return cli_error("--inputs: '%s' is too long (FMT or FMT,FMT)", in_s);
    strcpy(buf, in_s);
    comma = strchr(buf, ',');
    if (comma != NULL)
        *comma++ = '\0';
    if ((rc = parse_fmt("--inputs", buf, &f->a)) != CLI_OK)
        return rc;
    f->b = f->a;
    if (comma != NULL && (rc = parse_fmt("--inputs", comma, &f->b)) != CLI_OK)
        return rc;
    if (scale_s != NULL && strcmp(scale_s, "none") == 0)
        f->scale = SMMA_NONE;
    else if (scale_s != NULL) {
        if ((rc = parse_fmt("--scale", scale_s, &x)) != CLI_OK)
            return rc;
        f->scale = x;
    }
    if (d_s != NULL) {
        if ((rc = parse_fmt("--d", d_s, &x)) != CLI_OK)
            return rc;
        f->d = x;
    }
    return CLI_OK;
}

/* The shape of the filter with scale format sc and D format d. */
static smma_gemm_shape
filter_shape(const struct filter *f, unsigned sc, unsigned d)
{
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = f->a;
    s.b_fmt = f->b;
    s.scale_fmt = (smma_format) sc;
    s.vec = 32;
    s.c_fmt = SMMA_NONE;
    s.d_fmt = (smma_format) d;
    s.m = s.n = s.k = 1;
    return s;
}

/* Checks that the filter's formats can play their roles (the first scale
 * and D format it allows). */
static int
filter_check(const struct filter *f)
{
    smma_gemm_shape s = filter_shape(f, f->scale == ANY_FMT ? SMMA_NONE : f->scale,
                                     f->d == ANY_FMT ? SMMA_FP32 : f->d);
    smma_error err;

    if (f->on && smma_gemm_shape_check(&s, &err) != SMMA_OK)
        return cli_error("--inputs: %s", err.msg);
    return CLI_OK;
}

/* True where model m takes the filter's inputs with some scale format and
 * some D format it allows. */
static bool
filter_takes(const struct filter *f, const smma_model *m)
{
    static const unsigned scales[] = { SMMA_NONE, SMMA_E8M0, SMMA_UE4M3 };
    static const unsigned ds[] = { SMMA_FP32, SMMA_BF16, SMMA_FP16 };
    size_t i, j;

    if (!f->on)
        return true;
    for (i = 0; i < sizeof(scales) / sizeof(scales[0]); i++)
        for (j = 0; j < sizeof(ds) / sizeof(ds[0]); j++) {
            smma_gemm_shape s = filter_shape(f, scales[i], ds[j]);

            if ((f->scale == ANY_FMT || f->scale == scales[i]) &&
                (f->d == ANY_FMT || f->d == ds[j]) && smma_model_takes(m, &s, NULL) == SMMA_OK)
                return true;
        }
    return false;
}

/* One model's entry: its name and summary, its parameters, its inputs and
 * its status. */
static void
print_model(const smma_model *m)
{
    char inputs[256];

    printf("%-20s %s\n", m->name, m->summary);
    switch (m->kind) {
    case SMMA_MODEL_EXACT:
        printf("%-20s kind exact; final rounding %s\n", "", smma_round_name(m->round));
        break;
    case SMMA_MODEL_FMA_SEQ:
        printf("%-20s kind fp32-fma-seq; every fma rounds to nearest\n", "");
        break;
    case SMMA_MODEL_BLOCK_FMA:
        if (m->neab == SMMA_NEAB_EXACT)
            printf("%-20s kind block-fma; fma %u, exact alignment, floor %d, final %s\n",
                   "", m->fma, m->floor, smma_round_name(m->round));
        else
            printf("%-20s kind block-fma; fma %u, neab %d, floor %d, normalize %s, "
                   "final %s%s\n", "", m->fma, m->neab, m->floor,
                   m->normalize ? "yes" : "no", smma_round_name(m->round),
                   m->upcast_bf16 ? ", operands rounded to bf16 first" : "");
        break;
    case SMMA_MODEL_PROMOTE:
        printf("%-20s kind promotion; every %u k through %s, then %s\n", "",
               m->promote, m->inner,
               m->unscaled ? "an fp32 addition to nearest" : "fp32 fma");
        break;
    }
    smma_model_inputs(m, inputs, sizeof(inputs));
    printf("%-20s inputs: %s; status: %s\n", "", inputs, m->status);
}

int
cmd_models(int argc, char **argv)
{
    const char *in_s = NULL, *scale_s = NULL, *d_s = NULL;
    const struct opt_spec specs[] = {
        { "inputs", true, &in_s, NULL }, { "scale", true, &scale_s, NULL },
        { "d", true, &d_s, NULL }, { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    struct filter f;
    const smma_model *m;
    size_t i, shown = 0;
    int rc = opt_parse(argc, argv, specs, &r);

    if (rc != CLI_OK)
        return rc;
    if (r.help) {
        fputs(models_usage, stdout);
        goto done;
    }
    if (r.npos > 0) {
        rc = cli_error("models takes no argument, not '%s' (see softmma models --help)",
                       r.pos[0]);
        goto done;
    }
    if ((rc = parse_filter(in_s, scale_s, d_s, &f)) != CLI_OK ||
        (rc = filter_check(&f)) != CLI_OK)
        goto done;
    for (i = 0; i < smma_model_count(); i++)
        if (filter_takes(&f, smma_model_at(i))) {
            print_model(smma_model_at(i));
            shown++;
        }
    for (i = 0; i < smma_model_alias_count(); i++) {
        const smma_model_alias *al = smma_model_alias_at(i);

        if (smma_model_from_name(al->model, &m, NULL) != SMMA_OK || !filter_takes(&f, m))
            continue;
        printf("%-20s %s\n", al->name, al->summary);
        printf("%-20s alias of %s; status: %s\n", "", al->model, al->status);
    }
    if (shown == 0)
        rc = cli_error("no model takes %s", in_s);
done:
    opt_free(&r);
    return rc;
}
