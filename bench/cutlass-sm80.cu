/*
 * bench/cutlass-sm80.cu - CUTLASS's own Ampere GEMM (mma.sync.m16n8k16,
 * cp.async multistage) beside cuBLAS on the same device, as a second
 * mma.sync baseline for sm80-v2 (bench/sm80-kernels.md).
 *
 * It answers one question: how close to cuBLAS does a mature mma.sync GEMM
 * come on this device?  It times CUTLASS 2.x's device::Gemm for bf16 A
 * (row-major, K-major) and B (column-major, K-major), D bf16 row-major,
 * fp32 accumulation, over the threadblock shapes and stage counts that
 * CUTLASS's profiler instantiates for sm_80 bf16, and cublasGemmEx on the
 * same buffers in the same process: CUDA events, 5 warm-up runs, the
 * median of REPS runs.  Each CUTLASS result is compared with cuBLAS's
 * (both round to bf16 from different fp32 sums, so they differ by a few
 * ulp; a wrong kernel differs by far more), and with the first CUTLASS
 * configuration bit for bit (every configuration sums each element in one
 * fp32 chain in k order, so all must agree exactly).
 *
 * Not part of the build (it needs a CUTLASS checkout, which the project
 * does not carry).  Build and run (the record's command):
 *
 *   nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a \
 *        -I$CUTLASS/include -o cutlass-sm80 bench/cutlass-sm80.cu -lcublas
 *   ./cutlass-sm80 [reps [size [config]]]
 *
 * size 4096 or 8192 runs that shape alone (0: both); config N runs the
 * N-th configuration of the list in one_shape alone (for a profiler).
 *
 * Built with -DWITH_SOFTMMA, each shape also runs the softmma kernel named
 * by the environment variable SMMA_BENCH_KERNEL (default sm80-v2) through
 * smma_gpu_gemm on the same buffers, timed the same way, and compares its D
 * with the first CUTLASS configuration's bit for bit (sm80-v2 also sums
 * each element in one fp32 chain of m16n8k16 in k order).  Its index is the
 * one after the last CUTLASS configuration.  With BUILD a configured and
 * built tree, from the source directory:
 *
 *   nvcc -std=c++17 -O3 -DWITH_SOFTMMA -gencode=arch=compute_90a,code=sm_90a \
 *        -I$CUTLASS/include -Iref -Igpu -I$BUILD -o cutlass-sm80 \
 *        bench/cutlass-sm80.cu $BUILD/gpu/libsoftmma_gpu.a \
 *        $BUILD/.libs/libsoftmma.a -cudart static -lcublas -lm
 *
 * D is set to NaN before each configuration runs, so that elements a
 * kernel does not write show.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "cutlass/cutlass.h"
#include "cutlass/version.h"
#include "cutlass/gemm/device/gemm.h"


#define CK(x)                                                                   \
    do {                                                                        \
        cudaError_t e_ = (x);                                                   \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                 \
                    cudaGetErrorString(e_));                                    \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

using bf16 = cutlass::bfloat16_t;
using RowMajor = cutlass::layout::RowMajor;
using ColMajor = cutlass::layout::ColumnMajor;

template <int TM, int TN, int TK, int WM, int WN, int STAGES, int SWZ>
using AmpereGemm = cutlass::gemm::device::Gemm<
    bf16, RowMajor, bf16, ColMajor, bf16, RowMajor, float,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<TM, TN, TK>, cutlass::gemm::GemmShape<WM, WN, TK>,
    cutlass::gemm::GemmShape<16, 8, 16>,
    cutlass::epilogue::thread::LinearCombination<bf16, 8, float, float>,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<SWZ>, STAGES>;

struct Problem {
    int m, n, k;
    bf16 *a, *b, *d, *d0;
    __nv_bfloat16 *dref;
    double cublas_ms, best_ms; /* cuBLAS's time; the best CUTLASS configuration's so far */
};

static int reps = 20;
static int only_config = -1; /* argv[3]: run this configuration alone */

template <class F>
static double median_ms(F &&launch)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int i = 0; i < 5; i++)
        launch();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < reps; i++) {
        float ms;
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return t[t.size() / 2];
}

