/*
 * model.c - the table of numerics models (see softmma/gemm.h).  Parameters
 * of the tensor-core models come from the published block-FMA model (shared
 * FACTS.md section 5); every one is provisional until softmma's own probes
 * on the GPU agree with it on at least 100,000 random cases.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <softmma/gemm.h>

#define PROV "provisional"

/* What tests/python/torch-t found of cuBLASLt's fp8 GEMM, the same for its
 * fast (cublaslt-fp8-fast) and promoted (cublaslt-fp8-promoted) accumulation. */
#define CUBLASLT_FP8_STATUS                                                              \
    "validated on H200 and H100 through PyTorch 2.11 (cuBLASLt of CUDA 13.0): 249,600 "  \
    "outputs of 75 problems, every fp8 pair torch takes, fp32, bf16 and fp16 D; "        \
    "per-tensor scales as alpha, 233,472 outputs (K not a multiple of 128 too); row-wise "\
    "scales (bf16 D, B's then A's in the epilogue) 55,808 outputs of 4 problems; the "   \
    "bias after the scales, rounded to fp32 once more, 266,240 outputs "                 \
    "(softmma.scaled_mm); where cuBLASLt splits K (small M N, large K; its choice per "  \
    "card) each 128-aligned slice is this model from zero and the slices add in fp32 in "\
    "order: 48,384 outputs of 27 problems (softmma.gemm_split_k; tests/python/torch-t)"

/* The k order of sm_90's mma.sync.m16n8k32 with fp8 operands as two f16
 * HMMA.16816 steps: each 8-bit register of A and B holds four consecutive k
 * (4t .. 4t+3, and 16 + 4t .. for the second pair of registers); its low
 * half unpacks to the f16 pair of k 4t, 4t+1, its high half to 4t+2, 4t+3.
 * The first step takes the low halves (k mod 4 in {0, 1}), the second the
 * high halves (bench/h100-mma-probe.md, tests/gpu/mma-t's candidates). */
static const unsigned char k_fp8_lo_hi[32] = {
    0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29,
    2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31
};

/* The format sets of the models' inputs (smma_model_takes). */
#define BIT SMMA_FMT_BIT
#define AB_16 (BIT(SMMA_BF16) | BIT(SMMA_FP16))
#define AB_FP8 (BIT(SMMA_E4M3) | BIT(SMMA_E5M2))
#define AB_F8F6F4 (AB_FP8 | BIT(SMMA_E2M1) | BIT(SMMA_E2M3) | BIT(SMMA_E3M2))
#define AB_SCALED (AB_F8F6F4 | AB_16)
#define SC_NONE BIT(SMMA_NONE)
#define SC_BLOCK (BIT(SMMA_E8M0) | BIT(SMMA_UE4M3))
#define SC_ANY (SC_NONE | SC_BLOCK)
#define D_F16 BIT(SMMA_FP16)
#define TAKES(ab, sc, d) .ab_formats = (ab), .scale_formats = (sc), .d_formats = (d)

