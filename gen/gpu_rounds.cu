// The GPU path (gpu_rounds.h), compiled by nvcc with fused multiply-adds
// off (--fmad=false) so that value_from_best() gives the host's bits.
#include "gpu_rounds.h"

#include "capacity.h"
#include "clears.h"
#include "support/cli.h"
#include "support/errors.h"
#include "table/digest.h"

#include <cuda_runtime.h>
#include <dlfcn.h>
#ifndef STACK_CUDA_EMULATOR
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#endif

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

// A kernel launch, written once so that the CPU stand-in for the CUDA
// runtime (tests/cuda_emulator) can run the same code without nvcc.
// A block kernel's launch (SliceBlockThreads threads a block, `shared`
// bytes of shared memory): the emulator runs each of its blocks once, and
// the kernel runs the block's threads itself, phase by phase.
#ifdef STACK_CUDA_EMULATOR
#define STACK_LAUNCH(kernel, blocks, threads, stream, ...) cuda_emulated_launch(kernel, blocks, threads, __VA_ARGS__)
#define STACK_BLOCK_LAUNCH(kernel, blocks, shared, stream, ...) cuda_emulated_launch(kernel, blocks, 1u, __VA_ARGS__)
#else
#define STACK_LAUNCH(kernel, blocks, threads, stream, ...) kernel<<<blocks, threads, 0, stream>>>(__VA_ARGS__)
#define STACK_BLOCK_LAUNCH(kernel, blocks, shared, stream, ...) \
    kernel<<<blocks, unsigned(SliceBlockThreads), shared, stream>>>(__VA_ARGS__)
#endif

namespace stack {

bool gpu_built() { return true; }

// The device's pieces (a named namespace: gpu_emulated.cpp includes this
// file, and an anonymous one would give GpuRounds::Impl members of
// internal types there).
namespace gpu_side {

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess)
        throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

// One device allocation, freed with its owner.
template <class T>
class DeviceArray {
public:
    DeviceArray() = default;
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    ~DeviceArray() { reset(); }
    void allocate(std::size_t count, std::uint64_t& allocated) {
        allocated -= count_ * sizeof(T);
        reset();
        if (count == 0)
            return;
        check(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)), "cudaMalloc");
        count_ = count;
        allocated += count * sizeof(T);
    }
    // Grow-only: allocates only when `count` is more than it holds, so a
    // slot reused round after round settles at its largest size and no
    // cudaFree (which waits for the whole device) runs between rounds.
    void reserve(std::size_t count, std::uint64_t& allocated) {
        if (count > count_)
            allocate(count, allocated);
    }
    void reset() {
        if (data_)
            cudaFree(data_);
        data_ = nullptr;
        count_ = 0;
    }
    void upload(const T* source, std::size_t count, cudaStream_t stream) {
        if (count > count_)
            throw std::logic_error("a device array is too small for its upload (a bug: please report it)");
        if (count)
            check(cudaMemcpyAsync(data_, source, count * sizeof(T), cudaMemcpyHostToDevice, stream),
                  "cudaMemcpyAsync to the device");
    }
    void upload(const std::vector<T>& source, cudaStream_t stream) { upload(source.data(), source.size(), stream); }
    T* data() const { return data_; }
    std::size_t size() const { return count_; }

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

// Each owned chunk's slice rows in round `sum` (Partition::slice_rows: 0
// for an empty slice), and a 0 past the last chunk, so that the exclusive
// scan of the chunks + 1 numbers is the round's slice starts, its last
// the round's rows; and whether the slice holds values (rows of a top
// whose rows hold none, in a mirrored layout, hold none), as the host's
// list_slices() takes them.
__global__ void slice_rows_kernel(RoundView view, std::uint64_t chunks, const std::uint64_t* lower_rows,
                                  int most_lower_sum, std::uint64_t* rows, unsigned char* holds_values) {
    const std::uint64_t chunk = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (chunk > chunks)
        return;
    const int lower_sum = chunk == chunks ? -1 : view.sum - int(view.upper_sums[chunk]);
    rows[chunk] = lower_sum >= 0 && lower_sum <= most_lower_sum ? lower_rows[lower_sum] : 0;
    if (chunk == chunks)
        return;
    holds_values[chunk] = rows[chunk] > 0 && view.tops.length[chunk_top(view, chunk_first_id(view, chunk))] > 0;
}

// What the round's kernel flag says, bit by bit: a ghost row not found (the
// exchange missed a placement), a slice larger than the block kernel's
// shared memory (left undone: writing it would overrun the block's).
constexpr int MissingGhost = 1, SliceOverflow = 2;

// The round's counters, [piece], added to by each block once at its end.
struct GlobalCounts {
    unsigned long long* counts;
    STACK_HD void operator()(int piece, unsigned long long count) const {
#if defined(__CUDA_ARCH__) || defined(STACK_CUDA_EMULATOR)
        atomicAdd(&counts[piece], count);
#endif
    }
};

// One block a slice (slice_work.h's block work), the blocks taking the
// round's slices in turn (`grid` of them): each phase of a slice is
// separated from the next by __syncthreads(), and the block's shared
// memory is laid out by `shape`. Under the CUDA emulator, which runs a
// grid's threads one after another, each block runs its phases with every
// thread in turn instead (the launch gives it one thread).
template <class Value>
__global__ void __launch_bounds__(SliceBlockThreads)
    block_kernel(RoundView view, SliceBlockShape shape, const std::uint64_t* slices, std::uint64_t count, unsigned grid,
                 unsigned long long* counts, int* missing) {
#ifdef STACK_CUDA_EMULATOR
    std::vector<double> shared(shape.bytes() / sizeof(double) + 1);
    if (!run_block_on_host<Value>(view, shape, reinterpret_cast<char*>(shared.data()), slices, count, blockIdx.x, grid,
                                  SliceBlockThreads, GlobalCounts{counts}))
        atomicOr(missing, MissingGhost);
#else
    extern __shared__ __align__(16) unsigned char shared[];
    SliceBlock<Value> block(view, shape, reinterpret_cast<char*>(shared));
    const int thread = int(threadIdx.x), threads = int(blockDim.x);
    block.begin(thread, threads);
    __syncthreads();
    for (std::uint64_t slice = blockIdx.x; slice < count; slice += grid)
        for (int phase = 0; phase < SliceBlockPhases; ++phase) {
            block.phase(phase, slices[slice], thread, threads);
            __syncthreads();
        }
    if (!block.end(thread, threads, GlobalCounts{counts}) && thread == 0)
        atomicOr(missing, MissingGhost);
    if (block.overflowed() && thread == 0)
        atomicOr(missing, SliceOverflow);
#endif
}

// One thread a slice (where a block's shared memory would not fit: many
// pieces, tall rows), slices dealt round-robin across the grid so that
// neighbouring threads take neighbouring slices (their successor slices
// neighbour too); each thread's scratch is interleaved with the others'
// (stride `threads`), so a warp's scratch accesses coalesce.
template <class Value>
__global__ void round_kernel(RoundView view, const std::uint64_t* slices, std::uint64_t count, double* scratch,
                             std::uint64_t threads, unsigned long long* counts, int* missing) {
    const std::uint64_t thread = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (thread >= threads)
        return;
    std::uint64_t local[MostPieces];
    for (int piece = 0; piece < view.pieces; ++piece)
        local[piece] = 0;
    bool complete = true;
    for (std::uint64_t slice = thread; slice < count; slice += threads)
        complete &= compute_slice<Value>(view, slices[slice], scratch + thread, std::size_t(threads), local);
    for (int piece = 0; piece < view.pieces; ++piece)
        if (local[piece])
            atomicAdd(&counts[piece], static_cast<unsigned long long>(local[piece]));
    if (!complete)
        atomicOr(missing, MissingGhost);
}

