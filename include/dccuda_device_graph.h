/*
 * dccuda_device_graph.h - device-side helpers for kernels that steer a graph's
 * conditional nodes (dc_graph_add_conditional_node in dccuda.h).
 *
 * Include it in a kernel's CUDA C++ source (NVRTC: pass this folder as an
 * include path, or the file as an in-memory header; nvcc: -I). It declares
 * nothing for the host.
 *
 *   #include "dccuda_device_graph.h"
 *   extern "C" __global__ void step(float* x, float limit, dc_graph_condition more) {
 *     x[0] *= 0.5f;
 *     dc_graph_set_condition(more, x[0] > limit);   // a WHILE node stops at 0
 *   }
 *
 * The condition handle is the 64-bit value dc_graph_add_conditional_node gave;
 * the kernel takes it as an unsigned long long (an 8-byte DC_ARG_VALUE). A
 * condition is set from one thread at a time: concurrent sets race (the
 * driver's rule). The call needs a CUDA 12.4 driver or newer at run time (the
 * driver provides the function when it loads the module).
 */
#ifndef DCCUDA_DEVICE_GRAPH_H
#define DCCUDA_DEVICE_GRAPH_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

/** A conditional node's condition handle (cuda.h's CUgraphConditionalHandle). */
typedef unsigned long long dc_graph_condition;

#if !defined(__CUDA_DEVICE_RUNTIME_API_H__)
/* The CUDA runtime's device-side call, resolved by the driver at module load. */
extern "C" __device__ void cudaGraphSetConditional(unsigned long long handle, unsigned int value);
#endif

/** Set the condition of the conditional node `condition` belongs to. */
static __device__ __forceinline__ void dc_graph_set_condition(dc_graph_condition condition, unsigned int value) {
  cudaGraphSetConditional(condition, value);
}

#endif /* __CUDACC__ || __CUDACC_RTC__ */

#endif /* DCCUDA_DEVICE_GRAPH_H */
