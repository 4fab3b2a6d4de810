/*
 * quant.c - MX and NVFP4 block quantization and dequantization under a
 * profile (see softmma/quant.h for the contracts and doc/profiles.md for the
 * sources of each rule).
 *
 * Values travel as doubles that hold fp32 numbers exactly.  Where a library
 * computes in fp32, f32r() rounds to fp32 with the project's own encoder: a
 * product of two fp32 numbers is exact in a double, and a quotient rounded
 * to double and then to fp32 is the correctly rounded fp32 quotient (53 >=
 * 2 * 24 + 2), so no host floating-point mode or FMA contraction can change
 * a result.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <softmma/quant.h>

static const smma_block_format_desc block_formats[SMMA_BLOCK_FORMAT_COUNT] = {
    { SMMA_MXFP4, "mxfp4", SMMA_E2M1, SMMA_E8M0, 32, 2, 1, 6.0 },
    { SMMA_MXFP6_E2M3, "mxfp6e2m3", SMMA_E2M3, SMMA_E8M0, 32, 2, 3, 7.5 },
    { SMMA_MXFP6_E3M2, "mxfp6e3m2", SMMA_E3M2, SMMA_E8M0, 32, 4, 2, 28.0 },
    { SMMA_MXFP8_E4M3, "mxfp8e4m3", SMMA_E4M3, SMMA_E8M0, 32, 8, 3, 448.0 },
    { SMMA_MXFP8_E5M2, "mxfp8e5m2", SMMA_E5M2, SMMA_E8M0, 32, 15, 2, 57344.0 },
    { SMMA_NVFP4, "nvfp4", SMMA_E2M1, SMMA_UE4M3, 16, 2, 1, 6.0 },
};

#define F32_ONE 0x3f800000u
#define F32_QNAN 0x7fc00000u
#define DNAN ((double) NAN)
#define DINF ((double) INFINITY)

const smma_block_format_desc *
smma_block_format_info(smma_block_format f)
{
    if ((unsigned) f >= SMMA_BLOCK_FORMAT_COUNT)
        return NULL;
    return &block_formats[f];
}

const char *
smma_block_format_name(smma_block_format f)
{
    const smma_block_format_desc *d = smma_block_format_info(f);

    return d == NULL ? "?" : d->name;
}

int
smma_block_format_from_name(const char *name, smma_block_format *out, smma_error *err)
{
    unsigned i;

    if (name == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no block format given");
    for (i = 0; i < SMMA_BLOCK_FORMAT_COUNT; i++)
        if (strcasecmp(name, block_formats[i].name) == 0) {
            *out = block_formats[i].id;
            return SMMA_OK;
        }
    return smma_error_set(err, SMMA_EINVAL,
                          "unknown block format '%s' (known: mxfp4 mxfp6e2m3 mxfp6e3m2 "
                          "mxfp8e4m3 mxfp8e5m2 nvfp4)", name);
}

size_t
smma_block_count(smma_block_format f, size_t k)
{
    const smma_block_format_desc *d = smma_block_format_info(f);

    return d == NULL ? 0 : (k + d->block - 1) / d->block;
}

smma_quant_opts
smma_quant_opts_default(const smma_profile *p)
{
    smma_quant_opts o;

    memset(&o, 0, sizeof(o));
    o.profile = p != NULL ? p : smma_profile_cuda();
    o.global = SMMA_GLOBAL_NONE;
    o.round = o.profile->round;
    return o;
}

/* ------------------------------------------------------------------ fp32 */

static const smma_cvt *
cvt_f32(void)
{
    static smma_cvt c;
    static int init;

    if (!init) {
        c = smma_profile_cvt(smma_profile_cuda());
        c.round = SMMA_RN;
        c.sat = false;
        init = 1;
    }
    return &c;
}

static double
f32v(uint32_t bits)
{
    return (double) smma_f32_from_bits(bits);
}

/* The fp32 rounding (to nearest even, overflow to Inf) of x; NaNs pass. */
static double
f32r(double x)
{
    if (isnan(x))
        return x;
    return f32v(smma_encode(SMMA_FP32, x, cvt_f32()));
}

/* The bf16 rounding (to nearest even) of x; NaNs pass. */
static double
bf16r(double x)
{
    smma_cvt c = *cvt_f32();

    if (isnan(x))
        return x;
    return smma_decode(SMMA_BF16, smma_encode(SMMA_BF16, x, &c));
}