// A round held on the device.
struct DeviceRound {
    int sum = -1;
    int row_length = 0;
    DeviceArray<char> values;
    DeviceArray<std::uint64_t> slice_start;
    DeviceArray<std::uint64_t> top_rows, top_values;  // RoundStore's, H+2 each
    DeviceArray<int> top_length;                      // H+1
    RoundTops tops() const { return {top_rows.data(), top_values.data(), top_length.data()}; }
    // Where its tops start, from its host store (H+2 numbers each); its
    // slice starts are built on the device (Impl::lay_out).
    std::uint64_t upload_tops(const RoundStore& store, cudaStream_t stream) {
        top_rows.upload(store.top_rows, stream);
        top_values.upload(store.top_values, stream);
        top_length.upload(store.top_length, stream);
        return (store.top_rows.size() + store.top_values.size()) * sizeof(std::uint64_t)
               + store.top_length.size() * sizeof(int);
    }
};

// The ghost rows of one round on the device, in one of K + 2 slots that
// the rounds take in turn (round `sum` the slot sum mod K + 2: the rounds a
// kernel reads, sum + 1 .. sum + K, and the one just received never
// share one). The arrays only grow; the uploads and the kernels that read
// them run on one stream, so a slot is refilled only after the kernels
// queued before have read it.
struct DeviceGhosts {
    int sum = -1;  // the round held; -1: none
    DeviceArray<BoardId> ids;
    DeviceArray<char> values;
    DeviceArray<std::uint64_t> offsets, counts;
    GhostRows rows;  // pointing at the above
};

// A round's digest on the device (one rank without a file: a single
// rank's round store is in the file's order, one run, as RoundWriter's
// file_runs finds it). Thread t takes values [t n, (t + 1) n) at the
// file's precision and writes their CRC-64/XZ, byte at a time by `table`,
// to crcs[t]; the host folds them (crc64_of_pieces).
template <class Stored>
__global__ void digest_kernel(const Stored* values, std::uint64_t count, int file_size, std::uint64_t piece_values,
                              const std::uint64_t* table, std::uint64_t* crcs, std::uint64_t pieces) {
    const std::uint64_t piece = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (piece >= pieces)
        return;
    const std::uint64_t first = piece * piece_values;
    const std::uint64_t end = first + piece_values < count ? first + piece_values : count;
    std::uint64_t crc = ~std::uint64_t(0);
    for (std::uint64_t i = first; i < end; ++i) {
        unsigned char bytes[8];
        if (file_size == int(sizeof(double))) {
            const double value = double(values[i]);
            memcpy(bytes, &value, sizeof value);
        } else {
            const float value = float(values[i]);
            memcpy(bytes, &value, sizeof value);
        }
        for (int b = 0; b < file_size; ++b)
            crc = table[(crc ^ bytes[b]) & 255] ^ (crc >> 8);
    }
    crcs[piece] = ~crc;
}

// Bytes of a round's values a digest thread takes.
constexpr std::uint64_t DigestPieceBytes = std::uint64_t(1) << 20;

// The largest of a non-negative `value` over a warp into *most, as its
// float64 bits (non-negative doubles order as their bits do, so an
// integer maximum is the maximum): on the device a warp's largest goes
// out once.
__device__ void warp_max_out(double value, unsigned long long* most) {
#ifdef __CUDA_ARCH__
    for (int offset = 16; offset > 0; offset /= 2) {
        const double other = __shfl_down_sync(0xffffffffu, value, offset);
        value = other > value ? other : value;
    }
    if ((threadIdx.x & 31u) != 0)
        return;
#endif
    unsigned long long bits = 0;
    memcpy(&bits, &value, sizeof bits);
    if (bits != 0)
        atomicMax(most, bits);
}

// The well game's largest value of a round (its values are >= 0) into
// *most; each thread a grid-strided share.
__global__ void largest_kernel(const double* now, std::uint64_t count, unsigned long long* most) {
    const std::uint64_t threads = std::uint64_t(gridDim.x) * blockDim.x;
    double largest = 0;
    for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += threads)
        largest = now[i] > largest ? now[i] : largest;
    warp_max_out(largest, most);
}

// The well game's change at the targets (clears.h): over a round's runs
// of target values (target_runs: (first value, count) pairs), the largest
// now - last into most[0] and last - now into most[1]; each thread a
// grid-strided share of the runs.
__global__ void target_change_kernel(const double* now, const double* last, const std::uint64_t* runs,
                                     std::uint64_t run_count, unsigned long long* most) {
    const std::uint64_t threads = std::uint64_t(gridDim.x) * blockDim.x;
    double up = 0, down = 0;
    for (std::uint64_t run = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; run < run_count; run += threads) {
        const std::uint64_t first = runs[2 * run], count = runs[2 * run + 1];
        for (std::uint64_t i = first; i < first + count; ++i) {
            const double difference = now[i] - last[i];
            up = difference > up ? difference : up;
            down = -difference > down ? -difference : down;
        }
    }
    warp_max_out(up, most);
    warp_max_out(down, most + 1);
}

// What one launched round owns until it is waited for: its list of
// slices, its successors' views, its counters and its events. Two
// alternate, so a round can be launched while the one before is in flight.
struct Launch {
    int sum = -1;  // -1: free
    RoundStore* store = nullptr;
    std::uint64_t layout_bytes = 0;
    DeviceArray<std::uint64_t> slices;
    DeviceArray<SuccessorRound> next;
    DeviceArray<unsigned long long> counts;  // [piece] this round
    DeviceArray<int> missing;
    std::vector<unsigned long long> host_counts;
    int host_missing = 0;
    // The device's layout of the round, checked against the host's when it
    // is waited for: [0] the slices CUB selected, [1] the rows its scan
    // found (the last slice start); and the host's numbers.
    DeviceArray<std::uint64_t> layout_check;
    std::uint64_t host_slices = 0, host_rows = 0;
    DeviceArray<std::uint64_t> digest_crcs;  // [piece] (digest_on_device)
    std::vector<std::uint64_t> host_digest_crcs;
    std::uint64_t digest_pieces = 0;
    std::uint64_t copied_bytes = 0;  // the values copied back to the host
    cudaEvent_t begin = nullptr, kernel_end = nullptr, copy_end = nullptr;
};

}  // namespace gpu_side

using namespace gpu_side;

// Why there is no device, in words. On a machine with no NVIDIA driver at
// all the runtime answers "CUDA driver version is insufficient for CUDA
// runtime version", which reads as an old driver; so the driver's library
// is looked for first.
static std::string no_device(cudaError_t found) {
    if (found == cudaErrorInsufficientDriver || found == cudaErrorNoDevice) {
        void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (!driver)
            return "no NVIDIA driver is installed: libcuda.so.1 is not found";
        dlclose(driver);
    }
    return found == cudaSuccess ? "none found" : cudaGetErrorString(found);
}

