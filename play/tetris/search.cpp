#include "tetris/search.h"

#include "objectives.h"
#include "support/parallel.h"
#include "srs/moves.h"
#include "support/errors.h"
#include "tetris/features.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace stack::tetris {

namespace {

thread_local std::uint64_t leaves_scored = 0;

constexpr double DellacherieWeights[] = {-1, 1, -1, -1, -4, -1};
constexpr double ElTetrisWeights[] = {-4.500158825082766, 3.4181268101392694, -3.2178882868487753,
                                      -9.348695305445199, -7.899265427351652, -3.3855972247263626};

double lee_score(const LeeFeatures& f) {
    return stack::lee_score(f.aggregate_height, f.complete_lines, f.holes, f.bumpiness);
}

double six_feature_score(const DellacherieFeatures& f, const double (&w)[6]) {
    return w[0] * f.landing_height + w[1] * f.eroded_cells + w[2] * f.row_transitions + w[3] * f.column_transitions
           + w[4] * f.holes + w[5] * f.wells;
}

double seed001_score(const Seed001Features& f) {
    return seed001_objective(f.full_rows, f.longest_row, f.height, f.unreachable);
}

// The SRS placements of a tetromino, each as a shape of the piece (the one
// whose cells they are) with its lower-left corner.
int breadth_first_placements(const ShapeSet& shapes, const TetrisBoard& board, int piece,
                             std::span<TetrisPlacement, MostPlacements> out) {
    int count = 0;
    for (const moves::SrsPlacement& found :
         moves::generate(srs_board(board), static_cast<Piece>(piece), moves::Algorithm::BreadthFirst)) {
        int left = board.width(), low = board.height();
        for (const auto& [x, y] : found.cells)
            left = std::min(left, x), low = std::min(low, y);
        std::array<Row, MostShapeRows> rows{};
        for (const auto& [x, y] : found.cells)
            rows[std::size_t(y - low)] |= Row(1) << (x - left);
        for (int s = shapes.first(piece); s < shapes.end(piece); ++s)
            if (shapes.shape(s).rows == rows && low + shapes.shape(s).height <= board.height()) {
                out[std::size_t(count++)] = {std::int16_t(s), std::int8_t(left), std::int8_t(low)};
                break;
            }
    }
    return count;
}

}  // namespace

moves::SrsBoard srs_board(const TetrisBoard& board) {
    moves::SrsBoard srs(board.width(), board.height());
    for (int y = 0; y < board.top(); ++y)
        for (Row cells = board.row(y); cells; cells &= cells - 1)
            srs.fill(std::countr_zero(cells), y);
    return srs;
}

PolicyConfig parse_tetris_policy(const std::string& name, int preview, int depth) {
    PolicyConfig config;
    config.preview = preview;
    if (name == "lee")
        config.evaluation = Evaluation::Lee;
    else if (name == "dellacherie")
        config.evaluation = Evaluation::Dellacherie;
    else if (name == "el-tetris")
        config.evaluation = Evaluation::ElTetris;
    else if (name == "seed001") {
        config.evaluation = Evaluation::Seed001;
        config.preview = std::max(preview, 1);
    } else if (name == "seed000-printed") {
        config.evaluation = Evaluation::Lee;
        config.printed_seed000 = true;
        config.preview = preview > 0 ? preview : 3;
    } else if (name == "expectimax") {
        config.evaluation = Evaluation::Lee;
        config.expectimax_depth = depth > 0 ? depth : 1;
    } else
        throw InputError("unknown policy '" + name + "' for --game tetris (lee, dellacherie, el-tetris, seed001, "
                         "expectimax, seed000-printed)");
    if (depth > 0 && name != "expectimax")
        throw InputError("--depth is for --policy expectimax");
    return config;
}

std::string policy_name(const PolicyConfig& config) {
    std::string name = config.expectimax_depth > 0                    ? "expectimax"
                       : config.printed_seed000                       ? "seed000-printed"
                       : config.evaluation == Evaluation::Lee         ? "lee"
                       : config.evaluation == Evaluation::Dellacherie ? "dellacherie"
                       : config.evaluation == Evaluation::ElTetris    ? "el-tetris"
                                                                      : "seed001";
    if (config.expectimax_depth > 0)
        name += " depth " + std::to_string(config.expectimax_depth);
    if (config.preview > 0)
        name += ", preview " + std::to_string(config.preview);
    return name;
}

int generate_placements(const ShapeSet& shapes, const TetrisBoard& board, int piece, MoveSet moves,
                        std::span<TetrisPlacement, MostPlacements> out) {
    if (moves == MoveSet::BreadthFirst)
        return breadth_first_placements(shapes, board, piece, out);
    int count = 0;
    for (int s = shapes.first(piece); s < shapes.end(piece); ++s) {
        const Shape& shape = shapes.shape(s);
        for (int x = 0; x + shape.width <= board.width(); ++x) {
            const int row = board.landing_row(shape, x);
            if (row + shape.height <= board.height())
                out[std::size_t(count++)] = {std::int16_t(s), std::int8_t(x), std::int8_t(row)};
        }
    }
    return count;
}

TetrisPolicy::TetrisPolicy(const ShapeSet& shapes, PolicyConfig config, std::vector<double> draw_weights)
    : shapes_(shapes), config_(config), draw_weights_(std::move(draw_weights)) {
    if (config.moves == MoveSet::BreadthFirst && shapes.set().name() != "tetrominoes")
        throw InputError("--moves bfs plays the tetrominoes only (SRS)");
}

