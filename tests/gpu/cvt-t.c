/*
 * tests/gpu/cvt-t.c - the GPU's cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 against
 * the reference encoder, bit for bit.
 *
 * The probe (gpu/probes/cvt_probe.cu) converts ranges of fp32 bit patterns on
 * device 0; the bytes come back in chunks of up to 2^28 and every core
 * compares them with smma_encode_f32bits() (RN, satfinite, "cuda" profile).
 * The comparison is bitwise for every input, NaNs included: a NaN input must
 * give exactly the byte the profile says, with no special case here.
 *
 * Inputs by TEST_LEVEL:
 *   0: 2^16 inputs, 256 runs of 256 consecutive patterns, each run straddling
 *      a bf16-representable pattern (so runs cross exact ties and their
 *      neighbours);
 *   1: 2^24 + 2^16 inputs: every bf16-representable pattern (b << 16), and
 *      every 256th pattern with a low byte that varies from one to the next;
 *      the GPU converts all 2^32 inputs and only these are checked;
 *   2: all 2^32 inputs.
 *
 * Skips when configure found no CUDA, when there is no usable device, and
 * when the device (or the code built for it) lacks the instructions.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <softmma/format.h>
#include <softmma/profile.h>

#include "sweep.h"
#include "tap/basic.h"

#ifdef HAVE_CUDA

#include "probes/probes.h"

#define CHUNK_BITS 28
#define CHUNK ((uint64_t) 1 << CHUNK_BITS)
#define SPREAD_PER_CHUNK (CHUNK >> 8)     /* every 256th pattern: 2^20 a chunk */
#define BF16_PER_CHUNK (CHUNK >> 16)      /* b << 16: 2^12 a chunk */

/* Which inputs of a GPU range the CPU checks. */
enum pick_mode {
    PICK_ALL,   /* every input of the range */
    PICK_SUBSET /* the level-1 subset: the spread patterns, then the bf16 ones */
};

/* One GPU call, [first, first + count), and what is checked of it. */
struct piece {
    uint32_t first;
    uint32_t count;
    enum pick_mode mode;
    uint64_t nchecked; /* how many of its inputs the CPU checks */
};

/* What the sweep callback needs. */
struct check {
    smma_format fmt;
    smma_cvt cvt;
    const uint8_t *got; /* the GPU's byte for input first + i at got[i] */
    uint32_t first;
    enum pick_mode mode;
};

/* One conversion under test. */
struct target {
    int which;        /* SMMA_GPU_CVT_* */
    smma_format fmt;
    const char *insn;
};

/* A byte that varies from one k to the next (the top byte of a
 * multiplicative hash); never 0 when k is a multiple of 256, so that the
 * spread patterns (k << 8 | byte) never repeat a bf16 pattern. */
static uint32_t
spread_low_byte(uint32_t k)
{
    uint32_t b = (k * UINT32_C(0x9e3779b1)) >> 24;

    if ((k & 0xff) == 0 && b == 0)
        b = 0x80;
    return b;
}

/* The i-th piece of the sweep at the given level; false past the last. */
static bool
piece_at(int level, unsigned i, struct piece *p)
{
    if (level == 0) {
        /* Run i straddles the bf16 pattern b << 16, b = 256 i + (a varying
         * byte, never 0): 128 patterns below it, the pattern itself and 127
         * above. */
        uint32_t b;

        if (i >= 256)
            return false;
        b = (i << 8) | spread_low_byte(i | 0x100);
        p->first = (b << 16) - 128;
        p->count = 256;
        p->mode = PICK_ALL;
        p->nchecked = 256;
        return true;
    }
    if (i >= ((uint64_t) 1 << 32) / CHUNK)
        return false;
    p->first = (uint32_t) (i * CHUNK);
    p->count = (uint32_t) CHUNK;
    p->mode = level >= 2 ? PICK_ALL : PICK_SUBSET;
    p->nchecked = level >= 2 ? CHUNK : SPREAD_PER_CHUNK + BF16_PER_CHUNK;
    return true;
}

/* The input checked as number idx of a piece (idx < its nchecked). */
static uint32_t
input_at(const struct check *c, uint64_t idx)
{
    uint32_t k;

    if (c->mode == PICK_ALL)
        return c->first + (uint32_t) idx;
    if (idx < SPREAD_PER_CHUNK) {
        k = (c->first >> 8) + (uint32_t) idx;
        return (k << 8) | spread_low_byte(k);
    }
    return c->first + ((uint32_t) (idx - SPREAD_PER_CHUNK) << 16);
}

/* The sweep callback.  Mismatches are indexed by their input, so the ones
 * kept are the smallest inputs over the whole sweep. */
static void
compare(uint64_t lo, uint64_t hi, void *arg, sweep_result *r)
{
    const struct check *c = arg;
    uint64_t idx;

    for (idx = lo; idx < hi; idx++) {
        uint32_t x = input_at(c, idx);
        uint32_t want = smma_encode_f32bits(c->fmt, x, &c->cvt);
        uint32_t got = c->got[x - c->first];

        if (want != got)
            sweep_record(r, x, x, want, got);
    }
    r->checked += hi - lo;
}

