#include "policy.h"

#include "errors.h"

#include <cmath>
#include <cstdlib>
#include <vector>

namespace stack {

PolicySpec parse_policy(const std::string& text) {
    const std::string usage = "--policy must be table, random, heuristic or \"lookahead N\" with N in 1.."
                              + std::to_string(MaxLookahead) + ", not '" + text + "'";
    if (text == "table")
        return {PolicyKind::Table, 0};
    if (text == "random")
        return {PolicyKind::Random, 0};
    if (text == "heuristic")
        return {PolicyKind::Heuristic, 0};
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
    case PolicyKind::Count: break;
    }
    return "?";
}

Heights heights_after(const Heights& heights, int orientation, int column) {
    Heights after = heights;
    const Orientation& piece = Orientations[orientation];
    for (int k = 0; k < piece.width; ++k)
        after[column + k] += piece.added[k];
    return after;
}

double heuristic_score(const Heights& heights, int width) {
    constexpr double AggregateHeight = -0.510066, CompleteLines = 0.760666, Holes = -0.35663,
                     Bumpiness = -0.184483;
    int aggregate = 0, bumpiness = 0;
    for (int x = 0; x < width; ++x) {
        aggregate += heights[x];
        if (x + 1 < width)
            bumpiness += std::abs(heights[x + 1] - heights[x]);
    }
    const int complete_lines = 0, holes = 0;  // a hole-free stack that never clears lines
    return AggregateHeight * aggregate + CompleteLines * complete_lines + Holes * holes + Bumpiness * bumpiness;
}

namespace {

// The shared tie-break: (o, x) comes before the current best.
bool earlier(int orientation, int column, const Move& best) {
    return best.orientation < 0 || orientation < best.orientation
           || (orientation == best.orientation && column < best.column);
}

class TablePolicy final : public Policy {
public:
    TablePolicy(const PlacementTable& placements, const HugeVector<double>& values)
        : placements_(placements), values_(values) {}

    Move choose(const Turn& turn) const override {
        Move best;
        double best_value = -1.0;
        placements_.for_each_placement(turn.heights, [&](int o, int x, BoardId offset) {
            if (Orientations[o].piece != turn.piece)
                return;
            const double value = values_[turn.id + offset];
            if (value > best_value || (value == best_value && earlier(o, x, best))) {
                best_value = value;
                best = {o, x, turn.id + offset};
            }
        });
        return best;
    }

private:
    const PlacementTable& placements_;
    const HugeVector<double>& values_;
};

class RandomPolicy final : public Policy {
public:
    explicit RandomPolicy(const PlacementTable& placements) : placements_(placements) {}

    Move choose(const Turn& turn) const override {
        std::array<Move, OrientationCount * MaxWidth> moves;
        std::uint32_t count = 0;
        placements_.for_each_placement(turn.heights, [&](int o, int x, BoardId offset) {
            if (Orientations[o].piece == turn.piece)
                moves[count++] = {o, x, turn.id + offset};
        });
        return count == 0 ? Move{} : moves[turn.random->below(count)];
    }
    bool deterministic() const override { return false; }

private:
    const PlacementTable& placements_;
};

// The heuristic is lookahead 0. A search's outcome: how many of the known
// pieces it placed, then the score of the board it ended on.
class LookaheadPolicy final : public Policy {
public:
    LookaheadPolicy(const PlacementTable& placements, int depth) : placements_(placements), depth_(depth) {}

    Move choose(const Turn& turn) const override {
        Move best;
        Outcome best_outcome{-1, 0.0};
        const std::span<const Piece> next = turn.next.first(std::min<std::size_t>(turn.next.size(), depth_));
        placements_.for_each_placement(turn.heights, [&](int o, int x, BoardId offset) {
            if (Orientations[o].piece != turn.piece)
                return;
            Outcome outcome = search(heights_after(turn.heights, o, x), next);
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
    Outcome search(const Heights& heights, std::span<const Piece> pieces) const {
        Outcome best{0, heuristic_score(heights, placements_.geometry().width())};
        if (pieces.empty())
            return best;
        placements_.for_each_placement(heights, [&](int o, int x, BoardId) {
            if (Orientations[o].piece != pieces.front())
                return;
            Outcome outcome = search(heights_after(heights, o, x), pieces.subspan(1));
            ++outcome.placed;
            if (outcome.better_than(best))
                best = outcome;
        });
        return best;
    }

    const PlacementTable& placements_;
    int depth_;
};

}  // namespace

std::unique_ptr<Policy> make_policy(const PolicySpec& spec, const PlacementTable& placements,
                                    const HugeVector<double>& values) {
    switch (spec.kind) {
    case PolicyKind::Table: return std::make_unique<TablePolicy>(placements, values);
    case PolicyKind::Random: return std::make_unique<RandomPolicy>(placements);
    case PolicyKind::Heuristic: return std::make_unique<LookaheadPolicy>(placements, 0);
    case PolicyKind::Lookahead: return std::make_unique<LookaheadPolicy>(placements, spec.lookahead);
    case PolicyKind::Count: break;
    }
    throw InputError("unknown policy");
}

}  // namespace stack