/* log2 of a positive finite x rounded to fp32 (to bf16 after that when
 * bf16 is set), as a GPU library's log2f gives it for a correctly rounded
 * logarithm; exact at powers of two. */
static double
log2_rounded(double x, bool bf16)
{
    double l = f32r(log2(x));

    return bf16 ? bf16r(l) : l;
}

static uint32_t
f32bits(double x)
{
    if (isnan(x))
        return signbit(x) ? 0xffc00000u : F32_QNAN;
    return smma_encode(SMMA_FP32, x, cvt_f32());
}

/* fminf: the smaller, and the other operand when one is NaN. */
static double
fmin_num(double a, double b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a < b ? a : b;
}

/* torch.clamp: NaN passes, otherwise the value limited to [lo, hi]. */
static double
clamp_nan(double x, double lo, double hi)
{
    if (isnan(x))
        return x;
    return x < lo ? lo : x > hi ? hi : x;
}

static bool
bits_is_nan(uint32_t b)
{
    return (b & 0x7fffffffu) > 0x7f800000u;
}

/* ------------------------------------------------------------------ amax */

uint32_t
smma_block_amax(smma_block_format f, const uint32_t *x, size_t n, const smma_profile *p)
{
    const smma_block_format_desc *bd = smma_block_format_info(f);
    uint32_t best = 0;
    bool seen_nan = false, seen_num = false;
    size_t i;

    if (p == NULL)
        p = smma_profile_cuda();
    if (bd != NULL && n > bd->block)
        n = bd->block;
    for (i = 0; i < n; i++) {
        uint32_t m = x[i] & 0x7fffffffu;

        if (m > 0x7f800000u) {
            seen_nan = true;
            continue;
        }
        seen_num = true;
        if (m > best)
            best = m;
    }
    /* The missing elements of a short block are +0: numbers, not NaNs. */
    if (bd != NULL && n < bd->block)
        seen_num = true;
    if (!seen_nan)
        return best;
    switch (p->amax_nan) {
    case SMMA_AMAX_NAN_IGNORE:
        return seen_num ? best : F32_QNAN;
    case SMMA_AMAX_NAN_IGNORE_ZERO:
        return best;
    case SMMA_AMAX_NAN_PROPAGATE:
    default:
        return F32_QNAN;
    }
}

/* ------------------------------------------------------------------ MX scales */

static uint8_t
zero_block_scale(const smma_block_format_desc *bd, const smma_profile *p)
{
    switch (p->zero_block) {
    case SMMA_ZB_NAN:
        return 0xff;
    case SMMA_ZB_UNIT:
        return (uint8_t) (127 - bd->emax_elem);
    case SMMA_ZB_ONE:
        return 0x01;
    case SMMA_ZB_MIN:
    default:
        return 0x00;
    }
}

/* The fp32 ratio amax / max_elem as the profile forms it; rounded to bf16
 * when the profile computes in a bf16 input's precision. */
static double
scale_ratio(const smma_block_format_desc *bd, double amax, const smma_profile *p, bool bf16)
{
    double r;

    switch (p->scale_ratio) {
    case SMMA_RATIO_MUL_RCP:
        r = f32r(amax * f32r(1.0 / bd->max_elem));
        break;
    case SMMA_RATIO_MUL_RCP_INPUT: {
        /* A bf16 amax times a bf16 reciprocal is exact in fp32. */
        double rcp = f32r(1.0 / bd->max_elem);

        r = f32r(amax * (bf16 ? bf16r(rcp) : rcp));
        break;
    }
    case SMMA_RATIO_DIV:
    default:
        r = f32r(amax / bd->max_elem);
        break;
    }
    return bf16 ? bf16r(r) : r;
}

