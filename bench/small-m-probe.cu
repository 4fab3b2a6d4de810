/*
 * bench/small-m-probe.cu - what bounds sm80-bs-small at M <= 16 on sm_90:
 * the latency of a chain of dependent m16n8k16 mma, the latency of a
 * shared-memory load, and how fast a kernel with nothing else in it can
 * stream B (N rows of K / 2 bytes, e2m1 at K = 8192) into shared memory in
 * the shapes a block-scaled GEMV could use:
 *
 *   cp.async   T threads a CTA copy R rows of CB bytes a chunk into a ring of
 *              S stages (16-byte cp.async.cg, one commit group a chunk, a
 *              wait and a barrier a chunk), the CTA's shared memory padded
 *              to `smem` KB to set the CTAs an SM; version 6 is T 128, R 64,
 *              CB 256, S 4 (one CTA an SM), or T 256, R 128, S 3
 *   bulk       W warps a CTA, each with its own ring of S stages of its 16
 *              rows, filled by 1-D bulk copies (cp.async.bulk, one a row
 *              and chunk, issued by 16 lanes or by one) completing on one
 *              mbarrier a stage
 *   plain      a grid-stride loop of 16-byte loads over the same bytes
 *
 * Each figure is the median of 20 runs (after 5) between CUDA events, the
 * runs rotating through four copies of B so that none is read from L2.
 * Build and run (a Hopper GPU):
 *
 *   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
 *        -o small-m-probe bench/small-m-probe.cu && ./small-m-probe
 *
 * Its figures on an H200 are in bench/sm80-kernels.md (sm80-bs-small).
 */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                               \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "small-m-probe: %s: %s\n", #x, cudaGetErrorString(e_));            \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

static const size_t ROW_BYTES = 4096; /* K = 8192 e2m1 */
static const int COPIES = 4, WARMUP = 5, REPS = 20;

__device__ __forceinline__ void
mma_bf16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* CH independent accumulator chains a warp, 1024 steps: cycles per step. */
template <int CH>
__global__ void
mma_chain(long long *cycles, float *sink, uint32_t seed)
{
    const uint32_t a[4] = { seed, seed + 1, seed + 2, seed + 3 }, b[2] = { 3 * seed, 5 * seed };
    float d[CH][4] = {};
    const long long t0 = clock64();

    for (int i = 0; i < 1024; i++)
#pragma unroll
        for (int c = 0; c < CH; c++)
            mma_bf16(d[c], a, b);
    const long long t1 = clock64();
    float s = 0;

    for (int c = 0; c < CH; c++)
        s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = t1 - t0;
}

/* A chain of 1024 dependent 4-byte shared-memory loads. */
__global__ void
lds_chain(long long *cycles, uint32_t *sink)
{
    __shared__ uint32_t s[1024];

    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        s[i] = (4 * i + 4 * 33) % 4096;
    __syncthreads();
    uint32_t x = 4 * threadIdx.x;
    const uint32_t base = (uint32_t) __cvta_generic_to_shared(s);
    const long long t0 = clock64();

    for (int i = 0; i < 1024; i++)
        asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(x) : "r"(base + x));
    const long long t1 = clock64();

    sink[threadIdx.x] = x;
    if (threadIdx.x == 0)
        cycles[0] = t1 - t0;
}

/* Keeps a value live without storing it (random data never gives it). */
__device__ __forceinline__ void
keep(uint32_t acc, uint32_t *sink)
{
    if (acc == 0x5eed1e55u)
        *sink = acc;
}

