/*
 * gpu/sm90/launch.cu - the host side of the sm_90a kernels: whether the
 * device and this build can run them (smma_sm90_ready), their tensor maps
 * (plan.h's geometry), and smma_sm90_gemm, the launcher behind
 * softmma/gpu.h.
 */
#include <cuda_runtime.h>
#include <pthread.h>
#include <string.h>

#include "dev.cuh"

/* 1 when the code the runtime loaded for this file was compiled for
 * sm_90a (the wgmma kernels exist in it), else the __CUDA_ARCH__ it was
 * compiled for. */
__global__ void
s90_ready_kernel(int *out)
{
#if defined(SMMA_SM90_WG)
    *out = 1;
#elif defined(__CUDA_ARCH__)
    *out = -__CUDA_ARCH__;
#else
    *out = 0;
#endif
}

int
smma_sm90_ready(char *msg, size_t len)
{
    static int known = 0, status = SMMA_GPU_STATUS_OK;
    static char why[256];
    int major = 0, minor = 0, host = 0, *dev = NULL, rc;
    cudaError_t e;

    if (known) {
        if (status != SMMA_GPU_STATUS_OK)
            set_msg(msg, len, status, "%s", why);
        return status;
    }
    if ((rc = pipe_device_cc(&major, &minor, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if (major != 9 || minor != 0) {
        status = set_msg(why, sizeof(why), SMMA_GPU_STATUS_EARCH, "the sm90 kernels need "
                         "compute capability 9.0 (wgmma, sm_90a), the device has %d.%d",
                         major, minor);
    } else if ((e = cudaMalloc((void **) &dev, sizeof(int))) != cudaSuccess
               || (s90_ready_kernel<<<1, 1>>>(dev), (e = cudaGetLastError()) != cudaSuccess)
               || (e = cudaMemcpy(&host, dev, sizeof(int), cudaMemcpyDeviceToHost))
               != cudaSuccess) {
        cudaFree(dev);
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "the sm90 readiness kernel", e);
    } else if (host != 1) {
        status = set_msg(why, sizeof(why), SMMA_GPU_STATUS_EARCH, "this build has no sm_90a "
                         "code for the sm90 kernels (the runtime loaded code for sm_%d); "
                         "configure --with-cuda-arch with sm_90a", -host / 10);
    }
    cudaFree(dev);
    known = 1;
    if (status != SMMA_GPU_STATUS_OK)
        set_msg(msg, len, status, "%s", why);
    return status;
}

int
s90_encode_maps(const smma_sm90_plan *p, const s90_bufs *b, s90_maps *out, char *msg,
                size_t len)
{
    static const char *const names[3] = { "A", "B", "D" };
    const void *ptr[3] = { b->a, b->b, b->d };
    unsigned w;
    int rc;

    for (w = 0; w < 3; w++) {
        uint64_t dims[2], strides[1];
        uint32_t box[2];
        /* sm90-bs's A and B, sm90-mixed's W, and sm90-promote32's converted
         * operands, are the bytes as stored, unswizzled. */
        bool raw = w != SMMA_SM90_MAP_D
                   && (p->version == 4 || (p->version == 5 && w == SMMA_SM90_MAP_A)
                       || (w == SMMA_SM90_MAP_A ? p->a_conv : p->b_conv));
        CUtensorMapDataType t = p->ebytes == 1 || raw ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                : p->fp16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                          : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;

        if (w == SMMA_SM90_MAP_D) {
            if (!p->epi_tma)
                break;
            t = p->d_kind == SMMA_PIPE_F32 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                : p->d_kind == SMMA_PIPE_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                              : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
        }
        smma_sm90_tma_geom(p, w, dims, strides, box);
        rc = pipe_encode_map(&out->m[w], t, 2, ptr[w], dims, strides, box,
                             raw ? CU_TENSOR_MAP_SWIZZLE_NONE : CU_TENSOR_MAP_SWIZZLE_128B,
                             names[w], msg, len);
        if (rc != SMMA_GPU_STATUS_OK)
            return rc;
    }
    return SMMA_GPU_STATUS_OK;
}

/* The launch configuration of a warp-specialized kernel's plan *p (the
 * cluster dimension in attr). */
static cudaLaunchConfig_t
ws_config(const smma_sm90_plan *p, cudaStream_t st, cudaLaunchAttribute *attr)
{
    cudaLaunchConfig_t cfg = {};

    cfg.gridDim = dim3(p->pipe.grid);
    cfg.blockDim = dim3(128 * (1 + p->wgs)); /* the producer and the consumer warpgroups */
    cfg.dynamicSmemBytes = p->smem_bytes;
    cfg.stream = st;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = p->pipe.cluster;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cfg;
}

/* The largest number of clusters of kernel k with plan *p's shared memory
 * and cluster size that can run at once on device 0 (0 when the runtime
 * cannot say: the caller keeps its grid). */
static unsigned
ws_max_clusters(const void *k, const smma_sm90_plan *p)
{
    /* The answers so far, per instance and shared memory (the query costs
     * more than a launch). */
    static struct {
        const void *k;
        uint32_t smem;
        unsigned n;
    } seen[64];
    static unsigned nseen;
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg = ws_config(p, 0, &attr);
    unsigned i;
    int n = 0;

    for (i = 0; i < nseen; i++)
        if (seen[i].k == k && seen[i].smem == p->smem_bytes)
            return seen[i].n;
    if (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int) p->smem_bytes) != cudaSuccess
        || cudaOccupancyMaxActiveClusters(&n, k, &cfg) != cudaSuccess) {
        (void) cudaGetLastError();
        return 0;
    }
    if (nseen < sizeof(seen) / sizeof(seen[0])) {
        seen[nseen].k = k;
        seen[nseen].smem = p->smem_bytes;
        seen[nseen++].n = n > 0 ? (unsigned) n : 0;
    }
    return n > 0 ? (unsigned) n : 0;
}

