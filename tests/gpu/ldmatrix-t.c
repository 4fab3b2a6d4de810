/*
 * tests/gpu/ldmatrix-t.c - ldmatrix and stmatrix on the GPU against the
 * simulator.
 *
 * For each of the twelve variants (ldmatrix and stmatrix, .x1 .x2 .x4, with
 * and without .trans): seeded random 512-byte shared-memory windows and row
 * addresses are run by the probe (gpu/probes/ldmatrix_probe.cu) and by the
 * simulator (smma_ldmatrix_exec, smma_stmatrix_exec); every loaded register,
 * or every byte of the window after a store, must be equal.  ldmatrix
 * addresses are any of the 32 rows of the window, repeats allowed (a row
 * may feed several matrices); stmatrix addresses are distinct (the PTX ISA
 * does not say which of two stores to one row wins).
 *
 * Level 0: 1,000 cases per variant; level 1: 100,000; level 2: 1,000,000.
 * Skips without CUDA or a device; the stmatrix points skip before sm_90.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/ldmatrix.h>

#include "tap/basic.h"

#ifndef HAVE_CUDA

int
main(void)
{
    skip_all("CUDA not configured (configure found no working nvcc, or --without-cuda)");
}

#else

#include "probes/probes.h"

#define WIN SMMA_GPU_MATRIX_SMEM

static const unsigned nums[3] = { 1, 2, 4 };

/* Fills the window and the addresses of n cases. */
static void
make_cases(tap_rng *rng, bool distinct, size_t n, uint8_t *smem, uint32_t *addr,
           uint32_t *regs)
{
    size_t t, i;

    for (t = 0; t < n; t++) {
        uint32_t *a = addr + t * 32;

        for (i = 0; i < WIN; i++)
            smem[t * WIN + i] = (uint8_t) tap_rng_next(rng);
        for (i = 0; i < 32 * 4; i++)
            regs[t * 128 + i] = (uint32_t) tap_rng_next(rng);
        for (i = 0; i < 32; i++)
            a[i] = (uint32_t) i * 16;
        for (i = 31; i > 0; i--) {  /* a random order of the rows */
            size_t j = (size_t) (tap_rng_next(rng) % (i + 1));
            uint32_t x = a[i];

            a[i] = a[j];
            a[j] = x;
        }
        if (!distinct && t % 2 == 1)  /* half the loads reuse rows */
            for (i = 0; i < 32; i++)
                if (tap_rng_next(rng) % 4 == 0)
                    a[i] = (uint32_t) (tap_rng_next(rng) % 32) * 16;
    }
}

int
main(void)
{
    int level = test_level(), major = 0, minor = 0, rc;
    char name[128], msg[256];
    size_t n = level == 0 ? 1000 : level == 1 ? 100000 : 1000000;
    uint8_t *smem, *smem_gpu, window[WIN];
    uint32_t *addr, *regs, *regs_gpu, sim[32 * 4];
    unsigned k, ni, tr;
    tap_rng rng;

    rc = smma_gpu_device_info(&major, &minor, name, sizeof(name), msg, sizeof(msg));
    if (rc != 0)
        skip_all("no CUDA device: %s", msg);
    smem = malloc(n * WIN);
    smem_gpu = malloc(n * WIN);
    addr = malloc(n * 32 * sizeof(uint32_t));
    regs = malloc(n * 128 * sizeof(uint32_t));
    regs_gpu = malloc(n * 128 * sizeof(uint32_t));
    if (smem == NULL || smem_gpu == NULL || addr == NULL || regs == NULL || regs_gpu == NULL)
        sysbail("cannot allocate %zu cases", n);
    plan(12);
    diag("device 0: %s (sm_%d%d); %zu cases per variant", name, major, minor, n);
    for (k = 0; k < 2; k++)
        for (ni = 0; ni < 3; ni++)
            for (tr = 0; tr < 2; tr++) {
                smma_matrix_op op = { (smma_matrix_kind) k, nums[ni], tr != 0 };
                const char *what = k == 0 ? "ldmatrix" : "stmatrix";
                size_t t, bad = 0, first = (size_t) -1;
                double t0;

                tap_rng_seed(&rng, 0x6c646d78u + k * 100 + ni * 10 + tr);
                make_cases(&rng, k == 1, n, smem, addr, regs);
                t0 = tap_seconds();
                rc = smma_gpu_matrix((int) k, op.num, (int) tr, smem, addr, regs, regs_gpu,
                                     smem_gpu, n, msg, sizeof(msg));
                if (rc == SMMA_GPU_EARCH) {
                    skip("%s.x%u%s: %s", what, op.num, tr ? ".trans" : "", msg);
                    continue;
                }
                if (rc != 0)
                    bail("%s.x%u%s: %s", what, op.num, tr ? ".trans" : "", msg);
                diag("%s.x%u%s: GPU ran %zu cases in %.2f s", what, op.num, tr ? ".trans" : "",
                     n, tap_seconds() - t0);
                for (t = 0; t < n; t++) {
                    bool same = true;
                    unsigned l, j;

                    if (k == 0) {
                        if (smma_ldmatrix_exec(&op, addr + t * 32, smem + t * WIN, WIN, sim,
                                               NULL) != SMMA_OK)
                            bail("the simulator refused case %zu", t);
                        for (l = 0; l < 32; l++)
                            for (j = 0; j < 4; j++)
                                if ((j < op.num ? sim[l * op.num + j] : 0) !=
                                    regs_gpu[(t * 32 + l) * 4 + j])
                                    same = false;
                    } else {
                        uint32_t in[32 * 4];

                        for (l = 0; l < 32; l++)
                            for (j = 0; j < op.num; j++)
                                in[l * op.num + j] = regs[(t * 32 + l) * 4 + j];
                        memcpy(window, smem + t * WIN, WIN);
                        if (smma_stmatrix_exec(&op, addr + t * 32, in, window, WIN, NULL) !=
                            SMMA_OK)
                            bail("the simulator refused case %zu", t);
                        same = memcmp(window, smem_gpu + t * WIN, WIN) == 0;
                    }
                    if (!same && bad++ == 0)
                        first = t;
                }
                ok(bad == 0, "%s.x%u%s: the GPU equals the simulator on %zu random cases "
                   "(%zu differ)", what, op.num, tr ? ".trans" : "", n, bad);
                if (bad != 0)
                    diag("  the first differing case is %zu", first);
                diag("RESULT instr=%s.x%u%s cases=%zu mismatches=%zu", what, op.num,
                     tr ? ".trans" : "", n, bad);
            }
    free(smem);
    free(smem_gpu);
    free(addr);
    free(regs);
    free(regs_gpu);
    return exit_status();
}

#endif /* HAVE_CUDA */