static uint8_t
rceil_cvt(double r, const smma_profile *p, bool bf16)
{
    smma_cvt c = smma_profile_cvt(smma_profile_cuda());

    switch (p->scale_cvt) {
    case SMMA_SCVT_RP:
        /* Round up without satfinite: Inf, NaN and 2^128 give NaN. */
        if (isnan(r) || isinf(r))
            return 0xff;
        c.round = SMMA_RP;
        c.sat = false;
        return (uint8_t) smma_encode(SMMA_E8M0, r, &c);
    case SMMA_SCVT_BITS_CEIL: {
        /* On the GPU the ratio of a NaN amax is the canonical NaN. */
        uint32_t b = isnan(r) ? 0x7fffffffu : f32bits(r);

        return (uint8_t) (((b + 0x7fffffu) & 0x7f800000u) >> 23);
    }
    case SMMA_SCVT_PROFILE:
        c = smma_profile_cvt_for(p, SMMA_E8M0);
        return (uint8_t) smma_encode(SMMA_E8M0, r, &c);
    case SMMA_SCVT_ML_DTYPES:
        /* Below 2^-126 ml_dtypes rounds as if 0x00 stood for a subnormal
         * step of 2^-126 (doc/profiles.md, ml_dtypes e8m0). */
        if (isnan(r) || isinf(r) || r <= 0)
            return 0xff;
        if (r <= 0x1p-127)
            return 0x00;
        if (r <= 0x1p-126)
            return 0x01;
        c.round = SMMA_RA;
        c.sat = false;
        return (uint8_t) smma_encode(SMMA_E8M0, r, &c);
    case SMMA_SCVT_LOG2_CEIL: {
        double e;

        if (isnan(r))
            return 0xff;
        if (r == 0)
            return 0x00;
        if (isinf(r))
            return 0xfe;
        e = ceil(log2_rounded(r, false));
        e = e < -127 ? -127 : e > 127 ? 127 : e;
        return (uint8_t) (e + 127);
    }
    case SMMA_SCVT_LOG2_FLOOR: {
        double e;

        if (isnan(r) || isinf(r) || r <= 0)
            return 0xff;
        /* floor(log2(r)) + 127, each step in the input's precision. */
        e = floor(log2_rounded(r, bf16)) + 127;
        if (bf16)
            e = bf16r(e);
        return (uint8_t) (e < 0 ? 0 : e > 254 ? 254 : e);
    }
    case SMMA_SCVT_BITS_RU: {
        /* A NaN ratio is the GPU's canonical NaN; the sum wraps to 8 bits. */
        uint32_t b = isnan(r) ? 0x7fffffffu : f32bits(r);
        uint32_t ex = b >> 23, man = b & 0x7fffffu;
        bool up = man > 0 && ex != 0xfe && !(ex == 0 && man <= 0x400000u);

        return (uint8_t) ((ex + (up ? 1 : 0)) & 0xffu);
    }
    case SMMA_SCVT_RP_SATFINITE:
    default:
        c.round = SMMA_RP;
        c.sat = true;
        return (uint8_t) smma_encode(SMMA_E8M0, r, &c);
    }
}

/* An exponent-field rule (FLOOR, CEIL, EVEN) on amax's fp32 bits. */
static uint8_t
exponent_rule(const smma_block_format_desc *bd, uint32_t mag, const smma_profile *p)
{
    int e, s;

    if (mag >= 0x7f800000u && p->nonfinite_nan)
        return 0xff;
    if (p->scale_rule == SMMA_SCALE_EVEN && mag < 0x7f800000u) {
        /* Round the mantissa to the element's width, half up, keep the exponent. */
        mag = (mag + (1u << (22 - bd->elem_man_bits))) & 0x7f800000u;
        if (mag >= 0x7f800000u && p->nonfinite_nan)
            return 0xff;
    }
    e = (int) (mag >> 23) - 127;
    if (p->scale_rule == SMMA_SCALE_CEIL && (mag & 0x7fffffu) != 0 && mag < 0x7f800000u)
        e++;
    s = e - bd->emax_elem;
    if (s < -127)
        s = -127;
    if (s > 127)
        return p->scale_overflow == SMMA_SOVF_SAT ? 0xfe : 0xff;
    return (uint8_t) (s + 127);
}

/* The e8m0 scale of an MX block; bf16: the inputs are bf16 and the profile
 * computes in their precision. */
static uint8_t
mx_scale(const smma_block_format_desc *bd, uint32_t amax_bits, const smma_profile *p,
         bool bf16)
{
    uint32_t mag = amax_bits & 0x7fffffffu;
    double amax;

    if (mag == 0)
        return zero_block_scale(bd, p);
    amax = mag > 0x7f800000u ? DNAN : f32v(mag);
    switch (p->scale_rule) {
    case SMMA_SCALE_RCEIL:
    case SMMA_SCALE_RN:
        return rceil_cvt(scale_ratio(bd, amax, p, bf16), p, bf16);
    case SMMA_SCALE_FLOOR:
    case SMMA_SCALE_CEIL:
    case SMMA_SCALE_EVEN:
    default:
        return exponent_rule(bd, mag, p);
    }
}