// The sweeps' two tables (values at the table's round offsets, in a round
// store's order), each round's tops as its store had them (the same in
// every sweep), the largest change and the slice starts of the tetris
// round, laid out for each launch.
struct GpuSweeps::Impl {
    const Partition& partition;
    const RoundLayout& layout;
    int device = 0;
    std::uint64_t allocated = 0;
    std::array<DeviceArray<double>, 2> tables;
    int computed = 0;  // the table this sweep writes; the other is the last sweep's
    bool has_last = false;
    std::vector<DeviceRound> tops;  // [sum]: only the tops are allocated
    std::vector<bool> has_tops;
    DeviceArray<unsigned long long> change;        // the bits of the largest change up, down, and the largest value
    std::vector<DeviceArray<std::uint64_t>> runs;  // [sum]: target_runs of the round, laid out once
    std::vector<std::uint64_t> run_count;          // [sum]: pairs; ~0: not yet laid out
    DeviceArray<std::uint64_t> tetris_start;
    cudaStream_t stream = nullptr;  // uploads and downloads

    Impl(const Partition& partition_, const RoundLayout& layout_, int device_)
        : partition(partition_), layout(layout_), tops(std::size_t(partition_.rounds())),
          has_tops(std::size_t(partition_.rounds()), false), runs(std::size_t(partition_.rounds())),
          run_count(std::size_t(partition_.rounds()), ~std::uint64_t(0)) {
        int devices = 0;
        const cudaError_t found = cudaGetDeviceCount(&devices);
        if (found != cudaSuccess || devices == 0)
            throw InputError("--gpu: no CUDA device here (" + no_device(found) + "): run without --gpu");
        device = device_ % devices;
        check(cudaSetDevice(device), "cudaSetDevice");
        std::size_t free_bytes = 0, total_bytes = 0;
        check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
        const double needed = gpu_sweeps_bytes(partition, layout);
        if (needed + GpuMarginBytes > double(free_bytes))
            throw InputError("--gpu --clears tetris: the sweeps' two tables need " + human_bytes(needed)
                             + " of GPU memory and " + human_bytes(GpuMarginBytes) + " spare, but the device has "
                             + human_bytes(double(free_bytes))
                             + " free: run without --gpu, or with fewer residue classes or a smaller well");
        for (DeviceArray<double>& table : tables)
            table.allocate(layout.stored_states(), allocated);
        tetris_start.allocate(partition.owned_chunks() + 1, allocated);
        change.allocate(3, allocated);
        check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
        check(cudaMemsetAsync(change.data(), 0, 3 * sizeof(unsigned long long), stream), "cudaMemsetAsync");
        check(cudaStreamSynchronize(stream), "clearing the change");
    }
    ~Impl() {
        if (stream) {
            cudaStreamSynchronize(stream);
            cudaStreamDestroy(stream);
        }
    }
    double* round_of(int table, int sum) const { return tables[std::size_t(table)].data() + layout.round_offset(sum); }
    double* computed_round(int sum) const { return round_of(computed, sum); }
    double* last_round(int sum) const { return round_of(1 - computed, sum); }
    void check_size(const RoundStore& store) const {
        if (store.value_count() != layout.round_values(store.sum))
            throw std::logic_error("round " + std::to_string(store.sum) + " holds another number of values than "
                                   "the sweeps' tables (a bug: please report it)");
    }
    // The round's tops, kept the first time its store is seen.
    void keep_tops(const RoundStore& store, cudaStream_t on) {
        DeviceRound& held = tops[std::size_t(store.sum)];
        if (has_tops[std::size_t(store.sum)])
            return;
        held.top_rows.allocate(store.top_rows.size(), allocated);
        held.top_values.allocate(store.top_values.size(), allocated);
        held.top_length.allocate(store.top_length.size(), allocated);
        held.upload_tops(store, on);
        has_tops[std::size_t(store.sum)] = true;
    }
};

GpuSweeps::GpuSweeps(const Partition& partition, const RoundLayout& layout, int device)
    : impl_(std::make_unique<Impl>(partition, layout, device)) {}
GpuSweeps::~GpuSweeps() = default;

void GpuSweeps::next_sweep() {
    Impl& sweeps = *impl_;
    check(cudaSetDevice(sweeps.device), "cudaSetDevice");
    check(cudaDeviceSynchronize(), "finishing a sweep");
    sweeps.computed = 1 - sweeps.computed;
    sweeps.has_last = true;
    check(cudaMemsetAsync(sweeps.change.data(), 0, 3 * sizeof(unsigned long long), sweeps.stream), "cudaMemsetAsync");
    check(cudaStreamSynchronize(sweeps.stream), "clearing the change");
}

bool GpuSweeps::has_last() const { return impl_->has_last; }

void GpuSweeps::upload_last(const RoundStore& store) {
    Impl& sweeps = *impl_;
    check(cudaSetDevice(sweeps.device), "cudaSetDevice");
    sweeps.check_size(store);
    sweeps.keep_tops(store, sweeps.stream);
    check(cudaMemcpyAsync(sweeps.last_round(store.sum), store.values.data(), store.value_count() * sizeof(double),
                          cudaMemcpyHostToDevice, sweeps.stream),
          "uploading the last sweep");
    check(cudaStreamSynchronize(sweeps.stream), "uploading the last sweep");
    sweeps.has_last = true;
}

void GpuSweeps::download(RoundStore& store, bool last) const {
    Impl& sweeps = *impl_;
    check(cudaSetDevice(sweeps.device), "cudaSetDevice");
    check(cudaDeviceSynchronize(), "finishing a sweep");
    sweeps.check_size(store);
    check(cudaMemcpy(store.values.data(), last ? sweeps.last_round(store.sum) : sweeps.computed_round(store.sum),
                     store.value_count() * sizeof(double), cudaMemcpyDeviceToHost),
          "copying a sweep's round to the host");
}

namespace {

// change[0..2] from the device, as doubles.
std::array<double, 3> read_change(GpuSweeps::Impl& sweeps) {
    check(cudaSetDevice(sweeps.device), "cudaSetDevice");
    check(cudaDeviceSynchronize(), "finishing a sweep");
    unsigned long long bits[3] = {};
    check(cudaMemcpy(bits, sweeps.change.data(), sizeof bits, cudaMemcpyDeviceToHost), "reading the change back");
    std::array<double, 3> values{};
    std::memcpy(values.data(), bits, sizeof bits);
    return values;
}

}  // namespace

TargetChange GpuSweeps::change() const {
    const std::array<double, 3> values = read_change(*impl_);
    return {values[0], values[1]};
}

double GpuSweeps::largest() const { return read_change(*impl_)[2]; }

std::uint64_t GpuSweeps::allocated() const { return impl_->allocated; }

