/*
 * encode.c - the one encoder: an exact double (or fp32 bits) to a code of any
 * format, under a rounding mode, a saturation choice and a profile.
 *
 * The value is taken apart into an integer significand and an exponent, and
 * rounding is done on integers, so no host floating-point rounding (and no
 * rounding-mode state) ever touches the result.
 */
#include <config.h>

#include <string.h>

#include <softmma/format.h>
#include <softmma/profile.h>

/* Code of a positive NaN: the one NaN (ALL_ONES formats), or with only the
 * quiet bit set (IEEE-style), or every bit set (canonical). */
static uint32_t
nan_magnitude(const smma_format_desc *d, bool canonical)
{
    uint32_t eones = (1u << d->exp_bits) - 1;

    if (d->nan == SMMA_NAN_ALL_ONES || canonical)
        return (eones << d->man_bits) | ((1u << d->man_bits) - 1);
    return (eones << d->man_bits) | (1u << (d->man_bits - 1));
}

static uint32_t
sign_bit(const smma_format_desc *d, unsigned sign)
{
    if (!d->has_sign || !sign)
        return 0;
    return (uint32_t) 1 << (d->bits - 1);
}

/* The code for a NaN input with double bits xb. */
static uint32_t
encode_nan(const smma_format_desc *d, uint64_t xb, const smma_profile *p)
{
    unsigned sign = (unsigned) (xb >> 63);

    if (d->nan == SMMA_NAN_NONE) {
        switch (p->nan_to_finite) {
        case SMMA_NANF_SIGNED_MAX:
            return sign_bit(d, sign) | d->max_code;
        case SMMA_NANF_FLIPPED_ZERO:
            return sign_bit(d, !sign);
        case SMMA_NANF_POS_ZERO:
            return 0;
        case SMMA_NANF_ONE_AND_HALF:
            /* 1.5 = 1.1b: the exponent field of 1 and the top mantissa bit. */
            return sign_bit(d, sign) | ((uint32_t) d->bias << d->man_bits) |
                   (1u << (d->man_bits - 1));
        case SMMA_NANF_POS_TWO:
            /* 2 = 1.0b * 2^1: the exponent field of 2, no mantissa. */
            return (uint32_t) (d->bias + 1) << d->man_bits;
        case SMMA_NANF_XLA:
            return d->bits == 4 ? sign_bit(d, 1) : 0;
        case SMMA_NANF_POS_MAX:
        default:
            return d->max_code;
        }
    }
    if (p->nan_out == SMMA_NANO_CANONICAL)
        return nan_magnitude(d, true);
    return sign_bit(d, sign) | nan_magnitude(d, false);
}

/* The code an overflow gives, before the rounding direction is considered. */
static uint32_t
overflow_value(const smma_format_desc *d, unsigned sign)
{
    if (d->inf == SMMA_INF_IEEE)
        return sign_bit(d, sign) | (((1u << d->exp_bits) - 1) << d->man_bits);
    if (d->nan != SMMA_NAN_NONE)
        return sign_bit(d, sign) | nan_magnitude(d, false);
    return sign_bit(d, sign) | d->max_code;
}

static uint32_t
encode_overflow(const smma_format_desc *d, unsigned sign, const smma_cvt *c)
{
    uint32_t maxv = sign_bit(d, sign) | d->max_code;

    if (c->sat)
        return maxv;
    switch (c->round) {
    case SMMA_RZ:
        return maxv;
    case SMMA_RP:
        return sign ? maxv : overflow_value(d, sign);
    case SMMA_RM:
        return sign ? overflow_value(d, sign) : maxv;
    default:
        return overflow_value(d, sign);
    }
}

static uint32_t
encode_inf(const smma_format_desc *d, unsigned sign, const smma_cvt *c, const smma_profile *p)
{
    if (d->inf == SMMA_INF_IEEE)
        return c->sat ? (sign_bit(d, sign) | d->max_code) : overflow_value(d, sign);
    if (d->nan != SMMA_NAN_NONE) {
        smma_inf_nonf rule = d->id == SMMA_E8M0 ? p->e8m0_inf : p->inf_nonf;

        if (rule == SMMA_INFN_NAN || !c->sat)
            return sign_bit(d, sign) | nan_magnitude(d, false);
        return sign_bit(d, sign) | d->max_code;
    }
    return sign_bit(d, sign) | d->max_code;
}

