// The GPU path (gpu_rounds.h), compiled by nvcc with fused multiply-adds
// off (--fmad=false) so that value_from_best() gives the host's bits.
#include "gpu_rounds.h"

#include "support/cli.h"
#include "support/errors.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace stack {

bool gpu_built() { return true; }

namespace {

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
        reset();
        if (count == 0)
            return;
        check(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)), "cudaMalloc");
        count_ = count;
        allocated += count * sizeof(T);
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

// One thread a slice, slices dealt round-robin across the grid so that
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
        atomicExch(missing, 1);
}

// A round held on the device.
struct DeviceRound {
    int sum = -1;
    int row_length = 0;
    DeviceArray<char> values;
    DeviceArray<std::uint64_t> slice_start;
};

// The ghost rows of one round on the device.
struct DeviceGhosts {
    DeviceArray<BoardId> ids;
    DeviceArray<char> values;
    DeviceArray<int> offsets, counts;
    GhostRows rows;  // pointing at the above
};

}  // namespace

struct GpuRounds::Impl {
    const Partition& partition;
    const RoundLayout& layout;
    const SliceTables& tables;
    int value_size;
    int pieces;
    cudaStream_t stream = nullptr;
    cudaEvent_t begin = nullptr, end = nullptr;
    std::uint64_t allocated = 0;
    std::vector<DeviceRound> rounds;  // K+1 slots
    std::vector<int> slot_of;         // [sum] -> slot, -1 when not held
    std::vector<DeviceGhosts> ghosts;  // [sum]
    DeviceArray<PortableOrientation> orientations;
    DeviceArray<PortableRule> rules;
    DeviceArray<std::uint32_t> weights, upper_sums;
    DeviceArray<int> in_row, row_indices;
    DeviceArray<std::uint64_t> slices;
    DeviceArray<SuccessorRound> next;
    DeviceArray<double> scratch;
    DeviceArray<unsigned long long> counts;
    DeviceArray<int> missing;
    std::uint64_t threads = 1;
    int block = 1;
    std::vector<unsigned long long> host_counts;
    GpuReport report;