struct GpuRounds::Impl {
    const Partition& partition;
    const RoundLayout& layout;
    const SliceTables& tables;
    int value_size;
    int pieces;
    int most_cells;
    cudaStream_t compute = nullptr, copy = nullptr;
    std::uint64_t allocated = 0;
    std::vector<DeviceRound> rounds;   // K+1 slots
    std::vector<int> slot_of;          // [sum] -> slot, -1 when not held
    std::vector<DeviceGhosts> ghosts;  // K + 2 slots: [sum mod K + 2]
    DeviceGhosts& ghost_slot(int sum) { return ghosts[std::size_t(sum) % ghosts.size()]; }
    const DeviceGhosts& ghost_slot(int sum) const { return ghosts[std::size_t(sum) % ghosts.size()]; }
    std::array<Launch, 2> launches;
    DeviceArray<PortableOrientation> orientations;
    DeviceArray<PortableRule> rules;
    DeviceArray<std::uint32_t> weights, upper_sums;
    DeviceArray<std::uint64_t> lower_rows;      // [lower sum] -> a slice's rows
    DeviceArray<std::uint64_t> chunk_rows;      // [owned chunk] -> its slice's rows in the round laid out, and a 0
    DeviceArray<unsigned char> chunk_holds;     // [owned chunk] -> its slice holds values in that round
    DeviceArray<std::uint64_t> selected;        // the non-empty slices found (DeviceSelect's count)
    DeviceArray<unsigned char> layout_scratch;  // CUB's temporary storage for the scan and the selection
    DeviceArray<int> in_row, row_indices, partners;
    DeviceArray<double> scratch;  // the thread-a-slice kernel's
    SliceBlockShape shape;        // the block kernel's shared memory
    bool block_work = false;      // the block kernel (else one thread a slice)
    std::uint64_t threads = 1;    // the thread-a-slice kernel's threads
    int block = 1;                // their block
    unsigned grid = 1;            // the block kernel's blocks
    std::vector<std::uint64_t> total_counts;
    std::vector<void*> pinned;  // host arrays registered with CUDA
    int digest_size = 0;        // digest_on_device: the file's value size; 0: off
    DeviceArray<std::uint64_t> crc_table;
    GpuSweeps::Impl* sweeps = nullptr;  // use_sweeps
    int tetris_piece = -1;
    GpuReport report;

