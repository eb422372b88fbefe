#include "tetris/search.h"

#include "objectives.h"
#include "support/parallel.h"
#include "srs/moves.h"
#include "support/cli.h"
#include "support/errors.h"
#include "tetris/features.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>

namespace stack::tetris {

namespace {

thread_local std::uint64_t leaves_scored = 0;

constexpr double DellacherieWeights[] = {-1, 1, -1, -1, -4, -1};
constexpr double ElTetrisWeights[] = {-4.500158825082766, 3.4181268101392694, -3.2178882868487753,
                                      -9.348695305445199, -7.899265427351652, -3.3855972247263626};

// The weights each policy takes (--weights), and its own.
int weights_taken(const PolicyConfig& config) {
    switch (config.evaluation) {
    case Evaluation::Dellacherie:
    case Evaluation::ElTetris: return 6;
    case Evaluation::Well: return 0;  // the table judges
    case Evaluation::WellBuilder: return WellFeatureCount;
    default: return 4;
    }
}

// The well-builder's weights: those given, else its own.
const double* well_builder_weights(const PolicyConfig& config) {
    return config.weight_count > 0 ? config.weights.data() : WellBuilderWeights.data();
}

// The score helpers: with config.weight_count 0 the policy's own weights,
// else those given (search.h).
double lee_score(const LeeFeatures& f, const PolicyConfig& config) {
    if (config.weight_count == 0)
        return stack::lee_score(f.aggregate_height, f.complete_lines, f.holes, f.bumpiness);
    const auto& w = config.weights;
    return stack::lee_score(f.aggregate_height, f.complete_lines, f.holes, f.bumpiness,
                            LeeWeights{w[0], w[1], w[2], w[3]});
}

double six_feature_score(const DellacherieFeatures& f, const PolicyConfig& config) {
    const double* w = config.weight_count > 0                        ? config.weights.data()
                      : config.evaluation == Evaluation::Dellacherie ? DellacherieWeights
                                                                     : ElTetrisWeights;
    return w[0] * f.landing_height + w[1] * f.eroded_cells + w[2] * f.row_transitions + w[3] * f.column_transitions
           + w[4] * f.holes + w[5] * f.wells;
}

double seed001_score(const Seed001Features& f, const PolicyConfig& config) {
    if (config.weight_count == 0)
        return seed001_objective(f.full_rows, f.longest_row, f.height, f.unreachable);
    const auto& w = config.weights;
    return seed001_objective(f.full_rows, f.longest_row, f.height, f.unreachable,
                             Seed001Weights{w[0], w[1], w[2], w[3]});
}

// A weight as policy_name shows it: the shortest text that reads back as
// the same double.
std::string weight_text(double weight) {
    char text[32];
    const auto [end, error] = std::to_chars(text, text + sizeof text, weight);
    return error == std::errc() ? std::string(text, end) : std::to_string(weight);
}

// The SRS placements of a tetromino, each as a shape of the piece (the one
// whose cells they are) with its lower-left corner.
int srs_move_placements(const ShapeSet& shapes, const TetrisBoard& board, int piece, int spawn_row, MoveSet moves,
                        std::span<TetrisPlacement, MostPlacements> out) {
    int count = 0;
    for (const moves::SrsPlacement& found : srs_placements(board, piece, spawn_row, moves))
        if (const std::optional<TetrisPlacement> placement = placement_of_cells(shapes, board, piece, found.cells))
            out[std::size_t(count++)] = *placement;
    return count;
}

}  // namespace

std::optional<TetrisPlacement> placement_of_cells(const ShapeSet& shapes, const TetrisBoard& board, int piece,
                                                  const moves::Cells& cells) {
    int left = board.width(), low = board.height();
    for (const auto& [x, y] : cells) {
        if (x < 0 || x >= board.width() || y < 0 || y >= board.height())
            return std::nullopt;
        left = std::min(left, x), low = std::min(low, y);
    }
    std::array<Row, MostShapeRows> rows{};
    for (const auto& [x, y] : cells)
        if (y - low < MostShapeRows)
            rows[std::size_t(y - low)] |= Row(1) << (x - left);
    for (int s = shapes.first(piece); s < shapes.end(piece); ++s)
        if (shapes.shape(s).rows == rows && low + shapes.shape(s).height <= board.height())
            return TetrisPlacement{std::int16_t(s), std::int8_t(left), std::int8_t(low)};
    return std::nullopt;
}

// The last searches of this thread, one per piece: a caller that asks how
// SRS reaches what the search chose asks for the same board again.
const std::vector<moves::SrsPlacement>& srs_placements(const TetrisBoard& board, int piece, int spawn_row,
                                                       MoveSet moves) {
    struct Remembered {
        std::optional<TetrisBoard> board;
        int spawn_row = 0;
        MoveSet moves = MoveSet::BreadthFirst;
        std::vector<moves::SrsPlacement> placements;
    };
    thread_local std::array<Remembered, PieceCount> last;
    Remembered& entry = last[std::size_t(piece)];
    if (!entry.board || entry.spawn_row != spawn_row || entry.moves != moves || !(*entry.board == board)) {
        moves::MoveOptions options;
        options.spawn_row = spawn_row;
        const moves::Algorithm algorithm =
            moves == MoveSet::SrsHardDrop ? moves::Algorithm::HardDrop : moves::Algorithm::BreadthFirst;
        entry.placements = moves::generate(srs_board(board), static_cast<Piece>(piece), algorithm, options);
        entry.board = board;
        entry.spawn_row = spawn_row;
        entry.moves = moves;
    }
    return entry.placements;
}

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
    } else if (name == "seed001-printed") {
        config.evaluation = Evaluation::Seed001;
        config.printed_longest_row = true;
        config.preview = std::max(preview, 1);
    } else if (name == "seed000-printed") {
        config.evaluation = Evaluation::Lee;
        config.printed_seed000 = true;
        config.preview = preview > 0 ? preview : 3;
    } else if (name == "expectimax") {
        config.evaluation = Evaluation::Lee;
        config.expectimax_depth = depth > 0 ? depth : 1;
    } else if (name == "well")
        config.evaluation = Evaluation::Well;
    else if (name == "well-builder")
        config.evaluation = Evaluation::WellBuilder;
    else
        throw InputError("unknown policy '" + name + "' for the real game (--game tetris, --bot; lee, dellacherie, el-tetris, seed001, "
                         "expectimax, seed000-printed, seed001-printed, well, well-builder)");
    if (depth > 0 && name != "expectimax")
        throw InputError("--depth is for --policy expectimax");
    return config;
}

