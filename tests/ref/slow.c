/*
 * tests/ref/slow.c - the test suite's independent codec (see slow.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slow.h"
#include "tap/basic.h"

static double
signed_nan(int neg)
{
    return neg ? -NAN : NAN;
}

double
slow_decode(smma_format f, uint32_t c)
{
    static const double e2m1[8] = { 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0 };
    double v;
    int s, e, m;
    float fl;

    switch (f) {
    case SMMA_E2M1:
        v = e2m1[c & 7];
        return (c & 8) ? -v : v;
    case SMMA_E2M3:
        e = (int) (c >> 3) & 3;
        m = (int) c & 7;
        v = e == 0 ? (m / 8.0) : (1.0 + m / 8.0) * pow(2.0, e - 1);
        return (c & 0x20) ? -v : v;
    case SMMA_E3M2:
        e = (int) (c >> 2) & 7;
        m = (int) c & 3;
        v = e == 0 ? (m / 4.0) * 0.25 : (1.0 + m / 4.0) * pow(2.0, e - 3);
        return (c & 0x20) ? -v : v;
    case SMMA_E4M3:
    case SMMA_UE4M3:
        s = f == SMMA_E4M3 ? (int) (c >> 7) & 1 : 0;
        if ((c & 0x7f) == 0x7f)
            return signed_nan(s);
        e = (int) (c >> 3) & 15;
        m = (int) c & 7;
        v = e == 0 ? (m / 8.0) * pow(2.0, -6) : (1.0 + m / 8.0) * pow(2.0, e - 7);
        return s ? -v : v;
    case SMMA_E5M2:
        s = (int) (c >> 7) & 1;
        e = (int) (c >> 2) & 31;
        m = (int) c & 3;
        if (e == 31)
            return m ? signed_nan(s) : (s ? -HUGE_VAL : HUGE_VAL);
        v = e == 0 ? (m / 4.0) * pow(2.0, -14) : (1.0 + m / 4.0) * pow(2.0, e - 15);
        return s ? -v : v;
    case SMMA_E8M0:
        if ((c & 0xff) == 0xff)
            return NAN;
        return pow(2.0, (int) (c & 0xff) - 127);
    case SMMA_BF16:
        fl = smma_f32_from_bits((c & 0xffff) << 16);
        return (double) fl;
    case SMMA_FP16:
        s = (int) (c >> 15) & 1;
        e = (int) (c >> 10) & 31;
        m = (int) c & 1023;
        if (e == 31)
            return m ? signed_nan(s) : (s ? -HUGE_VAL : HUGE_VAL);
        v = e == 0 ? (m / 1024.0) * pow(2.0, -14) : (1.0 + m / 1024.0) * pow(2.0, e - 15);
        return s ? -v : v;
    case SMMA_FP32:
        fl = smma_f32_from_bits(c);
        return (double) fl;
    default:
        bail("slow_decode: format %d", (int) f);
    }
}

bool
slow_same(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b) && !signbit(a) == !signbit(b);
    return memcmp(&a, &b, sizeof(a)) == 0;
}

/* Per format: the test's own statement of the shape (FACTS.md section 1). */
struct shape {
    unsigned bits;      /* storage bits */
    int has_sign;
    uint32_t maxc;      /* largest finite positive code */
    int has_inf, has_nan, nan_all_ones, has_zero;
    unsigned man_bits;  /* for NaN payloads */
};

static const struct shape shapes[SMMA_FORMAT_COUNT] = {
    [SMMA_E2M1] = { 4, 1, 0x7, 0, 0, 0, 1, 1 },
    [SMMA_E2M3] = { 6, 1, 0x1f, 0, 0, 0, 1, 3 },
    [SMMA_E3M2] = { 6, 1, 0x1f, 0, 0, 0, 1, 2 },
    [SMMA_E4M3] = { 8, 1, 0x7e, 0, 1, 1, 1, 3 },
    [SMMA_E5M2] = { 8, 1, 0x7b, 1, 1, 0, 1, 2 },
    [SMMA_E8M0] = { 8, 0, 0xfe, 0, 1, 1, 0, 0 },
    [SMMA_UE4M3] = { 8, 0, 0x7e, 0, 1, 1, 1, 3 },
    [SMMA_BF16] = { 16, 1, 0x7f7f, 1, 1, 0, 1, 7 },
    [SMMA_FP16] = { 16, 1, 0x7bff, 1, 1, 0, 1, 10 },
    [SMMA_FP32] = { 32, 1, 0x7f7fffff, 1, 1, 0, 1, 23 },
};

/* Sorted non-negative finite values of a format (up to 16 bits). */
struct table {
    size_t n;
    double *val;
    uint32_t *code;
};

