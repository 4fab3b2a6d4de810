/*
 * tests/gpu/mma-replay.c - counts, on the cases of mma dumps that
 * tests/gpu/mma-t wrote on a GPU machine (SMMA_DUMP_DIR), how many each
 * numerics model and each candidate of the instruction reproduces.  Needs
 * no GPU.
 *
 *     tests/gpu/mma-replay [--show NAME] DUMP...
 *
 * For every file: one line per model of `softmma models` that can compute
 * the instruction and per candidate of mma-cases.c, "agrees on X of N
 * cases", the ones that agree on every case marked with "*".  --show prints
 * the first differing outputs of the model or candidate named NAME.  Exit
 * status 0, or 2 when a file cannot be read (the message names the file and
 * line).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mma-cases.h"

static void
show(smma_mma_instr instr, const smma_model *m, const mma_case *cases, size_t n)
{
    smma_gemm_shape s;
    size_t t, shown = 0;

    smma_mma_instr_shape(instr, &s, NULL);
    for (t = 0; t < n && shown < 10; t++) {
        unsigned k = (unsigned) s.k, row, col, kk;
        uint32_t bt[8 * 32];

        for (kk = 0; kk < k; kk++)
            for (col = 0; col < 8; col++)
                bt[col * k + kk] = cases[t].b[kk * 8 + col];
        for (row = 0; row < 16 && shown < 10; row++)
            for (col = 0; col < 8 && shown < 10; col++) {
                uint32_t want = smma_dot(m, &s, &cases[t].a[row * k], &bt[col * k], NULL, NULL,
                                         cases[t].c[row * 8 + col]);
                uint32_t got = cases[t].d[row * 8 + col];

                if (want != got) {
                    int w = (int) smma_format_info(s.d_fmt)->bits / 4;

                    printf("  case %llu D[%u][%u]: %s 0x%0*x (%a), GPU 0x%0*x (%a)\n",
                           (unsigned long long) cases[t].index, row, col, m->name, w, want,
                           smma_decode(s.d_fmt, want), w, got, smma_decode(s.d_fmt, got));
                    shown++;
                }
            }
    }
}

static void
line(smma_mma_instr instr, const smma_model *m, const char *what, const mma_case *cases,
     size_t n, const char *showname)
{
    size_t first;
    uint64_t bad = mma_count(instr, m, cases, n, &first, NULL);

    printf("%c %-9s %-60s agrees on %llu of %zu cases\n", bad == 0 ? '*' : ' ', what, m->name,
           (unsigned long long) (n - bad), n);
    if (showname != NULL && strcmp(showname, m->name) == 0)
        show(instr, m, cases, n);
}

int
main(int argc, char **argv)
{
    static mma_candidate cand[MMA_MAX_CANDIDATES];
    const char *showname = NULL;
    int i, status = 0;

    for (i = 1; i < argc; i++) {
        smma_mma_instr instr;
        mma_case *cases;
        size_t n, j, nc;
        smma_error err;
        smma_gemm_shape s;

        if (strcmp(argv[i], "--show") == 0 && i + 1 < argc) {
            showname = argv[++i];
            continue;
        }
        if (argv[i][0] == '-') {
            fprintf(stderr, "usage: mma-replay [--show NAME] DUMP...\n");
            return 2;
        }
        if (mma_dump_read(argv[i], &instr, &cases, &n, &err) != SMMA_OK) {
            fprintf(stderr, "mma-replay: %s\n", err.msg);
            status = 2;
            continue;
        }
        printf("%s: %s, %zu cases\n", argv[i], smma_mma_instr_name(instr), n);
        smma_mma_instr_shape(instr, &s, NULL);
        for (j = 0; j < smma_model_count(); j++)
            if (smma_model_check(smma_model_at(j), &s, NULL) == SMMA_OK)
                line(instr, smma_model_at(j), "model", cases, n, showname);
        nc = mma_candidates(instr, cand, MMA_MAX_CANDIDATES);
        for (j = 0; j < nc; j++)
            if (smma_model_check(&cand[j].model, &s, NULL) == SMMA_OK)
                line(instr, &cand[j].model, "candidate", cases, n, showname);
        free(cases);
    }
    return status;
}
