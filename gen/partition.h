// How ranks split the id space, and the units the solver works on.
//
// A row is the H+1 boards that differ only in column 0; its "row sum" is
// the height sum of columns 1..W-1, and one round of the solver computes
// one row sum. Ids are cut into chunks of Q = (H+1)^L consecutive ids (L <=
// 3 "lower" columns, see default_lower_columns): a chunk fixes the heights
// of columns L..W-1 (the "upper" columns). Chunks are dealt to ranks
// cyclically (chunk c -> rank c mod P), which spreads every round evenly:
// contiguous blocks would give the ranks owning high digits only the tall
// stacks.
//
// A slice is the rows of one chunk in one round: the lower columns 1..L-1
// take every composition of what the upper columns leave of the row sum,
// so a slice holds up to H+1 rows (L = 3), in id order. A placement that
// touches only upper columns fits every row of a slice or none, and maps the
// slice onto the slice of another chunk in round S+k (k its cells) with the same rows in
// the same order: the solver applies it to the whole slice at once.
//
// A rank keeps each round's rows in local order: its chunks ascending, each
// chunk's slice in id order. That is also the order of the rows in the
// file (id order), restricted to the rank's chunks.
#pragma once

#include "rules/board.h"
#include "rules/compositions.h"
#include "rules/placement.h"
#include "support/host_device.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace stack {

class Partition {
public:
    // lower_columns 0 picks default_lower_columns(); tests force 1..3. The
    // slice walk handles at most MaxLowerColumns: more throw
    // std::invalid_argument.
    static constexpr int MaxLowerColumns = 3;
    Partition(const Geometry& geometry, int ranks, int rank, int lower_columns = 0);
    // A partition for counting alone (stackgen --plan, traffic.h): the same
    // chunks, but no list of their upper sums, so it costs nothing whatever
    // the well. upper_sum, upper_sums and slice_rows must not be called on
    // it; owned_rows_per_round counts without the list.
    static Partition counting(const Geometry& geometry, int ranks, int rank, int lower_columns = 0);
    bool counts_only() const { return counts_only_; }
    static int default_lower_columns(const Geometry& geometry, int ranks);
    // A mirrored layout (table_format.h) needs every row of a slice to
    // have one top height (column W-1): column W-1 must be an upper one.
    static int mirrored_lower_columns(const Geometry& geometry, int ranks) {
        return std::max(1, std::min(default_lower_columns(geometry, ranks), geometry.width() - 1));
    }
    // Whether column W-1 is an upper column, so that a chunk fixes its top.
    bool chunks_fix_top() const { return lower_columns_ <= geometry_.width() - 1; }
    // The top height (column W-1) of an owned chunk's rows (chunks_fix_top).
    int chunk_top(std::uint64_t chunk_local) const {
        return int((chunk_local * std::uint64_t(ranks_) + std::uint64_t(rank_)) / top_divisor_);
    }
    // The first owned chunk whose top is `top` or more (owned_chunks() when
    // none): owned chunks ascend by id, so they come grouped by top.
    std::uint64_t first_chunk_of_top(int top) const;

    const Geometry& geometry() const { return geometry_; }
    int ranks() const { return ranks_; }
    int rank() const { return rank_; }
    int lower_columns() const { return lower_columns_; }
    std::uint64_t owned_chunks() const { return owned_chunks_; }
    int max_row_sum() const { return (geometry_.width() - 1) * geometry_.height(); }
    // Rows of a slice whose lower columns sum to `lower_sum` (0 when none),
    // and the largest such sum: slice_rows() without the chunk.
    std::uint64_t rows_of_lower_sum(int lower_sum) const { return lower_.count(lower_sum); }
    int most_lower_sum() const { return std::max(lower_columns_ - 1, 0) * geometry_.height(); }
    int rounds() const { return max_row_sum() + 1; }

