// STACK_HD marks a function that compiles for both the host and a CUDA
// device: __host__ __device__ under nvcc, nothing under a host compiler.
// The value equation (rules/value.h) and the portable slice work
// (gen/slice_work.h) carry it, so the GPU runs the very code the tests run
// in a CPU loop.
#pragma once

#if defined(__CUDACC__)
#define STACK_HD __host__ __device__
#else
#define STACK_HD
#endif
