// The portable slice work: one slice of one round computed from plain
// arrays, in code that compiles for the host and for a CUDA device
// (STACK_HD). The GPU path (gpu_rounds.h) runs it with one thread a slice;
// the portable kernel (solver.h, KernelKind::Portable) runs the very same
// function in a CPU loop, which is how the tests check the GPU's logic on a
// machine without a GPU.
//
// It computes what the CPU's slice kernel (solver.cpp) computes, by the same
// rule (partition.h, placement.h) and the same arithmetic, but walks a
// slice row by row instead of gathering updates: for each row, every
// (orientation, column) is tested against the row's heights with the
// placement rule itself (fits_at), and its successor row is read by
// address. Each piece's best successor is a maximum, which is exact and
// does not depend on the order it is taken in; the row is then finished
// from the top (a one-column orientation at column 0 reads its own row
// further up) and each state's value is value_from_best() (value.h), the
// one value equation, in the same piece order. So the values are the CPU
// kernel's bits, in a float64 band or a float32 one.
//
// What the work reads (RoundView): the well and the partition, the set's
// orientations and placement rules (PortableRule: the PlacementRule of
// partition.h, flattened), and for the round S computed and each step k
// the rows of round S+k that this rank holds (slice_start locates each
// owned chunk's slice) and the ghost rows received from the other ranks
// (ids ascending by source, found by binary search).
#pragma once

#include "partition.h"
#include "rules/board.h"
#include "rules/orientation.h"
#include "rules/piece_set.h"
#include "rules/value.h"
#include "support/host_device.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stack {

class RoundLayout;

// How many stored states further up its own row a one-column orientation
// of `piece` at column 0 leads, when `classes` residue classes are stored:
// its cells hold cells / g states of each (g the set's gcd).
int in_row_jump(const Rules& rules, int classes, int piece);

// One orientation, in plain arrays.
struct PortableOrientation {
    int piece = 0;
    int width = 0;
    std::int8_t surface[MostPieceColumns - 1] = {};
    std::int8_t added[MostPieceColumns] = {};
};

// One (orientation, column) seen from this rank: PlacementRule's fields
// that the work reads.
struct PortableRule {
    int piece = 0;
    int successor_owner = 0;
    int column0_added = 0;
    int top_added = 0;  // cells added to column W-1
    int sum_step = 0;
    int lower_added[2] = {};
    std::uint64_t chunk_shift = 0;
    BoardId row_offset = 0;
};

// The ghost rows of one round (exchange.h): `ids` ascending within each
// source's run [offsets[source], offsets[source] + counts[source]), the
// rows' values in the same order, row_bytes apart.
struct GhostRows {
    const BoardId* ids = nullptr;
    const char* values = nullptr;
    const int* offsets = nullptr;  // [source]
    const int* counts = nullptr;   // [source]
    std::uint64_t rows = 0;
    std::uint64_t row_bytes = 0;
};

// Where a round's rows lie (band.h's RoundStore): a slice's first value is
// its top group's first value plus the rows before it in the group times
// the group's row length. In a full layout every group is the whole round.
struct RoundTops {
    const std::uint64_t* rows = nullptr;    // [top] -> the first row of the owned chunks of that top or more
    const std::uint64_t* values = nullptr;  // [top] -> their first value
    const int* length = nullptr;            // [top] -> values a row
};
STACK_HD inline std::uint64_t slice_value(const RoundTops& tops, const std::uint64_t* slice_start, std::uint64_t chunk,
                                          int top) {
    return tops.values[top] + (slice_start[chunk] - tops.rows[top]) * std::uint64_t(tops.length[top]);
}

// A round the computed one reads (S + step).
struct SuccessorRound {
    const char* values = nullptr;                // this rank's rows, local order
    const std::uint64_t* slice_start = nullptr;  // [owned chunk] -> first row
    const int* row_index = nullptr;              // [h0] -> index in a row, -1 when not stored
    int row_length = 0;                          // a full row's values (a ghost row's)
    RoundTops tops;
    GhostRows ghosts;
};

