#include "solver.h"

#include "support/cli.h"
#include "support/parallel.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <numeric>
#include <thread>
#include <exception>
#include <type_traits>
#include <utility>

#include <unistd.h>
#include <stdexcept>
#include <string>

namespace stack {

// Computes slices in two steps, a few slices apart so that memory keeps
// up: prepare() lists a slice's placements as updates with the address of
// the successor values they read, and prefetches those; compute() then
// applies them and finishes the rows. The successor slices of one round lie
// one per chunk all over the band, too far apart for the hardware
// prefetcher.
//
// Layout of best_: [piece][row * n + index], stride_ apart, -1 meaning "no
// placement yet" (1 + -1 adds exactly 0 to the sum). best_ is float64
// whatever the band holds (Value: double, or float in a float32 band), so
// a state's value is the same arithmetic on the same successor values in
// either, rounded once as it is stored.
class SliceKernel {
public:
    virtual ~SliceKernel() = default;
    virtual void begin_round(int sum, Band& band, Exchange& exchange, int worker) = 0;
    virtual void add_slice(std::uint64_t chunk) = 0;
    // A slice that add_slice will be given soon: the kernel may start
    // fetching what it looks up first.
    virtual void soon(std::uint64_t chunk) { (void)chunk; }
    virtual void end_round() = 0;
    virtual PieceCounts counts() const = 0;
    // The well game's tetris (clears.h): before a state's value is taken,
    // best[piece] takes the max with floor[v], v the state's value index in
    // its round's store (floor nullptr: none). The CPU kernel's alone.
    virtual void set_tetris(const double* floor, int piece) {
        if (floor)
            throw std::logic_error("this slice kernel has no tetris floor (a bug: --clears is refused with it)");
        (void)piece;
    }
    // The same for the portable slice work, which reads the tetris
    // successors from the last sweep's round itself (RoundView::tetris;
    // nullptr: none).
    virtual void set_tetris_round(const SuccessorRound* below, int piece) {
        if (below)
            throw std::logic_error("this slice kernel reads no tetris round (a bug: --clears is refused with it)");
        (void)piece;
    }
};

namespace {

template <class Value>
class TypedKernel final : public SliceKernel {
public:
    static constexpr int Lookahead = 2;  // slices prepared ahead of the one computed

    TypedKernel(const Partition& partition, const PlacementTable& placements, const PlacementRules& rules,
                const RoundLayout& layout, bool by_slice)
        : partition_(partition), placements_(placements), rules_(rules), set_(placements.rules()), layout_(layout),
          rank_(partition.rank()), width_(partition.geometry().width()), height_(partition.geometry().height()),
          lower_(partition.lower_columns()), classes_(layout.residues().count()), pieces_(set_.piece_count()),
          cursors_(std::size_t(set_.orientation_count()) * MaxWidth) {
        const std::size_t most_rows = lower_ == 3 ? std::size_t(height_) + 1 : 1;
        stride_ = most_rows * std::size_t(height_ + 1);
        best_.resize(std::size_t(pieces_) * stride_);
        const std::size_t steps = placements.first_steps(false).size();
        // Whole-slice updates (one a row when the top rises in a mirrored
        // layout), row updates, column-0 states, and a mirrored layout's
        // in-row reads past a row's top.
        const std::size_t most = std::size_t(width_ * most_rows + (width_ + steps) * most_rows)
                                     * std::size_t(placements.most_placements_at_one_column())
                                 + most_rows * std::size_t(height_ + 1) * set_.one_column().size();
        for (PreparedSlice& slice : ring_) {
            slice.updates.resize(most);
            slice.mirrors.resize(most);
        }
        for (int column = 0; column <= width_; ++column)
            powers_[std::size_t(column)] = partition.geometry().place_value(column);
        by_slice_ = by_slice;
        for (int x = 0; x < std::min(lower_, width_); ++x)
            for (int o = 0; o < set_.orientation_count(); ++o) {
                const Orientation& orientation = set_.orientation(o);
                if (x + orientation.width <= width_ && (x > 0 || orientation.width > 1))
                    lower_shapes_.push_back({orientation, o, x});
            }
        programs_on_ = by_slice && lower_ == 3 && lower_shapes_.size() <= MostLowerShapes;
        if (programs_on_)
            build_upper_fit();
        // One-column orientations at column 0 read their own row, further up.
        block_ = 0;
        for (const int o : set_.one_column()) {
            const int piece = set_.orientation(o).piece;
            const int jump = in_row_jump(set_, classes_, piece);
            in_row_.push_back({piece, jump, o});
            block_ = block_ == 0 ? jump : std::min(block_, jump);
        }
    }

    // Points the ghost cursors at the rows the round of `sum` reads, and
    // starts finding the rows of the round that others read.
    // `worker` names this kernel's finder of the rows others read (the
    // caller has begun the round's sends).
    void begin_round(int sum, Band& band, Exchange& exchange, int worker) override {
        sum_ = sum;
        band_ = &band;
        exchange_ = &exchange;
        finder_ = &exchange.finder(worker);
        row_index_ = layout_.row_indices(sum);
        stored_h0_.clear();
        for (int h0 = 0; h0 <= height_; ++h0)
            if (row_index_[h0] >= 0)
                stored_h0_.push_back(h0);
        for (int step = 1; step <= set_.most_cells(); ++step)
            successor_index_[std::size_t(step)] = layout_.row_indices(sum + step);
        prepared_ = computed_ = 0;
        if (programs_on_) {
            programs_.clear();
            program_shapes_.clear();
            program_runs_.clear();
            program_mirrors_.clear();
            program_index_.assign(std::size_t(partition_.most_lower_sum() + 1) * std::size_t(height_ + 1)
                                      * std::size_t(layout_.mirrored() ? height_ + 1 : 1),
                                  -1);
        }
        for (int step = 1; step <= set_.most_cells(); ++step)
            if (band.holds(sum + step)) {
                const RoundStore& round = band[sum + step];
                successor_rounds_[std::size_t(step)] = {round.at_as<Value>(0), &round,
                                                        std::uint32_t(layout_.row_length(sum + step))};
            } else {
                successor_rounds_[std::size_t(step)] = {
                    nullptr, nullptr,
                    std::uint32_t(sum + step < partition_.rounds() ? layout_.row_length(sum + step) : 0)};
            }
        successor_starts_.clear();
        for (int o = 0; o < set_.orientation_count(); ++o)
            for (int x = 0; x + set_.orientation(o).width <= width_; ++x) {
                const PlacementRule& rule = rules_(o, x);
                if (rule.successor_owner != rank_) {
                    cursor(o, x) = exchange.cursor(sum + rule.sum_step, rule.successor_owner);
                } else if (const SuccessorRound& target = successor_rounds_[rule.sum_step]; target.store) {
                    const SuccessorStarts starts{&target.store->slice_start, rule.chunk_shift,
                                                 target.store->slice_start.size()};
                    if (std::find(successor_starts_.begin(), successor_starts_.end(), starts)
                        == successor_starts_.end())
                        successor_starts_.push_back(starts);
                }
            }
    }
    // The slice starts a slice's placements look up first, one per
    // successor slice of this rank: their arrays are as large as the
    // round's chunk list, and read a few slices apart on every round of the
    // band, too many streams for the hardware to follow.
    void soon(std::uint64_t chunk) override {
        if (!by_slice_)
            return;
        const RoundStore& round = (*band_)[sum_];
        round.slice_start.prefetch(chunk, 3);
        __builtin_prefetch(partition_.upper_sums() + chunk, 0, 3);
        for (const SuccessorStarts& starts : successor_starts_)
            if (chunk + starts.shift < starts.chunks)
                starts.slice_start->prefetch(chunk + starts.shift, 3);
    }
    // Slices in increasing chunk order; each is computed Lookahead later,
    // its mirror reads placed one slice after it was prepared.
    void add_slice(std::uint64_t chunk) override {
        if (prepared_ - computed_ == Lookahead)
            compute(ring_[computed_++ % Lookahead]);
        if (prepared_ > computed_)
            place_mirrors(ring_[(prepared_ - 1) % Lookahead]);
        prepare(ring_[prepared_++ % Lookahead], chunk);
    }
    void end_round() override {
        while (computed_ < prepared_) {
            place_mirrors(ring_[computed_ % Lookahead]);
            compute(ring_[computed_++ % Lookahead]);
        }
    }
    PieceCounts counts() const override { return PieceCounts(counts_.begin(), counts_.begin() + pieces_); }
    void set_tetris(const double* floor, int piece) override {
        tetris_ = floor;
        tetris_piece_ = piece;
    }

private:
    const double* tetris_ = nullptr;  // set_tetris
    int tetris_piece_ = -1;
    // One update: best[piece][target .. target + length) takes the max with
    // source[0 .. length): a whole slice, a row, or one state.
    struct Update {
        const Value* source;
        std::uint32_t target;
        std::uint32_t length;
        std::uint16_t piece;
        bool copy;  // the piece's first whole-slice update: copies instead of taking the max
    };
    // A mirror read on this rank, placed a slice later (place_mirrors), when
    // the slice start it needs has come in: slice.updates[update] reads the
    // value `index` of row `row` of the slice of owned chunk `local`, top
    // `top`, in round sum_ + step.
    struct MirrorRead {
        std::uint64_t local;
        std::uint32_t update;
        std::uint32_t row;
        int index;
        std::uint16_t step;
        std::uint16_t top;
    };
    // The lower placements of every slice of one round that shares a lower
    // sum, a column-3 height and a top, as the rows they take: each shape's
    // runs of rows (or single states) with their offsets from the shape's
    // successor slice. Built once a round for each such slice and reused by
    // the slices of every other chunk that share them (lower_program).
    static constexpr int MostLowerShapes = 64;
    struct ProgramRun {
        std::uint32_t target;  // in the slice's values
        std::uint32_t source;  // from the shape's successor slice's first value
        std::uint32_t count;   // rows (of `length`), each a stride on
    };
    struct ProgramShape {
        std::uint16_t shape;  // in lower_shapes_
        std::uint16_t piece;
        std::uint32_t length;  // values a run's row: the row's n, or 1
        std::uint32_t target_stride, source_stride;
        std::uint32_t first, end;  // its runs in program_runs_
        std::uint64_t values;      // counted connections when it fits
        std::uint32_t span_begin, span_end;  // the successor values it reads, from the first
    };
    struct Program {
        std::uint32_t first, end;  // its shapes in program_shapes_
        std::uint32_t mirrors_first, mirrors_end;  // its (shape, h0, h2) mirror reads in program_mirrors_
    };
    // A mirror read: its state (h0, row h2) and shape, and where the image
    // lies when `fast`: its chunk is the slice's image base (prepare) plus
    // `delta`, its row the slice's image row, its value `index` in
    // that row, in round sum_ + step, at top `image_top`.
    struct ProgramMirror {
        std::uint64_t delta;
        std::uint32_t target;
        std::int32_t index;
        std::uint16_t shape, piece;
        std::int16_t h0, h2;
        std::uint8_t step, image_top;
        bool fast;
    };
    struct PreparedSlice {
        Value* out = nullptr;
        std::uint64_t first = 0;  // out's value index in the round
        std::uint32_t rows = 0;
        std::uint32_t n = 0;  // values a row
        std::uint32_t count = 0;
        std::uint64_t covered = 0;  // pieces with a whole-slice update: no -1 fill needed
        std::vector<Update> updates;
        std::vector<MirrorRead> mirrors;  // [0, mirror_count): updates whose source is not yet known
        std::uint32_t mirror_count = 0;
        // The slice's program (lower_program) and, for each of its shapes
        // that the slice's upper columns let fit, its successor slice's
        // first value (nullptr: the shape does not fit this slice).
        std::int32_t program = -1;
        std::array<const Value*, MostLowerShapes> bases{};
    };
    // A one-column orientation at column 0: its piece, and how many stored
    // states further up the row its successor lies.
    struct InRow {
        int piece;
        int jump;
        int orientation;
    };
    // Where the rows of round sum_ + step live, for the rules that stay on
    // this rank: looked up once a round, not once a placement.
    struct SuccessorRound {
        const Value* values = nullptr;
        const RoundStore* store = nullptr;
        std::uint32_t ghost_stride = 0;  // values from one ghost row to the next: a full row
    };
    // A successor row, and the values from it to the next row of its slice.
    struct Source {
        const Value* values;
        std::uint32_t stride;
    };