namespace {

// The policy's name alone, as --policy takes it.
std::string base_name(const PolicyConfig& config) {
    return config.expectimax_depth > 0                    ? "expectimax"
           : config.printed_seed000                       ? "seed000-printed"
           : config.evaluation == Evaluation::Lee         ? "lee"
           : config.evaluation == Evaluation::Dellacherie ? "dellacherie"
           : config.evaluation == Evaluation::ElTetris    ? "el-tetris"
           : config.evaluation == Evaluation::Well        ? "well"
           : config.evaluation == Evaluation::WellBuilder ? "well-builder"
           : config.printed_longest_row                   ? "seed001-printed"
                                                          : "seed001";
}

}  // namespace

std::string policy_name(const PolicyConfig& config) {
    std::string name = base_name(config);
    if (config.expectimax_depth > 0)
        name += " depth " + std::to_string(config.expectimax_depth);
    if (config.preview > 0)
        name += ", preview " + std::to_string(config.preview);
    if (config.hold)
        name += ", hold";
    if (config.evaluation == Evaluation::Well || config.evaluation == Evaluation::WellBuilder)
        name += config.well_side == WellSide::Left ? ", well left" : ", well right";
    if (config.evaluation == Evaluation::Well)
        name += std::string(config.banked ? ", banked" : "") + ", fallback " + fallback_name(config.fallback);
    for (int i = 0; i < config.weight_count; ++i)
        name += (i == 0 ? ", weights " : ",") + weight_text(config.weights[std::size_t(i)]);
    return name;
}

void set_policy_weights(PolicyConfig& config, std::span<const double> weights) {
    if (weights.empty()) {
        config.weight_count = 0;
        return;
    }
    const int taken = weights_taken(config);
    if (int(weights.size()) != taken)
        throw InputError("--weights: policy " + base_name(config) + " takes " + std::to_string(taken) + " weights (got "
                         + std::to_string(weights.size()) + ")");
    std::copy(weights.begin(), weights.end(), config.weights.begin());
    config.weight_count = taken;
}