    Impl(const Partition& partition_, const RoundLayout& layout_, const Rules& rules_, const SliceTables& tables_,
         int value_size_, int device)
        : partition(partition_), layout(layout_), tables(tables_), value_size(value_size_),
          pieces(rules_.piece_count()), most_cells(rules_.most_cells()), rounds(std::size_t(Band::most_rounds(rules_))),
          slot_of(std::size_t(partition_.rounds()), -1), ghosts(std::size_t(rules_.most_cells() + 2)),
          total_counts(std::size_t(rules_.piece_count()), 0) {
        int devices = 0;
        const cudaError_t found = cudaGetDeviceCount(&devices);
        if (found != cudaSuccess || devices == 0)
            throw InputError("--gpu: no CUDA device here (" + no_device(found) + "): run without --gpu");
        report.device_index = device % devices;
        check(cudaSetDevice(report.device_index), "cudaSetDevice");
        // Waiting threads sleep instead of spinning on a core the writer
        // and the exchange need. Only a preference: a refusal (a context
        // already active with other flags) is cleared and ignored.
        cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
        cudaGetLastError();
        cudaDeviceProp properties{};
        check(cudaGetDeviceProperties(&properties, report.device_index), "cudaGetDeviceProperties");
        int clock_khz = 0, bus_bits = 0;
        cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, report.device_index);
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, report.device_index);
        report.device = properties.name;
        report.device_memory = properties.totalGlobalMem;
        report.peak_bytes_per_second = 2.0 * double(clock_khz) * 1e3 * double(bus_bits) / 8.0;

        // The whole plan up front, the ghost rows' allowance and a margin
        // for the kernels' stacks and the runtime included, against what
        // the device has free.
        const RankMemory host = rank_memory(partition, layout, rules_,
                                            value_size == int(sizeof(float)) ? Precision::Float32 : Precision::Float64);
        int shared_most = 0;  // a block's shared memory here: the block kernel's or the scratch's
        cudaDeviceGetAttribute(&shared_most, cudaDevAttrMaxSharedMemoryPerBlockOptin, report.device_index);
        const GpuMemory plan =
            gpu_memory(partition, layout, rules_, value_size, host.ghosts, std::size_t(std::max(shared_most, 0)));
        std::size_t free_bytes = 0, total_bytes = 0;
        check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
        if (plan.total() + GpuMarginBytes > double(free_bytes))
            throw InputError("--gpu: the run needs " + human_bytes(plan.total()) + " of GPU memory (band "
                             + human_bytes(plan.band) + ") and " + human_bytes(GpuMarginBytes) + " spare, but "
                             + report.device + " (device " + std::to_string(report.device_index) + ") has "
                             + human_bytes(double(free_bytes)) + " free: use "
                             + std::string(value_size == int(sizeof(double)) ? "--band-precision float32, " : "")
                             + "more ranks (GPUs), fewer residue classes, or a smaller well");

        check(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking), "cudaStreamCreate");
        check(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking), "cudaStreamCreate");
        const std::uint64_t largest = Band::largest_round_values(partition, layout);
        for (DeviceRound& round : rounds) {
            round.values.allocate(largest * std::uint64_t(value_size), allocated);
            round.slice_start.allocate(partition.owned_chunks() + 1, allocated);
            round.top_rows.allocate(std::size_t(partition.geometry().height()) + 2, allocated);
            round.top_values.allocate(std::size_t(partition.geometry().height()) + 2, allocated);
            round.top_length.allocate(std::size_t(partition.geometry().height()) + 1, allocated);
        }
        orientations.allocate(tables.orientations().size(), allocated);
        orientations.upload(tables.orientations(), compute);
        rules.allocate(tables.rules().size(), allocated);
        rules.upload(tables.rules(), compute);
        weights.allocate(tables.weights().size(), allocated);
        weights.upload(tables.weights(), compute);
        in_row.allocate(tables.in_row().size(), allocated);
        in_row.upload(tables.in_row(), compute);
        partners.allocate(tables.partners().size(), allocated);
        partners.upload(tables.partners(), compute);
        row_indices.allocate(tables.row_indices().size(), allocated);
        row_indices.upload(tables.row_indices(), compute);
        upper_sums.allocate(partition.owned_chunks(), allocated);
        upper_sums.upload(partition.upper_sums(), partition.owned_chunks(), compute);
        std::vector<std::uint64_t> rows_of_sum(std::size_t(partition.most_lower_sum()) + 1);
        for (int lower_sum = 0; lower_sum <= partition.most_lower_sum(); ++lower_sum)
            rows_of_sum[std::size_t(lower_sum)] = partition.rows_of_lower_sum(lower_sum);
        lower_rows.allocate(rows_of_sum.size(), allocated);
        lower_rows.upload(rows_of_sum, compute);
        chunk_rows.allocate(partition.owned_chunks() + 1, allocated);
        chunk_holds.allocate(partition.owned_chunks(), allocated);
        selected.allocate(1, allocated);
        layout_scratch.allocate(std::max<std::size_t>(layout_scratch_bytes(), 1), allocated);
        for (Launch& launch : launches) {
            launch.slices.allocate(partition.owned_chunks(), allocated);
            launch.next.allocate(std::size_t(most_cells) + 1, allocated);
            launch.counts.allocate(std::size_t(pieces), allocated);
            launch.missing.allocate(1, allocated);
            launch.layout_check.allocate(2, allocated);
            launch.host_counts.assign(std::size_t(pieces), 0);
            check(cudaEventCreate(&launch.begin), "cudaEventCreate");
            check(cudaEventCreate(&launch.kernel_end), "cudaEventCreate");
            check(cudaEventCreate(&launch.copy_end), "cudaEventCreate");
        }
        // The block kernel where its shared memory fits a block, with as
        // many blocks as the device holds at once (the occupancy API, for
        // its registers and shared memory); else one thread a slice, enough
        // threads to fill the device, as many as the scratch allows.
        shape = tables.block_shape(value_size);
        block_work = shape.bytes() <= std::size_t(std::max(shared_most, 0));
        if (block_work) {
            const int shared = int(shape.bytes());
            const int per_multiprocessor = value_size == int(sizeof(float)) ? blocks_per_multiprocessor<float>(shared)
                                                                            : blocks_per_multiprocessor<double>(shared);
            grid = unsigned(std::max(1, properties.multiProcessorCount * std::max(per_multiprocessor, 1)));
            report.kernel = "block";
            report.threads_per_block = SliceBlockThreads;
            report.blocks = grid;
            report.shared_bytes_per_block = shape.bytes();
        } else {
            const std::size_t per_thread = gpu_scratch_per_thread(rules_, partition);
            const std::uint64_t resident =
                std::uint64_t(properties.multiProcessorCount) * std::uint64_t(properties.maxThreadsPerMultiProcessor);
            threads = std::min<std::uint64_t>(
                {GpuMostThreads, std::max<std::uint64_t>(resident, 1),
                 std::max<std::uint64_t>(1, std::uint64_t(GpuScratchBytes / (double(per_thread) * sizeof(double))))});
            block = int(std::min<std::uint64_t>(threads, 128));
            scratch.allocate(std::size_t(threads) * per_thread, allocated);
            report.kernel = "thread";
            report.threads_per_block = block;
            report.blocks = (threads + std::uint64_t(block) - 1) / std::uint64_t(block);
        }
        check(cudaStreamSynchronize(compute), "uploading the tables");
        // An empty launch of the round kernel: a device the build has no
        // code for, or a kernel that cannot start, fails here, before any
        // file is made, and not in the first round.
        run_kernel(tables.view(), nullptr, 0, nullptr, nullptr);
        const cudaError_t launched = cudaGetLastError();
        const cudaError_t ran = cudaStreamSynchronize(compute);
        if (launched != cudaSuccess || ran != cudaSuccess)
            throw InputError(std::string("--gpu: the round kernel cannot run on ") + report.device + " ("
                             + cudaGetErrorString(launched != cudaSuccess ? launched : ran)
                             + "): this build is for compute capability " + STACK_CUDA_ARCHITECTURES
                             + "; configure with -DCMAKE_CUDA_ARCHITECTURES for this GPU");
        report.allocated = allocated;
    }

    ~Impl() {
        if (compute)
            cudaStreamSynchronize(compute);
        if (copy)
            cudaStreamSynchronize(copy);
        for (Launch& launch : launches)
            for (cudaEvent_t event : {launch.begin, launch.kernel_end, launch.copy_end})
                if (event)
                    cudaEventDestroy(event);
        for (void* host : pinned)
            cudaHostUnregister(host);
        for (cudaStream_t stream : {compute, copy})
            if (stream)
                cudaStreamDestroy(stream);
    }

    // The device drops what no round from `lowest` down reads: the rounds
    // above lowest + K and their ghosts. (Stream order keeps them until the
    // kernels queued before have read them.)
    void drop_above(int lowest) {
        for (int sum = lowest + most_cells + 1; sum < int(slot_of.size()); ++sum) {
            if (slot_of[std::size_t(sum)] >= 0) {
                rounds[std::size_t(slot_of[std::size_t(sum)])].sum = -1;
                slot_of[std::size_t(sum)] = -1;
            }
            DeviceGhosts& held = ghost_slot(sum);
            if (held.sum == sum) {
                held.sum = -1;
                held.rows = {};
            }
        }
    }

    DeviceRound& open(int sum, int row_length) {
        if (slot_of[std::size_t(sum)] >= 0)
            return rounds[std::size_t(slot_of[std::size_t(sum)])];
        drop_above(sum);
        for (std::size_t slot = 0; slot < rounds.size(); ++slot)
            if (rounds[slot].sum < 0) {
                rounds[slot].sum = sum;
                rounds[slot].row_length = row_length;
                slot_of[std::size_t(sum)] = int(slot);
                return rounds[slot];
            }
        throw std::logic_error("the GPU holds more rounds than the band allows (a bug: please report it)");
    }

    SuccessorRound successor(int sum) const {
        SuccessorRound round;
        if (sum >= int(slot_of.size()) || slot_of[std::size_t(sum)] < 0)
            return round;
        const DeviceRound& held = rounds[std::size_t(slot_of[std::size_t(sum)])];
        round.values = held.values.data();
        round.slice_start = SliceStartsView::plain(held.slice_start.data());
        round.row_index =
            row_indices.data()
            + std::size_t(sum % layout.residues().modulus()) * std::size_t(partition.geometry().height() + 1);
        round.row_length = held.row_length;
        round.tops = held.tops();
        const DeviceGhosts& ghost = ghost_slot(sum);
        if (ghost.sum == sum)
            round.ghosts = ghost.rows;
        return round;
    }

    // Page-locks a host round array the first time it is seen, so that its
    // copy back is asynchronous and at the link's speed. A refusal (a limit
    // on locked memory) leaves it pageable: slower, still correct.
    void pin(RoundStore& store) {
        void* host = store.values.data();
        if (host == nullptr || std::find(pinned.begin(), pinned.end(), host) != pinned.end())
            return;
        if (cudaHostRegister(host, store.values.capacity() * sizeof(double), cudaHostRegisterDefault) == cudaSuccess) {
            pinned.push_back(host);
        } else {
            cudaGetLastError();  // clears the refusal
            report.pinned = false;
        }
    }

    // Lets the block kernel of `Value` take `shared` bytes of shared memory
    // a block; how many of its blocks a multiprocessor then holds at once.
    template <class Value>
    static int blocks_per_multiprocessor(int shared) {
        int blocks = 0;
        check(cudaFuncSetAttribute(block_kernel<Value>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared),
              "cudaFuncSetAttribute");
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, block_kernel<Value>, SliceBlockThreads,
                                                            std::size_t(shared)),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        return blocks;
    }

    // CUB's temporary storage for a round's scan and selection (the larger).
    std::size_t layout_scratch_bytes() const {
#ifdef STACK_CUDA_EMULATOR
        return 0;
#else
        const std::uint64_t chunks = partition.owned_chunks();
        std::size_t scan = 0, select = 0;
        check(cub::DeviceScan::ExclusiveSum(nullptr, scan, static_cast<std::uint64_t*>(nullptr),
                                            static_cast<std::uint64_t*>(nullptr), chunks + 1),
              "cub::DeviceScan::ExclusiveSum");
        check(
            cub::DeviceSelect::Flagged(nullptr, select, thrust::counting_iterator<std::uint64_t>(0),
                                       static_cast<const unsigned char*>(nullptr), static_cast<std::uint64_t*>(nullptr),
                                       static_cast<std::uint64_t*>(nullptr), chunks),
            "cub::DeviceSelect::Flagged");
        return std::max(scan, select);
#endif
    }

    // Lays round `store.sum` out on the device, on the compute stream: its
    // slice starts (a scan of each chunk's slice rows) and, into `slices`
    // when given, its non-empty slices in ascending order (a selection of
    // the chunks with rows), so neither crosses the bus each round; the
    // tops come from the host store. Returns the bytes uploaded. The
    // emulator checks that the device's layout is the host's (`host_slices`
    // the slices the host listed).
    std::uint64_t lay_out(DeviceRound& round, const RoundStore& store, std::uint64_t* slices,
                          const std::vector<std::uint64_t>& host_slices) {
        const std::uint64_t bytes_up = round.upload_tops(store, compute);
        lay_out_starts(store.sum, round.tops(), round.slice_start.data(), slices, &store, host_slices);
        return bytes_up;
    }

    // Round `sum`'s slice starts into `slice_start` from its tops already
    // on the device, and its non-empty slices into `slices` when given.
    // `host`, when given, is the host's layout of the round, which the
    // emulator checks the device's against.
    void lay_out_starts(int sum, const RoundTops& tops, std::uint64_t* slice_start, std::uint64_t* slices,
                        const RoundStore* host, const std::vector<std::uint64_t>& host_slices) {
        const std::uint64_t chunks = partition.owned_chunks();
        const unsigned threads = 256, blocks = unsigned((chunks + 1 + threads - 1) / threads);
        RoundView view = tables.view();
        view.sum = sum;
        view.upper_sums = upper_sums.data();
        view.tops = tops;
        STACK_LAUNCH(slice_rows_kernel, blocks, threads, compute, view, chunks, lower_rows.data(),
                     partition.most_lower_sum(), chunk_rows.data(), chunk_holds.data());
        check(cudaGetLastError(), "launching the slice rows kernel");
#ifdef STACK_CUDA_EMULATOR
        // The CPU stand-in's scan and selection (CUB's on a GPU), and the
        // check that the device's layout is the host's.
        std::uint64_t rows = 0, found = 0;
        for (std::uint64_t chunk = 0; chunk <= chunks; ++chunk) {
            slice_start[chunk] = rows;
            if (chunk < chunks && chunk_holds.data()[chunk] && slices)
                slices[found++] = chunk;
            rows += chunk_rows.data()[chunk];
        }
        if (slices)
            selected.data()[0] = found;  // as DeviceSelect counts them
        if (host
            && (host->slice_start.size() != chunks + 1
                || !std::all_of(slice_start, slice_start + chunks + 1,
                                [&](const std::uint64_t& start) {
                                    return host->slice_start[std::uint64_t(&start - slice_start)] == start;
                                })
                || (slices
                    && !(found == host_slices.size() && std::equal(host_slices.begin(), host_slices.end(), slices)))))
            throw std::logic_error("round " + std::to_string(sum) + ": the device's slice starts or slices "
                                   "differ from the host's (a bug: please report it)");
#else
        (void)host;
        (void)host_slices;
        std::size_t bytes = layout_scratch.size();
        check(cub::DeviceScan::ExclusiveSum(layout_scratch.data(), bytes, chunk_rows.data(), slice_start, chunks + 1,
                                            compute),
              "cub::DeviceScan::ExclusiveSum");
        if (slices) {
            bytes = layout_scratch.size();
            check(cub::DeviceSelect::Flagged(layout_scratch.data(), bytes, thrust::counting_iterator<std::uint64_t>(0),
                                             static_cast<const unsigned char*>(chunk_holds.data()), slices,
                                             selected.data(), chunks, compute),
                  "cub::DeviceSelect::Flagged");
        }
#endif
    }

    // Queues the round kernel on the compute stream over `count` slices.
    void run_kernel(const RoundView& view, const std::uint64_t* slices, std::uint64_t count, unsigned long long* counts,
                    int* missing) {
        if (block_work) {
            const unsigned blocks = count == 0 ? 1u : unsigned(std::min<std::uint64_t>(grid, count));
            if (value_size == int(sizeof(float)))
                STACK_BLOCK_LAUNCH(block_kernel<float>, blocks, shape.bytes(), compute, view, shape, slices, count,
                                   blocks, counts, missing);
            else
                STACK_BLOCK_LAUNCH(block_kernel<double>, blocks, shape.bytes(), compute, view, shape, slices, count,
                                   blocks, counts, missing);
            return;
        }
        const std::uint64_t used = std::min<std::uint64_t>(threads, std::max<std::uint64_t>(count, 1));
        const unsigned blocks = unsigned((used + std::uint64_t(block) - 1) / std::uint64_t(block));
        if (value_size == int(sizeof(float)))
            STACK_LAUNCH(round_kernel<float>, blocks, unsigned(block), compute, view, slices, count, scratch.data(),
                         used, counts, missing);
        else
            STACK_LAUNCH(round_kernel<double>, blocks, unsigned(block), compute, view, slices, count, scratch.data(),
                         used, counts, missing);
    }

    Launch* launch_of(int sum) {
        for (Launch& launch : launches)
            if (launch.sum == sum)
                return &launch;
        return nullptr;
    }
};

