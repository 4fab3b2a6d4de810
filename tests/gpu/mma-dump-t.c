/*
 * tests/gpu/mma-dump-t.c - the case dump and the candidates of mma-t,
 * without a GPU: cases whose D a chosen candidate computed ("the hardware")
 * go through a dump file and back, and counting on them must single that
 * candidate out; malformed dumps are refused with the file and line.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mma-cases.h"
#include "tap/basic.h"

#define NCASES 300

/* Random finite codes of the instruction's formats: fp8 uniform, fp16 with
 * exponent fields 0 (subnormal) to 20, C fp32 near 1 or fp16 like A. */
static void
make_cases(smma_mma_instr instr, const smma_model *hw, mma_case *cases, size_t n)
{
    smma_gemm_shape s;
    smma_format f = smma_mma_instr_format(instr);
    unsigned k = smma_mma_instr_k(instr), j, row, col;
    tap_rng r;
    size_t t;

    smma_mma_instr_shape(instr, &s, NULL);
    tap_rng_seed(&r, 0x64756d70u + instr);
    for (t = 0; t < n; t++) {
        mma_case *c = &cases[t];
        uint32_t bt[8 * 32];

        memset(c, 0, sizeof(*c));
        c->index = 3 * t + 1;
        for (j = 0; j < 16 * k + k * 8; j++) {
            uint64_t x = tap_rng_next(&r);
            uint32_t code;

            if (f == SMMA_FP16)
                code = ((uint32_t) (x >> 63) << 15) | ((uint32_t) (x % 21) << 10) |
                       (uint32_t) ((x >> 20) & 0x3ff);
            else
                do {
                    code = (uint32_t) (x & 0xff);
                    x = tap_rng_next(&r);
                } while (smma_code_is_nan(f, code) || smma_code_is_inf(f, code));
            if (j < 16 * k)
                c->a[j] = code;
            else
                c->b[j - 16 * k] = code;
        }
        for (j = 0; j < 128; j++) {
            uint64_t x = tap_rng_next(&r);

            c->c[j] = s.c_fmt == SMMA_FP16
                          ? ((uint32_t) (x >> 63) << 15) | ((uint32_t) (x % 21) << 10) |
                                (uint32_t) ((x >> 20) & 0x3ff)
                          : ((uint32_t) (x >> 63) << 31) | ((uint32_t) (120 + x % 14) << 23) |
                                (uint32_t) ((x >> 8) & 0x7fffff);
        }
        for (j = 0; j < k; j++)
            for (col = 0; col < 8; col++)
                bt[col * k + j] = c->b[j * 8 + col];
        for (row = 0; row < 16; row++)
            for (col = 0; col < 8; col++)
                c->d[row * 8 + col] = smma_dot(hw, &s, &c->a[row * k], &bt[col * k], NULL, NULL,
                                               c->c[row * 8 + col]);
    }
}

/* Writes text to a temporary file; returns its path (static storage). */
static const char *
temp_file(const char *text)
{
    static char path[64];
    FILE *f;
    int fd;

    strcpy(path, "/tmp/mma-dump-t-XXXXXX");
    fd = mkstemp(path);
    if (fd < 0 || (f = fdopen(fd, "w")) == NULL)
        sysbail("cannot create a temporary file");
    fputs(text, f);
    if (fclose(f) != 0)
        sysbail("cannot write %s", path);
    return path;
}

/* The hardware is candidate hw_index of instr; the dump must come back
 * equal, and the counts must single the candidate out. */
static void
round_trip(smma_mma_instr instr, size_t hw_index, const char *primary)
{
    static mma_candidate cand[MMA_MAX_CANDIDATES];
    static mma_case cases[NCASES];
    size_t nc = mma_candidates(instr, cand, MMA_MAX_CANDIDATES), n2, first, j, zero = 0;
    mma_case *back = NULL;
    smma_mma_instr instr2;
    smma_error err;
    const char *path;
    FILE *f;
    int rc;

    if (hw_index >= nc)
        bail("%s has only %zu candidates", smma_mma_instr_name(instr), nc);
    make_cases(instr, &cand[hw_index].model, cases, NCASES);
    path = temp_file("");
    f = fopen(path, "w");
    if (f == NULL || mma_dump_begin(f, instr, "simulated (no GPU)") != 0)
        sysbail("cannot write %s", path);
    for (j = 0; j < NCASES; j++)
        mma_dump_case(f, instr, &cases[j]);
    if (mma_dump_end(f, NCASES) != 0 || fclose(f) != 0)
        sysbail("cannot write %s", path);
    rc = mma_dump_read(path, &instr2, &back, &n2, &err);
    ok(rc == SMMA_OK && instr2 == instr && n2 == NCASES &&
       memcmp(back, cases, sizeof(cases)) == 0,
       "%s: %d cases through a dump file and back, unchanged%s%s", smma_mma_instr_name(instr),
       NCASES, rc == SMMA_OK ? "" : ": ", rc == SMMA_OK ? "" : err.msg);
    unlink(path);
    if (rc != SMMA_OK)
        return;
    is_int(0, (long long) mma_count(instr, &cand[hw_index].model, back, n2, &first, NULL),
           "%s: the hardware's candidate (%s) agrees on every case", smma_mma_instr_name(instr),
           cand[hw_index].name);
    for (j = 0; j < nc; j++)
        zero += mma_count(instr, &cand[j].model, back, n2, &first, NULL) == 0;
    ok(zero < nc / 2, "%s: most candidates are told apart (%zu of %zu agree on every case)",
       smma_mma_instr_name(instr), zero, nc);
    ok(mma_count(instr, tap_model(primary), back, n2, &first, NULL) > 0,
       "%s: %s differs from this hardware", smma_mma_instr_name(instr), primary);
    free(back);
}

