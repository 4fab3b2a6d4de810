/*
 * tests/ptxas.h - assembling PTX text with the real ptxas, for tests that
 * check the simulator's emitted instructions, and compiling a CUDA source
 * with the real nvcc.
 *
 * ptxas is the one beside the nvcc that configure found: compile the test
 * with $(PTXAS_CPPFLAGS) (Makefile.am), which defines SMMA_NVCC.  Without
 * CUDA ptxas_available() is false and the tests skip those points.
 */
#ifndef SMMA_TESTS_PTXAS_H
#define SMMA_TESTS_PTXAS_H 1

#include <stdbool.h>

/* True when a ptxas can be run (found beside SMMA_NVCC and executable). */
bool ptxas_available(void);

/* The reason to give when it cannot: "no ptxas (configure found no CUDA)". */
#define PTXAS_SKIP "no ptxas (configure found no CUDA)"

/* Writes the module
 *
 *   .version VERSION
 *   .target TARGET            (e.g. "sm_90a", "sm_100a", "sm_80")
 *   .address_size 64
 *   .visible .entry smma_ptx_test()
 *   {
 *   BODY
 *       ret;
 *   }
 *
 * to a temporary file and assembles it with ptxas -arch=TARGET.  BODY holds
 * the register declarations and the instructions, each line ending in a
 * newline.  Returns ptxas's exit status (0 = assembled), or -1 when ptxas
 * could not be run.  When show is true, the first five lines ptxas printed
 * are shown as TAP diagnostics.  Bails out when a temporary file cannot be
 * made. */
int ptxas_module(const char *version, const char *target, const char *body, bool show);

/* True when the nvcc that configure found (SMMA_NVCC) can be run. */
bool nvcc_available(void);

/* Compiles the CUDA source src to a cubin for arch (e.g. "sm_120a") with
 * the extra nvcc arguments args, into a temporary file that is removed.
 * Returns nvcc's exit status, or -1 when there is no nvcc or it could not
 * be run; show as for ptxas_module. */
int nvcc_cubin(const char *arch, const char *args, const char *src, bool show);

#endif /* SMMA_TESTS_PTXAS_H */