static float bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t) h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Compares D with cuBLAS's (largest difference in bf16 ulps of cuBLAS's
 * value) and with the first configuration's D (elements that differ). */
static void compare(const Problem &p, bool first)
{
    size_t n = (size_t) p.m * p.n;
    std::vector<uint16_t> d(n), r(n), d0(n);
    CK(cudaMemcpy(d.data(), p.d, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r.data(), p.dref, n * 2, cudaMemcpyDeviceToHost));
    if (first)
        CK(cudaMemcpy(p.d0, p.d, n * 2, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(d0.data(), p.d0, n * 2, cudaMemcpyDeviceToHost));
    long maxulp = 0, differ = 0;
    /* bf16 codes on one ordered line (-0 and +0 both at 0), so that the
     * difference counts ulps across zero too. */
    auto line = [](uint16_t h) { return h & 0x8000 ? -(long) (h & 0x7fff) : (long) h; };
    for (size_t i = 0; i < n; i++) {
        long u = line(d[i]) - line(r[i]);
        if (u < 0)
            u = -u;
        if (u > maxulp)
            maxulp = u;
        differ += d[i] != d0[i];
    }
    printf("   check: max %ld bf16 ulp from cuBLAS (d[0] %g vs %g), %ld elements differ from the first config\n",
           maxulp, bf16_to_float(d[0]), bf16_to_float(r[0]), differ);
}

template <int TM, int TN, int TK, int WM, int WN, int STAGES, int SWZ>
static void run_cutlass(Problem &p, double cublas_ms, bool first)
{
    using G = AmpereGemm<TM, TN, TK, WM, WN, STAGES, SWZ>;
    typename G::Arguments args({p.m, p.n, p.k}, {p.a, p.k}, {p.b, p.k}, {p.d, p.n}, {p.d, p.n},
                               {1.0f, 0.0f});
    G op;
    CK(cudaMemset(p.d, 0xff, (size_t) p.m * p.n * 2));
    size_t ws = G::get_workspace_size(args);
    void *w = nullptr;
    if (ws)
        CK(cudaMalloc(&w, ws));
    cutlass::Status st = op.can_implement(args);
    if (st == cutlass::Status::kSuccess)
        st = op.initialize(args, w);
    if (st != cutlass::Status::kSuccess) {
        printf("%5d x %5d x %5d  cutlass %3dx%3dx%2d warp %2dx%2d stages %d swizzle %d: %s\n", p.m,
               p.n, p.k, TM, TN, TK, WM, WN, STAGES, SWZ, cutlassGetStatusString(st));
        return;
    }
    double ms = median_ms([&] {
        cutlass::Status s = op();
        if (s != cutlass::Status::kSuccess) {
            fprintf(stderr, "cutlass launch: %s\n", cutlassGetStatusString(s));
            exit(1);
        }
    });
    CK(cudaGetLastError());
    double tf = 2.0 * p.m * p.n * p.k / ms / 1e9;
    if (p.best_ms <= 0 || ms < p.best_ms)
        p.best_ms = ms;
    printf("%5d x %5d x %5d  cutlass %3dx%3dx%2d warp %2dx%2d stages %d swizzle %d: %8.4f ms %7.1f TFLOP/s  %.3fx cuBLAS\n",
           p.m, p.n, p.k, TM, TN, TK, WM, WN, STAGES, SWZ, ms, tf, cublas_ms / ms);
    compare(p, first);
    if (w)
        CK(cudaFree(w));
}

#ifdef WITH_SOFTMMA
#include "cutlass-softmma.h"
#endif

__global__ void fill(bf16 *x, size_t n, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
         i += (size_t) gridDim.x * blockDim.x) {
        uint32_t h = (uint32_t) i * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        x[i] = bf16(((int) (h % 2001) - 1000) / 1000.0f);
    }
}