double TetrisPolicy::leaf(const TetrisBoard& board, const TetrisPlacement& placement,
                          const DellacherieBase* base) const {
    ++leaves_scored;
    const Shape& shape = shapes_.shape(placement.shape);
    switch (config_.evaluation) {
    case Evaluation::Lee: return lee_score(lee_features(board, shape, placement.x, placement.row));
    case Evaluation::Seed001: {
        TetrisBoard next = board;
        next.place(shape, placement.x, placement.row, false);
        return seed001_score(seed001_features(next));
    }
    case Evaluation::Dellacherie:
    case Evaluation::ElTetris:
        return six_feature_score(base ? base->features(shape, placement.x, placement.row)
                                      : dellacherie_features(board, shape, placement.x, placement.row),
                                 config_.evaluation == Evaluation::Dellacherie ? DellacherieWeights : ElTetrisWeights);
    }
    return 0;
}

// The value of a placement: its leaf score when nothing follows it, else
// the best of the next known piece, else the weighted mean over the pieces
// of the best of each.
double TetrisPolicy::after(const TetrisBoard& board, const TetrisPlacement& placement, std::span<const int> known,
                           int unknown, const DellacherieBase* base) const {
    if (known.size() <= 1 && unknown == 0)
        return leaf(board, placement, base);
    TetrisBoard next = board;
    next.place(shapes_.shape(placement.shape), placement.x, placement.row, config_.evaluation != Evaluation::Seed001);
    if (known.size() > 1)
        return best(next, known.subspan(1), unknown);
    double mean = 0;
    for (int piece = 0; piece < shapes_.piece_count(); ++piece) {
        const int draw[] = {piece};
        mean += draw_weights_[std::size_t(piece)] * best(next, draw, unknown - 1);
    }
    return mean;
}

// Dellacherie's features of the leaves on one board share its base.
std::optional<DellacherieBase> TetrisPolicy::base_for_leaves(const TetrisBoard& board, std::size_t known,
                                                             int unknown) const {
    if (known <= 1 && unknown == 0
        && (config_.evaluation == Evaluation::Dellacherie || config_.evaluation == Evaluation::ElTetris))
        return std::optional<DellacherieBase>(std::in_place, board);
    return std::nullopt;
}

double TetrisPolicy::best(const TetrisBoard& board, std::span<const int> known, int unknown) const {
    std::array<TetrisPlacement, MostPlacements> placements;
    const int count = generate_placements(shapes_, board, known[0], config_.moves, placements);
    const std::optional<DellacherieBase> base =
        count > 0 ? base_for_leaves(board, known.size(), unknown) : std::nullopt;
    double top = Lost;
    for (int i = 0; i < count; ++i)
        top = std::max(top, after(board, placements[std::size_t(i)], known, unknown, base ? &*base : nullptr));
    return top;
}

std::size_t TetrisPolicy::pieces_placed(std::size_t known) const {
    const std::size_t window = std::min(known, std::size_t(config_.preview) + 1);
    return config_.printed_seed000 ? (window + 1) / 2 : window;
}

double TetrisPolicy::score(const TetrisBoard& board, std::span<const int> known, const TetrisPlacement& first,
                           const DellacherieBase* base) const {
    const std::size_t window = std::min(known.size(), std::size_t(config_.preview) + 1);
    if (!config_.printed_seed000)
        return after(board, first, known.first(window), config_.expectimax_depth, base);
    // Seed 000's nextTick, as printed, recurses on the tail of a list that is
    // already the tail: it places known[0], known[2], known[4], ...
    std::array<int, 8> every_other{};
    std::size_t count = 0;
    for (std::size_t i = 0; i < window; i += 2)
        every_other[count++] = known[i];
    return after(board, first, std::span<const int>(every_other.data(), count), 0, base);
}

std::optional<TetrisPlacement> TetrisPolicy::choose(const TetrisBoard& board, std::span<const int> known, int threads,
                                                    std::uint64_t* leaves,
                                                    std::vector<std::pair<TetrisPlacement, double>>* scored) const {
    std::array<TetrisPlacement, MostPlacements> placements;
    const int count = generate_placements(shapes_, board, known[0], config_.moves, placements);
    if (count == 0)
        return std::nullopt;
    const std::optional<DellacherieBase> base =
        base_for_leaves(board, pieces_placed(known.size()), config_.expectimax_depth);
    std::array<double, MostPlacements> scores;
    std::array<std::uint64_t, 64> leaves_of_part{};
    const bool parallel = threads > 1 && (config_.preview > 0 || config_.expectimax_depth > 0);
    const auto score_range = [&](int part, std::uint64_t begin, std::uint64_t end) {
        const std::uint64_t before = leaves_scored;
        for (std::uint64_t i = begin; i < end; ++i)
            scores[i] = score(board, known, placements[i], base ? &*base : nullptr);
        leaves_of_part[std::size_t(part)] = leaves_scored - before;
    };
    if (parallel)
        parallel_ranges(std::min(threads, 64), std::uint64_t(count), score_range);
    else
        score_range(0, 0, std::uint64_t(count));
    if (leaves)
        for (const std::uint64_t part : leaves_of_part)
            *leaves += part;
    int chosen = 0;
    for (int i = 1; i < count; ++i)
        if (scores[std::size_t(i)] > scores[std::size_t(chosen)])
            chosen = i;
    if (scored)
        for (int i = 0; i < count; ++i)
            scored->push_back({placements[std::size_t(i)], scores[std::size_t(i)]});
    return placements[std::size_t(chosen)];
}

}  // namespace stack::tetris
