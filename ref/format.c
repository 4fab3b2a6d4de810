/*
 * format.c - the format table, names, and the exact decoder.
 *
 * The table is the only place where a format's shape is written down; the
 * decoder and the encoder (encode.c) read nothing else.
 */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <softmma/format.h>

/*
 * Derived fields (max_code .. emin) are written out rather than computed so
 * that the table can be read as documentation; tests/ref/format-t.c checks
 * every one of them against the decoder.
 */
static const smma_format_desc formats[SMMA_FORMAT_COUNT] = {
    { SMMA_E2M1, "e2m1", "FP4 E2M1", 4, 4, true, 2, 1, 1, true, true,
      SMMA_INF_NONE, SMMA_NAN_NONE, 0x7, 0x1, 0x2, 2, 0 },
    { SMMA_E2M3, "e2m3", "FP6 E2M3", 6, 6, true, 2, 3, 1, true, true,
      SMMA_INF_NONE, SMMA_NAN_NONE, 0x1f, 0x1, 0x8, 2, 0 },
    { SMMA_E3M2, "e3m2", "FP6 E3M2", 6, 6, true, 3, 2, 3, true, true,
      SMMA_INF_NONE, SMMA_NAN_NONE, 0x1f, 0x1, 0x4, 4, -2 },
    { SMMA_E4M3, "e4m3", "FP8 E4M3 (OCP \"fn\": no Inf, one NaN)", 8, 8, true, 4, 3, 7,
      true, true, SMMA_INF_NONE, SMMA_NAN_ALL_ONES, 0x7e, 0x1, 0x8, 8, -6 },
    { SMMA_E5M2, "e5m2", "FP8 E5M2 (IEEE-like)", 8, 8, true, 5, 2, 15, true, true,
      SMMA_INF_IEEE, SMMA_NAN_IEEE, 0x7b, 0x1, 0x4, 15, -14 },
    { SMMA_E8M0, "e8m0", "E8M0 scale (power of two, no zero)", 8, 8, false, 8, 0, 127,
      false, false, SMMA_INF_NONE, SMMA_NAN_ALL_ONES, 0xfe, 0x0, 0x0, 127, -127 },
    { SMMA_UE4M3, "ue4m3", "UE4M3 scale (unsigned E4M3, MSB zero)", 7, 8, false, 4, 3, 7,
      true, true, SMMA_INF_NONE, SMMA_NAN_ALL_ONES, 0x7e, 0x1, 0x8, 8, -6 },
    { SMMA_BF16, "bf16", "bfloat16", 16, 16, true, 8, 7, 127, true, true,
      SMMA_INF_IEEE, SMMA_NAN_IEEE, 0x7f7f, 0x1, 0x80, 127, -126 },
    { SMMA_FP16, "fp16", "IEEE binary16", 16, 16, true, 5, 10, 15, true, true,
      SMMA_INF_IEEE, SMMA_NAN_IEEE, 0x7bff, 0x1, 0x400, 15, -14 },
    { SMMA_FP32, "fp32", "IEEE binary32", 32, 32, true, 8, 23, 127, true, true,
      SMMA_INF_IEEE, SMMA_NAN_IEEE, 0x7f7fffff, 0x1, 0x800000, 127, -126 },
};

/* Other spellings accepted for each format, separated by spaces. */
static const char *const aliases[SMMA_FORMAT_COUNT] = {
    "fp4 fp4e2m1 float4_e2m1fn e2m1fn",
    "fp6e2m3 float6_e2m3fn e2m3fn",
    "fp6e3m2 float6_e3m2fn e3m2fn",
    "fp8e4m3 e4m3fn float8_e4m3fn fp8",
    "fp8e5m2 float8_e5m2",
    "ue8m0 float8_e8m0fnu e8m0fnu",
    "fp8ue4m3",
    "bfloat16",
    "f16 half float16",
    "f32 float float32",
};

static const char *const round_names[SMMA_ROUND_COUNT] = {
    "rn", "ra", "rz", "rp", "rm", "rs"
};

int
smma_error_set(smma_error *err, int status, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    }
    return status;
}

const smma_format_desc *
smma_format_info(smma_format f)
{
    if ((unsigned) f >= SMMA_FORMAT_COUNT)
        return NULL;
    return &formats[f];
}

const char *
smma_format_name(smma_format f)
{
    if ((unsigned) f >= SMMA_FORMAT_COUNT)
        return "?";
    return formats[f].name;
}

/* Case-insensitive equality of a and the word [w, w + n). */
static bool
word_equal(const char *a, const char *w, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (a[i] == '\0' || tolower((unsigned char) a[i]) != tolower((unsigned char) w[i]))
            return false;
    return a[n] == '\0';
}

static bool
name_matches(const char *name, const char *canonical, const char *alias_list)
{
    const char *p = alias_list;

    if (word_equal(name, canonical, strlen(canonical)))
        return true;
    while (p != NULL && *p != '\0') {
        size_t n = strcspn(p, " ");

        if (n > 0 && word_equal(name, p, n))
            return true;
        p += n;
        while (*p == ' ')
            p++;
    }
    return false;
}

