/*
 * tests/gpu/wgmma-t.c - wgmma.mma_async on an sm_90 GPU against the
 * simulator (softmma/wgmma.h).
 *
 * For each instruction of the probe (gpu/probes/wgmma_probe.h: m64n8k16
 * bf16 and f16, m64n8k32 with the four fp8 pairs, m64n64k16 bf16, m64n64k32
 * e4m3, and m64n{16,32,128,256}k16 bf16, the N sm90-mixed issues with A
 * from registers): seeded tiles are packed into per-thread registers (A, C) and into
 * a shared-memory image through a descriptor (B) with the simulator, run on
 * the GPU, and every D register is compared bit for bit with the
 * simulator's executor (smma_wgmma_exec) under a numerics model.
 *
 * The test points, per instruction:
 *   1. numerics: random inputs (smma_gemm_generate's random class), B
 *      K-major without swizzling, under the expected model: h100-bf16 for
 *      bf16 and f16, h100-fp8 for the fp8 pairs.  The agreement of every
 *      other model that can run the shape is printed for a sample, so a
 *      refuted model shows which one the hardware follows.  For fp8, when
 *      no model agrees the point is a TODO (wgmma fp8 numerics not modeled
 *      yet);
 *   2. layouts: exact-class inputs (every model gives the same bits, so
 *      these points test the register layouts, the descriptor and the
 *      swizzles alone), B K-major without swizzling and with each swizzle;
 *      for bf16 and f16 also N-major (imm-trans-b) with each swizzle;
 *   3. immediates: random inputs with imm-scale-a = imm-scale-b = -1, and
 *      with scale-d false (the C loaded into D must be ignored), under the
 *      model that agreed in 1 (the expected one when none did).
 * Each point prints "# RESULT instr=... model=... cases=... mismatches=..."
 * followed by b=<layout> flags=<immediates> inputs=<class>.
 *
 * Cases: level 0: 1,000 for each numerics point; level 1: 100,000; level 2:
 * 1,000,000 (a quarter of that for N = 64, whose cases hold 8 times as many
 * D elements); the other points a tenth of the N = 8 count (a fortieth for
 * N = 64).
 * Skips without CUDA, without a device, or on a device other than sm_90.
 *
 * SMMA_WGMMA_CASES=N sets the cases of every numerics point (a tenth of
 * them for the other points), whatever N and the level; SMMA_WGMMA_ONLY=
 * NAME,... runs the points of the instructions named ("wgmma.m64n16k16.bf16").
 *
 * SMMA_WGMMA_EMULATE=MODEL runs the whole test without a GPU, the probe
 * replaced by the simulator under MODEL (to check this program itself);
 * every point is then a TODO, so an emulated run never counts as a pass.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/wgmma.h>

#include "sweep.h"
#include "tap/basic.h"

#ifndef HAVE_CUDA

int
main(void)
{
    skip_all("CUDA not configured (configure found no working nvcc, or --without-cuda)");
}

#else

#include "probes/wgmma_probe.h"

/* B layouts: majorness and swizzle. */
enum { LAY_K_NONE = 0, LAY_K_32B, LAY_K_64B, LAY_K_128B, LAY_N_NONE, LAY_N_32B, LAY_N_64B,
       LAY_N_128B };

static const char *const lay_names[8] = { "K-none", "K-32B", "K-64B", "K-128B",
                                          "N-none", "N-32B", "N-64B", "N-128B" };
static const smma_wgmma_swizzle lay_swizzle[4] = {
    SMMA_WGMMA_SWIZZLE_NONE, SMMA_WGMMA_SWIZZLE_32B, SMMA_WGMMA_SWIZZLE_64B,
    SMMA_WGMMA_SWIZZLE_128B,
};

/* One test point. */
struct config {
    int instr;          /* SMMA_GPU_WGMMA_* */
    int kind;           /* 1 numerics, 2 layouts, 3 immediates (see above) */
    int lay;            /* LAY_* */
    unsigned flags;     /* SMMA_GPU_WGMMA_* flags */
    bool exact;         /* exact-class inputs */
};

#define MAX_CONFIGS 128

