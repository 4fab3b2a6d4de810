/*
 * tests/sim/tcgen05-t.c - tcgen05 instruction and shared-memory descriptors,
 * and the canonical shared-memory operand layouts.
 *
 *   - literal instruction descriptors, derived by hand from the PTX ISA
 *     tables ("Instruction descriptor"), one per kind;
 *   - every legal field combination of every kind (fewer N and max-shift
 *     values at TEST_LEVEL 0) encodes to the word this file packs on its own
 *     from the ISA table, and decodes back to the same fields;
 *   - random words: decode succeeds exactly when this file's own reading of
 *     the tables says the word is legal, and then re-encodes to itself;
 *   - shared-memory descriptors: literals, round trips, errors;
 *   - the swizzles: permutations of 16-byte chunks, literal addresses;
 *   - the address function: literal addresses from the ISA's canonical-
 *     layout examples (tf32 K-major none / 32B, bf16 MN-major none / 32B /
 *     64B), a bijection onto the tile's bits for many dense shapes, errors.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/grid.h>
#include <softmma/tcgen05.h>

#include "tap/basic.h"

#define NKIND SMMA_TC05_KIND_COUNT

/* ---- this file's own reading of the ISA tables ------------------------------ */

static bool
is_bs(int kind)
{
    return kind >= SMMA_TC05_KIND_MXF8F6F4;
}

static bool
is_mxf4(int kind)
{
    return kind == SMMA_TC05_KIND_MXF4 || kind == SMMA_TC05_KIND_MXF4NVF4;
}

/* Legal A/B format codes as a bit mask, per kind (tf32, f16, f8f6f4, i8,
 * mxf8f6f4, mxf4, mxf4nvf4), and those that may be MN-major. */
static const unsigned fmt_mask[NKIND] = { 1u << 2, 0x3, 0x3B, 0x3, 0x3B, 0x2, 0x2 };
static const unsigned mn_mask[NKIND] = { 1u << 2, 0x3, 0x3, 0x3, 0x3, 0x0, 0x0 };
static const unsigned d_mask[NKIND] = { 0x2, 0x3, 0x3, 0x4, 0x1, 0x1, 0x1 }; /* bs: 0 only */

static uint32_t
ref_reserved(int kind)
{
    if (!is_bs(kind))
        return 1u << 6 | 1u << 23 | 1u << 29;
    return 0x3u | 1u << 3 | 1u << 6 | 0x7u << 24 |
           (kind == SMMA_TC05_KIND_MXF8F6F4 ? 1u << 31 : 1u << 12);
}

static uint32_t
ref_pack(int kind, const smma_tc05_idesc *d)
{
    uint32_t v = (uint32_t) d->sparse << 2 | d->a_fmt << 7 | d->b_fmt << 10 |
                 (uint32_t) d->negate_a << 13 | (uint32_t) d->negate_b << 14 |
                 (uint32_t) d->a_mn_major << 15 | (uint32_t) d->b_mn_major << 16 |
                 (d->n / 8) << 17;

    if (is_bs(kind))
        return v | d->sfb_id << 4 | d->scale_fmt << 23 | (d->m / 128) << 27 |
               d->sfa_id << 29 | (uint32_t) d->k96 << 31;
    return v | d->sparse_id | (uint32_t) d->saturate << 3 | d->d_fmt << 4 |
           (d->m / 16) << 24 | d->max_shift << 30;
}

static void
ref_unpack(int kind, uint32_t v, smma_tc05_idesc *d)
{
    memset(d, 0, sizeof(*d));
    d->sparse = v >> 2 & 1;
    d->a_fmt = v >> 7 & 7;
    d->b_fmt = v >> 10 & 7;
    d->negate_a = v >> 13 & 1;
    d->negate_b = v >> 14 & 1;
    d->a_mn_major = v >> 15 & 1;
    d->b_mn_major = v >> 16 & 1;
    d->n = (v >> 17 & 63) * 8;
    if (is_bs(kind)) {
        d->sfb_id = v >> 4 & 3;
        d->scale_fmt = v >> 23 & 1;
        d->m = (v >> 27 & 3) * 128;
        d->sfa_id = v >> 29 & 3;
        d->k96 = v >> 31 & 1;
    } else {
        d->sparse_id = v & 3;
        d->saturate = v >> 3 & 1;
        d->d_fmt = v >> 4 & 3;
        d->m = (v >> 24 & 31) * 16;
        d->max_shift = v >> 30 & 3;
    }
}

static bool
ref_legal(int kind, const smma_tc05_idesc *d)
{
    bool m_ok, n_ok;

    if (d->a_fmt > 7 || d->b_fmt > 7 || !(fmt_mask[kind] >> d->a_fmt & 1) ||
        !(fmt_mask[kind] >> d->b_fmt & 1))
        return false;
    if ((d->a_mn_major && !(mn_mask[kind] >> d->a_fmt & 1)) ||
        (d->b_mn_major && !(mn_mask[kind] >> d->b_fmt & 1)))
        return false;
    if (kind == SMMA_TC05_KIND_I8 && (d->negate_a || d->negate_b))
        return false;
    n_ok = d->n >= 8 && d->n <= 256 && d->n % 8 == 0 && (d->m != 256 || d->n % 16 == 0);
    if (is_bs(kind)) {
        m_ok = d->m == 128 || d->m == 256;
        if (d->sparse_id || d->saturate || d->d_fmt || d->max_shift)
            return false;
        if (!(d->scale_fmt == 1 || (d->scale_fmt == 0 && kind == SMMA_TC05_KIND_MXF4NVF4)))
            return false;
        if (is_mxf4(kind)) {
            if ((d->sfa_id != 0 && d->sfa_id != 2) || (d->sfb_id != 0 && d->sfb_id != 2))
                return false;
            if (d->k96 && d->sparse)
                return false;
        } else if (d->sfa_id > 3 || d->sfb_id > 3 || d->k96) {
            return false;
        }
    } else {
        m_ok = d->m == 32 || d->m == 64 || d->m == 128 || d->m == 256;
        if (d->sfa_id || d->sfb_id || d->scale_fmt || d->k96)
            return false;
        if (d->d_fmt > 3 || !(d_mask[kind] >> d->d_fmt & 1))
            return false;
        if (d->saturate && kind != SMMA_TC05_KIND_I8)
            return false;
        if (d->sparse_id > 3 || (d->sparse_id && !d->sparse) || d->max_shift > 3)
            return false;
    }
    return m_ok && n_ok;
}

