/*
 * dot.c - one block-scaled dot product under a numerics model (see
 * softmma/gemm.h for the models' definitions).
 *
 * Every operand is first taken apart into a "factor": class (zero, finite,
 * Inf, NaN), sign, an integer significand with a number of fraction bits,
 * and an exponent, so that value = sig * 2^(exp - fbits).  Products multiply
 * significands and add exponents; nothing is ever rounded by the host's
 * floating-point unit except where a model says so, and then through the
 * codec's encoder.
 */
#include <config.h>

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/gemm.h>
#include <softmma/profile.h>

#include "acc.h"

enum { F_ZERO = 0, F_FINITE, F_INF, F_NAN };

typedef struct factor {
    int cls;
    unsigned sign;
    uint64_t sig;   /* significand as an integer */
    int fbits;      /* its fraction bits */
    int exp;        /* the exponent of its leading position: value = sig * 2^(exp - fbits) */
} factor;

/* Splits a code of format f into a factor.  A subnormal keeps the format's
 * emin as its exponent and a significand below 1. */
static factor
split_code_slow(smma_format f, uint32_t code)
{
    const smma_format_desc *d = smma_format_info(f);
    factor r;
    unsigned magbits = d->has_sign ? d->bits - 1 : d->bits;
    uint32_t eones = (1u << d->exp_bits) - 1, mones = (1u << d->man_bits) - 1;
    uint32_t mag, e, m;

    r.sign = d->has_sign ? (code >> magbits) & 1 : 0;
    mag = magbits == 32 ? code : code & ((1u << magbits) - 1);
    e = (mag >> d->man_bits) & eones;
    m = mag & mones;
    r.fbits = (int) d->man_bits;
    r.sig = 0;
    r.exp = 0;
    if (e == eones && ((d->nan == SMMA_NAN_IEEE && m != 0) ||
                       (d->nan == SMMA_NAN_ALL_ONES && m == mones))) {
        r.cls = F_NAN;
        return r;
    }
    if (e == eones && d->inf == SMMA_INF_IEEE) {
        r.cls = F_INF;
        return r;
    }
    if (e == 0 && d->has_subnormals) {
        if (m == 0) {
            r.cls = F_ZERO;
            return r;
        }
        r.sig = m;
        r.exp = d->emin;
    } else {
        r.sig = m | ((uint64_t) 1 << d->man_bits);
        r.exp = (int) e - d->bias;
    }
    r.cls = F_FINITE;
    return r;
}

/*
 * Factor tables for every format of at most 16 bits, built once (the first
 * dot product builds them under pthread_once; they are read-only after).
 */
static factor *factor_tab[SMMA_FORMAT_COUNT];
/* The same codes split as the fp16 number of equal value (upcast_f16), for
 * formats of at most 8 bits (fp16 itself uses factor_tab). */
static factor *factor_f16_tab[SMMA_FORMAT_COUNT];
static pthread_once_t factor_once = PTHREAD_ONCE_INIT;

static uint32_t round_to(smma_format f, double v, smma_round r);

static void
build_factor_tables(void)
{
    int f;

    for (f = 0; f < SMMA_FORMAT_COUNT; f++) {
        const smma_format_desc *d = smma_format_info((smma_format) f);
        uint32_t n, c;

        if (d->storage_bits > 16)
            continue;
        n = 1u << d->storage_bits;
        factor_tab[f] = malloc(n * sizeof(factor));
        if (factor_tab[f] == NULL)
            continue; /* split_code falls back to computing */
        for (c = 0; c < n; c++)
            factor_tab[f][c] = split_code_slow((smma_format) f, c);
        if (d->storage_bits > 8 || (factor_f16_tab[f] = malloc(n * sizeof(factor))) == NULL)
            continue;
        for (c = 0; c < n; c++)
            factor_f16_tab[f][c] = split_code_slow(
                SMMA_FP16, round_to(SMMA_FP16, smma_decode((smma_format) f, c), SMMA_RN));
    }
}

static inline factor
split_code(smma_format f, uint32_t code)
{
    const factor *t = factor_tab[f];

    if (t != NULL && (code >> 16) == 0 &&
        (code >> smma_format_info(f)->storage_bits) == 0)
        return t[code];
    return split_code_slow(f, code);
}

/* A code of format f split as the fp16 number of the same value (the model
 * checks that f fits in fp16). */
static inline factor
split_as_f16(smma_format f, uint32_t code)
{
    const factor *t = factor_f16_tab[f];

    if (f == SMMA_FP16)
        return split_code(f, code);
    if (t != NULL && code < 256)
        return t[code];
    return split_code_slow(SMMA_FP16,
                           round_to(SMMA_FP16, smma_decode(f, code), SMMA_RN));
}

/* The product of n factors: class rules for NaN, Inf and zero, then exact
 * significand product (at most 63 bits for the formats softmma models). */
static inline factor
product(const factor *f, int n)
{
    factor r;
    int i, nan = 0, inf = 0, zero = 0;

    if (n == 2 && f[0].cls == F_FINITE && f[1].cls == F_FINITE) {
        r.cls = F_FINITE;
        r.sign = f[0].sign ^ f[1].sign;
        r.sig = f[0].sig * f[1].sig;
        r.fbits = f[0].fbits + f[1].fbits;
        r.exp = f[0].exp + f[1].exp;
        return r;
    }
    if (n == 4 && f[0].cls == F_FINITE && f[1].cls == F_FINITE && f[2].cls == F_FINITE &&
        f[3].cls == F_FINITE) {
        r.cls = F_FINITE;
        r.sign = f[0].sign ^ f[1].sign ^ f[2].sign ^ f[3].sign;
        r.sig = f[0].sig * f[1].sig * f[2].sig * f[3].sig;
        r.fbits = f[0].fbits + f[1].fbits + f[2].fbits + f[3].fbits;
        r.exp = f[0].exp + f[1].exp + f[2].exp + f[3].exp;
        return r;
    }

    memset(&r, 0, sizeof(r));
    r.sig = 1;
    for (i = 0; i < n; i++) {
        r.sign ^= f[i].sign;
        nan |= f[i].cls == F_NAN;
        inf |= f[i].cls == F_INF;
        zero |= f[i].cls == F_ZERO;
        if (f[i].cls == F_FINITE) {
            r.sig *= f[i].sig;
            r.fbits += f[i].fbits;
            r.exp += f[i].exp;
        }
    }
    if (nan || (inf && zero))
        r.cls = F_NAN;
    else if (inf)
        r.cls = F_INF;
    else if (zero)
        r.cls = F_ZERO;
    else
        r.cls = F_FINITE;
    return r;
}

