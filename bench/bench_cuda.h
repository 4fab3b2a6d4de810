/*
 * bench/bench_cuda.h - what the GEMM benchmark (bench/gemm-bench.c) needs
 * from CUDA: event timing, cuBLASLt, and the register-only mma.sync loop
 * that measures the ceiling of any mma.sync kernel.  Implemented in
 * bench/bench_cuda.cu; plain C declarations.
 */
#ifndef BENCH_CUDA_H
#define BENCH_CUDA_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A callback that enqueues one run (on the default stream); returns 0. */
typedef int (*bench_fn)(void *ctx, int iter);

/* Runs fn `warmup` times, then `reps` times each between two CUDA events,
 * and stores the median and the minimum of the reps in milliseconds.
 * Returns 0, or -1 with a message. */
int bench_time(bench_fn fn, void *ctx, int warmup, int reps, double *median_ms,
               double *min_ms, char *msg, size_t len);

/* The SM clock and board power the driver (NVML) reported while the last
 * bench_time ran its timed reps, sampled about every millisecond; samples
 * is 0 where NVML could not be opened (then the other fields are 0). */
typedef struct bench_clocks {
    double mhz_mean, watts_mean;
    int mhz_min, mhz_max, samples;
} bench_clocks;

void bench_last_clocks(bench_clocks *out);

/* The sampling period in milliseconds that SMMA_BENCH_CLOCK_MS asks for:
 * 1 where it is unset or empty, 0 (no sampling) up to 60000; -1 with a
 * message naming the value for anything else. */
int bench_clock_period_ms(char *msg, size_t len);

/* A cuBLASLt bf16 (or fp16) GEMM with fp32 accumulation, in softmma's
 * orientation: A m x k row-major (lda), B K-major (element (kk, j) at
 * b[j * ldb + kk]) or N-major (b[kk * ldb + j]), D m x n row-major with
 * d_fp32 choosing fp32 or the input format.  bench_cublas_new picks the
 * algorithm (the heuristic's first choice) and returns NULL with a message
 * when cuBLASLt cannot. */
typedef struct bench_cublas bench_cublas;

bench_cublas *bench_cublas_new(bool fp16, size_t m, size_t n, size_t k, size_t lda, size_t ldb,
                               bool b_kmajor, bool d_fp32, char *msg, size_t len);
int bench_cublas_run(bench_cublas *c, const void *a, const void *b, void *d);
void bench_cublas_free(bench_cublas *c);

/* The rate of a register-only loop of independent mma.sync.m16n8k16 (bf16
 * in, fp32 accumulators, 8 chains per warp) over the whole device with
 * blocks_per_sm blocks of 8 warps per multiprocessor, in TFLOP/s (median of
 * reps). */
double bench_mma_ceiling(int reps, int blocks_per_sm);

/* The same with warps_per_sm warps per multiprocessor (4, 8, 16, ... 64)
 * and a warp tile of shape 0: 1 x 8 mma tiles (8 chains sharing A), 1: 4 x 8
 * (a 64 x 64 warp tile, 32 chains), 2: 2 x 8 (32 x 64, 16 chains). */
double bench_mma_ceiling_shape(int reps, int warps_per_sm, int shape);

/* The SM clock the driver reports now (kHz, via cudaDevAttrClockRate: the
 * maximum), and the device's name; 0 on failure. */
int bench_clock_khz(void);

/* Fills n bf16/fp16 values with random finite values of modest exponent
 * (seeded), on the device. */
int bench_fill_random16(void *p, size_t n, bool fp16, uint64_t seed);

/* Copies bytes device to device (to make rotating copies of an operand). */
int bench_copy(void *dst, const void *src, size_t bytes);

/* Fills bytes of device memory with random codes of element format fmt
 * (the smma_format number; finite codes with modest exponents, two e2m1 per
 * byte) or, for fmt 5 (e8m0) and 6 (ue4m3), with scale bytes near 1. */
int bench_fill_codes(void *p, size_t bytes, int fmt, uint64_t seed);

/* Up to BENCH_READ_BUFS device buffers (16-byte aligned; a byte count's
 * remainder past a multiple of 16 is not read; NULL with 0 bytes unused). */
#define BENCH_READ_BUFS 4
typedef struct bench_read_bufs {
    const void *p[BENCH_READ_BUFS];
    size_t bytes[BENCH_READ_BUFS];
} bench_read_bufs;

/* Launches one kernel that only reads the buffers, once each, on the
 * default stream: the time a kernel needs to read a problem's operands,
 * the ceiling of a memory-bound kernel at that size.  0 or -1. */
int bench_read(const bench_read_bufs *b);

/* The device-to-device copy bandwidth in GB/s (bytes read plus bytes
 * written), the median of reps copies of 1 GiB. */
double bench_copy_bandwidth(int reps);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_CUDA_H */