static bool
idesc_eq(const smma_tc05_idesc *a, const smma_tc05_idesc *b)
{
    return a->sparse_id == b->sparse_id && a->sparse == b->sparse &&
           a->saturate == b->saturate && a->d_fmt == b->d_fmt && a->a_fmt == b->a_fmt &&
           a->b_fmt == b->b_fmt && a->negate_a == b->negate_a && a->negate_b == b->negate_b &&
           a->a_mn_major == b->a_mn_major && a->b_mn_major == b->b_mn_major &&
           a->n == b->n && a->m == b->m && a->max_shift == b->max_shift &&
           a->sfb_id == b->sfb_id && a->sfa_id == b->sfa_id && a->scale_fmt == b->scale_fmt &&
           a->k96 == b->k96;
}

static void
show(const char *what, int kind, const smma_tc05_idesc *d)
{
    diag("%s .kind::%s: sp_id %u sp %d sat %d d %u a %u b %u neg %d%d mn %d%d n %u m %u "
         "shift %u sfa %u sfb %u scale %u k96 %d", what, smma_tc05_kind_name(kind),
         d->sparse_id, d->sparse, d->saturate, d->d_fmt, d->a_fmt, d->b_fmt, d->negate_a,
         d->negate_b, d->a_mn_major, d->b_mn_major, d->n, d->m, d->max_shift, d->sfa_id,
         d->sfb_id, d->scale_fmt, d->k96);
}

/* ---- literal instruction descriptors ------------------------------------------ */

struct lit {
    int kind;
    smma_tc05_idesc d;
    uint32_t want;
    const char *why;
};

/* Each value below is summed by hand from the ISA table's bit positions;
 * the sums are written out in the why strings. */
static const struct lit lits[] = {
    { SMMA_TC05_KIND_F16, { .d_fmt = 1, .a_fmt = 1, .b_fmt = 1, .n = 256, .m = 128 },
      0x08400490, "f16 bf16xbf16->f32 m128n256: 1<<4 | 1<<7 | 1<<10 | 32<<17 | 8<<24" },
    { SMMA_TC05_KIND_F16, { .n = 8, .m = 64 }, 0x04020000,
      "f16 f16xf16->f16 m64n8: 1<<17 | 4<<24" },
    { SMMA_TC05_KIND_TF32, { .d_fmt = 1, .a_fmt = 2, .b_fmt = 2, .n = 128, .m = 128 },
      0x08200910, "tf32 m128n128: 1<<4 | 2<<7 | 2<<10 | 16<<17 | 8<<24" },
    { SMMA_TC05_KIND_F8F6F4,
      { .d_fmt = 1, .a_fmt = 0, .b_fmt = 1, .a_mn_major = true, .n = 128, .m = 128 },
      0x08208410, "f8f6f4 e4m3 (M-major) x e5m2 m128n128: 1<<4 | 1<<10 | 1<<15 | 16<<17 | 8<<24" },
    { SMMA_TC05_KIND_I8, { .saturate = true, .d_fmt = 2, .a_fmt = 1, .n = 64, .m = 64 },
      0x041000A8, "i8 s8xu8 satfinite m64n64: 1<<3 | 2<<4 | 1<<7 | 8<<17 | 4<<24" },
    { SMMA_TC05_KIND_F16,
      { .sparse_id = 3, .sparse = true, .d_fmt = 1, .negate_a = true, .negate_b = true,
        .b_mn_major = true, .n = 16, .m = 256, .max_shift = 2 },
      0x90056017, "f16 sparse id 3, negate both, N-major B, m256n16, shift 16: "
                  "3 | 1<<2 | 1<<4 | 1<<13 | 1<<14 | 1<<16 | 2<<17 | 16<<24 | 2<<30" },
    { SMMA_TC05_KIND_MXF8F6F4,
      { .a_fmt = 5, .b_fmt = 5, .n = 256, .m = 128, .sfa_id = 1, .sfb_id = 2, .scale_fmt = 1 },
      0x28C016A0, "mxf8f6f4 e2m1 ue8m0 m128n256 sfa 1 sfb 2: "
                  "2<<4 | 5<<7 | 5<<10 | 32<<17 | 1<<23 | 1<<27 | 1<<29" },
    { SMMA_TC05_KIND_MXF4NVF4, { .a_fmt = 1, .b_fmt = 1, .n = 128, .m = 128 }, 0x08200480,
      "mxf4nvf4 ue4m3 m128n128: 1<<7 | 1<<10 | 16<<17 | 1<<27" },
    { SMMA_TC05_KIND_MXF4,
      { .a_fmt = 1, .b_fmt = 1, .n = 256, .m = 256, .sfa_id = 2, .sfb_id = 2, .scale_fmt = 1,
        .k96 = true },
      0xD0C004A0, "mxf4 ue8m0 m256n256 K96 sfa 2 sfb 2: "
                  "2<<4 | 1<<7 | 1<<10 | 32<<17 | 1<<23 | 2<<27 | 2<<29 | 1<<31" },
};

static void
test_literals(void)
{
    size_t i;

    for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
        const struct lit *l = &lits[i];
        uint32_t got = 0;
        smma_tc05_idesc back;
        smma_error err = { "" };
        int rc = smma_tc05_idesc_encode(l->kind, &l->d, &got, &err);

        if (rc != SMMA_OK)
            diag("%s", err.msg);
        is_hex(l->want, got, "idesc %s", l->why);
        rc = smma_tc05_idesc_decode(l->kind, l->want, &back, &err);
        ok(rc == SMMA_OK && idesc_eq(&back, &l->d), "idesc 0x%08lx decodes to its fields",
           (unsigned long) l->want);
    }
}

/* ---- every legal combination ------------------------------------------------ */

static unsigned long enum_count, enum_bad;

static void
check_one(int kind, const smma_tc05_idesc *d)
{
    uint32_t got = 0;
    smma_tc05_idesc back;
    smma_error err = { "" };
    int rc;

    enum_count++;
    rc = smma_tc05_idesc_encode(kind, d, &got, &err);
    if (rc == SMMA_OK && got == ref_pack(kind, d))
        rc = smma_tc05_idesc_decode(kind, got, &back, &err);
    /* One combination in 61: each single-bit neighbour decodes exactly
     * when this file's reading of the tables calls it legal. */
    if (rc == SMMA_OK && enum_count % 61 == 0) {
        unsigned j;

        for (j = 0; j < 32; j++) {
            uint32_t w = got ^ 1u << j;
            smma_tc05_idesc r, x;
            bool want;

            ref_unpack(kind, w, &r);
            want = !(w & ref_reserved(kind)) && ref_legal(kind, &r);
            if ((smma_tc05_idesc_decode(kind, w, &x, &err) == SMMA_OK) != want) {
                rc = -1;
                diag("  neighbour 0x%08lx (bit %u): want %s", (unsigned long) w, j,
                     want ? "legal" : "illegal");
            }
        }
    }
    if (rc != SMMA_OK || got != ref_pack(kind, d) || !idesc_eq(&back, d)) {
        if (enum_bad++ < 10) {
            show("legal", kind, d);
            diag("  rc %d got 0x%08lx want 0x%08lx %s", rc, (unsigned long) got,
                 (unsigned long) ref_pack(kind, d), err.msg);
        }
    }
}