/* ------------------------------------------------------------------ NVFP4 */

/* The per-tensor quantities of one NVFP4 quantization. */
struct nv_global {
    bool two_level;
    double s_enc;   /* TE: the encode scale */
    double g;       /* the decode scale G (TE: fp32(1 / S_enc)) */
};

static struct nv_global
nv_global_of(const smma_quant_opts *o)
{
    const smma_profile *p = o->profile;
    struct nv_global r;
    double v = f32v(o->global_bits);

    r.two_level = o->global != SMMA_GLOBAL_NONE;
    r.s_enc = 1.0;
    r.g = 1.0;
    switch (p->nvfp4) {
    case SMMA_NVFP4_TE:
        if (o->global == SMMA_GLOBAL_AMAX) {
            double t = fmin_num(f32r(2688.0 / v), (double) 0x1.fffffep127);

            r.s_enc = (v == 0 || t == 0) ? 1.0 : t;
        } else if (o->global == SMMA_GLOBAL_SCALE) {
            r.s_enc = f32r(1.0 / v);
        }
        r.g = f32r(1.0 / r.s_enc);
        break;
    case SMMA_NVFP4_EXACT:
        if (o->global == SMMA_GLOBAL_AMAX)
            r.g = v == 0 ? 1.0 : f32r(v / 2688.0);
        else if (o->global == SMMA_GLOBAL_SCALE)
            r.g = v;
        break;
    case SMMA_NVFP4_TORCHAO:
    case SMMA_NVFP4_CAST:
    case SMMA_NVFP4_JAX:
    default:
        if (o->global == SMMA_GLOBAL_AMAX)
            r.g = f32r(v / 2688.0);
        else if (o->global == SMMA_GLOBAL_SCALE)
            r.g = v;
        break;
    }
    return r;
}

/* The e4m3 conversion libraries use for a non-negative NVFP4 scale value:
 * the profile's rounding and saturation; the code is the same byte as ue4m3. */
static uint8_t
nv_scale_code(double v, const smma_profile *p, smma_format f)
{
    smma_cvt c = smma_profile_cvt(p);

    c.round = p->round == SMMA_RS ? SMMA_RN : p->round;
    return (uint8_t) (smma_encode(f, v, &c) & 0x7f);
}

static uint8_t
nv_scale(uint32_t amax_bits, const smma_quant_opts *o, const struct nv_global *gl)
{
    const smma_profile *p = o->profile;
    uint32_t mag = amax_bits & 0x7fffffffu;
    double amax = mag > 0x7f800000u ? DNAN : f32v(mag);

    switch (p->nvfp4) {
    case SMMA_NVFP4_TE: {
        /* block_amax * (S_enc * fp32(1/6)), cast with cvt.rn.satfinite.e4m3. */
        double bs = f32r(gl->s_enc * f32r(1.0 / 6.0));

        return nv_scale_code(f32r(amax * bs), smma_profile_cuda(), SMMA_E4M3);
    }
    case SMMA_NVFP4_TORCHAO: {
        double b = f32r(amax / 6.0);

        if (gl->two_level)
            b = f32r(b / gl->g);
        return nv_scale_code(clamp_nan(b, 0x1p-6, 448.0), p, SMMA_E4M3);
    }
    case SMMA_NVFP4_JAX: {
        /* The amax of x / G is fp32(amax / G): the rounding is monotonic. */
        double a = gl->two_level ? f32r(amax / gl->g) : amax;

        return nv_scale_code(clamp_nan(f32r(a / 6.0), 0.0, 448.0), smma_profile_cuda(),
                             SMMA_E4M3);
    }
    case SMMA_NVFP4_CAST: {
        double b = f32r(amax / 6.0);
        smma_cvt c = smma_profile_cvt(p);

        if (gl->two_level)
            b = f32r(b / gl->g);
        return (uint8_t) smma_encode(SMMA_UE4M3, b, &c);
    }
    case SMMA_NVFP4_EXACT:
    default: {
        /* amax / (6 G): the double quotient of a 24-bit by a 26-bit number is
         * never within 2^-53 of a ue4m3 rounding boundary unless on it. */
        smma_cvt c = smma_profile_cvt(p);

        if (c.round == SMMA_RS)
            c.round = SMMA_RN;
        return (uint8_t) smma_encode(SMMA_UE4M3, amax / (6.0 * gl->g), &c);
    }
    }
}