static struct table tables[SMMA_FORMAT_COUNT];

struct entry {
    double v;
    uint32_t c;
};

static int
cmp_entry(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;

    return (x->v > y->v) - (x->v < y->v);
}

static const struct table *
table_for(smma_format f)
{
    struct table *t = &tables[f];
    const struct shape *s = &shapes[f];
    uint32_t c, ncodes;
    struct entry *ent;
    size_t i, n = 0;

    if (t->val != NULL)
        return t;
    ncodes = s->has_sign ? 1u << (s->bits - 1) : (f == SMMA_UE4M3 ? 0x80u : 1u << s->bits);
    ent = calloc(ncodes, sizeof(*ent));
    t->val = calloc(ncodes, sizeof(double));
    t->code = calloc(ncodes, sizeof(uint32_t));
    if (ent == NULL || t->val == NULL || t->code == NULL)
        sysbail("slow: cannot allocate a table");
    for (c = 0; c < ncodes; c++) {
        double v = slow_decode(f, c);

        if (isfinite(v)) {
            ent[n].v = v;
            ent[n].c = c;
            n++;
        }
    }
    qsort(ent, n, sizeof(*ent), cmp_entry);
    for (i = 0; i < n; i++) {
        t->val[i] = ent[i].v;
        t->code[i] = ent[i].c;
    }
    t->n = n;
    free(ent);
    return t;
}

void
slow_free(void)
{
    int f;

    for (f = 0; f < SMMA_FORMAT_COUNT; f++) {
        free(tables[f].val);
        free(tables[f].code);
        tables[f].val = NULL;
        tables[f].code = NULL;
    }
}

static uint32_t
sgn(const struct shape *s, int neg)
{
    return (s->has_sign && neg) ? (uint32_t) 1 << (s->bits - 1) : 0;
}

static uint32_t
nan_code(smma_format f, const struct shape *s, int neg, const smma_profile *p)
{
    if (!s->has_nan) {
        switch (p->nan_to_finite) {
        case SMMA_NANF_POS_MAX: return s->maxc;
        case SMMA_NANF_SIGNED_MAX: return sgn(s, neg) | s->maxc;
        case SMMA_NANF_FLIPPED_ZERO: return sgn(s, !neg);
        case SMMA_NANF_POS_ZERO: return 0;
        case SMMA_NANF_ONE_AND_HALF:
            /* 1.5: e2m1 0.1.1 = 0x3, e2m3 0.01.100 = 0x0c, e3m2 0.011.10 = 0x0e. */
            return sgn(s, neg) | (f == SMMA_E2M1 ? 0x3u : f == SMMA_E2M3 ? 0x0cu : 0x0eu);
        case SMMA_NANF_POS_TWO:
            /* +2: e2m1 0.10.0 = 0x4, e2m3 0.10.000 = 0x10, e3m2 0.100.00 = 0x10. */
            return f == SMMA_E2M1 ? 0x4u : 0x10u;
        case SMMA_NANF_XLA:
            /* -0 in e2m1 (0x8), +0 in e2m3 and e3m2. */
            return f == SMMA_E2M1 ? 0x8u : 0x0u;
        }
    }
    if (p->nan_out == SMMA_NANO_CANONICAL)
        return s->has_sign ? (1u << (s->bits - 1)) - 1 : (f == SMMA_E8M0 ? 0xff : 0x7f);
    if (s->nan_all_ones)
        return sgn(s, neg) | (f == SMMA_E8M0 ? 0xff : 0x7f);
    /* IEEE-style: exponent all ones and the quiet bit, the top mantissa bit. */
    return sgn(s, neg) | (s->maxc + 1) | (1u << (s->man_bits - 1));
}

/* The value an overflow gives when the rounding does not stop at max. */
static uint32_t
ovf_code(smma_format f, const struct shape *s, int neg)
{
    if (s->has_inf)
        return sgn(s, neg) | (s->maxc + 1);
    if (s->has_nan)
        return sgn(s, neg) | (f == SMMA_E8M0 ? 0xff : 0x7f);
    return sgn(s, neg) | s->maxc;
}

/* ml_dtypes' e8m0 rounding to nearest, restated in value space: below 2^-126
 * the grid is {0 (code 0x00), 2^-126}, whose midpoint 2^-127 goes to 0x00;
 * above, powers of two, every midpoint going up; 2^128 * [1.5, 2) gives
 * 0x00 (the wrap of ml_dtypes' 8-bit sum). */