static void
test_enumerate(void)
{
    static const unsigned ns_quick[] = { 8, 16, 136, 248, 256 };
    int kind;
    bool quick = test_level() == 0;

    for (kind = 0; kind < NKIND; kind++) {
        unsigned long before = enum_count, bad_before = enum_bad;
        smma_tc05_idesc d;
        unsigned sp, sid, sat, dd, a, b, neg, ta, tb, ni, mi, x, sc, sfa, sfb, k96;
        static const unsigned ms_plain[] = { 32, 64, 128, 256 };
        static const unsigned ms_bs[] = { 128, 256 };
        unsigned nn = quick ? 5 : 32;

        for (sp = 0; sp < 2; sp++)
        for (sid = 0; sid < (is_bs(kind) || !sp ? 1u : 4u); sid++)
        for (sat = 0; sat < (kind == SMMA_TC05_KIND_I8 ? 2u : 1u); sat++)
        for (dd = 0; dd < 4; dd++)
        for (a = 0; a < 8; a++)
        for (b = 0; b < 8; b++)
        for (neg = 0; neg < (kind == SMMA_TC05_KIND_I8 ? 1u : 4u); neg++)
        for (ta = 0; ta < 2; ta++)
        for (tb = 0; tb < 2; tb++) {
            if (!(fmt_mask[kind] >> a & 1) || !(fmt_mask[kind] >> b & 1))
                continue;
            if ((ta && !(mn_mask[kind] >> a & 1)) || (tb && !(mn_mask[kind] >> b & 1)))
                continue;
            if (!(d_mask[kind] >> dd & 1))
                continue;
            for (mi = 0; mi < (is_bs(kind) ? 2u : 4u); mi++)
            for (ni = 0; ni < nn; ni++)
            for (x = 0; x < (is_bs(kind) ? 1u : quick ? 2u : 4u); x++)
            for (sc = 0; sc < (kind == SMMA_TC05_KIND_MXF4NVF4 ? 2u : 1u); sc++)
            for (sfa = 0; sfa < (is_bs(kind) ? 4u : 1u); sfa += is_mxf4(kind) ? 2 : 1)
            for (sfb = 0; sfb < (is_bs(kind) ? 4u : 1u); sfb += is_mxf4(kind) ? 2 : 1)
            for (k96 = 0; k96 < (is_mxf4(kind) && !sp ? 2u : 1u); k96++) {
                memset(&d, 0, sizeof(d));
                d.sparse = sp;
                d.sparse_id = sid;
                d.saturate = sat;
                d.d_fmt = is_bs(kind) ? 0 : dd;
                d.a_fmt = a;
                d.b_fmt = b;
                d.negate_a = neg & 1;
                d.negate_b = neg >> 1 & 1;
                d.a_mn_major = ta;
                d.b_mn_major = tb;
                d.m = is_bs(kind) ? ms_bs[mi] : ms_plain[mi];
                d.n = quick ? ns_quick[ni] : 8 * (ni + 1);
                if (d.m == 256 && d.n % 16)
                    continue;
                d.max_shift = quick ? x * 3 : x;
                d.scale_fmt = kind == SMMA_TC05_KIND_MXF4NVF4 ? sc : is_bs(kind) ? 1 : 0;
                d.sfa_id = sfa;
                d.sfb_id = sfb;
                d.k96 = k96;
                check_one(kind, &d);
            }
        }
        ok(enum_bad == bad_before && enum_count > before,
           "all %lu legal .kind::%s descriptors encode as the ISA table packs them and "
           "decode back (and 1 in 61: its 32 one-bit neighbours decode as the table says)",
           enum_count - before, smma_tc05_kind_name(kind));
    }
}

/* ---- random words --------------------------------------------------------- */

/* Replaces the M field and, three times in four, the A and B formats of v
 * with values drawn from small sets that are mostly legal. */
static uint32_t
steer(int kind, uint32_t v, uint64_t r)
{
    static const unsigned m_plain[6] = { 2, 4, 8, 16, 0, 6 };  /* m >> 4 */
    static const unsigned m_bs[4] = { 1, 2, 0, 3 };            /* m >> 7 */
    unsigned a, b, tries;

    if (is_bs(kind))
        v = (v & ~(3u << 27)) | m_bs[r % 4] << 27;
    else
        v = (v & ~(31u << 24)) | m_plain[r % 6] << 24;
    r >>= 8;
    if (r % 4 == 0)
        return v;
    r >>= 2;
    for (a = r & 7, tries = 0; !(fmt_mask[kind] >> a & 1) && tries < 8; tries++)
        a = (a + 1) & 7;
    r >>= 3;
    for (b = r & 7, tries = 0; !(fmt_mask[kind] >> b & 1) && tries < 8; tries++)
        b = (b + 1) & 7;
    return (v & ~(0x3Fu << 7)) | a << 7 | b << 10;
}

static void
test_random_words(void)
{
    tap_rng rng;
    int kind;
    unsigned long n = test_level() == 0 ? 20000 : 400000;

    tap_rng_seed(&rng, 0x7c905u);
    for (kind = 0; kind < NKIND; kind++) {
        unsigned long i, legal = 0, bad = 0;

        for (i = 0; i < n; i++) {
            uint32_t v = (uint32_t) tap_rng_next(&rng), again = 0;
            smma_tc05_idesc d, r;
            smma_error err = { "" };
            bool want;
            int rc;

            if (i % 2)
                v &= ~ref_reserved(kind);
            if (i % 4 == 1) /* steer M and the formats toward legal values */
                v = steer(kind, v, tap_rng_next(&rng));
            ref_unpack(kind, v, &r);
            want = !(v & ref_reserved(kind)) && ref_legal(kind, &r);
            rc = smma_tc05_idesc_decode(kind, v, &d, &err);
            if (rc == SMMA_OK)
                rc = smma_tc05_idesc_encode(kind, &d, &again, &err) == SMMA_OK && again == v
                         ? SMMA_OK : -1;
            legal += want;
            if ((rc == SMMA_OK) != want && bad++ < 10) {
                diag("word 0x%08lx: decode rc %d, want %s (%s)", (unsigned long) v, rc,
                     want ? "legal" : "illegal", err.msg);
                show("  fields", kind, &r);
            }
        }
        ok(bad == 0, "%lu random .kind::%s words: decode accepts exactly the %lu legal ones, "
           "which re-encode to themselves", n, smma_tc05_kind_name(kind), legal);
    }
}

