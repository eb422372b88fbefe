// The value-lookup interface: the one way every reader (stackplay, the
// tools, the tests) gets a value out of a table. A table opened from a file
// answers two questions, "does the table hold this board?" and "what is the
// value of this board?"; how the values are laid out in the file (version 1:
// id order; version 2: by round and residue class, float64 or float32,
// table_format.h) and whether they sit in memory is its own business.
//
// Residency:
//   resident  all values are in memory once the table is open (mapped
//             straight from the file when it stores them contiguously, so
//             they come from the page cache without a copy). For a version-1
//             table value() is one array load, inlined into the caller's
//             loop (no virtual call); a version-2 table adds the O(W) codec.
//   lazy      values are read on first use in blocks of BlockValues (by
//             position in the file) and kept in a cache bounded by the
//             memory limit, least recently used out first. --show and
//             --explain open tables this way, so they answer at once on a
//             table of any size; a table larger than the memory limit is
//             played this way. Lookups take a lock, so they are slower but
//             safe from the player's threads.
// Every value read is checked: a version-2 table's blocks against their
// CRC-32 (all of them when it opens resident, each as it is read when lazy),
// and every value for NaN, infinities, negatives and values above W*H / the
// cells of the set's smallest piece (more pieces than fit:
// largest_possible_value, table_format.h); a failure is an InputError naming the block or the
// board, as are files that are damaged, unfinished or not tables at all.
#pragma once

#include "rules/board.h"
#include "rules/rules.h"
#include "support/huge_pages.h"
#include "table/hdf5_handle.h"
#include "table/table_format.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stack {

class BlockCache;

enum class Residency : std::uint8_t { Automatic, Resident, Lazy };

struct TableOpenOptions {
    Residency residency = Residency::Automatic;  // Automatic: resident when the values fit the memory limit
    std::uint64_t memory_limit = 0;              // bytes; 0: three quarters of the available memory
    // A resident version-2 table holding every class is copied into id
    // order when the copy fits the limit too: value(id) is then one load,
    // with no codec (stackplay's exact distribution looks up every
    // successor of millions of boards).
    bool id_order = false;
    int threads = 0;  // for the checks and the copy; 0: the bound cores (resolve_threads)
    // false: a mapped resident table's blocks are not checked against their
    // checksums, nor its values' range (a file this process has just written
    // and published: stackgen's sweeps reopen the last one for the next).
    bool check_values = true;
};

class StackTable {
public:
    // Values per lazily read block: a checksummed block (table_format.h),
    // so every block read is checked as it arrives.
    static constexpr std::uint64_t BlockValues = ChecksumValues;

    // Throws InputError naming the problem when the file is missing, not
    // a regular file, not HDF5, not a table, of another format version,
    // damaged (its values or its piece set against their checksums), claims
    // more values than it holds, or its values are out of range. Nothing is allocated from the file's claims before
    // they are checked against its size (table_file.h).
    // The file's metadata is read first in a child process with a time
    // limit (libhdf5 can hang or crash on damaged metadata,
    // metadata_guard.h), then here.
    static StackTable open(const std::string& path, const TableOpenOptions& options = {});
    // Without the child: for the child itself, and callers that made the file.
    static StackTable open_unchecked(const std::string& path, const TableOpenOptions& options = {});
    // A table held in memory, values in board-id order (tests and tools).
    static StackTable in_memory(const Geometry& geometry, HugeVector<double> values,
                                const Rules& rules = Rules::tetrominoes());

    StackTable(StackTable&&) noexcept;
    StackTable& operator=(StackTable&&) noexcept;
    ~StackTable();

    const TableInfo& info() const { return info_; }
    // The rules of the piece set the table was built with.
    const Rules& rules() const { return *rules_; }
    const Geometry& geometry() const { return geometry_; }
    const std::string& path() const { return path_; }
    // The version-2 codec, or null for a version-1 table.
    const RoundLayout* layout() const { return layout_ ? &*layout_ : nullptr; }
    bool resident() const { return resident_; }
    // Bytes of values held in memory now (all of them when resident).
    std::uint64_t memory_bytes() const;