    Impl(const Partition& partition_, const RoundLayout& layout_, const Rules& rules_, const SliceTables& tables_,
         int value_size_, int device)
        : partition(partition_), layout(layout_), tables(tables_), value_size(value_size_),
          pieces(rules_.piece_count()), rounds(std::size_t(Band::most_rounds(rules_))),
          slot_of(std::size_t(partition_.rounds()), -1),
          ghosts(std::size_t(partition_.rounds())), host_counts(std::size_t(rules_.piece_count()), 0) {
        int devices = 0;
        const cudaError_t found = cudaGetDeviceCount(&devices);
        if (found != cudaSuccess || devices == 0)
            throw InputError(std::string("--gpu: no CUDA device here (") +
                             (found != cudaSuccess ? cudaGetErrorString(found) : "none found") +
                             "): run without --gpu");
        report.device_index = device % devices;
        check(cudaSetDevice(report.device_index), "cudaSetDevice");
        cudaDeviceProp properties{};
        check(cudaGetDeviceProperties(&properties, report.device_index), "cudaGetDeviceProperties");
        int clock_khz = 0, bus_bits = 0;
        cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, report.device_index);
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, report.device_index);
        report.device = properties.name;
        report.device_memory = properties.totalGlobalMem;
        report.peak_bytes_per_second = 2.0 * double(clock_khz) * 1e3 * double(bus_bits) / 8.0;

        // The whole plan up front, against what the device has free.
        const GpuMemory plan = gpu_memory(partition, layout, rules_, value_size, 0.0);
        std::size_t free_bytes = 0, total_bytes = 0;
        check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
        if (plan.total() > double(free_bytes))
            throw InputError("--gpu: the band needs " + human_bytes(plan.total()) + " of GPU memory but " +
                             report.device + " (device " + std::to_string(report.device_index) + ") has " +
                             human_bytes(double(free_bytes)) +
                             " free: use " + std::string(value_size == int(sizeof(double)) ? "--band-precision float32, " : "")
                             + "more ranks (GPUs), fewer residue classes, or a smaller well");

        check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
        check(cudaEventCreate(&begin), "cudaEventCreate");
        check(cudaEventCreate(&end), "cudaEventCreate");
        const Band band(partition, layout);
        for (DeviceRound& round : rounds) {
            round.values.allocate(band.largest_round_values() * std::uint64_t(value_size), allocated);
            round.slice_start.allocate(partition.owned_chunks() + 1, allocated);
        }
        orientations.allocate(tables.orientations().size(), allocated);
        orientations.upload(tables.orientations(), stream);
        rules.allocate(tables.rules().size(), allocated);
        rules.upload(tables.rules(), stream);
        weights.allocate(tables.weights().size(), allocated);
        weights.upload(tables.weights(), stream);
        in_row.allocate(tables.in_row().size(), allocated);
        in_row.upload(tables.in_row(), stream);
        row_indices.allocate(tables.row_indices().size(), allocated);
        row_indices.upload(tables.row_indices(), stream);
        upper_sums.allocate(partition.owned_chunks(), allocated);
        upper_sums.upload(partition.upper_sums(), partition.owned_chunks(), stream);
        slices.allocate(partition.owned_chunks(), allocated);
        next.allocate(std::size_t(tables.most_cells()) + 1, allocated);
        counts.allocate(std::size_t(pieces), allocated);
        check(cudaMemsetAsync(counts.data(), 0, std::size_t(pieces) * sizeof(unsigned long long), stream),
              "cudaMemset");
        missing.allocate(1, allocated);
        check(cudaMemsetAsync(missing.data(), 0, sizeof(int), stream), "cudaMemset");
        // Threads: enough to fill the device several times over, as many as
        // the scratch allows.
        const double per_thread = double(pieces) * double(partition.geometry().height() + 1) * sizeof(double);
        const std::uint64_t resident =
            std::uint64_t(properties.multiProcessorCount) * std::uint64_t(properties.maxThreadsPerMultiProcessor);
        threads = std::min<std::uint64_t>({GpuMostThreads, std::max<std::uint64_t>(resident, 1),
                                           std::max<std::uint64_t>(1, std::uint64_t(GpuScratchBytes / per_thread))});
        block = int(std::min<std::uint64_t>(threads, 128));
        scratch.allocate(std::size_t(threads) * std::size_t(pieces) * std::size_t(partition.geometry().height() + 1),
                         allocated);
        check(cudaStreamSynchronize(stream), "uploading the tables");
        report.allocated = allocated;
    }

    ~Impl() {
        if (stream)
            cudaStreamSynchronize(stream);
        if (begin)
            cudaEventDestroy(begin);
        if (end)
            cudaEventDestroy(end);
        if (stream)
            cudaStreamDestroy(stream);
    }

    DeviceRound& open(int sum, int row_length) {
        if (slot_of[std::size_t(sum)] >= 0)
            return rounds[std::size_t(slot_of[std::size_t(sum)])];
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
        round.slice_start = held.slice_start.data();
        round.row_index = row_indices.data() + std::size_t(sum % layout.residues().modulus())
                                                   * std::size_t(partition.geometry().height() + 1);
        round.row_length = held.row_length;
        round.ghosts = ghosts[std::size_t(sum)].rows;
        return round;
    }
};

GpuRounds::GpuRounds(const Partition& partition, const RoundLayout& layout, const Rules& rules,
                     const SliceTables& tables, int value_size, int device)
    : impl_(std::make_unique<Impl>(partition, layout, rules, tables, value_size, device)) {}

GpuRounds::~GpuRounds() = default;

