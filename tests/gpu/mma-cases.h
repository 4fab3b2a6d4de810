/*
 * tests/gpu/mma-cases.h - executed mma.sync cases as tiles, the candidate
 * models of the instructions whose arithmetic is not settled, and a text
 * dump of cases that tests/gpu/mma-t writes on the GPU machine and
 * tests/gpu/mma-replay reads anywhere.
 *
 * The dump format, version 1 (one file per instruction):
 *
 *     softmma-mma-dump 1
 *     instr mma.m16n8k32.e4m3
 *     device NVIDIA H100 80GB HBM3 (sm_90)
 *     # comment lines start with #
 *     case 17
 *     a 3c 12 ...      16 x K codes of A, row-major (row m, column k)
 *     b ...            K x 8 codes of B, row-major (row k, column n)
 *     c ...            16 x 8 codes of C, row-major
 *     d ...            16 x 8 codes of D as the GPU returned it
 *     case 18
 *     ...
 *     end 2
 *
 * instr is a short name of smma_mma_instr_name; the device line is free
 * text.  Codes are hexadecimal without 0x, in the element format of the
 * operand (A and B: the instruction's; C and D: fp32, or fp16 for the
 * f16.f16 form), separated by single spaces.  "end N" closes the file and
 * counts the cases.  K, the formats and the layouts are the instruction's
 * (softmma/fragment.h); the registers of a case are smma_frag_pack of its
 * tiles.
 */
#ifndef TESTS_MMA_CASES_H
#define TESTS_MMA_CASES_H 1

#include <stdint.h>
#include <stdio.h>

#include <softmma/fragment.h>
#include <softmma/gemm.h>

/* One case: its index in the run, and the tiles (A 16 x K, B K x 8, C and D
 * 16 x 8; K = 16 or 32). */
typedef struct mma_case {
    uint64_t index;
    uint32_t a[16 * 32], b[32 * 8], c[16 * 8], d[16 * 8];
} mma_case;

/* Writes the header, one case, and the closing line.  Return 0, or -1 when
 * the stream reports an error. */
int mma_dump_begin(FILE *f, smma_mma_instr i, const char *device);
int mma_dump_case(FILE *f, smma_mma_instr i, const mma_case *c);
int mma_dump_end(FILE *f, size_t ncases);

/* Reads a whole dump: *instr, and *cases (malloc'd, *n of them).  Returns
 * SMMA_OK, or SMMA_EINVAL / SMMA_ENOMEM with a message naming the file and
 * line, *cases then NULL. */
int mma_dump_read(const char *path, smma_mma_instr *instr, mma_case **cases, size_t *n,
                  smma_error *err);

/* A candidate model of an instruction.  model.korder points into the
 * structure itself: candidates are not to be copied. */
typedef struct mma_candidate {
    char name[96];
    smma_model model;
    unsigned char korder[32];
} mma_candidate;

#define MMA_MAX_CANDIDATES 48

/* Fills out[0..] with the candidates of instruction i and returns their
 * number (0 for the instructions whose model is validated):
 *   fp8 forms: the sm_90 lowering to f16 HMMA steps.  The four 8-bit A
 *     registers of a lane hold k 4t..4t+3 (r0, rows g and g+8) and
 *     16+4t..16+4t+3 (r2); each unpacks into two f16 pairs, lo (4t, 4t+1;
 *     16+4t, 16+4t+1) and hi (4t+2, 4t+3; ...).  Two HMMA.16816 steps
 *     (block 16) take two of the four halves each: 6 choices of the first
 *     step's pair, with the fp16 split of the elements and without it; four
 *     HMMA.1688 steps (block 8) take one half each: 24 orders.  All with
 *     h100-bf16's neab 2, floor -133 and truncation, each step's result the
 *     next step's C.
 *   f16.f16 form: the rounding of the block to the fp16 accumulator: through
 *     fp32 truncated (h100-bf16) or to nearest, the aligned sum to nearest
 *     fp16 with neab 0..4, the same with the dropped bits as a sticky bit,
 *     and toward zero. */
size_t mma_candidates(smma_mma_instr i, mma_candidate *out, size_t max);

/* The number of cases among cases[0..n) whose D differs anywhere from the
 * model's, on all threads (sweep_threads()); *first receives the index in
 * cases[] of the first that differs (n when none), and differs[t], unless
 * differs is NULL, whether case t does. */
uint64_t mma_count(smma_mma_instr i, const smma_model *m, const mma_case *cases, size_t n,
                   size_t *first, unsigned char *differs);

#endif
