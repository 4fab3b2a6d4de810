/*
 * bench/bench_cuda.cu - CUDA side of the GEMM benchmark (bench_cuda.h):
 * event timing, cuBLASLt, the mma.sync ceiling and random operands.
 */
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "bench_cuda.h"

/* The clock sampler: NVML, opened at run time (dlopen), so that the
 * benchmark builds and runs where the driver's libnvidia-ml is missing; a
 * thread reads the SM clock and the board power about every millisecond
 * (SMMA_BENCH_CLOCK_MS milliseconds; 0 turns the sampler off) while
 * bench_time runs its timed reps.  Only the few NVML entry points it needs
 * are declared here. */
namespace {

typedef struct nvml_dev *nvml_device;
enum { NVML_CLOCK_SM_ = 1 };

struct nvml_api {
    bool ok;
    nvml_device dev;
    int (*clock)(nvml_device, int, unsigned *);
    int (*power)(nvml_device, unsigned *);
};

nvml_api &
nvml(void)
{
    static nvml_api api;
    static bool tried;

    if (tried)
        return api;
    tried = true;
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL)
        return api;
    int (*init)(void) = (int (*)(void)) dlsym(h, "nvmlInit_v2");
    int (*by_bus)(const char *, nvml_device *) =
        (int (*)(const char *, nvml_device *)) dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2");
    api.clock = (int (*)(nvml_device, int, unsigned *)) dlsym(h, "nvmlDeviceGetClockInfo");
    api.power = (int (*)(nvml_device, unsigned *)) dlsym(h, "nvmlDeviceGetPowerUsage");
    char bus[32];
    int dev = 0;

    if (init == NULL || by_bus == NULL || api.clock == NULL || api.power == NULL ||
        init() != 0 || cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetPCIBusId(bus, sizeof(bus), dev) != cudaSuccess ||
        by_bus(bus, &api.dev) != 0)
        return api;
    api.ok = true;
    return api;
}

bench_clocks last_clocks;

struct sampler {
    std::atomic<bool> stop{ false };
    std::thread th;
    double mhz_sum = 0, w_sum = 0;
    unsigned mhz_min = ~0u, mhz_max = 0;
    int n = 0;

    void start(void)
    {
        int period = bench_clock_period_ms(NULL, 0);

        if (period <= 0 || !nvml().ok)
            return;
        th = std::thread([this, period] {
            nvml_api &a = nvml();

            while (!stop.load()) {
                unsigned mhz = 0, mw = 0;

                if (a.clock(a.dev, NVML_CLOCK_SM_, &mhz) == 0 && a.power(a.dev, &mw) == 0) {
                    mhz_sum += mhz;
                    w_sum += mw / 1000.0;
                    mhz_min = std::min(mhz_min, mhz);
                    mhz_max = std::max(mhz_max, mhz);
                    n++;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(period));
            }
        });
    }

    void finish(bench_clocks *out)
    {
        if (th.joinable()) {
            stop.store(true);
            th.join();
        }
        out->samples = n;
        out->mhz_mean = n ? mhz_sum / n : 0;
        out->mhz_min = n ? (int) mhz_min : 0;
        out->mhz_max = n ? (int) mhz_max : 0;
        out->watts_mean = n ? w_sum / n : 0;
    }
};

} /* namespace */

int
bench_clock_period_ms(char *msg, size_t len)
{
    const char *env = getenv("SMMA_BENCH_CLOCK_MS");
    char *end;
    long v;

    if (env == NULL || *env == '\0')
        return 1;
    v = strtol(env, &end, 10);
    if (*env < '0' || *env > '9' || *end != '\0' || v > 60000) {
        if (msg != NULL && len > 0)
            snprintf(msg, len, "SMMA_BENCH_CLOCK_MS=%s: not a number of milliseconds from 0 "
                     "(no sampling) to 60000", env);
        return -1;
    }
    return (int) v;
}

void
bench_last_clocks(bench_clocks *out)
{
    *out = last_clocks;
}