/* Starts the warp-specialized kernel k (v2, sm90-promote32, sm90-bs) with plan *p:
 * as many persistent clusters as can run at once. */
static int
ws_launch(const void *k, smma_sm90_plan *p, const s90_maps *maps, const s90_bufs *b,
          cudaStream_t st, char *msg, size_t len)
{
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg;
    void *args[3] = { (void *) p, (void *) maps, (void *) b };
    unsigned nq;
    cudaError_t e;

    /* Clusters that cannot all run at once would not be persistent. */
    if (p->pipe.cluster > 1 && (nq = ws_max_clusters(k, p)) != 0
        && nq * p->pipe.cluster < p->pipe.grid)
        p->pipe.grid = nq * p->pipe.cluster;
    cfg = ws_config(p, st, &attr);
    if ((e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int) p->smem_bytes)) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaFuncSetAttribute", e);
    if ((e = cudaLaunchKernelExC(&cfg, k, args)) != cudaSuccess
        || (e = cudaGetLastError()) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA,
                         p->version == 2 ? "sm90-v2 launch"
                         : p->version == 3 ? "sm90-promote32 launch"
                         : p->version == 4 ? "sm90-bs launch" : "sm90-mixed launch", e);
    return SMMA_GPU_STATUS_OK;
}

/* Runs plan *p over the buffers *b on stream st: its tensor maps, its
 * instance, the launch. */
static int
run_plan(smma_sm90_plan *p, const s90_bufs *b, cudaStream_t st, char *msg, size_t len)
{
    s90_maps maps;
    const void *kern;
    int rc;

    if ((rc = s90_encode_maps(p, b, &maps, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if (p->version == 1)
        return s90_launch_v1(p, &maps, b, st, msg, len);
    kern = p->version == 2 ? s90_v2_kernel(p) : p->version == 3 ? s90_p32_kernel(p)
           : p->version == 4 ? s90_bs_kernel(p) : s90_mixed_kernel(p);
    if (kern == NULL)
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: no instance for this problem",
                       p->version == 2 ? "sm90-v2" : p->version == 3 ? "sm90-promote32"
                       : p->version == 4 ? "sm90-bs" : "sm90-mixed");
    return ws_launch(kern, p, &maps, b, st, msg, len);
}

/* The memory pool of the conversion passes' copies on the current device:
 * its own, so that the copies' memory stays with the library between calls
 * (a release threshold of all of it) and no other pool's setting changes;
 * NULL where it cannot be made. */
static cudaMemPool_t
pre_pool(void)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static cudaMemPool_t pools[64];
    static bool tried[64];
    cudaMemPool_t out;
    int dev = 0;

    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) {
        (void) cudaGetLastError();
        return NULL;
    }
    pthread_mutex_lock(&mu);
    if (!tried[dev]) {
        cudaMemPoolProps pr;
        uint64_t keep = UINT64_MAX;

        memset(&pr, 0, sizeof(pr));
        pr.allocType = cudaMemAllocationTypePinned;
        pr.location.type = cudaMemLocationTypeDevice;
        pr.location.id = dev;
        tried[dev] = true;
        if (cudaMemPoolCreate(&pools[dev], &pr) != cudaSuccess
            || cudaMemPoolSetAttribute(pools[dev], cudaMemPoolAttrReleaseThreshold, &keep)
               != cudaSuccess) {
            (void) cudaGetLastError();
            pools[dev] = NULL;
        }
    }
    out = pools[dev];
    pthread_mutex_unlock(&mu);
    return out;
}