    int owner(BoardId id) const { return static_cast<int>(id / chunk_size_ % ranks_); }
    // The first id of an owned chunk.
    BoardId chunk_first(std::uint64_t chunk_local) const {
        return (chunk_local * ranks_ + std::uint64_t(rank_)) * chunk_size_;
    }
    int upper_sum(std::uint64_t chunk_local) const { return upper_sums_[chunk_local]; }
    const std::uint32_t* upper_sums() const { return upper_sums_.data(); }  // [owned chunk]
    std::uint64_t chunk_size() const { return chunk_size_; }
    // Rows of the slice of an owned chunk in round `sum` (0 when none).
    std::uint64_t slice_rows(std::uint64_t chunk_local, int sum) const {
        return lower_.count(sum - upper_sums_[chunk_local]);
    }
    // The rank of a row within its slice: its lower columns' composition
    // rank (0 with fewer than 3 lower columns: a slice is one row then).
    std::uint64_t row_in_slice(const Heights& heights, int lower_sum) const {
        return slice_row(lower_columns_, geometry_.height(), heights[2], lower_sum);
    }
    // The same from the numbers alone: `second` is column 2's height (the
    // portable slice work's form, slice_work.h).
    STACK_HD static constexpr std::uint64_t slice_row(int lower_columns, int height, int second, int lower_sum) {
        return lower_columns == 3 ? std::uint64_t(second - (lower_sum > height ? lower_sum - height : 0)) : 0;
    }
    // Calls visit(row, heights) for each row of a slice whose lower
    // columns sum to `lower_sum`, in id order; `heights` holds the slice's
    // upper columns on entry, and each row's lower columns (heights[0] 0).
    template <class Visit>
    void for_each_row_of_slice(Heights& heights, int lower_sum, Visit&& visit) const;

    // Rows of a slice whose lower columns sum to `lower_sum`.
    std::uint64_t lower_rows(int lower_sum) const { return lower_.count(lower_sum); }
    // Rows this rank holds in each round: [sum] -> rows. Exact, except for
    // a counting partition too large to count (see rows_counted_exactly).
    std::vector<std::uint64_t> owned_rows_per_round() const;
    // The same by top (chunks_fix_top, not a counting partition): [sum *
    // (H+1) + top] -> rows, for a mirrored layout's exact round sizes.
    std::vector<std::uint64_t> owned_rows_per_round_and_top() const;
    // The chunks this rank owns by upper sum: [sum] -> chunks.
    std::vector<std::uint64_t> owned_chunks_by_upper_sum() const;
    // Whether owned_chunks_by_upper_sum counts exactly: false only for a
    // counting partition whose digits are too many to count in well under
    // a second, which takes each sum's share of the chunks 1/ranks instead.
    bool rows_counted_exactly() const;

private:
    Partition(const Geometry& geometry, int ranks, int rank, int lower_columns, bool counts_only);
    Geometry geometry_;
    int ranks_;
    int rank_;
    int lower_columns_;
    std::uint64_t chunk_size_;
    std::uint64_t top_divisor_ = 1;  // chunks per top height: (H+1)^(W-1-L)
    std::uint64_t chunk_count_;
    std::uint64_t owned_chunks_;
    CompositionCodec lower_;                 // columns 1..L-1
    std::vector<std::uint32_t> upper_sums_;  // [owned chunk] -> height sum of columns L..W-1
    bool counts_only_ = false;
};

template <class Visit>
void Partition::for_each_row_of_slice(Heights& heights, int lower_sum, Visit&& visit) const {
    const int height = geometry_.height();
    heights[0] = 0;
    if (lower_columns_ <= 1) {  // the chunk is one row
        if (lower_sum == 0)
            visit(std::uint64_t(0), const_cast<const Heights&>(heights));
        return;
    }
    if (lower_columns_ == 2) {
        if (lower_sum >= 0 && lower_sum <= height) {
            heights[1] = lower_sum;
            visit(std::uint64_t(0), const_cast<const Heights&>(heights));
        }
        return;
    }
    // Two lower columns: by increasing id, h2 is the slower digit.
    const int low = lower_sum > height ? lower_sum - height : 0;
    const int high = lower_sum < height ? lower_sum : height;
    for (int second = low; second <= high; ++second) {
        heights[1] = lower_sum - second;
        heights[2] = second;
        visit(std::uint64_t(second - low), const_cast<const Heights&>(heights));
    }
}