static uint32_t
slow_e8m0_ml_dtypes(double a, const smma_cvt *cvt)
{
    double lo = 0x1p-126;
    int e = -126, up, code;

    if (a < lo)
        return a > 0x1p-127 ? 0x01 : 0x00;
    while (lo * 2 <= a) {
        lo *= 2;
        e++;
    }
    up = a >= 1.5 * lo;
    if (e == 128 && up)
        return 0x00;
    code = e + 127 + up;
    if (code <= 0xfe)
        return (uint32_t) code;
    return cvt->sat ? 0xfe : 0xff;
}

uint32_t
slow_encode(smma_format f, double x, const smma_cvt *cvt)
{
    const struct shape *s = &shapes[f];
    const smma_profile *p = cvt->profile != NULL ? cvt->profile : smma_profile_cuda();
    int neg = signbit(x) != 0;
    double a, lo, hi, mid;
    uint32_t clo, chi;
    int hi_virtual = 0, up;

    if (isnan(x))
        return nan_code(f, s, neg, p);
    if (!s->has_sign && neg && x != 0) {
        if (p->neg_unsigned == SMMA_NEGU_NAN)
            return f == SMMA_E8M0 ? 0xff : 0x7f;
        if (p->neg_unsigned == SMMA_NEGU_MIN)
            return 0;
        x = -x;
    }
    if (!s->has_sign)
        neg = 0;
    if (isinf(x)) {
        if (s->has_inf)
            return cvt->sat ? sgn(s, neg) | s->maxc : sgn(s, neg) | (s->maxc + 1);
        if (s->has_nan && (!cvt->sat || (f == SMMA_E8M0 ? p->e8m0_inf : p->inf_nonf) ==
                                            SMMA_INFN_NAN))
            return sgn(s, neg) | (f == SMMA_E8M0 ? 0xff : 0x7f);
        return sgn(s, neg) | s->maxc;
    }
    if (x == 0) {
        if (!s->has_zero)
            return p->e8m0_zero == SMMA_E8Z_NAN ? 0xff : 0x00;
        return sgn(s, neg);
    }
    a = fabs(x);
    if (f == SMMA_E8M0 && cvt->round == SMMA_RN && p->e8m0_rn == SMMA_E8RN_ML_DTYPES)
        return slow_e8m0_ml_dtypes(a, cvt);
    if (f == SMMA_FP32) {
        float fl = (float) a;

        if ((double) fl > a)
            fl = nextafterf(fl, 0.0f);
        lo = fl;
        clo = smma_f32_bits(fl);
        if (clo == s->maxc) {
            hi = ldexp(1.0, 128);
            hi_virtual = 1;
        } else {
            hi = (double) nextafterf(fl, INFINITY);
        }
        chi = clo + 1;
    } else {
        const struct table *t = table_for(f);
        size_t lo_i = 0, hi_i = t->n;

        if (a < t->val[0])
            return 0; /* only e8m0 has no zero: its smallest code is 0 */
        while (hi_i - lo_i > 1) {
            size_t mid_i = (lo_i + hi_i) / 2;

            if (t->val[mid_i] <= a)
                lo_i = mid_i;
            else
                hi_i = mid_i;
        }
        lo = t->val[lo_i];
        clo = t->code[lo_i];
        if (lo_i + 1 < t->n) {
            hi = t->val[lo_i + 1];
            chi = t->code[lo_i + 1];
        } else {
            /* One step past max in the top binade: the virtual next value. */
            hi = lo + (lo - t->val[lo_i - 1] > 0 && f != SMMA_E8M0 ? lo - t->val[lo_i - 1] : lo);
            if (f == SMMA_E4M3 || f == SMMA_UE4M3)
                hi = 480.0;
            chi = clo + 1;
            hi_virtual = 1;
        }
    }
    if (a == lo)
        return sgn(s, neg) | clo;
    if (hi_virtual && a >= hi) {
        up = cvt->round != SMMA_RZ && !(cvt->round == SMMA_RP && neg) &&
             !(cvt->round == SMMA_RM && !neg);
    } else {
        mid = (lo + hi) / 2;
        switch (cvt->round) {
        case SMMA_RN: up = a > mid || (a == mid && (chi & 1) == 0); break;
        case SMMA_RA: up = a >= mid; break;
        case SMMA_RZ: up = 0; break;
        case SMMA_RP: up = !neg; break;
        case SMMA_RM: up = neg; break;
        case SMMA_RS:
            up = ldexp((a - lo) / (hi - lo), 32) >= 4294967296.0 - (double) cvt->rbits;
            break;
        default: up = 0; break;
        }
    }
    if (!up)
        return sgn(s, neg) | clo;
    if (!hi_virtual)
        return sgn(s, neg) | chi;
    if (cvt->sat)
        return sgn(s, neg) | s->maxc;
    return ovf_code(f, s, neg);
}