int
smma_format_from_name(const char *name, smma_format *out, smma_error *err)
{
    unsigned i;

    if (name == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no format given");
    for (i = 0; i < SMMA_FORMAT_COUNT; i++)
        if (name_matches(name, formats[i].name, aliases[i])) {
            *out = (smma_format) i;
            return SMMA_OK;
        }
    return smma_error_set(err, SMMA_EINVAL,
                          "unknown format '%s' (known: e2m1 e2m3 e3m2 e4m3 e5m2 e8m0 "
                          "ue4m3 bf16 fp16 fp32)", name);
}

int
smma_round_from_name(const char *name, smma_round *out, smma_error *err)
{
    unsigned i;

    if (name == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no rounding mode given");
    for (i = 0; i < SMMA_ROUND_COUNT; i++)
        if (word_equal(name, round_names[i], strlen(round_names[i]))) {
            *out = (smma_round) i;
            return SMMA_OK;
        }
    return smma_error_set(err, SMMA_EINVAL,
                          "unknown rounding mode '%s' (known: rn ra rz rp rm rs)", name);
}

const char *
smma_round_name(smma_round r)
{
    if ((unsigned) r >= SMMA_ROUND_COUNT)
        return "?";
    return round_names[r];
}

uint32_t
smma_f32_bits(float x)
{
    uint32_t u;

    memcpy(&u, &x, sizeof(u));
    return u;
}

float
smma_f32_from_bits(uint32_t bits)
{
    float x;

    memcpy(&x, &bits, sizeof(x));
    return x;
}

uint64_t
smma_f64_bits(double x)
{
    uint64_t u;

    memcpy(&u, &x, sizeof(u));
    return u;
}

double
smma_f64_from_bits(uint64_t bits)
{
    double x;

    memcpy(&x, &bits, sizeof(x));
    return x;
}

/* The fields of a code: sign, biased exponent, mantissa. */
struct fields {
    unsigned sign;
    uint32_t exp;
    uint32_t man;
};

static struct fields
split(const smma_format_desc *d, uint32_t code)
{
    struct fields r;
    unsigned magbits = d->has_sign ? d->bits - 1 : d->bits;

    code &= (d->storage_bits == 32) ? 0xffffffffu : ((1u << d->storage_bits) - 1);
    if (!d->has_sign)
        code &= (1u << d->bits) - 1;
    r.sign = d->has_sign ? (code >> magbits) & 1 : 0;
    r.exp = (code >> d->man_bits) & ((1u << d->exp_bits) - 1);
    r.man = code & ((1u << d->man_bits) - 1);
    return r;
}

bool
smma_code_is_nan(smma_format f, uint32_t code)
{
    const smma_format_desc *d = smma_format_info(f);
    struct fields s;
    uint32_t eones, mones;

    if (d == NULL)
        return false;
    s = split(d, code);
    eones = (1u << d->exp_bits) - 1;
    mones = (1u << d->man_bits) - 1;
    switch (d->nan) {
    case SMMA_NAN_IEEE:
        return s.exp == eones && s.man != 0;
    case SMMA_NAN_ALL_ONES:
        return s.exp == eones && s.man == mones;
    case SMMA_NAN_NONE:
    default:
        return false;
    }
}

bool
smma_code_is_inf(smma_format f, uint32_t code)
{
    const smma_format_desc *d = smma_format_info(f);
    struct fields s;

    if (d == NULL || d->inf != SMMA_INF_IEEE)
        return false;
    s = split(d, code);
    return s.exp == (1u << d->exp_bits) - 1 && s.man == 0;
}

double
smma_decode(smma_format f, uint32_t code)
{
    const smma_format_desc *d = smma_format_info(f);
    struct fields s;
    double v;

    if (d == NULL)
        return NAN;
    s = split(d, code);
    if (smma_code_is_nan(f, code))
        return s.sign ? -NAN : NAN;
    if (smma_code_is_inf(f, code))
        return s.sign ? -INFINITY : INFINITY;
    if (s.exp == 0 && d->has_subnormals)
        v = ldexp((double) s.man, d->emin - (int) d->man_bits);
    else
        v = ldexp((double) (s.man + (1u << d->man_bits)),
                  (int) s.exp - d->bias - (int) d->man_bits);
    return s.sign ? -v : v;
}

int
smma_decode_checked(smma_format f, uint32_t code, bool strict, double *out, smma_error *err)
{
    const smma_format_desc *d = smma_format_info(f);

    if (d == NULL)
        return smma_error_set(err, SMMA_EINVAL, "unknown format number %d", (int) f);
    if (d->storage_bits < 32 && (code >> d->storage_bits) != 0)
        return smma_error_set(err, SMMA_ERANGE, "code 0x%x does not fit in %u-bit %s",
                              (unsigned) code, d->storage_bits, d->name);
    if (d->storage_bits > d->bits && (code >> d->bits) != 0) {
        if (strict)
            return smma_error_set(err, SMMA_EINVAL,
                                  "%s code 0x%02x has its most significant bit set "
                                  "(%s is unsigned; strict mode rejects it)",
                                  d->name, (unsigned) code, d->name);
        code &= (1u << d->bits) - 1;
    }
    *out = smma_decode(f, code);
    return SMMA_OK;
}