static void
refused(const char *text, const char *want, const char *why)
{
    const char *path = temp_file(text);
    smma_mma_instr instr;
    mma_case *cases;
    size_t n;
    smma_error err;
    int rc = mma_dump_read(path, &instr, &cases, &n, &err);

    ok(rc == SMMA_EINVAL && strstr(err.msg, path) != NULL && strstr(err.msg, want) != NULL,
       "a dump with %s is refused (%s)", why, rc == SMMA_OK ? "accepted" : err.msg);
    if (rc == SMMA_OK)
        free(cases);
    unlink(path);
}

int
main(void)
{
    static mma_candidate cand[MMA_MAX_CANDIDATES];
    char row[128 * 9 + 8], text[8192];
    size_t j;

    plan_lazy();
    /* The primaries are the first candidates; pick later ones as hardware. */
    is_int(36, (long long) mma_candidates(SMMA_MMA_M16N8K32_E4M3, cand, MMA_MAX_CANDIDATES),
           "36 candidates for the fp8 forms");
    is_string("hmma16 [r0.lo r2.lo][r0.hi r2.hi]", cand[1].name,
              "the second is the grouping of h100-fp8-mma-sync");
    is_int(13, (long long) mma_candidates(SMMA_MMA_M16N8K16_F16_F16, cand, MMA_MAX_CANDIDATES),
           "13 candidates for f16 accumulators");
    is_int(0, (long long) mma_candidates(SMMA_MMA_M16N8K16_BF16, cand, MMA_MAX_CANDIDATES),
           "no candidates for the validated forms");
    round_trip(SMMA_MMA_M16N8K32_E4M3, 4, "h100-fp8-mma-sync");
    round_trip(SMMA_MMA_M16N8K32_E5M2, 20, "h100-fp8-mma-sync");
    round_trip(SMMA_MMA_M16N8K16_F16_F16, 5, "h100-f16acc");

    refused("softmma-mma-dump 2\n", ":1: not a version 1", "another version");
    refused("softmma-mma-dump 1\ninstr mma.m16n8k99\n", ":2: expected 'instr'",
            "an unknown instruction");
    refused("softmma-mma-dump 1\ninstr mma.m16n8k16.f16.f16\ndevice x\ncase 0\na 1 2\n",
            ":5: row 'a' has 2 codes", "a short row");
    refused("softmma-mma-dump 1\ninstr mma.m16n8k16.f16.f16\ndevice x\nend 1\n",
            ":4: the end line counts 1", "a wrong count");
    refused("softmma-mma-dump 1\ninstr mma.m16n8k16.f16.f16\ndevice x\n", ":3: the file ends",
            "no end line");
    /* A full case whose c row holds a 17-bit code. */
    snprintf(text, sizeof(text), "softmma-mma-dump 1\ninstr mma.m16n8k16.f16.f16\ndevice x\n"
             "case 0\n");
    row[0] = '\0';
    for (j = 0; j < 256; j++)
        strcat(row, " 0");
    snprintf(text + strlen(text), sizeof(text) - strlen(text), "a%s\n", row);
    row[0] = '\0';
    for (j = 0; j < 128; j++)
        strcat(row, " 0");
    snprintf(text + strlen(text), sizeof(text) - strlen(text), "b%s\n", row);
    row[0] = '\0';
    for (j = 0; j < 128; j++)
        strcat(row, j == 5 ? " 10000" : " 0");
    snprintf(text + strlen(text), sizeof(text) - strlen(text), "c%s\n", row);
    refused(text, ":7: code 5 of row 'c' is not a 16-bit hex code", "a code too wide");
    return exit_status();
}
