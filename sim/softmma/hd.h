/*
 * softmma/hd.h - SMMA_HD, the storage class of the address and descriptor
 * functions that both the C simulator and the CUDA kernels compile.
 *
 * In C (and in host-only C++) SMMA_HD is `static inline`.  Under nvcc it is
 * `static inline __host__ __device__`, so one definition serves the kernels
 * of gpu/ and the simulator of sim/: an address is computed in one place
 * (softmma/sm80.h for the mma.sync kernels).  Functions declared with it
 * use only integer arithmetic on fixed-width types and touch no memory
 * beyond their arguments.
 */
#ifndef SOFTMMA_HD_H
#define SOFTMMA_HD_H 1

#if defined(__CUDACC__)
#define SMMA_HD static inline __host__ __device__
#else
#define SMMA_HD static inline
#endif

#endif /* SOFTMMA_HD_H */
