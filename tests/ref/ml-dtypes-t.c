/*
 * tests/ref/ml-dtypes-t.c - the ml_dtypes profile's e8m0 conversion against
 * ml_dtypes itself, where python3 with numpy and ml_dtypes 0.6 is installed
 * (it skips with the reason elsewhere).
 *
 * tests/ref/ml-dtypes-cast.py does the casts: a NumPy cast of float32 arrays
 * to float8_e8m0fnu (the fp32 path, whose codes come back as raw bytes
 * through a pipe), and ml_dtypes.float8_e8m0fnu(x) of Python floats (the
 * double path).  Each code is compared with smma_encode under the profile's
 * e8m0 conversion (smma_profile_cvt_for).
 *
 *   level 0: the fp32 subnormals and smallest normals of both signs, every
 *            64th pattern below 0x00c00000 (as first observed), and the
 *            boundary doubles;
 *   level 1: every fp32 pattern below 2^24 of both signs, every 4099th of
 *            all 2^32, the boundary doubles and 100,000 random doubles;
 *   level 2: all 2^32 fp32 patterns and 1,000,000 random doubles (under
 *            four minutes on 16 cores).
 *
 * With SMMA_DUMP_DIR set, every input on which the two differ (the first
 * 100,000) is written to $SMMA_DUMP_DIR/ml-dtypes-e8m0.txt, one per line:
 *     KIND BITS ML_DTYPES SOFTMMA
 * KIND is f32 or f64, BITS the input's bit pattern in hex (0x and 8 or 16
 * digits), ML_DTYPES and SOFTMMA the two e8m0 codes (0x and 2 digits; 0x100
 * when ml_dtypes raised an exception);
 * lines starting with # are comments, the last ones the counts.
 * $PYTHON names the interpreter (python3 by default).
 */
#include <config.h>

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <softmma/format.h>
#include <softmma/profile.h>

#include "sweep.h"
#include "tap/basic.h"

#define CHUNK ((size_t) 1 << 24)
#define DUMP_MAX 100000

static smma_cvt cvt;
static FILE *dump;
static unsigned long dumped;

static const char *
python(void)
{
    const char *p = getenv("PYTHON");

    return p != NULL && *p != '\0' ? p : "python3";
}