    // The first row of the successor slice (or the successor row) of a
    // placement from `chunk`, whose rows are `top` high at column W-1, in
    // the band or among the ghosts.
    GhostCursor& cursor(int o, int x) { return cursors_[std::size_t(o) * MaxWidth + std::size_t(x)]; }
    Source successor(const PlacementRule& rule, int o, int x, std::uint64_t chunk, std::uint64_t row_in_slice,
                     BoardId row_id, int top) {
        const SuccessorRound& target = successor_rounds_[rule.sum_step];
        if (rule.successor_owner != rank_)
            return {static_cast<const Value*>(cursor(o, x).find(row_id + rule.row_offset)), target.ghost_stride};
        const int successor_top = layout_.mirrored() ? top + rule.top_added : 0;
        return {target.values + target.store->row_value(chunk + rule.chunk_shift, successor_top, row_in_slice),
                std::uint32_t(target.store->length(successor_top))};
    }
    // In a mirrored layout, a successor board that is not canonical reads
    // its mirror image's value, in the round of that image's row sum (one
    // of S+1 .. S+K, already computed), on this rank or among the ghost
    // rows its owner sent (exchange.h finds them). On this rank the read is
    // placed a slice later: the image's slice start is prefetched now,
    // its value then (place_mirrors), like every other source.
    void add_mirror(PreparedSlice& slice, const Heights& successor, std::uint32_t target, int piece) {
        const MirrorImage image = mirror_image(width_, height_, lower_, powers_.data(), successor.data());
        const int step = image.sum - sum_;
        const RoundStore* round =
            step >= 1 && step <= set_.most_cells() ? successor_rounds_[std::size_t(step)].store : nullptr;
        const int index = round != nullptr ? successor_index_[std::size_t(step)][image.h0] : -1;
        if (round == nullptr || index < 0)
            throw std::logic_error("round " + std::to_string(sum_) + " reads the mirror image of a board in round "
                                   + std::to_string(image.sum) + ", which is not held (a bug: please report it)");
        const int ranks = partition_.ranks();
        const int owner = ranks == 1 ? 0 : int(image.chunk % std::uint64_t(ranks));
        if (owner == rank_) {
            const std::uint64_t local = ranks == 1 ? image.chunk : image.chunk / std::uint64_t(ranks);
            round->slice_start.prefetch(local, 2);
            slice.mirrors[slice.mirror_count++] = {local,        slice.count,          std::uint32_t(image.row),
                                                   index,        std::uint16_t(step), std::uint16_t(image.top)};
            slice.updates[slice.count++] = {nullptr, target, 1, std::uint16_t(piece), false};
            counts_[std::size_t(piece)] += 1;
            return;
        }
        const char* row = exchange_->find_ghost(image.sum, owner, image.row_id);
        if (row == nullptr)
            throw std::logic_error("row " + std::to_string(image.row_id) + " (the mirror image of a successor) was "
                                   "not received from its owner: the exchange missed it (a bug: please report it)");
        add(slice, reinterpret_cast<const Value*>(row) + index, target, 1, piece);
    }
    // The sources of a prepared slice's mirror reads on this rank, now that
    // their slice starts are cached; their values are prefetched.
    void place_mirrors(PreparedSlice& slice) {
        for (std::uint32_t m = 0; m < slice.mirror_count; ++m) {
            const MirrorRead& read = slice.mirrors[m];
            const RoundStore& round = *successor_rounds_[read.step].store;
            const Value* source = round.at_as<Value>(round.row_value(read.local, read.top, read.row)) + read.index;
            __builtin_prefetch(source, 0, 2);
            slice.updates[read.update].source = source;
        }
        slice.mirror_count = 0;
    }
    // Into the second-level cache: a slice's sources would crowd the first.
    static void prefetch(const Value* source, std::uint32_t length) {
        for (std::uint32_t i = 0; i < length; i += 64 / sizeof(Value))
            __builtin_prefetch(source + i, 0, 2);
        __builtin_prefetch(source + length - 1, 0, 2);
    }
    // A round may store no state at all (a set with more classes than the
    // well has heights, e.g. the pentominoes' one class in a well under 4
    // high): its updates are empty and their successors need not exist.
    // `copy` forces a copy (each row of a whole-slice update taken a row at
    // a time).
    void add(PreparedSlice& slice, const Value* source, std::uint32_t target, std::uint32_t length, int piece,
             bool whole_slice = false, bool copy_row = false) {
        if (length == 0)
            return;
        prefetch(source, length);
        const bool copy = copy_row || (whole_slice && !(slice.covered >> piece & 1));
        if (by_slice_ && !copy && slice.count > 0) {  // the run of the update before, one longer: one update
            Update& last = slice.updates[slice.count - 1];
            if (!last.copy && last.piece == piece && last.source != nullptr && last.source + last.length == source
                && last.target + last.length == target) {
                last.length += length;
                counts_[std::size_t(piece)] += length;
                return;
            }
        }
        if (whole_slice)
            slice.covered |= std::uint64_t(1) << piece;
        slice.updates[slice.count++] = {source, target, length, std::uint16_t(piece), copy};
        counts_[std::size_t(piece)] += length;
    }
    void prepare(PreparedSlice& slice, std::uint64_t chunk);
    void add_row_placement(PreparedSlice& slice, std::uint64_t chunk, int lower_sum, int top, std::uint32_t n,
                           const Heights& row_heights, BoardId row_id, std::uint32_t row_start, int o, int x, int h0);
    void lower_placements(PreparedSlice& slice, std::uint64_t chunk, const Heights& upper, int lower_sum, int top,
                          std::uint32_t n, bool remote_only);
    void compute(const PreparedSlice& slice);
    template <int Block, int Pieces>
    void finish_rows(const PreparedSlice& slice);