/*
 * Plan *p (sm90-bs, or sm90-promote32 with an e2m1, e2m3 or e3m2 operand)
 * as a conversion pass and a GEMM (plan.h, smma_sm90_pre_ld): the operands
 * to convert into a copy from the library's pool (stream-ordered on st), the
 * pass of each (gemm_bs.cu's s90_bs_pre: bf16 times the scales;
 * gemm_p32.cu's s90_p32_pre: e4m3 codes), then the problem over the copies
 * -- sm90-v2's bf16 GEMM without scales, or sm90-promote32 with e4m3
 * operands and the same scales -- and the copy given back.  C, D, alpha
 * and the leading dimensions of C and D are the caller's.  *ran is false
 * (and nothing has run) where the pool gave no memory: the caller runs *p
 * itself.
 */
static int
pre_gemm(const smma_gpu_gemm_args *a, const smma_sm90_plan *p, const smma_sm90_tune *t,
         unsigned sms, cudaStream_t st, bool *ran, char *msg, size_t len)
{
    const bool bs = p->version == 4;
    cudaMemPool_t pool = pre_pool();
    smma_gpu_gemm_args y;
    smma_gpu_kernel k;
    smma_sm90_plan q;
    size_t bytes[2];
    uint8_t *ws = NULL;
    int rc = SMMA_GPU_STATUS_OK;
    cudaError_t e;

    *ran = false;
    smma_sm90_pre_args(a, p, NULL, &y, &k, bytes);
    if (pool == NULL
        || cudaMallocFromPoolAsync((void **) &ws, bytes[0] + bytes[1], pool, st) != cudaSuccess) {
        (void) cudaGetLastError();
        return SMMA_GPU_STATUS_OK;
    }
    *ran = true;
    smma_sm90_pre_args(a, p, ws, &y, &k, bytes);
    for (unsigned w = 0; w < 2 && rc == SMMA_GPU_STATUS_OK; w++) {
        const uint32_t f = w ? p->b_fmt : p->a_fmt, s = sms == 0 ? 1u : sms;
        const uint64_t units = (uint64_t) (w ? p->n : p->m) * ((p->k + 15u) / 16u);
        const void *kern = bs ? s90_bs_pre_kernel(p, w == 1) : s90_p32_pre_kernel(f);
        s90_pre_op op;
        void *args[2] = { (void *) p, (void *) &op };
        /* Sixteen blocks of 256 a multiprocessor at most; the threads
         * stride over the rest. */
        uint64_t grid = (units + 255) / 256 < 16u * s ? (units + 255) / 256 : 16u * s;

        if (bytes[w] == 0)
            continue;
        op.src = (const uint8_t *) (w ? a->b : a->a);
        op.sf = (const uint8_t *) (w ? a->sb : a->sa);
        op.dst = (uint8_t *) (w ? y.b : y.a);
        op.src_ld = (w ? p->b_ld : p->a_ld) * smma_sm90_fmt_bits(f) / 8;
        op.dst_ld = bytes[w] / (w ? p->n : p->m);
        op.rows = w ? p->n : p->m;
        if (kern == NULL)
            rc = set_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: no conversion pass for %s",
                         bs ? "sm90-bs" : "sm90-promote32", smma_format_name((smma_format) f));
        else if ((e = cudaLaunchKernel(kern, dim3((unsigned) grid), dim3(256), args, 0, st))
                 != cudaSuccess)
            rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "the conversion pass", e);
    }
    if (rc == SMMA_GPU_STATUS_OK
        && (rc = smma_sm90_plan_init(&q, &y, k, sms, t, msg, len)) == SMMA_GPU_STATUS_OK) {
        s90_bufs b = { y.a, y.b, y.c, y.d, (const uint8_t *) y.sa, (const uint8_t *) y.sb };

        rc = run_plan(&q, &b, st, msg, len);
    }
    if ((e = cudaFreeAsync(ws, st)) != cudaSuccess && rc == SMMA_GPU_STATUS_OK)
        rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaFreeAsync (the conversion pass's "
                       "copy)", e);
    return rc;
}

/*
 * sm90-mixed, plan *p of *a: W (the plan's A, with its scales) and X (its B)
 * as the plan says; where X is block-scaled, first sm90-bs's pass
 * (gemm_bs.cu's s90_bs_pre: each element times its scale rounded once to
 * bf16) writes a bf16 copy of X's rows (b_ld elements a row) from the
 * passes' pool, stream-ordered on st, given back after the GEMM.
 */