/* Everything about one batch of cases, shared by the worker threads. */
struct batch {
    const struct config *cfg;
    unsigned id;                /* the config's index, for the seeds */
    smma_wgmma_variant v;       /* the instruction with its immediates */
    smma_wgmma_frag fa, fd;
    size_t first, count;        /* global index of the first case, cases in the batch */
    size_t b_bytes;
    unsigned nr;                /* D registers per thread */
    uint32_t *a, *c, *d;
    uint8_t *b;
    uint64_t *desc;
    const smma_model *model;    /* the model a check runs */
    unsigned long failures;     /* generation or simulator errors */
    unsigned long long elem_miss; /* D elements that differ, over the checks run */
};

/* Cases are spread over the sweep's index space 2^12 apart, so that each
 * of its chunks of 2^20 indices holds 256 cases and every thread works. */
#define SPREAD 12

static void
case_range(uint64_t lo, uint64_t hi, size_t *c0, size_t *c1)
{
    const uint64_t m = ((uint64_t) 1 << SPREAD) - 1;

    *c0 = (size_t) ((lo + m) >> SPREAD);
    *c1 = (size_t) ((hi + m) >> SPREAD);
}

static uint64_t
case_seed(const struct batch *bt, size_t t)
{
    return 0x7767616d6d61ull ^ ((uint64_t) bt->id << 40) ^ (uint64_t) (bt->first + t);
}

/* The B descriptor of case t (relative to its image) and its layout. */
static int
case_desc(const struct batch *bt, size_t t, uint64_t *w, smma_error *err)
{
    smma_wgmma_desc d;
    uint32_t bytes;
    smma_rng r;
    int rc;

    smma_rng_seed(&r, case_seed(bt, t) ^ 0xdeadull);
    rc = smma_wgmma_desc_dense(&bt->v, SMMA_WGMMA_OP_B, lay_swizzle[bt->cfg->lay % 4],
                               smma_rng_next(&r) & 1, 0, &d, &bytes, err);
    if (rc == SMMA_OK)
        rc = smma_wgmma_desc_encode(&d, w, err);
    return rc;
}

static void
generate(uint64_t lo, uint64_t hi, void *vctx, sweep_result *res)
{
    struct batch *bt = vctx;
    smma_gemm_shape s;
    smma_gemm_data data;
    uint32_t *btile;
    size_t c0, c1, t, i, j, kk, n = bt->v.n, k = smma_wgmma_k(&bt->v);
    smma_error err;

    (void) res;
    case_range(lo, hi, &c0, &c1);
    btile = malloc(sizeof(uint32_t) * n * k);
    if (btile == NULL)
        sysbail("cannot allocate a B tile");
    for (t = c0; t < c1 && t < bt->count; t++) {
        uint8_t *img = bt->b + t * bt->b_bytes;
        uint32_t *c = bt->c + t * 128 * bt->nr;

        if (smma_wgmma_shape(&bt->v, &s, &err) != SMMA_OK ||
            smma_gemm_generate(&s, bt->cfg->exact ? SMMA_CLASS_EXACT : SMMA_CLASS_RANDOM,
                               case_seed(bt, t), &data, &err) != SMMA_OK) {
            __atomic_add_fetch(&bt->failures, 1, __ATOMIC_RELAXED);
            continue;
        }
        smma_wgmma_pack(&bt->fa, data.a, bt->a + t * 128 * 4);
        for (kk = 0; kk < k; kk++)
            for (j = 0; j < n; j++)
                btile[kk * n + j] = data.b[j * k + kk];
        memset(img, 0, bt->b_bytes);
        if (case_desc(bt, t, &bt->desc[t], &err) != SMMA_OK ||
            smma_wgmma_smem_store(&bt->v, SMMA_WGMMA_OP_B, bt->desc[t], btile, img,
                                  bt->b_bytes, &err) != SMMA_OK)
            __atomic_add_fetch(&bt->failures, 1, __ATOMIC_RELAXED);
        if (data.c != NULL)
            smma_wgmma_pack(&bt->fd, data.c, c);
        else /* scale-d false: the hardware must ignore these NaNs */
            for (i = 0; i < 128 * bt->nr; i++)
                c[i] = 0x7FC00000u | (uint32_t) i;
        smma_gemm_data_free(&data);
    }
    free(btile);
}

