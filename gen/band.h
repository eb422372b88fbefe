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
#include "rules/rules.h"
#include "table/table_format.h"

#include <cstdint>
#include <vector>

namespace stack {

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
    std::vector<std::uint64_t> slice_start;  // [owned chunk] -> its slice's first row; [owned_chunks] -> rows
    HugeVector<double> values;               // storage: [slice_value + row * length(top) + index in row], of value_size
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

    std::uint64_t rows() const { return slice_start.back(); }
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
        return values.capacity() * sizeof(double) + slice_start.capacity() * sizeof(std::uint64_t)
               + (top_rows.capacity() + top_values.capacity()) * sizeof(std::uint64_t);
    }
};

// The rounds in memory, by row sum. The arrays of closed rounds are kept
// for the next rounds to reuse, each sized for the largest round at once:
// memory a process touches for the first time costs far more than memory
// it reuses (on this project's virtual machines, up to 2 ns a byte), and
// the band turns over the whole table.
class Band {
public:
    // `value_size`: 8 (float64, the default) or 4 (a float32 band: each
    // value rounded to float32 as it is stored, and read back widened).
    // `threads` lay out each round opened.
    Band(const Partition& partition, const RoundLayout& layout, int value_size = sizeof(double), int threads = 1);
    int value_size() const { return value_size_; }
    // The most rounds held at once: S..S+K while S computes.
    static int most_rounds(const Rules& rules) { return rules.most_cells() + 1; }
    // Values in this rank's largest round (from the partition alone).
    std::uint64_t largest_round_values() const { return largest_round_values_; }
    // The same without building a band (a counting partition will do).
    static std::uint64_t largest_round_values(const Partition& partition, const RoundLayout& layout);

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
    const Partition& partition_;
    const RoundLayout& layout_;
    std::vector<RoundStore> rounds_;  // [sum]; sum == -1 when not held
    std::vector<RoundStore> spare_;   // closed rounds, their arrays to reuse
    std::uint64_t largest_round_values_ = 0;
    int value_size_ = sizeof(double);
    int threads_ = 1;
};

}  // namespace stack