std::vector<double> policy_weights(const PolicyConfig& config) {
    if (config.weight_count > 0)
        return {config.weights.begin(), config.weights.begin() + config.weight_count};
    switch (config.evaluation) {
    case Evaluation::Lee: {
        const LeeWeights own;
        return {own.aggregate_height, own.complete_lines, own.holes, own.bumpiness};
    }
    case Evaluation::Seed001: {
        const Seed001Weights own;
        return {own.full_rows, own.height, own.longest_row, own.unreachable};
    }
    case Evaluation::Dellacherie: return {std::begin(DellacherieWeights), std::end(DellacherieWeights)};
    case Evaluation::ElTetris: return {std::begin(ElTetrisWeights), std::end(ElTetrisWeights)};
    case Evaluation::Well: return {};
    case Evaluation::WellBuilder: return {WellBuilderWeights.begin(), WellBuilderWeights.end()};
    }
    return {};
}

Evaluation parse_fallback(const std::string& name) {
    for (const Evaluation fallback :
         {Evaluation::WellBuilder, Evaluation::Dellacherie, Evaluation::ElTetris, Evaluation::Lee})
        if (name == fallback_name(fallback))
            return fallback;
    throw InputError("--fallback must be well-builder, dellacherie, el-tetris or lee (got '" + printable(name, 40)
                     + "')");
}

const char* fallback_name(Evaluation fallback) {
    switch (fallback) {
    case Evaluation::WellBuilder: return "well-builder";
    case Evaluation::Dellacherie: return "dellacherie";
    case Evaluation::ElTetris: return "el-tetris";
    case Evaluation::Lee: return "lee";
    default: return "?";
    }
}

int placed_piece(const Known& known, bool hold) {
    if (!hold)
        return known.queue.empty() ? -1 : known.queue[0];
    if (known.hold >= 0)
        return known.hold;
    return known.queue.size() > 1 ? known.queue[1] : -1;
}

Known after_turn(const Known& known, bool hold) {
    if (!hold || known.hold >= 0)  // placed the current piece, or swapped it into the hold
        return {known.queue.subspan(1), hold ? known.queue[0] : known.hold};
    return {known.queue.subspan(2), known.queue[0]};  // the hold filled, the next piece placed
}

bool may_hold(const Known& known, bool hold_in_play) {
    if (!hold_in_play || known.queue.empty())
        return false;
    return known.hold >= 0 ? known.hold != known.queue[0] : known.queue.size() > 1;
}

int generate_placements(const ShapeSet& shapes, const TetrisBoard& board, int piece, MoveSet moves,
                        std::span<TetrisPlacement, MostPlacements> out, int spawn_row, int visible_rows) {
    int count = 0;
    if (moves != MoveSet::HardDrop)
        count = srs_move_placements(shapes, board, piece, spawn_row, moves, out);
    else
        for (int s = shapes.first(piece); s < shapes.end(piece); ++s) {
            const Shape& shape = shapes.shape(s);
            for (int x = 0; x + shape.width <= board.width(); ++x) {
                const int row = board.landing_row(shape, x);
                if (row + shape.height <= board.height())
                    out[std::size_t(count++)] = {std::int16_t(s), std::int8_t(x), std::int8_t(row)};
            }
        }
    if (visible_rows > 0)  // seed 000: a placement needs a cell below the buffer rows
        count = int(std::remove_if(out.begin(), out.begin() + count,
                                   [&](const TetrisPlacement& placement) { return placement.row >= visible_rows; })
                    - out.begin());
    return count;
}