/* The number of significant bits of x (x > 0). */
static inline int
bitlen64(uint64_t x)
{
#if defined(__GNUC__)
    return 64 - __builtin_clzll(x);
#else
    int n = 0;

    while (x != 0) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* Special-value bookkeeping shared by all models. */
typedef struct specials {
    int nan, pinf, ninf;
} specials;

static void
note(specials *sp, const factor *p)
{
    if (p->cls == F_NAN)
        sp->nan = 1;
    else if (p->cls == F_INF) {
        if (p->sign)
            sp->ninf = 1;
        else
            sp->pinf = 1;
    }
}

/* The result code for a special outcome in format f, or 0xffffffff when
 * the outcome is finite. */
static uint32_t
special_code(const specials *sp, smma_format f)
{
    const smma_format_desc *d = smma_format_info(f);
    uint32_t inf = ((1u << d->exp_bits) - 1) << d->man_bits;

    if (sp->nan || (sp->pinf && sp->ninf))
        return inf | ((1u << d->man_bits) - 1); /* canonical NaN */
    if (sp->pinf)
        return inf;
    if (sp->ninf)
        return inf | (1u << (d->bits - 1));
    return 0xffffffffu;
}

/* Rounds a double to format f without saturation (IEEE overflow rules).
 * Normal results of RN and RZ are rounded here on the double's bits (the
 * common case, and the same result the encoder gives); everything else goes
 * through the encoder. */
static uint32_t
round_to(smma_format f, double v, smma_round r)
{
    const smma_format_desc *d = smma_format_info(f);
    smma_cvt c;
    uint64_t bits = smma_f64_bits(v);
    int e = (int) ((bits >> 52) & 0x7ff) - 1023;

    if ((r == SMMA_RN || r == SMMA_RZ) && d->has_sign && e >= d->emin && e <= d->emax) {
        unsigned drop = 52 - d->man_bits;
        uint64_t mant = bits & 0x000fffffffffffffull;
        uint64_t keep = mant >> drop, rem = mant & ((((uint64_t) 1) << drop) - 1);
        uint64_t half = ((uint64_t) 1) << (drop - 1);
        uint64_t code;

        if (r == SMMA_RN && (rem > half || (rem == half && (keep & 1))))
            keep++;
        code = ((uint64_t) (e + d->bias) << d->man_bits) + keep; /* a carry moves into e */
        if (code <= d->max_code)
            return (uint32_t) code | (uint32_t) ((bits >> 63) << (d->bits - 1));
    }

    c.round = r;
    c.sat = false;
    c.rbits = 0;
    c.profile = smma_profile_cuda();
    return smma_encode(f, v, &c);
}

/* The scale factor of block kb for one side, or a "one" factor. */
static factor
scale_factor(const smma_gemm_shape *s, const uint32_t *sc, size_t kb)
{
    factor one;

    if (s->scale_fmt == SMMA_NONE || sc == NULL) {
        memset(&one, 0, sizeof(one));
        one.cls = F_FINITE;
        one.sig = 1;
        return one;
    }
    return split_code(s->scale_fmt, sc[kb]);
}

/* The exact value of a finite factor as a double (exact: at most 63
 * significant bits are never needed here, products below 2^53 are). */
static inline double
factor_value(const factor *p)
{
    double v;

    if (p->cls == F_ZERO)
        return p->sign ? -0.0 : 0.0;
    if (p->cls == F_INF)
        return p->sign ? -HUGE_VAL : HUGE_VAL;
    if (p->cls == F_NAN)
        return NAN;
    {
        int e = p->exp - p->fbits;

        /* 2^e built from its bits when it is a normal double (always, for
         * the operands softmma models: |e| < 700). */
        if (e > -1022 && e < 1023)
            v = (double) p->sig * smma_f64_from_bits((uint64_t) (e + 1023) << 52);
        else
            v = ldexp((double) p->sig, e);
    }
    return p->sign ? -v : v;
}

/* ---- the epilogue: alpha ------------------------------------------------- */

/* alpha as a factor: the fp32 code of the shape's alpha, or exactly 1 when
 * the shape has none. */
static factor
alpha_factor(const smma_gemm_shape *s)
{
    factor one;

    if (s->has_alpha)
        return split_code(SMMA_FP32, s->alpha);
    memset(&one, 0, sizeof(one));
    one.cls = F_FINITE;
    one.sig = 1;
    return one;
}

/* The code of NaN, or of an infinity or a zero of the given sign, in D's
 * format. */
static uint32_t
d_code(const smma_gemm_shape *s, int cls, unsigned sign)
{
    specials sp = { cls == F_NAN, cls == F_INF && !sign, cls == F_INF && sign };

    if (cls == F_ZERO)
        return sign ? 1u << (smma_format_info(s->d_fmt)->bits - 1) : 0;
    return special_code(&sp, s->d_fmt);
}

/* The fp32 epilogue of the models that accumulate in fp32: acc becomes
 * rn_fp32(alpha * acc), one IEEE multiplication (a NaN result is the
 * canonical 0x7fffffff).  The product of two fp32 numbers is exact in a
 * double, so the one rounding is round_to's. */
static uint32_t
epilogue_f32(const smma_gemm_shape *s, uint32_t acc)
{
    double p;

    if (!s->has_alpha)
        return acc;
    p = (double) smma_f32_from_bits(s->alpha) * (double) smma_f32_from_bits(acc);
    if (isnan(p))
        return 0x7fffffffu;
    return round_to(SMMA_FP32, p, SMMA_RN);
}

/* The fp32 result of a model that accumulates in fp32 as D: itself, or
 * rounded to nearest bf16/fp16 (a NaN gives the canonical 0x7fff). */
static uint32_t
to_output(const smma_gemm_shape *s, uint32_t f32)
{
    if (s->d_fmt == SMMA_FP32)
        return f32;
    if ((f32 & 0x7fffffffu) > 0x7f800000u)
        return 0x7fffu;
    return round_to(s->d_fmt, smma_f32_from_bits(f32), SMMA_RN);
}

/* ---- exact ---------------------------------------------------------------- */

/* The exact value alpha * v rounded once to D in the model's direction, for
 * the non-zero v held in acc (which this empties) and a finite non-zero
 * alpha = asig * 2^ae.  v is taken apart into pieces of at most 52
 * significant bits (each the value truncated toward zero, read off its
 * round-to-odd double with the sticky bit cleared); each piece times asig
 * goes exactly into a second accumulator in two halves of at most 51 bits.
 * The round-to-odd double of that product, scaled by 2^ae (a normal double
 * either way), rounds like the exact alpha * v. */
static uint32_t
exact_times_alpha(const smma_model *model, const smma_gemm_shape *s, smma_acc *acc,
                  const factor *al)
{
    smma_acc prod;
    double v;

    smma_acc_zero(&prod);
    while (!smma_acc_is_zero(acc)) {
        uint64_t bits = smma_f64_bits(smma_acc_to_double_odd(acc)) & ~(uint64_t) 1;
        uint64_t mant = (bits & 0x000fffffffffffffull) | ((uint64_t) 1 << 52);
        int e = (int) ((bits >> 52) & 0x7ff) - 1075;
        bool neg = (bits >> 63) != 0;

        /* The piece's bits are bits of the accumulator: with its trailing
         * zeros gone its exponent is within the accumulator's range. */
        while ((mant & 1) == 0) {
            mant >>= 1;
            e++;
        }
        smma_acc_add(acc, mant, e, !neg);
        smma_acc_add(&prod, (mant >> 26) * al->sig, e + 26, neg != (al->sign != 0));
        smma_acc_add(&prod, (mant & ((1u << 26) - 1)) * al->sig, e, neg != (al->sign != 0));
    }
    v = smma_acc_to_double_odd(&prod);
    return round_to(s->d_fmt, ldexp(v, al->exp - al->fbits), model->round);
}

/* D for the exact non-zero finite value in acc (emptied): rounded once,
 * times alpha when the shape has one (alpha NaN gives NaN, an infinite
 * alpha an infinity, a zero alpha a zero, each with the product's sign). */
static uint32_t
exact_finite(const smma_model *model, const smma_gemm_shape *s, smma_acc *acc)
{
    factor al;
    unsigned sign;

    if (!s->has_alpha)
        return round_to(s->d_fmt, smma_acc_to_double_odd(acc), model->round);
    al = alpha_factor(s);
    sign = (smma_acc_is_negative(acc) ? 1u : 0u) ^ al.sign;
    if (al.cls != F_FINITE)
        return d_code(s, al.cls, sign);
    return exact_times_alpha(model, s, acc, &al);
}

/*
 * The fast path of the exact model, for element formats of at most 8 bits:
 * each element is an integer multiple of its format's smallest subnormal
 * 2^(emin - man_bits), so a block's products sum exactly in an integer
 * (128 bits where the compiler has them, else 64 bits when they fit), and
 * the block sum times the two scales goes into the accumulator once.  Any
 * NaN or Inf, or an exact zero total (whose sign needs every term), sends
 * the dot product to the general path.
 */
struct narrow {
    unsigned man_bits, sign_shift, exp_mask, nan_kind;
    int lsb;    /* exponent of the smallest subnormal */
    unsigned max_bits; /* bits of the largest integer magnitude */
};

static bool
narrow_info(smma_format f, struct narrow *n)
{
    const smma_format_desc *d = smma_format_info(f);
    uint64_t top;

    if (d->storage_bits > 8 || !d->has_sign)
        return false;
    n->man_bits = d->man_bits;
    n->sign_shift = d->bits - 1;
    n->exp_mask = (1u << d->exp_bits) - 1;
    n->nan_kind = d->inf == SMMA_INF_IEEE ? 2 : d->nan == SMMA_NAN_ALL_ONES ? 1 : 0;
    n->lsb = d->emin - (int) d->man_bits;
    top = (uint64_t) ((d->max_code & ((1u << d->man_bits) - 1)) | (1u << d->man_bits))
          << ((d->max_code >> d->man_bits) - 1);
    n->max_bits = 0;
    while ((top >> n->max_bits) != 0)
        n->max_bits++;
    return true;
}

/* The signed integer value of a narrow code in units of 2^lsb; *special is
 * set for NaN and Inf codes. */
static inline int64_t
narrow_value(const struct narrow *n, uint32_t c, unsigned *special)
{
    uint32_t e = (c >> n->man_bits) & n->exp_mask;
    uint32_t m = c & ((1u << n->man_bits) - 1);
    int64_t v;

    if (n->nan_kind == 2 && e == n->exp_mask)
        *special = 1;
    else if (n->nan_kind == 1 && e == n->exp_mask && m == (1u << n->man_bits) - 1)
        *special = 1;
    v = e == 0 ? (int64_t) m : (int64_t) (m | (1u << n->man_bits)) << (e - 1);
    return ((c >> n->sign_shift) & 1) ? -v : v;
}

#if defined(__SIZEOF_INT128__)
typedef __int128 wide_int;
typedef unsigned __int128 wide_uint;
#define WIDE_BITS 126
#else
typedef int64_t wide_int;
typedef uint64_t wide_uint;
#define WIDE_BITS 62
#endif

/* Adds a signed wide integer times 2^e to the accumulator. */
static void
acc_add_wide(smma_acc *acc, wide_int v, int e)
{
    wide_uint mag = v < 0 ? (wide_uint) 0 - (wide_uint) v : (wide_uint) v;
    bool neg = v < 0;

    while (mag != 0) {
        smma_acc_add(acc, (uint64_t) (mag & (((uint64_t) 1 << 62) - 1)), e, neg);
        mag >>= 31;
        mag >>= 31;
        e += 62;
    }
}

/* Returns false when the fast path does not apply or met a special value. */
static bool
dot_exact_fast(const smma_model *model, const smma_gemm_shape *s, const uint32_t *a,
               const uint32_t *b, const uint32_t *sa, const uint32_t *sb, uint32_t c,
               uint32_t *out)
{
    struct narrow na, nb;
    smma_acc acc;
    size_t k0, block = s->scale_fmt == SMMA_NONE ? s->k : s->vec;
    unsigned special = 0, sbits = s->scale_fmt == SMMA_UE4M3 ? 8 : 0, lg = 0;

    if (!narrow_info(s->a_fmt, &na) || !narrow_info(s->b_fmt, &nb))
        return false;
    while (((size_t) 1 << lg) < block)
        lg++;
    if (na.max_bits + nb.max_bits + lg + sbits + 1 > WIDE_BITS)
        return false;
    smma_acc_zero(&acc);
    for (k0 = 0; k0 < s->k; k0 += block) {
        size_t k1 = k0 + block < s->k ? k0 + block : s->k, k;
        wide_int sum = 0;
        factor fs[2], ps;

        for (k = k0; k < k1; k++)
            sum += (wide_int) narrow_value(&na, a[k], &special) *
                   narrow_value(&nb, b[k], &special);
        if (special)
            return false;
        if (sum == 0)
            continue;
        fs[0] = scale_factor(s, sa, k0 / block);
        fs[1] = scale_factor(s, sb, k0 / block);
        ps = product(fs, 2);
        if (ps.cls == F_NAN)
            return false;
        if (ps.cls == F_ZERO)
            continue;
        acc_add_wide(&acc, sum * (wide_int) ps.sig, na.lsb + nb.lsb + ps.exp - ps.fbits);
    }
    if (s->c_fmt != SMMA_NONE) {
        factor fc = split_code(s->c_fmt, c);

        if (fc.cls == F_NAN || fc.cls == F_INF)
            return false;
        if (fc.cls == F_FINITE)
            smma_acc_add(&acc, fc.sig, fc.exp - fc.fbits, fc.sign);
    }
    if (smma_acc_is_zero(&acc))
        return false;
    *out = exact_finite(model, s, &acc);
    return true;
}

static uint32_t
dot_exact(const smma_model *model, const smma_gemm_shape *s, const uint32_t *a,
          const uint32_t *b, const uint32_t *sa, const uint32_t *sb, uint32_t c)
{
    smma_acc acc;
    specials sp = { 0, 0, 0 };
    size_t k;
    int nterms = 0, nneg_zero = 0, nonzero = 0;
    uint32_t code;
    factor al;

    if (dot_exact_fast(model, s, a, b, sa, sb, c, &code))
        return code;
    smma_acc_zero(&acc);
    /* An absent C is a +0 term, as in every other model. */
    {
        factor fc = split_code(s->c_fmt == SMMA_NONE ? SMMA_FP32 : s->c_fmt,
                               s->c_fmt == SMMA_NONE ? 0 : c);

        note(&sp, &fc);
        nterms++;
        if (fc.cls == F_FINITE) {
            smma_acc_add(&acc, fc.sig, fc.exp - fc.fbits, fc.sign);
            nonzero = 1;
        } else if (fc.cls == F_ZERO && fc.sign)
            nneg_zero++;
    }
    for (k = 0; k < s->k; k++) {
        factor f[4], p;
        size_t kb = s->scale_fmt == SMMA_NONE ? 0 : k / s->vec;

        f[0] = split_code(s->a_fmt, a[k]);
        f[1] = scale_factor(s, sa, kb);
        f[2] = split_code(s->b_fmt, b[k]);
        f[3] = scale_factor(s, sb, kb);
        p = product(f, 4);
        note(&sp, &p);
        nterms++;
        if (p.cls == F_FINITE) {
            smma_acc_add(&acc, p.sig, p.exp - p.fbits, p.sign);
            nonzero = 1;
        } else if (p.cls == F_ZERO && p.sign)
            nneg_zero++;
    }
    al = alpha_factor(s);
    if (al.cls == F_NAN)
        return d_code(s, F_NAN, 0);
    if (sp.nan || (sp.pinf && sp.ninf))
        return d_code(s, F_NAN, 0);
    if (sp.pinf || sp.ninf)     /* an infinite sum times alpha */
        return d_code(s, al.cls == F_ZERO ? F_NAN : F_INF, (unsigned) sp.ninf ^ al.sign);
    if (smma_acc_is_zero(&acc)) {
        unsigned neg;

        if (!nonzero)
            neg = (nterms > 0 && nneg_zero == nterms) ||
                  (model->round == SMMA_RM && nneg_zero > 0);
        else
            neg = model->round == SMMA_RM;
        /* alpha times a zero sum: NaN for an infinite alpha, else a zero. */
        return d_code(s, al.cls == F_INF ? F_NAN : F_ZERO, neg ^ al.sign);
    }
    return exact_finite(model, s, &acc);
}

/* The value of a product rounded to nearest in format f (fp32 or bf16),
 * without the encoder when the product is a normal number of at most prec
 * significant bits (then it is exact). */
static double
rounded_value(const factor *p, smma_format f, int prec, int emin, int emax)
{
    if (p->cls == F_FINITE && p->sig < ((uint64_t) 1 << prec)) {
        int len = bitlen64(p->sig);
        int msb = p->exp - p->fbits + len - 1;

        if (msb >= emin && msb <= emax)
            return factor_value(p);
    }
    if (f == SMMA_FP32)
        return smma_f32_from_bits(round_to(SMMA_FP32, factor_value(p), SMMA_RN));
    return smma_decode(SMMA_BF16, round_to(SMMA_BF16, factor_value(p), SMMA_RN));
}

/* ---- fp32 fma, sequential -------------------------------------------------- */

/* fp32(x * y + z) rounded to nearest, for fp32 x, y, z (as doubles): the
 * product is exact in double, the sum is made exact with TwoSum, and the
 * pair is reduced to one double by round-to-odd before the one rounding. */
static double
fma_f32(double x, double y, double z)
{
    double p = x * y, s = p + z, bp = s - z, e = (p - bp) + (z - (s - bp));
    double lo, hi, v;
    uint64_t bits;

    if (!isfinite(s) || e == 0)
        v = s;
    else {
        /* The exact value lies strictly between s and its neighbour toward e. */
        /* s is finite and non-zero (e != 0); stepping its bits by one moves
         * its magnitude by one ulp. */
        bits = smma_f64_bits(s);
        if ((e > 0) != (s > 0))
            bits--; /* toward zero */
        lo = smma_f64_from_bits(bits);
        hi = smma_f64_from_bits(bits + 1); /* away from zero */
        v = (bits & 1) ? lo : hi;
    }
    return smma_f32_from_bits(round_to(SMMA_FP32, v, SMMA_RN));
}

static uint32_t
dot_fma_seq(const smma_gemm_shape *s, const uint32_t *a, const uint32_t *b,
            const uint32_t *sa, const uint32_t *sb, uint32_t c)
{
    double acc = 0.0;
    size_t k;

    if (s->c_fmt != SMMA_NONE)
        acc = smma_decode(s->c_fmt, c); /* exact in fp32 */
    for (k = 0; k < s->k; k++) {
        size_t kb = s->scale_fmt == SMMA_NONE ? 0 : k / s->vec;
        factor fa[2], fb[2], pa, pb;
        double x, y;

        fa[0] = split_code(s->a_fmt, a[k]);
        fa[1] = scale_factor(s, sa, kb);
        fb[0] = split_code(s->b_fmt, b[k]);
        fb[1] = scale_factor(s, sb, kb);
        pa = product(fa, 2);
        pb = product(fb, 2);
        x = rounded_value(&pa, SMMA_FP32, 24, -126, 127);
        y = rounded_value(&pb, SMMA_FP32, 24, -126, 127);
        if (isnan(x) || isnan(y) || isnan(acc) || (isinf(x) && y == 0) ||
            (isinf(y) && x == 0) || (isinf(acc) && isinf(x * y) && (acc > 0) != (x * y > 0)))
            acc = NAN;
        else if (isinf(x) || isinf(y))
            acc = acc + x * y;
        else
            acc = fma_f32(x, y, acc);
    }
    if (isnan(acc))
        return d_code(s, F_NAN, 0);
    return to_output(s, epilogue_f32(s, smma_f32_bits((float) acc)));  /* acc is an fp32 */
}

/* ---- block FMA ------------------------------------------------------------- */

/* Steps 1 to 3 of the block-FMA model for the products p[0..n) and c (a
 * factor): the special values met, and the aligned integer sum, whose last
 * bit weighs 2^(emax - 23 - neab). */
struct aligned {
    specials sp;
    int any;            /* c or a product is finite and non-zero */
    int all_neg_zero;   /* c and every product are -0 */
    int64_t sum;
    int emax;
    int dropped;        /* alignment dropped a non-zero bit */
};

static void
align_block(const smma_model *m, const factor *p, size_t n, const factor *fc,
            struct aligned *al)
{
    size_t i;

    al->sp.nan = al->sp.pinf = al->sp.ninf = 0;
    al->any = 0;
    al->sum = 0;
    al->dropped = 0;
    al->emax = m->floor;
    al->all_neg_zero = fc->cls == F_ZERO && fc->sign;
    note(&al->sp, fc);
    for (i = 0; i < n; i++) {
        note(&al->sp, &p[i]);
        if (!(p[i].cls == F_ZERO && p[i].sign))
            al->all_neg_zero = 0;
    }
    if (al->sp.nan || al->sp.pinf || al->sp.ninf)
        return;
    /* Exponents: c's and every non-zero product's. */
    for (i = 0; i <= n; i++) {
        const factor *t = i < n ? &p[i] : fc;

        if (t->cls == F_FINITE) {
            al->emax = t->exp > al->emax ? t->exp : al->emax;
            al->any = 1;
        }
    }
    for (i = 0; al->any && i <= n; i++) {
        const factor *t = i < n ? &p[i] : fc;
        uint64_t v, w;
        int sh;

        if (t->cls != F_FINITE)
            continue;
        /* As an integer with 23 fraction bits, then neab, then alignment.
         * (smma_model_check keeps fbits <= 23; the guard keeps this defined.) */
        v = t->fbits <= 23 ? t->sig << (23 - t->fbits) : t->sig >> (t->fbits - 23);
        if (m->neab >= 0) {
            v <<= m->neab;
        } else {
            w = v >> -m->neab;
            al->dropped |= (w << -m->neab) != v;
            v = w;
        }
        sh = al->emax - t->exp;
        w = sh >= 64 ? 0 : v >> sh;
        al->dropped |= sh >= 64 ? v != 0 : (w << sh) != v;
        al->sum += t->sign ? -(int64_t) w : (int64_t) w;
    }
}

/* The result in format f of a block that needs no rounding: a special
 * value, no non-zero term (-0 when every term is -0, unless the model's
 * zero_plus says +0), or a zero sum (+0).  Returns false when the sum must
 * be rounded. */
static bool
block_settled(const smma_model *m, const struct aligned *al, smma_format f, uint32_t *code)
{
    *code = special_code(&al->sp, f);
    if (*code != 0xffffffffu)
        return true;
    *code = !al->any && al->all_neg_zero && !m->zero_plus
            ? 1u << (smma_format_info(f)->bits - 1) : 0;
    return !al->any || al->sum == 0;
}

/* One block of the block-FMA model: products p[0..n) and c (fp32 bits).
 * Returns the fp32 bits of the result. */
static uint32_t
block_fma(const smma_model *m, const factor *p, size_t n, uint32_t c)
{
    factor fc = split_code(SMMA_FP32, c);
    struct aligned al;
    uint32_t code;
    int prec;

    align_block(m, p, n, &fc, &al);
    if (block_settled(m, &al, SMMA_FP32, &code))
        return code;
    /* The sum times 2^(emax - 23 - neab), to fp32 with prec significant bits. */
    prec = m->neab < 0 ? 24 + m->neab : 24;
    {
        uint64_t mag = al.sum < 0 ? (uint64_t) -al.sum : (uint64_t) al.sum;
        int top = 63;

        while (((mag >> top) & 1) == 0)
            top--;
        if (top + 1 > prec) {
            int drop = top + 1 - prec;
            uint64_t rem = mag & (((uint64_t) 1 << drop) - 1);
            uint64_t half = (uint64_t) 1 << (drop - 1);

            mag >>= drop;
            if (m->round == SMMA_RN && (rem > half || (rem == half && (mag & 1))))
                mag++;
            mag <<= drop;
        }
        /* A block result past fp32's range is +-Inf, whatever the rounding
         * direction: observed on an H100 (mma.sync bf16: finite products
         * whose sum overflows give Inf, not the largest finite value that a
         * rounding toward zero would give). */
        if (ldexp((double) mag, al.emax - 23 - m->neab) >= 0x1p128)
            return al.sum < 0 ? 0xff800000u : 0x7f800000u;
        return round_to(SMMA_FP32,
                        ldexp((double) mag, al.emax - 23 - m->neab) * (al.sum < 0 ? -1 : 1),
                        m->round);
    }
}

/* One block of a block-FMA model with an fp16 accumulator (f16_acc other
 * than SMMA_F16ACC_VIA_FP32): c is fp16 bits and split as an fp16, and the
 * aligned sum goes to fp16 in one rounding.  Returns the fp16 bits. */
static uint32_t
block_fma_f16(const smma_model *m, const factor *p, size_t n, uint32_t c)
{
    factor fc = split_code(SMMA_FP16, c);
    struct aligned al;
    uint32_t code;
    double v;
    int e;

    align_block(m, p, n, &fc, &al);
    if (block_settled(m, &al, SMMA_FP16, &code))
        return code;
    /* |sum| < 2^53, so the value and, with the sticky half bit, twice the
     * sum plus one are exact doubles. */
    e = al.emax - 23 - m->neab;
    if (m->f16_acc == SMMA_F16ACC_RN_STICKY && al.dropped)
        v = ldexp((double) (2 * al.sum + (al.sum < 0 ? -1 : 1)), e - 1);
    else
        v = ldexp((double) al.sum, e);
    code = round_to(SMMA_FP16, v, m->f16_acc == SMMA_F16ACC_RZ ? SMMA_RZ : SMMA_RN);
    /* A non-zero sum that rounds to zero is +0 whatever its sign (an H100:
     * 16 of 100,000 random cases, each a tiny negative C + sum giving +0). */
    return (code & 0x7fffu) == 0 ? 0 : code;
}

/* One block with exact alignment (neab = SMMA_NEAB_EXACT): the exact sum of
 * c and the products, rounded once to fp32 in the model's direction. */
static uint32_t
block_exact(const smma_model *m, const factor *p, size_t n, uint32_t c)
{
    factor fc = split_code(SMMA_FP32, c);
    specials sp = { 0, 0, 0 };
    smma_acc acc;
    size_t i;
    uint32_t code;
    int all_neg_zero = fc.cls == F_ZERO && fc.sign, any = 0;

    smma_acc_zero(&acc);
    note(&sp, &fc);
    if (fc.cls == F_FINITE) {
        smma_acc_add(&acc, fc.sig, fc.exp - fc.fbits, fc.sign);
        any = 1;
    }
    for (i = 0; i < n; i++) {
        note(&sp, &p[i]);
        if (!(p[i].cls == F_ZERO && p[i].sign))
            all_neg_zero = 0;
        if (p[i].cls == F_FINITE) {
            smma_acc_add(&acc, p[i].sig, p[i].exp - p[i].fbits, p[i].sign);
            any = 1;
        }
    }
    code = special_code(&sp, SMMA_FP32);
    if (code != 0xffffffffu)
        return code;
    if (!any)
        return all_neg_zero ? 0x80000000u : 0;
    if (smma_acc_is_zero(&acc))
        return 0;
    return round_to(SMMA_FP32, smma_acc_to_double_odd(&acc), m->round);
}

/* One exact block with its products apart (psum_apart, b200-fp8-trunc):
 * the products' exact sum rounded to fp32 in direction psum_round, then
 * that fp32 and c added with one rounding in the model's direction. */
static uint32_t
block_exact_apart(const smma_model *m, const factor *p, size_t n, uint32_t c)
{
    factor fc = split_code(SMMA_FP32, c), fs;
    specials sp = { 0, 0, 0 };
    smma_acc acc;
    size_t i;
    uint32_t code, psum;
    int all_neg_zero = 1;

    smma_acc_zero(&acc);
    note(&sp, &fc);
    for (i = 0; i < n; i++) {
        note(&sp, &p[i]);
        if (!(p[i].cls == F_ZERO && p[i].sign))
            all_neg_zero = 0;
        if (p[i].cls == F_FINITE)
            smma_acc_add(&acc, p[i].sig, p[i].exp - p[i].fbits, p[i].sign);
    }
    code = special_code(&sp, SMMA_FP32);
    if (code != 0xffffffffu)
        return code;
    /* An exact zero sum is -0 only when every product is -0. */
    if (smma_acc_is_zero(&acc))
        psum = n > 0 && all_neg_zero ? 0x80000000u : 0;
    else
        psum = round_to(SMMA_FP32, smma_acc_to_double_odd(&acc), m->psum_round);
    fs = split_code(SMMA_FP32, psum);
    smma_acc_zero(&acc);
    if (fs.cls == F_FINITE)
        smma_acc_add(&acc, fs.sig, fs.exp - fs.fbits, fs.sign);
    if (fc.cls == F_FINITE)
        smma_acc_add(&acc, fc.sig, fc.exp - fc.fbits, fc.sign);
    if (smma_acc_is_zero(&acc))
        return (fs.cls == F_ZERO && fs.sign && fc.cls == F_ZERO && fc.sign) ? 0x80000000u : 0;
    return round_to(SMMA_FP32, smma_acc_to_double_odd(&acc), m->round);
}

/* Normalizes a finite product's significand to [1, 2) (value unchanged). */
static void
renormalize(factor *p)
{
    if (p->cls != F_FINITE)
        return;
    while (p->sig >= ((uint64_t) 2 << p->fbits)) {
        p->fbits++;
        p->exp++;
    }
    while (p->sig < ((uint64_t) 1 << p->fbits)) {
        p->fbits--;
        p->exp--;
    }
}

/* The block-FMA products of step k: four factors, or bf16-rounded pairs. */
/* A product rounded to nearest bf16, as the factor of that bf16 number: a
 * bf16 enters the tensor core as a significand in [1, 2) times 2^e (a
 * subnormal with e = -126), whatever the factors it was computed from, so
 * an exact product (at most 8 significant bits, normal) is renormalized --
 * the product of a subnormal element and a scale, or of two significands
 * above 1 (an NVFP4 ue4m3 scale), would otherwise keep an exponent the
 * tensor core never sees.  Anything else goes through the codec. */
static factor
as_bf16(const factor *p)
{
    if (p->cls == F_FINITE && p->sig < 256) {
        int msb = p->exp - p->fbits + bitlen64(p->sig) - 1;

        if (msb >= -126 && msb <= 127) {
            factor q = *p;

            renormalize(&q);
            return q;
        }
    }
    return split_code(SMMA_BF16, round_to(SMMA_BF16, factor_value(p), SMMA_RN));
}

/* The scale factors of the block being summed, looked up once per block. */
struct scale_cache {
    size_t kb;
    factor fa, fb;
};

static factor
tc_product(const smma_model *m, const smma_gemm_shape *s, const uint32_t *a,
           const uint32_t *b, const uint32_t *sa, const uint32_t *sb, size_t k, bool scaled,
           struct scale_cache *sc)
{
    size_t kb = s->scale_fmt == SMMA_NONE ? 0 : k / s->vec;
    factor f[4], p;

    if (m->upcast_f16) {
        f[0] = split_as_f16(s->a_fmt, a[k]);
        f[2] = split_as_f16(s->b_fmt, b[k]);
    } else {
        f[0] = split_code(s->a_fmt, a[k]);
        f[2] = split_code(s->b_fmt, b[k]);
    }
    if (sc->kb != kb) {
        sc->kb = kb;
        sc->fa = scale_factor(s, scaled ? sa : NULL, kb);
        sc->fb = scale_factor(s, scaled ? sb : NULL, kb);
    }
    f[1] = sc->fa;
    f[3] = sc->fb;
    if (m->upcast_bf16) {
        factor pa = product(f, 2), pb = product(f + 2, 2);

        f[0] = as_bf16(&pa);
        f[1] = as_bf16(&pb);
        p = product(f, 2);
    } else {
        p = product(f, 4);
    }
    if (m->normalize)
        renormalize(&p);
    return p;
}

/* The k taken at position j: j itself, or with korder the korder_len-chunk
 * of j permuted (smma_model_check makes K a multiple of korder_len). */
static inline size_t
k_at(const smma_model *m, size_t j)
{
    if (m->korder == NULL)
        return j;
    return j - j % m->korder_len + m->korder[j % m->korder_len];
}

/* Runs the block-FMA model over positions [k0, k1) from c: fp32 bits, or
 * fp16 bits when f16 (an fp16 accumulator, smma_f16_acc). */
static uint32_t
run_blocks(const smma_model *m, const smma_gemm_shape *s, const uint32_t *a, const uint32_t *b,
           const uint32_t *sa, const uint32_t *sb, size_t k0, size_t k1, uint32_t c, bool scaled,
           bool f16)
{
    factor p[64];
    size_t k = k0;
    struct scale_cache sc;

    sc.kb = (size_t) -1;

    while (k < k1) {
        size_t n = 0;

        while (k < k1 && n < m->fma)
            p[n++] = tc_product(m, s, a, b, sa, sb, k_at(m, k++), scaled, &sc);
        if (m->neab == SMMA_NEAB_EXACT)
            c = m->psum_apart ? block_exact_apart(m, p, n, c) : block_exact(m, p, n, c);
        else if (f16)
            c = block_fma_f16(m, p, n, c);
        else
            c = block_fma(m, p, n, c);
    }
    return c;
}

static uint32_t
c_as_fp32(const smma_gemm_shape *s, uint32_t c)
{
    if (s->c_fmt == SMMA_NONE)
        return 0;
    if (s->c_fmt == SMMA_FP32)
        return c;
    return round_to(SMMA_FP32, smma_decode(s->c_fmt, c), SMMA_RN); /* exact */
}

/* C for an fp16 accumulator: its fp16 code, or C rounded to nearest fp16. */
static uint32_t
c_as_fp16(const smma_gemm_shape *s, uint32_t c)
{
    if (s->c_fmt == SMMA_NONE)
        return 0;
    if (s->c_fmt == SMMA_FP16)
        return c;
    return round_to(SMMA_FP16, smma_decode(s->c_fmt, c), SMMA_RN);
}

static const smma_model *
inner_model(const smma_model *m)
{
    const smma_model *inner = NULL;

    smma_model_from_name(m->inner, &inner, NULL);
    return inner;
}

/* Whether the promotion models write an operand of format f as e4m3 before
 * the fp8 tensor core's blocks: e2m1, e2m3 and e3m2, whose values are all
 * e4m3 numbers (Hopper's fp8 MMA takes e4m3 and e5m2 only, so a kernel
 * converts them; the block-FMA model sees e4m3's significands and
 * exponents, which for the small formats' subnormals differ). */
static bool
promote_as_e4m3(smma_format f)
{
    return f == SMMA_E2M1 || f == SMMA_E2M3 || f == SMMA_E3M2;
}

/* Codes [k0, k1) of an operand of format f into out[0 .. k1 - k0), as
 * e4m3 codes (exact) where promote_as_e4m3 says so. */
static void
promote_codes(smma_format f, const uint32_t *x, size_t k0, size_t k1, uint32_t *out)
{
    smma_cvt cvt = smma_cvt_default();
    size_t k;

    cvt.sat = false;
    for (k = k0; k < k1; k++)
        out[k - k0] = promote_as_e4m3(f) ? smma_encode(SMMA_E4M3, smma_decode(f, x[k]), &cvt)
                                         : x[k];
}

static uint32_t
dot_promote(const smma_model *m, const smma_gemm_shape *s, const uint32_t *a,
            const uint32_t *b, const uint32_t *sa, const uint32_t *sb, uint32_t c)
{
    const smma_model *inner = inner_model(m);
    double acc = smma_f32_from_bits(c_as_fp32(s, c));
    smma_gemm_shape s8 = *s;
    uint32_t ta[SMMA_PROMOTE_MAX], tb[SMMA_PROMOTE_MAX];
    size_t k0;

    if (m->promote == 0 || m->promote > SMMA_PROMOTE_MAX) /* refused by smma_model_check */
        return d_code(s, F_NAN, 0);
    if (promote_as_e4m3(s->a_fmt))
        s8.a_fmt = SMMA_E4M3;
    if (promote_as_e4m3(s->b_fmt))
        s8.b_fmt = SMMA_E4M3;
    for (k0 = 0; k0 < s->k; k0 += m->promote) {
        size_t k1 = k0 + m->promote < s->k ? k0 + m->promote : s->k;
        size_t kb = s->scale_fmt == SMMA_NONE ? 0 : k0 / s->vec;
        double part;
        factor fs[2], ps;
        double scale;

        promote_codes(s->a_fmt, a, k0, k1, ta);
        promote_codes(s->b_fmt, b, k0, k1, tb);
        part = smma_f32_from_bits(run_blocks(inner, &s8, ta, tb, NULL, NULL, 0, k1 - k0, 0,
                                             false, false));
        fs[0] = scale_factor(s, sa, kb);
        fs[1] = scale_factor(s, sb, kb);
        ps = product(fs, 2);
        scale = smma_f32_from_bits(round_to(SMMA_FP32, factor_value(&ps), SMMA_RN));
        if (isnan(part) || isnan(scale) || isnan(acc) || (isinf(part) && scale == 0) ||
            (isinf(acc) && isinf(part * scale) && (acc > 0) != (part * scale > 0)))
            acc = NAN;
        else if (isinf(part) || isinf(scale))
            acc = acc + part * scale;
        else
            acc = fma_f32(part, scale, acc);
    }
    if (isnan(acc))
        return d_code(s, F_NAN, 0);
    return to_output(s, epilogue_f32(s, smma_f32_bits((float) acc)));
}

uint32_t
smma_dot(const smma_model *model, const smma_gemm_shape *s, const uint32_t *a,
         const uint32_t *b, const uint32_t *sa, const uint32_t *sb, uint32_t c)
{
    pthread_once(&factor_once, build_factor_tables);
    switch (model->kind) {
    case SMMA_MODEL_EXACT:
        return dot_exact(model, s, a, b, sa, sb, c);
    case SMMA_MODEL_FMA_SEQ:
        return dot_fma_seq(s, a, b, sa, sb, c);
    case SMMA_MODEL_PROMOTE:
        return dot_promote(model, s, a, b, sa, sb, c);
    case SMMA_MODEL_BLOCK_FMA:
    default:
        if (model->f16_acc != SMMA_F16ACC_VIA_FP32 && s->d_fmt == SMMA_FP16 &&
            model->neab != SMMA_NEAB_EXACT) {
            uint32_t h = run_blocks(model, s, a, b, sa, sb, 0, s->k, c_as_fp16(s, c), true,
                                    true);

            /* With an alpha the fp16 accumulator is widened (exactly) to fp32,
             * multiplied by alpha to nearest and rounded to nearest fp16. */
            if (!s->has_alpha)
                return h;
            return to_output(s, epilogue_f32(s, round_to(SMMA_FP32,
                                                         smma_decode(SMMA_FP16, h),
                                                         SMMA_RN)));
        }
        if (model->c_last) {
            /* The blocks from +0, then one fp32 addition of C to nearest. */
            double p = smma_f32_from_bits(run_blocks(model, s, a, b, sa, sb, 0, s->k, 0, true,
                                                     false));
            double r = fma_f32(p, 1.0, smma_f32_from_bits(c_as_fp32(s, c)));

            if (isnan(r))
                return d_code(s, F_NAN, 0);
            return to_output(s, epilogue_f32(s, smma_f32_bits((float) r)));
        }
        return to_output(s, epilogue_f32(s, run_blocks(model, s, a, b, sa, sb, 0, s->k,
                                                       c_as_fp32(s, c), true, false)));
    }
}