int
bench_time(bench_fn fn, void *ctx, int warmup, int reps, double *median_ms, double *min_ms,
           char *msg, size_t len)
{
    std::vector<double> t;
    cudaEvent_t e0, e1;
    cudaError_t e;
    int i;

    sampler smp;

    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (i = 0; i < warmup; i++)
        if (fn(ctx, i) != 0)
            return snprintf(msg, len, "a warm-up run failed"), -1;
    smp.start();
    for (i = 0; i < reps; i++) {
        float ms = 0;

        cudaEventRecord(e0);
        if (fn(ctx, warmup + i) != 0) {
            smp.finish(&last_clocks);
            return snprintf(msg, len, "a timed run failed"), -1;
        }
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms);
    }
    smp.finish(&last_clocks);
    if ((e = cudaDeviceSynchronize()) != cudaSuccess || (e = cudaGetLastError()) != cudaSuccess)
        return snprintf(msg, len, "%s", cudaGetErrorString(e)), -1;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    std::sort(t.begin(), t.end());
    *median_ms = t.size() % 2 ? t[t.size() / 2] : (t[t.size() / 2 - 1] + t[t.size() / 2]) / 2;
    *min_ms = t[0];
    return 0;
}

struct bench_cublas {
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, ld;
    cublasLtMatmulAlgo_t algo;
    void *ws;
    size_t ws_size;
};

bench_cublas *
bench_cublas_new(bool fp16, size_t m, size_t n, size_t k, size_t lda, size_t ldb,
                 bool b_kmajor, bool d_fp32, char *msg, size_t len)
{
    bench_cublas *c = (bench_cublas *) calloc(1, sizeof(*c));
    cudaDataType_t in = fp16 ? CUDA_R_16F : CUDA_R_16BF, out = d_fp32 ? CUDA_R_32F : in;
    cublasOperation_t ta = b_kmajor ? CUBLAS_OP_T : CUBLAS_OP_N, tb = CUBLAS_OP_N;
    cublasLtMatmulPreference_t pref;
    cublasLtMatmulHeuristicResult_t heur;
    int found = 0;

    /* Row-major D (m x n) is column-major D^T (n x m) = B^T A^T: cuBLAS's
     * first operand is B, its second A. */
    c->ws_size = 64u << 20;
    if (cublasLtCreate(&c->lt) != CUBLAS_STATUS_SUCCESS ||
        cudaMalloc(&c->ws, c->ws_size) != cudaSuccess ||
        cublasLtMatmulDescCreate(&c->op, CUBLAS_COMPUTE_32F, CUDA_R_32F) !=
            CUBLAS_STATUS_SUCCESS) {
        snprintf(msg, len, "cuBLASLt could not be set up");
        free(c);
        return NULL;
    }
    cublasLtMatmulDescSetAttribute(c->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
    cublasLtMatmulDescSetAttribute(c->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
    if (b_kmajor)
        cublasLtMatrixLayoutCreate(&c->la, in, k, n, ldb);
    else
        cublasLtMatrixLayoutCreate(&c->la, in, n, k, ldb);
    cublasLtMatrixLayoutCreate(&c->lb, in, k, m, lda);
    cublasLtMatrixLayoutCreate(&c->ld, out, n, m, n);
    cublasLtMatmulPreferenceCreate(&pref);
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                         &c->ws_size, sizeof(c->ws_size));
    if (cublasLtMatmulAlgoGetHeuristic(c->lt, c->op, c->la, c->lb, c->ld, c->ld, pref, 1, &heur,
                                       &found) != CUBLAS_STATUS_SUCCESS ||
        found == 0) {
        snprintf(msg, len, "cuBLASLt found no algorithm for %zux%zux%zu", m, n, k);
        cublasLtMatmulPreferenceDestroy(pref);
        bench_cublas_free(c);
        return NULL;
    }
    c->algo = heur.algo;
    cublasLtMatmulPreferenceDestroy(pref);
    return c;
}

int
bench_cublas_run(bench_cublas *c, const void *a, const void *b, void *d)
{
    const float alpha = 1.0f, beta = 0.0f;

    return cublasLtMatmul(c->lt, c->op, &alpha, b, c->la, a, c->lb, &beta, d, c->ld, d, c->ld,
                          &c->algo, c->ws, c->ws_size, 0) == CUBLAS_STATUS_SUCCESS
               ? 0
               : -1;
}

void
bench_cublas_free(bench_cublas *c)
{
    if (c == NULL)
        return;
    cublasLtMatrixLayoutDestroy(c->la);
    cublasLtMatrixLayoutDestroy(c->lb);
    cublasLtMatrixLayoutDestroy(c->ld);
    cublasLtMatmulDescDestroy(c->op);
    cublasLtDestroy(c->lt);
    cudaFree(c->ws);
    free(c);
}

/* ---- the mma.sync ceiling -------------------------------------------------- */

/* A warp's tile of MI x NJ independent m16n8k16 accumulators, updated over
 * and over from registers (no memory traffic in the loop): the rate the
 * tensor cores give mma.sync at most with that many chains per warp. */
template <int MI, int NJ>
__global__ void
ceiling_kernel(float *out, int iters, uint32_t seed)
{
    uint32_t a[MI][4], b[NJ][2];
    float acc[MI][NJ][4];

#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int r = 0; r < 4; r++)
            a[i][r] = (seed + threadIdx.x * 7u + i * 4 + r) & 0x3f803f80u;
#pragma unroll
    for (int j = 0; j < NJ; j++) {
        b[j][0] = (seed ^ (threadIdx.x + j)) & 0x3f803f80u;
        b[j][1] = b[j][0] ^ 0x00400040u;
    }
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int r = 0; r < 4; r++)
                acc[i][j][r] = 0.0f;
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int i = 0; i < MI; i++)
#pragma unroll
            for (int j = 0; j < NJ; j++)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                             "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                             : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]),
                               "+f"(acc[i][j][3])
                             : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]),
                               "r"(b[j][0]), "r"(b[j][1]));
    float sum = 0;
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int r = 0; r < 4; r++)
                sum += acc[i][j][r];
    if (sum == 12345.0f)
        out[threadIdx.x] = sum;
}

