// A CPU stand-in for the CUDA runtime calls gen/gpu_rounds.cu makes, so the
// GPU path's host side (its device band and round slots, the early launch
// of the round below, the copies, counters and ghost rows, resuming) runs
// and is tested where there is no GPU: tests/gpu_emulated.cpp compiles
// gpu_rounds.cu against this header into stackgen_emulated. Device memory
// is host memory; every stream runs its work at once, in call order, so
// the emulator checks the bookkeeping, not the ordering between streams; a
// kernel launch runs every thread of the grid in turn. One device, whose
// free memory is $STACK_EMULATED_GPU_MEMORY bytes (default 16 GiB) and
// whose blocks may take $STACK_EMULATED_GPU_SHARED bytes of shared memory
// (default an H100's 227 KiB), 2 blocks on each of its 2 multiprocessors.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

#define __global__
#define __host__
#define __device__
#define __launch_bounds__(threads)

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};
inline thread_local dim3 blockIdx, blockDim, threadIdx, gridDim;

enum cudaError_t {
    cudaSuccess = 0,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidValue = 1,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100
};
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
enum cudaDeviceAttr {
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
constexpr unsigned cudaStreamNonBlocking = 1, cudaHostRegisterDefault = 0, cudaDeviceScheduleBlockingSync = 4;

struct CudaEmulatedEvent {
    std::chrono::steady_clock::time_point at;
};
using cudaStream_t = int*;
using cudaEvent_t = CudaEmulatedEvent*;

struct cudaDeviceProp {
    char name[256] = "CPU stand-in for a CUDA device";
    std::size_t totalGlobalMem = 0;
    int multiProcessorCount = 2;
    int maxThreadsPerMultiProcessor = 64;
};

inline std::size_t cuda_emulated_memory() {
    const char* text = std::getenv("STACK_EMULATED_GPU_MEMORY");
    return text ? std::size_t(std::strtoull(text, nullptr, 10)) : std::size_t(16) << 30;
}

inline const char* cudaGetErrorString(cudaError_t error) {
    return error == cudaSuccess ? "no error" : error == cudaErrorMemoryAllocation ? "out of memory" : "invalid value";
}
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaGetDeviceCount(int* count) {
    *count = 1;
    return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidValue; }
inline cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int) {
    *properties = cudaDeviceProp{};
    properties->totalGlobalMem = cuda_emulated_memory();
    return cudaSuccess;
}
inline std::size_t cuda_emulated_shared() {
    const char* text = std::getenv("STACK_EMULATED_GPU_SHARED");
    return text ? std::size_t(std::strtoull(text, nullptr, 10)) : std::size_t(232448);
}
inline cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int) {
    *value = attribute == cudaDevAttrMemoryClockRate                ? 1000000  // 16 GB/s "peak"
             : attribute == cudaDevAttrMaxSharedMemoryPerBlockOptin ? int(cuda_emulated_shared())
                                                                    : 64;
    return cudaSuccess;
}
template <class Kernel>
cudaError_t cudaFuncSetAttribute(Kernel, cudaFuncAttribute, int value) {
    return std::size_t(value) <= cuda_emulated_shared() ? cudaSuccess : cudaErrorInvalidValue;
}
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Kernel, int, std::size_t) {
    *blocks = 2;
    return cudaSuccess;
}
inline cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
    *free_bytes = *total_bytes = cuda_emulated_memory();
    return cudaSuccess;
}
inline cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
    *pointer = std::malloc(bytes);
    return *pointer ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaFree(void* pointer) {
    std::free(pointer);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind) {
    std::memcpy(to, from, bytes);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
    return cudaMemcpy(to, from, bytes, kind);
}
inline cudaError_t cudaMemsetAsync(void* to, int value, std::size_t bytes, cudaStream_t) {
    std::memset(to, value, bytes);
    return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned) {
    *stream = new int(0);
    return cudaSuccess;
}
inline cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    delete stream;
    return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) { return cudaSuccess; }
inline cudaError_t cudaEventCreate(cudaEvent_t* event) {
    *event = new CudaEmulatedEvent{std::chrono::steady_clock::now()};
    return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t event) {
    delete event;
    return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
    event->at = std::chrono::steady_clock::now();
    return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t begin, cudaEvent_t end) {
    *milliseconds = std::chrono::duration<float, std::milli>(end->at - begin->at).count();
    return cudaSuccess;
}
inline cudaError_t cudaHostRegister(void*, std::size_t, unsigned) { return cudaSuccess; }
inline cudaError_t cudaHostUnregister(void*) { return cudaSuccess; }

inline unsigned long long atomicAdd(unsigned long long* address, unsigned long long value) {
    const unsigned long long old = *address;
    *address += value;
    return old;
}
inline unsigned long long atomicMax(unsigned long long* address, unsigned long long value) {
    const unsigned long long old = *address;
    *address = old > value ? old : value;
    return old;
}
inline int atomicOr(int* address, int value) {
    const int old = *address;
    *address = old | value;
    return old;
}

// kernel<<<blocks, threads, 0, stream>>>(arguments...): every thread of
// the grid in turn, on the calling thread.
template <class Kernel, class... Arguments>
void cuda_emulated_launch(Kernel kernel, unsigned blocks, unsigned threads, Arguments... arguments) {
    blockDim.x = threads;
    gridDim.x = blocks;
    for (blockIdx.x = 0; blockIdx.x < blocks; ++blockIdx.x)
        for (threadIdx.x = 0; threadIdx.x < threads; ++threadIdx.x)
            kernel(arguments...);
}