static void
check(uint64_t lo, uint64_t hi, void *vctx, sweep_result *res)
{
    struct batch *bt = vctx;
    size_t c0, c1, t, i, nregs = 128 * (size_t) bt->nr;
    unsigned long long miss;
    uint32_t *d = malloc(sizeof(uint32_t) * nregs);

    if (d == NULL)
        sysbail("cannot allocate D");
    case_range(lo, hi, &c0, &c1);
    for (t = c0; t < c1 && t < bt->count; t++) {
        const uint32_t *gpu = bt->d + t * nregs;

        res->checked++;
        if (smma_wgmma_exec(&bt->v, bt->model, bt->a + t * 128 * 4, 0, bt->desc[t],
                            bt->b + t * bt->b_bytes, bt->b_bytes, bt->c + t * nregs, d,
                            NULL) != SMMA_OK) {
            __atomic_add_fetch(&bt->failures, 1, __ATOMIC_RELAXED);
            sweep_record(res, bt->first + t, 0, 0xffffffffu, 0);
            continue;
        }
        for (i = 0, miss = 0; i < nregs; i++)
            if (d[i] != gpu[i] && miss++ == 0)
                sweep_record(res, bt->first + t, (uint32_t) i, d[i], gpu[i]);
        if (miss != 0)
            __atomic_add_fetch(&bt->elem_miss, miss, __ATOMIC_RELAXED);
    }
    free(d);
}

/* The emulated probe: the simulator under the model SMMA_WGMMA_EMULATE
 * names, with the probe's conventions. */
static const smma_model *emulated;

static void
emulate(uint64_t lo, uint64_t hi, void *vctx, sweep_result *res)
{
    struct batch *bt = vctx;
    size_t c0, c1, t, nregs = 128 * (size_t) bt->nr;

    (void) res;
    case_range(lo, hi, &c0, &c1);
    for (t = c0; t < c1 && t < bt->count; t++)
        if (smma_wgmma_exec(&bt->v, emulated, bt->a + t * 128 * 4, 0, bt->desc[t],
                            bt->b + t * bt->b_bytes, bt->b_bytes, bt->c + t * nregs,
                            bt->d + t * nregs, NULL) != SMMA_OK)
            __atomic_add_fetch(&bt->failures, 1, __ATOMIC_RELAXED);
}

static int
run_probe(struct batch *bt, char *msg, size_t msg_len)
{
    sweep_result r;

    if (emulated == NULL)
        return smma_gpu_wgmma(bt->cfg->instr, bt->cfg->flags, bt->a, bt->b, bt->b_bytes,
                              bt->desc, bt->c, bt->d, bt->count, msg, msg_len);
    sweep_run(0, (uint64_t) bt->count << SPREAD, emulate, bt, &r);
    return SMMA_GPU_OK;
}

/* The variant a config runs. */
static smma_wgmma_variant
config_variant(const struct config *cfg)
{
    smma_wgmma_variant v;
    smma_error err;

    if (smma_wgmma_from_name(smma_gpu_wgmma_name(cfg->instr), &v, &err) != SMMA_OK)
        bail("probe instruction %d: %s", cfg->instr, err.msg);
    v.trans_b = (cfg->flags & SMMA_GPU_WGMMA_TRANS_B) != 0;
    v.scale_a = cfg->flags & SMMA_GPU_WGMMA_NEG_A ? -1 : 1;
    v.scale_b = cfg->flags & SMMA_GPU_WGMMA_NEG_B ? -1 : 1;
    v.scale_d = !(cfg->flags & SMMA_GPU_WGMMA_NO_ACC);
    return v;
}

static const char *
flag_names(unsigned f)
{
    switch (f & ~(unsigned) SMMA_GPU_WGMMA_TRANS_B) {
    case 0: return "none";
    case SMMA_GPU_WGMMA_NEG_A | SMMA_GPU_WGMMA_NEG_B: return "neg-a,neg-b";
    case SMMA_GPU_WGMMA_NO_ACC: return "scale-d=0";
    default: return "other";
    }
}

