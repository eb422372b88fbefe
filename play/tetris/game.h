// One real game (tetris/tetris_board.h) played by a policy (search.h): its
// options, the stream of its pieces, its turns and their frames. tetris_run.h
// plays many of them, shows one or makes one decision.
//
// Game g of seed s draws its pieces from GameRandom(s, g) (play/
// game_random.h): independently with the set's weights, or from a 7-bag
// (each piece once per bag, in a shuffled order); or the pieces come from
// a file in seed 000's format (0-6 for I O S Z T J L, separated by spaces),
// the same for every game. The policy sees the current piece and the next
// `preview` ones, and with --hold may hold (search.h). A game starts on an
// empty well or on a board read from a file (--board FILE). A game ends
// when it tops out (GameOverRule), when the
// piece file runs out, or after --max-pieces pieces. Games are spread over
// threads, each played whole by one thread; with fewer games than threads
// a game's search is split over first placements instead. Either way the
// games are the same for any thread count.
#pragma once

#include "rules/rules.h"
#include "tetris/tetris_board.h"
#include "tetris/search.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace stack::tetris {

enum class Draw : std::uint8_t { Independent, Bag };

// --show without --max-pieces draws at most this many pieces.
constexpr std::uint64_t ShowMostPieces = 1000;

struct TetrisOptions {
    int width = 10, height = 20;
    std::string pieces = "tetrominoes";
    std::string policy = "dellacherie";
    std::optional<int> preview;  // --preview; unset: 0, or in a decision every piece it is told
    int depth = 0;               // expectimax
    MoveSet moves = MoveSet::HardDrop;
    Draw draw = Draw::Independent;
    std::optional<std::string> piece_file;  // seed 000's format
    GameOverRule rule = GameOverRule::Placement;
    std::uint64_t games = 10;
    std::uint64_t max_pieces = 1000000;  // 0: no limit
    bool show_capped = false;            // --show without --max-pieces: max_pieces is ShowMostPieces
    std::uint64_t seed = 1;
    int threads = 0;
    int level = 0;  // Game Boy starting level
    ScoringRule scoring = ScoringRule::Simple;
    std::vector<double> weights;  // the policy's feature weights (empty: its own; search.h)
    // --policy well: its table (--table), the well's side and the fallback.
    std::optional<std::string> table_file;
    WellSide well = WellSide::Left;
    Evaluation fallback = Evaluation::ElTetris;
    bool banked = false;
    bool past_ceiling_banked = true;  // PolicyConfig's
    bool yes = false;                 // run a --preview projected past a minute per move
    bool hold = false;
    // Seed 000's buffer rows: the board has this many rows above the well,
    // and a placement needs a cell in the well.
    int buffer_rows = 0;
    std::optional<TetrisBoard> start_board;  // games start here (--board FILE), else on an empty well
    bool show = false;
    bool json = false;
    bool quiet = false;  // no progress lines
    // A board file ("-": standard input): the games' start, or with --piece
    // the decision mode's board, with the current piece, the next ones
    // (letters, in order) and the held piece.
    std::optional<std::string> board_file;
    std::optional<std::string> piece, next, held;
    int alternatives = 8;  // the decision's ranked first choices shown
};