/* ---- errors ------------------------------------------------------------------ */

static void
expect_error(int kind, const smma_tc05_idesc *d, const char *needle, const char *what)
{
    uint32_t out = 0xdeadbeef;
    smma_error err = { "" };
    int rc = smma_tc05_idesc_encode(kind, d, &out, &err);

    ok(rc == SMMA_EINVAL && strstr(err.msg, needle) != NULL && out == 0xdeadbeef,
       "encode refuses %s, naming '%s' (%s)", what, needle, err.msg);
}

static void
expect_decode_error(int kind, uint32_t v, const char *needle, const char *what)
{
    smma_tc05_idesc d;
    smma_error err = { "" };
    int rc = smma_tc05_idesc_decode(kind, v, &d, &err);

    ok(rc == SMMA_EINVAL && strstr(err.msg, needle) != NULL,
       "decode refuses %s, naming '%s' (%s)", what, needle, err.msg);
}

static void
test_errors(void)
{
    smma_tc05_idesc base = { .d_fmt = 1, .n = 128, .m = 128 }, d;
    smma_tc05_idesc bs = { .a_fmt = 5, .b_fmt = 5, .n = 128, .m = 128, .scale_fmt = 1 };
    smma_tc05_idesc nv = { .a_fmt = 1, .b_fmt = 1, .n = 128, .m = 128, .scale_fmt = 1 };
    smma_error err;

    d = nv, d.scale_fmt = 2;
    expect_error(SMMA_TC05_KIND_MXF4NVF4, &d, "(UE8M0 = 1, UE4M3 = 0)",
                 "scale_fmt 2 under .kind::mxf4nvf4, the legal codes named");
    d = bs, d.scale_fmt = 0;
    expect_error(SMMA_TC05_KIND_MXF8F6F4, &d, "(UE8M0 = 1)",
                 "UE4M3 scales under .kind::mxf8f6f4, UE8M0 named alone");
    d = base, d.m = 96;
    expect_error(SMMA_TC05_KIND_F16, &d, "m 96", "M = 96");
    d = base, d.n = 12;
    expect_error(SMMA_TC05_KIND_F16, &d, "n 12", "N = 12");
    d = base, d.n = 264;
    expect_error(SMMA_TC05_KIND_F16, &d, "n 264", "N = 264");
    d = base, d.m = 256, d.n = 24;
    expect_error(SMMA_TC05_KIND_F16, &d, "multiple of 16", "M = 256 with N = 24");
    d = base, d.a_fmt = 2;
    expect_error(SMMA_TC05_KIND_F16, &d, "a_fmt", "tf32 A under .kind::f16");
    d = base, d.b_fmt = 2;
    expect_error(SMMA_TC05_KIND_F8F6F4, &d, "b_fmt", "format code 2 under .kind::f8f6f4");
    d = base, d.d_fmt = 0;
    expect_error(SMMA_TC05_KIND_TF32, &d, "a_fmt", "f16 A under .kind::tf32");
    d = base, d.a_fmt = d.b_fmt = 2, d.d_fmt = 0;
    expect_error(SMMA_TC05_KIND_TF32, &d, "d_fmt", "an F16 D under .kind::tf32");
    d = base, d.saturate = true;
    expect_error(SMMA_TC05_KIND_F16, &d, "saturate", "saturate under .kind::f16");
    d = base, d.a_fmt = 5, d.a_mn_major = true;
    expect_error(SMMA_TC05_KIND_F8F6F4, &d, "a_mn_major", "an M-major e2m1 A");
    d = base, d.b_fmt = 3, d.b_mn_major = true;
    expect_error(SMMA_TC05_KIND_F8F6F4, &d, "b_mn_major", "an N-major e2m3 B");
    d = base, d.d_fmt = 2, d.negate_a = true;
    expect_error(SMMA_TC05_KIND_I8, &d, "negate", "negation under .kind::i8");
    d = base, d.sparse_id = 1;
    expect_error(SMMA_TC05_KIND_F16, &d, "sparse_id", "a sparsity selector when dense");
    d = base, d.sfa_id = 1;
    expect_error(SMMA_TC05_KIND_F16, &d, "sfa_id", "a scale id under .kind::f16");
    d = bs, d.m = 64;
    expect_error(SMMA_TC05_KIND_MXF8F6F4, &d, "m 64", "M = 64 block-scaled");
    d = bs, d.scale_fmt = 0;
    expect_error(SMMA_TC05_KIND_MXF8F6F4, &d, "scale_fmt", "ue4m3 scales under mxf8f6f4");
    d = nv, d.scale_fmt = 0;
    expect_error(SMMA_TC05_KIND_MXF4, &d, "scale_fmt", "ue4m3 scales under mxf4");
    d = nv, d.sfa_id = 1;
    expect_error(SMMA_TC05_KIND_MXF4NVF4, &d, "sfa_id", "scale id 1 under mxf4nvf4");
    d = nv, d.sfb_id = 3;
    expect_error(SMMA_TC05_KIND_MXF4, &d, "sfb_id", "scale id 3 under mxf4");
    d = nv, d.a_mn_major = true;
    expect_error(SMMA_TC05_KIND_MXF4, &d, "a_mn_major", "transposed A under mxf4");
    d = nv, d.k96 = true, d.sparse = true;
    expect_error(SMMA_TC05_KIND_MXF4NVF4, &d, "k96", "sparse K = 96");
    d = bs, d.k96 = true;
    expect_error(SMMA_TC05_KIND_MXF8F6F4, &d, "k96", "bit 31 under mxf8f6f4");
    d = bs, d.d_fmt = 1;
    expect_error(SMMA_TC05_KIND_MXF8F6F4, &d, "d_fmt", "a D format under mxf8f6f4");
    expect_error(SMMA_TC05_KIND_COUNT, &base, "kind", "a kind out of range");

    expect_decode_error(SMMA_TC05_KIND_F16, 0x08400490u | 1u << 6, "reserved", "bit 6");
    expect_decode_error(SMMA_TC05_KIND_F16, 0x08400490u | 1u << 23, "reserved", "bit 23");
    expect_decode_error(SMMA_TC05_KIND_F16, 0x08400490u | 1u << 29, "reserved", "bit 29");
    expect_decode_error(SMMA_TC05_KIND_MXF4, 0x08200480u | 1u << 12, "reserved",
                        "bit 12 of mxf4");
    expect_decode_error(SMMA_TC05_KIND_MXF8F6F4, 0x28C016A0u | 1u << 31, "reserved",
                        "bit 31 of mxf8f6f4");
    expect_decode_error(SMMA_TC05_KIND_MXF8F6F4, 0x28C016A0u | 1u << 24, "reserved",
                        "bit 24 of mxf8f6f4");
    expect_decode_error(SMMA_TC05_KIND_F16, 0x00400490u, "m 0", "M = 0");
    expect_decode_error(SMMA_TC05_KIND_F16, 0x08000490u, "n 0", "N = 0");
    ok(smma_tc05_idesc_decode(SMMA_TC05_KIND_F16, 0x08400490u, NULL, &err) == SMMA_EINVAL,
       "decode refuses a NULL descriptor");
    is_string("mxf4nvf4", smma_tc05_kind_name(SMMA_TC05_KIND_MXF4NVF4), "kind name");
    is_string("?", smma_tc05_kind_name(SMMA_TC05_KIND_COUNT), "kind name out of range");
}

