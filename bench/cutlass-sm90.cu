/*
 * bench/cutlass-sm90.cu - CUTLASS's own Hopper GEMM (wgmma, TMA loads,
 * warp-specialized persistent kernels) beside cuBLAS on the same device,
 * as the wgmma baseline for softmma's sm_90 kernels.
 *
 * It answers one question: how close to cuBLAS does a mature wgmma GEMM
 * come on this device, and how close does softmma's kernel come to both?
 * It times kernels of CUTLASS's 3.x API built by the sm90 CollectiveBuilders
 * (gemm::kernel::GemmUniversal under device::GemmUniversalAdapter, the
 * default persistent tile scheduler, alpha 1, beta 0, no C operand) for
 * bf16 A (m x k, row-major, K-major) and B (stored n x k, K-major: column-
 * major k x n), D (m x n, row-major) bf16 or fp32, fp32 accumulation, and
 * cublasGemmEx on the same buffers in the same process, before and after
 * the CUTLASS kernels ("cuBLAS again": the drift of the device over the
 * run).  CUDA events, 5 warm-up runs, the median of REPS runs.
 *
 * The configurations (the index is the third argument):
 *   0  KernelTmaWarpSpecializedCooperative  tile 128x256x64  cluster 1x1x1
 *   1  KernelTmaWarpSpecializedCooperative  tile 128x256x64  cluster 2x1x1
 *   2  KernelTmaWarpSpecializedPingpong     tile  64x256x64  cluster 1x1x1
 *   3  KernelTmaWarpSpecializedPingpong     tile  64x256x64  cluster 2x1x1
 *   4  KernelTmaWarpSpecializedCooperative  tile 128x128x64  cluster 2x1x1
 *   5  KernelScheduleAuto, StageCountAuto   tile 128x256x64  cluster 2x1x1
 * with the epilogue schedule of the kernel schedule (TmaWarpSpecialized-
 * Cooperative, TmaWarpSpecialized; EpilogueScheduleAuto for the last, which
 * the builder turns into a cooperative kernel with a no-shared-memory
 * epilogue) and as many mainloop stages as the shared memory left by the
 * epilogue holds.  All of them build with CUTLASS 4.7.0.
 *
 * Each result is compared with cuBLAS's (both round to bf16 from different
 * fp32 sums, so they differ by a few ulp; a wrong kernel differs by far
 * more) and with the first configuration's bit for bit (every
 * configuration sums each element in one fp32 chain in k order, wgmma by
 * wgmma, so all must agree exactly).  D is set to NaN before each
 * configuration runs, so that elements a kernel does not write show.
 *
 * Built with -DWITH_SOFTMMA, each shape also runs the softmma kernel named
 * by the environment variable SMMA_BENCH_KERNEL (default sm90-v2) through
 * smma_gpu_gemm on the same buffers, timed the same way, and compares its D
 * with the first CUTLASS configuration's bit for bit.  Its index is the one
 * after the last CUTLASS configuration.
 *
 * Not part of the build (it needs a CUTLASS checkout, which the project
 * does not carry).  Build and run, from the source directory, with BUILD a
 * configured and built tree for the hook:
 *
 *   nvcc -std=c++17 -O3 --expt-relaxed-constexpr \
 *        -gencode=arch=compute_90a,code=sm_90a \
 *        -I$CUTLASS/include -I$CUTLASS/tools/util/include \
 *        -o cutlass-sm90 bench/cutlass-sm90.cu -lcublas
 *
 *   nvcc -std=c++17 -O3 --expt-relaxed-constexpr -DWITH_SOFTMMA \
 *        -gencode=arch=compute_90a,code=sm_90a \
 *        -I$CUTLASS/include -I$CUTLASS/tools/util/include \
 *        -Iref -Igpu -I$BUILD -o cutlass-sm90 bench/cutlass-sm90.cu \
 *        $BUILD/gpu/libsoftmma_gpu.a $BUILD/.libs/libsoftmma.a \
 *        -cudart static -lcublas -lm
 *
 *   ./cutlass-sm90 [--fp32] [reps [size [config]]]
 *
 * --fp32 makes D fp32 (cuBLAS's too); size 4096 or 8192 runs that shape
 * alone (0: both); config N runs the N-th configuration alone (for a
 * profiler).
 */
