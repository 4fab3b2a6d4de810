/*
 * tests/tap/failalloc.c - a failing allocator for tests (failalloc.h): the
 * program's malloc, calloc, realloc and free forward to glibc's __libc_*
 * functions, except the one allocation that the countdown picks, which fails
 * as an exhausted heap does (NULL, errno ENOMEM).
 */
#include <config.h>

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "tap/failalloc.h"

/* AddressSanitizer brings its own allocator and allocates in its
 * interceptors (strdup, getline, ...): memory from it must not reach glibc's
 * free, so under it there is no failing allocator and the tests skip. */
#if defined(__SANITIZE_ADDRESS__)
#define FAILALLOC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FAILALLOC_ASAN 1
#endif
#endif

#if defined(__GLIBC__) && !defined(FAILALLOC_ASAN)

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static long countdown = -1;
static long live;

/* True for the allocation that must fail. */
static bool
fails(void)
{
    if (countdown < 0 || countdown-- > 0)
        return false;
    errno = ENOMEM;
    return true;
}

/* p, counted as a live block when it is one. */
static void *
counted(void *p)
{
    if (p != NULL)
        live++;
    return p;
}

void *
malloc(size_t n)
{
    return fails() ? NULL : counted(__libc_malloc(n));
}

void *
calloc(size_t n, size_t size)
{
    return fails() ? NULL : counted(__libc_calloc(n, size));
}

void *
realloc(void *p, size_t n)
{
    void *q;

    if (fails())
        return NULL;
    q = __libc_realloc(p, n);
    if (p == NULL)
        return counted(q);
    if (q == NULL && n == 0)
        live--; /* realloc(p, 0) freed p */
    return q;
}

void
free(void *p)
{
    if (p != NULL)
        live--;
    __libc_free(p);
}

/* A probe: under valgrind, whose allocator takes the place of this one
 * too, the allocation that must fail does not. */
bool
tap_alloc_hook(void)
{
    void *(*volatile alloc)(size_t) = malloc;
    void *p;

    countdown = 0;
    p = alloc(16);
    countdown = -1;
    free(p);
    return p == NULL;
}

void
tap_alloc_fail_after(long n)
{
    countdown = n;
}

bool
tap_alloc_pending(void)
{
    return countdown >= 0;
}

long
tap_alloc_live(void)
{
    return live;
}

#else

bool
tap_alloc_hook(void)
{
    return false;
}

void
tap_alloc_fail_after(long n)
{
    (void) n;
}

bool
tap_alloc_pending(void)
{
    return false;
}

long
tap_alloc_live(void)
{
    return 0;
}

#endif
