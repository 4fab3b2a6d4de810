/*
 * tools/cli.h - what the softmma subcommands share: argument parsing,
 * error reporting and number printing.  Only the program prints and exits;
 * the library never does.
 */
#ifndef SOFTMMA_CLI_H
#define SOFTMMA_CLI_H 1

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <softmma/format.h>
#include <softmma/grid.h>
#include <softmma/profile.h>

/* Exit statuses of the program. */
enum { CLI_OK = 0, CLI_MISMATCH = 1, CLI_USAGE = 2 };

/* The name of the running subcommand, used in messages. */
extern const char *cli_command;

/* Prints "softmma: COMMAND: message" to stderr and returns CLI_USAGE. */
int cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Parses an unsigned integer, decimal or hex with 0x (a leading 0 does not
 * mean octal), that must fit in max; returns false on junk, signs,
 * whitespace, overflow or an empty string. */
bool cli_parse_uint(const char *s, uint64_t max, uint64_t *out);

/* Parses a real number: decimal or C99 hex-float, "inf", "-inf", "nan".
 * Returns false on junk or an empty string.  A decimal is rounded to the
 * nearest double. */
bool cli_parse_double(const char *s, double *out);

/* Formats a double as %.17g, or "nan", "-nan", "inf", "-inf". */
void cli_format_value(double v, char *buf, size_t n);

/* Formats a double as a C99 hex-float, or "nan", "-nan", "inf", "-inf". */
void cli_format_hex(double v, char *buf, size_t n);

/* Number of hex digits used to print a code of format f. */
int cli_code_digits(smma_format f);

/* Subcommands.  Each takes argv after the subcommand name (argv[0] is the
 * subcommand name) and returns the exit status. */
int cmd_formats(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
int cmd_tour(int argc, char **argv);
int cmd_quant(int argc, char **argv);
int cmd_dequant(int argc, char **argv);
int cmd_diff(int argc, char **argv);

/* Prints a profile's block quantization choices (softmma profiles). */
void cli_print_quant_choices(const smma_profile *p);
int cmd_gemm(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_layout(int argc, char **argv);

/* Prints grid g as text, as `softmma layout INSTRUCTION OPERAND` does: a
 * header line, a line of column indices, then one line per row, the row
 * index and each cell's label.  rows (nrows ascending row numbers) picks
 * the rows to print, NULL every row; a line "..." marks rows left out
 * between two picked ones.  ncols > 0 prints only the first ncols columns
 * (0: all).  indent starts every line. */
void cli_grid_print_text(const smma_grid *g, const unsigned *rows, size_t nrows, unsigned ncols,
                         const char *indent);
int cmd_gen(int argc, char **argv);
int cmd_ver(int argc, char **argv);
int cmd_export(int argc, char **argv);

/* The end of softmma tour: generates every committed suite into a temporary
 * directory and verifies it against the files in dir: one line per suite
 * with per_suite, else one line per family (suites, cases, all equal) and a
 * line for each suite that differs.  CLI_OK when all are equal,
 * CLI_MISMATCH when some differ, CLI_USAGE on errors (printed). */
int cli_vectors_tour(const char *dir, bool per_suite);

#endif /* SOFTMMA_CLI_H */