    const Partition& partition_;
    const PlacementTable& placements_;
    const PlacementRules& rules_;
    const Rules& set_;
    const RoundLayout& layout_;
    int rank_, width_, height_, lower_, classes_, pieces_;
    std::vector<InRow> in_row_;  // the one-column orientations at column 0
    // An (orientation, column) a slice's rows take row by row: at columns
    // 1 .. L-1, and at column 0 when wider than one column.
    struct LowerShape {
        Orientation orientation;
        int orientation_index;
        int column;
    };
    std::vector<LowerShape> lower_shapes_;
    // The programs of the round (lower_program): [lower sum][h3][top] ->
    // index in programs_, -1 when not built yet.
    bool programs_on_ = false;
    std::vector<std::int32_t> program_index_;
    std::vector<Program> programs_;
    std::vector<ProgramShape> program_shapes_;
    std::vector<ProgramRun> program_runs_;
    std::vector<ProgramMirror> program_mirrors_;
    int lower_program(int lower_sum, int h3, int top, std::uint32_t n);
    // Narrows the rows first..last of a slice (lower sum `lower_sum`, its
    // column 3 `h3` high) to those an orientation at lower column x can
    // take as far as its steps from column 1 to 2 and from 2 to 3 decide:
    // h2 - h1 = s pins 2 h2 = lower_sum + s, h3 - h2 = s pins h2 = h3 - s.
    // False when the first step's parity leaves none. (At column 0 the first
    // step pins h0 in each row instead; past column 3 the slice decides.)
    static bool pin_rows(const Orientation& orientation, int x, int lower_sum, int h3, int& first, int& last) {
        for (int k = 0; k + 1 < orientation.width; ++k) {
            const int left = x + k, step = orientation.surface[std::size_t(k)];
            if (left == 1) {
                if ((lower_sum + step) % 2 != 0)
                    return false;
                first = std::max(first, (lower_sum + step) / 2);
                last = std::min(last, (lower_sum + step) / 2);
            } else if (left == 2) {
                first = std::max(first, h3 - step);
                last = std::min(last, h3 - step);
            }
        }
        return true;
    }
    // A mirror read of a program: the placement of `orientation` at column
    // 0 (shape `shape`) on state h0 of row h2. Where the placement leaves
    // columns W-3 .. W-1 as they were (`untouched`) and the well has at
    // least 7 columns, the image's columns 1, 2 and 0 (its row and h0) are
    // the slice's columns W-2, W-3 and W-1, and its chunk is the slice's
    // columns 3 .. W-4 (the image base) plus what columns 0 .. 2 and the
    // placement add: all but the first are the program's, worked out once
    // (`fast`); any other is found by mirror_image, read by read.
    ProgramMirror program_mirror(std::size_t shape, const Orientation& orientation, int sum_step, int piece,
                                 bool untouched, int lower_sum, int top, std::uint32_t n, int h0, int h2) const {
        ProgramMirror mirror{};
        mirror.shape = std::uint16_t(shape);
        mirror.piece = std::uint16_t(piece);
        mirror.h0 = std::int16_t(h0);
        mirror.h2 = std::int16_t(h2);
        const int low = lower_sum > height_ ? lower_sum - height_ : 0;
        mirror.target = std::uint32_t(h2 - low) * n + std::uint32_t(row_index_[h0]);
        if (!untouched || width_ < 7)
            return mirror;
        int board[MostPieceColumns + 3] = {h0, lower_sum - h2, h2};
        for (int k = 0; k < orientation.width; ++k)
            board[k] += orientation.added[std::size_t(k)];
        std::uint64_t delta = 0;
        for (int b = 0; b < std::max(3, orientation.width); ++b)  // column b is the image's W-1-b
            delta += std::uint64_t(b < 3 ? board[b] : orientation.added[std::size_t(b)])
                     * powers_[std::size_t(width_ - 4 - b)];
        const int step = sum_step + board[0] - top;
        if (step < 1 || step > set_.most_cells() || successor_rounds_[std::size_t(step)].store == nullptr
            || successor_index_[std::size_t(step)][top] < 0)
            return mirror;
        mirror.delta = delta;
        mirror.step = std::uint8_t(step);
        mirror.image_top = std::uint8_t(board[0]);
        mirror.index = successor_index_[std::size_t(step)][top];
        mirror.fast = true;
        return mirror;
    }
    // Whether a lower shape fits a slice as far as its columns 3 and up
    // decide (their height limit and steps): the rest of the placement rule
    // is its program's.
    bool fits_upper(const LowerShape& shape, const Heights& heights) const {
        const Orientation& orientation = shape.orientation;
        for (int k = 0; k < orientation.width; ++k) {
            const int column = shape.column + k;
            if (column < 3)
                continue;
            if (heights[std::size_t(column)] + orientation.added[std::size_t(k)] > height_)
                return false;
            if (k + 1 < orientation.width
                && heights[std::size_t(column) + 1] - heights[std::size_t(column)] != orientation.surface[std::size_t(k)])
                return false;
        }
        return true;
    }
    // Which lower shapes fit a slice as far as its upper columns decide,
    // as a mask over lower_shapes_: where every shape reaches no further
    // than column 5, that depends on columns 3..5 alone, so fits_upper is
    // asked once for each of their heights, here, and a slice looks its
    // mask up (upper_fit_of). Otherwise (a wider set, or too many heights
    // for a small table) each slice asks fits_upper.
    void build_upper_fit() {
        int reach = 0;
        for (const LowerShape& shape : lower_shapes_)
            reach = std::max(reach, shape.column + shape.orientation.width - 1);
        fit_columns_ = std::max(0, std::min(reach, width_ - 1) - 2);  // columns 3 .. 2 + fit_columns_
        std::uint64_t entries = 1;
        for (int c = 0; c < fit_columns_; ++c)
            entries *= std::uint64_t(height_) + 1;
        upper_fit_.clear();
        if (reach > 5 || entries > (std::uint64_t(1) << 16)) {
            fit_columns_ = -1;
            return;
        }
        upper_fit_.assign(entries, 0);
        Heights heights{};
        for (std::uint64_t entry = 0; entry < entries; ++entry) {
            std::uint64_t rest = entry;
            for (int c = 0; c < fit_columns_; ++c, rest /= std::uint64_t(height_) + 1)
                heights[std::size_t(3 + c)] = int(rest % (std::uint64_t(height_) + 1));
            upper_fit_[entry] = fit_mask(heights);
        }
    }
    // The mask itself, from fits_upper.
    std::uint64_t fit_mask(const Heights& heights) const {
        std::uint64_t mask = 0;
        for (std::size_t k = 0; k < lower_shapes_.size(); ++k)
            if (fits_upper(lower_shapes_[k], heights))
                mask |= std::uint64_t(1) << k;
        return mask;
    }
    std::uint64_t upper_fit_of(const Heights& heights) const {
        if (fit_columns_ < 0)
            return fit_mask(heights);
        std::uint64_t entry = 0;
        for (int c = fit_columns_; c-- > 0;)
            entry = entry * (std::uint64_t(height_) + 1) + std::uint64_t(heights[std::size_t(3 + c)]);
        return upper_fit_[entry];
    }
    int fit_columns_ = -1;                 // build_upper_fit: the upper columns a mask depends on, -1: none
    std::vector<std::uint64_t> upper_fit_;  // [h3 + (H+1) h4 + (H+1)^2 h5] -> mask over lower_shapes_
    bool by_slice_ = true;  // KernelKind::Cpu: lower_placements; CpuRows: the row walk
    std::vector<int> stored_h0_;  // the round's stored h0, ascending (a row of n values holds the first n)
    struct SuccessorStarts {
        const SliceStarts* slice_start;
        std::uint64_t shift, chunks;
        bool operator==(const SuccessorStarts&) const = default;
    };
    std::vector<SuccessorStarts> successor_starts_;  // soon(): the successor slices' starts on this rank
    int block_ = 0;              // the smallest jump of in_row_, 0 when there is none
    int sum_ = 0;
    Band* band_ = nullptr;
    Exchange* exchange_ = nullptr;
    Exchange::Finder* finder_ = nullptr;
    std::size_t stride_ = 0;
    std::vector<double> best_;  // [piece][row * n + index] -> best successor value
    std::array<PreparedSlice, Lookahead> ring_;
    std::uint64_t prepared_ = 0, computed_ = 0;
    std::array<std::uint64_t, MostPieces> counts_{};    // [piece]: a fixed array, one store per update
    std::vector<GhostCursor> cursors_;                  // [orientation * MaxWidth + column]
    std::array<std::uint64_t, MaxWidth + 1> powers_{};  // [column] -> (H+1)^column
    // [sum step]: fixed arrays, so a lookup is one load (a piece has at most
    // MostPieceColumns^2 cells)
    std::array<SuccessorRound, MostPieceColumns * MostPieceColumns + 1> successor_rounds_{};
    const int* row_index_ = nullptr;  // [h0] -> index in a row of this round
    std::array<const int*, MostPieceColumns * MostPieceColumns + 1> successor_index_{};  // [sum step] -> the same there
};

// One placement at a lower column or column 0 of one row: the whole row
// (h0 < 0: its successor row holds the same stored h0), or the one state
// whose h0 the placement's first step fixes, read from its successor or,
// in a mirrored layout, from the successor's mirror image. Both kernels
// place their row-level placements through it.
template <class Value>
[[gnu::always_inline]] inline void TypedKernel<Value>::add_row_placement(PreparedSlice& slice, std::uint64_t chunk,
                                                                         int lower_sum, int top, std::uint32_t n,
                                                                         const Heights& row_heights, BoardId row_id,
                                                                         std::uint32_t row_start, int o, int x,
                                                                         int h0) {
    const PlacementRule& rule = rules_.data()[std::size_t(o) * MaxWidth + std::size_t(x)];
    const int successor_lower_sum = lower_sum + rule.lower_added[0] + rule.lower_added[1];
    const std::uint64_t successor_row = Partition::slice_row(lower_, height_, row_heights[2] + rule.lower_added[1],
                                                             successor_lower_sum);
    if (h0 < 0) {  // the whole row: its successor row has the same stored h0
        add(slice, successor(rule, o, x, chunk, successor_row, row_id, top).values, row_start, n, rule.piece);
        return;
    }
    const int index = row_index_[h0];  // one state, whose h0 the step fixes
    const int successor_h0 = h0 + rule.column0_added;
    if (layout_.mirrored() && successor_h0 > top + rule.top_added) {  // its mirror image is stored
        Heights board = row_heights;
        board[0] = h0;
        add_mirror(slice, placements_.after(board, o, 0), row_start + std::uint32_t(index), rule.piece);
        return;
    }
    const Value* source =
        successor(rule, o, x, chunk, successor_row, row_id, top).values + successor_index_[rule.sum_step][successor_h0];
    add(slice, source, row_start + std::uint32_t(index), 1, rule.piece);
}

// The placements at the lower columns (1, 2) and the wide ones at column
// 0, each (orientation, column) tried once for the whole slice. A slice's
// rows are h2 = low .. high with h1 = lower_sum - h2 (three lower columns),
// so each step of an orientation's underside is either fixed by the
// slice (columns 3 and up: tested once), or pins the one row that can take
// it (h2 - h1 = s: 2 h2 = lower_sum + s; h3 - h2 = s: h2 = h3 - s), or,
// at column 0, pins h0 = h1 - s in every row. An orientation whose steps
// pin no row (a one-column one at column 1 or 2, a two-column one at
// column 0) is tried on every row. Each row it may fit is then tested by
// the placement rule itself (Orientation::fits: the steps and the height
// limit), so the placements found are the row walk's, in another order
// (which the maxima do not see). Whole-row updates of consecutive rows
// whose successors are consecutive too are merged into one (add). With
// `remote_only`, only the shapes whose successors lie on another rank (the
// rest are in the slice's program): a ghost row is found by its id.
template <class Value>
void TypedKernel<Value>::lower_placements(PreparedSlice& slice, std::uint64_t chunk, const Heights& upper,
                                          int lower_sum, int top, std::uint32_t n, bool remote_only) {
    const int low = lower_sum > height_ ? lower_sum - height_ : 0;
    const int high = lower_sum < height_ ? lower_sum : height_;
    const BoardId chunk_first = partition_.chunk_first(chunk);
    const BoardId unit1 = powers_[1], unit2 = powers_[2];
    Heights row = upper;
    for (const LowerShape& shape : lower_shapes_) {
        const Orientation& orientation = shape.orientation;
        const int x = shape.column;
        if (remote_only
            && rules_.data()[std::size_t(shape.orientation_index) * MaxWidth + std::size_t(x)].successor_owner == rank_)
            continue;  // in the slice's program
        int first = low, last = high;
        bool holds = pin_rows(orientation, x, lower_sum, upper[3], first, last);
        for (int k = 0; holds && k + 1 < orientation.width; ++k)
            if (const int left = x + k; left >= 3)
                holds = upper[std::size_t(left) + 1] - upper[std::size_t(left)] == orientation.surface[std::size_t(k)];
        if (!holds)
            continue;
        const auto place = [&](int h2, int h0) {
            row[1] = lower_sum - h2;
            row[2] = h2;
            if (h0 >= 0)
                row[0] = h0;
            if (!orientation.fits(row.data(), x, height_))
                return;
            const std::uint32_t row_start = std::uint32_t(h2 - low) * n;
            const BoardId row_id = chunk_first + BoardId(row[1]) * unit1 + BoardId(h2) * unit2;
            add_row_placement(slice, chunk, lower_sum, top, n, row, row_id, row_start, shape.orientation_index, x,
                              h0);
        };
        if (x > 0) {
            for (int h2 = first; h2 <= last; ++h2)
                place(h2, -1);
            continue;
        }
        // At column 0 the step h1 - h0 = s fixes h0 = lower_sum - h2 - s:
        // only the rows whose h0 is stored, found from the row's stored h0
        // (the first n of the round's, ascending; taken from the last, so
        // that the rows, and their ghost successors, ascend).
        const int pinned = lower_sum - orientation.surface[0];
        for (std::uint32_t i = n; i-- > 0;) {
            const int h0 = stored_h0_[i], h2 = pinned - h0;
            if (h2 >= first && h2 <= last)
                place(h2, h0);
        }
    }
}

// The program of the slices of this round whose lower columns sum to
// `lower_sum`, whose column 3 is `h3` high and whose top (a mirrored
// layout's column W-1) is `top`: for each lower shape, the rows (at column
// 0, the states) that its placement rule lets it take as far as columns
// 0..2 and the step to column 3 decide, found as lower_placements finds
// them, each with its offset in the shape's successor slice, whose rows
// are the same for all these slices. What columns 3 and up decide
// (fits_upper) is the slice's own, tested once a slice. Runs of rows (or
// states) a fixed stride apart in both are one run. A state whose
// successor's mirror image is stored is listed apart, for add_mirror.
template <class Value>
int TypedKernel<Value>::lower_program(int lower_sum, int h3, int top, std::uint32_t n) {
    const std::size_t key = (std::size_t(lower_sum) * std::size_t(height_ + 1) + std::size_t(h3))
                                * std::size_t(layout_.mirrored() ? height_ + 1 : 1)
                            + std::size_t(layout_.mirrored() ? top : 0);
    if (program_index_[key] >= 0)
        return program_index_[key];
    const int low = lower_sum > height_ ? lower_sum - height_ : 0;
    const int high = lower_sum < height_ ? lower_sum : height_;
    Program program{};
    program.first = std::uint32_t(program_shapes_.size());
    program.mirrors_first = std::uint32_t(program_mirrors_.size());
    for (std::size_t k = 0; k < lower_shapes_.size(); ++k) {
        const LowerShape& lower = lower_shapes_[k];
        const Orientation& orientation = lower.orientation;
        const int x = lower.column;
        const PlacementRule& rule = rules_(lower.orientation_index, x);
        if (rule.successor_owner != rank_)
            continue;  // another rank's rows: lower_placements, row by row
        int first = low, last = high;
        const bool holds = pin_rows(orientation, x, lower_sum, h3, first, last);
        if (!holds || first > last)
            continue;
        const int successor_lower_sum = lower_sum + rule.lower_added[0] + rule.lower_added[1];
        const int successor_low = successor_lower_sum > height_ ? successor_lower_sum - height_ : 0;
        const int successor_top = layout_.mirrored() ? top + rule.top_added : 0;
        const SuccessorRound& target_round = successor_rounds_[rule.sum_step];
        const std::uint32_t successor_n =
            target_round.store != nullptr && successor_top <= height_ ? std::uint32_t(target_round.store->length(successor_top)) : 0;
        const int* const successor_index = successor_index_[rule.sum_step];
        ProgramShape shape{};
        shape.shape = std::uint16_t(k);
        shape.piece = std::uint16_t(rule.piece);
        shape.length = x > 0 ? n : 1;
        shape.target_stride = x > 0 ? n : 0;
        shape.source_stride = x > 0 ? successor_n : 0;
        shape.first = shape.end = std::uint32_t(program_runs_.size());
        shape.span_begin = std::numeric_limits<std::uint32_t>::max();
        shape.span_end = 0;
        bool strides_set = x > 0;
        const auto lower_fits = [&](int h0, int h2) {
            const int lower[3] = {h0, lower_sum - h2, h2};
            for (int j = 0; j < orientation.width && x + j < 3; ++j)
                if (lower[x + j] + orientation.added[std::size_t(j)] > height_)
                    return false;
            return true;
        };
        const auto emit = [&](std::uint32_t target, std::uint32_t source) {
            shape.span_begin = std::min(shape.span_begin, source);
            shape.span_end = std::max(shape.span_end, source + shape.length);
            shape.values += shape.length;
            if (shape.end > shape.first) {
                ProgramRun& run = program_runs_.back();
                if (!strides_set && run.count == 1 && target > run.target && source > run.source) {
                    shape.target_stride = target - run.target;
                    shape.source_stride = source - run.source;
                    strides_set = true;
                }
                if (strides_set && target == run.target + run.count * shape.target_stride
                    && source == run.source + run.count * shape.source_stride) {
                    ++run.count;
                    return;
                }
            }
            program_runs_.push_back({target, source, 1});
            ++shape.end;
        };
        if (x > 0) {
            if (n == 0)
                continue;
            for (int h2 = first; h2 <= last; ++h2)
                if (lower_fits(0, h2))
                    emit(std::uint32_t(h2 - low) * n, std::uint32_t(h2 + rule.lower_added[1] - successor_low) * successor_n);
        } else {
            // h1 - h0 = s fixes h0 in each row: the row's stored h0, from the
            // last, so that the rows ascend (as lower_placements takes them).
            const int pinned = lower_sum - orientation.surface[0];
            for (std::uint32_t i = n; i-- > 0;) {
                const int h0 = stored_h0_[i], h2 = pinned - h0;
                if (h2 < first || h2 > last || !lower_fits(h0, h2))
                    continue;
                if (layout_.mirrored() && h0 + rule.column0_added > top + rule.top_added) {
                    program_mirrors_.push_back(program_mirror(k, orientation, rule.sum_step, rule.piece,
                                                              rule.top_added == 0 && orientation.width <= width_ - 3,
                                                              lower_sum, top, n, h0, h2));
                    continue;
                }
                emit(std::uint32_t(h2 - low) * n + std::uint32_t(row_index_[h0]),
                     std::uint32_t(h2 + rule.lower_added[1] - successor_low) * successor_n
                         + std::uint32_t(successor_index[h0 + rule.column0_added]));
            }
        }
        if (shape.end > shape.first)
            program_shapes_.push_back(shape);
    }
    // A one-column orientation at column 0 whose board rises past the
    // row's top leaves a canonical board for its mirror image: listed as
    // shape lower_shapes_.size() + its index in in_row_.
    if (layout_.mirrored())
        for (int h2 = low; h2 <= high; ++h2)
            for (std::size_t j = 0; j < in_row_.size(); ++j) {
                const InRowMirrors states =
                    in_row_mirrors(top, set_.orientation(in_row_[j].orientation).added[0], height_);
                for (int h0 = states.first; h0 <= states.last; ++h0)
                    if (row_index_[h0] >= 0)
                        program_mirrors_.push_back(program_mirror(lower_shapes_.size() + j,
                                                                  set_.orientation(in_row_[j].orientation), 0,
                                                                  in_row_[j].piece, true, lower_sum, top, n, h0, h2));
            }
    program.end = std::uint32_t(program_shapes_.size());
    program.mirrors_end = std::uint32_t(program_mirrors_.size());
    programs_.push_back(program);
    return program_index_[key] = std::int32_t(programs_.size() - 1);
}

template <class Value>
void TypedKernel<Value>::prepare(PreparedSlice& slice, std::uint64_t chunk) {
    const RoundStore& round = (*band_)[sum_];
    const std::uint64_t first_row = round.slice_start[chunk];
    const std::uint32_t rows = std::uint32_t(round.slice_start[chunk + 1] - first_row);
    const Geometry& geometry = partition_.geometry();
    const BoardId chunk_first = partition_.chunk_first(chunk);
    const int lower_sum = sum_ - partition_.upper_sum(chunk);
    Heights heights = geometry.decode(chunk_first);
    const bool mirrored = layout_.mirrored();
    const int top = mirrored ? heights[width_ - 1] : 0;  // any top reads a full layout's rows
    const std::uint32_t n = std::uint32_t(round.length(top));
    const std::uint64_t first_value = round.slice_value(chunk, top);
    slice.out = const_cast<Value*>(round.at_as<Value>(first_value));
    slice.first = first_value;
    slice.rows = rows;
    slice.n = n;
    slice.count = 0;
    slice.mirror_count = 0;
    slice.covered = 0;

    // Placements in the upper columns: the whole slice at once (a row at a
    // time when they raise a mirrored layout's top: its rows grow longer).
    BoardId first_row_id = 0;
    partition_.for_each_row_of_slice(heights, lower_sum, [&](std::uint64_t row, const Heights& row_heights) {
        if (row == 0)
            first_row_id = geometry.encode(row_heights);
    });
    const PlacementTable::Differences differences = placements_.differences(heights);
    exchange_->find_slice(*finder_, heights);
    // The tables held in locals: add() stores through pointers that could
    // alias members, which would otherwise be reloaded at every placement.
    const PlacementRule* const rule_table = rules_.data();
    const int* const row_index = row_index_;
    for (int x = std::max(lower_, 1); x < width_; ++x)
        placements_.for_each_placement_at(heights, differences, x, [&](int o, int, BoardId) {
            const PlacementRule& rule = rule_table[std::size_t(o) * MaxWidth + std::size_t(x)];
            const Source source = successor(rule, o, x, chunk, 0, first_row_id, top);
            if (source.stride == n || rows == 1) {
                add(slice, source.values, 0, rows * n, rule.piece, true);
                return;
            }
            const bool copy = !(slice.covered >> rule.piece & 1);
            for (std::uint32_t row = 0; row < rows; ++row)
                add(slice, source.values + std::size_t(row) * source.stride, row * n, n, rule.piece, false, copy);
            if (n > 0)
                slice.covered |= std::uint64_t(1) << rule.piece;
        });

    // Placements at the lower columns and column 0: row by row (the 0.6.0
    // kernel, and any chunking but 3 lower columns), or from the slice's
    // program (lower_program) for the shapes whose successors are on this
    // rank and each (orientation, column) once for the slice for the others
    // (lower_placements).
    const bool by_slice = by_slice_ && lower_ == 3;
    slice.program = -1;
    if (programs_on_) {
        slice.program = lower_program(lower_sum, heights[3], top, n);
        const Program& program = programs_[std::size_t(slice.program)];
        const std::uint64_t upper_fit = upper_fit_of(heights);
        for (std::uint32_t s = program.first; s < program.end; ++s) {
            const ProgramShape& shape = program_shapes_[s];
            const LowerShape& lower = lower_shapes_[shape.shape];
            if (!(upper_fit >> shape.shape & 1)) {
                slice.bases[shape.shape] = nullptr;
                continue;
            }
            const PlacementRule& rule =
                rule_table[std::size_t(lower.orientation_index) * MaxWidth + std::size_t(lower.column)];
            const Value* base = successor(rule, lower.orientation_index, lower.column, chunk, 0, 0, top).values;
            slice.bases[shape.shape] = base;
            counts_[shape.piece] += shape.values;
            for (std::uint32_t i = shape.span_begin; i < shape.span_end; i += 64 / sizeof(Value))
                __builtin_prefetch(base + i, 0, 2);
            __builtin_prefetch(base + shape.span_end - 1, 0, 2);
        }
        if (program.mirrors_first != program.mirrors_end) {
            Heights row = heights;
            const BoardId unit1 = powers_[1], unit2 = powers_[2];
            const int low = lower_sum > height_ ? lower_sum - height_ : 0;
            // The image's chunk less what the program adds, and its row
            // (program_mirror): the slice's columns 3 .. W-4, W-2 and W-3.
            std::uint64_t image_base = 0;
            std::uint32_t image_row = 0;
            if (width_ >= 7) {
                for (int b = 3; b <= width_ - 4; ++b)
                    image_base += std::uint64_t(heights[std::size_t(b)]) * powers_[std::size_t(width_ - 4 - b)];
                const int image_lower_sum = heights[std::size_t(width_ - 2)] + heights[std::size_t(width_ - 3)];
                image_row = std::uint32_t(Partition::slice_row(3, height_, heights[std::size_t(width_ - 3)],
                                                               image_lower_sum));
            }
            const int ranks = partition_.ranks();
            for (std::uint32_t m = program.mirrors_first; m < program.mirrors_end; ++m) {
                const ProgramMirror& mirror = program_mirrors_[m];
                const bool in_row = mirror.shape >= lower_shapes_.size();
                if (!in_row && !(upper_fit >> mirror.shape & 1))
                    continue;
                if (mirror.fast) {
                    const std::uint64_t image_chunk = image_base + mirror.delta;
                    if (ranks == 1 || int(image_chunk % std::uint64_t(ranks)) == rank_) {
                        const std::uint64_t local = ranks == 1 ? image_chunk : image_chunk / std::uint64_t(ranks);
                        successor_rounds_[mirror.step].store->slice_start.prefetch(local, 2);
                        slice.mirrors[slice.mirror_count++] = {local,        slice.count, image_row,
                                                               mirror.index, mirror.step, mirror.image_top};
                        slice.updates[slice.count++] = {nullptr, mirror.target, 1, mirror.piece, false};
                        counts_[mirror.piece] += 1;
                        continue;
                    }
                }
                if (in_row) {  // a one-column orientation at column 0
                    const InRow& in_row = in_row_[mirror.shape - lower_shapes_.size()];
                    row[0] = mirror.h0 + set_.orientation(in_row.orientation).added[0];
                    row[1] = lower_sum - mirror.h2;
                    row[2] = mirror.h2;
                    add_mirror(slice, row, std::uint32_t(mirror.h2 - low) * n + std::uint32_t(row_index[mirror.h0]),
                               in_row.piece);
                    continue;
                }
                const LowerShape& lower = lower_shapes_[mirror.shape];
                row[1] = lower_sum - mirror.h2;
                row[2] = mirror.h2;
                const BoardId row_id = chunk_first + BoardId(row[1]) * unit1 + BoardId(mirror.h2) * unit2;
                add_row_placement(slice, chunk, lower_sum, top, n, row, row_id, std::uint32_t(mirror.h2 - low) * n,
                                  lower.orientation_index, lower.column, mirror.h0);
            }
        }
    }
    if (by_slice && (!programs_on_ || partition_.ranks() > 1))
        lower_placements(slice, chunk, heights, lower_sum, top, n, programs_on_);
    const bool walk_rows = !by_slice || partition_.ranks() > 1 || (mirrored && !programs_on_);
    const BoardId lower_unit1 = geometry.place_value(std::min(1, width_ - 1)),
                  lower_unit2 = geometry.place_value(std::min(2, width_ - 1));
    if (walk_rows)
    partition_.for_each_row_of_slice(heights, lower_sum, [&](std::uint64_t row, const Heights& row_heights) {
        const BoardId row_id = chunk_first + (lower_ >= 2 ? row_heights[1] * lower_unit1 : 0)
                               + (lower_ >= 3 ? row_heights[2] * lower_unit2 : 0);
        const std::uint32_t row_start = std::uint32_t(row) * n;
        if (partition_.ranks() > 1 || !by_slice) {
            PlacementTable::Differences row_differences = differences;
            set_row_differences(placements_, row_heights, lower_, row_differences);
            exchange_->find_row(*finder_, first_row + row, first_value + row_start, int(n), row_heights,
                                row_differences);
            if (!by_slice)
                for_each_row_placement<false>(
                    placements_, row_heights, row_differences, 0, lower_,
                    [&](int o, int x, int h0) {
                        add_row_placement(slice, chunk, lower_sum, top, n, row_heights, row_id, row_start, o, x,
                                          h0);
                    },
                    [&](int h0) { return row_index[h0] >= 0 && (!mirrored || h0 <= top); });
        }
        // A one-column orientation at column 0 whose board rises past the
        // row's top leaves a canonical board for its mirror image (in the
        // slice's program, when it has one).
        if (mirrored && !programs_on_)
            for (const InRow& in_row : in_row_) {
                const int cells = set_.orientation(in_row.orientation).added[0];
                const InRowMirrors states = in_row_mirrors(top, cells, height_);
                for (int h0 = states.first; h0 <= states.last; ++h0) {
                    if (row_index[h0] < 0)
                        continue;
                    Heights board = row_heights;
                    board[0] = h0 + cells;
                    add_mirror(slice, board, row_start + std::uint32_t(row_index[h0]), in_row.piece);
                }
            }
    });
    for (const InRow& in_row : in_row_)  // at column 0, each row's states with room above
        if (n > std::uint32_t(in_row.jump))
            counts_[std::size_t(in_row.piece)] += std::uint64_t(rows) * (n - std::uint32_t(in_row.jump));
    for (std::uint32_t i = 0; i < rows * n; i += 64 / sizeof(Value))
        __builtin_prefetch(slice.out + i, 1);
}

template <class Value>
void TypedKernel<Value>::compute(const PreparedSlice& slice) {
    const std::uint32_t n = slice.n, size = slice.rows * n;
    for (int piece = 0; piece < pieces_; ++piece)
        if (!(slice.covered >> piece & 1))
            std::fill_n(best_.data() + std::size_t(piece) * stride_, size, -1.0);
    for (std::uint32_t u = 0; u < slice.count; ++u) {
        const Update& update = slice.updates[u];
        double* target = best_.data() + update.piece * stride_ + update.target;
        if (update.copy) {
            if constexpr (std::is_same_v<Value, double>)
                std::memcpy(target, update.source, update.length * sizeof(double));
            else
                std::copy_n(update.source, update.length, target);  // widened exactly
            continue;
        }
        if (update.length == 1) {
            target[0] = target[0] > update.source[0] ? target[0] : update.source[0];
            continue;
        }
        for (std::uint32_t i = 0; i < update.length; ++i)
            target[i] = target[i] > update.source[i] ? target[i] : update.source[i];
    }
    if (slice.program >= 0) {
        const Program& program = programs_[std::size_t(slice.program)];
        for (std::uint32_t s = program.first; s < program.end; ++s) {
            const ProgramShape& shape = program_shapes_[s];
            const Value* const base = slice.bases[shape.shape];
            if (base == nullptr)
                continue;
            double* const best = best_.data() + std::size_t(shape.piece) * stride_;
            const std::uint32_t length = shape.length, target_stride = shape.target_stride,
                                source_stride = shape.source_stride;
            for (std::uint32_t r = shape.first; r < shape.end; ++r) {
                const ProgramRun& run = program_runs_[r];
                double* target = best + run.target;
                const Value* source = base + run.source;
                if (length == 1) {
                    for (std::uint32_t k = 0; k < run.count; ++k, target += target_stride, source += source_stride)
                        target[0] = target[0] > source[0] ? target[0] : source[0];
                    continue;
                }
                for (std::uint32_t k = 0; k < run.count; ++k, target += target_stride, source += source_stride)
                    for (std::uint32_t i = 0; i < length; ++i)
                        target[i] = target[i] > source[i] ? target[i] : source[i];
            }
        }
    }
    if (tetris_) {
        double* target = best_.data() + std::size_t(tetris_piece_) * stride_;
        const double* floor = tetris_ + slice.first;
        for (std::uint32_t i = 0; i < size; ++i)
            target[i] = target[i] > floor[i] ? target[i] : floor[i];
    }
    // The tetrominoes' shape of the problem (7 pieces of unit weight, one
    // one-column orientation) is compiled for each block; any other set runs
    // the same code with its counts read at run time.
    const bool seven = pieces_ == 7 && set_.unit_weights() && in_row_.size() == 1 && in_row_[0].jump == block_;
    switch (seven ? block_ : 0) {
    case 1: finish_rows<1, 7>(slice); break;
    case 2: finish_rows<2, 7>(slice); break;
    case 3: finish_rows<3, 7>(slice); break;
    case 4: finish_rows<4, 7>(slice); break;
    default: finish_rows<0, 0>(slice); break;
    }
}

// Each row from the top, a block of states at a time: a one-column
// orientation at column 0 reads its own row `jump` places further, at least
// a block, so a block's reads lie in the blocks above it, already final,
// and the block's states are independent of each other. Block is the
// smallest jump (the template's, or block_ when 0); a set without one-column
// orientations finishes a row in one block.
template <class Value>
template <int Block, int Pieces>
void TypedKernel<Value>::finish_rows(const PreparedSlice& slice) {
    const int n = int(slice.n);
    const int block = Block > 0 ? Block : block_ > 0 ? block_ : n;
    const int* const partners = set_.partners().data();
    for (std::uint32_t row = 0; row < slice.rows; ++row) {
        Value* out = slice.out + std::size_t(row) * n;
        const double* best_row = best_.data() + std::size_t(row) * n;
        for (int base = n - block; base > -block; base -= block) {
            const int first = base > 0 ? base : 0;
            if constexpr (Pieces > 0) {  // one in-row orientation, its jump the block
                double* column = best_.data() + std::size_t(in_row_[0].piece) * stride_ + std::size_t(row) * n;
                for (int i = first; i < base + Block; ++i)
                    if (i + Block < n)
                        column[i] = column[i] > out[i + Block] ? column[i] : out[i + Block];
                for (int i = first; i < base + Block; ++i)
                    out[i] = Value(value_from_best(best_row + i, stride_, Pieces, UnitWeights{}, partners));
            } else {
                for (const InRow& in_row : in_row_) {
                    double* column = best_.data() + std::size_t(in_row.piece) * stride_ + std::size_t(row) * n;
                    for (int i = first; i < base + block; ++i)
                        if (i + in_row.jump < n)
                            column[i] = column[i] > out[i + in_row.jump] ? column[i] : out[i + in_row.jump];
                }
                for (int i = first; i < base + block; ++i)
                    out[i] = Value(value_from_best(best_row + i, stride_, set_));
            }
        }
    }
}

// Calls visit(chunk) for the owned chunks in [first, last) whose slice of
// `round` holds values, ascending. A mirrored layout's slices whose top is
// below every h0 of the round's class hold rows of no value (tops 0..2,
// for some classes): they are skipped, and no one reads them (a successor
// row keeps its reader's h0 and a top no lower).
template <class Visit>
void each_listed_slice(const Partition& partition, const RoundStore& round, std::uint64_t first, std::uint64_t last,
                       Visit&& visit) {
    const int tops = partition.chunks_fix_top() ? partition.geometry().height() + 1 : 1;
    for (int top = tops > 1 ? partition.chunk_top(first) : 0; top < tops; ++top) {
        const std::uint64_t begin = std::max(first, partition.first_chunk_of_top(top));
        const std::uint64_t end = top + 1 < tops ? std::min(last, partition.first_chunk_of_top(top + 1)) : last;
        if (begin >= last)
            break;
        if (round.length(top) == 0)
            continue;
        for (std::uint64_t chunk = begin; chunk < end; ++chunk)
            if (round.slice_start[chunk + 1] != round.slice_start[chunk])
                visit(chunk);
    }
}

// The same chunks of the whole round, listed (the GPU path's): each thread
// lists a contiguous range of chunks, the lists joined in order. Small
// rounds stay on one thread.
void list_slices(const Partition& partition, const RoundStore& round, std::vector<std::uint64_t>& slices, int threads) {
    slices.clear();
    const std::uint64_t chunks = round.slice_start.size() - 1;
    const int parts = chunks >= (std::uint64_t(1) << 20) ? std::max(threads, 1) : 1;
    std::vector<std::vector<std::uint64_t>> lists(static_cast<std::size_t>(parts));
    parallel_ranges(parts, chunks, [&](int part, std::uint64_t first, std::uint64_t last) {
        std::vector<std::uint64_t>& list = parts == 1 ? slices : lists[std::size_t(part)];
        each_listed_slice(partition, round, first, last, [&](std::uint64_t chunk) { list.push_back(chunk); });
    });
    if (parts > 1)
        for (const std::vector<std::uint64_t>& list : lists)
            slices.insert(slices.end(), list.begin(), list.end());
}

// The rows of one slice that other ranks read, found as the CPU kernel
// finds them while it walks the slice (exchange.h): the portable kernel,
// the GPU path's host threads and a resumed round walk the slice for this
// alone. No-op on one rank.
void find_sends_of_slice(Exchange& exchange, Exchange::Finder& finder, const Partition& partition,
                         const PlacementTable& placements, const RoundStore& round, std::uint64_t chunk) {
    if (partition.ranks() == 1)
        return;
    const std::uint64_t first = round.slice_start[chunk];
    if (round.slice_start[chunk + 1] == first)
        return;
    Heights heights = partition.geometry().decode(partition.chunk_first(chunk));
    const int top = partition.chunks_fix_top() ? heights[partition.geometry().width() - 1] : 0;
    if (round.length(top) == 0)  // not listed (list_slices): no one reads its rows
        return;
    exchange.find_slice(finder, heights);
    const PlacementTable::Differences differences = placements.differences(heights);
    partition.for_each_row_of_slice(
        heights, round.sum - partition.upper_sum(chunk), [&](std::uint64_t row, const Heights& row_heights) {
            PlacementTable::Differences row_differences = differences;
            set_row_differences(placements, row_heights, partition.lower_columns(), row_differences);
            exchange.find_row(finder, first + row, round.row_value(chunk, top, row), round.length(top), row_heights,
                              row_differences);
        });
}

// The view of round `sum` over the host's band and ghosts: the portable
// kernel's input (the GPU path builds the same over device memory).
RoundView host_round_view(const SliceTables& tables, const RoundLayout& layout, Band& band, const Exchange& exchange,
                          int sum, std::vector<SuccessorRound>& next) {
    RoundView view = tables.view();
    RoundStore& round = band[sum];
    view.sum = sum;
    view.row_length = round.row_length;
    view.row_index = layout.row_indices(sum);
    view.slice_start = round.slice_start.view();
    view.tops = {round.top_rows.data(), round.top_values.data(), round.top_length.data()};
    view.out = reinterpret_cast<char*>(round.values.data());
    next.assign(std::size_t(tables.most_cells()) + 1, SuccessorRound{});
    for (int step = 1; step <= tables.most_cells(); ++step) {
        SuccessorRound& successor = next[std::size_t(step)];
        if (!band.holds(sum + step))
            continue;
        const RoundStore& above = band[sum + step];
        successor.values = reinterpret_cast<const char*>(above.values.data());
        successor.slice_start = above.slice_start.view();
        successor.row_index = layout.row_indices(sum + step);
        successor.row_length = above.row_length;
        successor.tops = {above.top_rows.data(), above.top_values.data(), above.top_length.data()};
        successor.ghosts = exchange.ghost_rows(sum + step);
    }
    view.next = next.data();
    return view;
}

// The GPU's slice work (slice_work.h) run on the host, one slice at a time:
// the code the device runs, in CPU loops. With `block_threads` it is the
// block work, each phase run with every thread of a block in turn; with 0
// the thread-a-slice work. It serves the tests that check the GPU path's
// logic without a GPU (KernelKind::Portable, PortableThread), and gives the
// CPU kernel's bits by construction of both.
template <class Value>
class PortableKernel final : public SliceKernel {
public:
    PortableKernel(const Partition& partition, const PlacementTable& placements, const RoundLayout& layout,
                   const SliceTables& tables, int pieces, int block_threads)
        : partition_(partition), placements_(placements), layout_(layout), tables_(tables),
          block_threads_(block_threads), shape_(tables.block_shape(int(sizeof(Value)))),
          best_(std::size_t(pieces) * std::size_t(partition.geometry().height() + 1)), counts_(std::size_t(pieces)) {
        if (block_threads_ > 0)
            shared_.resize(shape_.bytes() / sizeof(double) + 1);
    }

