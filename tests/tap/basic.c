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

static void
finish(void)
{
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