static const smma_model models[] = {
    { .name = "exact-rn", .summary = "exact sum of C and all products, one rounding to nearest",
      .kind = SMMA_MODEL_EXACT, .round = SMMA_RN, .inputs = "any", .status = "definition" },
    { .name = "exact-rz", .summary = "exact sum of C and all products, one rounding toward zero",
      .kind = SMMA_MODEL_EXACT, .round = SMMA_RZ, .inputs = "any", .status = "definition" },
    { .name = "fp32-fma-seq",
      .summary = "a*sa, b*sb rounded to fp32, then sequential fp32 fma in k order",
      .kind = SMMA_MODEL_FMA_SEQ, .round = SMMA_RN, .inputs = "any", .status = "definition" },
    { .name = "a100-bf16", .summary = "A100 tensor core, bf16/fp16 inputs (block 8, neab 1)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 8, .neab = 1, .floor = -132,
      .inputs = "bf16, fp16", TAKES(AB_16, SC_NONE, 0), .status = PROV },
    { .name = "ada-bf16", .summary = "Ada (sm_89) tensor core, bf16/fp16 inputs (block 8, neab 1)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 8, .neab = 1, .floor = -133,
      .inputs = "bf16, fp16", TAKES(AB_16, SC_NONE, 0), .status = PROV },
    { .name = "ada-fp8", .summary = "Ada (sm_89) tensor core, fp8 inputs (block 16, neab -10)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 16, .neab = -10, .floor = -133,
      .inputs = "e4m3, e5m2", TAKES(AB_FP8, SC_NONE, 0), .status = PROV },
    { .name = "h100-bf16", .summary = "H100/H200 tensor core, bf16/fp16 inputs (block 16, neab 2)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 16, .neab = 2, .floor = -133,
      .inputs = "bf16, fp16", .zero_plus = true,
      TAKES(AB_16, SC_NONE, 0),
      .status = "validated on H100 (mma.sync.m16n8k16 bf16 and f16, 1,000,000 cases each; "
                "wgmma m64n8k16 bf16 and f16, 100,000 cases each)" },
    { .name = "h100-fp8", .summary = "H100/H200 tensor core, fp8 inputs (block 32, neab -10)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 32, .neab = -10, .floor = -133,
      .inputs = "e4m3, e5m2, without scales or with e8m0", .zero_plus = true,
      TAKES(AB_FP8, SC_NONE | BIT(SMMA_E8M0), 0),
      .status = "validated on H100 for wgmma (m64n8k32, every e4m3/e5m2 pair, 100,000 cases "
                "each); refuted for mma.sync.m16n8k32 (0 of 10,000 cases)" },
    { .name = "b200-bf16", .summary = "B200 tensor core, bf16/fp16 inputs (block 16, neab 2)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 16, .neab = 2, .floor = -133,
      .inputs = "bf16, fp16", TAKES(AB_16, SC_NONE, 0), .status = PROV },
    { .name = "b200-fp8",
      .summary = "B200 fp8: blocks of 32 summed exactly, one rounding to nearest",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RN, .fma = 32, .neab = SMMA_NEAB_EXACT,
      .floor = -133, .inputs = "e2m1, e2m3, e3m2, e4m3, e5m2, with or without scales",
      TAKES(AB_F8F6F4, SC_ANY, 0),
      .status = PROV " (fits 9,999 of 10,000 published measurements)" },
    { .name = "b200-fp8-trunc",
      .summary = "B200 fp8: blocks of 32 summed exactly, truncated to fp32, + C to nearest",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RN, .fma = 32, .neab = SMMA_NEAB_EXACT,
      .floor = -133, .inputs = "e4m3, e5m2", .psum_apart = true, .psum_round = SMMA_RZ,
      TAKES(AB_FP8, SC_ANY, 0),
      .status = PROV " (fits the published measurements; not probed by softmma)" },
    { .name = "h100-fp8-mma-sync",
      .summary = "sm_90 mma.sync fp8: exact fp8 -> f16, h100-bf16 from 0 on k mod 4 in {0,1}, "
                 "then {2,3}, then + C (fp32, to nearest)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 16, .neab = 2, .floor = -133,
      .inputs = "e4m3, e5m2", .korder = k_fp8_lo_hi, .korder_len = 32, .upcast_f16 = true,
      .c_last = true,
      TAKES(AB_FP8, SC_NONE, 0),
      .status = "validated on H100 (mma.sync.m16n8k32 e4m3 and e5m2, 100,000 cases each)" },
    { .name = "h100-f16acc",
      .summary = "H100 f16 accumulators: h100-bf16's aligned sum rounded to nearest f16",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 16, .neab = 2, .floor = -133,
      .inputs = "bf16, fp16 with an fp16 D", .f16_acc = SMMA_F16ACC_RN, .zero_plus = true,
      TAKES(AB_16, SC_NONE, D_F16),
      .status = "validated on H100 (mma.sync.m16n8k16 f16.f16.f16.f16, 100,000 cases)" },
    { .name = "bf16-upcast-h100",
      .summary = "Triton emulation: a*sa, b*sb rounded to bf16, then the H100 bf16 model",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 16, .neab = 2, .floor = -133,
      .upcast_bf16 = true, .zero_plus = true, .inputs = "any element format with scales",
      TAKES(AB_SCALED, SC_BLOCK, 0), .status = PROV },
    /* The same emulation before the block-FMA models of other GPUs. */
    { .name = "bf16-upcast-a100",
      .summary = "a*sa, b*sb rounded to bf16, then the A100 bf16 model (a100-bf16)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 8, .neab = 1, .floor = -132,
      .upcast_bf16 = true, .inputs = "any element format with scales",
      TAKES(AB_SCALED, SC_BLOCK, 0),
      .status = PROV },
    { .name = "bf16-upcast-ada",
      .summary = "a*sa, b*sb rounded to bf16, then the Ada bf16 model (ada-bf16)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 8, .neab = 1, .floor = -133,
      .upcast_bf16 = true, .inputs = "any element format with scales",
      TAKES(AB_SCALED, SC_BLOCK, 0),
      .status = PROV },
    { .name = "bf16-upcast-b200",
      .summary = "a*sa, b*sb rounded to bf16, then the B200 bf16 model (b200-bf16)",
      .kind = SMMA_MODEL_BLOCK_FMA, .round = SMMA_RZ, .fma = 16, .neab = 2, .floor = -133,
      .upcast_bf16 = true, .inputs = "any element format with scales",
      TAKES(AB_SCALED, SC_BLOCK, 0),
      .status = PROV },
    { .name = "h100-fp8-promote32",
      .summary = "each 32 k summed by h100-fp8 from 0, then fp32 fma with sa*sb (DeepGEMM style)",
      .kind = SMMA_MODEL_PROMOTE, .round = SMMA_RN, .promote = 32, .inner = "h100-fp8",
      .inputs = "e2m1 .. e5m2 with scales", TAKES(AB_F8F6F4, SC_BLOCK, 0), .status = PROV },
    { .name = "h100-fp8-promote16",
      .summary = "each 16 k summed by h100-fp8 from 0, then fp32 fma with sa*sb",
      .kind = SMMA_MODEL_PROMOTE, .round = SMMA_RN, .promote = 16, .inner = "h100-fp8",
      .inputs = "e2m1 .. e5m2 with scales", TAKES(AB_F8F6F4, SC_BLOCK, 0), .status = PROV },
    /* cuBLASLt's fp8 GEMM on the H100/H200 with use_fast_accum=False: the
     * main loop's accumulator is promoted into fp32 every 128 k. */
    { .name = "cublaslt-fp8-promoted",
      .summary = "cuBLASLt fp8 (promoted accumulation): each 128 k summed by h100-fp8 from 0, "
                 "then added to the fp32 sum to nearest",
      .kind = SMMA_MODEL_PROMOTE, .round = SMMA_RN, .promote = 128, .inner = "h100-fp8",
      .unscaled = true, .inputs = "e4m3, e5m2 without block scales",
      TAKES(AB_FP8, SC_NONE, 0), .status = CUBLASLT_FP8_STATUS },
};

