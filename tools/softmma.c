/*
 * tools/softmma.c - the softmma program: dispatch to subcommands, and the
 * helpers they share (cli.h).
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

const char *cli_command = NULL;

/* True while a progress line is on the terminal (cli_progress_show). */
static bool progress_shown = false;

int
cli_error(const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    if (progress_shown) /* the message starts a line of its own */
        fputs("\r\033[K", stderr);
    progress_shown = false;
    fprintf(stderr, "softmma: ");
    if (cli_command != NULL)
        fprintf(stderr, "%s: ", cli_command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_USAGE;
}

bool
cli_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v;
    int base = 10;

    if (s == NULL || !isdigit((unsigned char) s[0]))
        return false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!isxdigit((unsigned char) s[0]))
            return false;
    }
    errno = 0;
    v = strtoull(s, &end, base);
    if (errno != 0 || *end != '\0' || end == s || v > max)
        return false;
    *out = (uint64_t) v;
    return true;
}

bool
cli_parse_double(const char *s, double *out)
{
    char *end;
    double v;

    if (s == NULL || *s == '\0' || *s == ' ')
        return false;
    /* strtod accepts "nan(chars)" and "infinity": allow only the plain words. */
    if (strchr(s, '(') != NULL)
        return false;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0')
        return false;
    /* ERANGE on overflow gives +-HUGE_VAL (inf), on underflow a correctly
     * rounded tiny value; both are the nearest double, so keep them. */
    *out = v;
    return true;
}

void
cli_format_value(double v, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "%s", signbit(v) ? "-nan" : "nan");
    else if (isinf(v))
        snprintf(buf, n, "%s", v < 0 ? "-inf" : "inf");
    else
        snprintf(buf, n, "%.17g", v);
}

void
cli_format_hex(double v, char *buf, size_t n)
{
    if (isnan(v) || isinf(v))
        cli_format_value(v, buf, n);
    else
        snprintf(buf, n, "%a", v);
}

int
cli_code_digits(smma_format f)
{
    const smma_format_desc *d = smma_format_info(f);

    return d == NULL ? 2 : (int) ((d->storage_bits + 3) / 4 < 2 ? 2 : (d->storage_bits + 3) / 4);
}

int
cli_model_from_name(const char *opt, const char *name, const smma_model **out)
{
    smma_error err;
    char *names;
    size_t len;
    int rc;

    if (smma_model_from_name(name, out, &err) == SMMA_OK)
        return CLI_OK;
    len = smma_model_names(NULL, 0) + 1;
    if (name == NULL || (names = malloc(len)) == NULL)
        return cli_error("%s: %s", opt, err.msg);
    smma_model_names(names, len);
    rc = cli_error("%s: unknown model '%s' (known: %s)", opt, name, names);
    free(names);
    return rc;
}

/* Seconds on a monotonic clock. */
static double
now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

void
cli_progress_start(cli_progress *p)
{
    const char *env = getenv("SOFTMMA_PROGRESS");

    p->forced = env != NULL && strcmp(env, "1") == 0;
    p->on = p->forced || ((env == NULL || strcmp(env, "0") != 0) && isatty(STDERR_FILENO));
    p->start = p->last = now_s();
    p->shown = false;
}

void
cli_progress_show(cli_progress *p, const char *fmt, ...)
{
    va_list ap;
    double t;

    if (!p->on)
        return;
    /* After the first second, at most ten lines a second (forced: all). */
    t = p->forced ? 0 : now_s();
    if (!p->forced && (t - p->start < 1.0 || (p->shown && t - p->last < 0.1)))
        return;
    p->last = t;
    p->shown = true;
    fputc('\r', stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\033[K", stderr); /* erase the rest of the line */
    fflush(stderr);
    progress_shown = true;
}

void
cli_progress_end(cli_progress *p)
{
    if (p->shown && progress_shown)
        fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = progress_shown = false;
}

struct command {
    const char *name;
    int (*run)(int, char **);
    const char *summary;
};

static const struct command commands[] = {
    { "formats", cmd_formats, "table of every format: bits, bias, ranges, specials" },
    { "decode", cmd_decode, "decode codes of a format to exact values" },
    { "encode", cmd_encode, "encode values in a format (rounding, saturation, profile)" },
    { "profiles", cmd_profiles, "list the semantic profiles and their choices" },
    { "quant", cmd_quant, "block-quantize fp32 values (MX, NVFP4) under a profile" },
    { "dequant", cmd_dequant, "turn quant's output back into exact values" },
    { "diff", cmd_diff, "find the smallest blocks on which two profiles differ" },
    { "gemm", cmd_gemm, "block-scaled GEMM under a model or on the GPU; sampled checks" },
    { "models", cmd_models, "list the numerics models, their parameters and status" },
    { "match", cmd_match, "which models reproduce a subject's D bit for bit" },
    { "gpu", cmd_gpu, "the GPU: device, compute capability, kernels and their models" },
    { "tour", cmd_tour, "a short guided printout of the formats and their edge values" },
    { "layout", cmd_layout, "draw fragment and scale-factor layouts" },
    { "gen", cmd_gen, "write golden vectors of a suite; list, write or check vectors/" },
    { "ver", cmd_ver, "compare a subject's results with golden vectors" },
    { "export", cmd_export, "write a suite's fields as NumPy .npy files" },
};

static void
usage(FILE *out)
{
    size_t i;

    fprintf(out, "Usage: softmma COMMAND [ARGS...]\n"
                 "       softmma COMMAND --help\n\n"
                 "A bit-exact reference of FP4/FP6/FP8/E8M0/UE4M3 formats and block-scaled\n"
                 "matrix products.\n\nCommands:\n");
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nsoftmma %s.  See softmma(1).\n", PACKAGE_VERSION);
}

/* softmma help COMMAND: the command's own --help. */
static int
help_command(int argc, char **argv)
{
    static char help_opt[] = "--help";
    char *args[3];
    size_t i;

    if (argc > 1)
        return cli_error("help takes one command, not %d arguments", argc);
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(argv[0], commands[i].name) == 0) {
            cli_command = commands[i].name;
            args[0] = argv[0];
            args[1] = help_opt;
            args[2] = NULL;
            return commands[i].run(2, args);
        }
    return cli_error("help: unknown command '%s' (try 'softmma --help')", argv[0]);
}

int
main(int argc, char **argv)
{
    size_t i;

    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "help") == 0 && argc > 2)
        return help_command(argc - 2, argv + 2);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("softmma %s\n", PACKAGE_VERSION);
        return CLI_OK;
    }
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            cli_command = commands[i].name;
            return commands[i].run(argc - 1, argv + 1);
        }
    return cli_error("unknown command '%s' (try 'softmma --help')", argv[1]);
}