/* Decide whether the truncated magnitude rounds up.  rem is the discarded
 * part of the significand as a fraction of 2^shift, lsb the parity of the
 * truncated result. */
static unsigned
round_up(smma_round mode, unsigned sign, uint64_t m, int shift, unsigned lsb, uint32_t rbits)
{
    uint64_t rem, half;

    if (shift >= 64) {
        /* Everything is discarded and m < 2^53 <= 2^(shift-1): below half. */
        switch (mode) {
        case SMMA_RP:
            return !sign;
        case SMMA_RM:
            return sign;
        case SMMA_RS: {
            uint64_t fr = (shift - 32 >= 64) ? 0 : (m >> (shift - 32));

            return fr + rbits >= ((uint64_t) 1 << 32);
        }
        default:
            return 0;
        }
    }
    rem = m & ((((uint64_t) 1) << shift) - 1);
    half = ((uint64_t) 1) << (shift - 1);
    switch (mode) {
    case SMMA_RN:
        return rem > half || (rem == half && lsb);
    case SMMA_RA:
        return rem >= half;
    case SMMA_RZ:
        return 0;
    case SMMA_RP:
        return rem != 0 && !sign;
    case SMMA_RM:
        return rem != 0 && sign;
    case SMMA_RS: {
        uint64_t fr = shift <= 32 ? rem << (32 - shift) : rem >> (shift - 32);

        return fr + rbits >= ((uint64_t) 1 << 32);
    }
    default:
        return 0;
    }
}

/*
 * e8m0 rounded to nearest as ml_dtypes 0.6 does it (SMMA_E8RN_ML_DTYPES):
 * |x| = m * 2^(e - 52) with m's leading one at bit 52.  ml_dtypes rounds
 * the significand with its hidden bit to nearest even; the hidden bit of a
 * normal result is 1, so a tie rounds up.  Below 2^-126 it aligns as if
 * e8m0 had subnormals of step 2^-126 (0x00 standing for zero): exactly
 * 2^-127 is the tie between 0x00 and 0x01 and goes to the even 0x00, and
 * anything above it gives 0x01.  The exponent field and the rounded
 * significand (1 or 2) are added in 8 bits, so 2^128 * [1.5, 2), reachable
 * only from a double, wraps to 0x00 instead of overflowing.
 */
static uint32_t
e8m0_rn_ml_dtypes(const smma_format_desc *d, uint64_t m, int e, const smma_cvt *cvt)
{
    unsigned up = (unsigned) ((m >> 51) & 1);
    int code;

    if (e < -127)
        return 0x00;
    if (e == -127)
        return m > 0x0010000000000000ull ? 0x01 : 0x00;
    code = e + d->bias + (int) up;
    if (e == 128 && up)
        return 0x00;
    if (code > (int) d->max_code)
        return encode_overflow(d, 0, cvt);
    return (uint32_t) code;
}

/*
 * The encoder proper, on the bits xb of a double: every decision below is
 * made on integers, so that no host floating-point operation (and no
 * floating-point exception or rounding-mode state) is involved.  d is the
 * target's descriptor.
 */
