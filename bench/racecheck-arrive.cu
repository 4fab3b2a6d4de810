/*
 * bench/racecheck-arrive.cu - how compute-sanitizer racecheck reports the
 * producer/consumer handoff through named barriers that a first build of
 * sm80-bs-large's version 2 used (bar.arrive by the producers, bar.sync by
 * the consumers).
 *
 * Warps 0-3 (producers) write a ring of 3 shared-memory stages; warps 4-7
 * (consumers) read them.  full[s]: producers bar.arrive, consumers bar.sync;
 * empty[s]: consumers bar.arrive, producers bar.sync (from the fourth
 * stage on).  The handoff is correct by the PTX memory model (a barrier
 * orders the shared-memory accesses each participating thread made before
 * it), and the sums it prints show the data arrived.  On the H100
 * (bench/logs/h100-racecheck-arrive.log) racecheck reports one error, 124
 * hazards, between the consumers' reads and the producers' writes of the
 * ring, which the barriers order; this is why sm80-bs-large's version 2
 * hands its stages over with mbarriers, which racecheck follows
 * (bench/sm80-kernels.md).
 *
 *   nvcc -arch=sm_90a -o racecheck-arrive bench/racecheck-arrive.cu
 *   compute-sanitizer --tool racecheck ./racecheck-arrive
 */
#include <stdio.h>

#define STAGES 3
#define TILES 12

__device__ __forceinline__ void
bar_sync(unsigned id, unsigned n)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(n) : "memory");
}

__device__ __forceinline__ void
bar_arrive(unsigned id, unsigned n)
{
    asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(n) : "memory");
}

__global__ void
handoff(unsigned *out)
{
    __shared__ unsigned ring[STAGES][128];
    const unsigned t = threadIdx.x;
    unsigned sum = 0;

    for (unsigned k = 0; k < TILES; k++) {
        const unsigned s = k % STAGES;

        if (t < 128) { /* producers */
            if (k >= STAGES)
                bar_sync(1 + STAGES + s, 256); /* empty[s] */
            ring[s][t] = k * 1000 + t;
            bar_arrive(1 + s, 256); /* full[s] */
        } else { /* consumers */
            bar_sync(1 + s, 256);
            sum += ring[s][(t + 1) % 128];
            if (k + STAGES < TILES)
                bar_arrive(1 + STAGES + s, 256);
        }
    }
    if (t >= 128)
        out[t - 128] = sum;
}

int
main(void)
{
    unsigned *d, h[128];
    unsigned long long want = 0, got = 0;

    cudaMalloc(&d, sizeof(h));
    handoff<<<1, 256>>>(d);
    if (cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("CUDA error\n");
        return 1;
    }
    for (int t = 0; t < 128; t++) {
        got += h[t];
        for (unsigned k = 0; k < TILES; k++)
            want += k * 1000 + (t + 1) % 128;
    }
    printf("bar.arrive + bar.sync: sums %s (%llu, expected %llu)\n",
           got == want ? "equal" : "DIFFER", got, want);
    return got != want;
}
