#include "stacking/policy.h"

#include "objectives.h"
#include "support/errors.h"

#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <vector>

namespace stack {

PolicySpec parse_policy(const std::string& text) {
    const std::string usage = "--policy must be table, random, heuristic, seed001 or \"lookahead N\" with N in 1.."
                              + std::to_string(MaxLookahead) + ", not '" + text + "'";
    if (text == "table")
        return {PolicyKind::Table, 0};
    if (text == "random")
        return {PolicyKind::Random, 0};
    if (text == "heuristic")
        return {PolicyKind::Heuristic, 0};
    if (text == "seed001")
        return {PolicyKind::Seed001, 1};
    const std::string prefix = "lookahead";
    if (text.rfind(prefix, 0) == 0 && text.size() > prefix.size() + 1
        && (text[prefix.size()] == ' ' || text[prefix.size()] == ':' || text[prefix.size()] == '=')) {
        const std::string number = text.substr(prefix.size() + 1);
        char* end = nullptr;
        const long depth = std::strtol(number.c_str(), &end, 10);
        if (end != number.c_str() && *end == '\0' && depth >= 1 && depth <= MaxLookahead)
            return {PolicyKind::Lookahead, int(depth)};
    }
    throw InputError(usage);
}

std::string policy_name(const PolicySpec& spec) {
    switch (spec.kind) {
    case PolicyKind::Table: return "table";
    case PolicyKind::Random: return "random";
    case PolicyKind::Heuristic: return "heuristic";
    case PolicyKind::Lookahead: return "lookahead " + std::to_string(spec.lookahead);
    case PolicyKind::Seed001: return "seed001";
    case PolicyKind::Count: break;
    }
    return "?";
}

// Lee's score (objectives.h) of the stack's column heights.
double heuristic_score(const Heights& heights, int width) {
    int aggregate = 0, bumpiness = 0;
    for (int x = 0; x < width; ++x) {
        aggregate += heights[x];
        if (x + 1 < width)
            bumpiness += std::abs(heights[x + 1] - heights[x]);
    }
    const int complete_lines = 0, holes = 0;  // a hole-free stack that never clears lines
    return lee_score(aggregate, complete_lines, holes, bumpiness);
}

// Seed 001's objective (objectives.h) on a hole-free stack: the
// rows below the lowest column are the full ones; the longest row that is
// not full is the lowest of the others, as long as the columns that rise
// above it; h is the highest column; nothing is unreachable.
double seed001_score(const Heights& heights, int width) {
    int lowest = heights[0], highest = heights[0];
    for (int x = 1; x < width; ++x)
        lowest = std::min(lowest, heights[x]), highest = std::max(highest, heights[x]);
    int longest = 0;
    for (int x = 0; x < width; ++x)
        longest += heights[x] > lowest;
    const int unreachable = 0;
    return seed001_objective(lowest, longest, highest, unreachable);
}

PieceMoves StackingPolicy::choose_for_each_piece(const Heights& heights, BoardId id) const {
    PieceMoves moves;
    for (int piece = 0; piece < rules().piece_count(); ++piece)
        moves[std::size_t(piece)] = choose(Turn{heights, id, piece, {}, nullptr});
    return moves;
}

void StackingPolicy::choose_for_each_piece(std::span<const BoardId> ids, const Geometry& geometry,
                                           const BoardMoves& moves_of) const {
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const Heights heights = geometry.decode(ids[i]);
        moves_of(i, heights, choose_for_each_piece(heights, ids[i]));
    }
}

namespace {

// (o, x) comes before the current best (placed_before), or there is none.
bool earlier(int orientation, int column, const Move& best) {
    return best.orientation < 0 || placed_before(orientation, column, best.orientation, best.column);
}

class TablePolicy final : public StackingPolicy {
public:
    TablePolicy(const PlacementTable& placements, const StackTable& table) : StackingPolicy(placements), table_(table) {
        for (const int o : rules().one_column())
            if (rules().orientation(o).piece == rules().tetris_piece())
                upright_ = o;
    }

