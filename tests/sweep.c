/*
 * tests/sweep.c - the multi-threaded sweep driver (see sweep.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"
#include "tap/basic.h"

#define CHUNK ((uint64_t) 1 << 20)

struct shared {
    uint64_t next, end;
    sweep_fn fn;
    void *ctx;
    pthread_mutex_t lock;
    sweep_result total;
};

static void
merge(sweep_result *into, const sweep_result *from)
{
    unsigned i;

    into->checked += from->checked;
    into->mismatches += from->mismatches;
    for (i = 0; i < from->nfirst; i++) {
        const sweep_miss *m = &from->first[i];

        into->mismatches--; /* sweep_record counts it again */
        sweep_record(into, m->index, m->input, m->want, m->got);
    }
}

void
sweep_record(sweep_result *r, uint64_t index, uint32_t input, uint32_t want, uint32_t got)
{
    unsigned i, pos;

    r->mismatches++;
    pos = r->nfirst;
    for (i = 0; i < r->nfirst; i++)
        if (index < r->first[i].index) {
            pos = i;
            break;
        }
    if (pos >= SWEEP_KEEP)
        return;
    if (r->nfirst < SWEEP_KEEP)
        r->nfirst++;
    memmove(&r->first[pos + 1], &r->first[pos], (r->nfirst - 1 - pos) * sizeof(r->first[0]));
    r->first[pos].index = index;
    r->first[pos].input = input;
    r->first[pos].want = want;
    r->first[pos].got = got;
}

static void *
worker(void *arg)
{
    struct shared *s = arg;
    sweep_result local;

    memset(&local, 0, sizeof(local));
    for (;;) {
        uint64_t lo, hi;

        pthread_mutex_lock(&s->lock);
        lo = s->next;
        hi = (s->end - lo > CHUNK) ? lo + CHUNK : s->end;
        s->next = hi;
        pthread_mutex_unlock(&s->lock);
        if (lo >= hi)
            break;
        s->fn(lo, hi, s->ctx, &local);
    }
    pthread_mutex_lock(&s->lock);
    merge(&s->total, &local);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

unsigned
sweep_threads(void)
{
    const char *e = getenv("SMMA_THREADS");
    long n;

    if (e != NULL && *e != '\0') {
        n = strtol(e, NULL, 10);
        if (n >= 1 && n <= 1024)
            return (unsigned) n;
    }
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 ? (unsigned) n : 1;
}

void
sweep_run(uint64_t begin, uint64_t end, sweep_fn fn, void *ctx, sweep_result *total)
{
    struct shared s;
    unsigned i, n = sweep_threads();
    pthread_t *tids;

    memset(&s, 0, sizeof(s));
    s.next = begin;
    s.end = end;
    s.fn = fn;
    s.ctx = ctx;
    pthread_mutex_init(&s.lock, NULL);
    tids = calloc(n, sizeof(*tids));
    if (tids == NULL)
        sysbail("cannot allocate threads");
    for (i = 0; i < n; i++)
        if (pthread_create(&tids[i], NULL, worker, &s) != 0)
            sysbail("cannot start a sweep thread");
    for (i = 0; i < n; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    pthread_mutex_destroy(&s.lock);
    *total = s.total;
}

uint32_t
sweep_fp32_input(int level, uint64_t i, uint32_t stride0, uint32_t stride1)
{
    if (level >= 2)
        return (uint32_t) i;
    if (i < 65536)
        return (uint32_t) i << 16;
    i -= 65536;
    return (uint32_t) (i * (level == 0 ? stride0 : stride1));
}
