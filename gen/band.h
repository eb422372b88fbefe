// The band: the rounds a rank holds in memory.
//
// A placement of a piece of k cells puts c of them in column 0 (c = 0..k),
// so it leads from a row of sum S to one of sum S + k - c: with k at most K
// (the set's most cells, 4 for the tetrominoes), round S reads only rounds
// S..S+K (a one-column orientation at column 0, c = k, stays in round S
// itself, which is why the kernel finishes a row from the top), and once
// round S is finished, round S+K can go. A rank keeps
// each round's rows in local order (partition.h) in one array: a row is the
// round's stored column-0 heights (all H+1, or those of the computed residue
// classes, table_format.h), and slice_start locates each chunk's slice.
#pragma once

#include "support/huge_pages.h"
#include "partition.h"
#include "slice_starts.h"
#include "rules/rules.h"
#include "table/table_format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stack {

// A round's values: anonymous memory on 2 MB pages (HugeVector), or, spilled
// (stackgen --spill DIR), a shared mapping of a file made in DIR and
// unlinked at once, so nothing is left behind even by a crash. The kernel's
// page cache then holds what memory allows of the spilled rounds, writes
// their pages back and drops them under pressure, and reads them back when
// touched. The file's blocks are reserved when it is made (posix_fallocate):
// a full disk is one error then, not a SIGBUS in the middle of a round.
// Sized once, exactly (reserve), like the anonymous array it replaces;
// resize only moves the end within it.
class RoundArray {
public:
    RoundArray() = default;
    // An empty array that will map its memory from a file in `spill`
    // (empty: anonymous memory).
    explicit RoundArray(std::string spill) : spill_(std::move(spill)) {}
    RoundArray(RoundArray&& other) noexcept { swap(other); }
    RoundArray& operator=(RoundArray&& other) noexcept {
        RoundArray moved(std::move(other));
        swap(moved);
        return *this;
    }
    RoundArray(const RoundArray&) = delete;
    RoundArray& operator=(const RoundArray&) = delete;
    ~RoundArray() { release(); }

    double* data() { return spilled() ? mapped_ : memory_.data(); }
    const double* data() const { return spilled() ? mapped_ : memory_.data(); }
    std::size_t size() const { return spilled() ? mapped_size_ : memory_.size(); }
    std::size_t capacity() const { return spilled() ? mapped_capacity_ : memory_.capacity(); }
    // Room for `words` values of 8 bytes: the array is freed first when it
    // is smaller (its contents are dead), then made of exactly that size.
    void reserve(std::size_t words);
    void resize(std::size_t words);
    bool spilled() const { return !spill_.empty(); }
    const std::string& spill() const { return spill_; }

private:
    void release();
    void swap(RoundArray& other) noexcept {
        spill_.swap(other.spill_);
        memory_.swap(other.memory_);
        std::swap(mapped_, other.mapped_);
        std::swap(mapped_size_, other.mapped_size_);
        std::swap(mapped_capacity_, other.mapped_capacity_);
    }
    std::string spill_;
    HugeVector<double> memory_;
    double* mapped_ = nullptr;
    std::size_t mapped_size_ = 0, mapped_capacity_ = 0;
};

// In a mirrored layout (table_format.h) a row of top t (its column W-1)
// holds row_length(S, t) values; a slice's rows share their chunk's top,
// and the owned chunks come grouped by top (partition.h), so a slice's
// first value is its top group's first value plus the rows before it in
// the group times that length (slice_value). In a full layout every row
// holds row_length values, whatever the top.
struct RoundStore {
    int sum = -1;
    int row_length = 0;                      // values in a full row (the longest)
    int value_size = sizeof(double);         // bytes a value: 8, or 4 in a float32 band
    SliceStarts slice_start;                 // [owned chunk] -> its slice's first row; [owned_chunks] -> rows
    RoundArray values;                       // storage: [slice_value + row * length(top) + index in row], of value_size
                                             // bytes
    std::vector<std::uint64_t> top_rows;     // [t], t = 0..H+1: the first row of the owned chunks of top t or more
    std::vector<std::uint64_t> top_values;   // [t]: their first value
    std::vector<int> top_length;             // [t], t <= H: values in a row of top t

    // Lays out round `sum` for this rank, in the arrays of `reused` (a
    // closed round's, or empty; their contents are overwritten before they
    // are read), its slice starts summed on `threads` threads.
    RoundStore(const Partition& partition, const RoundLayout& layout, int sum, int value_size, RoundStore reused,
               int threads = 1);
    RoundStore() = default;

    std::uint64_t rows() const { return slice_start.rows(); }
    std::uint64_t value_count() const { return top_values.back(); }
    // Values in each row of a slice of top `top`, and the slice's first
    // value (`chunk` owned, `top` its chunk's top).
    int length(int top) const { return top_length[std::size_t(top)]; }
    std::uint64_t slice_value(std::uint64_t chunk, int top) const {
        return top_values[std::size_t(top)]
               + (slice_start[chunk] - top_rows[std::size_t(top)]) * std::uint64_t(top_length[std::size_t(top)]);
    }
    // A row's first value: row `row` of the slice of `chunk`.
    std::uint64_t row_value(std::uint64_t chunk, int top, std::uint64_t row) const {
        return slice_value(chunk, top) + row * std::uint64_t(top_length[std::size_t(top)]);
    }
    template <class Value>
    Value* at_as(std::uint64_t value) {
        return reinterpret_cast<Value*>(values.data()) + value;
    }
    template <class Value>
    const Value* at_as(std::uint64_t value) const {
        return reinterpret_cast<const Value*>(values.data()) + value;
    }
    const char* bytes_at(std::uint64_t value) const {
        return reinterpret_cast<const char*>(values.data()) + value * std::uint64_t(value_size);
    }
    // Value number `value` of the round, whatever the band's type.
    double value_at(std::uint64_t value) const {
        return value_size == sizeof(float) ? double(at_as<float>(value)[0]) : at_as<double>(value)[0];
    }
    std::uint64_t bytes() const {
        return values.capacity() * sizeof(double) + slice_start.bytes()
               + (top_rows.capacity() + top_values.capacity()) * sizeof(std::uint64_t);
    }
};