static int
mixed_gemm(const smma_gpu_gemm_args *a, smma_sm90_plan *p, unsigned sms, cudaStream_t st,
           char *msg, size_t len)
{
    const bool xa = p->w_is_b != 0; /* X is the caller's A */
    const uint64_t xbytes = smma_sm90_mx_x_bytes(p);
    const uint64_t units = (uint64_t) p->n * ((p->k + 15u) / 16u);
    const uint32_t s = sms == 0 ? 1u : sms;
    /* Sixteen blocks of 256 a multiprocessor at most, as pre_gemm. */
    const uint64_t grid = (units + 255) / 256 < 16u * s ? (units + 255) / 256 : 16u * s;
    cudaMemPool_t pool;
    smma_sm90_plan q = *p;
    s90_pre_op op;
    void *args[2] = { (void *) &q, (void *) &op };
    const void *kern;
    uint8_t *ws = NULL;
    s90_bufs b;
    int rc;
    cudaError_t e;

    b.a = xa ? a->b : a->a;
    b.b = xa ? a->a : a->b;
    b.c = a->c;
    b.d = a->d;
    b.sa = (const uint8_t *) (xa ? a->sb : a->sa);
    b.sb = NULL;
    if (xbytes == 0)
        return run_plan(p, &b, st, msg, len);
    q.a_fmt = p->x_fmt; /* the pass's operand */
    if ((kern = s90_bs_pre_kernel(&q, false)) == NULL)
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "sm90-mixed: no conversion pass for "
                       "%s", smma_format_name((smma_format) p->x_fmt));
    if ((pool = pre_pool()) == NULL
        || cudaMallocFromPoolAsync((void **) &ws, xbytes, pool, st) != cudaSuccess) {
        (void) cudaGetLastError();
        return set_msg(msg, len, SMMA_GPU_STATUS_ECUDA, "sm90-mixed: no device memory for the "
                       "bf16 copy of X (%llu bytes)", (unsigned long long) xbytes);
    }
    op.src = (const uint8_t *) b.b;
    op.sf = (const uint8_t *) (xa ? a->sa : a->sb);
    op.dst = ws;
    op.src_ld = (xa ? a->lda : a->ldb) * smma_sm90_fmt_bits(p->x_fmt) / 8;
    op.dst_ld = (uint64_t) p->b_ld * 2;
    op.rows = p->n;
    if ((e = cudaLaunchKernel(kern, dim3((unsigned) grid), dim3(256), args, 0, st))
        != cudaSuccess) {
        rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "sm90-mixed's conversion pass", e);
    } else {
        b.b = ws;
        rc = run_plan(p, &b, st, msg, len);
    }
    if ((e = cudaFreeAsync(ws, st)) != cudaSuccess && rc == SMMA_GPU_STATUS_OK)
        rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaFreeAsync (sm90-mixed's copy of X)",
                       e);
    return rc;
}

int
smma_sm90_gemm(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len)
{
    cudaStream_t st = a == NULL ? NULL : (cudaStream_t) a->stream;
    smma_sm90_plan p;
    smma_sm90_tune t;
    s90_bufs b;
    int sms = 0, rc;
    cudaError_t e;

    if (a == NULL)
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "sm90: no problem given");
    if (a->a == NULL || a->b == NULL || a->d == NULL
        || (a->shape.c_fmt != SMMA_NONE && a->c == NULL))
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL,
                       "sm90: A, B, D (and C when c_fmt is set) must be given");
    if (k == SMMA_GPU_SM90_PROMOTE32 && (a->sa == NULL || a->sb == NULL))
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL,
                       "sm90-promote32: the scales sa and sb must be given");
    if ((k == SMMA_GPU_SM90_BS || k == SMMA_GPU_SM90_MIXED)
        && (a->sb == NULL || (a->shape.a_fmt != SMMA_BF16 && a->sa == NULL)))
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: the scales of a scaled operand "
                       "must be given", smma_gpu_kernel_name(k));
    if ((rc = smma_sm90_ready(msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0)) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ENODEV, "cudaDeviceGetAttribute", e);
    memset(&t, 0, sizeof(t));
    if (k != SMMA_GPU_SM90_V1 && (rc = smma_sm90_tune_env(&t, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if ((rc = smma_sm90_plan_init(&p, a, k, (unsigned) sms, k != SMMA_GPU_SM90_V1 ? &t : NULL,
                                  msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if (p.version == 5)
        return mixed_gemm(a, &p, (unsigned) sms, st, msg, len);
    if (smma_sm90_pre_wanted(&p, &t)) {
        bool ran = false;

        rc = pre_gemm(a, &p, &t, (unsigned) sms, st, &ran, msg, len);
        if (rc != SMMA_GPU_STATUS_OK || ran)
            return rc;
        if (t.pre == 2)
            return set_msg(msg, len, SMMA_GPU_STATUS_ECUDA, "%s: SMMA_SM90_PRE=1, but the "
                           "conversion pass's copy could not be allocated",
                           smma_gpu_kernel_name(k));
    }
    b.a = a->a;
    b.b = a->b;
    b.c = a->c;
    b.d = a->d;
    b.sa = (const uint8_t *) a->sa;
    b.sb = (const uint8_t *) a->sb;
    return run_plan(&p, &b, st, msg, len);
}