    // In a line-clear table's game the tetris piece may go into the well
    // when every column is 4 high: it is taken when its board's value is
    // higher than every placement's (a placement wins a tie, as the well
    // comes after the columns).
    Move choose(const Turn& turn) const override {
        const ValuedChoice best = best_choice(placements_, turn.heights, turn.id, turn.piece,
                                              [&](BoardId successor) { return table_.value(successor); });
        const Geometry& geometry = placements_.geometry();
        if (table_.info().clears == Clears::Tetris && turn.piece == rules().tetris_piece()
            && tetris_fits(turn.heights, geometry.width())) {
            const BoardId lower = turn.id - tetris_offset(geometry);
            if (table_.value(lower) > best.value)
                return {upright_, geometry.width(), lower, true};
        }
        return {best.orientation, best.column, best.successor};
    }

    PieceMoves choose_for_each_piece(const Heights& heights, BoardId id) const override {
        PieceMoves best;
        std::array<double, MostPieces> best_value;
        best_value.fill(-1.0);
        placements_.for_each_placement(heights, [&](int o, int x, BoardId offset) {
            const std::size_t piece = std::size_t(rules().orientation(o).piece);
            consider(best[piece], best_value[piece], o, x, id + offset);
        });
        return best;
    }

    // Boards go in batches, software-pipelined: batch i+1's placements
    // are listed, and their successors' values prefetched, before batch i
    // chooses among its own, so every read has a batch of work to arrive
    // in. The choice follows the same order as the one-board form.
    void choose_for_each_piece(std::span<const BoardId> ids, const Geometry& geometry,
                               const BoardMoves& moves_of) const override {
        constexpr std::size_t Batch = 16;
        const std::size_t most_per_board = std::size_t(placements_.most_placements_at_one_column()) * MaxWidth;
        std::array<ListedBatch, 2> batches;
        for (ListedBatch& batch : batches)
            batch.placements.resize(Batch * most_per_board);
        const std::size_t batch_count = (ids.size() + Batch - 1) / Batch;
        for (std::size_t b = 0; b <= batch_count; ++b) {
            if (b < batch_count)
                list(ids.subspan(b * Batch, std::min(Batch, ids.size() - b * Batch)), geometry, batches[b % 2]);
            if (b > 0)
                decide(batches[(b - 1) % 2], (b - 1) * Batch, moves_of);
        }
    }

private:
    struct Listed {
        BoardId successor;
        std::uint64_t position;  // of its value in the table
        std::uint16_t orientation;
        std::uint8_t column;
    };
    struct ListedBatch {
        std::vector<Listed> placements;
        std::array<std::uint32_t, 17> starts{};  // [board] -> its first placement; [boards] -> the end
        std::array<Heights, 16> heights;         // [board]
        std::size_t boards = 0;
    };

    // A table stored by rounds (version 2, what stackgen writes) places a
    // successor's value by its heights: the board's heights with the
    // placement's cells added, ranked, which costs a few lookups in small
    // tables against the miss the prefetch hides.
    void list(std::span<const BoardId> ids, const Geometry& geometry, ListedBatch& batch) const {
        std::uint32_t count = 0;
        batch.boards = ids.size();
        const bool id_ordered = table_.id_ordered();
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const BoardId id = ids[i];
            batch.starts[i] = count;
            batch.heights[i] = geometry.decode(id);
            placements_.for_each_placement(batch.heights[i], [&](int o, int x, BoardId offset) {
                const std::uint64_t position =
                    id_ordered ? id + offset : table_.position_of(placements_.after(batch.heights[i], o, x));
                id_ordered ? table_.prefetch(position) : table_.prefetch_at(position);
                batch.placements[count++] = {id + offset, position, std::uint16_t(o), std::uint8_t(x)};
            });
        }
        batch.starts[ids.size()] = count;
    }

    void decide(const ListedBatch& batch, std::size_t first_index, const BoardMoves& moves_of) const {
        const bool id_ordered = table_.id_ordered();
        for (std::size_t i = 0; i < batch.boards; ++i) {
            PieceMoves best;
            std::array<double, MostPieces> best_value;
            std::fill_n(best_value.begin(), rules().piece_count(), -1.0);
            for (std::uint32_t j = batch.starts[i]; j < batch.starts[i + 1]; ++j) {
                const Listed& placement = batch.placements[j];
                const std::size_t piece = std::size_t(rules().orientation(placement.orientation).piece);
                consider(best[piece], best_value[piece], placement.orientation, placement.column, placement.successor,
                         id_ordered ? table_.value(placement.successor) : table_.value_at(placement.position));
            }
            moves_of(first_index + i, batch.heights[i], best);
        }
    }

