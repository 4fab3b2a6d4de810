/*
 * tests/ref/slow.h - a second, deliberately simple codec written for the
 * tests (the idea of TestFloat's "slowfloat"): decoding from the format
 * definitions written out per format, encoding by searching a sorted table
 * of every value for the two neighbours of the input.  It shares no code
 * with ref/, only the profile data that says which choice to make.
 */
#ifndef TESTS_REF_SLOW_H
#define TESTS_REF_SLOW_H 1

#include <stdbool.h>
#include <stdint.h>

#include <softmma/format.h>
#include <softmma/profile.h>

/* The value of code in format f; NaN codes give a NaN with the code's sign. */
double slow_decode(smma_format f, uint32_t code);

/* The code of x in format f under cvt (see smma_encode for the contract). */
uint32_t slow_encode(smma_format f, double x, const smma_cvt *cvt);

/* Frees the tables built on first use. */
void slow_free(void);

/* True when a and b are the same double bit for bit, or both NaN with the
 * same sign. */
bool slow_same(double a, double b);

#endif