TetrisPolicy::TetrisPolicy(const ShapeSet& shapes, PolicyConfig config, std::vector<double> draw_weights,
                           const StackTable* table)
    : shapes_(shapes), config_(config), draw_weights_(std::move(draw_weights)) {
    if (config.moves != MoveSet::HardDrop && shapes.set().name() != "tetrominoes")
        throw InputError("--moves bfs plays the tetrominoes only (SRS)");
    if (config.repair && table)
        judge_.emplace(*table, config.banked);
    if (config.evaluation == Evaluation::Well) {
        if (!table)
            throw InputError("--policy well needs --table FILE (a table one column narrower than the board)");
        if (shapes.set().name() != "tetrominoes")
            throw InputError("--policy well plays the tetrominoes only (its table's pieces)");
        judge_.emplace(*table, config.banked);
        banked_judge_.emplace(*table, true);
        // The same search of the current piece alone (with hold, of the
        // two a turn may place), for a preview whose every line goes
        // unclean.
        if (config.preview > int(config.hold)) {
            PolicyConfig alone = config;
            alone.preview = int(config.hold);
            alone_ = std::make_shared<const TetrisPolicy>(shapes, alone, draw_weights_, table);
        }
        PolicyConfig fallback = config;
        fallback.evaluation = config.fallback;
        fallback.weight_count = 0;
        fallback.repair = true;
        fallback_ = std::make_shared<const TetrisPolicy>(shapes, fallback, draw_weights_, table);
        if (config.past_ceiling_banked && !config.banked) {
            PolicyConfig past = config;
            past.banked = true;
            past.banked_ceiling = judge_->height() + PastCeilingRows;
            past_ceiling_ = std::make_shared<const TetrisPolicy>(shapes, past, draw_weights_, table);
        }
    }
    if (config.hold
        && (config.evaluation == Evaluation::Dellacherie || config.evaluation == Evaluation::ElTetris
            || config.evaluation == Evaluation::WellBuilder)) {
        const std::vector<double> weights = policy_weights(config);  // landing height and eroded cells first
        landing_weight_ = weights[0];
        eroded_weight_ = weights[1];
    }
}

// Dellacherie's and El-Tetris's leaf scores a line by its last placement's
// own features (its landing height and eroded cells) and the board after
// it. Without hold the order of a line's pieces is the queue's and that
// is the seeds' rule. With hold the search picks the order, and a line
// that keeps the clearing piece for last is credited its eroded cells
// while the game, a turn later, keeps it in hold again: the bot held the
// I forever and stacked to the top (issue 38: Dellacherie and El-Tetris
// with hold topped out within 500 pieces of 7-bag where without hold they
// never did). So with hold every placement of a line adds its own
// features, weighted as the leaf weights the last one's: the order earns
// nothing. The well-builder's first two features are these two, so the
// same holds for it (it topped out 7 times in 1,000 pieces of the bot's
// 7-bag with hold before), and every tetris of its lines counts.
double TetrisPolicy::order_terms(const Shape& shape, int row, const Landing& landing) const {
    if (config_.evaluation == Evaluation::Well)
        return landing.lines >= 4 ? TetrisBonus : 0.0;
    if (config_.evaluation == Evaluation::WellBuilder)  // a line's earlier tetrises count, and as Dellacherie's
        return (landing.lines >= 4 ? well_builder_weights(config_)[7] : 0.0)
               + landing_weight_ * (row + (shape.height - 1) / 2.0) + eroded_weight_ * landing.eroded_cells;
    return landing_weight_ * (row + (shape.height - 1) / 2.0) + eroded_weight_ * landing.eroded_cells;
}

double TetrisPolicy::leaf(const TetrisBoard& board, const TetrisPlacement& placement,
                          const DellacherieBase* base) const {
    if (config_.repair) {
        TetrisBoard next = board;
        next.place(shapes_.shape(placement.shape), placement.x, placement.row);
        return own_leaf(board, placement, base) + (judge_->value(next, well_column(next)) ? RepairBonus : 0.0);
    }
    return own_leaf(board, placement, base);
}

double TetrisPolicy::own_leaf(const TetrisBoard& board, const TetrisPlacement& placement,
                              const DellacherieBase* base) const {
    ++leaves_scored;
    const Shape& shape = shapes_.shape(placement.shape);
    switch (config_.evaluation) {
    case Evaluation::Lee: return lee_score(lee_features(board, shape, placement.x, placement.row), config_);
    case Evaluation::Seed001: {
        TetrisBoard next = board;
        next.place(shape, placement.x, placement.row, false);
        return seed001_score(seed001_features(next, config_.printed_longest_row), config_);
    }
    case Evaluation::Dellacherie:
    case Evaluation::ElTetris:
        return six_feature_score(base ? base->features(shape, placement.x, placement.row)
                                      : dellacherie_features(board, shape, placement.x, placement.row),
                                 config_);
    case Evaluation::Well: {
        TetrisBoard next = board;
        const Landing landing = next.place(shape, placement.x, placement.row);
        const std::optional<double> value = judge_->value(next, well_column(next));
        if (!value || short_clear(landing) || above_ceiling(next))
            return NotClean;
        return *value + (landing.lines >= 4 ? TetrisBonus : 0.0);
    }
    case Evaluation::WellBuilder: {
        const WellFeatures features = well_features(board, shape, placement.x, placement.row, well_column(board));
        const double* w = well_builder_weights(config_);
        double score = 0;
        for (int i = 0; i < WellFeatureCount; ++i)
            score += w[i] * features[std::size_t(i)];
        return score;
    }
    }
    return 0;
}

