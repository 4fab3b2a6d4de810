/*
 * tests/tap/basic.h - a small library for writing TAP test programs.
 *
 * A test program calls plan() (or plan_lazy()) first, then one of the
 * reporting functions per test point, and returns exit_status() from main.
 * Output goes to standard output in TAP version 12, which Automake's
 * tap-driver.sh reads.  Diagnostics go to standard output as "# " lines.
 */
#ifndef TAP_BASIC_H
#define TAP_BASIC_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/gemm.h>

#if defined(__GNUC__)
#define TAP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TAP_NORETURN __attribute__((noreturn))
#else
#define TAP_PRINTF(f, a)
#define TAP_NORETURN
#endif

/* Announces that count tests will follow.  A program that then runs a
 * different number of tests fails. */
void plan(unsigned long count);

/* Announces that the plan will be printed at the end, after the tests. */
void plan_lazy(void);

/* Skips the whole program: prints "1..0 # SKIP reason" and exits 0. */
void skip_all(const char *fmt, ...) TAP_PRINTF(1, 2) TAP_NORETURN;

/* Reports one test point; returns success.  The description is optional
 * (fmt may be NULL). */
bool ok(bool success, const char *fmt, ...) TAP_PRINTF(2, 3);

/* Compare and report: on failure, print wanted and seen as diagnostics. */
bool is_int(long long wanted, long long seen, const char *fmt, ...) TAP_PRINTF(3, 4);
bool is_hex(unsigned long long wanted, unsigned long long seen, const char *fmt, ...)
    TAP_PRINTF(3, 4);
bool is_string(const char *wanted, const char *seen, const char *fmt, ...) TAP_PRINTF(3, 4);

/* Reports one skipped test point, and count skipped points. */
void skip(const char *fmt, ...) TAP_PRINTF(1, 2);
void skip_block(unsigned long count, const char *fmt, ...) TAP_PRINTF(2, 3);

/* Marks the following test points as TODO (known to fail; a failure is
 * reported as expected, a pass as unexpected) with the given reason, until
 * called again with NULL. */
void todo(const char *reason);

/* Prints a diagnostic line ("# ...").  Returns true so it can be chained. */
bool diag(const char *fmt, ...) TAP_PRINTF(1, 2);

/* Aborts the test program: prints "Bail out! ..." and exits 255. */
void bail(const char *fmt, ...) TAP_PRINTF(1, 2) TAP_NORETURN;

/* Like bail, with ": strerror(errno)" appended. */
void sysbail(const char *fmt, ...) TAP_PRINTF(1, 2) TAP_NORETURN;

/* The exit status for main: 0 if every test passed and the plan held. */
int exit_status(void);

/* The test level from the TEST_LEVEL environment variable: 0 (quick, used
 * under valgrind), 1 (default) or 2 (exhaustive). */
int test_level(void);

/* Sampled runs (make check-valgrind).  TEST_SAMPLE="K" or "K:SEED" asks
 * the heavy tests to run a seeded one in K of their sampled points: each
 * such point is named by a class (what must still be reached: for a dry
 * run the kernel, the pair of formats, the scale layout and which of m, n
 * and k are ragged) and a key (the point itself).  sample_point(cls, key)
 * is true for the first point of every class, and otherwise when a hash of
 * SEED and key falls in one K-th of its range; without TEST_SAMPLE, or with
 * K = 1, it is always true.  K is 1 to 1000, SEED a decimal or 0x number
 * (default 1); anything else bails out.  When any point was sampled away,
 * the program prints beside its plan line (automake's TAP driver takes no
 * text after a non-zero plan) how many of how many points ran, K, SEED
 * and the number of classes. */
bool sample_point(const char *cls, const char *key);

/* K of TEST_SAMPLE (1 when unset). */
unsigned long sample_every(void);

/* Paths to files in the source and build trees ($SMMA_SRCDIR/$SMMA_BUILDDIR,
 * or "." when unset).  The result is malloc'd; free it with test_file_free. */
char *test_file_path(const char *relative);
char *test_build_path(const char *relative);
void test_file_free(char *path);

/* A deterministic pseudo-random generator, identical on every machine: the
 * library's own (smma_rng, xoshiro256** seeded by splitmix64). */
typedef struct { smma_rng g; } tap_rng;
void tap_rng_seed(tap_rng *r, uint64_t seed);
uint64_t tap_rng_next(tap_rng *r);

/* The numerics model of that name; bails out when there is none. */
const smma_model *tap_model(const char *name);

/* A monotonic clock in seconds, for the timings tests print. */
double tap_seconds(void);

#endif /* TAP_BASIC_H */