/* Names that stand for a model computing exactly the same (doc/models.md). */
static const smma_model_alias aliases[] = {
    { .name = "cublaslt-bf16", .model = "h100-bf16",
      .summary = "cuBLASLt bf16 GEMM (torch.matmul) where it sums each output in one chain",
      .status = PROV " (H200 and H100 through PyTorch 2.11: 16,423 of 16,423 sampled outputs "
                "of 7 "
                "problems, 1x1x1 to 512^3, bf16 D; fp16 operands and D 28,711 of 10, a "
                "test that cannot tell it from exact-rn; where cuBLASLt splits K, each "
                "128-aligned slice this model from zero, added in fp32 in order: 24,576 "
                "outputs of 3 "
                "problems; tests/python/torch-t)" },
    { .name = "cublaslt-fp8-fast", .model = "h100-fp8",
      .summary = "cuBLASLt fp8 (use_fast_accum): h100-fp8's chain in k order",
      .status = CUBLASLT_FP8_STATUS },
    { .name = "triton-dot-bf16", .model = "h100-bf16",
      .summary = "Triton's tl.dot on bf16 (Hopper wgmma): one fp32 chain in k order",
      .status = "validated on H200 and H100 through Triton 3.6: 24,576 sampled outputs of 6 "
                "problems (M, N 64-128, K 520-4096; k tiles 32 and 64; fp32 D; "
                "tests/python/torch-t)" },
    { .name = "triton-dot-fp8", .model = "h100-fp8",
      .summary = "Triton's tl.dot on e4m3 (Hopper wgmma): one h100-fp8 chain, not promoted",
      .status = "validated on H200 and H100 through Triton 3.6: 36,864 sampled outputs of 9 "
                "problems (M, N 64-128, K 520-4096; k tiles 32, 64, 128; fp32 D; "
                "tests/python/torch-t)" },
};

#define ALIAS_COUNT (sizeof(aliases) / sizeof(aliases[0]))

#define MODEL_COUNT (sizeof(models) / sizeof(models[0]))

size_t
smma_model_count(void)
{
    return MODEL_COUNT;
}

const smma_model *
smma_model_at(size_t i)
{
    return i < MODEL_COUNT ? &models[i] : NULL;
}

size_t
smma_model_alias_count(void)
{
    return ALIAS_COUNT;
}

const smma_model_alias *
smma_model_alias_at(size_t i)
{
    return i < ALIAS_COUNT ? &aliases[i] : NULL;
}

/* Appends text to buf (size bytes) at *len, as far as it fits; *len counts
 * the whole text even where it does not (as snprintf). */
