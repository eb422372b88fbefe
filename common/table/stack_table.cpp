#include "table/stack_table.h"

#include "support/cli.h"
#include "support/errors.h"
#include "table/hdf5_handle.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <algorithm>
#include <bit>
#include <cstring>
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

// A one-dimensional dataset of `length` elements whose type class and size
// are checked; `what` describes the expected type.
Handle open_vector(hid_t file, const std::string& path, const char* name, std::uint64_t length, H5T_class_t type_class,
                   std::size_t type_size, const std::string& what) {
    const std::string label = std::string("/") + name;
    if (H5Lexists(file, name, H5P_DEFAULT) <= 0)
        throw InputError("'" + path + "' is not a stacking table: dataset " + label + " is missing");
    try {
        Handle dataset = dataset_handle(H5Dopen2(file, name, H5P_DEFAULT), "open " + label);
        Handle type = datatype_handle(H5Dget_type(dataset), "read the type of " + label);
        if (H5Tget_class(type) != type_class || H5Tget_size(type) != type_size)
            throw InputError("'" + path + "': " + label + " does not hold " + what + " values");
        Handle space = dataspace_handle(H5Dget_space(dataset), "read the shape of " + label);
        hsize_t found = 0;
        if (H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, &found, nullptr) != 1
            || found != length)
            throw InputError("'" + path + "': " + label + " does not hold " + with_commas(length)
                             + " values in one dimension");
        return dataset;
    } catch (const Hdf5Error& failure) {
        throw InputError("'" + path + "' is damaged: " + failure.what());
    }
}

// Reads elements [first, first + count) of a one-dimensional dataset as
// `memory_type` into `out`.
void read_range(hid_t dataset, const std::string& path, hid_t memory_type, std::uint64_t first, std::uint64_t count,
                void* out) {
    try {
        Handle file_space = dataspace_handle(H5Dget_space(dataset), "read the shape");
        const hsize_t start = first, length = count;
        check_hdf5(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, nullptr, &length, nullptr), "select");
        Handle memory_space = dataspace_handle(H5Screate_simple(1, &length, nullptr), "create memory space");
        check_hdf5(H5Dread(dataset, memory_type, memory_space, file_space, H5P_DEFAULT, out), "read /values");
    } catch (const Hdf5Error& failure) {
        throw InputError("'" + path + "' is damaged: " + failure.what());
    }
}

std::string damaged_block(const std::string& path, const RoundLayout& layout, std::uint64_t index) {
    const RoundLayout::Block block = layout.block(index);
    return "'" + path + "' is damaged: values " + std::to_string(block.first) + ".." +
           std::to_string(block.first + block.count - 1) + " (block " + std::to_string(index)
           + ") do not match their checksum";
}

// A version-2 table's round offsets must be those its shape and classes
// give: the layout is a function of them.
void check_round_offsets(hid_t file, const std::string& path, const RoundLayout& layout) {
    Handle dataset = open_vector(file, path, RoundOffsetsDataset, layout.offsets().size(), H5T_INTEGER, 8,
                                 "uint64");
    std::vector<std::uint64_t> offsets(layout.offsets().size());
    read_range(dataset, path, H5T_NATIVE_UINT64, 0, offsets.size(), offsets.data());
    if (offsets != layout.offsets())
        throw InputError("'" + path + "': /round_offsets disagrees with its width, height and residue classes");
}

}  // namespace

std::uint64_t effective_memory_limit(std::uint64_t requested) {
    return requested > 0 ? requested : available_memory_bytes() / 4 * 3;
}