struct ceiling_ctx {
    float *out;
    int blocks, threads, iters, shape;
};

static int
ceiling_run(void *vctx, int iter)
{
    ceiling_ctx *c = (ceiling_ctx *) vctx;

    if (c->shape == 0)
        ceiling_kernel<1, 8><<<c->blocks, c->threads>>>(c->out, c->iters, (uint32_t) iter);
    else if (c->shape == 1)
        ceiling_kernel<4, 8><<<c->blocks, c->threads>>>(c->out, c->iters / 4,
                                                        (uint32_t) iter);
    else
        ceiling_kernel<2, 8><<<c->blocks, c->threads>>>(c->out, c->iters / 2,
                                                        (uint32_t) iter);
    return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

double
bench_mma_ceiling_shape(int reps, int warps_per_sm, int shape)
{
    int dev = 0, sms = 0, per_block = warps_per_sm % 8 == 0 ? 8 : 4;
    ceiling_ctx c;
    double med = 0, mn = 0;
    char msg[128];

    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    c.threads = 32 * per_block;
    c.blocks = sms * (warps_per_sm / per_block);
    c.iters = 4096;
    c.shape = shape;
    if (cudaMalloc(&c.out, 256 * sizeof(float)) != cudaSuccess)
        return 0;
    if (bench_time(ceiling_run, &c, 3, reps, &med, &mn, msg, sizeof(msg)) != 0) {
        cudaFree(c.out);
        return 0;
    }
    cudaFree(c.out);
    /* Every shape does iters x 8 mma of 4096 flops per warp. */
    return (double) c.blocks * c.threads / 32 * c.iters * 8 * 4096.0 / (med * 1e-3) / 1e12;
}

double
bench_mma_ceiling(int reps, int blocks_per_sm)
{
    return bench_mma_ceiling_shape(reps, 8 * blocks_per_sm, 0);
}

int
bench_clock_khz(void)
{
    int dev = 0, khz = 0;

    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
    return khz;
}

__global__ void
fill16_kernel(uint16_t *p, size_t n, bool fp16, uint64_t seed)
{
    for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t) gridDim.x * blockDim.x) {
        uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ seed;

        x ^= x >> 31;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 29;
        /* sign, exponent in [-4, 3], any mantissa */
        if (fp16)
            p[i] = (uint16_t) ((x & 0x8000u) | ((11u + (x >> 16) % 8) << 10) | (x >> 32 & 0x3ffu));
        else
            p[i] = (uint16_t) ((x & 0x8000u) | ((123u + (x >> 16) % 8) << 7) | (x >> 32 & 0x7fu));
    }
}

