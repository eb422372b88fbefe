#include "tetris/game.h"

#include "support/parallel.h"
#include "support/interrupt.h"

#include "game_random.h"
#include "srs/moves.h"
#include "rules/rules.h"
#include "support/cli.h"
#include "support/errors.h"
#include "support/json.h"
#include "table/stack_table.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

#include <sys/stat.h>

namespace stack::tetris {

namespace {

// The pieces of one game: drawn, from a bag, or from a file.
class PieceStream {
public:
    PieceStream(const Rules& rules, Draw draw, const std::vector<int>* file, std::uint64_t seed, std::uint64_t game)
        : rules_(rules), draw_(draw), file_(file), random_(seed, game) {}
    std::optional<int> next() {
        if (file_)
            return at_ < file_->size() ? std::optional<int>((*file_)[at_++]) : std::nullopt;
        if (draw_ == Draw::Independent)
            return random_.next_piece(rules_);
        if (at_ == bag_.size()) {  // a new bag: every piece once, Fisher-Yates shuffled
            bag_.resize(std::size_t(rules_.piece_count()));
            for (std::size_t i = 0; i < bag_.size(); ++i)
                bag_[i] = int(i);
            for (std::size_t i = bag_.size(); i > 1; --i)
                std::swap(bag_[i - 1], bag_[random_.below(std::uint32_t(i))]);
            at_ = 0;
        }
        return bag_[at_++];
    }

private:
    const Rules& rules_;
    Draw draw_;
    const std::vector<int>* file_;
    GameRandom random_;
    std::vector<int> bag_;
    std::size_t at_ = 0;
};

}  // namespace

std::vector<int> read_seed000_pieces(const std::string& text) {
    // Seed 000's randomPiece: 0 I, 1 O, 2 S, 3 Z, 4 T, 5 J, 6 L; the set's
    // order is I T O S Z L J (rules/pieces.h).
    static constexpr int SetIndex[] = {PieceI, PieceSquare, PieceZRight, PieceZLeft, PieceT, PieceLLeft, PieceLRight};
    std::vector<int> pieces;
    std::istringstream in(text);
    std::string word;
    while (in >> word) {
        if (word.size() != 1 || word[0] < '0' || word[0] > '6')
            throw InputError("piece file: '" + printable(word) + "' at piece " + std::to_string(pieces.size() + 1)
                             + " is not 0-6 (I O S Z T J L)");
        pieces.push_back(SetIndex[word[0] - '0']);
    }
    if (pieces.empty())
        throw InputError("piece file: no pieces");
    return pieces;
}

std::vector<double> draw_probabilities(const Rules& rules) {
    std::vector<double> weights;
    for (int p = 0; p < rules.piece_count(); ++p)
        weights.push_back(double(rules.weight(p)) / double(rules.total_weight()));
    return weights;
}

// A frame: the board with the piece just placed drawn by its letter, before
// its full rows clear.
std::string placement_frame(const ShapeSet& shapes, const TetrisBoard& board, const TetrisPlacement& placement,
                            std::uint64_t number) {
    const Shape& shape = shapes.shape(placement.shape);
    std::string out = "piece " + std::to_string(number) + ": " + std::string(1, shapes.letter(shape.piece)) + " shape "
                      + std::to_string(placement.shape - shapes.first(shape.piece)) + " at column "
                      + std::to_string(placement.x) + ", row " + std::to_string(placement.row) + "\n";
    for (int y = board.height() - 1; y >= 0; --y) {
        out += '|';
        for (int x = 0; x < board.width(); ++x) {
            const int dy = y - placement.row, dx = x - placement.x;
            const bool piece =
                dy >= 0 && dy < shape.height && dx >= 0 && dx < shape.width && (shape.rows[std::size_t(dy)] >> dx & 1);
            out += piece ? shapes.letter(shape.piece) : board.filled(x, y) ? '#' : '.';
        }
        out += "|\n";
    }
    return out + "+" + std::string(std::size_t(board.width()), '-') + "+\n";
}

std::string turn_frame(const ShapeSet& shapes, const TetrisTurn& turn) {
    std::string held;
    if (turn.chosen.hold)
        held = "held " + std::string(1, shapes.letter(turn.known.queue[0])) + ", ";
    return placement_frame(shapes, *turn.before, turn.chosen.placement, turn.number) + held + "rows cleared "
           + std::to_string(turn.lines_cleared) + ", lines " + std::to_string(turn.record->lines) + ", points "
           + std::to_string(turn.record->points) + "\n";
}

TetrisBoard start_board(const TetrisOptions& options) {
    TetrisBoard board(options.width, options.height + options.buffer_rows);
    if (options.start_board)
        for (int y = 0; y < options.start_board->height(); ++y)
            for (int x = 0; x < options.width; ++x)
                if (options.start_board->filled(x, y))
                    board.set(x, y);
    return board;
}

PolicyConfig policy_config(const TetrisOptions& options) {
    // A decision told the next pieces searches them all unless --preview
    // says otherwise; holding with an empty hold plays the next piece, so
    // with hold the next piece is always shown.
    const int told = options.next ? int(options.next->size()) : 0;
    int preview = options.preview ? *options.preview : options.board_file && options.piece ? told : 0;
    if (options.hold)
        preview = std::max(preview, 1);
    PolicyConfig config = parse_tetris_policy(options.policy, preview, options.depth);
    config.moves = options.moves;
    config.hold = options.hold;
    config.well_side = options.well;
    config.fallback = options.fallback;
    config.banked = options.banked;
    config.past_ceiling_banked = options.past_ceiling_banked;
    set_policy_weights(config, options.weights);
    if (options.buffer_rows > 0)
        config.visible_rows = options.height;
    if (options.hold && config.printed_seed000)
        throw InputError("--hold is not for --policy seed000-printed (it plays without hold)");
    return config;
}

std::unique_ptr<StackTable> open_well_table(const TetrisOptions& options) {
    if (options.policy != "well") {
        if (options.table_file)
            throw InputError("--table is for --policy well in the real game (the table that judges its stacks)");
        return nullptr;
    }
    if (!options.table_file)
        throw InputError(
            "--policy well needs --table FILE: a table of the tetrominoes one column narrower than the "
            "board (the well beside it)");
    // Resident (when it fits the memory limit): every move looks up
    // hundreds of boards, and a lazy table's locked block reads made 9x12's
    // games 24 times slower.
    auto table = std::make_unique<StackTable>(StackTable::open(*options.table_file));
    const int width = table->geometry().width();
    if (width + 1 != options.width)
        throw InputError("--policy well: the table " + *options.table_file + " is " + std::to_string(width)
                         + " wide, so the board must be " + std::to_string(width + 1) + " wide (got --width "
                         + std::to_string(options.width) + ")");
    return table;
}

GameRecord play_tetris_game(const TetrisOptions& options, const Rules& rules, const ShapeSet& shapes,
                            const TetrisPolicy& policy, const std::vector<int>* file_pieces, std::uint64_t game,
                            int search_threads, const TurnSink& turns) {
    GameRecord record;
    TetrisBoard board = start_board(options);
    GameBoyScore score;
    score.start_level = options.level;
    score.rule = options.scoring;
    PieceStream stream(rules, options.draw, file_pieces, options.seed, game);
    const std::size_t window = std::size_t(policy.config().preview) + 1;
    // The known pieces, in place (a game allocates nothing per piece: under
    // a tight memory limit many threads play at once).
    std::array<int, MostPreview + 1> known_pieces{};
    std::size_t known_count = 0;
    int hold = -1;
    TetrisBoard before = board;  // for `turns`
    std::vector<TetrisChoice> scored;
    const bool well_policy = policy.judge() != nullptr;
    bool in_clean_stretch = false, in_fallback = false, judged = false;
    const auto refill = [&] {
        while (known_count < window)
            if (const std::optional<int> piece = stream.next())
                known_pieces[known_count++] = *piece;
            else
                break;
    };
    for (refill(); known_count > 0 && (options.max_pieces == 0 || record.pieces < options.max_pieces); refill()) {
        if (interrupted()) {
            record.interrupted = true;
            break;
        }
        if (record.entry_blocked_at == 0
            && !board.can_enter(shapes.spawn(known_pieces[0], board.width(), board.height()))) {
            record.entry_blocked_at = record.pieces + 1;
            record.lines_at_entry_block = record.lines;
            if (options.rule == GameOverRule::Entry) {
                record.topped_out = true;
                break;
            }
        }
        scored.clear();
        const Known known{std::span<const int>(known_pieces.data(), known_count), hold};
        const std::optional<TetrisChoice> chosen =
            policy.choose(board, known, search_threads, &record.leaves, turns ? &scored : nullptr);
        if (!chosen) {
            record.topped_out = true;
            break;
        }
        if (turns)
            before = board;
        if (well_policy) {
            if (!chosen->fallback && !in_clean_stretch) {
                ++record.clean_stretches;
                const std::optional<double> predicted = policy.table_value(board);
                judged = predicted.has_value();
                record.judged_stretches += judged;
                record.judged_predicted += predicted.value_or(0);
            }
            if (chosen->fallback) {
                const auto cause = std::size_t(policy.loss_cause(board, known));
                ++record.cause_turns[cause];
                if (cause == std::size_t(LossCause::FallbackOwn))
                    ++record.unjudged_boards[std::size_t(unjudged_state(board, policy.well_column(board)))];
                record.cause_stretches[cause] += !in_fallback;
            }
            record.fallback_stretches += chosen->fallback && !in_fallback;
            record.fallback_turns += chosen->fallback;
            record.banked_turns += chosen->banked;
            record.clean_turns += !chosen->fallback;
            record.judged_turns += !chosen->fallback && judged;
            in_clean_stretch = !chosen->fallback;
            in_fallback = chosen->fallback;
        }
        const TetrisPlacement& placement = chosen->placement;
        const Landing landing = board.place(shapes.shape(placement.shape), placement.x, placement.row);
        score.add(landing.lines, dropped_rows(shapes.shape(placement.shape), board.height(), placement.row));
        record.lines = score.lines;
        record.points = score.points;
        ++record.pieces;
        if (landing.lines >= 4) {
            ++record.tetrises;
            record.tetris_lines += std::uint64_t(landing.lines);
        }
        if (record.first_hole_at == 0 && board.cells() != board.height_sum())
            record.first_hole_at = record.pieces;
        if (record.pieces_to_cap == 0 && record.points >= GameBoyScore::MostPoints) {
            record.pieces_to_cap = record.pieces;
            record.lines_to_cap = record.lines;
        }
        record.holds += chosen->hold;
        record.height_sum += std::uint64_t(board.top());
        record.most_height = std::max(record.most_height, board.top());
        if (turns)
            turns({record.pieces, &before, known, *chosen, placed_piece(known, chosen->hold), &scored, landing.lines,
                   &record});
        const Known rest = after_turn(known, chosen->hold);
        hold = rest.hold;
        const std::size_t used = known_count - rest.queue.size();
        std::copy(known_pieces.begin() + std::ptrdiff_t(used), known_pieces.begin() + std::ptrdiff_t(known_count),
                  known_pieces.begin());
        known_count -= used;
    }
    record.final_height = board.top();
    record.clean_stretches_cut += in_clean_stretch;
    return record;
}

}  // namespace stack::tetris