/* ---- shared-memory descriptors ---------------------------------------------- */

static void
test_sdesc(void)
{
    /* Hand-summed from the ISA's "Shared memory descriptor layout".  The
     * first is the ISA's K-major no-swizzle tf32 example (LBO 64 * 4 bytes,
     * encoded 16; SBO 32 * 4, encoded 8); the second a K-major 128B-swizzled
     * bf16 tile (LBO "not used, assumed to be 1", SBO 8 rows of 128 bytes,
     * CUTLASS's LayoutType::SWIZZLE_128B = 2 and SmemDescriptor::version_ = 1
     * at bit 46, as its make_umma_desc sets for Blackwell). */
    static const struct {
        smma_tc05_sdesc d;
        uint64_t want;
        const char *why;
    } lit[] = {
        { { 0, 256, 128, 0, false, SMMA_TC05_SWIZZLE_NONE }, 0x0000400800100000ull,
          "16<<16 | 8<<32 | 1<<46" },
        { { 0, 16, 1024, 0, false, SMMA_TC05_SWIZZLE_128B }, 0x4000404000010000ull,
          "1<<16 | 64<<32 | 1<<46 | 2<<61" },
        { { 0x3FFF0, 0x3FFF0, 0x3FFF0, 7, true, SMMA_TC05_SWIZZLE_32B },
          0xC01E7FFF3FFF3FFFull,
          "0x3FFF | 0x3FFF<<16 | 0x3FFF<<32 | 1<<46 | 7<<49 | 1<<52 | 6<<61" },
        { { 0x1230, 0x40, 0x200, 3, false, SMMA_TC05_SWIZZLE_128B_BASE32B },
          0x2006402000040123ull, "0x123 | 4<<16 | 32<<32 | 1<<46 | 3<<49 | 1<<61" },
        { { 0x400, 0, 512, 0, false, SMMA_TC05_SWIZZLE_64B }, 0x8000402000000040ull,
          "0x40 | 32<<32 | 1<<46 | 4<<61" },
    };
    static const smma_tc05_swizzle modes[5] = {
        SMMA_TC05_SWIZZLE_NONE, SMMA_TC05_SWIZZLE_128B_BASE32B, SMMA_TC05_SWIZZLE_128B,
        SMMA_TC05_SWIZZLE_64B, SMMA_TC05_SWIZZLE_32B,
    };
    tap_rng rng;
    size_t i;
    unsigned long bad = 0, legal = 0;
    smma_tc05_sdesc d, back;
    smma_error err = { "" };
    uint64_t v = 0;

    for (i = 0; i < sizeof(lit) / sizeof(lit[0]); i++) {
        v = 0;
        if (smma_tc05_sdesc_encode(&lit[i].d, &v, &err) != SMMA_OK)
            diag("%s", err.msg);
        is_hex(lit[i].want, v, "sdesc %s", lit[i].why);
        ok(smma_tc05_sdesc_decode(lit[i].want, &back, &err) == SMMA_OK &&
           back.start == lit[i].d.start && back.lbo == lit[i].d.lbo &&
           back.sbo == lit[i].d.sbo && back.base_offset == lit[i].d.base_offset &&
           back.lbo_absolute == lit[i].d.lbo_absolute && back.swizzle == lit[i].d.swizzle,
           "sdesc 0x%016llx decodes to its fields", (unsigned long long) lit[i].want);
    }

    tap_rng_seed(&rng, 0x5de5cu);
    for (i = 0; i < 100000; i++) {
        uint64_t r = tap_rng_next(&rng), again = 0;
        int rc;

        /* Half: a random legal field set; half: random words near legal. */
        if (i % 2) {
            d.start = (uint32_t) (r & 0x3FFF) << 4;
            d.lbo = (uint32_t) (r >> 14 & 0x3FFF) << 4;
            d.sbo = (uint32_t) (r >> 28 & 0x3FFF) << 4;
            d.base_offset = (unsigned) (r >> 42 & 7);
            d.lbo_absolute = r >> 45 & 1;
            d.swizzle = modes[(r >> 46) % 5];
            rc = smma_tc05_sdesc_encode(&d, &v, &err);
            if (rc == SMMA_OK)
                rc = smma_tc05_sdesc_decode(v, &back, &err);
            if (rc != SMMA_OK || d.start != back.start || d.lbo != back.lbo ||
                d.sbo != back.sbo || d.base_offset != back.base_offset ||
                d.lbo_absolute != back.lbo_absolute || d.swizzle != back.swizzle ||
                (v >> 46 & 7) != 1)
                bad++;
        } else {
            bool want;

            r |= (uint64_t) 1 << 46;
            r &= ~((uint64_t) 3 << 47);
            if (i % 4 == 0)
                r &= ~((uint64_t) 3 << 14 | (uint64_t) 3 << 30 | (uint64_t) 0xFF << 53);
            want = !(r >> 14 & 3) && !(r >> 30 & 3) && !(r >> 53 & 0xFF) &&
                   (r >> 61 == 0 || r >> 61 == 1 || r >> 61 == 2 || r >> 61 == 4 ||
                    r >> 61 == 6);
            rc = smma_tc05_sdesc_decode(r, &back, &err);
            if (rc == SMMA_OK)
                rc = smma_tc05_sdesc_encode(&back, &again, &err) == SMMA_OK && again == r
                         ? SMMA_OK : -1;
            legal += want;
            if ((rc == SMMA_OK) != want && bad++ < 10)
                diag("sdesc word 0x%016llx: rc %d want %d", (unsigned long long) r, rc, want);
        }
    }
    ok(bad == 0, "100000 shared-memory descriptors: field round trips, and decode accepts "
       "exactly the %lu legal words", legal);

    memset(&d, 0, sizeof(d));
    d.lbo = 8;
    ok(smma_tc05_sdesc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "lbo"),
       "sdesc refuses an LBO not a multiple of 16 (%s)", err.msg);
    d.lbo = 0, d.start = 0x40000;
    ok(smma_tc05_sdesc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "start"),
       "sdesc refuses a start address of 2^18 (%s)", err.msg);
    d.start = 0, d.sbo = 0x12348;
    ok(smma_tc05_sdesc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "sbo"),
       "sdesc refuses an unaligned SBO (%s)", err.msg);
    d.sbo = 0, d.base_offset = 8;
    ok(smma_tc05_sdesc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "base_offset"),
       "sdesc refuses base offset 8 (%s)", err.msg);
    d.base_offset = 0, d.swizzle = (smma_tc05_swizzle) 3;
    ok(smma_tc05_sdesc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "swizzle"),
       "sdesc refuses swizzle mode 3 (%s)", err.msg);
    ok(smma_tc05_sdesc_decode(0x0000400800100000ull & ~((uint64_t) 1 << 46), &back, &err) ==
       SMMA_EINVAL && strstr(err.msg, "46-48"),
       "sdesc decode refuses a word without the fixed 0b001 (%s)", err.msg);
    ok(smma_tc05_sdesc_decode(0x0000400800100000ull | (uint64_t) 1 << 47, &back, &err) ==
       SMMA_EINVAL && strstr(err.msg, "46-48"),
       "sdesc decode refuses bits 46-48 = 0b011 (%s)", err.msg);
    ok(smma_tc05_sdesc_decode(0x0000800800100000ull, &back, &err) == SMMA_EINVAL &&
           strcmp(err.msg, "bits 46-48 of 0x0000800800100000 are 2, not the fixed 0b001") == 0,
       "... the message gives the field's value, 0b010: %s", err.msg);
    ok(smma_tc05_sdesc_decode(0x0000400800100000ull | (uint64_t) 1 << 53, &back, &err) ==
       SMMA_EINVAL && strstr(err.msg, "reserved"),
       "sdesc decode refuses bit 53 (%s)", err.msg);
    ok(smma_tc05_sdesc_decode(0x0000400800100000ull | (uint64_t) 1 << 15, &back, &err) ==
       SMMA_EINVAL && strstr(err.msg, "reserved"),
       "sdesc decode refuses bit 15 (%s)", err.msg);
    ok(smma_tc05_sdesc_decode(0x0000400800100000ull | (uint64_t) 5 << 61, &back, &err) ==
       SMMA_EINVAL && strstr(err.msg, "swizzle"),
       "sdesc decode refuses swizzle mode 5 (%s)", err.msg);
}

