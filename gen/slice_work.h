// The portable slice work: one slice of one round computed from plain
// arrays, in code that compiles for the host and for a CUDA device
// (STACK_HD). The GPU path (gpu_rounds.h) runs it as a block of threads a
// slice (SliceBlock: consecutive threads read consecutive values), or one
// thread a slice (compute_slice) where a block's shared memory would not
// fit; the portable kernel (solver.h, KernelKind::Portable and
// PortableThread) runs the very same functions in CPU loops, which is how
// the tests check the GPU's logic on a machine without a GPU.
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
#include "slice_starts.h"
#include "rules/board.h"
#include "rules/orientation.h"
#include "rules/piece_set.h"
#include "rules/rules.h"
#include "rules/value.h"
#include "support/host_device.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
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
    const std::uint64_t* offsets = nullptr;  // [source], in rows
    const std::uint64_t* counts = nullptr;   // [source], in rows
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
STACK_HD inline std::uint64_t slice_value(const RoundTops& tops, const SliceStartsView& slice_start, std::uint64_t chunk,
                                          int top) {
    return tops.values[top] + (slice_start[chunk] - tops.rows[top]) * std::uint64_t(tops.length[top]);
}

// A round the computed one reads (S + step).
struct SuccessorRound {
    const char* values = nullptr;                // this rank's rows, local order
    SliceStartsView slice_start;                 // [owned chunk] -> first row
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
    SliceStartsView slice_start;
    RoundTops tops;
    char* out = nullptr;                   // this round's rows, written
    const SuccessorRound* next = nullptr;  // [step] for steps 1 .. the set's most cells
    // The well game (clears.h): the set's tetris piece also takes the
    // previous sweep's value of the board every column TetrisRows lower,
    // from its round S - TetrisRows (W-1) held here (this rank's rows: the
    // slice work sweeps on one rank). No tetris: tetris.values nullptr.
    int tetris_piece = -1;
    SuccessorRound tetris;
};

// The ghost row whose first id is `id` from `source`, or nullptr.
STACK_HD inline const char* find_ghost_row(const GhostRows& ghosts, int source, BoardId id) {
    if (ghosts.ids == nullptr)
        return nullptr;
    const BoardId* first = ghosts.ids + ghosts.offsets[source];
    std::uint64_t low = 0, high = ghosts.counts[source];
    while (low < high) {
        const std::uint64_t middle = (low + high) / 2;
        if (first[middle] < id)
            low = middle + 1;
        else
            high = middle;
    }
    if (low == ghosts.counts[source] || first[low] != id)
        return nullptr;
    return ghosts.values + (ghosts.offsets[source] + low) * ghosts.row_bytes;
}

// The top (column W-1) of a placement's successor rows, whose length it
// sets in a mirrored layout; 0 in a full one (every row full).
STACK_HD inline int successor_top(const RoundView& view, const PortableRule& rule, int top) {
    return view.mirrored ? top + rule.top_added : 0;
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
        const int row_top = successor_top(view, rule, top);
        return reinterpret_cast<const Value*>(next.values)
               + slice_value(next.tops, next.slice_start, chunk + rule.chunk_shift, row_top)
               + local_row * std::uint64_t(next.tops.length[row_top]);
    }
    const char* row = find_ghost_row(next.ghosts, rule.successor_owner, ghost_id);
    return row == nullptr ? nullptr : reinterpret_cast<const Value*>(row) + ghost_rows * std::uint64_t(next.row_length);
}