// The band at its largest: the K+1 consecutive rounds S..S+K (fewer at the
// top of the table) whose arrays together take the most bytes, as
// Band::bytes counts them while round S computes.
struct BandPeak {
    int first_sum = 0;                       // S: the rounds first_sum..first_sum + round_bytes.size() - 1
    std::vector<std::uint64_t> round_bytes;  // [sum - first_sum]: a round's values, as allocated
    std::uint64_t values_bytes = 0;          // their sum
    std::uint64_t slice_bytes = 0;           // their slice starts and top tables
    std::uint64_t bytes() const { return values_bytes + slice_bytes; }
};

// The rounds in memory, by row sum. Each round's values are sized for that
// round: a round opened reuses a closed round's array when it is large
// enough and the spare room it brings keeps every band it will be part of
// within the band's peak (peak()); otherwise that array is freed first and
// one of exactly the round's size allocated (never grown and copied: its
// old contents are dead). The peak is then the largest K+1 consecutive
// rounds, where arrays sized for the largest round once took K+1 times
// that round: 9x18 class 0, float32 band, 22.4 GB of values against 25.1
// GB. Rounds alternate in size with the row sum's residue (a class-0 row
// of 9x18 holds 5 or 4 values), so a closed round's array is often larger
// than the next round needs; reused whenever it is large enough, the
// arrays would hold 23.8 GB there. A reused array costs nothing; a fresh
// one is zeroed by the kernel as it is first touched (0.12 ns a byte on
// this project's 2-core machine, 2.3 ns the first time the virtual machine
// itself touches the memory).
class Band {
public:
    // `most_rounds`: the rounds held at once, K+1 (most_rounds(rules)).
    // `value_size`: 8 (float64, the default) or 4 (a float32 band: each
    // value rounded to float32 as it is stored, and read back widened).
    // `threads` lay out each round opened.
    // `spill`: a directory for the rounds' values (RoundArray), empty to
    // hold them in memory.
    Band(const Partition& partition, const RoundLayout& layout, int most_rounds, int value_size = sizeof(double),
         int threads = 1, std::string spill = {});
    int value_size() const { return value_size_; }
    // The most rounds held at once: S..S+K while S computes.
    static int most_rounds(const Rules& rules) { return rules.most_cells() + 1; }
    // Values in each of this rank's rounds, [sum] -> values, from the
    // partition alone: exact for a partition that lists its chunks; for a
    // counting partition (--plan) with a mirrored layout, the rank's share
    // of each round's rows times the round's values, with a margin of a
    // percent and a full slice's rows on several ranks.
    static std::vector<std::uint64_t> round_values(const Partition& partition, const RoundLayout& layout);
    // The largest of them.
    static std::uint64_t largest_round_values(const Partition& partition, const RoundLayout& layout);
    // Bytes the array of a round of `values` values takes: whole 8-byte words.
    static std::uint64_t values_bytes(std::uint64_t values, int value_size) {
        return (values * std::uint64_t(value_size) + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    }
    // Bytes a round's slice starts and top tables take, whatever its size.
    static std::uint64_t slice_bytes(const Partition& partition);
    // The band at its largest, from the rounds' values: the most bytes any
    // K+1 consecutive rounds take (most_rounds = K+1), and which.
    static BandPeak peak(const Partition& partition, const std::vector<std::uint64_t>& round_values, int most_rounds,
                         int value_size);
    // This band's, which bytes() reaches and never passes when the rounds
    // are opened from the top down and each closed after K more.
    const BandPeak& peak() const { return peak_; }

    // Lays out round `sum` (it must not be held yet).
    RoundStore& open(int sum);
    // Frees round `sum` (a no-op when not held).
    void close(int sum);
    bool holds(int sum) const { return sum >= 0 && sum < int(rounds_.size()) && rounds_[sum].sum == sum; }
    RoundStore& operator[](int sum) { return rounds_[sum]; }
    const RoundStore& operator[](int sum) const { return rounds_[sum]; }
    // Held by open rounds and spare arrays.
    std::uint64_t bytes() const;

private:
    // Whether round `sum`, in an array of `capacity` bytes of values, keeps
    // every band it will be part of within the peak.
    bool fits_peak(int sum, std::uint64_t capacity) const;

    const Partition& partition_;
    const RoundLayout& layout_;
    std::vector<RoundStore> rounds_;          // [sum]; sum == -1 when not held
    std::vector<RoundStore> spare_;           // closed rounds, their arrays to reuse
    std::vector<std::uint64_t> round_bytes_;  // [sum]: values_bytes of each round
    BandPeak peak_;
    int most_rounds_ = 1;
    int value_size_ = sizeof(double);
    int threads_ = 1;
    std::string spill_;
};

}  // namespace stack