    // Does the table store a value for this board?
    bool holds(BoardId id) const {
        return id < geometry_.states() && (!layout_ || info_.residues.holds_sum(geometry_.height_sum(id)));
    }
    // The board's value; requires holds(id).
    double value(BoardId id) const {
        if (dense_) [[likely]]
            return dense_[id];
        return value_elsewhere(id);
    }
    // The value at a position of /values (version 1: the board id), for
    // tools that walk the file in its own order.
    double value_at(std::uint64_t position) const {
        if (stored_ && held_precision_ == Precision::Float64) [[likely]]
            return static_cast<const double*>(stored_)[position];
        return value_held(position);
    }
    // A hint that value(id) will be asked soon: a resident version-1 table
    // starts loading its cache line (callers that look up many scattered
    // boards prefetch a batch, then read it).
    void prefetch(BoardId id) const {
        if (dense_)
            __builtin_prefetch(dense_ + id);
    }
    // Reading many scattered boards of a version-2 table in batches: the
    // position of each board's value from its heights (no id to decode; a
    // mirrored table's board is looked up as its canonical form),
    // a prefetch of it, then value_at(). In a table stored in id order
    // (version 1, in memory) the position is the id.
    bool id_ordered() const { return dense_ != nullptr; }
    std::uint64_t position_of(const Heights& heights) const {
        return layout_ ? layout_->position(layout_->canonical(heights)) : geometry_.encode(heights);
    }
    void prefetch_at(std::uint64_t position) const {
        if (dense_)
            __builtin_prefetch(dense_ + position);
        else if (stored_)
            __builtin_prefetch(static_cast<const char*>(stored_)
                               + position * (held_precision_ == Precision::Float64 ? sizeof(double) : sizeof(float)));
    }

private:
    class MappedValues;
    StackTable(std::string path, TableInfo info);
    void read_round_metadata(hid_t file);
    void hold_resident(hid_t dataset, int threads, bool check_values, bool check_blocks = true);
    void check_stored_values(int threads) const;
    void copy_to_id_order(int threads);
    void read_resident(hid_t dataset);
    double value_elsewhere(BoardId id) const;
    double value_held(std::uint64_t position) const;  // value_at() of float32 and lazy tables
    BoardId board_at(std::uint64_t position) const {
        return layout_ ? geometry_.encode(layout_->board_at(position)) : position;
    }
    std::uint64_t position_of(BoardId id) const {
        return layout_ ? layout_->position(layout_->canonical(geometry_.decode(id))) : id;
    }

    std::string path_;
    TableInfo info_;
    std::unique_ptr<Rules> rules_;
    Geometry geometry_;
    std::optional<RoundLayout> layout_;
    bool resident_ = false;
    const double* dense_ = nullptr;  // resident float64 values in id order (version 1, or id_order_)
    const void* stored_ = nullptr;   // resident values in file order (version 2), of held_precision_
    Precision held_precision_ = Precision::Float64;
    HugeVector<double> values_;             // values read into memory (in_memory, or a non-contiguous file)
    HugeVector<double> id_order_;           // a version-2 table's values copied into id order (id_order)
    std::unique_ptr<MappedValues> mapped_;  // or mapped from the file
    std::unique_ptr<BlockCache> lazy_;
    std::vector<std::uint32_t> checksums_;  // version 2: [block] -> CRC-32
};

// Why the table does not hold a board (holds() is false): the residue
// classes of the height sum it holds, modulo its set's modulus, and the
// board's height sum, in one line.
std::string not_held_message(const StackTable& table, BoardId id);

// The memory limit a table opened with `requested` bytes (0: automatic) is
// held to: three quarters of MemAvailable when not given.
std::uint64_t effective_memory_limit(std::uint64_t requested);

}  // namespace stack
