/*
 * tests/gpu/mma-cases.c - mma.sync cases as tiles, candidate models and the
 * case dump (see mma-cases.h for the format).
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mma-cases.h"
#include "sweep.h"

/* Hex digits of one code of format f. */
static int
digits(smma_format f)
{
    return (int) ((smma_format_info(f)->bits + 3) / 4);
}

static smma_format
acc_format(smma_mma_instr i)
{
    return smma_frag_layout_get(i, SMMA_OP_C)->fmt;
}

static int
put_row(FILE *f, char tag, const uint32_t *v, size_t n, int width)
{
    size_t j;

    fputc(tag, f);
    for (j = 0; j < n; j++)
        fprintf(f, " %0*x", width, (unsigned) v[j]);
    fputc('\n', f);
    return ferror(f) ? -1 : 0;
}

int
mma_dump_begin(FILE *f, smma_mma_instr i, const char *device)
{
    fprintf(f, "softmma-mma-dump 1\ninstr %s\ndevice %s\n", smma_mma_instr_name(i),
            device != NULL ? device : "unknown");
    fprintf(f, "# %s: per case a (16 x %u), b (%u x 8), c and d (16 x 8), row-major hex codes; "
            "d is the GPU's\n", smma_mma_instr_ptx(i), smma_mma_instr_k(i),
            smma_mma_instr_k(i));
    return ferror(f) ? -1 : 0;
}

int
mma_dump_case(FILE *f, smma_mma_instr i, const mma_case *c)
{
    unsigned k = smma_mma_instr_k(i);
    int we = digits(smma_mma_instr_format(i)), wc = digits(acc_format(i));

    fprintf(f, "case %llu\n", (unsigned long long) c->index);
    if (put_row(f, 'a', c->a, 16 * (size_t) k, we) != 0 ||
        put_row(f, 'b', c->b, (size_t) k * 8, we) != 0 || put_row(f, 'c', c->c, 128, wc) != 0 ||
        put_row(f, 'd', c->d, 128, wc) != 0)
        return -1;
    return 0;
}

int
mma_dump_end(FILE *f, size_t ncases)
{
    fprintf(f, "end %zu\n", ncases);
    return ferror(f) ? -1 : 0;
}

/* Parses "TAG code code ..." into n codes of at most bits bits. */
static int
get_row(const char *line, char tag, uint32_t *v, size_t n, unsigned bits, const char *path,
        unsigned long ln, smma_error *err)
{
    const char *p = line + 1;
    size_t j;

    if (line[0] != tag || line[1] != ' ')
        return smma_error_set(err, SMMA_EINVAL, "%s:%lu: expected the row '%c'", path, ln, tag);
    for (j = 0; j < n; j++) {
        char *end;
        unsigned long x;

        if (*p != ' ')
            return smma_error_set(err, SMMA_EINVAL, "%s:%lu: row '%c' has %zu codes, not %zu",
                                  path, ln, tag, j, n);
        p++;
        errno = 0;
        x = strtoul(p, &end, 16);
        if (end == p || errno != 0 || (bits < 32 && (x >> bits) != 0) || x > 0xffffffffUL ||
            (*end != ' ' && *end != '\n' && *end != '\0'))
            return smma_error_set(err, SMMA_EINVAL, "%s:%lu: code %zu of row '%c' is not a "
                                  "%u-bit hex code", path, ln, j, tag, bits);
        v[j] = (uint32_t) x;
        p = end;
    }
    if (*p != '\n' && *p != '\0')
        return smma_error_set(err, SMMA_EINVAL, "%s:%lu: row '%c' has more than %zu codes",
                              path, ln, tag, n);
    return SMMA_OK;
}