__global__ void
stream_cp_async(const uint8_t *b, int rows_cta, int cb, int stages, int chunks, uint32_t *sink)
{
    extern __shared__ __align__(128) uint8_t sm[];
    const uint32_t s0 = (uint32_t) __cvta_generic_to_shared(sm);
    const int pieces = rows_cta * cb / 16;
    const uint8_t *base = b + (size_t) blockIdx.x * rows_cta * ROW_BYTES;
    uint32_t acc = 0;
    auto issue = [&](int c) {
        const uint32_t st = s0 + (c % stages) * rows_cta * cb;

        for (int i = threadIdx.x; i < pieces; i += blockDim.x) {
            const int row = i / (cb / 16), p = i % (cb / 16);

            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(st + 16 * i),
                         "l"(base + (size_t) row * ROW_BYTES + (size_t) c * cb + 16 * p));
        }
    };

    for (int c = 0; c < stages - 1; c++) {
        if (c < chunks)
            issue(c);
        asm volatile("cp.async.commit_group;\n");
    }
    for (int c = 0; c < chunks; c++) {
        if (stages == 4)
            asm volatile("cp.async.wait_group 2;\n");
        else if (stages == 3)
            asm volatile("cp.async.wait_group 1;\n");
        else
            asm volatile("cp.async.wait_group 0;\n");
        __syncthreads();
        if (c + stages - 1 < chunks)
            issue(c + stages - 1);
        asm volatile("cp.async.commit_group;\n");
        const uint8_t *st = sm + (c % stages) * rows_cta * cb;

        for (int i = threadIdx.x; i < pieces; i += 8 * blockDim.x)
            acc += *(const uint32_t *) (st + 16 * i);
    }
    keep(acc, sink);
}

__global__ void
stream_bulk(const uint8_t *b, int cb, int stages, int chunks, int issuers, uint32_t *sink)
{
    extern __shared__ __align__(128) uint8_t sm[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const uint32_t s0 = (uint32_t) __cvta_generic_to_shared(sm);
    const uint32_t bar = s0 + warp * stages * 8; /* one mbarrier a stage */
    const uint32_t ring = s0 + 1024 + warp * stages * 16 * cb;
    const uint8_t *base = b + ((size_t) blockIdx.x * (blockDim.x / 32) + warp) * 16 * ROW_BYTES;
    uint32_t acc = 0;

    if (lane == 0)
        for (int s = 0; s < stages; s++)
            asm volatile("mbarrier.init.shared.b64 [%0], 1;\n" ::"r"(bar + 8 * s));
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    __syncwarp();
    auto issue = [&](int c) {
        const uint32_t st = c % stages;

        if (lane == 0)
            asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;\n" ::"r"(bar + 8 * st),
                         "r"(16 * cb));
        __syncwarp();
        for (int r = issuers == 16 ? lane : 0; lane < issuers && r < 16; r += issuers)
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                         "[%0], [%1], %2, [%3];\n" ::"r"(ring + st * 16 * cb + r * cb),
                         "l"(base + (size_t) r * ROW_BYTES + (size_t) c * cb), "r"(cb),
                         "r"(bar + 8 * st)
                         : "memory");
    };

    for (int c = 0; c < stages && c < chunks; c++)
        issue(c);
    for (int c = 0; c < chunks; c++) {
        const uint32_t st = c % stages;

        asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n"
                     " @!p bra W;\n}\n" ::"r"(bar + 8 * st),
                     "r"((c / stages) & 1));
        for (int i = lane; i < cb; i += 128)
            acc += *(const uint32_t *) (sm + (ring - s0) + st * 16 * cb + 16 * i);
        /* the reads before the stage's next bulk copy (async proxy) */
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        __syncwarp();
        if (c + stages < chunks)
            issue(c + stages);
    }
    keep(acc, sink);
}

__global__ void
stream_plain(const uint4 *b, size_t n, uint32_t *sink)
{
    uint32_t acc = 0;

    for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t) gridDim.x * blockDim.x) {
        const uint4 v = __ldcs(b + i);

        acc ^= v.x ^ v.w;
    }
    keep(acc, sink);
}