int TetrisPolicy::placements(const TetrisBoard& board, int piece,
                             std::span<TetrisPlacement, MostPlacements> out) const {
    return generate_placements(shapes_, board, piece, config_.moves, out, config_.spawn_row, config_.visible_rows);
}

// The value of a placement: its leaf score when nothing follows it, else
// the best turn of the pieces still known (`rest`), else the weighted mean
// over the pieces of the best turn of each. `turns` more placements of
// known pieces follow it. A line that held from an empty hold has used two
// queue pieces for one placement: when its queue runs out with turns left,
// its next turn places the held piece (a real turn can: it holds the
// unknown piece drawn then). So every line places as many pieces, and
// leaves are compared at one depth.
double TetrisPolicy::after(const TetrisBoard& board, const TetrisPlacement& placement, const Known& rest, int unknown,
                           int turns, double carried, const DellacherieBase* base) const {
    if (turns == 0 && unknown == 0)
        return leaf(board, placement, base) + carried;
    TetrisBoard next = board;
    const Shape& shape = shapes_.shape(placement.shape);
    const Landing landing = next.place(shape, placement.x, placement.row, config_.evaluation != Evaluation::Seed001);
    if (config_.evaluation == Evaluation::Well
        && (!keeps_clean(next, landing, well_column(next)) || above_ceiling(next)))
        return NotClean;  // a hole or a filled well is not undone without clears: the line is lost to the table
    carried += order_terms(shape, placement.row, landing);
    if (config_.repair && judge_->value(next, well_column(next)))
        carried += RepairBonus;
    if (turns > 0 && !rest.queue.empty())
        return best(next, rest, unknown, turns, carried);
    if (turns > 0 && rest.hold >= 0) {
        const int held[] = {rest.hold};
        return best(next, Known{held, -1}, unknown, turns, carried);
    }
    double mean = 0;
    for (int piece = 0; piece < shapes_.piece_count(); ++piece) {
        const int draw[] = {piece};
        mean += draw_weights_[std::size_t(piece)] * best(next, Known{draw, rest.hold}, unknown - 1, 1, carried);
    }
    return mean;
}

// Whether the first placements of a search are its leaves: then
// Dellacherie's features of them share the board's base.
bool TetrisPolicy::leaves_follow(const Known& known, int unknown) const {
    return known.queue.size() <= 1 && unknown == 0
           && (config_.evaluation == Evaluation::Dellacherie || config_.evaluation == Evaluation::ElTetris);
}

// The best turn on a board: each placement of the current piece, then with
// hold each of the other piece's; `turns` counts this one.
double TetrisPolicy::best(const TetrisBoard& board, const Known& known, int unknown, int turns, double carried) const {
    std::array<TetrisPlacement, MostPlacements> placements;
    std::optional<DellacherieBase> base;
    if (turns == 1 && leaves_follow(known, unknown))
        base.emplace(board);
    double top = Lost;
    for (const bool hold : {false, true}) {
        if (hold && !may_hold(known, config_.hold))
            break;
        const int count = this->placements(board, placed_piece(known, hold), placements);
        const Known rest = after_turn(known, hold);
        const DellacherieBase* shared = base ? &*base : nullptr;
        if (turns == 1 && unknown == 0)  // the placements are the leaves (most calls): no call per leaf
            for (int i = 0; i < count; ++i)
                top = std::max(top, leaf(board, placements[std::size_t(i)], shared) + carried);
        else
            for (int i = 0; i < count; ++i)
                top =
                    std::max(top, after(board, placements[std::size_t(i)], rest, unknown, turns - 1, carried, shared));
    }
    return top;
}

Known TetrisPolicy::window(const Known& known) const {
    return {known.queue.first(std::min(known.queue.size(), std::size_t(config_.preview) + 1)), known.hold};
}