/* ------------------------------------------------------------------ options */

static int
check_opts(const smma_block_format_desc *bd, const smma_quant_opts *o, smma_error *err)
{
    uint32_t b = o->global_bits;

    if (o->global == SMMA_GLOBAL_NONE)
        return SMMA_OK;
    if (bd->id != SMMA_NVFP4)
        return smma_error_set(err, SMMA_EINVAL,
                              "%s has no per-tensor scale (only nvfp4 is two-level)", bd->name);
    if ((unsigned) o->global > SMMA_GLOBAL_SCALE)
        return smma_error_set(err, SMMA_EINVAL, "unknown per-tensor value kind %d",
                              (int) o->global);
    if ((b & 0x80000000u) != 0 || (b & 0x7fffffffu) >= 0x7f800000u)
        return smma_error_set(err, SMMA_EINVAL,
                              "the per-tensor %s (fp32 0x%08x) must be finite and not negative",
                              o->global == SMMA_GLOBAL_AMAX ? "amax" : "scale", (unsigned) b);
    if (o->global == SMMA_GLOBAL_SCALE && b == 0)
        return smma_error_set(err, SMMA_EINVAL, "the per-tensor decode scale must be positive");
    return SMMA_OK;
}

static smma_quant_opts
resolve_opts(const smma_quant_opts *o)
{
    smma_quant_opts r;

    if (o == NULL)
        r = smma_quant_opts_default(NULL);
    else
        r = *o;
    if (r.profile == NULL)
        r.profile = smma_profile_cuda();
    return r;
}

uint8_t
smma_block_scale_from_amax(smma_block_format f, uint32_t amax_bits, const smma_quant_opts *o)
{
    const smma_block_format_desc *bd = smma_block_format_info(f);
    smma_quant_opts r = resolve_opts(o);

    if (bd == NULL || check_opts(bd, &r, NULL) != SMMA_OK)
        return 0;
    if (f == SMMA_NVFP4) {
        struct nv_global gl = nv_global_of(&r);

        return nv_scale(amax_bits, &r, &gl);
    }
    return mx_scale(bd, amax_bits, r.profile, r.input_bf16 && r.profile->arith_in_input);
}

uint8_t
smma_block_scale(smma_block_format f, const uint32_t *x, size_t n, const smma_quant_opts *o)
{
    smma_quant_opts r = resolve_opts(o);
    const smma_block_format_desc *bd = smma_block_format_info(f);

    if (bd == NULL)
        return 0;
    if (n > bd->block)
        n = bd->block;
    return smma_block_scale_from_amax(f, smma_block_amax(f, x, n, r.profile), &r);
}

uint32_t
smma_quant_global_decode(smma_block_format f, const smma_quant_opts *o)
{
    smma_quant_opts r = resolve_opts(o);
    struct nv_global gl;

    if (f != SMMA_NVFP4 || r.global == SMMA_GLOBAL_NONE)
        return F32_ONE;
    if (check_opts(smma_block_format_info(f), &r, NULL) != SMMA_OK)
        return F32_ONE;
    gl = nv_global_of(&r);
    return f32bits(gl.g);
}

/* ------------------------------------------------------------------ elements */

/* The fp32 input as a double, NaNs with their sign. */
static double
input_value(uint32_t b)
{
    if (bits_is_nan(b))
        return (b >> 31) ? -DNAN : DNAN;
    return f32v(b);
}

/* x times the multiplier m the way the profile's arithmetic does it.  A NaN
 * input keeps its sign (the NaN operand is returned); a NaN the operation
 * makes (NaN multiplier, 0 * Inf) is positive; a GPU profile makes every NaN
 * positive. */
static double
scaled(double x, double m, const smma_profile *p, bool round32)
{
    double v;

    if (isnan(x))
        return p->nan_positive ? DNAN : x;
    if (isnan(m))
        return DNAN;
    v = x * m;
    if (isnan(v))
        return DNAN;
    return round32 ? f32r(v) : v;
}

/* triton.tools.mxfp's MXFP4Tensor: the candidate of least fp32 error, the
 * errors of even mantissas less fp32(1e-6), the first of equal errors. */