struct RoundView {
    // The well and this rank's part of it (partition.h).
    int width = 0, height = 0, lower = 0, ranks = 1, rank = 0;
    std::uint64_t base = 1;                     // H + 1
    std::uint64_t powers[MaxWidth + 1] = {};    // [column] -> (H+1)^column
    std::uint64_t chunk_size = 1;               // (H+1)^lower
    const std::uint32_t* upper_sums = nullptr;  // [owned chunk] -> height sum of the upper columns
    // The set.
    int pieces = 0, orientations = 0;
    const PortableOrientation* orientation = nullptr;  // [o]
    const PortableRule* rule = nullptr;                // [o * MaxWidth + x]
    const std::uint32_t* weights = nullptr;            // [piece]; nullptr: every piece weighs 1
    const int* partners = nullptr;                     // [piece] -> its mirror partner (Rules::partners)
    int in_row_count = 0;
    const int* in_row = nullptr;  // [3k] piece, [3k+1] jump, [3k+2] cells of the one-column orientations at column 0
    bool mirrored = false;        // canonical boards only (table_format.h)
    // The round computed.
    int sum = 0, row_length = 0;
    const int* row_index = nullptr;
    const std::uint64_t* slice_start = nullptr;
    RoundTops tops;
    char* out = nullptr;                   // this round's rows, written
    const SuccessorRound* next = nullptr;  // [step] for steps 1 .. the set's most cells
};

// The ghost row whose first id is `id` from `source`, or nullptr.
STACK_HD inline const char* find_ghost_row(const GhostRows& ghosts, int source, BoardId id) {
    if (ghosts.ids == nullptr)
        return nullptr;
    const BoardId* first = ghosts.ids + ghosts.offsets[source];
    std::uint64_t low = 0, high = std::uint64_t(ghosts.counts[source]);
    while (low < high) {
        const std::uint64_t middle = (low + high) / 2;
        if (first[middle] < id)
            low = middle + 1;
        else
            high = middle;
    }
    if (low == std::uint64_t(ghosts.counts[source]) || first[low] != id)
        return nullptr;
    return ghosts.values + (std::uint64_t(ghosts.offsets[source]) + low) * ghosts.row_bytes;
}

// The first value of a successor row: row `local_row` of the successor
// slice when this rank owns it, else the ghost row of first id `ghost_id`,
// `ghost_rows` rows further on (a whole remote slice is a run of
// consecutive ghost rows). nullptr when a ghost row was not received.
template <class Value>
STACK_HD inline const Value* successor_row(const RoundView& view, const PortableRule& rule, std::uint64_t chunk,
                                           std::uint64_t local_row, BoardId ghost_id, std::uint64_t ghost_rows,
                                           int top) {
    const SuccessorRound& next = view.next[rule.sum_step];
    if (rule.successor_owner == view.rank) {
        const int successor_top = view.mirrored ? top + rule.top_added : 0;
        return reinterpret_cast<const Value*>(next.values)
               + slice_value(next.tops, next.slice_start, chunk + rule.chunk_shift, successor_top)
               + local_row * std::uint64_t(next.tops.length[successor_top]);
    }
    const char* row = find_ghost_row(next.ghosts, rule.successor_owner, ghost_id);
    return row == nullptr ? nullptr : reinterpret_cast<const Value*>(row) + ghost_rows * std::uint64_t(next.row_length);
}