GpuRounds::GpuRounds(const Partition& partition, const RoundLayout& layout, const Rules& rules,
                     const SliceTables& tables, int value_size, int device)
    : impl_(std::make_unique<Impl>(partition, layout, rules, tables, value_size, device)) {}

GpuRounds::~GpuRounds() = default;

void GpuRounds::launch(RoundStore& store, const std::vector<std::uint64_t>& slices) {
    Impl& gpu = *impl_;
    check(cudaSetDevice(gpu.report.device_index), "cudaSetDevice");
    Launch* launch = nullptr;
    for (Launch& candidate : gpu.launches)
        if (candidate.sum < 0)
            launch = &candidate;
    if (launch == nullptr || gpu.launch_of(store.sum))
        throw std::logic_error("a third GPU round launched, or one twice (a bug: please report it)");
    // With the digest on the device only round 0's few values come back:
    // nothing to page-lock (locking a round's array costs more than that
    // copy, and a line-clear run would pay it again every sweep).
    if (gpu.digest_size == 0)
        gpu.pin(store);
    // The slot of round sum+K+1, free once the kernels before have read it:
    // its uploads queue on the compute stream behind them.
    DeviceRound& round = gpu.open(store.sum, store.row_length);
    if (store.value_count() * std::uint64_t(gpu.value_size) > round.values.size())
        throw std::logic_error("round " + std::to_string(store.sum) + " holds more values than the device's round "
                               "arrays were sized for (a bug: please report it)");
    launch->layout_bytes = gpu.lay_out(round, store, launch->slices.data(), slices);
    // What the device laid out, kept beside the round (device to device, in
    // stream order) for wait() to compare with the host's layout: CUB's
    // count of slices and its scan's last start, the round's rows.
    const std::uint64_t chunks = gpu.partition.owned_chunks();
    check(cudaMemcpyAsync(launch->layout_check.data(), gpu.selected.data(), sizeof(std::uint64_t),
                          cudaMemcpyDeviceToDevice, gpu.compute),
          "keeping the device's slice count");
    check(cudaMemcpyAsync(launch->layout_check.data() + 1, round.slice_start.data() + chunks, sizeof(std::uint64_t),
                          cudaMemcpyDeviceToDevice, gpu.compute),
          "keeping the device's round rows");
    launch->host_slices = slices.size();
    launch->host_rows = store.slice_start[chunks];
    if (gpu.sweeps) {
        gpu.sweeps->check_size(store);
        gpu.sweeps->keep_tops(store, gpu.compute);
    }
    std::vector<SuccessorRound> next(std::size_t(gpu.most_cells) + 1);
    for (int step = 1; step <= gpu.most_cells; ++step)
        next[std::size_t(step)] = gpu.successor(store.sum + step);
    launch->next.upload(next, gpu.compute);
    check(cudaMemsetAsync(launch->counts.data(), 0, std::size_t(gpu.pieces) * sizeof(unsigned long long), gpu.compute),
          "cudaMemsetAsync");
    check(cudaMemsetAsync(launch->missing.data(), 0, sizeof(int), gpu.compute), "cudaMemsetAsync");
    launch->sum = store.sum;
    launch->store = &store;

    RoundView view = gpu.tables.view();
    view.upper_sums = gpu.upper_sums.data();
    view.orientation = gpu.orientations.data();
    view.rule = gpu.rules.data();
    view.weights = gpu.tables.weights().empty() ? nullptr : gpu.weights.data();
    view.in_row = gpu.in_row.data();
    view.partners = gpu.partners.data();
    view.sum = store.sum;
    view.row_length = store.row_length;
    view.row_index =
        gpu.row_indices.data()
        + std::size_t(store.sum % gpu.layout.residues().modulus()) * std::size_t(gpu.partition.geometry().height() + 1);
    view.slice_start = SliceStartsView::plain(round.slice_start.data());
    view.tops = round.tops();
    view.out = round.values.data();
    view.next = launch->next.data();
    // The well game: the tetris successors from the last sweep's round
    // S - TetrisRows (W-1), its slice starts laid out again here.
    const int below = tetris_round_sum(store.sum, gpu.partition.geometry().width());
    if (gpu.sweeps && gpu.sweeps->has_last && below >= 0) {
        GpuSweeps::Impl& sweeps = *gpu.sweeps;
        if (!sweeps.has_tops[std::size_t(below)])
            throw std::logic_error("a tetris round whose layout the device never kept (a bug: please report it)");
        const RoundTops below_tops = sweeps.tops[std::size_t(below)].tops();
        gpu.lay_out_starts(below, below_tops, sweeps.tetris_start.data(), nullptr, nullptr, {});
        view.tetris_piece = gpu.tetris_piece;
        view.tetris.values = reinterpret_cast<const char*>(sweeps.last_round(below));
        view.tetris.slice_start = SliceStartsView::plain(sweeps.tetris_start.data());
        view.tetris.row_index =
            gpu.row_indices.data()
            + std::size_t(below % gpu.layout.residues().modulus()) * std::size_t(gpu.partition.geometry().height() + 1);
        view.tetris.tops = below_tops;
    }

    check(cudaEventRecord(launch->begin, gpu.compute), "cudaEventRecord");
    if (!slices.empty()) {
        gpu.run_kernel(view, launch->slices.data(), std::uint64_t(slices.size()), launch->counts.data(),
                       launch->missing.data());
        check(cudaGetLastError(), "launching the round kernel");
    }
    check(cudaEventRecord(launch->kernel_end, gpu.compute), "cudaEventRecord");
    // The well game: the round kept in the sweep's table, and its change
    // from the last sweep's taken, on the compute stream (before any later
    // round's work reuses its slot).
    if (gpu.sweeps && store.value_count() > 0) {
        GpuSweeps::Impl& sweeps = *gpu.sweeps;
        const std::uint64_t count = store.value_count();
        check(cudaMemcpyAsync(sweeps.computed_round(store.sum), round.values.data(), count * sizeof(double),
                              cudaMemcpyDeviceToDevice, gpu.compute),
              "keeping a round of the sweep");
        const unsigned threads = 256;
        const unsigned blocks = unsigned(std::min<std::uint64_t>((count + threads - 1) / threads, 1024));
        STACK_LAUNCH(largest_kernel, blocks, threads, gpu.compute, sweeps.computed_round(store.sum), count,
                     sweeps.change.data() + 2);
        check(cudaGetLastError(), "launching the largest value's kernel");
        const std::size_t sum = std::size_t(store.sum);
        if (sweeps.run_count[sum] == ~std::uint64_t(0)) {  // the round's target runs, once
            const std::vector<std::uint64_t> runs = target_runs(gpu.partition, gpu.layout, store, 1);
            sweeps.run_count[sum] = runs.size() / 2;
            if (!runs.empty()) {
                sweeps.runs[sum].allocate(runs.size(), sweeps.allocated);
                sweeps.runs[sum].upload(runs.data(), runs.size(), gpu.compute);
                check(cudaStreamSynchronize(gpu.compute), "uploading a round's target runs");
            }
        }
        if (sweeps.has_last && sweeps.run_count[sum] > 0) {
            const std::uint64_t pairs = sweeps.run_count[sum];
            const unsigned run_blocks = unsigned(std::min<std::uint64_t>((pairs + threads - 1) / threads, 1024));
            STACK_LAUNCH(target_change_kernel, run_blocks, threads, gpu.compute, sweeps.computed_round(store.sum),
                         sweeps.last_round(store.sum), sweeps.runs[sum].data(), pairs, sweeps.change.data());
            check(cudaGetLastError(), "launching the change kernel");
        }
    }
    // Back to the host on the copy stream, while the next kernel computes
    // (into page-locked memory, so this call does not wait for the kernel).
    check(cudaStreamWaitEvent(gpu.copy, launch->kernel_end, 0), "cudaStreamWaitEvent");
    std::uint64_t bytes = store.value_count() * std::uint64_t(gpu.value_size);
    launch->digest_pieces = 0;
    if (gpu.digest_size > 0 && store.value_count() > 0) {
        // The digest here, and only round 0 (V(empty)) back to the host.
        const std::uint64_t piece_values = DigestPieceBytes / std::uint64_t(gpu.digest_size);
        const std::uint64_t pieces = (store.value_count() + piece_values - 1) / piece_values;
        if (pieces > launch->digest_crcs.size())
            throw std::logic_error("a round has more digest pieces than planned (a bug: please report it)");
        const unsigned threads = 128, blocks = unsigned((pieces + threads - 1) / threads);
        if (gpu.value_size == int(sizeof(float)))
            STACK_LAUNCH(digest_kernel<float>, blocks, threads, gpu.copy,
                         reinterpret_cast<const float*>(round.values.data()), store.value_count(), gpu.digest_size,
                         piece_values, gpu.crc_table.data(), launch->digest_crcs.data(), pieces);
        else
            STACK_LAUNCH(digest_kernel<double>, blocks, threads, gpu.copy,
                         reinterpret_cast<const double*>(round.values.data()), store.value_count(), gpu.digest_size,
                         piece_values, gpu.crc_table.data(), launch->digest_crcs.data(), pieces);
        check(cudaGetLastError(), "launching the digest kernel");
        launch->digest_pieces = pieces;
        if (store.sum != 0)
            bytes = 0;
    }
    launch->copied_bytes = bytes;
    if (bytes)
        check(cudaMemcpyAsync(store.values.data(), round.values.data(), bytes, cudaMemcpyDeviceToHost, gpu.copy),
              "copying a round back to the host");
    check(cudaEventRecord(launch->copy_end, gpu.copy), "cudaEventRecord");
}

