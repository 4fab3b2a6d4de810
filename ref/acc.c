/*
 * acc.c - the exact accumulator (see acc.h).
 */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <string.h>

#include "acc.h"

void
smma_acc_zero(smma_acc *a)
{
    memset(a->limb, 0, sizeof(a->limb));
}

void
smma_acc_add(smma_acc *a, uint64_t m, int e, bool neg)
{
    unsigned pos, li, sh, i;
    uint64_t lo, hi, t, u, c, c2;

    if (m == 0)
        return;
    pos = (unsigned) (e - SMMA_ACC_LSB);
    li = pos / 64;
    sh = pos % 64;
    lo = m << sh;
    hi = sh ? m >> (64 - sh) : 0;
    if (!neg) {
        t = a->limb[li] + lo;
        c = t < lo;
        a->limb[li] = t;
        t = a->limb[li + 1] + hi;
        c2 = t < hi;
        u = t + c;
        c2 |= u < t;
        a->limb[li + 1] = u;
        for (i = li + 2; c2 && i < SMMA_ACC_LIMBS; i++) {
            a->limb[i] += 1;
            c2 = a->limb[i] == 0;
        }
    } else {
        t = a->limb[li];
        c = t < lo;
        a->limb[li] = t - lo;
        t = a->limb[li + 1];
        c2 = t < hi;
        u = t - hi;
        c2 |= u < c;
        a->limb[li + 1] = u - c;
        for (i = li + 2; c2 && i < SMMA_ACC_LIMBS; i++) {
            c2 = a->limb[i] == 0;
            a->limb[i] -= 1;
        }
    }
}

bool
smma_acc_is_zero(const smma_acc *a)
{
    unsigned i;

    for (i = 0; i < SMMA_ACC_LIMBS; i++)
        if (a->limb[i] != 0)
            return false;
    return true;
}

bool
smma_acc_is_negative(const smma_acc *a)
{
    return (a->limb[SMMA_ACC_LIMBS - 1] >> 63) != 0;
}

/* The magnitude of a, in place of m. */
static void
magnitude(const smma_acc *a, smma_acc *m)
{
    unsigned i;
    uint64_t carry = 1;

    *m = *a;
    if (!smma_acc_is_negative(a))
        return;
    for (i = 0; i < SMMA_ACC_LIMBS; i++) {
        m->limb[i] = ~m->limb[i] + carry;
        carry = carry && m->limb[i] == 0;
    }
}

/* Index of the most significant set bit of a non-negative accumulator, or
 * -1 for zero. */
static int
top_bit(const smma_acc *m)
{
    int i;

    for (i = SMMA_ACC_LIMBS - 1; i >= 0; i--)
        if (m->limb[i] != 0) {
            int b = 63;

            while (((m->limb[i] >> b) & 1) == 0)
                b--;
            return i * 64 + b;
        }
    return -1;
}

/* Bits [lo, lo + n) of m (n <= 64); bits below 0 read as zero. */
static uint64_t
bits_at(const smma_acc *m, int lo, int n)
{
    uint64_t r = 0;
    int k;

    for (k = 0; k < n; k++) {
        int b = lo + k;

        if (b >= 0 && ((m->limb[b / 64] >> (b % 64)) & 1))
            r |= (uint64_t) 1 << k;
    }
    return r;
}

/* True when any bit of m below position b is set. */
static bool
any_below(const smma_acc *m, int b)
{
    int i;

    if (b <= 0)
        return false;
    for (i = 0; i < b / 64; i++)
        if (m->limb[i] != 0)
            return true;
    if (b % 64 != 0 && (m->limb[b / 64] & (((uint64_t) 1 << (b % 64)) - 1)) != 0)
        return true;
    return false;
}

int
smma_acc_msb(const smma_acc *a)
{
    smma_acc m;
    int t;

    magnitude(a, &m);
    t = top_bit(&m);
    return t < 0 ? INT_MIN : t + SMMA_ACC_LSB;
}

double
smma_acc_to_double_odd(const smma_acc *a)
{
    smma_acc m;
    int t, lo;
    uint64_t sig;
    double v;

    magnitude(a, &m);
    t = top_bit(&m);
    if (t < 0)
        return 0.0;
    lo = t - 52;
    sig = bits_at(&m, lo, 53);
    if (any_below(&m, lo))
        sig |= 1;
    v = ldexp((double) sig, lo + SMMA_ACC_LSB);
    return smma_acc_is_negative(a) ? -v : v;
}