/* The test's list of points. */
/* Whether name is one of the comma-separated list. */
static bool
kt_listed_in(const char *list, const char *name)
{
    size_t n = strlen(name);
    const char *p;

    for (p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return true;
    return false;
}

static size_t
make_configs(struct config *cf)
{
    const char *only = getenv("SMMA_WGMMA_ONLY");
    size_t n = 0;
    int i, lay;

    for (i = 0; i < SMMA_GPU_WGMMA_COUNT; i++) {
        bool half = strstr(smma_gpu_wgmma_name(i), "k16") != NULL;

        if (only != NULL && *only != '\0' && !kt_listed_in(only, smma_gpu_wgmma_name(i)))
            continue;

        cf[n++] = (struct config) { i, 1, LAY_K_NONE, 0, false };
        for (lay = 0; lay < (half ? 8 : 4); lay++)
            cf[n++] = (struct config) { i, 2, lay, lay >= 4 ? SMMA_GPU_WGMMA_TRANS_B : 0u,
                                        true };
        cf[n++] = (struct config) { i, 3, LAY_K_NONE,
                                    SMMA_GPU_WGMMA_NEG_A | SMMA_GPU_WGMMA_NEG_B, false };
        cf[n++] = (struct config) { i, 3, LAY_K_NONE, SMMA_GPU_WGMMA_NO_ACC, false };
    }
    return n;
}

/* What the numerics point of each instruction found: the model the
 * immediates points use, and whether any model agreed. */
struct finding {
    const smma_model *model;
    bool agreed;
};

/* Status of run_batch when this program, not the probe, failed. */
#define SELF_FAILED (-1)

/* Runs one batch end to end: generate, probe, check under bt->model.
 * Returns the probe's status, or SELF_FAILED when cases could not be
 * generated or simulated (msg filled on failure). */
static int
run_batch(struct batch *bt, sweep_result *res, char *msg, size_t msg_len)
{
    int rc;
    double t0;

    bt->failures = 0;
    sweep_run(0, (uint64_t) bt->count << SPREAD, generate, bt, res);
    if (bt->failures != 0) {
        snprintf(msg, msg_len, "%lu cases could not be generated", bt->failures);
        return SELF_FAILED;
    }
    t0 = tap_seconds();
    rc = run_probe(bt, msg, msg_len);
    if (rc != SMMA_GPU_OK)
        return rc;
    if (bt->first == 0)
        diag("  %s b=%s: probe ran %zu cases in %.2f s", smma_gpu_wgmma_name(bt->cfg->instr),
             lay_names[bt->cfg->lay], bt->count, tap_seconds() - t0);
    sweep_run(0, (uint64_t) bt->count << SPREAD, check, bt, res);
    if (bt->failures != 0) {
        snprintf(msg, msg_len, "the simulator failed on %lu cases", bt->failures);
        return SELF_FAILED;
    }
    return SMMA_GPU_OK;
}

/* The agreement of every model but `checked` that can run the shape, on
 * the batch's first `sample` cases; returns the first that agrees on all of
 * them, or NULL. */
static const smma_model *
survey(struct batch *bt, size_t sample, const smma_model *checked)
{
    const smma_model *keep = bt->model, *found = NULL;
    size_t i, count = bt->count;
    smma_gemm_shape s;
    sweep_result r;

    smma_wgmma_shape(&bt->v, &s, NULL);
    bt->count = sample < count ? sample : count;
    for (i = 0; i < smma_model_count(); i++) {
        const smma_model *m = smma_model_at(i);

        if (m == checked || smma_model_check(m, &s, NULL) != SMMA_OK)
            continue;
        bt->model = m;
        bt->elem_miss = 0;
        sweep_run(0, (uint64_t) bt->count << SPREAD, check, bt, &r);
        diag("  %s: model %s agrees on %llu of the first %zu cases (%llu of %zu D elements "
             "differ)", smma_gpu_wgmma_name(bt->cfg->instr), m->name,
             (unsigned long long) (bt->count - r.mismatches), bt->count, bt->elem_miss,
             bt->count * 64 * bt->v.n);
        if (r.mismatches == 0 && found == NULL)
            found = m;
    }
    bt->count = count;
    bt->model = keep;
    return found;
}

static void
show_misses(const struct batch *bt, const sweep_result *tot)
{
    unsigned o;

    for (o = 0; o < tot->nfirst && o < 5; o++) {
        unsigned th = tot->first[o].input / bt->nr, reg = tot->first[o].input % bt->nr;
        unsigned row, col;

        smma_wgmma_coord(&bt->fd, th, reg, 0, &row, &col);
        diag("  case %llu, D[%u][%u] (thread %u reg %u): simulator 0x%08x (%a), GPU 0x%08x "
             "(%a)", (unsigned long long) tot->first[o].index, row, col, th, reg,
             tot->first[o].want, smma_decode(SMMA_FP32, tot->first[o].want),
             tot->first[o].got, smma_decode(SMMA_FP32, tot->first[o].got));
    }
}

int
main(void)
{
    static struct config cf[MAX_CONFIGS];
    struct finding found[SMMA_GPU_WGMMA_COUNT];
    int level = test_level(), major = 0, minor = 0, rc;
    char name[128], msg[256];
    size_t n = level == 0 ? 1000 : level == 1 ? 100000 : 1000000, ncf, ci;
    const char *emu = getenv("SMMA_WGMMA_EMULATE"), *cases = getenv("SMMA_WGMMA_CASES");
    const char *only = getenv("SMMA_WGMMA_ONLY");
    bool wide_cases = false;
    double start;

    if (emu != NULL && *emu != '\0') {
        if (smma_model_from_name(emu, &emulated, NULL) != SMMA_OK)
            bail("SMMA_WGMMA_EMULATE: unknown model '%s'", emu);
        snprintf(name, sizeof(name), "the simulator under %s (SMMA_WGMMA_EMULATE)", emu);
    } else {
        rc = smma_gpu_device_info(&major, &minor, name, sizeof(name), msg, sizeof(msg));
        if (rc != SMMA_GPU_OK)
            skip_all("no CUDA device: %s", msg);
        if (major != 9 || minor != 0)
            skip_all("wgmma needs an sm_90 device (found sm_%d%d)", major, minor);
    }
    if (cases != NULL && *cases != '\0') {
        char *end;
        unsigned long v = strtoul(cases, &end, 10);

        if (*end != '\0' || v < 10 || v > 100000000)
            bail("SMMA_WGMMA_CASES=%s: not a number of cases from 10 to 10^8", cases);
        n = v;
        wide_cases = true;
    }
    ncf = make_configs(cf);
    if (ncf == 0)
        bail("SMMA_WGMMA_ONLY=%s names no instruction of the probe", only);
    plan(ncf);
    start = tap_seconds();
    diag("device 0: %s; %zu cases per numerics point; %u threads", name, n, sweep_threads());
    memset(found, 0, sizeof(found));
    for (ci = 0; ci < ncf; ci++) {
        const struct config *c = &cf[ci];
        struct batch bt;
        sweep_result tot, res;
        const char *iname = smma_gpu_wgmma_name(c->instr);
        bool fp8 = strstr(iname, "k32") != NULL;
        bool wide = smma_gpu_wgmma_n(c->instr) > 8;
        size_t ncases = n / (c->kind == 1 ? (wide && !wide_cases ? 4 : 1)
                                          : (wide && !wide_cases ? 40 : 10));
        size_t batch = wide ? 4096 : 32768, done;
        const smma_model *primary = tap_model(fp8 ? "h100-fp8" : "h100-bf16");
        const smma_model *other = NULL;
        uint32_t bytes0 = 0, bytes1 = 0;
        smma_wgmma_desc dd;
        const char *why = NULL;
        unsigned long long total_elem_miss = 0;

        memset(&bt, 0, sizeof(bt));
        memset(&tot, 0, sizeof(tot));
        bt.cfg = c;
        bt.id = (unsigned) ci;
        bt.v = config_variant(c);
        if (smma_wgmma_frag_get(&bt.v, SMMA_WGMMA_OP_A, &bt.fa, NULL) != SMMA_OK ||
            smma_wgmma_frag_get(&bt.v, SMMA_WGMMA_OP_D, &bt.fd, NULL) != SMMA_OK ||
            smma_wgmma_desc_dense(&bt.v, SMMA_WGMMA_OP_B, lay_swizzle[c->lay % 4], false, 0,
                                  &dd, &bytes0, NULL) != SMMA_OK ||
            smma_wgmma_desc_dense(&bt.v, SMMA_WGMMA_OP_B, lay_swizzle[c->lay % 4], true, 0,
                                  &dd, &bytes1, NULL) != SMMA_OK)
            bail("%s: no layout %s", iname, lay_names[c->lay]);
        bt.nr = bt.fd.regs;
        bt.b_bytes = ((size_t) (bytes0 > bytes1 ? bytes0 : bytes1) + 15) / 16 * 16;
        bt.model = c->kind == 3 && found[c->instr].model != NULL ? found[c->instr].model
                                                                 : primary;
        if (ncases < 1)
            ncases = 1;
        if (batch > ncases)
            batch = ncases;
        bt.a = malloc(sizeof(uint32_t) * 128 * 4 * batch);
        bt.c = malloc(sizeof(uint32_t) * 128 * bt.nr * batch);
        bt.d = malloc(sizeof(uint32_t) * 128 * bt.nr * batch);
        bt.b = malloc(bt.b_bytes * batch);
        bt.desc = malloc(sizeof(uint64_t) * batch);
        if (bt.a == NULL || bt.c == NULL || bt.d == NULL || bt.b == NULL || bt.desc == NULL)
            sysbail("cannot allocate a batch of %zu cases", batch);
        rc = SMMA_GPU_OK;
        for (done = 0; done < ncases && rc == SMMA_GPU_OK; done += batch) {
            unsigned o;

            bt.first = done;
            bt.count = ncases - done < batch ? ncases - done : batch;
            bt.elem_miss = 0;
            memset(&res, 0, sizeof(res));
            rc = run_batch(&bt, &res, msg, sizeof(msg));
            if (rc != SMMA_GPU_OK)
                break;
            total_elem_miss += bt.elem_miss;
            /* Which models agree: always for the numerics points, and for the
             * immediates points when the first batch shows mismatches. */
            if (done == 0 && (c->kind == 1 || (c->kind == 3 && res.mismatches != 0)))
                other = survey(&bt, wide ? 500 : 3000, bt.model);
            tot.checked += res.checked;
            tot.mismatches += res.mismatches;
            for (o = 0; o < res.nfirst && tot.nfirst < SWEEP_KEEP; o++)
                tot.first[tot.nfirst++] = res.first[o];
        }
        if (rc == SMMA_GPU_EARCH) {
            skip("%s: %s", iname, msg);
        } else if (rc != SMMA_GPU_OK) {
            ok(false, "%s b=%s flags=%s: %s failed: %s", iname, lay_names[c->lay],
               flag_names(c->flags), rc == SELF_FAILED ? "the test" : "the probe", msg);
        } else {
            if (c->kind == 1) {
                found[c->instr].agreed = tot.mismatches == 0 || other != NULL;
                found[c->instr].model = tot.mismatches == 0 ? primary : other;
            }
            if (tot.mismatches != 0)
                diag("  %s: %llu of %llu D elements differ", iname, total_elem_miss,
                     (unsigned long long) tot.checked * 64 * bt.v.n);
            if (other != NULL && tot.mismatches != 0)
                diag("  %s: model %s agrees on every sampled case; %s does not", iname,
                     other->name, bt.model->name);
            /* fp8 wgmma numerics are not established: a random-input point
             * that no model passes is a known gap, not a new failure. */
            if (fp8 && !c->exact && tot.mismatches != 0 && !found[c->instr].agreed)
                why = "wgmma fp8 numerics on sm_90: no modeled variant agrees yet";
            /* An emulated run never passes as a GPU test: every point is
             * a TODO, so an agreement shows as an unexpected pass. */
            if (emulated != NULL)
                why = "SMMA_WGMMA_EMULATE: the probe is the simulator, no GPU ran";
            todo(why);
            ok(tot.mismatches == 0,
               "%s b=%s flags=%s inputs=%s: the GPU equals the simulator under %s on %llu "
               "cases (%llu differ)", iname, lay_names[c->lay], flag_names(c->flags),
               c->exact ? "exact" : "random", bt.model->name,
               (unsigned long long) tot.checked, (unsigned long long) tot.mismatches);
            todo(NULL);
            show_misses(&bt, &tot);
            diag("RESULT instr=%s model=%s cases=%llu mismatches=%llu b=%s flags=%s inputs=%s",
                 iname, bt.model->name, (unsigned long long) tot.checked,
                 (unsigned long long) tot.mismatches, lay_names[c->lay], flag_names(c->flags),
                 c->exact ? "exact" : "random");
        }
        free(bt.a);
        free(bt.c);
        free(bt.d);
        free(bt.b);
        free(bt.desc);
    }
    diag("all points took %.1f s", tap_seconds() - start);
    return exit_status();
}

#endif /* HAVE_CUDA */
