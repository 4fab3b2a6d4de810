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
#include <softmma/gemm.h>
#include <softmma/gpu.h>
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

/* Looks up --model's name (or an alias); on an unknown name prints an error
 * listing every model and alias in full and returns CLI_USAGE. */
int cli_model_from_name(const char *opt, const char *name, const smma_model **out);

/* Progress of long work: one line on stderr, rewritten in place ("\r") and
 * cleared at the end, only when stderr is a terminal and the work has run
 * for a second; never in files or pipes.  SOFTMMA_PROGRESS=1 shows every
 * update at once whatever stderr is (tests), SOFTMMA_PROGRESS=0 none. */
typedef struct cli_progress {
    double start, last;     /* seconds (monotonic) */
    bool on, forced, shown;
} cli_progress;

void cli_progress_start(cli_progress *p);
void cli_progress_show(cli_progress *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void cli_progress_end(cli_progress *p);

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
int cmd_match(int argc, char **argv);

/* The options that give a GEMM problem, shared by softmma gemm and softmma
 * match: the values of --a, --b, --scale, --vec, --m, --n, --k, --seed,
 * --class, --c, --d, --inputs and --alpha (NULL: not given). */
typedef struct cli_gemm_args {
    const char *a, *b, *scale, *vec, *m, *n, *k, *seed, *cls, *c, *d, *inputs, *alpha;
} cli_gemm_args;

struct opt_spec;

/* Writes the 13 option specs of args into specs[*n..] and advances *n. */
void cli_gemm_arg_specs(cli_gemm_args *args, struct opt_spec *specs, size_t *n);

/* The problem the options give: read from --inputs FILE, or generated from
 * the seed (as the GPU kernels take it when gpu is set), D's format (--d,
 * default fp32) and alpha.  Fills *s, *g (smma_gemm_data_free) and *seed.
 * CLI_OK, or CLI_USAGE after an error naming the option or the file. */
int cli_gemm_problem(const cli_gemm_args *args, bool gpu, smma_gemm_shape *s,
                     smma_gemm_data *g, uint64_t *seed);

/* Reads a subject's D, m x n codes of s->d_fmt, into d: a path ending .npy
 * is an .npy file of shape (m, n) holding the codes as unsigned integers of
 * the code's size (uint32 for fp32, uint16 for bf16 and fp16; float32 and
 * float16 for fp32 and fp16 are taken as their bits); any other path is
 * text, m lines of n hex codes ('#' comment lines allowed).  CLI_OK, or
 * CLI_USAGE after an error naming the file (and line). */
int cli_gemm_read_d(const char *path, const smma_gemm_shape *s, uint32_t *d);
int cmd_gpu(int argc, char **argv);

/* softmma gemm --on gpu (tools/cmd_gpu.c).  The device, the kernel that
 * computes the problem there and the model it follows. */
typedef struct cli_gpu_plan {
    smma_gpu_device dev;
    smma_gpu_kernel kernel;     /* the kernel that runs (never SMMA_GPU_AUTO) */
    const char *model;          /* the model it follows on the device, or NULL */
    char no_model[256];         /* why there is none */
    char why[512];              /* with --kernel auto: why this kernel ("" otherwise) */
} cli_gpu_plan;

/* smma_gemm_generate for the GPU: a bf16 or fp16 operand of a scaled
 * product is generated without scales (smma_gemm_generate_opts), as the
 * kernels take it, and its scales are then set to 1. */
int cli_gpu_generate(const smma_gemm_shape *s, smma_input_class cls, uint64_t seed,
                     smma_gemm_data *g, smma_error *err);

/* Finds device 0 and the kernel that computes s (kernel, or the choice for
 * SMMA_GPU_AUTO, among those that follow `model` when it is not NULL) with
 * smma_gpu_gemm_check, and the model it follows.
 * Refuses a 16-bit operand of a scaled product whose scales are not all 1.
 * CLI_OK, or CLI_USAGE after printing the error (no device: the reason; a
 * refused problem: the kernel's message, naming --kernel). */
int cli_gpu_plan_gemm(const smma_gemm_shape *s, const smma_gemm_data *g, smma_gpu_kernel kernel,
                      const char *model, cli_gpu_plan *plan);

/* Stores the problem on the device (A and B K-major, scales linear, C
 * fp32) and runs plan->kernel: with reps == 0 once, D (m x n codes of
 * s->d_fmt) copied back into d; else a warm-up run and reps timed runs,
 * their median time in *median_ms (smma_gpu_time_gemm).  CLI_OK, or
 * CLI_USAGE after printing the error. */
int cli_gpu_run_gemm(const cli_gpu_plan *plan, const smma_gemm_shape *s, const smma_gemm_data *g,
                     uint32_t *d, unsigned reps, double *median_ms);
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

/* An .npy file read whole (tools/npy.c): its dtype's kind ('u', 'i' or
 * 'f') and size, its shape (ndim 0..2) and its values as bit patterns in C
 * order (a Fortran-order file is read transposed back). */
typedef struct cli_npy {
    char kind;
    unsigned bytes;
    int ndim;
    size_t shape[2];
    uint64_t *v;
    size_t count;
} cli_npy;

/* Reads path (format 1.0, 2.0 or 3.0; little-endian or one-byte integers and
 * floats; at most 2 dimensions; no byte missing or left over).  CLI_OK, or
 * CLI_USAGE after an error naming the file. */
int cli_npy_read(const char *path, cli_npy *x);

/* Checks that x holds the bits of `what`: dtype unsigned of `bytes` bytes
 * (or the float of the same size when fmt is SMMA_FP32 or SMMA_FP16: its
 * bits are the codes), shape (d0,) when d1 is 0, else (d0, d1).  CLI_OK,
 * or CLI_USAGE after an error naming the file, what it holds and what was
 * expected (a transposed 2-D shape is named as such). */
int cli_npy_expect(const cli_npy *x, const char *path, unsigned bytes, smma_format fmt,
                   size_t d0, size_t d1, const char *what);

/* x's dtype as numpy writes it ("<u4") and its shape ("(2, 3)"). */
void cli_npy_type(const cli_npy *x, char *buf, size_t n);
void cli_npy_shape(const cli_npy *x, char *buf, size_t n);

/* Whether path ends in ".npy". */
bool cli_is_npy_name(const char *path);

void cli_npy_free(cli_npy *x);

/* Writes an .npy file (format 1.0) of little-endian unsigned integers of
 * `bytes` bytes, shape (d0,) when d1 is 0, else (d0, d1), from data (len
 * bytes), whole to a temporary file then renamed.  CLI_OK, or CLI_USAGE
 * after an error naming the file. */
int cli_npy_write(const char *path, unsigned bytes, size_t d0, size_t d1,
                  const unsigned char *data, size_t len);

#endif /* SOFTMMA_CLI_H */