/* Runs the helper with args; returns its status (-1 when it cannot run). */
static int
helper(const char *args, char *out, size_t outlen)
{
    char *script = test_file_path("tests/ref/ml-dtypes-cast.py");
    char cmd[1024];
    FILE *f;
    size_t n;
    int st;

    snprintf(cmd, sizeof(cmd), "%s '%s' %s 2>&1", python(), script, args);
    test_file_free(script);
    f = popen(cmd, "r");
    if (f == NULL)
        return -1;
    n = fread(out, 1, outlen - 1, f);
    out[n] = '\0';
    st = pclose(f);
    out[strcspn(out, "\n")] = '\0';
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;

static void
dump_line(const char *kind, int digits, uint64_t bits, unsigned ml, unsigned sm)
{
    pthread_mutex_lock(&dump_lock);
    if (dump != NULL && dumped < DUMP_MAX) {
        fprintf(dump, "%s 0x%0*llx 0x%02x 0x%02x\n", kind, digits, (unsigned long long) bits,
                ml, sm);
        dumped++;
    }
    pthread_mutex_unlock(&dump_lock);
}

/* One worker: the patterns first + i * stride for i in [lo, hi), cast by
 * its own helper process and checked as they arrive. */
struct f32job {
    uint32_t first, stride;
    uint64_t lo, hi;
    sweep_result res;
    char err[1280];
};

static void *
f32_worker(void *vjob)
{
    struct f32job *j = vjob;
    char *script = test_file_path("tests/ref/ml-dtypes-cast.py");
    char cmd[1024];
    unsigned char *buf = malloc(CHUNK);
    uint64_t done = j->lo;
    FILE *f;
    int st;

    snprintf(cmd, sizeof(cmd), "%s '%s' f32 %lu %llu %lu", python(), script,
             (unsigned long) (uint32_t) (j->first + j->lo * j->stride),
             (unsigned long long) (j->hi - j->lo), (unsigned long) j->stride);
    test_file_free(script);
    if (buf == NULL || (f = popen(cmd, "r")) == NULL) {
        snprintf(j->err, sizeof(j->err), "cannot run %s", cmd);
        free(buf);
        return NULL;
    }
    while (done < j->hi) {
        size_t want = j->hi - done < CHUNK ? (size_t) (j->hi - done) : CHUNK;
        size_t got = fread(buf, 1, want, f), i;

        for (i = 0; i < got; i++) {
            uint32_t x = (uint32_t) (j->first + (done + i) * j->stride);
            uint32_t sm = smma_encode_f32bits(SMMA_E8M0, x, &cvt);

            j->res.checked++;
            if (sm != buf[i]) {
                sweep_record(&j->res, done + i, x, buf[i], sm);
                dump_line("f32", 8, x, buf[i], sm);
            }
        }
        done += got;
        if (got != want)
            break;
    }
    st = pclose(f);
    if (done != j->hi || st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        snprintf(j->err, sizeof(j->err), "%s: %llu of %llu codes came back (status %d)", cmd,
                 (unsigned long long) (done - j->lo), (unsigned long long) (j->hi - j->lo), st);
    free(buf);
    return NULL;
}

/* Compares count patterns first + i * stride on sweep_threads() workers;
 * adds to *checked and *bad and keeps the first mismatches by index. */
static void
run_f32(uint32_t first, uint64_t count, uint32_t stride, uint64_t *checked, uint64_t *bad,
        sweep_miss *firstmiss, unsigned *nfirst)
{
    unsigned nw = sweep_threads(), w, k;
    uint64_t per;
    struct f32job *jobs;
    pthread_t *tid;

    if (nw > 64)
        nw = 64;
    per = (count + nw - 1) / nw;
    jobs = calloc(nw, sizeof(*jobs));
    tid = calloc(nw, sizeof(*tid));
    if (jobs == NULL || tid == NULL)
        sysbail("cannot allocate %u workers", nw);
    for (w = 0; w < nw; w++) {
        jobs[w].first = first;
        jobs[w].stride = stride;
        jobs[w].lo = w * per < count ? w * per : count;
        jobs[w].hi = (w + 1) * per < count ? (w + 1) * per : count;
        if (pthread_create(&tid[w], NULL, f32_worker, &jobs[w]) != 0)
            sysbail("cannot start worker %u", w);
    }
    for (w = 0; w < nw; w++)
        pthread_join(tid[w], NULL);
    for (w = 0; w < nw; w++) {
        if (jobs[w].err[0] != '\0')
            bail("%s", jobs[w].err);
        *checked += jobs[w].res.checked;
        *bad += jobs[w].res.mismatches;
        /* Workers cover increasing index ranges: their first misses in order. */
        for (k = 0; k < jobs[w].res.nfirst && *nfirst < SWEEP_KEEP; k++)
            firstmiss[(*nfirst)++] = jobs[w].res.first[k];
    }
    free(jobs);
    free(tid);
}

/* The doubles: boundaries with their neighbours and negatives, then random
 * ones (three quarters with exponents near e8m0's range, an eighth exact
 * ties 1.5 * 2^e). */
static size_t
make_doubles(double *x, size_t nrand)
{
    static const double edges[] = {
        0x1p-127, 0x1.8p-127, 0x1p-126, 0x1p-128, 0x1.8p-126, 1.0, 1.5, 3.0, 0x1p127,
        0x1.8p127, 0x1p128, 0x1.8p128, 0x1.fffffffffffffp128, 0x1p129, 0x1.8p129, 0x1p-149,
        0x1p-150, 0x1p-1074, DBL_MAX, 0.0, INFINITY, NAN
    };
    size_t n = 0, i;
    tap_rng r;

    for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        double v = edges[i];

        x[n++] = v;
        x[n++] = -v;
        if (isfinite(v) && v > 0) {
            x[n++] = nextafter(v, 0.0);
            x[n++] = nextafter(v, INFINITY);
        }
    }
    tap_rng_seed(&r, 0x6d6c64u);
    for (i = 0; i < nrand; i++) {
        uint64_t u = tap_rng_next(&r);
        int e = i % 4 == 3 ? (int) (u % 2100) - 1075 : (int) (u % 271) - 135;
        double m = 1.0 + (double) (u >> 12) * 0x1p-52;

        if (i % 8 == 1)
            m = 1.5;
        x[n++] = ldexp(m, e) * ((u >> 11) & 1 && i % 16 == 5 ? -1 : 1);
    }
    return n;
}

static void
run_f64(size_t nrand)
{
    size_t n, i, bad = 0, shown = 0;
    double *x = malloc((nrand + 128) * sizeof(double));
    char path[] = "/tmp/ml-dtypes-t-XXXXXX", *script, cmd[1024], line[64];
    FILE *f;
    int fd, st;

    if (x == NULL)
        sysbail("cannot allocate %zu doubles", nrand);
    n = make_doubles(x, nrand);
    fd = mkstemp(path);
    if (fd < 0 || (f = fdopen(fd, "w")) == NULL)
        sysbail("cannot create %s", path);
    for (i = 0; i < n; i++)
        fprintf(f, "%016llx\n", (unsigned long long) smma_f64_bits(x[i]));
    if (fclose(f) != 0)
        sysbail("cannot write %s", path);
    script = test_file_path("tests/ref/ml-dtypes-cast.py");
    snprintf(cmd, sizeof(cmd), "%s '%s' f64 '%s'", python(), script, path);
    test_file_free(script);
    f = popen(cmd, "r");
    if (f == NULL)
        sysbail("cannot run %s", cmd);
    for (i = 0; i < n && fgets(line, sizeof(line), f) != NULL; i++) {
        unsigned ml = (unsigned) strtoul(line, NULL, 0);
        unsigned sm = smma_encode(SMMA_E8M0, x[i], &cvt);

        if (ml != sm) {
            bad++;
            if (shown++ < SWEEP_KEEP)
                diag("  double %a (0x%016llx): ml_dtypes 0x%02x, softmma 0x%02x", x[i],
                     (unsigned long long) smma_f64_bits(x[i]), ml, sm);
            dump_line("f64", 16, smma_f64_bits(x[i]), ml, sm);
        }
    }
    st = pclose(f);
    unlink(path);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || i != n)
        bail("%s failed after %zu of %zu lines (status %d)", cmd, i, n, st);
    if (dump != NULL)
        fprintf(dump, "# f64: %zu inputs, %zu differ\n", n, bad);
    ok(bad == 0, "doubles (Python floats, converted directly): ml_dtypes equals the profile on "
       "%zu inputs (%zu differ)", n, bad);
    free(x);
}

