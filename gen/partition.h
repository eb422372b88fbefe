// How ranks split the id space, and the rows the solver works on.
//
// A row is the H+1 consecutive ids that differ only in column 0; it is named
// by its first id (h0 = 0) and its "row sum", the height sum of columns
// 1..W-1. Ids are cut into chunks of Q = (H+1)^L consecutive ids, L <= 3
// "lower" columns (see default_lower_columns): a chunk fixes the heights of
// columns L..W-1 (the "upper" columns) and holds Q / (H+1) rows. Chunks are
// dealt to ranks cyclically (chunk c -> rank c mod P), so every round (one
// row sum) spreads evenly: contiguous id blocks would give the ranks owning
// high digits only the tall stacks (48% per-round efficiency on 6x20 at 64
// ranks, against 99% here).
//
// A rank stores its chunks back to back: local index = (c / P) * Q + id % Q,
// so each row is H+1 contiguous values, and the file layout is block-cyclic.
#pragma once

#include "board.h"
#include "placement.h"
#include "table_writer.h"

#include <array>
#include <cstdint>
#include <vector>

namespace stack {

class Partition {
public:
    // lower_columns 0 picks default_lower_columns(); tests force 1..3. The
    // row walk handles at most MaxLowerColumns: more throw
    // std::invalid_argument.
    static constexpr int MaxLowerColumns = 3;
    Partition(const Geometry& geometry, int ranks, int rank, int lower_columns = 0);
    static int default_lower_columns(const Geometry& geometry, int ranks);

    const Geometry& geometry() const { return geometry_; }
    int ranks() const { return ranks_; }
    int rank() const { return rank_; }
    int lower_columns() const { return lower_columns_; }
    std::uint64_t chunk_size() const { return chunk_size_; }        // Q
    std::uint64_t chunk_count() const { return chunk_count_; }      // (H+1)^W / Q
    std::uint64_t owned_chunks() const { return owned_chunks_; }
    std::uint64_t owned_states() const { return owned_chunks_ * chunk_size_; }
    std::uint64_t max_owned_states() const;                         // over all ranks
    int max_row_sum() const { return (geometry_.width() - 1) * geometry_.height(); }

    int owner(BoardId id) const { return static_cast<int>(id / chunk_size_ % ranks_); }
    std::uint64_t local_index(BoardId id) const {
        return id / chunk_size_ / ranks_ * chunk_size_ + id % chunk_size_;
    }
    // The inverse of local_index on rank `owner` (this rank by default).
    BoardId board_id(std::uint64_t local_index, int owner) const {
        return (local_index / chunk_size_ * ranks_ + std::uint64_t(owner)) * chunk_size_ + local_index % chunk_size_;
    }
    BoardId board_id(std::uint64_t local_index) const { return board_id(local_index, rank_); }
    BlockCyclicSlice slice() const { return {std::uint64_t(rank_), std::uint64_t(ranks_), owned_chunks_, chunk_size_}; }

    // Calls visit(first_id, first_local_index, heights) for every owned row
    // of row sum `sum`, in increasing id order; heights[0] is 0.
    template <class Visit>
    void for_each_row(int sum, Visit&& visit) const;