// Where a board's mirror image is stored, from the numbers alone: its
// round (the row sum of columns 1..W-1), its index in the row (h0), its
// top, its chunk (the id of the upper columns L..W-1, so no division by
// the chunk size) and its row in the slice (the lower columns' sum and
// column 2, Partition::slice_row). The CPU kernel and the portable slice
// work (so the GPU) both place mirror reads with it.
struct MirrorImage {
    int sum = 0;  // the image's round
    int h0 = 0;   // the image's column 0
    int top = 0;  // the image's column W-1
    int lower_sum = 0;
    std::uint64_t row = 0;    // its row in the slice of its chunk
    std::uint64_t chunk = 0;  // global: the owner is chunk % ranks
    BoardId row_id = 0;       // its row's first id (column 0 zero)
};
STACK_HD inline MirrorImage mirror_image(int width, int height, int lower, const std::uint64_t* powers,
                                         const int* board) {
    MirrorImage image;
    int second = 0;
    for (int column = 1; column < width; ++column) {
        const int h = board[width - 1 - column];
        image.sum += h;
        if (column < lower) {
            image.lower_sum += h;
            image.row_id += BoardId(h) * powers[column];
        } else {
            image.chunk += std::uint64_t(h) * powers[column - lower];
        }
        if (column == 2)
            second = h;
    }
    image.h0 = board[width - 1];
    image.top = board[0];
    image.row_id += image.chunk * powers[lower];
    image.row = Partition::slice_row(lower, height, second, image.lower_sum);
    return image;
}

// In a mirrored layout, the value of a board that is not canonical
// (heights[0] > heights[W-1]): its mirror image's, in the round of the
// image's row sum (S+1 .. S+K), on this rank or among the ghost rows.
// nullptr when a ghost row was not received.
template <class Value>
STACK_HD inline const Value* mirror_value(const RoundView& view, const int* board) {
    const MirrorImage image = mirror_image(view.width, view.height, view.lower, view.powers, board);
    const SuccessorRound& round = view.next[image.sum - view.sum];
    const int index = round.row_index[image.h0];
    const int owner = view.ranks == 1 ? 0 : int(image.chunk % std::uint64_t(view.ranks));
    if (owner == view.rank) {
        const std::uint64_t local = view.ranks == 1 ? image.chunk : image.chunk / std::uint64_t(view.ranks);
        return reinterpret_cast<const Value*>(round.values)
               + slice_value(round.tops, round.slice_start, local, image.top)
               + image.row * std::uint64_t(round.tops.length[image.top]) + index;
    }
    const char* row = find_ghost_row(round.ghosts, owner, image.row_id);
    return row == nullptr ? nullptr : reinterpret_cast<const Value*>(row) + index;
}

// A row-level placement's successor row in its slice: the lower columns
// raised by the placement (Partition::slice_row).
STACK_HD inline std::uint64_t successor_in_slice(const RoundView& view, const PortableRule& rule, int lower_sum,
                                                 const int* heights) {
    return Partition::slice_row(view.lower, view.height, heights[2] + rule.lower_added[1],
                                lower_sum + rule.lower_added[0] + rule.lower_added[1]);
}

// best[(piece * n + i) * stride] = max(itself, source[i]) for the row's n
// states.
template <class Value>
STACK_HD inline void take_row_max(double* best, std::size_t stride, int piece, int n, const Value* source) {
    double* target = best + std::size_t(piece) * std::size_t(n) * stride;
    for (int i = 0; i < n; ++i) {
        const double value = double(source[i]);
        target[std::size_t(i) * stride] =
            target[std::size_t(i) * stride] > value ? target[std::size_t(i) * stride] : value;
    }
}