static void one_shape(cublasHandle_t h, int m, int n, int k)
{
    Problem p{m, n, k};
    CK(cudaMalloc(&p.a, (size_t) m * k * 2));
    CK(cudaMalloc(&p.b, (size_t) n * k * 2));
    CK(cudaMalloc(&p.d, (size_t) m * n * 2));
    CK(cudaMalloc(&p.d0, (size_t) m * n * 2));
    CK(cudaMalloc(&p.dref, (size_t) m * n * 2));
    fill<<<1024, 256>>>(p.a, (size_t) m * k, 1);
    fill<<<1024, 256>>>(p.b, (size_t) n * k, 2);
    CK(cudaDeviceSynchronize());

    float one = 1, zero = 0;
    /* Row-major D (m x n) = A (m x k, row-major) B (k x n, K-major): in
     * cuBLAS's column-major terms D^T = B^T A with B read transposed. */
    auto cublas = [&] {
        cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, p.b,
                                        CUDA_R_16BF, k, p.a, CUDA_R_16BF, k, &zero, p.dref,
                                        CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        if (s != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "cublasGemmEx: %d\n", (int) s);
            exit(1);
        }
    };
    double cb = median_ms(cublas);
    p.cublas_ms = cb;
    printf("%5d x %5d x %5d  cuBLAS (cublasGemmEx, bf16, fp32 compute): %8.4f ms %7.1f TFLOP/s\n", m,
           n, k, cb, 2.0 * m * n * k / cb / 1e9);

    using Run = void (*)(Problem &, double, bool);
    static const Run configs[] = {
        run_cutlass<128, 256, 64, 64, 64, 3, 8>, run_cutlass<128, 256, 64, 64, 64, 4, 8>,
        run_cutlass<256, 128, 64, 64, 64, 3, 8>, run_cutlass<256, 128, 64, 64, 64, 4, 8>,
        run_cutlass<128, 256, 32, 64, 64, 3, 8>, run_cutlass<128, 256, 32, 64, 64, 5, 8>,
        run_cutlass<256, 128, 32, 64, 64, 3, 8>, run_cutlass<128, 128, 64, 64, 64, 4, 8>,
        run_cutlass<128, 128, 32, 64, 64, 5, 8>, run_cutlass<128, 256, 64, 64, 64, 3, 1>,
        run_cutlass<128, 256, 64, 64, 64, 3, 4>,
    };
    bool first = true;
    for (int i = 0; i < (int) (sizeof(configs) / sizeof(configs[0])); i++)
        if (only_config < 0 || i == only_config) {
            configs[i](p, cb, first);
            first = false;
        }
#ifdef WITH_SOFTMMA
    if (only_config < 0 || only_config == (int) (sizeof(configs) / sizeof(configs[0])))
        run_softmma(p, first, "sm80-v2", false);
#endif
    double cb2 = median_ms(cublas);
    printf("%5d x %5d x %5d  cuBLAS again: %8.4f ms %7.1f TFLOP/s\n", m, n, k, cb2,
           2.0 * m * n * k / cb2 / 1e9);

    CK(cudaFree(p.a));
    CK(cudaFree(p.b));
    CK(cudaFree(p.d));
    CK(cudaFree(p.d0));
    CK(cudaFree(p.dref));
}

int main(int argc, char **argv)
{
    if (argc > 1)
        reps = atoi(argv[1]);
    if (reps < 10) {
        fprintf(stderr, "cutlass-sm80: reps must be at least 10\n");
        return 2;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int clk = 0, mclk = 0;
    CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    CK(cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0));
    printf("device: %s, compute capability %d.%d, %d SMs, max SM clock %d MHz, memory clock %d MHz; "
           "CUTLASS %d.%d.%d; median of %d runs after 5 warm-up runs\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, clk / 1000, mclk / 1000,
           CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH, reps);
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasCreate failed\n");
        return 1;
    }
    int only_size = argc > 2 ? atoi(argv[2]) : 0;
    if (argc > 3)
        only_config = atoi(argv[3]);
    if (only_size == 0 || only_size == 4096)
        one_shape(h, 4096, 4096, 4096);
    if (only_size == 0 || only_size == 8192)
        one_shape(h, 8192, 8192, 8192);
    cublasDestroy(h);
    return 0;
}