static uint32_t
encode_bits(const smma_format_desc *d, uint64_t xb, const smma_cvt *cvt)
{
    const smma_profile *p = cvt->profile != NULL ? cvt->profile : smma_profile_cuda();
    uint64_t m, mag = xb & 0x7fffffffffffffffull;
    unsigned sign = (unsigned) (xb >> 63);
    int e, q, shift;
    unsigned lsb;
    uint64_t n;
    int64_t expf, magcode;

    if (mag > 0x7ff0000000000000ull)
        return encode_nan(d, xb, p);
    if (!d->has_sign && sign && mag != 0) {
        switch (p->neg_unsigned) {
        case SMMA_NEGU_NAN:
            return nan_magnitude(d, false);
        case SMMA_NEGU_MIN:
            return d->has_zero ? 0 : d->min_sub_code;
        case SMMA_NEGU_ABS:
        default:
            break;
        }
    }
    if (!d->has_sign)
        sign = 0;
    if (mag == 0x7ff0000000000000ull)
        return encode_inf(d, sign, cvt, p);
    if (mag == 0) {
        if (!d->has_zero)
            return p->e8m0_zero == SMMA_E8Z_NAN ? nan_magnitude(d, false) : d->min_sub_code;
        return sign_bit(d, sign);
    }

    /* |x| = m * 2^(e - 52), m with its leading one at bit 52. */
    m = xb & 0x000fffffffffffffull;
    e = (int) ((xb >> 52) & 0x7ff);
    if (e == 0) {
        e = -1022;
        while ((m & 0x0010000000000000ull) == 0) {
            m <<= 1;
            e--;
        }
    } else {
        m |= 0x0010000000000000ull;
        e -= 1023;
    }

    if (d->id == SMMA_E8M0 && cvt->round == SMMA_RN && p->e8m0_rn == SMMA_E8RN_ML_DTYPES)
        return e8m0_rn_ml_dtypes(d, m, e, cvt);

    /* Quantum 2^q of the target at this magnitude; shift bits are discarded. */
    q = (e > d->emin ? e : d->emin) - (int) d->man_bits;
    shift = q - (e - 52);
    if (shift >= 64)
        n = 0;
    else
        n = m >> shift;
    /* Ties to even look at the parity of the code: of the mantissa's last bit,
     * or, in a format without mantissa bits (e8m0), of the exponent field. */
    lsb = d->man_bits > 0 ? (unsigned) (n & 1) : (unsigned) ((q + d->bias) & 1);
    n += round_up(cvt->round, sign, m, shift, lsb, cvt->rbits);

    if (n == 0) {
        if (!d->has_zero)
            return d->min_sub_code;
        return sign_bit(d, sign);
    }
    if (n >> (d->man_bits + 1)) {
        n >>= 1;
        q++;
    }
    if ((n >> d->man_bits) == 0)
        expf = 0; /* subnormal: q is emin - man_bits */
    else {
        expf = (int64_t) q + d->man_bits + d->bias;
        n -= (uint64_t) 1 << d->man_bits;
    }
    magcode = (expf << d->man_bits) | (int64_t) n;
    if (magcode > (int64_t) d->max_code)
        return encode_overflow(d, sign, cvt);
    return sign_bit(d, sign) | (uint32_t) magcode;
}

/* encode_bits for format f, with the default conversion when cvt is NULL;
 * 0 for an unknown format. */
static uint32_t
encode_with(smma_format f, uint64_t xb, const smma_cvt *cvt)
{
    const smma_format_desc *d = smma_format_info(f);
    smma_cvt defc;

    if (d == NULL)
        return 0;
    if (cvt == NULL) {
        defc = smma_cvt_default();
        cvt = &defc;
    }
    return encode_bits(d, xb, cvt);
}

uint32_t
smma_encode(smma_format f, double x, const smma_cvt *cvt)
{
    return encode_with(f, smma_f64_bits(x), cvt);
}

uint32_t
smma_encode_f32bits(smma_format f, uint32_t bits, const smma_cvt *cvt)
{
    uint64_t db = (uint64_t) (bits >> 31) << 63;
    uint32_t ex = (bits >> 23) & 0xff, fr = bits & 0x7fffff;
    int e;

    /* The double of the same value (and a NaN with the same payload), built
     * from the bits: an fp32 subnormal becomes a normal double. */
    if (ex == 0xff) {
        db |= 0x7ff0000000000000ull | ((uint64_t) fr << 29);
    } else if (ex != 0) {
        db |= ((uint64_t) (ex - 127 + 1023) << 52) | ((uint64_t) fr << 29);
    } else if (fr != 0) {
        for (e = -126; (fr & 0x800000u) == 0; e--)
            fr <<= 1;
        db |= ((uint64_t) (e + 1023) << 52) | ((uint64_t) (fr & 0x7fffffu) << 29);
    }
    return encode_with(f, db, cvt);
}

smma_cvt
smma_cvt_default(void)
{
    return smma_profile_cvt(smma_profile_cuda());
}