static uint8_t
nearest_e2m1(double v)
{
    static const double cand[8] = { 0, 0.5, 1, 1.5, 2, 3, 4, 6 };
    uint8_t sign = signbit(v) ? 0x8 : 0;
    double a = fabs(v), best = 0, bias = f32r(1e-6);
    unsigned i, at = 0;

    if (isnan(v) || isinf(v))
        return sign | 0x7;
    if (a == 0)
        return sign;
    for (i = 0; i < 8; i++) {
        double e = fabs(f32r(a - cand[i]));

        if (i % 2 == 0)
            e = f32r(e - bias);
        if (i == 0 || e < best) {
            best = e;
            at = i;
        }
    }
    return sign | (uint8_t) at;
}

static double
quirk(double v, smma_format elem, const smma_profile *p)
{
    if (p->elem_quirk == SMMA_QUIRK_BF16_E2M1 && elem == SMMA_E2M1)
        return bf16r(v);
    if (p->elem_quirk == SMMA_QUIRK_TRITON_E2M1 && elem == SMMA_E2M1 && !isnan(v)) {
        uint32_t m = f32bits(fabs(v));

        if ((m >> 23) == 125 && (m & 0x7fffffu) >= 1 && (m & 0x7fffffu) <= 3)
            return signbit(v) ? -0.0 : 0.0;
    }
    return v;
}

static uint8_t
elem_code(smma_format elem, double v, const smma_quant_opts *o, size_t i)
{
    smma_cvt c = smma_profile_cvt(o->profile);

    if (o->override_round)
        c.round = o->round;
    c.rbits = (c.round == SMMA_RS && o->rbits != NULL) ? o->rbits[i] : 0;
    if (o->profile->elem_quirk == SMMA_QUIRK_NEAREST_E2M1 && elem == SMMA_E2M1)
        return nearest_e2m1(v);
    return (uint8_t) smma_encode(elem, quirk(v, elem, o->profile), &c);
}

/* The multiplier of an MX block's elements. */
static double
mx_multiplier(uint8_t s, const smma_profile *p)
{
    switch (p->elem_apply) {
    case SMMA_APPLY_TE:
        if (s == 0)
            return 1.0;
        if (s == 0xfe)
            return 0.0;
        if (s == 0xff)
            return -DINF;
        break;
    case SMMA_APPLY_TRITON:
        if (s == 0 || s == 0xff)
            return 0.0;
        break;
    case SMMA_APPLY_TORCH:
        if (s == 0)
            return 1.0;
        /* torch.exp2(-127.0) on the GPU is 0x003fffff, not 2^-127 (0x00400000). */
        if (s == 0xfe)
            return 0x3fffffp-149;
        break;
    case SMMA_APPLY_JAX:
        /* x / +Inf: finite x give +-0 and +-Inf NaN, as x * 0 does. */
        if (s == 0xff)
            return 0.0;
        break;
    case SMMA_APPLY_DIV:
    case SMMA_APPLY_MUL_RCP:
    default:
        if (s == 0xff)
            return DNAN;
        break;
    }
    return ldexp(1.0, 127 - (int) s);
}

static void
mx_block(const smma_block_format_desc *bd, const uint32_t *x, size_t n, size_t base,
         const smma_quant_opts *o, uint8_t *scale, uint8_t *codes)
{
    const smma_profile *p = o->profile;
    uint8_t s = mx_scale(bd, smma_block_amax(bd->id, x, n, p), p,
                         o->input_bf16 && p->arith_in_input);
    double m = mx_multiplier(s, p);
    /* A division by the power of two is kept exact; a multiplication is the
     * library's fp32 product.  The fp32 rounding only touches values below
     * 2^-126, which give +-0 under rn, ra, rz and rs alike. */
    bool round32 = p->elem_apply != SMMA_APPLY_DIV;
    size_t i;

    *scale = s;
    for (i = 0; i < n; i++)
        codes[i] = elem_code(bd->elem, scaled(input_value(x[i]), m, p, round32), o, base + i);
}

