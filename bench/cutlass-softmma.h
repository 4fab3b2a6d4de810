/*
 * bench/cutlass-softmma.h - the softmma side of bench/cutlass-sm80.cu and
 * bench/cutlass-sm90.cu when built with -DWITH_SOFTMMA: the kernel named by
 * the environment variable SMMA_BENCH_KERNEL (default: the program's own,
 * sm80-v2 or sm90-v2) runs through smma_gpu_gemm on the program's buffers
 * (bf16 A m x k and B n x k, both K-major; D m x n, bf16 or fp32), is timed
 * by the program's median_ms, and its D is compared by the program's
 * compare() with the first CUTLASS configuration's.  Included by both after
 * those two are defined; P is the program's Problem (m, n, k, a, b, d,
 * cublas_ms, best_ms).
 */
#include <softmma/gpu.h>

template <class P>
static void run_softmma(P &p, bool first, const char *dflt, bool fp32)
{
    const char *name = getenv("SMMA_BENCH_KERNEL");
    if (name == nullptr || *name == '\0')
        name = dflt;
    smma_gpu_kernel kernel;
    smma_error err;
    if (smma_gpu_kernel_from_name(name, &kernel, &err) != 0) {
        printf("%5d x %5d x %5d  softmma %s: %s; skipped\n", p.m, p.n, p.k, name, err.msg);
        return;
    }
    smma_gpu_gemm_args x;
    memset(&x, 0, sizeof(x));
    x.shape.a_fmt = x.shape.b_fmt = SMMA_BF16;
    x.shape.scale_fmt = SMMA_NONE;
    x.shape.vec = 32;
    x.shape.c_fmt = SMMA_NONE;
    x.shape.d_fmt = fp32 ? SMMA_FP32 : SMMA_BF16;
    x.shape.m = p.m;
    x.shape.n = p.n;
    x.shape.k = p.k;
    x.shape.has_alpha = false; /* no alpha: 1, as CUTLASS's alpha 1, beta 0 */
    x.a = p.a;
    x.lda = p.k;
    x.a_kmajor = true;
    x.b = p.b;
    x.ldb = p.k;
    x.b_kmajor = true;
    x.d = p.d;
    x.ldd = p.n;
    x.kernel = kernel;

    char msg[256];
    CK(cudaMemset(p.d, 0xff, (size_t) p.m * p.n * (fp32 ? 4 : 2)));
    if (smma_gpu_gemm(&x, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK) {
        printf("%5d x %5d x %5d  softmma %s: %s; skipped\n", p.m, p.n, p.k, name, msg);
        return;
    }
    double ms = median_ms([&] {
        char m[256];
        if (smma_gpu_gemm(&x, m, sizeof(m)) != SMMA_GPU_STATUS_OK) {
            fprintf(stderr, "softmma %s: %s\n", name, m);
            exit(1);
        }
    });
    CK(cudaGetLastError());
    double tf = 2.0 * p.m * p.n * p.k / ms / 1e9;
    printf("%5d x %5d x %5d  softmma %s: %8.4f ms %7.1f TFLOP/s  %.3fx cuBLAS", p.m, p.n, p.k,
           name, ms, tf, p.cublas_ms / ms);
    if (p.best_ms > 0)
        printf("  %.2fx CUTLASS (best)", p.best_ms / ms);
    printf("\n");
    compare(p, first);
}