int
mma_dump_read(const char *path, smma_mma_instr *instr, mma_case **cases, size_t *n,
              smma_error *err)
{
    FILE *f = fopen(path, "r");
    char line[8192], name[64];
    unsigned long ln = 0, ver = 0, count;
    size_t cap = 0, have = 0;
    mma_case *v = NULL;
    smma_mma_instr i = SMMA_MMA_INSTR_COUNT;
    unsigned k = 0, be = 0, bc = 0;
    int rc = SMMA_OK, state = 0; /* 0 header, 1 between cases, 2..5 rows a..d, 6 ended */

    *cases = NULL;
    *n = 0;
    if (f == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s: cannot open: %s", path, strerror(errno));
    while (rc == SMMA_OK && fgets(line, sizeof(line), f) != NULL) {
        unsigned long long idx;

        ln++;
        if (strchr(line, '\n') == NULL && !feof(f)) {
            rc = smma_error_set(err, SMMA_EINVAL, "%s:%lu: line too long", path, ln);
            break;
        }
        if (line[0] == '#')
            continue;
        if (state == 6) {
            rc = smma_error_set(err, SMMA_EINVAL, "%s:%lu: text after the end line", path, ln);
        } else if (ln == 1 || ver == 0) {
            if (sscanf(line, "softmma-mma-dump %lu", &ver) != 1 || ver != 1)
                rc = smma_error_set(err, SMMA_EINVAL, "%s:%lu: not a version 1 softmma-mma-dump",
                                    path, ln);
        } else if (i == SMMA_MMA_INSTR_COUNT) {
            if (sscanf(line, "instr %63s", name) != 1 ||
                smma_mma_instr_from_name(name, &i, err) != SMMA_OK) {
                rc = smma_error_set(err, SMMA_EINVAL, "%s:%lu: expected 'instr' and an mma.sync "
                                    "instruction", path, ln);
            } else {
                k = smma_mma_instr_k(i);
                be = smma_format_info(smma_mma_instr_format(i))->bits;
                bc = smma_format_info(acc_format(i))->bits;
            }
        } else if (state == 0 && strncmp(line, "device ", 7) == 0) {
            state = 1;
        } else if (state == 0) {
            rc = smma_error_set(err, SMMA_EINVAL, "%s:%lu: expected the device line", path, ln);
        } else if (state == 1 && sscanf(line, "case %llu", &idx) == 1) {
            if (have == cap) {
                size_t nc = cap ? 2 * cap : 256;
                mma_case *nv = realloc(v, nc * sizeof(*nv));

                if (nv == NULL) {
                    rc = smma_error_set(err, SMMA_ENOMEM, "%s:%lu: out of memory", path, ln);
                    break;
                }
                v = nv;
                cap = nc;
            }
            memset(&v[have], 0, sizeof(v[have]));
            v[have].index = idx;
            state = 2;
        } else if (state == 1 && sscanf(line, "end %lu", &count) == 1) {
            if (count != have)
                rc = smma_error_set(err, SMMA_EINVAL, "%s:%lu: the end line counts %lu cases, "
                                    "the file has %zu", path, ln, count, have);
            state = 6;
        } else if (state == 1) {
            rc = smma_error_set(err, SMMA_EINVAL, "%s:%lu: expected 'case N' or 'end N'", path,
                                ln);
        } else if (state == 2) {
            rc = get_row(line, 'a', v[have].a, 16 * (size_t) k, be, path, ln, err);
            state = 3;
        } else if (state == 3) {
            rc = get_row(line, 'b', v[have].b, (size_t) k * 8, be, path, ln, err);
            state = 4;
        } else if (state == 4) {
            rc = get_row(line, 'c', v[have].c, 128, bc, path, ln, err);
            state = 5;
        } else {
            rc = get_row(line, 'd', v[have].d, 128, bc, path, ln, err);
            have++;
            state = 1;
        }
    }
    if (rc == SMMA_OK && ferror(f))
        rc = smma_error_set(err, SMMA_EINVAL, "%s: read error", path);
    if (rc == SMMA_OK && state != 6)
        rc = smma_error_set(err, SMMA_EINVAL, "%s:%lu: the file ends without its 'end' line",
                            path, ln);
    fclose(f);
    if (rc != SMMA_OK) {
        free(v);
        return rc;
    }
    *instr = i;
    *cases = v;
    *n = have;
    return SMMA_OK;
}

/* The halves of the fp8 forms' registers: the eight k of half h. */
static void
half_ks(unsigned h, unsigned char *out)
{
    unsigned t;

    for (t = 0; t < 4; t++) {
        out[2 * t] = (unsigned char) ((h >= 2 ? 16 : 0) + 4 * t + (h % 2) * 2);
        out[2 * t + 1] = (unsigned char) (out[2 * t] + 1);
    }
}

static const char *const half_name[4] = { "r0.lo", "r0.hi", "r2.lo", "r2.hi" };

static void
set_order(mma_candidate *c, const unsigned *halves)
{
    unsigned j;

    for (j = 0; j < 4; j++)
        half_ks(halves[j], c->korder + 8 * j);
    c->model.korder = c->korder;
    c->model.korder_len = 32;
}

static size_t
fp8_candidates(const smma_model *base, mma_candidate *out, size_t max)
{
    size_t n = 0;
    unsigned x, y, up, p[4], q;

    /* Two f16 HMMA.16816 steps: halves x and y first, the other two after. */
    for (up = 0; up < 2; up++)
        for (x = 0; x < 4; x++)
            for (y = x + 1; y < 4; y++) {
                unsigned h[4], m = 2, z;
                mma_candidate *c = &out[n];

                if (n >= max)
                    return n;
                h[0] = x;
                h[1] = y;
                for (z = 0; z < 4; z++)
                    if (z != x && z != y)
                        h[m++] = z;
                c->model = *base;
                c->model.fma = 16;
                c->model.upcast_f16 = up == 0;
                set_order(c, h);
                snprintf(c->name, sizeof(c->name), "hmma16 [%s %s][%s %s]%s", half_name[h[0]],
                         half_name[h[1]], half_name[h[2]], half_name[h[3]],
                         up == 0 ? "" : " without the fp16 split");
                c->model.name = c->name;
                n++;
            }
    /* Four HMMA.1688 steps, one half each, in every order. */
    for (q = 0; q < 24 && n < max; q++) {
        unsigned r = q, avail[4] = { 0, 1, 2, 3 }, left = 4, j;
        mma_candidate *c = &out[n];

        for (j = 0; j < 4; j++) {
            unsigned pick = r % left, t;

            r /= left;
            p[j] = avail[pick];
            for (t = pick; t + 1 < left; t++)
                avail[t] = avail[t + 1];
            left--;
        }
        c->model = *base;
        c->model.fma = 8;
        c->model.upcast_f16 = true;
        set_order(c, p);
        snprintf(c->name, sizeof(c->name), "hmma8 [%s][%s][%s][%s]", half_name[p[0]],
                 half_name[p[1]], half_name[p[2]], half_name[p[3]]);
        c->model.name = c->name;
        n++;
    }
    return n;
}

static size_t
f16acc_candidates(const smma_model *base, mma_candidate *out, size_t max)
{
    size_t n = 0;
    int neab;

    if (n < max) {
        out[n].model = *base;
        snprintf(out[n].name, sizeof(out[n].name), "fp32 truncated, then fp16 to nearest "
                 "(h100-bf16)");
        n++;
    }
    if (n < max) {
        out[n].model = *base;
        out[n].model.round = SMMA_RN;
        snprintf(out[n].name, sizeof(out[n].name), "fp32 to nearest, then fp16 to nearest");
        n++;
    }
    for (neab = 0; neab <= 4; neab++) {
        unsigned st;

        for (st = 0; st < 2 && n < max; st++) {
            out[n].model = *base;
            out[n].model.neab = neab;
            out[n].model.f16_acc = st ? SMMA_F16ACC_RN_STICKY : SMMA_F16ACC_RN;
            snprintf(out[n].name, sizeof(out[n].name), "aligned sum to nearest fp16%s, neab %d",
                     st ? " with a sticky bit" : "", neab);
            n++;
        }
    }
    if (n < max) {
        out[n].model = *base;
        out[n].model.f16_acc = SMMA_F16ACC_RZ;
        snprintf(out[n].name, sizeof(out[n].name), "aligned sum toward zero to fp16, neab 2");
        n++;
    }
    for (neab = 0; (size_t) neab < n; neab++)
        out[neab].model.name = out[neab].name;
    return n;
}

size_t
mma_candidates(smma_mma_instr i, mma_candidate *out, size_t max)
{
    const smma_model *base = NULL;

    if (smma_model_from_name("h100-bf16", &base, NULL) != SMMA_OK)
        return 0;
    memset(out, 0, max * sizeof(*out));
    if (i == SMMA_MMA_M16N8K32_E4M3 || i == SMMA_MMA_M16N8K32_E5M2)
        return fp8_candidates(base, out, max);
    if (i == SMMA_MMA_M16N8K16_F16_F16)
        return f16acc_candidates(base, out, max);
    return 0;
}

struct count_job {
    smma_mma_instr instr;
    const smma_model *m;
    const mma_case *cases;
    size_t lo, hi, first;
    uint64_t bad;
    unsigned char *differs;
};

/* Whether the model's D of case c equals the GPU's. */
static int
case_agrees(smma_mma_instr i, const smma_model *m, const smma_gemm_shape *s, const mma_case *c)
{
    unsigned k = (unsigned) s->k, row, col, kk;
    uint32_t bt[8 * 32];

    (void) i;
    for (kk = 0; kk < k; kk++)
        for (col = 0; col < 8; col++)
            bt[col * k + kk] = c->b[kk * 8 + col];
    for (row = 0; row < 16; row++)
        for (col = 0; col < 8; col++)
            if (smma_dot(m, s, &c->a[row * k], &bt[col * k], NULL, NULL, c->c[row * 8 + col]) !=
                c->d[row * 8 + col])
                return 0;
    return 1;
}

static void *
count_worker(void *vj)
{
    struct count_job *j = vj;
    smma_gemm_shape s;
    size_t t;

    smma_mma_instr_shape(j->instr, &s, NULL);
    j->first = j->hi;
    for (t = j->lo; t < j->hi; t++) {
        int agrees = case_agrees(j->instr, j->m, &s, &j->cases[t]);

        if (j->differs != NULL)
            j->differs[t] = !agrees;
        if (!agrees && j->bad++ == 0)
            j->first = t;
    }
    return NULL;
}

uint64_t
mma_count(smma_mma_instr i, const smma_model *m, const mma_case *cases, size_t n,
          size_t *first, unsigned char *differs)
{
    unsigned nw = sweep_threads(), w;
    struct count_job jobs[64];
    pthread_t tid[64];
    uint64_t bad = 0;

    if (nw > 64)
        nw = 64;
    if ((size_t) nw > n)
        nw = n == 0 ? 1 : (unsigned) n;
    *first = n;
    for (w = 0; w < nw; w++) {
        jobs[w].instr = i;
        jobs[w].m = m;
        jobs[w].cases = cases;
        jobs[w].lo = n * w / nw;
        jobs[w].hi = n * (w + 1) / nw;
        jobs[w].bad = 0;
        jobs[w].differs = differs;
        if (pthread_create(&tid[w], NULL, count_worker, &jobs[w]) != 0)
            count_worker(&jobs[w]); /* no thread: do it here */
        else
            continue;
        tid[w] = pthread_self();
    }
    for (w = 0; w < nw; w++) {
        if (!pthread_equal(tid[w], pthread_self()))
            pthread_join(tid[w], NULL);
        bad += jobs[w].bad;
        if (jobs[w].bad != 0 && jobs[w].first < *first)
            *first = jobs[w].first;
    }
    return bad;
}
