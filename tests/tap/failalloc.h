/*
 * tests/tap/failalloc.h - a failing allocator for the tests of what the
 * library does when memory runs out.  A test program linked with
 * failalloc.c has its own malloc, calloc, realloc and free, which libsoftmma's
 * calls reach too (a program's definitions take the place of the C
 * library's); they are the C library's until a countdown runs out.
 */
#ifndef TAP_FAILALLOC_H
#define TAP_FAILALLOC_H 1

#include <stdbool.h>

/* Whether the hook is in place: glibc, and neither under valgrind (whose
 * allocator replaces this one) nor built with AddressSanitizer (whose
 * interceptors allocate from its own heap).  Elsewhere the countdown does
 * nothing and the tests of allocation failures skip. */
bool tap_alloc_hook(void);

/* Makes the allocation after the next n succeed (n = 0: the next one) fail
 * with ENOMEM, and every one after it succeed again; n < 0 cancels. */
void tap_alloc_fail_after(long n);

/* Whether the countdown is still running (the failure has not happened). */
bool tap_alloc_pending(void);

/* The blocks allocated and not yet freed through this program's allocator:
 * the difference across a call is what the call leaked. */
long tap_alloc_live(void);

#endif