int
main(void)
{
    int level = test_level(), st;
    const smma_profile *p;
    char ver[256];
    uint64_t checked = 0, bad = 0;
    sweep_miss first[SWEEP_KEEP];
    unsigned nfirst = 0, k;
    double t0;

    st = helper("version", ver, sizeof(ver));
    if (st != 0)
        skip_all("no python3 with numpy and ml_dtypes (%s)", st < 0 ? "cannot run" : ver);
    if (strncmp(ver, "ml_dtypes 0.6.", 14) != 0)
        skip_all("%s found; the ml_dtypes profile models ml_dtypes 0.6", ver);
    if (smma_profile_from_name("ml_dtypes", &p, NULL) != SMMA_OK)
        bail("no ml_dtypes profile");
    cvt = smma_profile_cvt_for(p, SMMA_E8M0);
    if (getenv("SMMA_DUMP_DIR") != NULL && *getenv("SMMA_DUMP_DIR") != '\0') {
        char path[4096];

        snprintf(path, sizeof(path), "%s/ml-dtypes-e8m0.txt", getenv("SMMA_DUMP_DIR"));
        dump = fopen(path, "w");
        if (dump == NULL)
            sysbail("cannot create %s", path);
        fprintf(dump, "# softmma ml-dtypes-t: inputs on which %s and the ml_dtypes profile "
                "differ in e8m0\n# KIND BITS ML_DTYPES SOFTMMA\n", ver);
    }
    plan(2);
    diag("%s; level %d; %u threads", ver, level, sweep_threads());
    t0 = tap_seconds();
    if (level >= 2) {
        run_f32(0, (uint64_t) 1 << 32, 1, &checked, &bad, first, &nfirst);
    } else if (level == 1) {
        run_f32(0, CHUNK, 1, &checked, &bad, first, &nfirst);
        run_f32(0x80000000u, CHUNK, 1, &checked, &bad, first, &nfirst);
        run_f32(0, ((uint64_t) 1 << 32) / 4099, 4099, &checked, &bad, first, &nfirst);
    } else {
        run_f32(0, 0xc00000 / 64, 64, &checked, &bad, first, &nfirst);
        run_f32(0x80000000u, 0xc00000 / 64, 64, &checked, &bad, first, &nfirst);
    }
    if (dump != NULL)
        fprintf(dump, "# f32: %llu inputs, %llu differ\n", (unsigned long long) checked,
                (unsigned long long) bad);
    ok(bad == 0, "fp32 (NumPy float32 array casts): ml_dtypes equals the profile on %llu inputs "
       "(%llu differ, %.1f s)", (unsigned long long) checked, (unsigned long long) bad,
       tap_seconds() - t0);
    for (k = 0; k < nfirst; k++)
        diag("  fp32 0x%08x (%a): ml_dtypes 0x%02x, softmma 0x%02x", (unsigned) first[k].input,
             (double) smma_f32_from_bits(first[k].input), (unsigned) first[k].want,
             (unsigned) first[k].got);
    run_f64(level >= 2 ? 1000000 : level == 1 ? 100000 : 0);
    diag("RESULT ml_dtypes-e8m0 fp32 inputs=%llu mismatches=%llu", (unsigned long long) checked,
         (unsigned long long) bad);
    if (dump != NULL && fclose(dump) != 0)
        sysbail("cannot write the dump");
    return exit_status();
}