/* ---- swizzles ------------------------------------------------------------------ */

static void
test_swizzle(void)
{
    static const smma_tc05_swizzle modes[5] = {
        SMMA_TC05_SWIZZLE_NONE, SMMA_TC05_SWIZZLE_32B, SMMA_TC05_SWIZZLE_64B,
        SMMA_TC05_SWIZZLE_128B, SMMA_TC05_SWIZZLE_128B_BASE32B,
    };
    static const struct {
        smma_tc05_swizzle s;
        uint32_t in, out;
        const char *why;
    } lit[] = {
        { SMMA_TC05_SWIZZLE_32B, 0x80, 0x90, "32B: row 4 of 32-byte rows, bit 7 flips bit 4" },
        { SMMA_TC05_SWIZZLE_32B, 0x100, 0x100, "32B: bit 8 does not feed" },
        { SMMA_TC05_SWIZZLE_64B, 198, 214, "64B: bits 7-8 = 01 flip bit 4" },
        { SMMA_TC05_SWIZZLE_64B, 0x180, 0x1B0, "64B: bits 7-8 = 11 flip bits 4-5" },
        { SMMA_TC05_SWIZZLE_64B, 0x200, 0x200, "64B: bit 9 does not feed" },
        { SMMA_TC05_SWIZZLE_128B, 0x390, 0x3E0, "128B: bits 7-9 = 111 flip bits 4-6" },
        { SMMA_TC05_SWIZZLE_128B, 0x200, 0x240, "128B: bit 9 flips bit 6" },
        { SMMA_TC05_SWIZZLE_128B, 0x40F, 0x40F, "128B: bit 10 and bits 0-3 do not feed" },
        { SMMA_TC05_SWIZZLE_128B_BASE32B, 0x80, 0xA0, "128B/32B: bit 7 flips bit 5" },
        { SMMA_TC05_SWIZZLE_128B_BASE32B, 0x190, 0x1F0, "128B/32B: bits 7-8 flip bits 5-6" },
        { SMMA_TC05_SWIZZLE_128B_BASE32B, 0x200, 0x200, "128B/32B: bit 9 does not feed" },
        { SMMA_TC05_SWIZZLE_NONE, 0x3F0, 0x3F0, "none" },
    };
    size_t i;
    unsigned m;

    for (i = 0; i < sizeof(lit) / sizeof(lit[0]); i++)
        is_hex(lit[i].out, smma_tc05_swizzle_apply(lit[i].s, lit[i].in), "swizzle %s",
               lit[i].why);
    for (m = 0; m < 5; m++) {
        static unsigned char seen[4096];
        uint32_t a;
        bool good = true;

        memset(seen, 0, sizeof(seen));
        for (a = 0; a < 4096; a++) {
            uint32_t s = smma_tc05_swizzle_apply(modes[m], a + 8192);

            if (s < 8192 || s >= 8192 + 4096 || seen[s - 8192]++ || (s & 15) != (a & 15) ||
                smma_tc05_swizzle_apply(modes[m], s) != a + 8192)
                good = false;
        }
        ok(good, "swizzle mode %d permutes each 1024-byte block, keeps bits 0-3, and is "
           "its own inverse", (int) modes[m]);
    }
    is_int(16, smma_tc05_swizzle_bytes(SMMA_TC05_SWIZZLE_NONE), "swizzle bytes none");
    is_int(128, smma_tc05_swizzle_bytes(SMMA_TC05_SWIZZLE_128B_BASE32B),
           "swizzle bytes 128B/32B");
    is_int(0, smma_tc05_swizzle_bytes((smma_tc05_swizzle) 5), "swizzle bytes of mode 5");
}

/* ---- the address function ---------------------------------------------------- */

static uint32_t
addr_of(const smma_tc05_layout *l, unsigned row, unsigned k, unsigned *bit)
{
    uint32_t byte = 0xFFFFFFFF;
    smma_error err = { "" };
    unsigned b = 99;

    if (smma_tc05_smem_addr(l, 0, row, k, &byte, &b, &err) != SMMA_OK)
        diag("(%u, %u): %s", row, k, err.msg);
    if (bit != NULL)
        *bit = b;
    return byte;
}

