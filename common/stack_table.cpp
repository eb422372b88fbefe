#include "stack_table.h"

#include "cli.h"
#include "errors.h"
#include "pieces.h"
#include "hdf5_handle.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <list>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace stack {

namespace {

Handle open_file(const std::string& path) {
    silence_hdf5_error_printing();
    std::error_code error;
    if (!std::filesystem::exists(path, error))
        throw InputError("table '" + path + "' does not exist");
    if (!std::filesystem::is_regular_file(path, error))
        throw InputError("table '" + path + "' is not a file");
    if (H5Fis_hdf5(path.c_str()) <= 0)
        throw InputError("'" + path + "' is not an HDF5 file");
    try {
        return file_handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open " + path);
    } catch (const Hdf5Error& failure) {
        throw InputError(std::string("'") + path + "' cannot be opened as HDF5: " + failure.what());
    }
}

// /values, checked to be a one-dimensional float64 dataset of `states`.
Handle open_values(hid_t file, const std::string& path, std::uint64_t states) {
    const std::string name = std::string("/") + ValuesDataset;
    if (H5Lexists(file, ValuesDataset, H5P_DEFAULT) <= 0)
        throw InputError("'" + path + "' is not a stacking table: dataset " + name + " is missing");
    try {
        Handle dataset = dataset_handle(H5Dopen2(file, ValuesDataset, H5P_DEFAULT), "open " + name);
        Handle type = datatype_handle(H5Dget_type(dataset), "read the type of " + name);
        if (H5Tget_class(type) != H5T_FLOAT || H5Tget_size(type) != sizeof(double))
            throw InputError("'" + path + "': " + name + " does not hold float64 values");
        Handle space = dataspace_handle(H5Dget_space(dataset), "read the shape of " + name);
        hsize_t length = 0;
        if (H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, &length, nullptr) != 1
            || length != states)
            throw InputError("'" + path + "': " + name + " does not hold (H+1)^W = " + with_commas(states)
                             + " values in one dimension");
        return dataset;
    } catch (const Hdf5Error& failure) {
        throw InputError("'" + path + "' is damaged: " + failure.what());
    }
}

// Reads values [first, first + count) of /values into `out`.
void read_values(hid_t dataset, const std::string& path, std::uint64_t first, std::uint64_t count, double* out) {
    try {
        Handle file_space = dataspace_handle(H5Dget_space(dataset), "read the shape of /values");
        const hsize_t start = first, length = count;
        check_hdf5(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, nullptr, &length, nullptr),
                   "select values");
        Handle memory_space = dataspace_handle(H5Screate_simple(1, &length, nullptr), "create memory space");
        check_hdf5(H5Dread(dataset, H5T_NATIVE_DOUBLE, memory_space, file_space, H5P_DEFAULT, out), "read /values");
    } catch (const Hdf5Error& failure) {
        throw InputError("'" + path + "' is damaged: " + failure.what());
    }
}

// Every value must be a number of pieces a game can place.
void check_values(const double* values, std::uint64_t count, BoardId first, const Geometry& geometry,
                  const std::string& path) {
    const double largest = largest_possible_value(geometry);
    bool all_good = true;
    for (std::uint64_t i = 0; i < count; ++i)
        all_good &= values[i] >= 0.0 && values[i] <= largest;  // false for NaN
    if (all_good)
        return;
    for (std::uint64_t i = 0; i < count; ++i)
        if (!(values[i] >= 0.0 && values[i] <= largest))
            throw InputError("'" + path + "': the value of board " + geometry.format_heights(geometry.decode(first + i))
                             + " (id " + std::to_string(first + i) + ") is " + std::to_string(values[i])
                             + ", not a number of pieces in [0, " + fixed(largest, 0) + "]");
}

}  // namespace

// A read-only mapping of the part of a file that holds a contiguous,
// unfiltered dataset: the resident values without a copy. HDF5 stores such
// a dataset's bytes verbatim at H5Dget_offset, little-endian.
class StackTable::MappedValues {
public:
    // Null when the dataset is not stored contiguously, or the file is
    // shorter than the dataset claims (a truncated file: reading it through
    // HDF5 then reports the damage).
    static std::unique_ptr<MappedValues> map(hid_t dataset, const std::string& path, std::uint64_t count) {
        if constexpr (std::endian::native != std::endian::little)
            return nullptr;
        const haddr_t offset = H5Dget_offset(dataset);
        if (offset == HADDR_UNDEF || count == 0)
            return nullptr;
        const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (descriptor < 0)
            return nullptr;
        struct stat status {};
        const std::uint64_t bytes = count * sizeof(double);
        const std::uint64_t page = std::uint64_t(sysconf(_SC_PAGESIZE));
        const std::uint64_t start = offset / page * page;
        void* memory = MAP_FAILED;
        if (::fstat(descriptor, &status) == 0 && std::uint64_t(status.st_size) >= offset + bytes && offset % sizeof(double) == 0)
            memory = ::mmap(nullptr, offset + bytes - start, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, off_t(start));
        ::close(descriptor);
        if (memory == MAP_FAILED)
            return nullptr;
        auto mapped = std::unique_ptr<MappedValues>(new MappedValues);
        mapped->memory_ = memory;
        mapped->length_ = offset + bytes - start;
        mapped->values_ = reinterpret_cast<const double*>(static_cast<const char*>(memory) + (offset - start));
        return mapped;
    }
    ~MappedValues() { ::munmap(memory_, length_); }
    const double* values() const { return values_; }
    std::uint64_t bytes() const { return length_; }

private:
    MappedValues() = default;
    void* memory_ = nullptr;
    std::uint64_t length_ = 0;
    const double* values_ = nullptr;
};

