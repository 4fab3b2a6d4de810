/*
 * tests/tap/basic.c - implementation of the TAP library (see basic.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "basic.h"

static unsigned long planned;
static unsigned long current = 1;
static unsigned long failed;
static bool lazy;
static bool plan_done;
static const char *todo_reason;

/* The counts of sample_point, for the line beside the plan. */
static unsigned long sample_run, sample_all, sample_nclass;

static void sample_report(void);

static void
finish(void)
{
    sample_report();
    if (lazy && plan_done)
        printf("1..%lu\n", current - 1);
    fflush(stdout);
}

void
plan(unsigned long count)
{
    setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    printf("1..%lu\n", count);
    planned = count;
    plan_done = true;
    fflush(stdout);
}

void
plan_lazy(void)
{
    setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    lazy = true;
    plan_done = true;
    atexit(finish);
}

void
skip_all(const char *fmt, ...)
{
    va_list ap;

    printf("1..0 # SKIP ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    exit(0);
}

static void
describe(const char *fmt, va_list ap)
{
    if (fmt != NULL && *fmt != '\0') {
        printf(" - ");
        vprintf(fmt, ap);
    }
    if (todo_reason != NULL)
        printf(" # TODO %s", todo_reason);
    printf("\n");
}

void
todo(const char *reason)
{
    todo_reason = reason;
}

bool
ok(bool success, const char *fmt, ...)
{
    va_list ap;

    printf("%sok %lu", success ? "" : "not ", current++);
    va_start(ap, fmt);
    describe(fmt, ap);
    va_end(ap);
    if (!success && todo_reason == NULL)
        failed++;
    return success;
}

static bool
report(bool success, const char *fmt, va_list ap)
{
    printf("%sok %lu", success ? "" : "not ", current++);
    describe(fmt, ap);
    if (!success && todo_reason == NULL)
        failed++;
    return success;
}

bool
is_int(long long wanted, long long seen, const char *fmt, ...)
{
    va_list ap;
    bool r;

    va_start(ap, fmt);
    r = report(wanted == seen, fmt, ap);
    va_end(ap);
    if (!r)
        diag("wanted: %lld\n#   seen: %lld", wanted, seen);
    return r;
}

bool
is_hex(unsigned long long wanted, unsigned long long seen, const char *fmt, ...)
{
    va_list ap;
    bool r;

    va_start(ap, fmt);
    r = report(wanted == seen, fmt, ap);
    va_end(ap);
    if (!r)
        diag("wanted: 0x%llx\n#   seen: 0x%llx", wanted, seen);
    return r;
}

bool
is_string(const char *wanted, const char *seen, const char *fmt, ...)
{
    va_list ap;
    bool same;
    bool r;

    if (wanted == NULL || seen == NULL)
        same = wanted == seen;
    else
        same = strcmp(wanted, seen) == 0;
    va_start(ap, fmt);
    r = report(same, fmt, ap);
    va_end(ap);
    if (!r)
        diag("wanted: %s\n#   seen: %s", wanted ? wanted : "(null)", seen ? seen : "(null)");
    return r;
}

void
skip(const char *fmt, ...)
{
    va_list ap;

    printf("ok %lu # SKIP ", current++);
    va_start(ap, fmt);
    if (fmt != NULL)
        vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

void
skip_block(unsigned long count, const char *fmt, ...)
{
    va_list ap;
    unsigned long i;

    for (i = 0; i < count; i++) {
        printf("ok %lu # SKIP ", current++);
        va_start(ap, fmt);
        if (fmt != NULL)
            vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
}

bool
diag(const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    return true;
}

void
bail(const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    printf("Bail out! ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    exit(255);
}

void
sysbail(const char *fmt, ...)
{
    va_list ap;
    int e = errno;

    fflush(stdout);
    printf("Bail out! ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf(": %s\n", strerror(e));
    fflush(stdout);
    exit(255);
}

int
exit_status(void)
{
    if (!lazy)
        sample_report();
    if (!lazy && planned != current - 1) {
        diag("planned %lu tests but ran %lu", planned, current - 1);
        return 255;
    }
    return failed > 0 ? 1 : 0;
}

int
test_level(void)
{
    const char *s = getenv("TEST_LEVEL");
    char *end;
    long v;

    if (s == NULL || *s == '\0')
        return 1;
    v = strtol(s, &end, 10);
    if (*end != '\0' || v < 0 || v > 2)
        bail("TEST_LEVEL must be 0, 1 or 2, not '%s'", s);
    return (int) v;
}

/* TEST_SAMPLE, parsed once. */
static unsigned long sample_k;
static uint64_t sample_seed;

static void
sample_parse(void)
{
    const char *s = getenv("TEST_SAMPLE");
    char *end;
    unsigned long long seed = 1;
    long k;

    if (sample_k != 0)
        return;
    sample_k = 1;
    if (s == NULL || *s == '\0')
        return;
    k = strtol(s, &end, 10);
    if (end == s || k < 1 || k > 1000 || (*end != '\0' && *end != ':'))
        bail("TEST_SAMPLE must be K or K:SEED with K from 1 to 1000, not '%s'", s);
    if (*end == ':') {
        const char *t = end + 1;

        errno = 0;
        seed = strtoull(t, &end, 0);
        if (end == t || *end != '\0' || errno != 0 || *t == '-')
            bail("TEST_SAMPLE must be K or K:SEED with SEED a number, not '%s'", s);
    }
    sample_k = (unsigned long) k;
    sample_seed = seed;
}

unsigned long
sample_every(void)
{
    sample_parse();
    return sample_k;
}

/* FNV-1a over the seed's bytes and the string, then a final mix. */
static uint64_t
sample_hash(uint64_t seed, const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    int i;

    for (i = 0; i < 8; i++)
        h = (h ^ ((seed >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char) *s) * 0x100000001b3ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

/* The classes met so far: an open-addressed set of their 64-bit hashes
 * (odd, so that 0 marks a free slot; two classes whose hashes collide
 * would count as one). */
static uint64_t *sample_classes;
static size_t sample_cap;

static bool
sample_new_class(const char *cls)
{
    uint64_t h = sample_hash(0, cls) | 1;
    size_t i;

    if (2 * (sample_nclass + 1) > sample_cap) {
        size_t cap = sample_cap ? 2 * sample_cap : 256, j;
        uint64_t *t = calloc(cap, sizeof(*t));

        if (t == NULL)
            sysbail("cannot allocate the sample's classes");
        for (j = 0; j < sample_cap; j++)
            if (sample_classes[j] != 0) {
                for (i = (sample_classes[j] >> 1) % cap; t[i] != 0; i = (i + 1) % cap)
                    ;
                t[i] = sample_classes[j];
            }
        free(sample_classes);
        sample_classes = t;
        sample_cap = cap;
    }
    for (i = (h >> 1) % sample_cap; sample_classes[i] != 0; i = (i + 1) % sample_cap)
        if (sample_classes[i] == h)
            return false;
    sample_classes[i] = h;
    sample_nclass++;
    return true;
}

bool
sample_point(const char *cls, const char *key)
{
    bool run;

    sample_parse();
    sample_all++;
    run = sample_k == 1 || sample_new_class(cls) || sample_hash(sample_seed, key) % sample_k == 0;
    sample_run += run;
    return run;
}

static void
sample_report(void)
{
    static bool reported;

    if (reported || sample_run == sample_all)
        return;
    reported = true;
    diag("sampled (TEST_SAMPLE=%lu:%llu): ran %lu of %lu points, the first of each of %lu "
         "classes and one in %lu of the rest by the seed", sample_k,
         (unsigned long long) sample_seed, sample_run, sample_all, sample_nclass, sample_k);
    free(sample_classes);
    sample_classes = NULL;
}

static char *
join(const char *envname, const char *relative)
{
    const char *base = getenv(envname);
    size_t n;
    char *p;

    if (base == NULL || *base == '\0')
        base = ".";
    n = strlen(base) + strlen(relative) + 2;
    p = malloc(n);
    if (p == NULL)
        sysbail("cannot allocate a path");
    snprintf(p, n, "%s/%s", base, relative);
    return p;
}

char *
test_file_path(const char *relative)
{
    return join("SMMA_SRCDIR", relative);
}

char *
test_build_path(const char *relative)
{
    return join("SMMA_BUILDDIR", relative);
}

void
test_file_free(char *path)
{
    free(path);
}

void
tap_rng_seed(tap_rng *r, uint64_t seed)
{
    smma_rng_seed(&r->g, seed);
}

uint64_t
tap_rng_next(tap_rng *r)
{
    return smma_rng_next(&r->g);
}

double
tap_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

const smma_model *
tap_model(const char *name)
{
    const smma_model *m;
    smma_error err;

    if (smma_model_from_name(name, &m, &err) != SMMA_OK)
        bail("%s", err.msg);
    return m;
}
