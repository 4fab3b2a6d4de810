/*
 * tests/sweep.h - run a check over a large index range (up to all 2^32 fp32
 * inputs) on every core, counting mismatches and keeping the first few.
 */
#ifndef TESTS_SWEEP_H
#define TESTS_SWEEP_H 1

#include <stdint.h>

#define SWEEP_KEEP 10

/* One mismatch: the input's index, the input bits, the reference's code
 * ("want") and the subject's code ("got"). */
typedef struct sweep_miss {
    uint64_t index;
    uint32_t input;
    uint32_t want;
    uint32_t got;
} sweep_miss;

typedef struct sweep_result {
    uint64_t checked;
    uint64_t mismatches;
    unsigned nfirst;
    sweep_miss first[SWEEP_KEEP]; /* the mismatches with the smallest indices */
} sweep_result;

/* Checks the indices [lo, hi) and records into r (which starts zeroed). */
typedef void (*sweep_fn)(uint64_t lo, uint64_t hi, void *ctx, sweep_result *r);

/* Records one mismatch. */
void sweep_record(sweep_result *r, uint64_t index, uint32_t input, uint32_t want,
                  uint32_t got);

/* Runs fn over [begin, end) in chunks on sweep_threads() threads and merges
 * the results into *total (which this function zeroes first). */
void sweep_run(uint64_t begin, uint64_t end, sweep_fn fn, void *ctx, sweep_result *total);

/* The fp32 inputs of a level-dependent sweep over index i: at level 2 every
 * pattern (i itself); below, the 65,536 bf16-exact patterns first, then
 * i * stride for the rest, which spreads them over the whole space and
 * varies the low bits.  Each test picks its strides for levels 0 and 1. */
uint32_t sweep_fp32_input(int level, uint64_t i, uint32_t stride0, uint32_t stride1);

/* The number of threads: $SMMA_THREADS if set, else the online CPUs. */
unsigned sweep_threads(void);

#endif