/* Adds the results of one piece to the running total. */
static void
absorb(sweep_result *total, const sweep_result *part)
{
    unsigned i;

    total->checked += part->checked;
    for (i = 0; i < part->nfirst; i++) {
        const sweep_miss *m = &part->first[i];

        sweep_record(total, m->index, m->input, m->want, m->got);
    }
    total->mismatches += part->mismatches - part->nfirst;
}

static double
now_seconds(void)
{
    struct timespec ts;

    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return 0;
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* Sweeps one conversion at the given level and reports one test point.
 * buf holds at least the largest piece. */
static void
sweep_target(const struct target *t, int level, uint8_t *buf)
{
    const char *name = smma_format_name(t->fmt);
    struct check c;
    struct piece p;
    sweep_result total, part;
    uint64_t converted = 0;
    double start = now_seconds(), seconds;
    char msg[512];
    unsigned i;
    int rc = SMMA_GPU_OK;

    memset(&total, 0, sizeof(total));
    c.fmt = t->fmt;
    c.cvt.round = SMMA_RN;
    c.cvt.sat = true;
    c.cvt.rbits = 0;
    c.cvt.profile = smma_profile_cuda();
    c.got = buf;
    for (i = 0; piece_at(level, i, &p); i++) {
        rc = smma_gpu_cvt_f32_to_f8x2(t->which, p.first, p.count, buf, msg, sizeof(msg));
        if (rc != SMMA_GPU_OK)
            break;
        converted += p.count;
        c.first = p.first;
        c.mode = p.mode;
        sweep_run(0, p.nchecked, compare, &c, &part);
        absorb(&total, &part);
    }
    seconds = now_seconds() - start;

    if (rc != SMMA_GPU_OK)
        diag("%s: the probe failed at input 0x%08" PRIx32 ": %s", name, p.first, msg);
    diag("%s: inputs checked: %" PRIu64 " (converted on the GPU: %" PRIu64 ")", name,
         total.checked, converted);
    diag("%s: mismatches: %" PRIu64 "; seconds taken: %.2f", name, total.mismatches, seconds);
    for (i = 0; i < total.nfirst; i++) {
        const sweep_miss *m = &total.first[i];

        diag("input 0x%08" PRIx32 " (%a) want 0x%02" PRIx32 " got 0x%02" PRIx32
             " (want %g, got %g)",
             m->input, (double) smma_f32_from_bits(m->input), m->want, m->got,
             smma_decode(t->fmt, m->want), smma_decode(t->fmt, m->got));
    }
    ok(rc == SMMA_GPU_OK && total.mismatches == 0,
       "%s: %s equals the reference on %" PRIu64 " inputs", name, t->insn, total.checked);
    if (rc == SMMA_GPU_OK)
        diag("RESULT fmt=%s inputs=%" PRIu64 " mismatches=%" PRIu64 " seconds=%.2f", name,
             total.checked, total.mismatches, seconds);
}

int
main(void)
{
    static const struct target targets[] = {
        { SMMA_GPU_CVT_E4M3, SMMA_E4M3, "cvt.rn.satfinite.e4m3x2.f32" },
        { SMMA_GPU_CVT_E5M2, SMMA_E5M2, "cvt.rn.satfinite.e5m2x2.f32" },
    };
    char name[256], msg[512];
    int major = 0, minor = 0, rc, level = test_level();
    uint8_t two[2];
    uint8_t *buf;
    size_t bufsize;
    struct piece p;
    unsigned i;

    rc = smma_gpu_device_info(&major, &minor, name, sizeof(name), msg, sizeof(msg));
    if (rc != SMMA_GPU_OK)
        skip_all("no CUDA device: %s", msg);
    if (major * 10 + minor < 89)
        skip_all("needs sm_89 or later (found sm_%d%d)", major, minor);

    /* A two-input call finds out whether this build holds code with the
     * instruction for this device (an sm_89 or sm_120 device runs the
     * sm_80 code of the default build, which lacks it). */
    rc = smma_gpu_cvt_f32_to_f8x2(SMMA_GPU_CVT_E4M3, UINT32_C(0x3f800000), 2, two, msg,
                                  sizeof(msg));
    if (rc == SMMA_GPU_EARCH) {
        smma_gpu_release();
        skip_all("%s", msg);
    }
    if (rc != SMMA_GPU_OK)
        bail("the cvt probe does not run: %s", msg);

    plan(2);
    diag("device 0: %s (sm_%d%d); TEST_LEVEL=%d; %u threads", name, major, minor, level,
         sweep_threads());
    diag("NaN inputs are compared bitwise like every other input");

    bufsize = 0;
    for (i = 0; piece_at(level, i, &p); i++)
        if (p.count > bufsize)
            bufsize = p.count;
    buf = malloc(bufsize);
    if (buf == NULL)
        sysbail("cannot allocate %zu bytes for the GPU results", bufsize);

    for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
        sweep_target(&targets[i], level, buf);

    free(buf);
    smma_gpu_release();
    return exit_status();
}

#else /* !HAVE_CUDA */

int
main(void)
{
    skip_all("CUDA not configured: configure found no working nvcc (see its summary)");
}

#endif /* HAVE_CUDA */