GpuRoundRecord GpuRounds::compute(RoundStore& store, const std::vector<std::uint64_t>& slices) {
    Impl& gpu = *impl_;
    check(cudaSetDevice(gpu.report.device_index), "cudaSetDevice");
    GpuRoundRecord record;
    const auto copy_start = std::chrono::steady_clock::now();
    DeviceRound& round = gpu.open(store.sum, store.row_length);
    round.slice_start.upload(store.slice_start, gpu.stream);
    gpu.slices.upload(slices, gpu.stream);
    std::vector<SuccessorRound> next(std::size_t(gpu.tables.most_cells()) + 1);
    for (int step = 1; step <= gpu.tables.most_cells(); ++step)
        next[std::size_t(step)] = gpu.successor(store.sum + step);
    gpu.next.upload(next, gpu.stream);
    check(cudaStreamSynchronize(gpu.stream), "uploading a round's layout");
    record.copy_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - copy_start).count();
    record.copy_bytes += store.slice_start.size() * sizeof(std::uint64_t) + slices.size() * sizeof(std::uint64_t);

    RoundView view = gpu.tables.view();
    view.upper_sums = gpu.upper_sums.data();
    view.orientation = gpu.orientations.data();
    view.rule = gpu.rules.data();
    view.weights = gpu.tables.weights().empty() ? nullptr : gpu.weights.data();
    view.in_row = gpu.in_row.data();
    view.sum = store.sum;
    view.row_length = store.row_length;
    view.row_index = gpu.row_indices.data() + std::size_t(store.sum % gpu.layout.residues().modulus())
                                                  * std::size_t(gpu.partition.geometry().height() + 1);
    view.slice_start = round.slice_start.data();
    view.out = round.values.data();
    view.next = gpu.next.data();

    const std::uint64_t threads = std::min<std::uint64_t>(gpu.threads, std::max<std::size_t>(slices.size(), 1));
    const unsigned blocks = unsigned((threads + std::uint64_t(gpu.block) - 1) / std::uint64_t(gpu.block));
    check(cudaEventRecord(gpu.begin, gpu.stream), "cudaEventRecord");
    if (!slices.empty()) {
        if (gpu.value_size == int(sizeof(float)))
            round_kernel<float><<<blocks, gpu.block, 0, gpu.stream>>>(view, gpu.slices.data(), slices.size(),
                                                                      gpu.scratch.data(), threads, gpu.counts.data(),
                                                                      gpu.missing.data());
        else
            round_kernel<double><<<blocks, gpu.block, 0, gpu.stream>>>(view, gpu.slices.data(), slices.size(),
                                                                       gpu.scratch.data(), threads,
                                                                       gpu.counts.data(), gpu.missing.data());
        check(cudaGetLastError(), "launching the round kernel");
    }
    check(cudaEventRecord(gpu.end, gpu.stream), "cudaEventRecord");
    std::vector<unsigned long long> counts(std::size_t(gpu.pieces));
    int missing = 0;
    check(cudaMemcpyAsync(counts.data(), gpu.counts.data(), counts.size() * sizeof(unsigned long long),
                          cudaMemcpyDeviceToHost, gpu.stream),
          "reading the connections back");
    check(cudaMemcpyAsync(&missing, gpu.missing.data(), sizeof(int), cudaMemcpyDeviceToHost, gpu.stream),
          "reading the kernel's flag back");
    check(cudaStreamSynchronize(gpu.stream), "the round kernel");
    float milliseconds = 0;
    check(cudaEventElapsedTime(&milliseconds, gpu.begin, gpu.end), "cudaEventElapsedTime");
    record.kernel_seconds = double(milliseconds) / 1e3;
    if (missing)
        throw std::logic_error("round " + std::to_string(store.sum) + ": a ghost row was not received from its "
                               "owner: the exchange missed a placement (a bug: please report it)");
    std::uint64_t reads = 0;
    for (std::size_t piece = 0; piece < counts.size(); ++piece)
        reads += counts[piece] - gpu.host_counts[piece];
    gpu.host_counts = counts;
    record.kernel_bytes = (reads + store.value_count()) * std::uint64_t(gpu.value_size);

    const auto back_start = std::chrono::steady_clock::now();
    const std::uint64_t bytes = store.value_count() * std::uint64_t(gpu.value_size);
    if (bytes)
        check(cudaMemcpyAsync(store.values.data(), round.values.data(), bytes, cudaMemcpyDeviceToHost, gpu.stream),
              "copying a round back to the host");
    check(cudaStreamSynchronize(gpu.stream), "copying a round back to the host");
    record.copy_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - back_start).count();
    record.copy_bytes += bytes;

    gpu.report.kernel_seconds += record.kernel_seconds;
    gpu.report.kernel_bytes += record.kernel_bytes;
    gpu.report.copy_seconds += record.copy_seconds;
    gpu.report.copy_bytes += record.copy_bytes;
    return record;
}