static void
nv_block(const uint32_t *x, size_t n, size_t base, const smma_quant_opts *o,
         const struct nv_global *gl, uint8_t *scale, uint8_t *codes)
{
    const smma_profile *p = o->profile;
    uint8_t s = nv_scale(smma_block_amax(SMMA_NVFP4, x, n, p), o, gl);
    double sd = smma_decode(SMMA_UE4M3, s);
    size_t i;

    *scale = s;
    for (i = 0; i < n; i++) {
        double xi = input_value(x[i]), v;

        switch (p->nvfp4) {
        case SMMA_NVFP4_TE: {
            /* scale_rcp = min(1 / (fp32(S_dec_block) * S_dec), FLT_MAX). */
            double rcp = fmin_num(f32r(1.0 / f32r(sd * gl->g)), (double) 0x1.fffffep127);

            v = scaled(xi, rcp, p, true);
            break;
        }
        case SMMA_NVFP4_TORCHAO: {
            double total = gl->two_level ? f32r(gl->g * sd) : sd;

            if (isnan(xi))
                v = xi;
            else if (isnan(total))
                v = DNAN;
            else
                v = f32r(xi / total);
            v = clamp_nan(v, -6.0, 6.0);
            break;
        }
        case SMMA_NVFP4_JAX: {
            double xg = xi;

            if (gl->two_level && !isnan(xi))
                xg = f32r(xi / gl->g);
            if (isnan(xg) || isnan(sd))
                v = DNAN;
            else if (sd == 0)
                v = xg == 0 ? DNAN : signbit(xg) ? -DINF : DINF;
            else
                v = f32r(xg * f32r(1.0 / sd));   /* XLA multiplies by the reciprocal */
            v = clamp_nan(v, -6.0, 6.0);
            break;
        }
        case SMMA_NVFP4_CAST: {
            double d = f32r(sd * gl->g);

            if (isnan(xi))
                v = xi;
            else if (isnan(d))
                v = DNAN;   /* the NaN operand, positive */
            else if (xi == 0 && d == 0)
                v = -DNAN;  /* 0 / 0: the x86-64 default NaN is negative (measured) */
            else
                v = f32r(xi / d);
            break;
        }
        case SMMA_NVFP4_EXACT:
        default: {
            double d = sd * gl->g;

            if (isnan(xi))
                v = xi;
            else if (isnan(d))
                v = DNAN;
            else if (d == 0)
                v = signbit(xi) ? -0.0 : 0.0;
            else
                v = xi / d;
            break;
        }
        }
        codes[i] = elem_code(SMMA_E2M1, v, o, base + i);
    }
}

int
smma_quantize(smma_block_format f, const uint32_t *x, size_t k, const smma_quant_opts *o,
              uint8_t *scales, uint8_t *codes, smma_error *err)
{
    const smma_block_format_desc *bd = smma_block_format_info(f);
    smma_quant_opts r = resolve_opts(o);
    struct nv_global gl;
    size_t b, nb;
    int rc;

    if (bd == NULL)
        return smma_error_set(err, SMMA_EINVAL, "unknown block format number %d", (int) f);
    if (k == 0)
        return smma_error_set(err, SMMA_EINVAL, "nothing to quantize (0 values)");
    rc = check_opts(bd, &r, err);
    if (rc != SMMA_OK)
        return rc;
    for (b = 0; r.input_bf16 && b < k; b++)
        if ((x[b] & 0xffffu) != 0)
            return smma_error_set(err, SMMA_EINVAL,
                                  "x[%zu] = 0x%08x is not a bf16 number (its low 16 bits are "
                                  "not 0) and the inputs are said to be bf16", b,
                                  (unsigned) x[b]);
    gl = nv_global_of(&r);
    nb = smma_block_count(f, k);
    for (b = 0; b < nb; b++) {
        size_t base = b * bd->block;
        size_t n = k - base < bd->block ? k - base : bd->block;

        if (f == SMMA_NVFP4)
            nv_block(x + base, n, base, &r, &gl, &scales[b], codes + base);
        else
            mx_block(bd, x + base, n, base, &r, &scales[b], codes + base);
    }
    return SMMA_OK;
}

/* ------------------------------------------------------------------ compare */