    void begin_round(int sum, Band& band, Exchange& exchange, int worker) override {
        band_ = &band;
        exchange_ = &exchange;
        finder_ = &exchange.finder(worker);
        view_ = host_round_view(tables_, layout_, band, exchange, sum, next_);
        if (tetris_) {
            view_.tetris = *tetris_;
            view_.tetris_piece = tetris_piece_;
        }
    }
    void set_tetris_round(const SuccessorRound* below, int piece) override {
        tetris_ = below;
        tetris_piece_ = piece;
    }
    void add_slice(std::uint64_t chunk) override {
        find_sends_of_slice(*exchange_, *finder_, partition_, placements_, (*band_)[view_.sum], chunk);
        bool complete = true;
        if (block_threads_ > 0) {
            complete = run_block_on_host<Value>(
                view_, shape_, reinterpret_cast<char*>(shared_.data()), &chunk, 1, 0, 1, block_threads_,
                [&](int piece, std::uint64_t count) { counts_[std::size_t(piece)] += count; });
        } else {
            complete = compute_slice<Value>(view_, chunk, best_.data(), 1, counts_.data());
        }
        if (!complete)
            throw std::logic_error("round " + std::to_string(view_.sum) + ": a ghost row was not received from "
                                   "its owner: the exchange missed a placement (a bug: please report it)");
    }
    void end_round() override {}
    PieceCounts counts() const override { return PieceCounts(counts_.begin(), counts_.end()); }

private:
    const Partition& partition_;
    const PlacementTable& placements_;
    const RoundLayout& layout_;
    const SliceTables& tables_;
    int block_threads_;
    SliceBlockShape shape_;
    Band* band_ = nullptr;
    Exchange* exchange_ = nullptr;
    Exchange::Finder* finder_ = nullptr;
    RoundView view_;
    std::vector<SuccessorRound> next_;
    std::vector<double> best_;
    std::vector<double> shared_;  // the block's shared memory
    std::vector<std::uint64_t> counts_;
    const SuccessorRound* tetris_ = nullptr;  // set_tetris_round
    int tetris_piece_ = -1;
};

}  // namespace

RoundRunner::RoundRunner(const Communicator& comm, const Partition& partition, const RoundLayout& layout,
                         const Rules& rules, int threads, int band_value_size, KernelKind kind, int device,
                         const std::string& spill)
    : partition_(partition), layout_(layout), set_(rules), placements_(partition.geometry(), rules),
      rules_(partition, rules), band_(partition, layout, Band::most_rounds(rules), band_value_size, threads, spill),
      exchange_(comm, partition, placements_, rules_, layout.mirrored()), kind_(kind), threads_(threads) {
    if (layout.mirrored() && !partition.chunks_fix_top())
        throw std::invalid_argument(
            "a mirrored layout needs column W-1 above the lower columns "
            "(Partition::mirrored_lower_columns)");
    if (layout.mirrored() && !rules.mirror_closed())
        throw std::invalid_argument("a mirrored layout needs a mirror-closed piece set");
    if (band_value_size != sizeof(double) && band_value_size != sizeof(float))
        throw std::invalid_argument("a band holds float64 or float32 values");
    // The kernel's in-row jumps count stored states of the set's classes.
    if (layout.residues().modulus() != rules.modulus())
        throw std::invalid_argument("the layout's residue classes are not taken mod the set's gcd "
                                    + std::to_string(rules.modulus()));
    if (threads < 1)
        throw std::invalid_argument("a round runner needs at least one thread");
    overlap_ = kind != KernelKind::Gpu && comm.size() > 1 && exchange_.next_round_reads_none();
    if (!cpu_kernel(kind))
        tables_ = std::make_unique<SliceTables>(partition, rules, rules_, layout);
    if (kind == KernelKind::Gpu) {
        gpu_ = std::make_unique<GpuRounds>(partition, layout, rules, *tables_, band_value_size, device);
        return;
    }
    const bool portable = kind == KernelKind::Portable || kind == KernelKind::PortableThread;
    const int block_threads = kind == KernelKind::Portable ? SliceBlockThreads : 0;
    const bool by_slice = kind == KernelKind::Cpu;
    for (int worker = 0; worker < threads; ++worker)
        if (portable && band_value_size == sizeof(float))
            kernels_.push_back(std::make_unique<PortableKernel<float>>(partition, placements_, layout, *tables_,
                                                                       rules.piece_count(), block_threads));
        else if (portable)
            kernels_.push_back(std::make_unique<PortableKernel<double>>(partition, placements_, layout, *tables_,
                                                                        rules.piece_count(), block_threads));
        else if (band_value_size == sizeof(float))
            kernels_.push_back(std::make_unique<TypedKernel<float>>(partition, placements_, rules_, layout, by_slice));
        else
            kernels_.push_back(std::make_unique<TypedKernel<double>>(partition, placements_, rules_, layout, by_slice));
}

RoundRunner::~RoundRunner() = default;

PieceCounts RoundRunner::connections() const {
    PieceCounts total = gpu_ ? gpu_->counts() : PieceCounts(std::size_t(set_.piece_count()), 0);
    for (const auto& kernel : kernels_) {
        const PieceCounts counts = kernel->counts();
        for (std::size_t piece = 0; piece < total.size(); ++piece)
            total[piece] += counts[piece];
    }
    return total;
}

RoundRecord RoundRunner::compute(std::size_t round) {
    reloading_ = false;
    if (!(gpu_ && band_.holds(round_sum(round))))  // a GPU's next round is laid out when it is launched
        band_.open(round_sum(round));
    return compute_again(round);
}

// The round's slices are dealt to the workers in blocks of consecutive
// slices, each worker taking the next block when it finishes one, so that
// every worker ends the round within one block of the others whatever a
// slice costs (slices differ tenfold: a tall slice's rows take the column-0
// placements that a low one's do not). About DealtBlocks blocks a worker
// keeps the tail short and the shared counter cold. A worker's blocks
// ascend, so its slices, and the ghost rows they read, come in id order.
// Every state is computed from the same successor values by the same
// arithmetic whichever worker takes it, so the values do not depend on the
// dealing.
RoundRecord RoundRunner::compute_again(std::size_t round) {
    constexpr std::uint64_t DealtBlocks = 64;
    constexpr std::uint64_t SoonSlices = 4;  // SliceKernel::soon: this many slices ahead
    RoundRecord record;
    record.sum = round_sum(round);
    const double start = MPI_Wtime();
    RoundStore& store = band_[record.sum];
    const int workers = threads_;
    exchange_.begin_sends(layout_.row_indices(record.sum), workers);
    for (int worker = 0; worker < int(kernels_.size()); ++worker)
        kernels_[std::size_t(worker)]->begin_round(record.sum, band_, exchange_, worker);
    if (gpu_) {
        slices_.clear();
        if (below_listed_ == record.sum)  // laid out while the round above computed
            slices_.swap(below_slices_);
        else if (!gpu_->in_flight(record.sum))
            list_slices(partition_, store, slices_, threads_);
        below_listed_ = -1;
        return compute_on_gpu(record, store, start);
    }
    // The workers take blocks of chunks and skip the empty slices as they
    // go (each_listed_slice), where a list of the round's slices would take
    // 8 bytes a chunk: 0.38 GB for 9x18 on one rank.
    const std::uint64_t chunks = partition_.owned_chunks();
    const std::uint64_t grain = std::max<std::uint64_t>(1, chunks / (std::uint64_t(workers) * DealtBlocks));
    const std::uint64_t blocks = (chunks + grain - 1) / grain;
    std::atomic<std::uint64_t> next_block{0};
    std::vector<double> busy(std::size_t(workers), 0.0);
    const bool moving = exchange_.pending();  // the round above's rows, posted by begin_exchange
    run_workers(workers, [&](int worker) {
        const auto begin = std::chrono::steady_clock::now();
        SliceKernel& kernel = *kernels_[std::size_t(worker)];
        std::array<std::uint64_t, SoonSlices> ahead{};  // slices asked for soon(), not yet added
        std::uint64_t asked = 0, added = 0;
        for (std::uint64_t block; (block = next_block.fetch_add(1, std::memory_order_relaxed)) < blocks;) {
            each_listed_slice(partition_, store, block * grain, std::min(chunks, (block + 1) * grain),
                              [&](std::uint64_t chunk) {
                                  kernel.soon(chunk);
                                  if (asked - added == SoonSlices)
                                      kernel.add_slice(ahead[added++ % SoonSlices]);
                                  ahead[asked++ % SoonSlices] = chunk;
                              });
            while (added < asked)
                kernel.add_slice(ahead[added++ % SoonSlices]);
            if (moving && worker == 0)  // the calling thread, MPI's
                exchange_.progress();
        }
        kernel.end_round();
        busy[std::size_t(worker)] = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    });
    if (moving)
        waited_ += exchange_.finish();
    record.states = store.value_count();
    record.compute_seconds = MPI_Wtime() - start;
    record.worker_seconds_max = *std::max_element(busy.begin(), busy.end());
    record.worker_seconds_mean = std::accumulate(busy.begin(), busy.end(), 0.0) / workers;
    return record;
}

// The GPU computes the round while the host's threads find the rows other
// ranks read (none on one rank). On one rank the round below needs nothing
// from the host, so it is launched before this one is waited for: the
// device computes it while this round comes back and is written
// (gpu_rounds.h). With several ranks the round below reads this round's
// ghost rows, so it cannot be launched before the exchange; its host round
// is laid out and its slices listed now, while the device computes, so
// that only the exchange stands between the two kernels.
RoundRecord RoundRunner::compute_on_gpu(RoundRecord record, RoundStore& store, double start) {
    if (!gpu_->in_flight(record.sum))
        gpu_->launch(store, slices_);
    std::vector<double> busy(std::size_t(threads_), 0.0);
    if (partition_.ranks() > 1) {
        std::atomic<std::uint64_t> next{0};
        const std::uint64_t grain = std::max<std::uint64_t>(1, slices_.size() / (std::uint64_t(threads_) * 64));
        run_workers(threads_, [&](int worker) {
            const auto begin = std::chrono::steady_clock::now();
            Exchange::Finder& finder = exchange_.finder(worker);
            for (std::uint64_t block; (block = next.fetch_add(1, std::memory_order_relaxed)) * grain < slices_.size();)
                for (std::uint64_t i = block * grain; i < std::min<std::uint64_t>(slices_.size(), (block + 1) * grain);
                     ++i)
                    find_sends_of_slice(exchange_, finder, partition_, placements_, store, slices_[i]);
            busy[std::size_t(worker)] = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        });
        if (record.sum > 0 && !band_.holds(record.sum - 1)) {
            list_slices(partition_, band_.open(record.sum - 1), below_slices_, threads_);
            below_listed_ = record.sum - 1;
        }
    } else if (record.sum > 0 && !gpu_->in_flight(record.sum - 1)) {
        RoundStore& below = band_.holds(record.sum - 1) ? band_[record.sum - 1] : band_.open(record.sum - 1);
        list_slices(partition_, below, below_slices_, threads_);
        gpu_->launch(below, below_slices_);
    }
    record.gpu = gpu_->wait(record.sum);
    record.states = store.value_count();
    record.compute_seconds = MPI_Wtime() - start;
    record.worker_seconds_max = *std::max_element(busy.begin(), busy.end());
    record.worker_seconds_mean = std::accumulate(busy.begin(), busy.end(), 0.0) / threads_;
    return record;
}

ExchangeRecord RoundRunner::begin_exchange(std::size_t round) {
    if (!overlap_ || reloading_)
        return exchange(round);
    ExchangeRecord record = exchange_.start(band_[round_sum(round)]);
    record.seconds += waited_;
    waited_ = 0;
    return record;
}

double RoundRunner::finish_exchange() {
    const double waited = waited_ + exchange_.finish();
    waited_ = 0;
    return waited;
}

ExchangeRecord RoundRunner::exchange(std::size_t round) {
    finish_exchange();
    const int sum = round_sum(round);
    const ExchangeRecord record = exchange_.run(band_[sum]);
    if (gpu_) {
        gpu_->upload_ghosts(sum, exchange_.ghost_rows(sum));
        if (reloading_)  // a resumed round: the device holds it now
            band_.close(sum);
    }
    return record;
}

// With a GPU the host keeps only the round being written and the one
// launched after it: a round goes as soon as it is written and exchanged
// (round 0, the empty board's, stays for the summary).
void RoundRunner::set_tetris_floor(const double* floor) {
    if (floor && (gpu_ || set_.tetris_piece() < 0))
        throw std::logic_error("a tetris floor for a GPU run or a set without the I (a bug: --clears refuses them)");
    for (const auto& kernel : kernels_)
        kernel->set_tetris(floor, set_.tetris_piece());
}

void RoundRunner::set_tetris_round(const RoundStore* below) {
    if (below && (kernels_.empty() || cpu_kernel(kind_) || set_.tetris_piece() < 0 || partition_.ranks() != 1))
        throw std::logic_error(
            "a tetris round for a kernel other than the portable one, a set without the I, or "
            "several ranks (a bug: --clears refuses them)");
    if (below) {
        tetris_round_ = SuccessorRound{};
        tetris_round_.values = reinterpret_cast<const char*>(below->values.data());
        tetris_round_.slice_start = below->slice_start.view();
        tetris_round_.row_index = layout_.row_indices(below->sum);
        tetris_round_.row_length = below->row_length;
        tetris_round_.tops = {below->top_rows.data(), below->top_values.data(), below->top_length.data()};
    }
    for (const auto& kernel : kernels_)
        kernel->set_tetris_round(below ? &tetris_round_ : nullptr, set_.tetris_piece());
}

void RoundRunner::use_gpu_sweeps(GpuSweeps& sweeps) {
    if (!gpu_ || set_.tetris_piece() < 0)
        throw std::logic_error("GPU sweeps without a GPU or the I (a bug: --clears refuses them)");
    gpu_->use_sweeps(sweeps, set_.tetris_piece());
}

void RoundRunner::digest_on_device(int file_value_size) {
    if (!gpu_)
        throw std::logic_error("a digest on the device without a GPU (a bug: please report it)");
    gpu_->digest_on_device(file_value_size);
}

void RoundRunner::release(std::size_t round) {
    const int sum = round_sum(round);
    band_.close(sum + set_.most_cells());
    exchange_.drop(sum + set_.most_cells());
    if (gpu_ && sum > 0)
        band_.close(sum);
}

RoundRecord RoundRunner::run(std::size_t round) {
    RoundRecord record = compute(round);
    record.exchange = exchange(round);
    record.rounds_bytes = rounds_bytes();
    record.ghost_bytes = ghost_bytes();
    release(round);
    return record;
}

void RoundRunner::reload(std::size_t round, int descriptor, std::uint64_t data_offset) {
    if (band_.value_size() != sizeof(double))
        throw std::logic_error("only a float64 band resumes from a table file");
    const int sum = round_sum(round);
    RoundStore& store = band_.open(sum);
    reloading_ = true;
    exchange_.begin_sends(layout_.row_indices(sum));
    Exchange::Finder& finder = exchange_.finder(0);
    for (std::uint64_t chunk = 0; chunk < partition_.owned_chunks(); ++chunk) {
        const std::uint64_t first = store.slice_start[chunk], rows = store.slice_start[chunk + 1] - first;
        if (rows == 0)
            continue;
        // The slice's rows are consecutive in the file.
        Heights heights = partition_.geometry().decode(partition_.chunk_first(chunk));
        const int top = layout_.mirrored() ? heights[partition_.geometry().width() - 1] : 0;
        const std::uint64_t length = std::uint64_t(store.length(top));
        partition_.for_each_row_of_slice(
            heights, sum - partition_.upper_sum(chunk), [&](std::uint64_t row, const Heights& row_heights) {
                if (row != 0)
                    return;
                const std::uint64_t position = layout_.row_position(sum, layout_.row_rank(row_heights, sum), top);
                read_exactly(descriptor, store.at_as<double>(store.slice_value(chunk, top)),
                             rows * length * sizeof(double), data_offset + position * sizeof(double),
                             "cannot read round " + std::to_string(round) + " back to resume");
            });
        find_sends_of_slice(exchange_, finder, partition_, placements_, store, chunk);
    }
    if (gpu_)
        gpu_->upload_round(store);
}

PieceCounts solve(const Communicator& comm, const Partition& partition, const RoundLayout& layout, const Rules& rules,
                  const std::function<void(const RoundStore&)>& on_round, int threads, int band_value_size,
                  KernelKind kind) {
    RoundRunner runner(comm, partition, layout, rules, threads, band_value_size, kind);
    for (std::size_t round = 0; round < runner.round_count(); ++round) {
        runner.compute(round);
        runner.begin_exchange(round);  // as generate's rounds do: overlapped where legal
        if (on_round)
            on_round(runner.store(runner.round_sum(round)));
        runner.release(round);
    }
    runner.finish_exchange();
    return runner.connections();
}

}  // namespace stack