bool GpuRounds::in_flight(int sum) const { return impl_->launch_of(sum) != nullptr; }

GpuRoundRecord GpuRounds::wait(int sum) {
    Impl& gpu = *impl_;
    check(cudaSetDevice(gpu.report.device_index), "cudaSetDevice");
    Launch* launch = gpu.launch_of(sum);
    if (launch == nullptr)
        throw std::logic_error("waiting for a GPU round never launched (a bug: please report it)");
    check(cudaEventSynchronize(launch->copy_end), "the round kernel and its copy back");
    // The round's counters, read once it is done (a copy into pageable
    // memory would have made launch() wait for the kernel).
    check(cudaMemcpy(launch->host_counts.data(), launch->counts.data(),
                     std::size_t(gpu.pieces) * sizeof(unsigned long long), cudaMemcpyDeviceToHost),
          "reading the connections back");
    check(cudaMemcpy(&launch->host_missing, launch->missing.data(), sizeof(int), cudaMemcpyDeviceToHost),
          "reading the kernel's flag back");
    std::uint64_t layout[2] = {};
    check(cudaMemcpy(layout, launch->layout_check.data(), sizeof(layout), cudaMemcpyDeviceToHost),
          "reading the device's layout back");
    if (layout[0] != launch->host_slices || layout[1] != launch->host_rows)
        throw std::logic_error("round " + std::to_string(sum) + ": the device laid out " + std::to_string(layout[0])
                               + " slices of " + std::to_string(layout[1]) + " rows, the host "
                               + std::to_string(launch->host_slices) + " of " + std::to_string(launch->host_rows)
                               + " (a bug: please report it)");
    GpuRoundRecord record;
    if (gpu.digest_size > 0) {
        record.digested = true;
        const std::uint64_t round_bytes = launch->store->value_count() * std::uint64_t(gpu.digest_size);
        if (launch->digest_pieces > 0) {
            launch->host_digest_crcs.resize(launch->digest_pieces);
            check(cudaMemcpy(launch->host_digest_crcs.data(), launch->digest_crcs.data(),
                             launch->digest_pieces * sizeof(std::uint64_t), cudaMemcpyDeviceToHost),
                  "reading the digest back");
            record.round_crc = crc64_of_pieces(launch->host_digest_crcs, DigestPieceBytes,
                                               round_bytes - (launch->digest_pieces - 1) * DigestPieceBytes);
        }
    }
    float kernel_ms = 0, copy_ms = 0;
    check(cudaEventElapsedTime(&kernel_ms, launch->begin, launch->kernel_end), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&copy_ms, launch->kernel_end, launch->copy_end), "cudaEventElapsedTime");
    record.kernel_seconds = double(kernel_ms) / 1e3;
    record.copy_seconds = double(copy_ms) / 1e3;
    if (launch->host_missing & SliceOverflow)
        throw std::logic_error("round " + std::to_string(sum) + ": a slice holds more values or whole-slice "
                               "placements than the block's shared memory was shaped for (a bug: please report it)");
    if (launch->host_missing)
        throw std::logic_error("round " + std::to_string(sum) + ": a ghost row was not received from its owner: the "
                               "exchange missed a placement (a bug: please report it)");
    std::uint64_t reads = 0;
    for (std::size_t piece = 0; piece < gpu.total_counts.size(); ++piece) {
        reads += launch->host_counts[piece];
        gpu.total_counts[piece] += launch->host_counts[piece];
    }
    const std::uint64_t values = launch->store->value_count();
    record.kernel_bytes = (reads + values) * std::uint64_t(gpu.value_size);
    record.copy_bytes = launch->copied_bytes;
    record.upload_bytes = launch->layout_bytes;
    gpu.report.kernel_seconds += record.kernel_seconds;
    gpu.report.kernel_bytes += record.kernel_bytes;
    gpu.report.copy_seconds += record.copy_seconds;
    gpu.report.copy_bytes += record.copy_bytes;
    gpu.report.upload_bytes += record.upload_bytes;
    gpu.report.allocated = std::max(gpu.report.allocated, gpu.allocated);
    launch->sum = -1;
    launch->store = nullptr;
    return record;
}