int
bench_fill_random16(void *p, size_t n, bool fp16, uint64_t seed)
{
    fill16_kernel<<<1024, 256>>>((uint16_t *) p, n, fp16, seed);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

int
bench_copy(void *dst, const void *src, size_t bytes)
{
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice) == cudaSuccess ? 0 : -1;
}

/* Reads up to four buffers once, 16 bytes a load and four loads in flight a
 * thread, keeping only an xor of the words (stored where it equals a value
 * random data almost never gives, so that no load is dropped). */
__global__ void
read_kernel(bench_read_bufs b, unsigned *sink)
{
    const size_t t = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
    const size_t step = (size_t) gridDim.x * blockDim.x;
    unsigned acc = 0;

    for (int j = 0; j < BENCH_READ_BUFS; j++) {
        const uint4 *p = (const uint4 *) b.p[j];
        const size_t n = b.bytes[j] / 16;
        size_t i = t;

        for (; i + 3 * step < n; i += 4 * step) {
            const uint4 v0 = __ldcs(p + i), v1 = __ldcs(p + i + step);
            const uint4 v2 = __ldcs(p + i + 2 * step), v3 = __ldcs(p + i + 3 * step);

            acc ^= v0.x ^ v0.w ^ v1.y ^ v1.z ^ v2.x ^ v2.w ^ v3.y ^ v3.z;
        }
        for (; i < n; i += step)
            acc ^= __ldcs(p + i).x;
    }
    if (acc == 0x5eed1e55u)
        *sink = acc;
}

int
bench_read(const bench_read_bufs *b)
{
    static unsigned *sink;
    static int blocks;

    if (sink == NULL) {
        int dev = 0, sms = 0;

        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            cudaMalloc(&sink, sizeof(unsigned)) != cudaSuccess)
            return -1;
        blocks = 8 * sms;
    }
    read_kernel<<<blocks, 256>>>(*b, sink);
    return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

__global__ void
fill_codes_kernel(uint8_t *p, size_t n, int fmt, uint64_t seed)
{
    for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t) gridDim.x * blockDim.x) {
        uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ seed;
        uint8_t b;

        x ^= x >> 31;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 29;
        b = (uint8_t) (x >> 24);
        switch (fmt) {
        case 3: b &= 0xf7; break;             /* e4m3: exponent <= 14, no NaN */
        case 4: b &= 0xbb; break;             /* e5m2: exponent <= 30, no Inf/NaN */
        case 1: case 2: b &= 0x3f; break;     /* e2m3, e3m2 */
        case 5: b = (uint8_t) (120 + b % 15); break; /* e8m0 2^-7 .. 2^7 */
        case 6: b = (uint8_t) (0x30 + b % 16); break; /* ue4m3 near 1 */
        default: break;                       /* e2m1: two codes, any */
        }
        p[i] = b;
    }
}

int
bench_fill_codes(void *p, size_t bytes, int fmt, uint64_t seed)
{
    fill_codes_kernel<<<1024, 256>>>((uint8_t *) p, bytes, fmt, seed);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

struct copy_ctx {
    void *a, *b;
    size_t bytes;
};

static int
copy_run(void *vctx, int iter)
{
    copy_ctx *c = (copy_ctx *) vctx;

    (void) iter;
    return cudaMemcpyAsync(c->b, c->a, c->bytes, cudaMemcpyDeviceToDevice) == cudaSuccess ? 0
                                                                                         : -1;
}

double
bench_copy_bandwidth(int reps)
{
    copy_ctx c;
    double med = 0, mn = 0;
    char msg[128];

    c.bytes = (size_t) 1 << 30;
    if (cudaMalloc(&c.a, c.bytes) != cudaSuccess || cudaMalloc(&c.b, c.bytes) != cudaSuccess)
        return 0;
    cudaMemset(c.a, 1, c.bytes);
    if (bench_time(copy_run, &c, 3, reps, &med, &mn, msg, sizeof(msg)) != 0)
        med = 0;
    cudaFree(c.a);
    cudaFree(c.b);
    return med > 0 ? 2.0 * c.bytes / (med * 1e-3) / 1e9 : 0;
}
