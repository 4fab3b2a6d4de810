/*
 * softmma/format.h - the descriptor-driven codec for every element and scale
 * format softmma knows: e2m1, e2m3, e3m2, e4m3, e5m2, e8m0, ue4m3, bf16, fp16
 * and fp32.
 *
 * Every format is described by one smma_format_desc (sign bit or not,
 * exponent and mantissa widths, bias, and what the special bit patterns
 * mean).  One decoder and one encoder serve all of them.  Decoding is exact:
 * every value of every format is a dyadic rational that a double holds
 * exactly.  Encoding takes an exact double (or fp32 bits), a rounding mode,
 * a saturation choice and a conversion profile (softmma/profile.h), which is
 * the one place where the choices that libraries disagree on are made.
 */
#ifndef SOFTMMA_FORMAT_H
#define SOFTMMA_FORMAT_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The formats.  The numbering is part of the ABI and of the vector files. */
typedef enum smma_format {
    SMMA_E2M1 = 0,
    SMMA_E2M3,
    SMMA_E3M2,
    SMMA_E4M3,
    SMMA_E5M2,
    SMMA_E8M0,
    SMMA_UE4M3,
    SMMA_BF16,
    SMMA_FP16,
    SMMA_FP32,
    SMMA_FORMAT_COUNT
} smma_format;

/* Rounding modes.  RN: nearest, ties to the even code.  RA: nearest, ties
 * away from zero.  RZ: toward zero.  RP: toward +infinity.  RM: toward
 * -infinity.  RS: stochastic, with caller-supplied random bits (see
 * smma_encode below for the exact definition). */
typedef enum smma_round {
    SMMA_RN = 0,
    SMMA_RA,
    SMMA_RZ,
    SMMA_RP,
    SMMA_RM,
    SMMA_RS,
    SMMA_ROUND_COUNT
} smma_round;

/* How a format spells infinity. */
typedef enum smma_inf_style {
    SMMA_INF_NONE = 0, /* no infinity */
    SMMA_INF_IEEE      /* exponent all ones, mantissa zero */
} smma_inf_style;

/* How a format spells NaN. */
typedef enum smma_nan_style {
    SMMA_NAN_NONE = 0, /* no NaN: every code is a number */
    SMMA_NAN_IEEE,     /* exponent all ones, mantissa non-zero */
    SMMA_NAN_ALL_ONES  /* only exponent and mantissa all ones (e4m3, ue4m3, e8m0) */
} smma_nan_style;

/* The complete description of one format. */
typedef struct smma_format_desc {
    smma_format id;
    const char *name;     /* canonical name, e.g. "e4m3" */
    const char *title;    /* a few words, e.g. "FP8 E4M3 (OCP \"fn\")" */
    unsigned bits;        /* bits that carry the value (7 for ue4m3) */
    unsigned storage_bits;/* bits of the container (8 for ue4m3) */
    bool has_sign;
    unsigned exp_bits;
    unsigned man_bits;
    int bias;
    bool has_subnormals;  /* exponent field 0 is subnormal (false: e8m0) */
    bool has_zero;        /* false for e8m0 */
    smma_inf_style inf;
    smma_nan_style nan;
    /* Derived values, filled in by the table. */
    uint32_t max_code;    /* code of the largest finite positive value */
    uint32_t min_sub_code;/* code of the smallest positive value */
    uint32_t min_norm_code;/* code of the smallest positive normal value */
    int emax;             /* unbiased exponent of the largest finite value */
    int emin;             /* unbiased exponent of the smallest normal */
} smma_format_desc;

/* Status codes returned by the library's checked functions. */
enum {
    SMMA_OK = 0,
    SMMA_EINVAL = 1,  /* an argument is outside its domain */
    SMMA_ERANGE = 2,  /* a code or value does not fit */
    SMMA_EIO = 3,     /* a file could not be read or written */
    SMMA_EPARSE = 4,  /* malformed text */
    SMMA_ENOMEM = 5
};

/* A message filled in by checked functions that fail.  It names the
 * argument or the file and line at fault. */
typedef struct smma_error {
    char msg[256];
} smma_error;