void GpuRounds::upload_round(const RoundStore& store) {
    Impl& gpu = *impl_;
    check(cudaSetDevice(gpu.report.device_index), "cudaSetDevice");
    DeviceRound& round = gpu.open(store.sum, store.row_length);
    const std::uint64_t layout_bytes = gpu.lay_out(round, store, nullptr, {});
    round.values.upload(reinterpret_cast<const char*>(store.values.data()),
                        store.value_count() * std::uint64_t(gpu.value_size), gpu.compute);
    check(cudaStreamSynchronize(gpu.compute), "uploading a resumed round");
    gpu.report.upload_bytes += layout_bytes + store.value_count() * std::uint64_t(gpu.value_size);
}

void GpuRounds::upload_ghosts(int sum, const GhostRows& rows) {
    Impl& gpu = *impl_;
    if (rows.ids == nullptr)
        return;
    check(cudaSetDevice(gpu.report.device_index), "cudaSetDevice");
    DeviceGhosts& ghosts = gpu.ghost_slot(sum);
    const std::size_t ranks = std::size_t(gpu.partition.ranks());
    ghosts.sum = sum;
    ghosts.ids.reserve(std::max<std::uint64_t>(rows.rows, 1), gpu.allocated);
    ghosts.values.reserve(std::max<std::uint64_t>(rows.rows * rows.row_bytes, 1), gpu.allocated);
    ghosts.offsets.reserve(ranks, gpu.allocated);
    ghosts.counts.reserve(ranks, gpu.allocated);
    ghosts.ids.upload(rows.ids, rows.rows, gpu.compute);
    ghosts.values.upload(rows.values, rows.rows * rows.row_bytes, gpu.compute);
    ghosts.offsets.upload(rows.offsets, ranks, gpu.compute);
    ghosts.counts.upload(rows.counts, ranks, gpu.compute);
    check(cudaStreamSynchronize(gpu.compute), "uploading ghost rows");
    ghosts.rows = {ghosts.ids.data(), ghosts.values.data(), ghosts.offsets.data(), ghosts.counts.data(),
                   rows.rows,         rows.row_bytes};
    gpu.report.upload_bytes += rows.rows * (sizeof(BoardId) + rows.row_bytes);
    gpu.report.allocated = std::max(gpu.report.allocated, gpu.allocated);
}

void GpuRounds::digest_on_device(int file_value_size) {
    Impl& gpu = *impl_;
    if (gpu.partition.ranks() != 1)
        throw std::logic_error("a digest on the device with several ranks (a bug: please report it)");
    check(cudaSetDevice(gpu.report.device_index), "cudaSetDevice");
    const std::array<std::uint64_t, 256> table = crc64_byte_table();
    gpu.crc_table.allocate(table.size(), gpu.allocated);
    gpu.crc_table.upload(table.data(), table.size(), gpu.compute);
    const std::uint64_t most_values = gpu.rounds.front().values.size() / std::uint64_t(gpu.value_size);
    const std::uint64_t piece_values = DigestPieceBytes / std::uint64_t(file_value_size);
    for (Launch& launch : gpu.launches)
        launch.digest_crcs.allocate((most_values + piece_values - 1) / piece_values + 1, gpu.allocated);
    check(cudaStreamSynchronize(gpu.compute), "uploading the digest's table");
    gpu.digest_size = file_value_size;
    gpu.report.allocated = std::max(gpu.report.allocated, gpu.allocated);
}

void GpuRounds::use_sweeps(GpuSweeps& sweeps, int tetris_piece) {
    Impl& gpu = *impl_;
    if (gpu.value_size != int(sizeof(double)) || gpu.partition.ranks() != 1 || tetris_piece < 0)
        throw std::logic_error("GPU sweeps need a float64 band, one rank and the I (a bug: --clears refuses the rest)");
    gpu.sweeps = &sweeps.impl();
    gpu.tetris_piece = tetris_piece;
    gpu.report.allocated = std::max(gpu.report.allocated, gpu.allocated + sweeps.allocated());
}

PieceCounts GpuRounds::counts() const { return PieceCounts(impl_->total_counts.begin(), impl_->total_counts.end()); }

const GpuReport& GpuRounds::report() const { return impl_->report; }

}  // namespace stack