    std::uint64_t count_rows(int sum) const;

private:
    Geometry geometry_;
    int ranks_;
    int rank_;
    int lower_columns_;
    std::uint64_t chunk_size_;
    std::uint64_t chunk_count_;
    std::uint64_t owned_chunks_;
    std::vector<std::uint32_t> upper_sums_;   // [owned chunk] -> height sum of columns L..W-1
};

template <class Visit>
void Partition::for_each_row(int sum, Visit&& visit) const {
    const int height = geometry_.height();
    const std::uint64_t base = geometry_.base();
    // Columns 1..L-1 share what the upper columns leave of the row sum (W = 1
    // has one row, sum 0); by increasing id, h2 is the slower digit.
    const int second_max = lower_columns_ >= 2 ? height : 0;
    const int third_max = lower_columns_ == 3 ? height : 0;
    for (std::uint64_t chunk_local = 0; chunk_local < owned_chunks_; ++chunk_local) {
        const int rest = sum - static_cast<int>(upper_sums_[chunk_local]);
        if (rest < 0 || rest > second_max + third_max)
            continue;
        const BoardId chunk_first = board_id(chunk_local * chunk_size_);
        Heights heights = geometry_.decode(chunk_first);
        const int third_low = rest - second_max > 0 ? rest - second_max : 0;
        const int third_high = rest < third_max ? rest : third_max;
        for (int third = third_low; third <= third_high; ++third) {
            const int second = rest - third;
            if (lower_columns_ >= 2)
                heights[1] = second;
            if (lower_columns_ == 3)
                heights[2] = third;
            const std::uint64_t offset = (std::uint64_t(third) * base + std::uint64_t(second)) * base;
            visit(chunk_first + offset, chunk_local * chunk_size_ + offset, heights);
        }
    }
}

// The placements a row takes: the one rule the row kernel (forward: a
// row's successors) and the exchange plan (reverse: its predecessors) both
// follow. visit(o, x, h0) for each:
//   - at a column x >= 1, a placement whose surface matches holds for every
//     h0 of the row at once (h0 = -1);
//   - at column 0, a placement wider than one column fixes h0 by the step
//     h1 - h0 = surface[0]; each step in [-2, 2] is tried once, with h0
//     inside [0, H];
//   - the vertical I at column 0 stays in its own row and is left to the
//     row kernel, which finishes a row from the top for it.
// Columns whose `include[x]` is false are skipped. heights[0] is ignored.
template <bool Reverse, class Visit>
void for_each_row_placement(const PlacementTable& placements, Heights heights, Visit&& visit,
                            const std::array<bool, MaxWidth>& include) {
    const int width = placements.geometry().width(), height = placements.geometry().height();
    heights[0] = heights[1];
    PlacementTable::Differences differences = placements.differences(heights);
    const auto at = [&](int x, auto&& each) {
        if constexpr (Reverse)
            placements.for_each_predecessor_at(heights, differences, x, each);
        else
            placements.for_each_placement_at(heights, differences, x, each);
    };
    for (int x = 1; x < width; ++x)
        if (include[x])
            at(x, [&](int o, int, BoardId) { visit(o, x, -1); });
    for (int step = -2; step <= 2 && width > 1 && include[0]; ++step) {
        const int h0 = heights[1] - step;
        if (h0 < 0 || h0 > height)
            continue;
        heights[0] = h0;
        differences[0] = PlacementTable::clipped_difference(step);
        at(0, [&](int o, int, BoardId) {
            if (Orientations[o].width > 1)
                visit(o, 0, h0);
        });
    }
}

template <bool Reverse, class Visit>
void for_each_row_placement(const PlacementTable& placements, const Heights& heights, Visit&& visit) {
    std::array<bool, MaxWidth> all;
    all.fill(true);
    for_each_row_placement<Reverse>(placements, heights, visit, all);
}

// One (orientation, column) seen from a row of one rank. Placing it on the
// row's state h0 leads to the successor row `row_offset` further on, at
// column-0 height h0 + column0_added; that row's owner and (when it is owned
// here) its local position follow from (orientation, column) alone, because
// valid placements never carry from one digit to the next. For a placement
// at column 0 that is wider than one column, h0 is fixed by the surface
// (h1 - h0 == surface[0]); the vertical I at column 0 stays in its row.
struct RowRule {
    Piece piece = PieceI;
    std::uint8_t column0_added = 0;  // cells added to column 0 (0 when column > 0)
    std::uint8_t sum_step = 0;       // successor row sum - row sum (= 4 - column0_added)
    int successor_owner = 0;
    int predecessor_owner = 0;
    BoardId row_offset = 0;          // successor row's first id - this row's
    std::uint64_t local_shift = 0;   // successor row's first local index - this row's, when owned here
};

class RowRules {
public:
    explicit RowRules(const Partition& partition);
    const RowRule& operator()(int orientation, int column) const { return rules_[orientation][column]; }

private:
    std::array<std::array<RowRule, MaxWidth>, OrientationCount> rules_{};  // [orientation][column]
};

}  // namespace stack