/* Without NDEBUG, CUTLASS's device-side asserts are calls inside the
 * mainloop, across which ptxas serializes the wgmma pipeline (warning
 * C7510); CUTLASS's own release builds define it too. */
#ifndef NDEBUG
#define NDEBUG 1
#endif
/* CUTLASS's sm100 tile scheduler header, which the sm90 kernels include,
 * draws warning 20012 from nvcc 13 (host and device on a defaulted
 * constructor). */
#pragma nv_diag_suppress 20012

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/version.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/kernel_hardware_info.h"
#include "cutlass/util/packed_stride.hpp"


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

/* The schedules: the kernel's, the epilogue's matching it, and whether the
 * mainloop's stage count is left to the builder alone (StageCountAuto) or
 * counts the epilogue's shared memory out first. */
struct Cooperative {
    using Kernel = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
    using Epilogue = cutlass::epilogue::TmaWarpSpecializedCooperative;
    static constexpr bool auto_stages = false;
    static constexpr const char *name = "cooperative";
};

struct Pingpong {
    using Kernel = cutlass::gemm::KernelTmaWarpSpecializedPingpong;
    using Epilogue = cutlass::epilogue::TmaWarpSpecialized;
    static constexpr bool auto_stages = false;
    static constexpr const char *name = "pingpong";
};

struct Auto {
    using Kernel = cutlass::gemm::collective::KernelScheduleAuto;
    using Epilogue = cutlass::epilogue::collective::EpilogueScheduleAuto;
    static constexpr bool auto_stages = true;
    static constexpr const char *name = "auto";
};

template <class D, class Sched, int TM, int TN, int TK, int CM>
struct Hopper {
    using Tile = cute::Shape<cute::Int<TM>, cute::Int<TN>, cute::Int<TK>>;
    using Cluster = cute::Shape<cute::Int<CM>, cute::_1, cute::_1>;
    static constexpr int align_d = 16 / (int) sizeof(D);
    /* C is void: beta is 0 and the epilogue reads no source. */
    using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Tile, Cluster,
        cutlass::epilogue::collective::EpilogueTileAuto, float, float, void, RowMajor, align_d,
        D, RowMajor, align_d, typename Sched::Epilogue>::CollectiveOp;
    using Stages = cute::conditional_t<
        Sched::auto_stages, cutlass::gemm::collective::StageCountAuto,
        cutlass::gemm::collective::StageCountAutoCarveout<
            (int) sizeof(typename Epilogue::SharedStorage)>>;
    using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, bf16, RowMajor, 8, bf16, ColMajor, 8,
        float, Tile, Cluster, Stages, typename Sched::Kernel>::CollectiveOp;
    using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, Mainloop,
                                                        Epilogue>;
    using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
};

struct Problem {
    int m, n, k;
    bool fp32;          /* D fp32, else bf16 */
    bf16 *a, *b;
    void *d, *d0, *dref;
    double cublas_ms;   /* the first cuBLAS timing of this shape */
    double best_ms;     /* the fastest CUTLASS configuration so far (0: none) */

    size_t d_bytes() const { return (size_t) m * n * (fp32 ? 4 : 2); }
};

static int reps = 20;
static int only_config = -1; /* argv: run this configuration alone */
static int sm_count;

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

/* D's n codes (bf16 or fp32) from device memory, one uint32_t each. */
static std::vector<uint32_t> codes(const void *d, size_t n, bool fp32)
{
    std::vector<uint32_t> c(n);
    if (fp32) {
        CK(cudaMemcpy(c.data(), d, n * 4, cudaMemcpyDeviceToHost));
    } else {
        std::vector<uint16_t> h(n);
        CK(cudaMemcpy(h.data(), d, n * 2, cudaMemcpyDeviceToHost));
        std::copy(h.begin(), h.end(), c.begin());
    }
    return c;
}

