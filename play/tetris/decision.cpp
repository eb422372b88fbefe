#include "tetris/decision.h"

#include "srs/centre.h"

#include <algorithm>
#include <chrono>

namespace stack::tetris {

namespace {

// The plan after the choice: each known piece left, chosen on the board
// the plan has made so far.
void extend_plan(const TetrisPolicy& policy, const TetrisBoard& board, const Known& known, int threads,
                 Decision& decision) {
    const std::size_t window = std::min(known.queue.size(), std::size_t(policy.config().preview) + 1);
    Known rest{known.queue.first(window), known.hold};
    TetrisBoard next = board;
    for (TetrisChoice choice = *decision.choice;;) {
        decision.plan.push_back(choice);
        const TetrisPlacement& placement = choice.placement;
        next.place(policy.shapes().shape(placement.shape), placement.x, placement.row);
        rest = after_turn(rest, choice.hold);
        if (rest.queue.empty())
            return;
        const std::optional<TetrisChoice> following = policy.choose(next, rest, threads, &decision.leaves);
        if (!following)
            return;
        choice = *following;
    }
}

// A placement as the decision's JSON names it, with its score (null when
// lost): the search's score of the choice with the pieces known at its
// turn, and whether a later known piece then fits after no placement.
Json placement_json(const ShapeSet& shapes, const TetrisBoard& board, const TetrisChoice& choice, int spawn_row) {
    const TetrisPlacement& placement = choice.placement;
    const Shape& shape = shapes.shape(placement.shape);
    Json cells = Json::array();
    shape.for_each_cell(placement.x, placement.row, [&](int x, int y) { cells.push_back({x, y}); });
    TetrisBoard after = board;
    const Landing landing = after.place(shape, placement.x, placement.row);
    Json srs = nullptr, inputs = nullptr;
    if (const std::optional<SrsFacts> facts = srs_facts(shapes, board, placement, spawn_row)) {
        const auto [x, y] = moves::centre_of(static_cast<Piece>(shape.piece), facts->location);
        srs = {{"orientation", moves::orientation_name(facts->location.rotation)},
               {"x", x},
               {"y", y},
               {"spin", spin_name(facts->reached)}};
        inputs = facts->inputs;
    }
    Json out = {{"piece", std::string(1, shapes.letter(shape.piece))},
                {"hold", choice.hold},
                {"shape", placement.shape - shapes.first(shape.piece)},
                {"column", placement.x},
                {"row", placement.row},
                {"cells", std::move(cells)},
                {"lines", landing.lines},
                {"srs", std::move(srs)},
                {"inputs", std::move(inputs)}};
    const bool lost = choice.score <= Lost;
    out["score"] = lost ? Json() : Json(choice.score);
    out["lost"] = lost;
    return out;
}

}  // namespace

Decision decide(const TetrisPolicy& policy, const TetrisBoard& board, const Known& known, GameOverRule rule,
                int threads) {
    const auto start = std::chrono::steady_clock::now();
    Decision decision;
    const ShapeSet& shapes = policy.shapes();
    decision.enters =
        rule == GameOverRule::Placement || board.can_enter(shapes.spawn(known.queue[0], board.width(), board.height()));
    if (decision.enters) {
        decision.choice = policy.choose(board, known, threads, &decision.leaves, &decision.ranked);
        // The choice is the first of the best in the search's order, so a
        // stable sort puts it first.
        std::stable_sort(decision.ranked.begin(), decision.ranked.end(),
                         [](const TetrisChoice& a, const TetrisChoice& b) { return a.score > b.score; });
        if (decision.choice)
            extend_plan(policy, board, known, threads, decision);
    }
    decision.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return decision;
}

moves::Cells placement_cells(const Shape& shape, const TetrisPlacement& placement) {
    moves::Cells cells{};
    std::size_t i = 0;
    shape.for_each_cell(placement.x, placement.row, [&](int x, int y) {
        if (i < cells.size())
            cells[i++] = {x, y};
    });
    std::sort(cells.begin(), cells.end());
    return cells;
}

std::optional<SrsFacts> srs_facts(const ShapeSet& shapes, const TetrisBoard& board, const TetrisPlacement& placement,
                                  int spawn_row) {
    if (shapes.set().name() != "tetrominoes" || board.width() < 4)
        return std::nullopt;
    const Shape& shape = shapes.shape(placement.shape);
    const Piece piece = static_cast<Piece>(shape.piece);
    const moves::Cells cells = placement_cells(shape, placement);
    moves::MoveOptions options;
    options.spawn_row = spawn_row;
    for (const moves::SrsPlacement& found : srs_placements(board, shape.piece, spawn_row))
        if (found.cells == cells) {
            // The best spin, and inputs that perform it.
            const moves::SpinInputs ways = moves::spin_inputs(srs_board(board), piece, {found}, options).front();
            const std::uint8_t best = moves::best_spin(ways);
            return SrsFacts{found.location, best, moves::inputs_for_spin(ways, best)};
        }
    return std::nullopt;
}

const char* spin_name(std::uint8_t reached) {
    return reached & moves::ReachedFull ? "full" : reached & moves::ReachedMini ? "mini" : "none";
}

Json board_rows(const TetrisBoard& board) {
    Json rows = Json::array();
    for (int y = board.height() - 1; y >= 0; --y) {
        std::string row;
        for (int x = 0; x < board.width(); ++x)
            row += board.filled(x, y) ? '#' : '.';
        rows.push_back(std::move(row));
    }
    return rows;
}

Json decision_json(const ShapeSet& shapes, const TetrisPolicy& policy, const TetrisBoard& board, const Known& known,
                   const Decision& decision, int alternatives) {
    const int spawn_row = policy.config().spawn_row;
    std::string next;
    for (std::size_t i = 1; i < known.queue.size(); ++i)
        next += shapes.letter(known.queue[i]);
    const std::size_t searched = std::min(known.queue.size(), std::size_t(policy.config().preview) + 1);
    Json document = {{"width", board.width()},
                     {"height", board.height()},
                     {"piece", std::string(1, shapes.letter(known.queue[0]))},
                     {"next", next.empty() ? Json() : Json(next)},
                     {"hold", known.hold >= 0 ? Json(std::string(1, shapes.letter(known.hold))) : Json()},
                     {"hold_allowed", policy.config().hold},
                     {"policy", policy_name(policy.config())},
                     {"pieces_searched", searched},
                     {"placements", decision.ranked.size()},
                     {"leaves", decision.leaves},
                     {"seconds", decision.seconds}};
    if (!decision.choice) {
        document["best"] = nullptr;
        document["game_over"] = decision.enters ? "no placement fits" : "the piece cannot enter";
        return document;
    }
    document["best"] = placement_json(shapes, board, *decision.choice, spawn_row);
    document["game_over"] = nullptr;
    TetrisBoard after = board;
    Json plan = Json::array();
    for (const TetrisChoice& step : decision.plan) {
        plan.push_back(placement_json(shapes, after, step, spawn_row));
        after.place(shapes.shape(step.placement.shape), step.placement.x, step.placement.row);
        if (plan.size() == 1)
            document["board_after"] = board_rows(after);
    }
    document["plan"] = std::move(plan);
    Json ranked = Json::array();
    for (std::size_t i = 0; i < decision.ranked.size() && i < std::size_t(alternatives); ++i)
        ranked.push_back(placement_json(shapes, board, decision.ranked[i], spawn_row));
    document["alternatives"] = std::move(ranked);
    return document;
}

}  // namespace stack::tetris