/* A CuTe layout ((s0,s1,s2),(t0,t1)) : ((d0,d1,d2),(e0,e1)) evaluated at
 * (row, k), in elements; s2 = 1 and d2 = 0 for a two-level row mode. */
struct cute {
    unsigned s[3], d[3], t[2], e[2];
};

static unsigned
cute_eval(const struct cute *c, unsigned row, unsigned k)
{
    unsigned r0 = row % c->s[0], r1 = row / c->s[0] % c->s[1], r2 = row / c->s[0] / c->s[1];
    unsigned k0 = k % c->t[0], k1 = k / c->t[0];

    return r0 * c->d[0] + r1 * c->d[1] + r2 * c->d[2] + k0 * c->e[0] + k1 * c->e[1];
}

static void
test_addr_examples(void)
{
    /* The ISA's worked examples of "Canonical Layouts": each exact layout, in
     * elements, with the LBO and SBO of its table. */
    static const struct {
        const char *name;
        smma_tc05_layout l;
        struct cute c;
        unsigned rows, ks;
    } ex[] = {
        { "K-major, no swizzle, tf32: ((8,2),(4,4)):((4,32),(1,64)), LBO 256, SBO 128",
          { false, SMMA_TC05_SWIZZLE_NONE, 32, 256, 128 },
          { { 8, 2, 1 }, { 4, 32, 0 }, { 4, 4 }, { 1, 64 } }, 16, 16 },
        /* The ISA writes the K mode as (4,4):(1,4); with rows 8 elements apart
         * only the first atom (k < 8) is a layout, so only it is checked. */
        { "K-major, 32B, tf32: Swizzle<1,4,3> o ((8,2),(4,2)):((8,64),(1,4)), SBO 256",
          { false, SMMA_TC05_SWIZZLE_32B, 32, 16, 256 },
          { { 8, 2, 1 }, { 8, 64, 0 }, { 4, 2 }, { 1, 4 } }, 16, 8 },
        { "MN-major, no swizzle, bf16: ((8,1,2),(8,2)):((1,8,64),(8,128)), LBO 256, SBO 128",
          { true, SMMA_TC05_SWIZZLE_NONE, 16, 256, 128 },
          { { 8, 1, 2 }, { 1, 8, 64 }, { 8, 2 }, { 8, 128 } }, 16, 16 },
        { "MN-major, 32B, bf16: Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256)), "
          "LBO 256, SBO 512",
          { true, SMMA_TC05_SWIZZLE_32B, 16, 256, 512 },
          { { 8, 2, 2 }, { 1, 8, 128 }, { 8, 2 }, { 16, 256 } }, 32, 16 },
        { "MN-major, 64B, bf16: Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512)), "
          "LBO 512, SBO 1024",
          { true, SMMA_TC05_SWIZZLE_64B, 16, 512, 1024 },
          { { 8, 4, 2 }, { 1, 8, 256 }, { 8, 2 }, { 32, 512 } }, 64, 16 },
    };
    static const struct {
        int ex;
        unsigned row, k;
        uint32_t want;
    } hand[] = {
        { 0, 9, 5, 404 },   /* 1*16 + 1*128 + 1*4 + 1*256 */
        { 0, 15, 15, 1020 }, /* 7*16 + 128 + 3*4 + 3*256 */
        { 1, 4, 0, 144 },   /* 4*32 = 128, bit 7 flips bit 4 */
        { 1, 4, 4, 128 },   /* 128 + 16 = 144, bit 7 flips bit 4 back */
        { 2, 9, 9, 402 },   /* 1*2 + 1*128 + 1*16 + 1*256 */
        { 3, 0, 4, 144 },   /* 4*32 = 128 -> 144 */
        { 3, 8, 4, 128 },   /* 16 + 128 = 144 -> 128 */
        { 3, 1, 5, 178 },   /* 2 + 160 = 162 -> 178 */
        { 4, 3, 3, 214 },   /* 6 + 192 = 198, bits 7-8 = 01 -> 214 */
    };
    size_t i;

    for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
        unsigned r, k, bad = 0;

        for (r = 0; r < ex[i].rows; r++)
            for (k = 0; k < ex[i].ks; k++) {
                uint32_t want = smma_tc05_swizzle_apply(
                    ex[i].l.swizzle, cute_eval(&ex[i].c, r, k) * (ex[i].l.elem_bits / 8));
                uint32_t got = addr_of(&ex[i].l, r, k, NULL);

                if (got != want && bad++ < 10)
                    diag("(%u, %u): want %lu got %lu", r, k, (unsigned long) want,
                         (unsigned long) got);
            }
        ok(bad == 0, "address = the ISA example's exact layout: %s", ex[i].name);
    }
    for (i = 0; i < sizeof(hand) / sizeof(hand[0]); i++)
        is_int(hand[i].want, addr_of(&ex[hand[i].ex].l, hand[i].row, hand[i].k, NULL),
               "hand-checked address of (%u, %u) in example %d", hand[i].row, hand[i].k,
               hand[i].ex);

    /* K-major 128B bf16 (rows 128 bytes apart, SBO 1024). */
    {
        smma_tc05_layout l = { false, SMMA_TC05_SWIZZLE_128B, 16, 16, 1024 };
        unsigned bit;

        is_int(144, addr_of(&l, 1, 0, NULL), "K 128B bf16 (1, 0): 128 -> 144");
        is_int(992, addr_of(&l, 7, 8, NULL), "K 128B bf16 (7, 8): 912 -> 992");
        is_int(1024 + 16 * 3, addr_of(&l, 8, 24, NULL), "K 128B bf16 (8, 24): 1072, "
               "bits 7-9 = 0");
        l.elem_bits = 4;
        l.swizzle = SMMA_TC05_SWIZZLE_NONE;
        l.lbo = 256;
        l.sbo = 128;
        is_int(0, addr_of(&l, 0, 1, &bit), "K none e2m1 (0, 1): byte 0");
        is_int(4, bit, "K none e2m1 (0, 1): high nibble");
        is_int(256, addr_of(&l, 0, 33, &bit), "K none e2m1 (0, 33): byte 256 (LBO)");
        is_int(4, bit, "K none e2m1 (0, 33): high nibble");
        is_int(17, addr_of(&l, 1, 2, &bit), "K none e2m1 (1, 2): byte 17");
        is_int(0, bit, "K none e2m1 (1, 2): low nibble");
    }
}