static float code_value(uint32_t c, bool fp32)
{
    uint32_t u = fp32 ? c : c << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Compares D with cuBLAS's (largest difference in ulps of D's format from
 * cuBLAS's value) and with the first configuration's D (elements that
 * differ).  first: this D becomes the first configuration's. */
static void compare(const Problem &p, bool first)
{
    size_t n = (size_t) p.m * p.n;
    if (first)
        CK(cudaMemcpy(p.d0, p.d, p.d_bytes(), cudaMemcpyDeviceToDevice));
    std::vector<uint32_t> d = codes(p.d, n, p.fp32), r = codes(p.dref, n, p.fp32),
                          d0 = codes(p.d0, n, p.fp32);
    uint32_t sign = p.fp32 ? 0x80000000u : 0x8000u;
    /* Codes on one ordered line (-0 and +0 both at 0), so that the
     * difference counts ulps across zero too. */
    auto line = [sign](uint32_t h) { return h & sign ? -(long) (h & ~sign) : (long) h; };
    long maxulp = 0, differ = 0;
    for (size_t i = 0; i < n; i++) {
        long u = line(d[i]) - line(r[i]);
        if (u < 0)
            u = -u;
        if (u > maxulp)
            maxulp = u;
        differ += d[i] != d0[i];
    }
    printf("   check: max %ld %s ulp from cuBLAS (d[0] %g vs %g), %ld elements differ from the "
           "first config\n",
           maxulp, p.fp32 ? "fp32" : "bf16", code_value(d[0], p.fp32), code_value(r[0], p.fp32),
           differ);
}

template <class D, class Sched, int TM, int TN, int TK, int CM>
static void run_cutlass(Problem &p, bool first)
{
    using H = Hopper<D, Sched, TM, TN, TK, CM>;
    using G = typename H::Gemm;
    using K = typename G::GemmKernel;
    const int stages = H::Mainloop::DispatchPolicy::Stages;

    auto sa = cutlass::make_cute_packed_stride(typename K::StrideA{}, {p.m, p.k, 1});
    auto sb = cutlass::make_cute_packed_stride(typename K::StrideB{}, {p.n, p.k, 1});
    auto sc = cutlass::make_cute_packed_stride(typename K::StrideC{}, {p.m, p.n, 1});
    auto sd = cutlass::make_cute_packed_stride(typename K::StrideD{}, {p.m, p.n, 1});
    cutlass::KernelHardwareInfo hw;
    hw.device_id = 0;
    hw.sm_count = sm_count;
    typename G::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                               {p.m, p.n, p.k, 1},
                               {p.a, sa, p.b, sb},
                               {{1.0f, 0.0f}, nullptr, sc, (D *) p.d, sd},
                               hw};
    char label[96];
    snprintf(label, sizeof(label), "cutlass %-11s tile %3dx%3dx%2d cluster %dx1x1 stages %d",
             Sched::name, TM, TN, TK, CM, stages);

    G op;
    size_t ws = G::get_workspace_size(args);
    void *w = nullptr;
    if (ws)
        CK(cudaMalloc(&w, ws));
    cutlass::Status st = op.can_implement(args);
    if (st == cutlass::Status::kSuccess)
        st = op.initialize(args, w);
    if (st != cutlass::Status::kSuccess) {
        printf("%5d x %5d x %5d  %s: %s\n", p.m, p.n, p.k, label, cutlassGetStatusString(st));
        if (w)
            CK(cudaFree(w));
        return;
    }
    CK(cudaMemset(p.d, 0xff, p.d_bytes()));
    double ms = median_ms([&] {
        cutlass::Status s = op.run();
        if (s != cutlass::Status::kSuccess) {
            fprintf(stderr, "cutlass launch: %s\n", cutlassGetStatusString(s));
            exit(1);
        }
    });
    CK(cudaGetLastError());
    double tf = 2.0 * p.m * p.n * p.k / ms / 1e9;
    printf("%5d x %5d x %5d  %s: %8.4f ms %7.1f TFLOP/s  %.3fx cuBLAS\n", p.m, p.n, p.k, label,
           ms, tf, p.cublas_ms / ms);
    if (p.best_ms == 0 || ms < p.best_ms)
        p.best_ms = ms;
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

template <class D>
static void one_shape(cublasHandle_t h, int m, int n, int k)
{
    Problem p{};
    p.m = m;
    p.n = n;
    p.k = k;
    p.fp32 = sizeof(D) == 4;
    CK(cudaMalloc(&p.a, (size_t) m * k * 2));
    CK(cudaMalloc(&p.b, (size_t) n * k * 2));
    CK(cudaMalloc(&p.d, p.d_bytes()));
    CK(cudaMalloc(&p.d0, p.d_bytes()));
    CK(cudaMalloc(&p.dref, p.d_bytes()));
    fill<<<1024, 256>>>(p.a, (size_t) m * k, 1);
    fill<<<1024, 256>>>(p.b, (size_t) n * k, 2);
    CK(cudaDeviceSynchronize());

    float one = 1, zero = 0;
    cudaDataType dtype = p.fp32 ? CUDA_R_32F : CUDA_R_16BF;
    /* Row-major D (m x n) = A (m x k, row-major) B (k x n, K-major): in
     * cuBLAS's column-major terms D^T = B^T A with B read transposed. */
    auto cublas = [&] {
        cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, p.b,
                                        CUDA_R_16BF, k, p.a, CUDA_R_16BF, k, &zero, p.dref,
                                        dtype, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        if (s != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "cublasGemmEx: %d\n", (int) s);
            exit(1);
        }
    };
    p.cublas_ms = median_ms(cublas);
    printf("%5d x %5d x %5d  cuBLAS (cublasGemmEx, bf16, fp32 compute): %8.4f ms %7.1f TFLOP/s\n",
           m, n, k, p.cublas_ms, 2.0 * m * n * k / p.cublas_ms / 1e9);

    using Run = void (*)(Problem &, bool);
    static const Run configs[] = {
        run_cutlass<D, Cooperative, 128, 256, 64, 1>, run_cutlass<D, Cooperative, 128, 256, 64, 2>,
        run_cutlass<D, Pingpong, 64, 256, 64, 1>,     run_cutlass<D, Pingpong, 64, 256, 64, 2>,
        run_cutlass<D, Cooperative, 128, 128, 64, 2>, run_cutlass<D, Auto, 128, 256, 64, 2>,
    };
    const int count = (int) (sizeof(configs) / sizeof(configs[0]));
    bool first = true;
    for (int i = 0; i < count; i++)
        if (only_config < 0 || i == only_config) {
            configs[i](p, first);
            first = false;
        }
#ifdef WITH_SOFTMMA
    if (only_config < 0 || only_config == count)
        run_softmma(p, first, "sm90-v2", p.fp32);
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
    bool fp32 = false;
    if (argc > 1 && strcmp(argv[1], "--fp32") == 0) {
        fp32 = true;
        argc--;
        argv++;
    }
    if (argc > 1)
        reps = atoi(argv[1]);
    if (reps < 10) {
        fprintf(stderr, "cutlass-sm90: reps must be at least 10\n");
        return 2;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int clk = 0, mclk = 0;
    CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    CK(cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0));
    sm_count = prop.multiProcessorCount;
    printf("device: %s, compute capability %d.%d, %d SMs, max SM clock %d MHz, "
           "memory clock %d MHz; CUTLASS %d.%d.%d; D %s; median of %d runs after 5 warm-up runs\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, clk / 1000, mclk / 1000,
           CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH, fp32 ? "fp32" : "bf16", reps);
    if (prop.major != 9 || prop.minor != 0) {
        fprintf(stderr, "cutlass-sm90: the kernels are built for sm_90a only\n");
        return 1;
    }
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasCreate failed\n");
        return 1;
    }
    int only_size = argc > 2 ? atoi(argv[2]) : 0;
    if (argc > 3)
        only_config = atoi(argv[3]);
    auto shape = fp32 ? one_shape<float> : one_shape<bf16>;
    if (only_size == 0 || only_size == 4096)
        shape(h, 4096, 4096, 4096);
    if (only_size == 0 || only_size == 8192)
        shape(h, 8192, 8192, 8192);
    cublasDestroy(h);
    return 0;
}
