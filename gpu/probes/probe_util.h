/*
 * gpu/probes/probe_util.h - what the probe launchers share: message
 * formatting and the checking of CUDA calls.  CUDA C++ only (included by the
 * .cu files); everything is static, so each probe file has its own copy.
 */
#ifndef SOFTMMA_GPU_PROBE_UTIL_H
#define SOFTMMA_GPU_PROBE_UTIL_H 1

#include <cuda_runtime.h>

#include <stdarg.h>
#include <stdio.h>

#include "probes.h"

static inline int
set_msg(char *msg, size_t msg_len, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static inline int
set_msg(char *msg, size_t msg_len, int status, const char *fmt, ...)
{
    va_list ap;

    if (msg != NULL && msg_len > 0) {
        va_start(ap, fmt);
        vsnprintf(msg, msg_len, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* Reports a failing CUDA call and clears the runtime's last error (an error
 * that does not poison the context should not leak into the next call). */
static inline int
cuda_fail(char *msg, size_t msg_len, int status, const char *what, cudaError_t e)
{
    (void) cudaGetLastError();
    return set_msg(msg, msg_len, status, "%s: %s (%s)", what, cudaGetErrorString(e),
                   cudaGetErrorName(e));
}

/* Evaluates a CUDA call; on failure returns from the enclosing function with
 * SMMA_GPU_ECUDA and a message naming the call. */
#define CUDA_TRY(call)                                                        \
    do {                                                                      \
        cudaError_t e_ = (call);                                              \
        if (e_ != cudaSuccess)                                                \
            return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, #call, e_);        \
    } while (0)

/* Waits for the kernel just launched, then reads the flag (a __device__
 * unsigned int) that the kernel sets to __CUDA_ARCH__ when the code that ran
 * lacks the instruction.  Returns SMMA_GPU_OK; SMMA_GPU_ECUDA naming the
 * kernel when the launch or the wait failed; SMMA_GPU_EARCH naming the
 * target that ran and the one needed (need, e.g. "sm_89+"). */
template <typename T>
static int
finish_launch(const char *kernel, const T &missing_flag, const char *need, char *msg,
              size_t msg_len)
{
    unsigned int missing = 0;
    cudaError_t e;

    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, kernel, e);
    if ((e = cudaMemcpyFromSymbol(&missing, missing_flag, sizeof(missing))) != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpyFromSymbol", e);
    if (missing != 0)
        return set_msg(msg, msg_len, SMMA_GPU_EARCH,
                       "the code that ran (built for sm_%u) lacks this instruction; "
                       "configure --with-cuda-arch with an %s target", missing / 10, need);
    return SMMA_GPU_OK;
}

#endif /* SOFTMMA_GPU_PROBE_UTIL_H */