// The placements a row takes: the one rule the slice kernel (forward: a
// row's successors) and the exchange (reverse: its predecessors) both
// follow. visit(o, x, h0) for each:
//   - at a column x >= 1, a placement whose surface matches holds for every
//     h0 of the row at once (h0 = -1);
//   - at column 0, a placement wider than one column fixes h0 by the step
//     h1 - h0 = surface[0]: for each step whose h0 lies inside [0, H] and
//     is stored, one lookup gives the orientations that fit, by step;
//   - a one-column orientation at column 0 stays in its own row and is left
//     to the kernel, which finishes a row from the top for it.
// Only columns x with first <= x < last are tried. heights[0] is ignored.
// `stored(h0)` says whether the row stores that state: column-0 placements
// for states it does not store (a residue class not computed) are skipped
// before they are looked up. `wanted(o, x)` (all by default) leaves out
// the other (orientation, column) pairs before their fit is tested.
struct AnyPlacement {
    constexpr bool operator()(int, int) const { return true; }
};
template <bool Reverse, class Visit, class Stored, class Wanted = AnyPlacement>
[[gnu::always_inline]] inline void for_each_row_placement(const PlacementTable& placements, Heights heights,
                                                          const PlacementTable::Differences& differences, int first,
                                                          int last, Visit&& visit, Stored&& stored,
                                                          Wanted&& wanted = {}) {
    const int width = placements.geometry().width(), height = placements.geometry().height();
    last = last < width ? last : width;
    const auto at = [&](int x, const PlacementTable::Differences& at_differences, auto&& keep, auto&& each) {
        if constexpr (Reverse)
            placements.for_each_predecessor_at(heights, at_differences, x, each, keep);
        else
            placements.for_each_placement_at(heights, at_differences, x, each, keep);
    };
    heights[0] = heights[1];
    for (int x = first > 1 ? first : 1; x < last; ++x)
        at(
            x, differences, [&](int o) { return wanted(o, x); }, [&](int o, int, BoardId) { visit(o, x, -1); });
    if (width == 1 || first != 0)
        return;
    // Column 0, one first step at a time: the step fixes h0, so a state the
    // row does not store costs no lookup, and each lookup is the one any
    // column makes, its d[0] the step. Steps ascend, so the placements come
    // by step, then in the set's order.
    PlacementTable::Differences first_column = differences;
    for (const int step : placements.first_steps(Reverse)) {
        const int h0 = heights[1] - step;
        if (h0 < 0 || h0 > height || !stored(h0))
            continue;
        heights[0] = h0;
        first_column[0] = placements.clipped_difference(step);
        at(
            0, first_column, [&](int o) { return placements.width(o) > 1 && wanted(o, 0); },
            [&](int o, int, BoardId) { visit(o, 0, h0); });
    }
}

// The same, computing the row's differences itself.
template <bool Reverse, class Visit>
void for_each_row_placement(const PlacementTable& placements, const Heights& heights, int first, int last,
                            Visit&& visit) {
    Heights level = heights;
    level[0] = level[1];
    for_each_row_placement<Reverse>(placements, heights, placements.differences(level), first, last, visit,
                                    [](int) { return true; });
}

// A slice's rows differ only in the lower columns: d[x] for x >= L is the
// slice's, and a row needs only its own d[1..L-1] set (d[0] is the step,
// which the rule above tries).
inline void set_row_differences(const PlacementTable& placements, const Heights& heights, int lower_columns,
                                PlacementTable::Differences& differences) {
    const int width = placements.geometry().width();
    for (int column = 1; column < lower_columns && column + 1 < width; ++column)
        differences[column] = placements.clipped_difference(heights[column + 1] - heights[column]);
}

// One (orientation, column) seen from a row of one rank. Placing it on a
// row of chunk c leads to a row of chunk c + delta, with the lower columns
// raised by lower_added and column 0 by column0_added; valid placements
// never carry from one digit to the next, so the successor's owner and,
// when it is owned here, its local chunk follow from (orientation, column)
// alone.
struct PlacementRule {
    int piece = 0;
    bool whole_slice = false;                   // touches only upper columns (x >= L)
    std::uint8_t column0_added = 0;             // cells added to column 0
    std::uint8_t sum_step = 0;                  // successor row sum - row sum (= the piece's cells - column0_added)
    std::array<std::uint8_t, 2> lower_added{};  // cells added to columns 1 and 2 (when lower)
    std::uint8_t top_added = 0;                 // cells added to column W-1 (the successor's top - the row's)
    int successor_owner = 0;
    int predecessor_owner = 0;
    std::uint64_t chunk_shift = 0;  // successor's local chunk - this one's, when owned here
    BoardId row_offset = 0;         // successor row's first id - this row's
};

class PlacementRules {
public:
    PlacementRules(const Partition& partition, const Rules& rules);
    const PlacementRule& operator()(int orientation, int column) const {
        return rules_[std::size_t(orientation) * MaxWidth + std::size_t(column)];
    }
    // [orientation * MaxWidth + column]: for a hot loop to hold in a local.
    const PlacementRule* data() const { return rules_.data(); }

private:
    std::vector<PlacementRule> rules_;  // [orientation * MaxWidth + column]
};

}  // namespace stack