double TetrisPolicy::score(const TetrisBoard& board, const Known& known, const TetrisChoice& first,
                           const DellacherieBase* base) const {
    const Known seen = window(known);
    if (!config_.printed_seed000) {
        // A turn for each known piece of the queue, this one first.
        const int turns = int(seen.queue.size()) - 1;
        if (turns == 0 && config_.expectimax_depth == 0)  // a leaf (the one-piece policies): no call
            return leaf(board, first.placement, base);
        return after(board, first.placement, after_turn(seen, first.hold), config_.expectimax_depth, turns, 0.0, base);
    }
    // Seed 000's nextTick, as printed, recurses on the tail of a list that is
    // already the tail: it places known[0], known[2], known[4], ...
    std::array<int, 8> every_other{};
    std::size_t count = 0;
    for (std::size_t i = 2; i < seen.queue.size(); i += 2)
        every_other[count++] = seen.queue[i];
    return after(board, first.placement, Known{std::span<const int>(every_other.data(), count)}, 0, int(count), 0.0,
                 base);
}

std::optional<double> TetrisPolicy::table_value(const TetrisBoard& board) const {
    return judge_ && config_.evaluation == Evaluation::Well ? judge_->value(board, well_column(board)) : std::nullopt;
}

// The well policy searches while the board is clean and some line stays
// clean (its leaf judged by the table); then the current piece alone; else
// its fallback plays.
std::optional<TetrisChoice> TetrisPolicy::choose(const TetrisBoard& board, const Known& known, int threads,
                                                 std::uint64_t* leaves, std::vector<TetrisChoice>* scored) const {
    if (config_.evaluation != Evaluation::Well)
        return search(board, known, threads, leaves, scored);
    if (board.width() != judge_->width() + 1)
        throw InputError("--policy well: the board is " + std::to_string(board.width()) + " wide and the table "
                         + std::to_string(judge_->width()) + ": the board must be one column (the well) wider");
    if (is_clean(board, well_column(board))) {
        const std::size_t before = scored ? scored->size() : 0;
        const TetrisPolicy* past = past_ceiling_.get();
        for (const TetrisPolicy* policy : {this, alone_.get(), past, past ? past->alone_.get() : nullptr}) {
            if (!policy)
                continue;
            if (scored)
                scored->resize(before);
            std::optional<TetrisChoice> choice = policy->search(board, known, threads, leaves, scored);
            if (choice && is_clean_score(choice->score)) {
                choice->banked = policy == past || (past && policy == past->alone_.get());
                return choice;
            }
        }
        if (scored)
            scored->resize(before);
    }
    std::vector<TetrisChoice> own;
    std::vector<TetrisChoice>& all = scored ? *scored : own;
    const std::size_t first = all.size();
    std::optional<TetrisChoice> choice = fallback_->choose(board, known, threads, leaves, &all);
    if (choice) {
        choice = keep_well(board, std::span<const TetrisChoice>(all).subspan(first), *choice);
        choice->fallback = true;
    }
    return choice;
}

std::optional<double> TetrisPolicy::waiting_value(const TetrisBoard& board) const {
    const std::optional<double> value = judge_->value(board, well_column(board));
    return value ? value : banked_judge_->value(board, well_column(board));
}

// The fallback's well rule (issue 49). An El-Tetris fallback, handed a
// stack past the table's ceiling with four full rows waiting for an I,
// drops a J into the well for the eroded cells of a 3-row clear, and
// the well is filled for good. So a fallback choice that fills the well
// for less than a tetris stands only when no other placement keeps the
// well empty on a board the table values above the fill's board (which
// counts 0 when the table cannot judge it: a filled well is not clean).
// Otherwise the fallback's best-scored such waiting placement plays (the
// first on ties, as the search's own order). `choices` are the fallback's
// scored first choices.
TetrisChoice TetrisPolicy::keep_well(const TetrisBoard& board, std::span<const TetrisChoice> choices,
                                     const TetrisChoice& chosen) const {
    const int well = well_column(board);
    const auto after = [&](const TetrisChoice& choice, bool& fills) {
        TetrisBoard next = board;
        const Shape& shape = shapes_.shape(choice.placement.shape);
        const Landing landing = next.place(shape, choice.placement.x, choice.placement.row);
        fills = short_fill(shape, choice.placement.x, landing, well);
        return next;
    };
    bool fills = false;
    const TetrisBoard filled = after(chosen, fills);
    if (!fills)
        return chosen;
    const double fill_value = waiting_value(filled).value_or(0);
    const TetrisChoice* best = nullptr;
    for (const TetrisChoice& choice : choices) {
        bool other_fills = false;
        const std::optional<double> value = waiting_value(after(choice, other_fills));
        if (!other_fills && value && *value > fill_value && (!best || choice.score > best->score))
            best = &choice;
    }
    return best ? *best : chosen;
}