// A read-only mapping of the part of a file that holds a contiguous,
// unfiltered dataset: resident values without a copy. HDF5 stores such a
// dataset's bytes verbatim at H5Dget_offset, little-endian.
class StackTable::MappedValues {
public:
    // Null when the dataset is not stored contiguously, or the file is
    // shorter than the dataset claims (a truncated file: reading it through
    // HDF5 then reports the damage).
    static std::unique_ptr<MappedValues> map(hid_t dataset, const std::string& path, std::uint64_t bytes) {
        if constexpr (std::endian::native != std::endian::little)
            return nullptr;
        const haddr_t offset = H5Dget_offset(dataset);
        if (offset == HADDR_UNDEF || bytes == 0)
            return nullptr;
        const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (descriptor < 0)
            return nullptr;
        struct stat status {};
        const std::uint64_t page = std::uint64_t(sysconf(_SC_PAGESIZE));
        const std::uint64_t start = offset / page * page;
        void* memory = MAP_FAILED;
        if (::fstat(descriptor, &status) == 0 && std::uint64_t(status.st_size) >= offset + bytes && offset % 8 == 0)
            memory = ::mmap(nullptr, offset + bytes - start, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor,
                            off_t(start));
        ::close(descriptor);
        if (memory == MAP_FAILED)
            return nullptr;
        auto mapped = std::unique_ptr<MappedValues>(new MappedValues);
        mapped->memory_ = memory;
        mapped->length_ = offset + bytes - start;
        mapped->values_ = static_cast<const char*>(memory) + (offset - start);
        return mapped;
    }
    ~MappedValues() { ::munmap(memory_, length_); }
    const void* values() const { return values_; }

private:
    MappedValues() = default;
    void* memory_ = nullptr;
    std::uint64_t length_ = 0;
    const void* values_ = nullptr;
};

namespace {

// Converts `count` stored values to double and checks that each is a
// number of pieces a game can place; `board_at(i)` names the board of the
// i-th for the message.
template <class BoardAt>
void convert_and_check(const void* stored, Precision precision, std::uint64_t count, double* out,
                       const Geometry& geometry, const std::string& path, BoardAt&& board_at) {
    const double largest = largest_possible_value(geometry);
    bool all_good = true;
    for (std::uint64_t i = 0; i < count; ++i) {
        const double value = precision == Precision::Float64 ? static_cast<const double*>(stored)[i]
                                                             : double(static_cast<const float*>(stored)[i]);
        if (out)
            out[i] = value;
        all_good &= value >= 0.0 && value <= largest;  // false for NaN
    }
    if (all_good)
        return;
    for (std::uint64_t i = 0; i < count; ++i) {
        const double value = precision == Precision::Float64 ? static_cast<const double*>(stored)[i]
                                                             : double(static_cast<const float*>(stored)[i]);
        if (!(value >= 0.0 && value <= largest)) {
            const BoardId id = board_at(i);
            throw InputError("'" + path + "': the value of board " + geometry.format_heights(geometry.decode(id))
                             + " (id " + std::to_string(id) + ") is " + std::to_string(value)
                             + ", not a number of pieces in [0, " + fixed(largest, 0) + "]");
        }
    }
}

// Every block of a resident version-2 table against its checksum.
void check_blocks(const char* stored, const RoundLayout& layout, const std::vector<std::uint32_t>& checksums,
                  std::size_t value_size, const std::string& path) {
    for (std::uint64_t index = 0; index < layout.checksum_blocks(); ++index) {
        const RoundLayout::Block block = layout.block(index);
        if (crc32_of(stored + block.first * value_size, block.count * value_size) != checksums[index])
            throw InputError(damaged_block(path, layout, index));
    }
}

}  // namespace

// The lazy store: blocks of BlockValues values by position in /values,
// read on first use (straight from the file when the dataset is contiguous,
// else through HDF5), converted to double and checked, least recently used
// evicted first once the cache holds `capacity` blocks.
class StackTable::LazyValues {
public:
    // Keeps its own copies of what it needs: the table object may move.
    LazyValues(Handle file, Handle dataset, const StackTable& table, std::uint64_t memory_limit)
        : file_(std::move(file)), dataset_(std::move(dataset)), path_(table.path()), geometry_(table.geometry()),
          layout_(table.layout_), precision_(table.info().precision), stored_states_(table.info().stored_states),
          checksums_(table.checksums_),
          capacity_(std::max<std::uint64_t>(1, memory_limit / (BlockValues * sizeof(double)))) {
        const haddr_t offset = H5Dget_offset(dataset_);
        if (offset != HADDR_UNDEF && std::endian::native == std::endian::little) {
            descriptor_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
            data_offset_ = offset;
        }
    }
    ~LazyValues() {
        if (descriptor_ >= 0)
            ::close(descriptor_);
    }