std::uint64_t effective_memory_limit(std::uint64_t requested) {
    return requested > 0 ? requested : available_memory_bytes() / 4 * 3;
}

// The lazy store: blocks of BlockValues values, read on first use, least
// recently used evicted first once the cache holds `capacity` blocks.
class StackTable::LazyValues {
public:
    LazyValues(Handle file, Handle dataset, std::string path, const Geometry& geometry, std::uint64_t memory_limit)
        : file_(std::move(file)), dataset_(std::move(dataset)), path_(std::move(path)), geometry_(geometry),
          capacity_(std::max<std::uint64_t>(1, memory_limit / (BlockValues * sizeof(double)))) {}

    double value(BoardId id) {
        const std::lock_guard<std::mutex> lock(mutex_);
        const std::uint64_t block = id / BlockValues;
        auto found = blocks_.find(block);
        if (found == blocks_.end())
            found = load(block);
        else
            recency_.splice(recency_.begin(), recency_, found->second.position);
        return found->second.values[id % BlockValues];
    }

    std::uint64_t memory_bytes() {
        const std::lock_guard<std::mutex> lock(mutex_);
        return blocks_.size() * BlockValues * sizeof(double);
    }

private:
    struct Block {
        std::vector<double> values;
        std::list<std::uint64_t>::iterator position;  // in recency_
    };

    std::unordered_map<std::uint64_t, Block>::iterator load(std::uint64_t block) {
        if (blocks_.size() >= capacity_) {
            blocks_.erase(recency_.back());
            recency_.pop_back();
        }
        const BoardId first = block * BlockValues;
        const std::uint64_t count = std::min(BlockValues, geometry_.states() - first);
        std::vector<double> values(count);
        read_values(dataset_, path_, first, count, values.data());
        check_values(values.data(), count, first, geometry_, path_);
        recency_.push_front(block);
        return blocks_.emplace(block, Block{std::move(values), recency_.begin()}).first;
    }

    std::mutex mutex_;
    Handle file_, dataset_;
    std::string path_;
    Geometry geometry_;
    std::uint64_t capacity_;
    std::unordered_map<std::uint64_t, Block> blocks_;
    std::list<std::uint64_t> recency_;  // most recently used first
};

StackTable::StackTable(std::string path, TableInfo info)
    : path_(std::move(path)), info_(std::move(info)), geometry_(info_.width, info_.height) {}

StackTable::StackTable(StackTable&&) noexcept = default;
StackTable& StackTable::operator=(StackTable&&) noexcept = default;
StackTable::~StackTable() = default;

StackTable StackTable::open(const std::string& path, const TableOpenOptions& options) {
    Handle file = open_file(path);
    StackTable table(path, read_table_info(file, path));
    Handle dataset = open_values(file, path, table.info_.states);
    const std::uint64_t limit = effective_memory_limit(options.memory_limit);
    const std::uint64_t bytes = table.info_.states * sizeof(double);
    const bool resident = options.residency == Residency::Resident
                          || (options.residency == Residency::Automatic && bytes <= limit);
    if (resident) {
        table.mapped_ = MappedValues::map(dataset, path, table.info_.states);
        if (table.mapped_) {
            table.resident_values_ = table.mapped_->values();
        } else {
            table.values_.resize(table.info_.states);
            read_values(dataset, path, 0, table.info_.states, table.values_.data());
            table.resident_values_ = table.values_.data();
        }
        check_values(table.resident_values_, table.info_.states, 0, table.geometry_, path);
    } else {
        table.lazy_ = std::make_unique<LazyValues>(std::move(file), std::move(dataset), path, table.geometry_, limit);
    }
    return table;
}

StackTable StackTable::in_memory(const Geometry& geometry, HugeVector<double> values) {
    if (values.size() != geometry.states())
        throw std::invalid_argument("in_memory: the values do not cover the well's (H+1)^W boards");
    TableInfo info;
    info.width = geometry.width();
    info.height = geometry.height();
    info.states = geometry.states();
    info.schedule = "in memory";
    info.pieces = orientation_table_text();
    info.generator = "in memory";
    StackTable table("(in memory)", std::move(info));
    table.values_ = std::move(values);
    table.resident_values_ = table.values_.data();
    return table;
}

std::uint64_t StackTable::memory_bytes() const {
    if (!resident_values_)
        return lazy_->memory_bytes();
    return mapped_ ? geometry_.states() * sizeof(double) : values_.size() * sizeof(double);
}

double StackTable::lazy_value(BoardId id) const { return lazy_->value(id); }

}  // namespace stack