LossCause TetrisPolicy::loss_cause(const TetrisBoard& board, const Known& known) const {
    const int well = well_column(board);
    if (!judge_ || !judge_->value(board, well))
        return LossCause::FallbackOwn;
    bool clean = false, within = false;
    std::array<TetrisPlacement, MostPlacements> found;
    for (const bool hold : {false, true}) {
        if (hold && !may_hold(known, config_.hold))
            break;
        const int piece = placed_piece(known, hold);
        if (piece < 0)
            continue;
        const int count = placements(board, piece, found);
        for (int i = 0; i < count; ++i) {
            const TetrisPlacement& placement = found[std::size_t(i)];
            TetrisBoard next = board;
            const Shape& shape = shapes_.shape(placement.shape);
            const Landing landing = next.place(shape, placement.x, placement.row);
            if (!keeps_clean(next, landing, well))
                continue;
            clean = true;
            within = within || next.top() <= judge_->height() + (config_.banked ? banked_rows(next, well) : 0);
        }
    }
    return within ? LossCause::Class : clean ? LossCause::PastCeiling : LossCause::ForcedHole;
}

std::optional<TetrisChoice> TetrisPolicy::search(const TetrisBoard& board, const Known& known, int threads,
                                                 std::uint64_t* leaves, std::vector<TetrisChoice>* scored) const {
    std::array<TetrisChoice, 2 * MostPlacements> choices;
    std::array<TetrisPlacement, MostPlacements> placements;
    const Known seen = window(known);
    int count = 0;
    for (const bool hold : {false, true}) {
        if (hold && !may_hold(seen, config_.hold))
            break;
        const int found = this->placements(board, placed_piece(seen, hold), placements);
        for (int i = 0; i < found; ++i)
            choices[std::size_t(count++)] = {placements[std::size_t(i)], hold, 0, false, false};
    }
    if (count == 0)
        return std::nullopt;
    const std::size_t placed = config_.printed_seed000 ? (seen.queue.size() + 1) / 2 : seen.queue.size();
    std::optional<DellacherieBase> base;
    if (placed <= 1 && leaves_follow(seen, config_.expectimax_depth))
        base.emplace(board);
    std::array<std::uint64_t, 64> leaves_of_part{};
    const bool parallel = threads > 1 && (config_.preview > 0 || config_.expectimax_depth > 0);
    const auto score_range = [&](int part, std::uint64_t begin, std::uint64_t end) {
        const std::uint64_t before = leaves_scored;
        for (std::uint64_t i = begin; i < end; ++i)
            choices[i].score = score(board, seen, choices[i], base ? &*base : nullptr);
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
        if (choices[std::size_t(i)].score > choices[std::size_t(chosen)].score)
            chosen = i;
    if (scored)
        scored->insert(scored->end(), choices.begin(), choices.begin() + count);
    return choices[std::size_t(chosen)];
}

double projected_leaves(const ShapeSet& shapes, int width, int height, const PolicyConfig& config, std::size_t known,
                        double least_placements) {
    double placements = 0;
    for (int s = 0; s < int(shapes.shapes().size()); ++s)
        if (shapes.shape(s).height <= height)
            placements += std::max(0, width - shapes.shape(s).width + 1);
    placements /= shapes.piece_count();
    if (config.moves == MoveSet::BreadthFirst)
        placements = std::max(placements, 4.0 * width);
    placements = std::max(placements, least_placements);
    const std::size_t window = std::min(std::size_t(config.preview) + 1, known);
    const double placed = double(config.printed_seed000 ? (window + 1) / 2 : window);
    const double levels = placed + config.expectimax_depth;
    double leaves = std::pow(placements, levels) * std::pow(double(shapes.piece_count()), config.expectimax_depth);
    if (config.hold)
        leaves *= std::pow(2.0, levels);
    return leaves;
}

}  // namespace stack::tetris
