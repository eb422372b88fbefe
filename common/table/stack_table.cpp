#include "table/stack_table.h"

#include "rules/compositions.h"
#include "support/cli.h"
#include "support/errors.h"
#include "support/parallel.h"
#include "table/block_cache.h"
#include "table/metadata_guard.h"
#include "table/table_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <thread>

namespace stack {

std::string not_held_message(const StackTable& table, BoardId id) {
    const Geometry& geometry = table.geometry();
    return "the table holds the boards whose height sum mod " + std::to_string(table.rules().modulus()) + " is in {"
           + table.info().residues.text() + "}; board " + geometry.format_heights(geometry.decode(id))
           + " has height sum " + std::to_string(geometry.height_sum(id));
}

std::uint64_t effective_memory_limit(std::uint64_t requested) {
    return requested > 0 ? requested : available_memory_bytes() / 4 * 3;
}

// A read-only mapping of the part of a file that holds a contiguous,
// unfiltered dataset: resident values without a copy. HDF5 stores such a
// dataset's bytes verbatim at H5Dget_offset, little-endian.
class StackTable::MappedValues {
public:
    // Null when the dataset is not stored contiguously, is not aligned for
    // its values, or the file is shorter than the dataset claims.
    static std::unique_ptr<MappedValues> map(hid_t dataset, const std::string& path, std::uint64_t bytes) {
        if (!mappable(dataset))
            return nullptr;
        const haddr_t offset = H5Dget_offset(dataset);
        const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (descriptor < 0 || bytes == 0) {
            if (descriptor >= 0)
                ::close(descriptor);
            return nullptr;
        }
        struct stat status {};
        const std::uint64_t page = std::uint64_t(sysconf(_SC_PAGESIZE));
        const std::uint64_t start = offset / page * page;
        void* memory = MAP_FAILED;
        if (::fstat(descriptor, &status) == 0 && std::uint64_t(status.st_size) >= offset + bytes)
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
    static bool mappable(hid_t dataset) {
        const haddr_t offset = H5Dget_offset(dataset);
        return std::endian::native == std::endian::little && offset != HADDR_UNDEF && offset % 8 == 0;
    }
    ~MappedValues() { ::munmap(memory_, length_); }
    const void* values() const { return values_; }

private:
    MappedValues() = default;
    void* memory_ = nullptr;
    std::uint64_t length_ = 0;
    const void* values_ = nullptr;
};

StackTable::StackTable(std::string path, TableInfo info)
    : path_(std::move(path)), info_(std::move(info)), rules_(std::make_unique<Rules>(info_.pieces)),
      geometry_(info_.width, info_.height) {
    if (info_.format_version >= 2)
        layout_.emplace(geometry_, info_.residues, info_.mirrored);
    held_precision_ = info_.precision;
}

StackTable::StackTable(StackTable&&) noexcept = default;
StackTable& StackTable::operator=(StackTable&&) noexcept = default;
StackTable::~StackTable() = default;

namespace {

// What the metadata child does with a file (metadata_guard.h): open it
// lazily and read its first and last value.
void read_in_child(const std::string& path) {
    const StackTable table = StackTable::open_unchecked(path, {Residency::Lazy, 1 << 20});
    if (table.info().stored_states > 0) {
        table.value_at(0);
        table.value_at(table.info().stored_states - 1);
    }
}

// Values read per HDF5 call when a table is read into memory.
constexpr std::uint64_t ReadValues = std::uint64_t(1) << 20;

}  // namespace

StackTable StackTable::open(const std::string& path, const TableOpenOptions& options) {
    check_metadata_in_child(path, read_in_child);
    return open_unchecked(path, options);
}

StackTable StackTable::open_unchecked(const std::string& path, const TableOpenOptions& options) {
    std::uint64_t file_bytes = 0;
    Handle file = open_table_file(path, FileAccess::Read, &file_bytes);
    TableInfo info = read_table_info(file, path);
    check_stored_size(info, path, file_bytes);
    StackTable table(path, std::move(info));
    if (table.layout_)
        table.read_round_metadata(file);
    const TableInfo& stored = table.info_;
    const std::size_t size = value_bytes(stored.precision);
    Handle dataset =
        open_vector(file, path, ValuesDataset, stored.stored_states, H5T_FLOAT, size, precision_name(stored.precision));
    check_values_storage(dataset, path, stored.stored_states, size, file_bytes);
    const std::uint64_t limit = effective_memory_limit(options.memory_limit);
    const std::uint64_t held = stored.stored_states * (MappedValues::mappable(dataset) ? size : sizeof(double));
    const int threads = resolve_threads(options.threads);
    if (options.residency == Residency::Resident || (options.residency == Residency::Automatic && held <= limit)) {
        const bool copy = options.id_order && table.layout_ && stored.residues.all()
                          && held + table.geometry_.states() * sizeof(double) <= limit;
        table.hold_resident(dataset, threads, !copy, options.check_values);
        if (copy)
            table.copy_to_id_order(threads);
    } else
        table.lazy_ = std::make_unique<BlockCache>(std::move(file), std::move(dataset), path, table.info_,
                                                   table.layout_, table.checksums_, limit);
    return table;
}

// A version-2 table's layout must be the one its shape and classes give,
// and it must be finished.
void StackTable::read_round_metadata(hid_t file) {
    const RoundLayout& layout = *layout_;
    if (info_.stored_states != layout.stored_states())
        throw InputError("'" + path_ + "': its stored_states attribute (" + std::to_string(info_.stored_states)
                         + ") disagrees with its width, height and residue classes");
    check_round_offsets(file, path_, layout);
    if (info_.rounds_done != layout.rounds())
        throw InputError("'" + path_ + "' is unfinished: " + std::to_string(info_.rounds_done) + " of "
                         + std::to_string(layout.rounds()) + " rounds are on disk (stackgen --resume continues it)");
    checksums_ = read_checksums(file, path_, layout);
}

// Mapped from the file when it can be, else read in pieces straight into
// the float64 array; every block checked before it is used. The checks of
// a mapped table run on `threads`, each over a range of blocks, then of
// values: a damaged table names the same first bad block or value as on
// one thread (parallel_ranges rethrows the lowest range's error). A table
// about to be copied into id order has its values checked by the copy
// (`check_values` false), which reads each of them anyway; a table its
// caller has just written is checked not at all (`check_blocks` false).
void StackTable::hold_resident(hid_t dataset, int threads, bool check_values, bool check_blocks) {
    const std::uint64_t count = info_.stored_states;
    const std::size_t size = value_bytes(info_.precision);
    mapped_ = MappedValues::map(dataset, path_, count * size);
    if (mapped_) {
        const char* stored = static_cast<const char*>(mapped_->values());
        if (layout_ && check_blocks)
            parallel_ranges(threads, layout_->checksum_blocks(), [&](int, std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t index = begin; index < end; ++index) {
                    const RoundLayout::Block block = layout_->block(index);
                    if (crc32_of(stored + block.first * size, block.count * size) != checksums_[index])
                        throw InputError(damaged_block(path_, *layout_, index));
                }
            });
        if (check_values && check_blocks)
            check_stored_values(threads);
        stored_ = stored;
        if (!layout_)
            dense_ = static_cast<const double*>(stored_);
    } else {
        read_resident(dataset);
    }
    resident_ = true;
}

// Reads ReadValues values (whole checksummed blocks) at a time into a
// buffer, checks them, and converts them into values_: the memory held is
// the float64 array and one buffer, never a second copy of the table.
void StackTable::read_resident(hid_t dataset) {
    const std::uint64_t count = info_.stored_states;
    const std::size_t size = value_bytes(info_.precision);
    const hid_t memory_type = info_.precision == Precision::Float64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
    values_.resize(count);  // not zeroed: memory is touched only as values arrive
    std::vector<char> raw(std::min(count, ReadValues + ChecksumValues) * size);
    std::uint64_t block = 0;
    for (std::uint64_t first = 0; first < count;) {
        const std::uint64_t first_block = block;
        std::uint64_t end = first;
        if (layout_) {
            while (end < count && end - first < ReadValues) {
                const RoundLayout::Block next = layout_->block(block++);
                end = next.first + next.count;
            }
        } else {
            end = std::min(count, first + ReadValues);
        }
        read_range(dataset, path_, memory_type, first, end - first, raw.data());
        for (std::uint64_t index = first_block; index < block; ++index) {
            const RoundLayout::Block checked = layout_->block(index);
            if (crc32_of(raw.data() + (checked.first - first) * size, checked.count * size) != checksums_[index])
                throw InputError(damaged_block(path_, *layout_, index));
        }
        convert_and_check(raw.data(), info_.precision, end - first, values_.data() + first, info_, path_,
                          [&](std::uint64_t i) { return board_at(first + i); });
        first = end;
    }
    held_precision_ = Precision::Float64;
    stored_ = values_.data();
    if (!layout_)
        dense_ = values_.data();
}

StackTable StackTable::in_memory(const Geometry& geometry, HugeVector<double> values, const Rules& rules) {
    if (values.size() != geometry.states())
        throw std::invalid_argument("in_memory: the values do not cover the well's (H+1)^W boards");
    TableInfo info;
    info.format_version = 1;
    info.width = geometry.width();
    info.height = geometry.height();
    info.states = info.stored_states = geometry.states();
    info.schedule = "in memory";
    info.pieces = rules.set();
    info.residues = ResidueSet::all(rules.modulus());
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
    if (!id_order_.empty())
        return id_order_.size() * sizeof(double);
    return info_.stored_states * value_bytes(held_precision_);
}

// Every stored value a number of pieces a game can place, checked over
// the mapping on `threads`; throws InputError naming the first that is not.
void StackTable::check_stored_values(int threads) const {
    const char* stored = static_cast<const char*>(mapped_->values());
    const std::size_t size = value_bytes(info_.precision);
    parallel_ranges(threads, info_.stored_states, [&](int, std::uint64_t begin, std::uint64_t end) {
        convert_and_check(stored + begin * size, info_.precision, end - begin, nullptr, info_, path_,
                          [&](std::uint64_t i) { return board_at(begin + i); });
    });
}

double StackTable::value_elsewhere(BoardId id) const { return value_at(position_of(id)); }

double StackTable::value_held(std::uint64_t position) const {
    if (stored_)
        return held_precision_ == Precision::Float64 ? static_cast<const double*>(stored_)[position]
                                                     : double(static_cast<const float*>(stored_)[position]);
    if (dense_)  // version 1 in memory, or copied into id order
        return dense_[layout_ ? geometry_.encode(layout_->board_at(position)) : position];
    return lazy_->value(position);
}

// Each row of a version-2 file (a round's row: columns 1..W-1 fixed, its
// values one per h0 of the stored classes) is, with every class stored, a
// run of H+1 consecutive ids. Rows are split over the threads, each walking
// its rows in file order (CompositionCodec::next); then the mapping is let
// go, so the memory held stays one copy of the values.
//
// A mirrored file's rows are shorter (h0 <= h(W-1)), so the copy walks the
// rows of ids instead (columns 1..W-1 counted up as digits): a row's
// canonical values are one run of the file, and its other boards (h0 above
// the row's top) are copied from their mirror images, in id order by then.
void StackTable::copy_to_id_order(int threads) {
    const RoundLayout& layout = *layout_;
    const int width = geometry_.width(), length = geometry_.height() + 1;
    const CompositionCodec rows(width - 1, geometry_.height());
    const double largest = largest_possible_value(info_);
    std::vector<char> good(std::size_t(threads), 1);
    id_order_.resize(geometry_.states());
    const auto copy_file_rows = [&](int part, std::uint64_t begin, std::uint64_t end) {
        bool all_good = true;
        std::uint64_t position = begin * std::uint64_t(length);
        Heights heights = layout.board_at(position);
        heights[0] = 0;
        int sum = 0;
        for (int column = 1; column < width; ++column)
            sum += heights[column];
        for (std::uint64_t row = begin; row < end; ++row, position += std::uint64_t(length)) {
            const BoardId first = geometry_.encode(heights);
            const int* index = layout.row_indices(sum);
            for (int h0 = 0; h0 < length; ++h0) {
                const double value = value_at(position + std::uint64_t(index[h0]));
                id_order_[first + std::uint64_t(h0)] = value;
                all_good &= value >= 0.0 && value <= largest;  // false for NaN
            }
            if (!rows.next(heights.data() + 1))
                rows.first(++sum, heights.data() + 1);
        }
        good[std::size_t(part)] = all_good;
    };
    // A mirrored file: first each id row's canonical values (h0 <= top,
    // one run of the file), then the boards above the top from their mirror
    // images, copied already: the image of (h0, h1 .. h(W-1)) with h0 above
    // h(W-1) is canonical, at id `mirrored_base` + h0 (H+1)^(W-1), its base
    // the row's columns 1 .. W-1 reversed into columns W-2 .. 0.
    const std::uint64_t top_place = geometry_.place_value(width - 1);
    const auto copy_canonical = [&](int part, std::uint64_t begin, std::uint64_t end) {
        bool all_good = true;
        Heights heights = geometry_.decode(begin * std::uint64_t(length));
        for (std::uint64_t row = begin; row < end; ++row) {
            int sum = 0;
            for (int column = 1; column < width; ++column)
                sum += heights[column];
            const int top = heights[std::size_t(width) - 1];
            const std::uint64_t start = layout.row_position(sum, layout.row_rank(heights, sum), top);
            const int* index = layout.row_indices(sum);
            for (int h0 = 0; h0 <= top; ++h0) {
                const double value = value_at(start + std::uint64_t(index[h0]));
                id_order_[row * std::uint64_t(length) + std::uint64_t(h0)] = value;
                all_good &= value >= 0.0 && value <= largest;  // false for NaN
            }
            for (int column = 1; column < width && ++heights[std::size_t(column)] == length; ++column)
                heights[std::size_t(column)] = 0;
        }
        good[std::size_t(part)] = all_good;
    };
    const auto copy_mirrored = [&](int, std::uint64_t begin, std::uint64_t end) {
        Heights heights = geometry_.decode(begin * std::uint64_t(length));
        for (std::uint64_t row = begin; row < end; ++row) {
            BoardId mirrored_base = 0;
            for (int column = 1; column < width; ++column)
                mirrored_base += BoardId(heights[std::size_t(column)]) * geometry_.place_value(width - 1 - column);
            for (int h0 = heights[std::size_t(width) - 1] + 1; h0 < length; ++h0)
                id_order_[row * std::uint64_t(length) + std::uint64_t(h0)] =
                    id_order_[mirrored_base + std::uint64_t(h0) * top_place];
            for (int column = 1; column < width && ++heights[std::size_t(column)] == length; ++column)
                heights[std::size_t(column)] = 0;
        }
    };
    if (layout.mirrored()) {
        parallel_ranges(threads, geometry_.states() / std::uint64_t(length), copy_canonical);
        parallel_ranges(threads, geometry_.states() / std::uint64_t(length), copy_mirrored);
    } else {
        parallel_ranges(threads, layout.stored_states() / std::uint64_t(length), copy_file_rows);
    }
    if (mapped_ && std::find(good.begin(), good.end(), 0) != good.end())
        check_stored_values(threads);  // names the first bad value in file order (read values were checked)
    dense_ = id_order_.data();
    stored_ = nullptr;
    mapped_.reset();
    values_ = HugeVector<double>();
}

}  // namespace stack