/* The median of REPS timed launches (after WARMUP) of launch(copy). */
template <class F>
static float
median_ms(F launch)
{
    cudaEvent_t e0, e1;
    std::vector<float> t;

    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int r = 0; r < WARMUP + REPS; r++) {
        float ms = 0;

        cudaEventRecord(e0);
        launch(r % COPIES);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        if (r >= WARMUP)
            t.push_back(ms);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <int CH>
static int
chain(int warps, long long *cycles, float *sink)
{
    long long h = 0;

    mma_chain<CH><<<1, 32 * warps>>>(cycles, sink, 7);
    mma_chain<CH><<<1, 32 * warps>>>(cycles, sink, 7);
    CHECK(cudaMemcpy(&h, cycles, sizeof(h), cudaMemcpyDeviceToHost));
    printf("mma m16n8k16 bf16: %2d warps, %d chains a warp: %6.2f cycles a step, %5.2f a mma of "
           "a warp\n", warps, CH, h / 1024.0, h / 1024.0 / CH);
    return 0;
}

int
main()
{
    cudaDeviceProp prop;
    long long *cycles, h = 0;
    float *fsink;
    uint32_t *sink;

    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    CHECK(cudaMalloc(&cycles, 64 * sizeof(long long)));
    CHECK(cudaMalloc(&fsink, 16 * 32 * 64 * sizeof(float)));
    CHECK(cudaMalloc(&sink, 4096));
    if (chain<1>(1, cycles, fsink) || chain<2>(1, cycles, fsink) || chain<4>(1, cycles, fsink) ||
        chain<8>(1, cycles, fsink) || chain<4>(4, cycles, fsink) || chain<4>(16, cycles, fsink))
        return 1;
    lds_chain<<<1, 32>>>(cycles, sink);
    lds_chain<<<1, 32>>>(cycles, sink);
    CHECK(cudaMemcpy(&h, cycles, sizeof(h), cudaMemcpyDeviceToHost));
    printf("ld.shared dependent chain: %.2f cycles a load\n", h / 1024.0);
    CHECK(cudaFuncSetAttribute(stream_cp_async, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               227 * 1024));
    CHECK(cudaFuncSetAttribute(stream_bulk, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               227 * 1024));
    for (int rows : { 8192, 28672 }) {
        const size_t bytes = rows * ROW_BYTES;
        uint8_t *buf[COPIES];
        struct cp {
            int t, r, cb, s, kb;
        };
        struct bk {
            int w, cb, s, issuers, kb;
        };
        const cp cps[] = { { 128, 64, 256, 4, 150 }, { 256, 64, 256, 4, 150 },
                           { 256, 128, 256, 3, 219 }, { 512, 128, 256, 3, 219 },
                           { 128, 64, 256, 4, 64 },  { 128, 64, 512, 4, 150 },
                           { 256, 64, 512, 4, 150 },  { 256, 128, 512, 3, 192 },
                           { 128, 16, 1024, 4, 64 } };
        const bk bks[] = { { 4, 256, 4, 16, 150 }, { 4, 256, 4, 1, 150 }, { 8, 256, 3, 16, 150 },
                           { 4, 512, 4, 16, 150 }, { 4, 1024, 3, 16, 150 },
                           { 8, 512, 3, 16, 150 }, { 4, 256, 2, 16, 64 }, { 4, 512, 2, 16, 100 } };

        for (auto &p : buf) {
            CHECK(cudaMalloc(&p, bytes));
            CHECK(cudaMemset(p, 1, bytes));
        }
        for (const cp &c : cps) {
            const size_t smem = std::max((size_t) c.s * c.r * c.cb, (size_t) c.kb * 1024);
            const float ms = median_ms([&](int i) {
                stream_cp_async<<<rows / c.r, c.t, smem>>>(buf[i], c.r, c.cb, c.s,
                                                            ROW_BYTES / c.cb, sink);
            });

            printf("B %5d x 8192 e2m1 cp.async T %3d R %3d CB %4d S %d smem %3zu KB: %.4f ms "
                   "%5.0f GB/s\n", rows, c.t, c.r, c.cb, c.s, smem / 1024, ms, bytes / ms / 1e6);
        }
        for (const bk &c : bks) {
            const size_t smem =
                std::max((size_t) 1024 + c.w * c.s * 16 * c.cb, (size_t) c.kb * 1024);
            const float ms = median_ms([&](int i) {
                stream_bulk<<<rows / (16 * c.w), 32 * c.w, smem>>>(buf[i], c.cb, c.s,
                                                                  ROW_BYTES / c.cb, c.issuers,
                                                                  sink);
            });

            printf("B %5d x 8192 e2m1 bulk W %d CB %4d S %d issuers %2d smem %3zu KB: %.4f ms "
                   "%5.0f GB/s\n", rows, c.w, c.cb, c.s, c.issuers, smem / 1024, ms,
                   bytes / ms / 1e6);
        }
        const float ms = median_ms([&](int i) {
            stream_plain<<<8 * prop.multiProcessorCount, 256>>>((const uint4 *) buf[i],
                                                                 bytes / 16, sink);
        });

        printf("B %5d x 8192 e2m1 plain read: %.4f ms %5.0f GB/s\n", rows, ms, bytes / ms / 1e6);
        for (auto p : buf)
            cudaFree(p);
    }
    CHECK(cudaGetLastError());
    return 0;
}