/* Dense tiles: every element's bits lie in the tile and no two overlap. */
static void
test_addr_bijection(void)
{
    static const smma_tc05_swizzle modes[4] = {
        SMMA_TC05_SWIZZLE_NONE, SMMA_TC05_SWIZZLE_32B, SMMA_TC05_SWIZZLE_64B,
        SMMA_TC05_SWIZZLE_128B,
    };
    static const unsigned ebits[4] = { 4, 8, 16, 32 };
    static unsigned char used[65536];
    unsigned mn, mi, ei, order, gr, gk, count = 0, bad = 0;

    for (mn = 0; mn < 2; mn++)
    for (mi = 0; mi < 4; mi++)
    for (ei = 0; ei < 4; ei++)
    for (order = 0; order < 2; order++)
    for (gr = 1; gr <= 4; gr *= 2)
    for (gk = 1; gk <= 3; gk++) {
        smma_tc05_layout l;
        unsigned t = 128 / ebits[ei], w = smma_tc05_swizzle_bytes(modes[mi]);
        unsigned c = w / 16, rows, ks, r, k, nbytes, atom;
        bool good = true;
        smma_error err;

        l.mn_major = mn;
        l.swizzle = modes[mi];
        l.elem_bits = ebits[ei];
        if (!mn && mi == 0) {          /* core matrices of 128 bytes */
            rows = 8 * gr, ks = t * gk;
            l.sbo = order ? 128 * gk : 128;
            l.lbo = order ? 128 : 128 * gr;
        } else if (!mn) {              /* one atom along K, gr*... groups of 8 rows */
            if (gk > 1)
                continue;
            rows = 8 * gr, ks = c * t;
            l.sbo = 8 * w;
            l.lbo = 16;
        } else if (mi == 0) {
            rows = t * gr, ks = 8 * gk;
            l.sbo = order ? 128 * gk : 128;
            l.lbo = order ? 128 : 128 * gr;
        } else {                       /* atoms of W bytes x 8 k */
            rows = c * t * gr, ks = 8 * gk;
            atom = 8 * w;
            l.lbo = order ? atom * gk : atom;
            l.sbo = order ? atom : atom * gr;
        }
        nbytes = rows * ks * ebits[ei] / 8;
        if (nbytes > sizeof(used))
            bail("tile of %u bytes too large", nbytes);
        memset(used, 0, nbytes);
        for (r = 0; r < rows && good; r++)
            for (k = 0; k < ks && good; k++) {
                uint32_t byte;
                unsigned bit, j;

                if (smma_tc05_smem_addr(&l, 4096, r, k, &byte, &bit, &err) != SMMA_OK) {
                    diag("%s", err.msg);
                    good = false;
                    break;
                }
                byte -= 4096;
                for (j = 0; j < ebits[ei] && good; j++) {
                    unsigned b = byte * 8 + bit + j;

                    if (b >= nbytes * 8 || (used[b / 8] >> (b % 8) & 1))
                        good = false;
                    else
                        used[b / 8] |= (unsigned char) (1u << (b % 8));
                }
                if (!good)
                    diag("%s-major swizzle %d, %u-bit, %ux%u, LBO %lu SBO %lu: (%u, %u) at "
                         "byte %lu bit %u overlaps or leaves the tile",
                         mn ? "MN" : "K", (int) modes[mi], ebits[ei], rows, ks,
                         (unsigned long) l.lbo, (unsigned long) l.sbo, r, k,
                         (unsigned long) byte, bit);
            }
        count++;
        bad += !good;
    }
    ok(bad == 0 && count > 100, "%u dense tiles (K- and MN-major, every swizzle, 4/8/16/32-bit, "
       "both LBO/SBO orders, start 4096): each a bijection onto the tile's bits", count);
}

static void
test_addr_errors(void)
{
    smma_tc05_layout l = { false, SMMA_TC05_SWIZZLE_32B, 16, 16, 256 };
    uint32_t byte;
    unsigned bit;
    smma_error err = { "" };

    ok(smma_tc05_smem_addr(&l, 0, 0, 16, &byte, &bit, &err) == SMMA_EINVAL &&
       strstr(err.msg, "k 16"), "K-major 32B bf16: k = 16 leaves the atom (%s)", err.msg);
    ok(smma_tc05_smem_addr(&l, 0, 100, 15, &byte, &bit, &err) == SMMA_OK,
       "K-major 32B bf16: k = 15 is inside");
    l.elem_bits = 6;
    ok(smma_tc05_smem_addr(&l, 0, 0, 0, &byte, &bit, &err) == SMMA_EINVAL &&
       strstr(err.msg, "elem_bits"), "6-bit elements refused (%s)", err.msg);
    l.elem_bits = 8;
    l.swizzle = SMMA_TC05_SWIZZLE_128B_BASE32B;
    ok(smma_tc05_smem_addr(&l, 0, 0, 0, &byte, &bit, &err) == SMMA_EINVAL &&
       strstr(err.msg, "32B atomicity"), "128B/32B layout refused (%s)", err.msg);
    l.swizzle = (smma_tc05_swizzle) 3;
    ok(smma_tc05_smem_addr(&l, 0, 0, 0, &byte, &bit, &err) == SMMA_EINVAL,
       "swizzle mode 3 refused");
    /* The last byte of the 32-bit space: 8-bit K-major, no swizzle, row 7
     * is 7 x 16 bytes in, k 15 is byte 15: 0x7f past the start. */
    {
        smma_tc05_layout e8 = { false, SMMA_TC05_SWIZZLE_NONE, 8, 16, 1024 };
        smma_grid g;

        ok(smma_tc05_smem_addr(&e8, 0xffffff80u, 7, 15, &byte, &bit, &err) == SMMA_OK &&
               byte == 0xffffffffu,
           "start 0xffffff80, row 7, k 15: byte 0xffffffff, the last one");
        ok(smma_tc05_smem_addr(&e8, 0xffffff81u, 7, 15, &byte, &bit, &err) == SMMA_EINVAL &&
               strcmp(err.msg, "address of (7, 15) overflows 32 bits") == 0,
           "... one further overflows (%s)", err.msg);
        ok(smma_tc05_smem_grid(&e8, 0, 5, &g, &err) == SMMA_EINVAL &&
               strcmp(err.msg, "a tile of 0 x 5: rows and k must be 1..256") == 0,
           "a tile of 0 rows refused, rows first in the message (%s)", err.msg);
    }
}

int
main(void)
{
    double t0 = tap_seconds();

    plan_lazy();
    test_literals();
    test_enumerate();
    test_random_words();
    test_errors();
    test_sdesc();
    test_swizzle();
    test_addr_examples();
    test_addr_bijection();
    test_addr_errors();
    diag("%.2f s", tap_seconds() - t0);
    return exit_status();
}
