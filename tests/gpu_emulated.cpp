// The GPU path (gen/gpu_rounds.cu) compiled by the host compiler against a
// CPU stand-in for the CUDA runtime (cuda_emulator/cuda_runtime.h, found
// first on this file's include path), for stackgen_emulated: the GPU
// path's host side runs in the tests where there is no GPU.
#include "gpu_rounds.cu"