    double value(std::uint64_t position) {
        const std::lock_guard<std::mutex> lock(mutex_);
        // Version 2: the checksummed block holding the position (blocks
        // start at each round); version 1: blocks from position 0.
        const RoundLayout::Block block = layout_ ? layout_->block_at(position)
                                                 : RoundLayout::Block{position / BlockValues, position / BlockValues * BlockValues,
                                                                      std::min(BlockValues, stored_states_ - position / BlockValues * BlockValues)};
        auto found = blocks_.find(block.index);
        if (found == blocks_.end())
            found = load(block);
        else
            recency_.splice(recency_.begin(), recency_, found->second.position);
        return found->second.values[position - block.first];
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

    std::unordered_map<std::uint64_t, Block>::iterator load(const RoundLayout::Block& block) {
        if (blocks_.size() >= capacity_) {
            blocks_.erase(recency_.back());
            recency_.pop_back();
        }
        const std::uint64_t first = block.first, count = block.count;
        const std::size_t size = value_bytes(precision_);
        std::vector<char> raw(count * size);
        if (descriptor_ >= 0) {
            const ssize_t read = ::pread(descriptor_, raw.data(), raw.size(), off_t(data_offset_ + first * size));
            if (read != ssize_t(raw.size()))
                throw InputError("'" + path_ + "' is damaged: values " + std::to_string(first) + ".."
                                 + std::to_string(first + count - 1) + " lie past its end");
        } else {
            read_range(dataset_, path_, precision_ == Precision::Float64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT, first,
                       count, raw.data());
        }
        if (layout_ && crc32_of(raw.data(), raw.size()) != checksums_[block.index])
            throw InputError(damaged_block(path_, *layout_, block.index));
        std::vector<double> values(count);
        convert_and_check(raw.data(), precision_, count, values.data(), geometry_, path_,
                          [&](std::uint64_t i) { return board_at(first + i); });
        recency_.push_front(block.index);
        return blocks_.emplace(block.index, Block{std::move(values), recency_.begin()}).first;
    }

    BoardId board_at(std::uint64_t position) const {
        return layout_ ? geometry_.encode(layout_->board_at(position)) : position;
    }

    std::mutex mutex_;
    Handle file_, dataset_;
    std::string path_;
    Geometry geometry_;
    std::optional<RoundLayout> layout_;
    Precision precision_;
    std::uint64_t stored_states_;
    std::vector<std::uint32_t> checksums_;
    int descriptor_ = -1;
    std::uint64_t data_offset_ = 0;
    std::uint64_t capacity_;
    std::unordered_map<std::uint64_t, Block> blocks_;
    std::list<std::uint64_t> recency_;  // most recently used first
};

StackTable::StackTable(std::string path, TableInfo info)
    : path_(std::move(path)), info_(std::move(info)), geometry_(info_.width, info_.height) {
    if (info_.format_version >= 2)
        layout_.emplace(geometry_, info_.residues);
    held_precision_ = info_.precision;
}

StackTable::StackTable(StackTable&&) noexcept = default;
StackTable& StackTable::operator=(StackTable&&) noexcept = default;
StackTable::~StackTable() = default;

// libhdf5 1.10 trusts the metadata it parses: tests/fuzz/fuzz_table found
// damaged files on which it loops forever (in the global heap, reading a
// string attribute), reads freed memory, or corrupts its heap, before any
// check of ours can run. So a table is first opened in a child process: it
// reads every attribute, the shapes, the round offsets, the checksums and
// the first and last value, lazily, then closes everything and frees
// libhdf5's memory (where glibc's heap checks catch most corruption), and
// reports through a pipe. A file the child refused is refused here with the
// child's message, without touching it; a child that hung (past
// metadata_seconds()) or crashed means a damaged file. Only a file the child
// read cleanly is opened here.
namespace {

// The child's time limit: 20 s, or STACK_METADATA_SECONDS (the fuzzer
// uses 2).
int metadata_seconds() {
    const char* text = std::getenv("STACK_METADATA_SECONDS");
    return text && *text ? parse_int_option("STACK_METADATA_SECONDS", text, 1, 86400) : 20;
}

[[noreturn]] void leave_child_on_signal(int) { ::_exit(86); }

// Child exit codes: 0 read cleanly, 2 refused (the message follows on the
// pipe), 86 a crash.
[[noreturn]] void read_metadata_in_child(const std::string& path, int report) {
    for (int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        std::signal(signal_number, leave_child_on_signal);
    // What libhdf5 or a sanitizer prints about a damaged file is not the
    // user's business: the refusal is one line from the parent. The fuzzer
    // keeps it (STACK_METADATA_CHILD_STDERR=1) to tell libhdf5's failures
    // from ours.
    const char* keep = std::getenv("STACK_METADATA_CHILD_STDERR");
    if (!keep || std::string(keep) != "1")
        if (const int null = ::open("/dev/null", O_WRONLY); null >= 0)
            ::dup2(null, STDERR_FILENO), ::close(null);
    std::string refusal;
    try {
        {
            const StackTable table = StackTable::open_unchecked(path, {Residency::Lazy, 1 << 20});
            if (table.info().stored_states > 0) {
                table.value_at(0);
                table.value_at(table.info().stored_states - 1);
            }
        }
        H5garbage_collect();
        H5close();
    } catch (const InputError& error) {
        refusal = error.what();
    } catch (const std::exception& error) {
        refusal = "'" + path + "' is damaged: " + error.what();
    }
    if (!refusal.empty()) {
        const ssize_t written = ::write(report, refusal.data(), std::min<std::size_t>(refusal.size(), 4096));
        (void)written;
        ::_exit(2);
    }
    ::_exit(0);
}

void check_metadata_in_child(const std::string& path) {
    const int seconds = metadata_seconds();
    int report[2];
    if (::pipe(report) != 0)
        return;  // cannot isolate: open it here, unguarded
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child < 0) {
        ::close(report[0]), ::close(report[1]);
        return;
    }
    if (child == 0) {
        ::close(report[0]);
        read_metadata_in_child(path, report[1]);
    }
    ::close(report[1]);
    int status = 0;
    for (int waited_ms = 0;; waited_ms += 2) {
        const pid_t done = ::waitpid(child, &status, WNOHANG);
        if (done == child)
            break;
        if (done < 0) {
            ::close(report[0]);
            return;
        }
        if (waited_ms >= seconds * 1000) {
            ::kill(child, SIGKILL);
            ::waitpid(child, &status, 0);
            ::close(report[0]);
            throw InputError("'" + path + "' is damaged: reading its HDF5 metadata did not finish in "
                             + std::to_string(seconds) + " s");
        }
        ::usleep(2000);
    }
    std::string message(4096, '\0');
    const ssize_t length = ::read(report[0], message.data(), message.size());
    ::close(report[0]);
    message.resize(length > 0 ? std::size_t(length) : 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 2 && !message.empty())
        throw InputError(message);
    throw InputError("'" + path + "' is damaged: HDF5 failed reading its metadata ("
                     + (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                            : "exit " + std::to_string(WEXITSTATUS(status)))
                     + ")");
}

}  // namespace

StackTable StackTable::open(const std::string& path, const TableOpenOptions& options) {
    check_metadata_in_child(path);
    return open_unchecked(path, options);
}

StackTable StackTable::open_unchecked(const std::string& path, const TableOpenOptions& options) {
    Handle file = open_file(path);
    StackTable table(path, read_table_info(file, path));
    const TableInfo& info = table.info_;
    if (table.layout_) {
        const RoundLayout& layout = *table.layout_;
        if (info.stored_states != layout.stored_states())
            throw InputError("'" + path + "': its stored_states attribute (" + std::to_string(info.stored_states)
                             + ") disagrees with its width, height and residue classes");
        check_round_offsets(file, path, layout);
        if (info.rounds_done != layout.rounds())
            throw InputError("'" + path + "' is unfinished: " + std::to_string(info.rounds_done) + " of "
                             + std::to_string(layout.rounds()) + " rounds are on disk (stackgen --resume continues it)");
        Handle checksums = open_vector(file, path, ChecksumsDataset, layout.checksum_blocks(), H5T_INTEGER, 4, "uint32");
        table.checksums_.resize(layout.checksum_blocks());
        read_range(checksums, path, H5T_NATIVE_UINT32, 0, table.checksums_.size(), table.checksums_.data());
    }
    const std::size_t size = value_bytes(info.precision);
    Handle dataset = open_vector(file, path, ValuesDataset, info.stored_states, H5T_FLOAT, size,
                                 precision_name(info.precision));
    const std::uint64_t limit = effective_memory_limit(options.memory_limit);
    const bool resident = options.residency == Residency::Resident
                          || (options.residency == Residency::Automatic && info.stored_states * size <= limit);
    const auto board_at = [&](std::uint64_t position) {
        return table.layout_ ? table.geometry_.encode(table.layout_->board_at(position)) : position;
    };
    if (resident) {
        table.mapped_ = MappedValues::map(dataset, path, info.stored_states * size);
        const void* stored = nullptr;
        if (table.mapped_) {
            stored = table.mapped_->values();
            if (table.layout_)
                check_blocks(static_cast<const char*>(stored), *table.layout_, table.checksums_, size, path);
            convert_and_check(stored, info.precision, info.stored_states, nullptr, table.geometry_, path, board_at);
        } else {  // not contiguous: read it all through HDF5, check it as stored, hold it as double
            std::vector<char> raw(info.stored_states * size);
            read_range(dataset, path, info.precision == Precision::Float64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT, 0,
                       info.stored_states, raw.data());
            if (table.layout_)
                check_blocks(raw.data(), *table.layout_, table.checksums_, size, path);
            table.values_.resize(info.stored_states);
            convert_and_check(raw.data(), info.precision, info.stored_states, table.values_.data(), table.geometry_,
                              path, board_at);
            stored = table.values_.data();
            table.held_precision_ = Precision::Float64;
        }
        table.resident_ = true;
        if (!table.layout_)
            table.dense_ = static_cast<const double*>(stored);
        else
            table.stored_ = stored;
    } else {
        table.lazy_ = std::make_unique<LazyValues>(std::move(file), std::move(dataset), table, limit);
    }
    return table;
}

StackTable StackTable::in_memory(const Geometry& geometry, HugeVector<double> values) {
    if (values.size() != geometry.states())
        throw std::invalid_argument("in_memory: the values do not cover the well's (H+1)^W boards");
    TableInfo info;
    info.format_version = 1;
    info.width = geometry.width();
    info.height = geometry.height();
    info.states = info.stored_states = geometry.states();
    info.schedule = "in memory";
    info.pieces = orientation_table_text();
    info.generator = "in memory";
    StackTable table("(in memory)", std::move(info));
    table.values_ = std::move(values);
    table.dense_ = table.values_.data();
    table.resident_ = true;
    return table;
}

std::uint64_t StackTable::memory_bytes() const {
    if (!resident_)
        return lazy_->memory_bytes();
    return info_.stored_states * value_bytes(held_precision_);
}

double StackTable::value_elsewhere(BoardId id) const { return value_at(position_of(id)); }

double StackTable::value_at(std::uint64_t position) const {
    if (dense_)
        return dense_[position];
    if (stored_)
        return held_precision_ == Precision::Float64 ? static_cast<const double*>(stored_)[position]
                                                     : double(static_cast<const float*>(stored_)[position]);
    return lazy_->value(position);
}

}  // namespace stack