struct GameRecord {
    std::uint64_t pieces = 0, lines = 0, points = 0;
    std::uint64_t leaves = 0;      // leaves the policy scored
    std::uint64_t holds = 0;       // turns that held first
    int final_height = 0;          // the highest column when the game ended
    int most_height = 0;           // the highest column after any placement
    std::uint64_t height_sum = 0;  // the highest column after each placement, summed (mean: / pieces)
    // The first piece that could not enter at its spawn (Fahey's rule), 0
    // if none, and the lines by then: under the default rule a game goes on
    // past it, and the entry rule's game of the same seed ends there.
    std::uint64_t entry_blocked_at = 0, lines_at_entry_block = 0;
    bool topped_out = false;
    bool interrupted = false;  // stopped by Ctrl-C (support/interrupt.h) before it ended
    // Scoring (issue 40): clears of 4 rows and the rows they cleared; the
    // piece after which the board first had a hole (0: never); the piece
    // and the rows by which the points first reached 999,999 (the Game
    // Boy's counter; 0: never).
    std::uint64_t tetrises = 0, tetris_lines = 0;
    std::uint64_t first_hole_at = 0;
    std::uint64_t pieces_to_cap = 0, lines_to_cap = 0;
    // The well policy's: turns its fallback played, and the stretches of
    // them; its clean stretches (turns it played itself, in a row), their
    // turns summed, and those the game's end cut short; of the stretches
    // whose first board the table judges, the count, the table's values of
    // those boards summed and their turns summed.
    std::uint64_t fallback_turns = 0, fallback_stretches = 0;
    // Of the turns the well policy played itself, those past the table's
    // ceiling, judged by the contour above the banked rows (search.h).
    std::uint64_t banked_turns = 0;
    std::uint64_t clean_stretches = 0, clean_turns = 0, clean_stretches_cut = 0;
    std::uint64_t judged_stretches = 0, judged_turns = 0;
    double judged_predicted = 0;
    // The fallback's turns and stretches by the cause of the loss of
    // control (LossCause, well.h): a turn by its own cause, a stretch by
    // its first turn's.
    std::array<std::uint64_t, LossCauseCount> cause_turns{}, cause_stretches{};
    // The fallback's own turns (LossCause::FallbackOwn) by the board they
    // began on (Unjudged, well.h).
    std::array<std::uint64_t, UnjudgedCount> unjudged_boards{};
};

// Reads seed 000's piece file (0-6, whitespace between) as set indices of
// the tetrominoes; throws InputError naming a bad number.
std::vector<int> read_seed000_pieces(const std::string& text);

// The draw probability of each of the set's pieces (its weights).
std::vector<double> draw_probabilities(const Rules& rules);

// One turn of a game as it was played, for the viewers: the board before
// the piece, the pieces known, the choice and every first choice the
// policy scored (the choice among them), what it cleared and the game's
// totals after it.
struct TetrisTurn {
    std::uint64_t number = 0;  // 1-based
    const TetrisBoard* before = nullptr;
    Known known;  // known.queue[0] is the current piece
    TetrisChoice chosen{};
    int piece = 0;  // the piece placed: the current one, or the one the hold gave
    const std::vector<TetrisChoice>* scored = nullptr;
    int lines_cleared = 0;
    const GameRecord* record = nullptr;  // after the turn
};
using TurnSink = std::function<void(const TetrisTurn&)>;

// The board a game starts on: the options' start board, or an empty well
// (with the buffer rows above it either way).
TetrisBoard start_board(const TetrisOptions& options);

// The policy's configuration for the options: policy, preview, depth,
// moves, hold and buffer rows; throws InputError.
PolicyConfig policy_config(const TetrisOptions& options);

// The board with a placed piece drawn by its letter, before its full rows
// clear, headed by the piece's number.
std::string placement_frame(const ShapeSet& shapes, const TetrisBoard& board, const TetrisPlacement& placement,
                            std::uint64_t number);

// The text frame of a turn (--show): the board with the piece drawn by its
// letter before its full rows clear, then a line of what it cleared.
std::string turn_frame(const ShapeSet& shapes, const TetrisTurn& turn);

// The table of --policy well (--table), opened and checked: one column
// narrower than the board, of the tetrominoes. Nothing for the other
// policies; throws InputError when they are given --table, or the well
// policy is not.
std::unique_ptr<StackTable> open_well_table(const TetrisOptions& options);

// One game: game `game` of the options' seed. `turns`, when given, sees
// every turn.
GameRecord play_tetris_game(const TetrisOptions& options, const Rules& rules, const ShapeSet& shapes,
                            const TetrisPolicy& policy, const std::vector<int>* file_pieces, std::uint64_t game,
                            int search_threads, const TurnSink& turns = {});

}  // namespace stack::tetris
