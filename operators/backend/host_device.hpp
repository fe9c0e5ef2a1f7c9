#pragma once
// Marks the functions compiled for both backends from one source: by the host compiler for the CPU
// backend, and by nvcc as host and device code for the CUDA backend.
#ifdef __CUDACC__
#define MINIAPP_HOST_DEVICE __host__ __device__
#else
#define MINIAPP_HOST_DEVICE
#endif
