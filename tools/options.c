/*
 * tools/options.c - a small option parser for the subcommands.
 *
 * Arguments that start with "--" are options (with "--name=value" or
 * "--name value"); "-h" is help; everything else, including negative
 * numbers such as "-1.5" and "-inf", is a positional argument.  "--" ends
 * the options.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

int
opt_parse(int argc, char **argv, const struct opt_spec *specs, struct opt_result *res)
{
    int i;
    bool only_pos = false;

    res->npos = 0;
    res->help = false;
    res->pos = calloc((size_t) (argc > 0 ? argc : 1), sizeof(*res->pos));
    if (res->pos == NULL)
        return cli_error("out of memory");
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const struct opt_spec *s;
        size_t namelen;
        const char *eq;

        if (only_pos || a[0] != '-' || strcmp(a, "-") == 0 ||
            (a[1] != '-' && a[1] != 'h')) {
            res->pos[res->npos++] = argv[i];
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            res->help = true;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_pos = true;
            continue;
        }
        if (a[1] != '-')
            return cli_error("unknown option '%s'", a);
        eq = strchr(a + 2, '=');
        namelen = eq != NULL ? (size_t) (eq - (a + 2)) : strlen(a + 2);
        for (s = specs; s != NULL && s->name != NULL; s++)
            if (strlen(s->name) == namelen && strncmp(a + 2, s->name, namelen) == 0)
                break;
        if (s == NULL || s->name == NULL)
            return cli_error("unknown option '%s'", a);
        if (s->has_arg) {
            const char *v;

            if (eq != NULL)
                v = eq + 1;
            else if (i + 1 < argc)
                v = argv[++i];
            else
                return cli_error("option '--%s' needs a value", s->name);
            *s->value = v;
        } else {
            if (eq != NULL)
                return cli_error("option '--%s' takes no value", s->name);
            *s->flag = true;
        }
    }
    return CLI_OK;
}

void
opt_free(struct opt_result *res)
{
    free(res->pos);
    res->pos = NULL;
}

int
opt_no_args(int argc, char **argv, const char *usage, bool *done)
{
    static const struct opt_spec none[] = { { NULL, false, NULL, NULL } };
    struct opt_result r;
    int rc = opt_parse(argc, argv, none, &r);

    *done = false;
    if (rc == CLI_OK && r.help) {
        fputs(usage, stdout);
        *done = true;
    } else if (rc == CLI_OK && r.npos > 0) {
        rc = cli_error("unexpected argument '%s'", r.pos[0]);
    }
    opt_free(&r);
    return rc;
}