static void
append(char *buf, size_t size, size_t *len, const char *text)
{
    size_t n = strlen(text);

    if (*len < size)
        snprintf(buf + *len, size - *len, "%s", text);
    *len += n;
}

size_t
smma_model_names(char *buf, size_t size)
{
    size_t i, len = 0;

    if (size > 0)
        buf[0] = '\0';
    for (i = 0; i < MODEL_COUNT; i++) {
        append(buf, size, &len, i ? " " : "");
        append(buf, size, &len, models[i].name);
    }
    append(buf, size, &len, "; aliases:");
    for (i = 0; i < ALIAS_COUNT; i++) {
        append(buf, size, &len, " ");
        append(buf, size, &len, aliases[i].name);
        append(buf, size, &len, " (");
        append(buf, size, &len, aliases[i].model);
        append(buf, size, &len, ")");
    }
    return len;
}

int
smma_model_from_name(const char *name, const smma_model **out, smma_error *err)
{
    char known[sizeof(err->msg)];
    size_t i;

    if (name == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no model given");
    for (i = 0; i < ALIAS_COUNT; i++)
        if (strcasecmp(name, aliases[i].name) == 0)
            name = aliases[i].model;
    for (i = 0; i < MODEL_COUNT; i++)
        if (strcasecmp(name, models[i].name) == 0) {
            *out = &models[i];
            return SMMA_OK;
        }
    /* The whole list where it fits the message; else where to find it. */
    if (smma_model_names(known, sizeof(known)) + strlen(name) + 32 < sizeof(known))
        return smma_error_set(err, SMMA_EINVAL, "unknown model '%s' (known: %s)", name, known);
    return smma_error_set(err, SMMA_EINVAL, "unknown model '%s' (softmma models lists the "
                          "models and their aliases)", name);
}

/* Appends the formats of set to buf, joined by "or"; `none` (first) for the
 * bit of SMMA_NONE. */
static void
append_set(char *buf, size_t size, size_t *len, unsigned set, const char *none)
{
    unsigned i, f, n = 0, total = 0;

    for (f = 0; f <= SMMA_NONE; f++)
        total += (set >> f) & 1u;
    for (i = 0; i <= SMMA_NONE; i++) {
        f = i == 0 ? SMMA_NONE : i - 1; /* "none" first */
        if (!(set & SMMA_FMT_BIT(f)))
            continue;
        append(buf, size, len, n == 0 ? "" : n + 1 == total ? " or " : ", ");
        append(buf, size, len, f == SMMA_NONE ? none : smma_format_name((smma_format) f));
        n++;
    }
}

void
smma_model_inputs(const smma_model *m, char *buf, size_t size)
{
    size_t len = 0;

    if (size > 0)
        buf[0] = '\0';
    if (m->ab_formats == 0 && m->scale_formats == 0 && m->d_formats == 0) {
        append(buf, size, &len, "any inputs");
        return;
    }
    append(buf, size, &len, "A and B ");
    if (m->ab_formats == 0)
        append(buf, size, &len, "of any format");
    append_set(buf, size, &len, m->ab_formats, "");
    append(buf, size, &len, m->scale_formats == 0 ? "; any scales" : "; scales ");
    append_set(buf, size, &len, m->scale_formats, "none");
    append(buf, size, &len, m->d_formats == 0 ? "; any D" : "; D ");
    append_set(buf, size, &len, m->d_formats, "");
}

/* True where set (0: every format) holds format f. */
static bool
in_set(unsigned set, smma_format f)
{
    return set == 0 || (set & SMMA_FMT_BIT(f)) != 0;
}

int
smma_model_takes(const smma_model *m, const smma_gemm_shape *s, smma_error *err)
{
    char takes[160], given[96];

    if (in_set(m->ab_formats, s->a_fmt) && in_set(m->ab_formats, s->b_fmt) &&
        in_set(m->scale_formats, s->scale_fmt) && in_set(m->d_formats, s->d_fmt))
        return SMMA_OK;
    smma_model_inputs(m, takes, sizeof(takes));
    snprintf(given, sizeof(given), "%s x %s, %s scales, D %s", smma_format_name(s->a_fmt),
             smma_format_name(s->b_fmt),
             s->scale_fmt == SMMA_NONE ? "no" : smma_format_name(s->scale_fmt),
             smma_format_name(s->d_fmt));
    return smma_error_set(err, SMMA_EINVAL, "model %s takes %s; not %s (softmma models "
                          "--inputs lists the models that do)", m->name, takes, given);
}

smma_model
smma_model_any_inputs(const smma_model *m)
{
    smma_model any = *m;

    any.ab_formats = any.scale_formats = any.d_formats = 0;
    return any;
}

size_t
smma_models_taking(const smma_gemm_shape *s, const smma_model **out, size_t max)
{
    size_t i, n = 0;

    for (i = 0; i < MODEL_COUNT; i++)
        if (smma_model_check(&models[i], s, NULL) == SMMA_OK) {
            if (n < max)
                out[n] = &models[i];
            n++;
        }
    return n;
}

/* Fraction bits of a format's significand. */
static int
frac_bits(smma_format f)
{
    const smma_format_desc *d = smma_format_info(f);

    return d == NULL ? 0 : (int) d->man_bits;
}

/* True for the element formats whose every value is an fp16 number. */
static bool
fits_f16(smma_format f)
{
    return f == SMMA_E2M1 || f == SMMA_E2M3 || f == SMMA_E3M2 || f == SMMA_E4M3 ||
           f == SMMA_E5M2 || f == SMMA_FP16;
}

int
smma_model_check(const smma_model *m, const smma_gemm_shape *s, smma_error *err)
{
    const smma_model *inner = m;
    int fb;

    if (smma_model_takes(m, s, err) != SMMA_OK)
        return SMMA_EINVAL;
    if (m->kind == SMMA_MODEL_EXACT || m->kind == SMMA_MODEL_FMA_SEQ)
        return SMMA_OK;
    if (m->kind == SMMA_MODEL_PROMOTE) {
        if (m->promote == 0 || m->promote > SMMA_PROMOTE_MAX)
            return smma_error_set(err, SMMA_EINVAL, "model %s promotes every %u k, which is "
                                  "not in [1, %u]", m->name, m->promote, SMMA_PROMOTE_MAX);
        if (m->unscaled && s->scale_fmt != SMMA_NONE)
            return smma_error_set(err, SMMA_EINVAL, "model %s takes operands without block "
                                  "scales (no --scale)", m->name);
        if (!m->unscaled && s->scale_fmt == SMMA_NONE)
            return smma_error_set(err, SMMA_EINVAL, "model %s needs scales (--scale)", m->name);
        if (!m->unscaled && s->vec % m->promote != 0)
            return smma_error_set(err, SMMA_EINVAL,
                                  "model %s promotes every %u k, which must divide the "
                                  "scale block (vec %u)", m->name, m->promote, s->vec);
        if (smma_model_from_name(m->inner, &inner, err) != SMMA_OK)
            return SMMA_EINVAL;
    }
    if (inner->korder != NULL && (inner->korder_len == 0 || s->k % inner->korder_len != 0))
        return smma_error_set(err, SMMA_EINVAL,
                              "model %s takes k in chunks of %u, which must divide K (%zu)",
                              m->name, inner->korder_len, s->k);
    if (inner->upcast_bf16)
        return SMMA_OK; /* bf16 products: 14 fraction bits */
    if (smma_format_info(s->a_fmt)->storage_bits > 16 ||
        smma_format_info(s->b_fmt)->storage_bits > 16)
        return smma_error_set(err, SMMA_EINVAL,
                              "model %s takes element formats of at most 16 bits, not %s x %s",
                              m->name, smma_format_name(s->a_fmt), smma_format_name(s->b_fmt));
    if (inner->upcast_f16 && (!fits_f16(s->a_fmt) || !fits_f16(s->b_fmt)))
        return smma_error_set(err, SMMA_EINVAL,
                              "model %s converts elements to fp16, which cannot hold every %s "
                              "x %s value", m->name, smma_format_name(s->a_fmt),
                              smma_format_name(s->b_fmt));
    fb = inner->upcast_f16 ? 2 * frac_bits(SMMA_FP16)
                           : frac_bits(s->a_fmt) + frac_bits(s->b_fmt);
    if (m->kind == SMMA_MODEL_BLOCK_FMA && s->scale_fmt != SMMA_NONE)
        fb += 2 * frac_bits(s->scale_fmt);
    if (fb + (inner->normalize ? 1 : 0) > 23)
        return smma_error_set(err, SMMA_EINVAL,
                              "model %s: products of %s x %s%s%s have %d fraction bits, more "
                              "than the 23 the model keeps", m->name, smma_format_name(s->a_fmt),
                              smma_format_name(s->b_fmt),
                              s->scale_fmt != SMMA_NONE ? " with " : "",
                              s->scale_fmt != SMMA_NONE ? smma_format_name(s->scale_fmt) : "", fb);
    return SMMA_OK;
}