void GpuRounds::upload_round(const RoundStore& store) {
    Impl& gpu = *impl_;
    check(cudaSetDevice(gpu.report.device_index), "cudaSetDevice");
    DeviceRound& round = gpu.open(store.sum, store.row_length);
    round.slice_start.upload(store.slice_start, gpu.stream);
    round.values.upload(reinterpret_cast<const char*>(store.values.data()),
                        store.value_count() * std::uint64_t(gpu.value_size), gpu.stream);
    check(cudaStreamSynchronize(gpu.stream), "uploading a resumed round");
}

void GpuRounds::upload_ghosts(int sum, const GhostRows& rows) {
    Impl& gpu = *impl_;
    if (rows.ids == nullptr)
        return;
    check(cudaSetDevice(gpu.report.device_index), "cudaSetDevice");
    DeviceGhosts& ghosts = gpu.ghosts[std::size_t(sum)];
    const std::size_t ranks = std::size_t(gpu.partition.ranks());
    ghosts.ids.allocate(std::max<std::uint64_t>(rows.rows, 1), gpu.allocated);
    ghosts.values.allocate(std::max<std::uint64_t>(rows.rows * rows.row_bytes, 1), gpu.allocated);
    ghosts.offsets.allocate(ranks, gpu.allocated);
    ghosts.counts.allocate(ranks, gpu.allocated);
    ghosts.ids.upload(rows.ids, rows.rows, gpu.stream);
    ghosts.values.upload(rows.values, rows.rows * rows.row_bytes, gpu.stream);
    ghosts.offsets.upload(rows.offsets, ranks, gpu.stream);
    ghosts.counts.upload(rows.counts, ranks, gpu.stream);
    check(cudaStreamSynchronize(gpu.stream), "uploading ghost rows");
    ghosts.rows = {ghosts.ids.data(), ghosts.values.data(), ghosts.offsets.data(), ghosts.counts.data(),
                   rows.rows, rows.row_bytes};
    gpu.report.copy_bytes += rows.rows * (sizeof(BoardId) + rows.row_bytes);
    gpu.report.allocated = std::max(gpu.report.allocated, gpu.allocated);
}

void GpuRounds::close(int sum) {
    Impl& gpu = *impl_;
    if (sum < 0 || sum >= int(gpu.slot_of.size()))
        return;
    if (gpu.slot_of[std::size_t(sum)] >= 0) {
        gpu.rounds[std::size_t(gpu.slot_of[std::size_t(sum)])].sum = -1;
        gpu.slot_of[std::size_t(sum)] = -1;
    }
    DeviceGhosts& ghosts = gpu.ghosts[std::size_t(sum)];
    const std::uint64_t freed = ghosts.ids.size() * sizeof(BoardId) + ghosts.values.size()
                                + (ghosts.offsets.size() + ghosts.counts.size()) * sizeof(int);
    ghosts.ids.reset();
    ghosts.values.reset();
    ghosts.offsets.reset();
    ghosts.counts.reset();
    ghosts.rows = {};
    gpu.allocated -= freed;
}

PieceCounts GpuRounds::counts() const {
    return PieceCounts(impl_->host_counts.begin(), impl_->host_counts.end());
}

const GpuReport& GpuRounds::report() const { return impl_->report; }

}  // namespace stack
