/*
 * tools/options.h - the subcommands' option parser (see options.c).
 */
#ifndef SOFTMMA_OPTIONS_H
#define SOFTMMA_OPTIONS_H 1

#include <stdbool.h>

#include "cli.h"

/* One option: "--name" sets *flag, "--name VALUE" sets *value. */
struct opt_spec {
    const char *name;
    bool has_arg;
    const char **value;
    bool *flag;
};

struct opt_result {
    int npos;
    char **pos;   /* the positional arguments; free with opt_free */
    bool help;
};

/* Parses argv[1..argc-1] against specs (terminated by a NULL name).
 * Returns CLI_OK, or CLI_USAGE after printing an error naming the
 * argument. */
int opt_parse(int argc, char **argv, const struct opt_spec *specs, struct opt_result *res);

/* Parses the arguments of a command that takes none.  With --help, prints
 * usage and sets *done.  Returns CLI_OK (then, unless *done, the command
 * runs) or CLI_USAGE after printing an error naming the argument. */
int opt_no_args(int argc, char **argv, const char *usage, bool *done);

/* Frees what opt_parse allocated. */
void opt_free(struct opt_result *res);

#endif