// Computes the slice of owned chunk `chunk` in the view's round: writes its
// rows' values and adds the placements it applied to counts[piece] (the
// connections, as the CPU kernel counts them). `best` is scratch for
// pieces x row_length doubles, `stride` apart. Returns false when a ghost
// row it needed was not received (a bug of the exchange), after computing
// everything else.
template <class Value>
STACK_HD bool compute_slice(const RoundView& view, std::uint64_t chunk, double* best, std::size_t stride,
                            std::uint64_t* counts) {
    const std::uint64_t first_row = view.slice_start[chunk];
    const std::uint64_t rows = view.slice_start[chunk + 1] - first_row;
    if (rows == 0)
        return true;
    const int width = view.width, height = view.height, lower = view.lower;
    const BoardId chunk_first = (chunk * std::uint64_t(view.ranks) + std::uint64_t(view.rank)) * view.chunk_size;
    int heights[MaxWidth] = {};
    for (int column = lower; column < width; ++column)
        heights[column] = int(chunk_first / view.powers[column] % view.base);
    // A mirrored layout's rows are as long as their top (column W-1, an
    // upper column there) allows; a full layout's are all full.
    const int top = view.mirrored ? heights[width - 1] : 0;
    const int n = view.tops.length[top];
    const std::uint64_t first_value = slice_value(view.tops, view.slice_start, chunk, top);
    const int lower_sum = view.sum - int(view.upper_sums[chunk]);
    const int low = lower == 3 && lower_sum > height ? lower_sum - height : 0;
    const BoardId unit1 = view.powers[width > 1 ? 1 : 0], unit2 = view.powers[width > 2 ? 2 : 0];
    const BoardId slice_first_id =
        chunk_first + (lower >= 2 ? BoardId(lower_sum - low) * unit1 : 0) + (lower >= 3 ? BoardId(low) * unit2 : 0);
    bool complete = true;
    for (std::uint64_t row = 0; row < rows; ++row) {
        // The row's lower columns (partition.h's for_each_row_of_slice).
        if (lower == 2) {
            heights[1] = lower_sum;
        } else if (lower == 3) {
            heights[2] = low + int(row);
            heights[1] = lower_sum - heights[2];
        }
        const BoardId row_id = chunk_first + (lower >= 2 ? BoardId(heights[1]) * unit1 : 0)
                               + (lower >= 3 ? BoardId(heights[2]) * unit2 : 0);
        Value* out = reinterpret_cast<Value*>(view.out) + first_value + row * std::uint64_t(n);
        for (int i = 0; i < view.pieces * n; ++i)
            best[std::size_t(i) * stride] = -1.0;
        heights[0] = heights[width > 1 ? 1 : 0];
        for (int o = 0; o < view.orientations; ++o) {
            const PortableOrientation& orientation = view.orientation[o];
            // Columns x >= 1: the placement holds for every h0 of the row.
            for (int x = 1; x + orientation.width <= width; ++x) {
                if (!fits_at(orientation.surface, orientation.added, orientation.width, heights, x, height))
                    continue;
                const PortableRule& rule = view.rule[o * MaxWidth + x];
                const Value* source;
                if (x >= lower) {  // upper columns only: the same row of the successor slice
                    source = successor_row<Value>(view, rule, chunk, row, slice_first_id + rule.row_offset, row, top);
                } else {  // a lower column: the successor row by its lower columns
                    source = successor_row<Value>(view, rule, chunk, successor_in_slice(view, rule, lower_sum, heights),
                                                  row_id + rule.row_offset, 0, top);
                }
                counts[rule.piece] += std::uint64_t(n);
                if (n == 0)
                    continue;
                if (source == nullptr) {
                    complete = false;
                    continue;
                }
                take_row_max(best, stride, rule.piece, n, source);
            }
            // Column 0, wider than one column: the first step fixes h0.
            if (orientation.width < 2 || orientation.width > width)
                continue;
            const int h0 = heights[1] - orientation.surface[0];
            if (h0 < 0 || h0 > height || view.row_index[h0] < 0 || (view.mirrored && h0 > top))
                continue;
            heights[0] = h0;
            const bool fits = fits_at(orientation.surface, orientation.added, orientation.width, heights, 0, height);
            if (!fits) {
                heights[0] = heights[1];
                continue;
            }
            const PortableRule& rule = view.rule[o * MaxWidth];
            const Value* source;
            if (view.mirrored && h0 + rule.column0_added > top + rule.top_added) {  // its mirror image is stored
                int after[MaxWidth];
                for (int column = 0; column < width; ++column)
                    after[column] = heights[column] + (column < orientation.width ? orientation.added[column] : 0);
                source = mirror_value<Value>(view, after);
            } else {
                source = successor_row<Value>(view, rule, chunk, successor_in_slice(view, rule, lower_sum, heights),
                                              row_id + rule.row_offset, 0, top);
                source =
                    source == nullptr ? nullptr : source + view.next[rule.sum_step].row_index[h0 + rule.column0_added];
            }
            heights[0] = heights[1];
            counts[rule.piece] += 1;
            if (source == nullptr) {
                complete = false;
                continue;
            }
            const double value = double(*source);
            double& target =
                best[(std::size_t(rule.piece) * std::size_t(n) + std::size_t(view.row_index[h0])) * stride];
            target = target > value ? target : value;
        }
        // The row from the top: a one-column orientation at column 0 reads
        // its own row `jump` stored states further up, already final.
        for (int k = 0; k < view.in_row_count; ++k)
            if (n > view.in_row[3 * k + 1])
                counts[view.in_row[3 * k]] += std::uint64_t(n - view.in_row[3 * k + 1]);
        // In a mirrored layout, a one-column orientation at column 0 that
        // rises past the row's top reads its board's mirror image.
        if (view.mirrored)
            for (int k = 0; k < view.in_row_count; ++k) {
                const int piece = view.in_row[3 * k], cells = view.in_row[3 * k + 2];
                for (int h0 = top - cells + 1 > 0 ? top - cells + 1 : 0; h0 <= top && h0 + cells <= height; ++h0) {
                    if (view.row_index[h0] < 0)
                        continue;
                    heights[0] = h0 + cells;
                    const Value* source = mirror_value<Value>(view, heights);
                    heights[0] = heights[1];
                    counts[piece] += 1;
                    if (source == nullptr) {
                        complete = false;
                        continue;
                    }
                    double& target =
                        best[(std::size_t(piece) * std::size_t(n) + std::size_t(view.row_index[h0])) * stride];
                    const double value = double(*source);
                    target = target > value ? target : value;
                }
            }
        for (int i = n - 1; i >= 0; --i) {
            for (int k = 0; k < view.in_row_count; ++k) {
                const int piece = view.in_row[3 * k], jump = view.in_row[3 * k + 1];
                if (i + jump < n) {
                    double& target = best[(std::size_t(piece) * std::size_t(n) + std::size_t(i)) * stride];
                    const double value = double(out[i + jump]);
                    target = target > value ? target : value;
                }
            }
            const double* state = best + std::size_t(i) * stride;
            const std::size_t piece_stride = std::size_t(n) * stride;
            out[i] =
                Value(view.weights ? value_from_best(state, piece_stride, view.pieces, view.weights, view.partners)
                                   : value_from_best(state, piece_stride, view.pieces, UnitWeights{}, view.partners));
        }
    }
    return complete;
}