// A one-column orientation of `cells` cells at column 0 of a row whose top
// (column W-1) is `top` leaves a board that is not canonical, whose mirror
// image is read, exactly from the states h0 = first .. last: those it
// raises past the top, with room for it below the well's `height`.
struct InRowMirrors {
    int first, last;
};
STACK_HD inline InRowMirrors in_row_mirrors(int top, int cells, int height) {
    return {top - cells + 1 > 0 ? top - cells + 1 : 0, top < height - cells ? top : height - cells};
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

// A row's scratch of best successors: state i of piece p at
// best[p * piece_stride + i * stride]. The thread-a-slice work keeps one
// row's there (pieces n x stride apart, the threads' scratch interleaved
// `stride` apart); the block work keeps a whole slice's in shared memory
// (row r's states at r * n + i, pieces `capacity` apart, stride 1).
struct BestRow {
    double* best = nullptr;
    std::size_t stride = 1, piece_stride = 0;
    STACK_HD double& at(int piece, int i) const {
        return best[std::size_t(piece) * piece_stride + std::size_t(i) * stride];
    }
};

// best(piece, i) = max(itself, source[i]) for the row's n states.
template <class Value>
STACK_HD inline void take_row_max(const BestRow& best, int piece, int n, const Value* source) {
    for (int i = 0; i < n; ++i) {
        const double value = double(source[i]);
        double& target = best.at(piece, i);
        target = target > value ? target : value;
    }
}

// The connections a slice's work counts, [piece]: a thread's own counters
// (the thread-a-slice work), or a block's in shared memory, which its
// threads add to at once (atomically on the device; the CPU loops that run
// a block run its threads one after another).
struct LocalCounts {
    std::uint64_t* counts;
    STACK_HD void add(int piece, std::uint64_t amount) const { counts[piece] += amount; }
};
struct SharedCounts {
    unsigned long long* counts;
    STACK_HD void add(int piece, std::uint64_t amount) const {
#ifdef __CUDA_ARCH__
        atomicAdd(&counts[piece], static_cast<unsigned long long>(amount));
#else
        counts[piece] += amount;
#endif
    }
};

// The first id of owned chunk `chunk` (Partition::chunk_first), and its
// top (column W-1) in a mirrored layout, 0 in a full one.
STACK_HD inline BoardId chunk_first_id(const RoundView& view, std::uint64_t chunk) {
    return (chunk * std::uint64_t(view.ranks) + std::uint64_t(view.rank)) * view.chunk_size;
}
STACK_HD inline int chunk_top(const RoundView& view, BoardId chunk_first) {
    return view.mirrored ? int(chunk_first / view.powers[view.width - 1] % view.base) : 0;
}

// Where one slice lies and what its rows share: its rows and their length
// (a mirrored layout's rows are as long as their top, column W-1, allows;
// a full layout's are all full), its first value, the upper columns'
// heights (fixed by the chunk), the lower columns' sum and the first
// row's id. Both the thread-a-slice and the block work start from it.
struct SliceSpan {
    std::uint64_t rows = 0;
    int n = 0;  // values a row
    int top = 0;
    int lower_sum = 0, low = 0;
    std::uint64_t first_value = 0;
    BoardId chunk_first = 0, slice_first_id = 0;
    int heights[MaxWidth] = {};  // the upper columns; the lower ones 0
};
STACK_HD inline SliceSpan slice_span(const RoundView& view, std::uint64_t chunk) {
    SliceSpan span;
    span.rows = view.slice_start[chunk + 1] - view.slice_start[chunk];
    if (span.rows == 0)
        return span;
    const int width = view.width, height = view.height, lower = view.lower;
    span.chunk_first = chunk_first_id(view, chunk);
    for (int column = lower; column < width; ++column)
        span.heights[column] = int(span.chunk_first / view.powers[column] % view.base);
    span.top = chunk_top(view, span.chunk_first);
    span.n = view.tops.length[span.top];
    span.first_value = slice_value(view.tops, view.slice_start, chunk, span.top);
    span.lower_sum = view.sum - int(view.upper_sums[chunk]);
    span.low = lower == 3 && span.lower_sum > height ? span.lower_sum - height : 0;
    const BoardId unit1 = view.powers[width > 1 ? 1 : 0], unit2 = view.powers[width > 2 ? 2 : 0];
    span.slice_first_id = span.chunk_first + (lower >= 2 ? BoardId(span.lower_sum - span.low) * unit1 : 0)
                          + (lower >= 3 ? BoardId(span.low) * unit2 : 0);
    return span;
}

// Row `row` of a slice: the span's heights with the row's lower columns
// (partition.h's for_each_row_of_slice) into `heights`, column 0 set to
// column 1's; returns the row's first id (column 0 zero).
STACK_HD inline BoardId slice_row_heights(const RoundView& view, const SliceSpan& span, std::uint64_t row,
                                          int* heights) {
    for (int column = 0; column < MaxWidth; ++column)
        heights[column] = span.heights[column];
    if (view.lower == 2) {
        heights[1] = span.lower_sum;
    } else if (view.lower == 3) {
        heights[2] = span.low + int(row);
        heights[1] = span.lower_sum - heights[2];
    }
    heights[0] = heights[view.width > 1 ? 1 : 0];
    const BoardId unit1 = view.powers[view.width > 1 ? 1 : 0], unit2 = view.powers[view.width > 2 ? 2 : 0];
    return span.chunk_first + (view.lower >= 2 ? BoardId(heights[1]) * unit1 : 0)
           + (view.lower >= 3 ? BoardId(heights[2]) * unit2 : 0);
}

// A placement at a column x >= the lower columns reads only the upper
// ones, so it holds (or not) for the whole slice, and row r's successor is
// row r of one successor slice: base + r * stride. Returns the base (row
// 0's successor row; nullptr when a ghost row was not received).
template <class Value>
STACK_HD inline const Value* whole_slice_source(const RoundView& view, const SliceSpan& span, const PortableRule& rule,
                                                std::uint64_t chunk, std::uint64_t* stride) {
    const SuccessorRound& next = view.next[rule.sum_step];
    *stride = rule.successor_owner == view.rank ? std::uint64_t(next.tops.length[successor_top(view, rule, span.top)])
                                                : std::uint64_t(next.row_length);
    return successor_row<Value>(view, rule, chunk, 0, span.slice_first_id + rule.row_offset, 0, span.top);
}

// The well game's tetris for one row (clears.h): when every field column
// is TetrisRows or more high, the I upright in the well takes each state
// with h0 >= TetrisRows to the board every column TetrisRows lower, whose
// previous sweep's value it reads from view.tetris: the chunk of the upper
// columns each TetrisRows lower (on this rank, the only one), the row of
// the lower columns each TetrisRows lower, the top TetrisRows lower in a
// mirrored layout (a canonical board's tetris successor is canonical), and
// h0 - TetrisRows in it. A maximum, as the CPU kernel's floor (clears.cpp)
// takes it, so the same bits; not a connection (the rules count none).
template <class Value>
STACK_HD inline void tetris_row(const RoundView& view, const SliceSpan& span, std::uint64_t chunk, const int* heights,
                                const BestRow& best) {
    if (view.tetris.values == nullptr || span.n == 0)
        return;
    for (int column = 1; column < view.width; ++column)
        if (heights[column] < TetrisRows)
            return;
    std::uint64_t drop = 0;  // the chunk's id falls by TetrisRows in each upper column
    for (int column = view.lower; column < view.width; ++column)
        drop += std::uint64_t(TetrisRows) * view.powers[column - view.lower];
    const int top = view.mirrored ? span.top - TetrisRows : 0;
    const int lower_sum = span.lower_sum - TetrisRows * (view.lower > 1 ? view.lower - 1 : 0);
    const std::uint64_t row =
        Partition::slice_row(view.lower, view.height, view.lower >= 3 ? heights[2] - TetrisRows : 0, lower_sum);
    const SuccessorRound& below = view.tetris;
    const Value* source = reinterpret_cast<const Value*>(below.values)
                          + slice_value(below.tops, below.slice_start, chunk - drop, top)
                          + row * std::uint64_t(below.tops.length[top]);
    for (int h0 = TetrisRows; h0 <= view.height; ++h0) {
        const int i = view.row_index[h0];
        if (i < 0 || i >= span.n)
            continue;
        const double value = double(source[below.row_index[h0 - TetrisRows]]);
        double& target = best.at(view.tetris_piece, i);
        target = target > value ? target : value;
    }
}

// Row `row`'s placements into `best`: those that depend on its lower
// columns (x < the lower columns, and every column-0 placement), with
// `whole` also those that hold for the whole slice, and the one-column
// orientations at column 0 (their counts; in a mirrored layout, their
// mirror reads past the row's top), and the well game's tetris
// (tetris_row). Returns false when a ghost row it needed was not
// received, after doing everything else.
template <class Value, class Counts>
STACK_HD bool row_placements(const RoundView& view, const SliceSpan& span, std::uint64_t chunk, std::uint64_t row,
                             int* heights, BoardId row_id, const BestRow& best, bool whole, const Counts& counts) {
    const int width = view.width, height = view.height, lower = view.lower, n = span.n, top = span.top;
    bool complete = true;
    for (int o = 0; o < view.orientations; ++o) {
        const PortableOrientation& orientation = view.orientation[o];
        // Columns x >= 1: the placement holds for every h0 of the row.
        for (int x = 1; x + orientation.width <= width && (whole || x < lower); ++x) {
            if (!fits_at(orientation.surface, orientation.added, orientation.width, heights, x, height))
                continue;
            const PortableRule& rule = view.rule[o * MaxWidth + x];
            const Value* source;
            if (x >= lower) {  // upper columns only: the same row of the successor slice
                std::uint64_t stride = 0;
                source = whole_slice_source<Value>(view, span, rule, chunk, &stride);
                source = source == nullptr ? nullptr : source + row * stride;
            } else {  // a lower column: the successor row by its lower columns
                source =
                    successor_row<Value>(view, rule, chunk, successor_in_slice(view, rule, span.lower_sum, heights),
                                         row_id + rule.row_offset, 0, top);
            }
            counts.add(rule.piece, std::uint64_t(n));
            if (n == 0)
                continue;
            if (source == nullptr) {
                complete = false;
                continue;
            }
            take_row_max(best, rule.piece, n, source);
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
            source = successor_row<Value>(view, rule, chunk, successor_in_slice(view, rule, span.lower_sum, heights),
                                          row_id + rule.row_offset, 0, top);
            source = source == nullptr ? nullptr : source + view.next[rule.sum_step].row_index[h0 + rule.column0_added];
        }
        heights[0] = heights[1];
        counts.add(rule.piece, 1);
        if (source == nullptr) {
            complete = false;
            continue;
        }
        const double value = double(*source);
        double& target = best.at(rule.piece, view.row_index[h0]);
        target = target > value ? target : value;
    }
    tetris_row<Value>(view, span, chunk, heights, best);
    // A one-column orientation at column 0 reads its own row `jump` stored
    // states further up (finish_row takes those).
    for (int k = 0; k < view.in_row_count; ++k)
        if (n > view.in_row[3 * k + 1])
            counts.add(view.in_row[3 * k], std::uint64_t(n - view.in_row[3 * k + 1]));
    // In a mirrored layout, one that rises past the row's top reads its
    // board's mirror image.
    if (view.mirrored)
        for (int k = 0; k < view.in_row_count; ++k) {
            const int piece = view.in_row[3 * k], cells = view.in_row[3 * k + 2];
            const InRowMirrors states = in_row_mirrors(top, cells, height);
            for (int h0 = states.first; h0 <= states.last; ++h0) {
                if (view.row_index[h0] < 0)
                    continue;
                heights[0] = h0 + cells;
                const Value* source = mirror_value<Value>(view, heights);
                heights[0] = heights[1];
                counts.add(piece, 1);
                if (source == nullptr) {
                    complete = false;
                    continue;
                }
                double& target = best.at(piece, view.row_index[h0]);
                const double value = double(*source);
                target = target > value ? target : value;
            }
        }
    return complete;
}

// Finishes a row from the top: state i takes the one-column orientations
// at column 0, which read the row's own values `jump` states further up
// (already final, at the band's precision), and its value is
// value_from_best() (value.h), the one value equation.
template <class Value>
STACK_HD inline void finish_row(const RoundView& view, int n, const BestRow& best, Value* out) {
    for (int i = n - 1; i >= 0; --i) {
        for (int k = 0; k < view.in_row_count; ++k) {
            const int piece = view.in_row[3 * k], jump = view.in_row[3 * k + 1];
            if (i + jump < n) {
                double& target = best.at(piece, i);
                const double value = double(out[i + jump]);
                target = target > value ? target : value;
            }
        }
        const double* state = &best.at(0, i);
        out[i] =
            Value(view.weights ? value_from_best(state, best.piece_stride, view.pieces, view.weights, view.partners)
                               : value_from_best(state, best.piece_stride, view.pieces, UnitWeights{}, view.partners));
    }
}

// Computes the slice of owned chunk `chunk` in the view's round, one row
// after another (the thread-a-slice work): writes its rows' values and
// adds the placements it applied to counts[piece] (the connections, as the
// CPU kernel counts them). `scratch` is pieces x row_length doubles,
// `stride` apart. Returns false when a ghost row it needed was not
// received (a bug of the exchange), after computing everything else.
template <class Value>
STACK_HD bool compute_slice(const RoundView& view, std::uint64_t chunk, double* scratch, std::size_t stride,
                            std::uint64_t* counts) {
    const SliceSpan span = slice_span(view, chunk);
    const BestRow best{scratch, stride, std::size_t(span.n) * stride};
    bool complete = true;
    int heights[MaxWidth];
    for (std::uint64_t row = 0; row < span.rows; ++row) {
        const BoardId row_id = slice_row_heights(view, span, row, heights);
        for (int i = 0; i < view.pieces * span.n; ++i)
            scratch[std::size_t(i) * stride] = -1.0;
        complete &= row_placements<Value>(view, span, chunk, row, heights, row_id, best, true, LocalCounts{counts});
        finish_row(view, span.n, best,
                   reinterpret_cast<Value*>(view.out) + span.first_value + row * std::uint64_t(span.n));
    }
    return complete;
}

// The block work: one block of threads a slice, in phases that a
// __syncthreads() separates on the device (and that the CPU loops run
// with every thread of the block in turn):
//   0. thread 0: the slice's span;
//   1. the (orientation, column) pairs at columns >= the lower ones, one a
//      thread: those that fit (tested once for the slice) join the
//      slice's list of whole-slice placements;
//   2. one thread a value of the slice: its best successors of every
//      piece from the list, each placement's successor slice read by
//      consecutive threads at consecutive addresses;
//   3. one thread a row: its own placements (row_placements without the
//      whole-slice ones), then the row finished (finish_row) in shared
//      memory;
//   4. one thread a value: the finished slice written out, coalesced.
// The best successors, the finished values and the list sit in shared
// memory (SliceBlockShape lays them out), and so do the block's counters,
// added to the round's once at the end.
constexpr int SliceBlockThreads = 128;
constexpr int SliceBlockPhases = 5;

// One whole-slice placement: row r's successor row starts at
// values + r * stride (values of the band's precision).
struct WholePlacement {
    const char* values = nullptr;
    std::uint64_t stride = 0;
    int piece = 0;
};

struct SliceBlockHead {
    SliceSpan span;
    unsigned int placements = 0;  // the list's length
    int complete = 1;
    int overflowed = 0;  // a slice held more values, or placements, than the shape has room for
    unsigned long long counts[MostPieces] = {};
};

// The block work's shared memory for a whole solve: its head, the list of
// whole-slice placements, the best successors (pieces x capacity doubles)
// and the finished values (capacity, at the band's precision).
struct SliceBlockShape {
    int pieces = 0;
    int capacity = 0;    // values a slice holds at most: its most rows x the longest row
    int placements = 0;  // whole-slice placements at most: orientations x W
    int value_size = 8;
    STACK_HD static constexpr std::size_t align(std::size_t bytes) { return (bytes + 15) / 16 * 16; }
    STACK_HD std::size_t list_offset() const { return align(sizeof(SliceBlockHead)); }
    STACK_HD std::size_t best_offset() const {
        return list_offset() + align(std::size_t(placements) * sizeof(WholePlacement));
    }
    STACK_HD std::size_t done_offset() const {
        return best_offset() + std::size_t(pieces) * std::size_t(capacity) * sizeof(double);
    }
    STACK_HD std::size_t bytes() const {
        return done_offset() + align(std::size_t(capacity) * std::size_t(value_size));
    }
};

template <class Value>
class SliceBlock {
public:
    STACK_HD SliceBlock(const RoundView& view, const SliceBlockShape& shape, char* shared)
        : view_(view), shape_(shape), head_(reinterpret_cast<SliceBlockHead*>(shared)),
          list_(reinterpret_cast<WholePlacement*>(shared + shape.list_offset())),
          best_(reinterpret_cast<double*>(shared + shape.best_offset())),
          done_(reinterpret_cast<Value*>(shared + shape.done_offset())) {}

    // Before the first slice: the block's counters zeroed.
    STACK_HD void begin(int thread, int threads) {
        for (int piece = thread; piece < view_.pieces; piece += threads)
            head_->counts[piece] = 0;
        if (thread == 0) {
            head_->complete = 1;
            head_->overflowed = 0;
        }
    }

    STACK_HD void phase(int phase, std::uint64_t chunk, int thread, int threads) {
        if (phase == 0) {
            if (thread == 0) {
                head_->span = slice_span(view_, chunk);
                head_->placements = 0;
                // A slice larger than the shape's room would write past the
                // block's shared memory: the slice is left undone and the
                // round refused (end() says so), where it would corrupt it.
                if (head_->span.rows * std::uint64_t(head_->span.n) > std::uint64_t(shape_.capacity)) {
                    head_->overflowed = 1;
                    head_->span.rows = 0;
                }
            }
            return;
        }
        const SliceSpan& span = head_->span;
        const int values = int(span.rows) * span.n;
        if (span.rows == 0)
            return;
        if (phase == 1) {
            const int first = view_.lower > 1 ? view_.lower : 1;
            for (int pair = thread; pair < view_.orientations * MaxWidth; pair += threads) {
                const int o = pair / MaxWidth, x = pair % MaxWidth;
                const PortableOrientation& orientation = view_.orientation[o];
                if (x < first || x + orientation.width > view_.width
                    || !fits_at(orientation.surface, orientation.added, orientation.width, span.heights, x,
                                view_.height))
                    continue;
                const PortableRule& rule = view_.rule[pair];
                SharedCounts{head_->counts}.add(rule.piece, std::uint64_t(values));
                if (values == 0)
                    continue;
                WholePlacement placement;
                placement.piece = rule.piece;
                placement.values = reinterpret_cast<const char*>(
                    whole_slice_source<Value>(view_, span, rule, chunk, &placement.stride));
                if (placement.values == nullptr) {
                    head_->complete = 0;
                    continue;
                }
                const unsigned place = take_place();
                if (place >= unsigned(shape_.placements)) {
                    head_->overflowed = 1;
                    continue;
                }
                list_[place] = placement;
            }
        } else if (phase == 2) {
            const unsigned placements =
                head_->placements < unsigned(shape_.placements) ? head_->placements : unsigned(shape_.placements);
            for (int v = thread; v < values; v += threads) {
                const std::uint64_t row = std::uint64_t(v / span.n), i = std::uint64_t(v % span.n);
                for (int piece = 0; piece < view_.pieces; ++piece)
                    best_[std::size_t(piece) * std::size_t(shape_.capacity) + std::size_t(v)] = -1.0;
                for (unsigned p = 0; p < placements; ++p) {
                    const WholePlacement& placement = list_[p];
                    const double value =
                        double(reinterpret_cast<const Value*>(placement.values)[row * placement.stride + i]);
                    double& target =
                        best_[std::size_t(placement.piece) * std::size_t(shape_.capacity) + std::size_t(v)];
                    target = target > value ? target : value;
                }
            }
        } else if (phase == 3) {
            int heights[MaxWidth];
            for (std::uint64_t row = std::uint64_t(thread); row < span.rows; row += std::uint64_t(threads)) {
                const BoardId row_id = slice_row_heights(view_, span, row, heights);
                const BestRow best{best_ + row * std::uint64_t(span.n), 1, std::size_t(shape_.capacity)};
                if (!row_placements<Value>(view_, span, chunk, row, heights, row_id, best, false,
                                           SharedCounts{head_->counts}))
                    head_->complete = 0;
                finish_row(view_, span.n, best, done_ + row * std::uint64_t(span.n));
            }
        } else {
            Value* out = reinterpret_cast<Value*>(view_.out) + span.first_value;
            for (int v = thread; v < values; v += threads)
                out[v] = done_[v];
        }
    }

    // After the last slice: the block's counters into the round's (`add`
    // adds one piece's count), and whether every ghost row was found.
    template <class Add>
    STACK_HD bool end(int thread, int threads, const Add& add) const {
        for (int piece = thread; piece < view_.pieces; piece += threads)
            if (head_->counts[piece])
                add(piece, head_->counts[piece]);
        return head_->complete != 0;
    }
    // Whether a slice outgrew the shape (its values or its placements):
    // the round's values are then incomplete, and a bug to report.
    STACK_HD bool overflowed() const { return head_->overflowed != 0; }

private:
    // A place in the list (the list's order does not matter: its maxima
    // are exact in any order).
    STACK_HD unsigned take_place() {
#ifdef __CUDA_ARCH__
        return atomicAdd(&head_->placements, 1u);
#else
        return head_->placements++;
#endif
    }

    const RoundView& view_;
    SliceBlockShape shape_;
    SliceBlockHead* head_;
    WholePlacement* list_;
    double* best_;
    Value* done_;
};

// The block work's shared memory for a solve at a band of `value_size`
// bytes a value: a slice has at most H+1 rows (3 lower columns; else 1) of
// at most the longest row's values, and at most orientations x W
// whole-slice placements.
SliceBlockShape slice_block_shape(const Partition& partition, const Rules& rules, const RoundLayout& layout,
                                  int value_size);

// One block's work on the host: the slices chunks[first], chunks[first +
// step], ... below `count`, each phase with every one of `threads` threads
// in turn (the CPU loops that check the device's phases: the portable
// kernel's and the CUDA emulator's), in `shared` (shape.bytes()), its
// counters then given to add(piece, count). Returns whether every ghost row
// was found; throws std::logic_error when a slice outgrew `shape` (the
// device's trap, where its shared memory would be overrun).
template <class Value, class Add>
bool run_block_on_host(const RoundView& view, const SliceBlockShape& shape, char* shared, const std::uint64_t* chunks,
                       std::uint64_t count, std::uint64_t first, std::uint64_t step, int threads, const Add& add) {
    SliceBlock<Value> block(view, shape, shared);
    for (int thread = 0; thread < threads; ++thread)
        block.begin(thread, threads);
    for (std::uint64_t slice = first; slice < count; slice += step)
        for (int phase = 0; phase < SliceBlockPhases; ++phase)
            for (int thread = 0; thread < threads; ++thread)
                block.phase(phase, chunks[slice], thread, threads);
    bool complete = true;
    for (int thread = 0; thread < threads; ++thread)
        complete &= block.end(thread, threads, add);
    if (block.overflowed())
        throw std::logic_error("a slice holds more values or whole-slice placements than the block's shared memory "
                               "was shaped for (a bug: please report it)");
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
    // The block work's shared memory for this solve at a band of
    // `value_size` bytes a value (slice_block_shape).
    SliceBlockShape block_shape(int value_size) const {
        SliceBlockShape shape = block_shape_;
        shape.value_size = value_size;
        return shape;
    }

private:
    const Partition& partition_;
    std::vector<PortableOrientation> orientations_;
    std::vector<PortableRule> rules_;
    std::vector<std::uint32_t> weights_;
    std::vector<int> partners_;
    std::vector<int> in_row_;
    std::vector<int> row_indices_;
    int pieces_ = 0, most_cells_ = 0;
    SliceBlockShape block_shape_;
    bool mirrored_ = false;
};

}  // namespace stack