    // The one rule (ValuedChoice, rules/placement.h): the higher successor value wins, ties go to the earlier placement.
    void consider(Move& best, double& best_value, int o, int x, BoardId successor) const {
        consider(best, best_value, o, x, successor, table_.value(successor));
    }
    void consider(Move& best, double& best_value, int o, int x, BoardId successor, double value) const {
        ValuedChoice choice{best.orientation, best.column, best.successor, best_value};
        choice.consider(o, x, successor, value);
        best_value = choice.value;
        best = {choice.orientation, choice.column, choice.successor};
    }

    const StackTable& table_;
    int upright_ = -1;  // the tetris piece's one-column orientation
};

class RandomPolicy final : public StackingPolicy {
public:
    explicit RandomPolicy(const PlacementTable& placements) : StackingPolicy(placements) {}

    Move choose(const Turn& turn) const override {
        std::vector<Move>& moves = scratch();
        moves.clear();
        placements_.for_each_placement(turn.heights, [&](int o, int x, BoardId offset) {
            if (rules().orientation(o).piece == turn.piece)
                moves.push_back({o, x, turn.id + offset});
        });
        return moves.empty() ? Move{} : moves[turn.random->below(std::uint32_t(moves.size()))];
    }
    bool deterministic() const override { return false; }

private:
    // Each thread's list of the piece's placements, reused.
    static std::vector<Move>& scratch() {
        thread_local std::vector<Move> moves;
        return moves;
    }
};

// The heuristic is lookahead 0; seed 001 is lookahead 1 with its own
// score. A search's outcome: how many of the known pieces it placed, then
// the score of the board it ended on.
using BoardScore = double (*)(const Heights& heights, int width);

class LookaheadPolicy final : public StackingPolicy {
public:
    LookaheadPolicy(const PlacementTable& placements, int depth, BoardScore score = heuristic_score)
        : StackingPolicy(placements), depth_(depth), score_(score) {}

    Move choose(const Turn& turn) const override {
        Move best;
        Outcome best_outcome{-1, 0.0};
        const std::span<const int> next = turn.next.first(std::min<std::size_t>(turn.next.size(), depth_));
        placements_.for_each_placement(turn.heights, [&](int o, int x, BoardId offset) {
            if (rules().orientation(o).piece != turn.piece)
                return;
            Outcome outcome = search(placements_.after(turn.heights, o, x), next);
            ++outcome.placed;
            if (outcome.better_than(best_outcome) || (outcome.ties(best_outcome) && earlier(o, x, best))) {
                best_outcome = outcome;
                best = {o, x, turn.id + offset};
            }
        });
        return best;
    }
    int preview() const override { return depth_; }
    bool deterministic() const override { return depth_ == 0; }

private:
    struct Outcome {
        int placed;
        double score;
        bool better_than(const Outcome& other) const {
            return placed > other.placed || (placed == other.placed && score > other.score);
        }
        bool ties(const Outcome& other) const { return placed == other.placed && score == other.score; }
    };

    // The best outcome of placing `pieces` in order on `heights`.
    Outcome search(const Heights& heights, std::span<const int> pieces) const {
        Outcome best{0, score_(heights, placements_.geometry().width())};
        if (pieces.empty())
            return best;
        placements_.for_each_placement(heights, [&](int o, int x, BoardId) {
            if (rules().orientation(o).piece != pieces.front())
                return;
            Outcome outcome = search(placements_.after(heights, o, x), pieces.subspan(1));
            ++outcome.placed;
            if (outcome.better_than(best))
                best = outcome;
        });
        return best;
    }

    int depth_;
    BoardScore score_;
};

}  // namespace

std::unique_ptr<StackingPolicy> make_policy(const PolicySpec& spec, const PlacementTable& placements,
                                            const StackTable& table) {
    switch (spec.kind) {
    case PolicyKind::Table: return std::make_unique<TablePolicy>(placements, table);
    case PolicyKind::Random: return std::make_unique<RandomPolicy>(placements);
    case PolicyKind::Heuristic: return std::make_unique<LookaheadPolicy>(placements, 0);
    case PolicyKind::Lookahead: return std::make_unique<LookaheadPolicy>(placements, spec.lookahead);
    case PolicyKind::Seed001: return std::make_unique<LookaheadPolicy>(placements, 1, seed001_score);
    case PolicyKind::Count: break;
    }
    throw InputError("unknown policy");
}

}  // namespace stack