// The host's copy of what a RoundView points to for a whole solve (the
// set's orientations and rules, the weights, the one-column orientations,
// every class's row indices), built once; view() fills the fixed part of a
// view with pointers to them, and the GPU path uploads the same arrays.
class SliceTables {
public:
    SliceTables(const Partition& partition, const Rules& rules, const PlacementRules& placement_rules,
                const RoundLayout& layout);
    RoundView view() const;

    const std::vector<PortableOrientation>& orientations() const { return orientations_; }
    const std::vector<PortableRule>& rules() const { return rules_; }
    const std::vector<std::uint32_t>& weights() const { return weights_; }  // empty: unit weights
    const std::vector<int>& partners() const { return partners_; }          // [piece] -> mirror partner
    const std::vector<int>& in_row() const { return in_row_; }
    // [remainder * (H+1) + h0]: the row index of h0 in a round whose sum is
    // that remainder mod the set's gcd (RoundLayout::row_indices).
    const std::vector<int>& row_indices() const { return row_indices_; }
    int most_cells() const { return most_cells_; }

private:
    const Partition& partition_;
    std::vector<PortableOrientation> orientations_;
    std::vector<PortableRule> rules_;
    std::vector<std::uint32_t> weights_;
    std::vector<int> partners_;
    std::vector<int> in_row_;
    std::vector<int> row_indices_;
    int pieces_ = 0, most_cells_ = 0;
    bool mirrored_ = false;
};

}  // namespace stack