int
smma_quant_compare(smma_block_format f, const uint32_t *x, size_t k, const smma_quant_opts *o,
                   const uint8_t *scales, const uint8_t *codes, smma_quant_cmp *out,
                   smma_error *err)
{
    const smma_block_format_desc *bd = smma_block_format_info(f);
    unsigned bits;
    uint8_t *ps, *pc;
    smma_quant_cmp r;
    size_t b, i;
    int rc;

    if (bd == NULL)
        return smma_error_set(err, SMMA_EINVAL, "unknown block format number %d", (int) f);
    bits = smma_format_info(bd->elem)->storage_bits;
    for (i = 0; i < k; i++)
        if ((codes[i] >> bits) != 0)
            return smma_error_set(err, SMMA_EINVAL,
                                  "block %zu element %zu: code 0x%02x does not fit %u-bit %s",
                                  i / bd->block, i % bd->block, (unsigned) codes[i], bits,
                                  smma_format_info(bd->elem)->name);
    memset(&r, 0, sizeof(r));
    r.blocks = smma_block_count(f, k);
    ps = malloc(r.blocks + k);
    if (ps == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    pc = ps + r.blocks;
    rc = smma_quantize(f, x, k, o, ps, pc, err);
    for (b = 0; rc == SMMA_OK && b < r.blocks; b++) {
        size_t base = b * bd->block, n = k - base < bd->block ? k - base : bd->block;
        long at = scales[b] != ps[b] ? -1 : -2;

        for (i = 0; at == -2 && i < n; i++)
            if (codes[base + i] != pc[base + i])
                at = (long) i;
        if (at == -2)
            continue;
        if (r.differ++ == 0) {
            r.first_block = b;
            r.first_elem = at;
            r.given = at < 0 ? scales[b] : codes[base + (size_t) at];
            r.expected = at < 0 ? ps[b] : pc[base + (size_t) at];
        }
    }
    free(ps);
    if (rc == SMMA_OK)
        *out = r;
    return rc;
}

/* ------------------------------------------------------------------ dequantize */

int
smma_dequantize(smma_block_format f, const uint8_t *scales, const uint8_t *codes, size_t k,
                uint32_t global_decode_bits, const smma_profile *p, double *out,
                smma_error *err)
{
    const smma_block_format_desc *bd = smma_block_format_info(f);
    const smma_format_desc *ed;
    double g = f32v(global_decode_bits);
    size_t i, nb;

    if (bd == NULL)
        return smma_error_set(err, SMMA_EINVAL, "unknown block format number %d", (int) f);
    if (p == NULL)
        p = smma_profile_cuda();
    ed = smma_format_info(bd->elem);
    nb = smma_block_count(f, k);
    /* Check everything before writing anything. */
    for (i = 0; i < k; i++)
        if ((codes[i] >> ed->storage_bits) != 0)
            return smma_error_set(err, SMMA_EINVAL,
                                  "block %zu element %zu: code 0x%02x does not fit %u-bit %s",
                                  i / bd->block, i % bd->block, (unsigned) codes[i],
                                  ed->storage_bits, ed->name);
    if (bd->scale == SMMA_UE4M3)
        for (i = 0; i < nb; i++) {
            double dummy;

            if (smma_decode_checked(SMMA_UE4M3, scales[i], p->ue4m3_strict, &dummy, err) !=
                SMMA_OK)
                return smma_error_set(err, SMMA_EINVAL,
                                      "block %zu: ue4m3 scale 0x%02x has its most significant "
                                      "bit set (profile %s is strict)", i,
                                      (unsigned) scales[i], p->name);
        }
    if (bits_is_nan(global_decode_bits))
        g = DNAN;
    for (i = 0; i < k; i++) {
        uint8_t s = scales[i / bd->block];
        double sv, e = smma_decode(bd->elem, codes[i]);

        if (bd->scale == SMMA_UE4M3)
            sv = smma_decode(SMMA_UE4M3, s & 0x7f);
        else if (s == 0 && p->dq_zero_scale_zero)
            sv = 0.0;
        else
            sv = smma_decode(SMMA_E8M0, s);
        if (isnan(sv) || isnan(g))
            out[i] = DNAN;
        else if (isnan(e))
            out[i] = e;
        else {
            /* 0 * Inf makes a NaN whose sign the host chooses: make it +NaN. */
            out[i] = e * sv * g;
            if (isnan(out[i]))
                out[i] = DNAN;
        }
    }
    return SMMA_OK;
}

/* ------------------------------------------------------------------ packing */

void
smma_pack_fp4(const uint8_t *codes, size_t n, uint8_t *packed)
{
    size_t i;

    for (i = 0; i < n; i += 2) {
        uint8_t lo = codes[i] & 0xf, hi = i + 1 < n ? codes[i + 1] & 0xf : 0;

        packed[i / 2] = (uint8_t) (lo | (hi << 4));
    }
}

void
smma_unpack_fp4(const uint8_t *packed, size_t n, uint8_t *codes)
{
    size_t i;

    for (i = 0; i < n; i++)
        codes[i] = (uint8_t) ((i % 2 == 0) ? (packed[i / 2] & 0xf) : (packed[i / 2] >> 4));
}