/* Fill err (if not NULL) with a printf-style message and return status. */
int smma_error_set(smma_error *err, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Returns the descriptor of format f, or NULL when f is not a format. */
const smma_format_desc *smma_format_info(smma_format f);

/* Looks up a format by name ("e4m3", also accepted: "fp8e4m3", "e4m3fn",
 * "float8_e4m3fn", "e2m1"/"fp4", "e8m0"/"ue8m0", "bf16", "fp16"/"f16",
 * "fp32"/"f32", ...).  Case-insensitive.  Returns SMMA_OK and sets *out, or
 * SMMA_EINVAL with a message naming the unknown name. */
int smma_format_from_name(const char *name, smma_format *out, smma_error *err);

/* Returns the canonical name of a format ("?" when f is not a format). */
const char *smma_format_name(smma_format f);

/* Looks up a rounding mode by name: "rn", "ra", "rz", "rp", "rm", "rs". */
int smma_round_from_name(const char *name, smma_round *out, smma_error *err);
const char *smma_round_name(smma_round r);

/* Classification of a code of format f (code masked to storage bits). */
bool smma_code_is_nan(smma_format f, uint32_t code);
bool smma_code_is_inf(smma_format f, uint32_t code);

/* Decodes a code of format f to double, exactly.  NaN codes give a quiet
 * NaN with the code's sign; infinities give +-INFINITY.  For ue4m3 the
 * code's most significant bit is ignored here: use smma_decode_checked for
 * strict handling.  Bits above the storage width are ignored. */
double smma_decode(smma_format f, uint32_t code);

/* Decodes with checks: returns SMMA_EINVAL (message names the code) when
 * the code has bits set above the storage width, or, for ue4m3 in strict
 * mode, when its most significant bit (a sign bit ue4m3 does not have) is
 * set.  In lenient mode that bit is cleared before decoding. */
int smma_decode_checked(smma_format f, uint32_t code, bool strict, double *out,
                        smma_error *err);

struct smma_profile;

/* Options of one conversion.
 *   round:   the rounding mode.
 *   sat:     true for satfinite (results past the largest finite value are
 *            clamped to it, and +-Inf inputs become +-max unless the profile
 *            says otherwise); false lets results overflow to Inf, or to NaN
 *            in formats without Inf, or clamps in formats with neither.
 *   rbits:   the random bits for SMMA_RS.
 *   profile: the conversion profile (NaN and Inf policies, e8m0 and ue4m3
 *            rules); NULL selects the "cuda" profile. */
typedef struct smma_cvt {
    smma_round round;
    bool sat;
    uint32_t rbits;
    const struct smma_profile *profile;
} smma_cvt;

/* Encodes the double x in format f.  Finite values are rounded as if the
 * format had an unbounded exponent range above (and the fixed subnormal
 * spacing below); a rounded magnitude above the largest finite value is an
 * overflow.  On overflow: satfinite gives +-max; otherwise RZ gives +-max,
 * RP gives +max for negatives and the overflow value for positives, RM the
 * mirror image, and RN, RA and RS the overflow value, which is +-Inf where
 * the format has Inf, NaN where it has only NaN, and +-max where it has
 * neither.
 *
 * Stochastic rounding (SMMA_RS): let |x| lie between adjacent representable
 * magnitudes lo <= |x| < hi of the extended format and frac = (|x| - lo) /
 * (hi - lo).  The magnitude rounds to hi exactly when
 *     floor(frac * 2^32) + rbits >= 2^32,
 * that is, rbits / 2^32 of an ulp is added and the result truncated.  A
 * caller with k random bits passes them in the top k bits of rbits.  The
 * sign is applied afterwards.
 *
 * Zero keeps its sign.  NaN, Inf, negatives into unsigned formats and zero
 * into e8m0 follow the profile.  The result is a code in the low storage
 * bits. */
uint32_t smma_encode(smma_format f, double x, const smma_cvt *cvt);

/* Encodes the fp32 whose bits are given (exact: every fp32 is a double). */
uint32_t smma_encode_f32bits(smma_format f, uint32_t bits, const smma_cvt *cvt);

/* Returns the default conversion of the "cuda" profile: RN, satfinite. */
smma_cvt smma_cvt_default(void);

/* Helpers: the bits of an fp32 and back; exact. */
uint32_t smma_f32_bits(float x);
float smma_f32_from_bits(uint32_t bits);
uint64_t smma_f64_bits(double x);
double smma_f64_from_bits(uint64_t bits);

/*
 * Typed codes.  Each format has a one-member struct so that a code never
 * silently becomes a host number, and a pair of named conversions:
 *     smma_e4m3 smma_f64_to_e4m3(double x, const smma_cvt *cvt);
 *     smma_e4m3 smma_f32_to_e4m3(uint32_t f32bits, const smma_cvt *cvt);
 *     double    smma_e4m3_to_f64(smma_e4m3 x);
 */
#define SMMA_TYPED_FORMAT(name, ctype, fmt)                                   \
    typedef struct { ctype v; } smma_##name;                                  \
    static inline smma_##name smma_f64_to_##name(double x, const smma_cvt *c) \
    {                                                                         \
        smma_##name r;                                                        \
        r.v = (ctype)smma_encode(fmt, x, c);                                  \
        return r;                                                             \
    }                                                                         \
    static inline smma_##name smma_f32_to_##name(uint32_t b, const smma_cvt *c) \
    {                                                                         \
        smma_##name r;                                                        \
        r.v = (ctype)smma_encode_f32bits(fmt, b, c);                          \
        return r;                                                             \
    }                                                                         \
    static inline double smma_##name##_to_f64(smma_##name x)                  \
    {                                                                         \
        return smma_decode(fmt, x.v);                                         \
    }

SMMA_TYPED_FORMAT(e2m1, uint8_t, SMMA_E2M1)
SMMA_TYPED_FORMAT(e2m3, uint8_t, SMMA_E2M3)
SMMA_TYPED_FORMAT(e3m2, uint8_t, SMMA_E3M2)
SMMA_TYPED_FORMAT(e4m3, uint8_t, SMMA_E4M3)
SMMA_TYPED_FORMAT(e5m2, uint8_t, SMMA_E5M2)
SMMA_TYPED_FORMAT(e8m0, uint8_t, SMMA_E8M0)
SMMA_TYPED_FORMAT(ue4m3, uint8_t, SMMA_UE4M3)
SMMA_TYPED_FORMAT(bf16, uint16_t, SMMA_BF16)
SMMA_TYPED_FORMAT(fp16, uint16_t, SMMA_FP16)
SMMA_TYPED_FORMAT(fp32, uint32_t, SMMA_FP32)

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_FORMAT_H */
