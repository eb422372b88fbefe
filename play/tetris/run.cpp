#include "tetris/run.h"

#include "game_random.h"
#include "srs/moves.h"
#include "rules/rules.h"
#include "support/cli.h"
#include "support/errors.h"
#include "interrupt.h"
#include "support/json.h"
#include "support/parallel.h"
#include "tetris/game.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>

#include <sys/stat.h>

namespace stack::tetris {

namespace {

std::string read_small_file(const std::string& path, const char* what) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0 || !S_ISREG(status.st_mode))
        throw InputError(std::string(what) + " " + path + " is not a readable regular file");
    if (status.st_size > (1 << 20))
        throw InputError(std::string(what) + " " + path + " is larger than 1 MB");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in.good() && !in.eof())
        throw InputError(std::string("cannot read ") + what + " " + path);
    return text.str();
}

struct Summary {
    double mean = 0, standard_error = 0;
    std::uint64_t min = 0, max = 0;
};

Summary summarise(const std::vector<GameRecord>& records, std::uint64_t GameRecord::*field) {
    Summary summary;
    if (records.empty())  // interrupted before a game ended
        return summary;
    summary.min = std::numeric_limits<std::uint64_t>::max();
    double sum = 0, squares = 0;
    for (const GameRecord& record : records) {
        const double value = double(record.*field);
        sum += value;
        squares += value * value;
        summary.min = std::min(summary.min, record.*field);
        summary.max = std::max(summary.max, record.*field);
    }
    const double n = double(records.size());
    summary.mean = sum / n;
    const double variance = n > 1 ? std::max(0.0, (squares - sum * sum / n) / (n - 1)) : 0.0;
    summary.standard_error = std::sqrt(variance / n);
    return summary;
}

// null when no game finished (interrupted before the first ended).
Json summary_json(const Summary& summary, bool any) {
    if (!any)
        return Json();
    return Json{
        {"mean", summary.mean}, {"standard_error", summary.standard_error}, {"min", summary.min}, {"max", summary.max}};
}

// Everything a run plays with, built once; the policy holds the shapes by
// reference, so a Setup stays where it was made.
struct Setup {
    explicit Setup(const TetrisOptions& options)
        : set(PieceSet::named_or_file(options.pieces)), rules(set), shapes(set),
          policy(shapes, policy_config(options), draw_probabilities(rules)) {
        for (int p = 0; p < shapes.piece_count(); ++p) {
            bool fits = false;
            for (int s = shapes.first(p); s < shapes.end(p); ++s)
                fits |= shapes.shape(s).width <= options.width && shapes.shape(s).height <= options.height;
            if (!fits)
                throw InputError("piece " + set.pieces()[std::size_t(p)].name + " fits the "
                                 + std::to_string(options.width) + "x" + std::to_string(options.height)
                                 + " well in no rotation");
        }
        if (options.piece_file) {
            if (set.name() != "tetrominoes")
                throw InputError("--piece-file (seed 000's format) plays the tetrominoes only");
            if (options.draw == Draw::Bag)
                throw InputError("give either --piece-file or --draw bag, not both");
            file_pieces = read_seed000_pieces(read_small_file(*options.piece_file, "piece file"));
        }
        if (options.moves == MoveSet::BreadthFirst && options.width < 4)
            throw InputError("--moves bfs needs a well at least 4 wide (SRS)");
        const int preview = policy.config().preview;
        if (!options.board_file && options.max_pieces != 0 && std::uint64_t(preview) >= options.max_pieces)
            throw InputError("--preview " + std::to_string(preview) + " is too deep for --max-pieces "
                             + std::to_string(options.max_pieces) + " (it must be smaller)");
    }
    Setup(const Setup&) = delete;
    static PolicyConfig policy_config(const TetrisOptions& options) {
        // A decision told the next piece uses it (seed 002 knows it).
        const int preview = options.board_file && options.next ? std::max(options.preview, 1) : options.preview;
        PolicyConfig config = parse_tetris_policy(options.policy, preview, options.depth);
        config.moves = options.moves;
        return config;
    }
    std::string letters() const {
        std::string out;
        for (int p = 0; p < shapes.piece_count(); ++p)
            out += shapes.letter(p);
        return out;
    }
    PieceSet set;
    Rules rules;
    ShapeSet shapes;
    TetrisPolicy policy;
    std::optional<std::vector<int>> file_pieces;
};

std::string describe(const TetrisOptions& options, const Setup& setup) {
    const std::string letters = setup.letters();
    return "tetris " + std::to_string(options.width) + "x" + std::to_string(options.height) + ", " + setup.set.name()
           + " (" + letters + "), policy " + policy_name(setup.policy.config()) + ", "
           + (options.moves == MoveSet::HardDrop ? "hard drop" : "SRS breadth-first moves") + ", "
           + (options.piece_file          ? "pieces from " + *options.piece_file
              : options.draw == Draw::Bag ? std::string("bag draws (each piece once a bag)")
                                          : std::string("independent draws"))
           + ", game over: " + (options.rule == GameOverRule::Placement ? "no placement" : "entry (Fahey)");
}

// Games over threads: each thread takes the next game not yet played; the
// main thread reports progress once a second after the first second, and
// wakes when the last game ends (so the games' time is theirs, not a
// polling tick's). After a Ctrl-C the threads stop (a game in progress
// between two pieces) and the games finished are returned, in game order.
std::vector<GameRecord> play_games(const TetrisOptions& options, const Setup& setup, double& seconds, bool& stopped) {
    const int threads = resolve_threads(options.threads);
    const int game_threads = int(std::min<std::uint64_t>(std::uint64_t(threads), options.games));
    const int search_threads = options.games == 1 ? threads : 1;
    std::vector<GameRecord> records(options.games);
    std::vector<char> finished(options.games, 0);
    std::atomic<std::uint64_t> next{0}, done{0};
    std::mutex mutex;
    std::condition_variable all_stopped;
    int running = game_threads;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::exception_ptr> failures(static_cast<std::size_t>(game_threads));
    const InterruptScope interrupt_scope;
    const auto work = [&](int thread) {
        try {
            for (std::uint64_t game; !interrupted() && (game = next++) < options.games;) {
                records[game] =
                    play_tetris_game(options, setup.rules, setup.shapes, setup.policy,
                                     setup.file_pieces ? &*setup.file_pieces : nullptr, game, search_threads);
                finished[game] = !records[game].interrupted;
                ++done;
            }
        } catch (...) {  // rethrown below, once every worker has stopped
            failures[std::size_t(thread)] = std::current_exception();
            next = options.games;
        }
        const std::lock_guard lock(mutex);
        if (--running == 0)
            all_stopped.notify_one();
    };
    // Threads the system refuses (a memory limit) leave the games to those
    // it started, or to this thread when it started none.
    std::vector<std::thread> workers = start_threads(0, game_threads, work);
    if (int(workers.size()) < game_threads)
        std::fprintf(stderr, "stackplay: warning: the system started %zu of %d threads; the games go to %s\n",
                     workers.size(), game_threads, workers.empty() ? "this one" : "those");
    if (workers.empty()) {
        running = 1;
        work(0);
    } else {
        std::unique_lock lock(mutex);
        running -= game_threads - int(workers.size());
        for (auto report = start + std::chrono::seconds(1);
             !all_stopped.wait_until(lock, report, [&] { return running == 0; }); report += std::chrono::seconds(1))
            if (!options.quiet)
                std::fprintf(stderr, "tetris: %s of %s games played, %.0f s\n", with_commas(done).c_str(),
                             with_commas(options.games).c_str(), std::chrono::duration<double>(report - start).count());
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (std::thread& worker : workers)
        worker.join();
    for (const std::exception_ptr& failure : failures)
        if (failure)
            std::rethrow_exception(failure);
    stopped = std::count(finished.begin(), finished.end(), 1) < std::ptrdiff_t(options.games);
    if (stopped) {
        std::vector<GameRecord> kept;
        for (std::uint64_t game = 0; game < options.games; ++game)
            if (finished[game])
                kept.push_back(records[game]);
        records = std::move(kept);
    }
    return records;
}

// The report of the games played: all of them, or after a Ctrl-C
// (`stopped`) the ones finished, marked so, with exit code 130.
int report_games(const TetrisOptions& options, const Setup& setup, const std::vector<GameRecord>& records,
                 double seconds, bool stopped) {
    const int code = stopped ? ExitInterrupted : ExitSuccess;
    std::uint64_t pieces = 0, leaves = 0, topped = 0;
    for (const GameRecord& record : records)
        pieces += record.pieces, leaves += record.leaves, topped += record.topped_out;
    const Summary lines = summarise(records, &GameRecord::lines), placed = summarise(records, &GameRecord::pieces),
                  points = summarise(records, &GameRecord::points);
    const int threads = resolve_threads(options.threads);
    if (options.json) {
        Json per_game = Json::array();
        for (const GameRecord& record : records)
            per_game.push_back({{"lines", record.lines},
                                {"pieces", record.pieces},
                                {"score", record.points},
                                {"topped_out", record.topped_out},
                                {"final_height", record.final_height},
                                {"entry_blocked_at", record.entry_blocked_at},
                                {"lines_at_entry_block", record.lines_at_entry_block}});
        const Json document = {{"game", "tetris"},
                               {"width", options.width},
                               {"height", options.height},
                               {"pieces", setup.set.name()},
                               {"policy", policy_name(setup.policy.config())},
                               {"preview", setup.policy.config().preview},
                               {"expectimax_depth", setup.policy.config().expectimax_depth},
                               {"moves", options.moves == MoveSet::HardDrop ? "harddrop" : "bfs"},
                               {"draw", options.piece_file          ? "file"
                                        : options.draw == Draw::Bag ? "bag"
                                                                    : "independent"},
                               {"game_over", options.rule == GameOverRule::Placement ? "placement" : "entry"},
                               {"games", records.size()},
                               {"max_pieces", options.max_pieces},
                               {"seed", options.seed},
                               {"threads", threads},
                               {"level", options.level},
                               {"observed",
                                {{"lines", summary_json(lines, !records.empty())},
                                 {"pieces", summary_json(placed, !records.empty())},
                                 {"score", summary_json(points, !records.empty())}}},
                               {"topped_out", topped},
                               {"timing",
                                {{"games_seconds", seconds},
                                 {"pieces_per_second", double(pieces) / seconds},
                                 {"leaves", leaves},
                                 {"leaves_per_second", double(leaves) / seconds}}},
                               {"per_game", per_game}};
        Json report = document;
        if (stopped)
            report["interrupted"] = {{"games_asked", options.games}, {"games_finished", records.size()}};
        std::fputs(json_text(report).c_str(), stdout);
        return code;
    }
    std::printf("%s\n", describe(options, setup).c_str());
    std::printf("games %s, seed %llu, threads %d, max pieces %s\n", with_commas(options.games).c_str(),
                (unsigned long long)options.seed, threads,
                options.max_pieces ? with_commas(options.max_pieces).c_str() : "no limit");
    const auto row = [](const char* name, const Summary& s) {
        std::printf("%-7s mean %.2f  standard error %.2f  min %s  max %s\n", name, s.mean, s.standard_error,
                    with_commas(s.min).c_str(), with_commas(s.max).c_str());
    };
    if (!records.empty()) {
        row("lines", lines);
        row("pieces", placed);
        row("score", points);
    }
    std::printf("topped out %s of %s games\n", with_commas(topped).c_str(), with_commas(records.size()).c_str());
    std::printf("games %.3f s, %s pieces/s, %s leaves (%s leaves/s)\n", seconds,
                with_commas(std::uint64_t(double(pieces) / seconds)).c_str(), with_commas(leaves).c_str(),
                with_commas(std::uint64_t(double(leaves) / seconds)).c_str());
    if (stopped)
        std::printf("interrupted: %s of %s games finished\n", with_commas(records.size()).c_str(),
                    with_commas(options.games).c_str());
    return code;
}

moves::Cells srs_cells(const Shape& shape, const TetrisPlacement& placement) {
    moves::Cells cells{};
    std::size_t i = 0;
    shape.for_each_cell(placement.x, placement.row, [&](int x, int y) {
        if (i < cells.size())
            cells[i++] = {x, y};
    });
    std::sort(cells.begin(), cells.end());
    return cells;
}

// The pieces the decision knows: --piece, then --next when given.
std::vector<int> known_pieces(const TetrisOptions& options, const Setup& setup) {
    std::vector<int> known;
    for (const std::optional<std::string>& letter : {options.piece, options.next}) {
        if (!letter)
            continue;
        const int piece = letter->size() == 1 ? setup.shapes.piece_of_letter((*letter)[0]) : -1;
        if (piece < 0)
            throw InputError("unknown piece letter '" + printable(*letter) + "' (the set's letters are "
                             + setup.letters() + ")");
        known.push_back(piece);
    }
    return known;
}

// The shortest SRS input sequence to the placement: the tetrominoes on a
// well at least 4 wide (moves.h) only; empty when SRS cannot reach it.
std::optional<std::string> srs_inputs(const Setup& setup, const TetrisBoard& board, const TetrisPlacement& placement) {
    if (setup.set.name() != "tetrominoes" || board.width() < 4)
        return std::nullopt;
    const Shape& shape = setup.shapes.shape(placement.shape);
    return moves::shortest_inputs(srs_board(board), static_cast<Piece>(shape.piece), srs_cells(shape, placement))
        .value_or(std::string());
}

int decide(const TetrisOptions& options, const Setup& setup) {
    const TetrisBoard board =
        TetrisBoard::from_text(read_small_file(*options.board_file, "board file"), options.width, options.height);
    const std::vector<int> known = known_pieces(options, setup);
    const char letter = setup.shapes.letter(known[0]);
    std::vector<std::pair<TetrisPlacement, double>> scored;
    std::uint64_t leaves = 0;
    const bool enters = options.rule == GameOverRule::Placement
                        || board.can_enter(setup.shapes.spawn(known[0], board.width(), board.height()));
    const std::optional<TetrisPlacement> best =
        enters ? setup.policy.choose(board, known, resolve_threads(options.threads), &leaves, &scored) : std::nullopt;
    Json document = {{"board", *options.board_file},
                     {"width", options.width},
                     {"height", options.height},
                     {"piece", std::string(1, letter)},
                     {"next", known.size() > 1 ? Json(std::string(1, setup.shapes.letter(known[1]))) : Json()},
                     {"policy", policy_name(setup.policy.config())},
                     {"pieces_searched", known.size()},
                     {"placements", scored.size()},
                     {"leaves", leaves}};
    if (!best) {
        document["best"] = nullptr;
        document["game_over"] = enters ? "no placement fits" : "the piece cannot enter";
        if (options.json)
            std::fputs(json_text(document).c_str(), stdout);
        else if (enters)
            std::printf("no placement of %c fits: the game is over\n", letter);
        else
            std::printf("%c cannot enter at its spawn: the game is over (--game-over entry)\n", letter);
        return ExitSuccess;
    }
    const Shape& shape = setup.shapes.shape(best->shape);
    TetrisBoard after = board;
    const Landing landing = after.place(shape, best->x, best->row);
    double score = 0;
    for (const auto& [placement, value] : scored)
        if (placement == *best)
            score = value;
    const bool lost = score <= Lost;  // a later known piece fits after no placement
    const std::optional<std::string> inputs = srs_inputs(setup, board, *best);
    document["best"] = {{"shape", best->shape - setup.shapes.first(shape.piece)},
                        {"column", best->x},
                        {"row", best->row},
                        {"lines", landing.lines},
                        {"score", lost ? Json() : Json(score)},
                        {"lost", lost},
                        {"inputs", inputs ? Json(*inputs) : Json()}};
    if (options.json) {
        std::fputs(json_text(document).c_str(), stdout);
        return ExitSuccess;
    }
    std::printf("board %s: %dx%d, %d cells; piece %c%s; policy %s, %zu piece%s searched; %zu placements, %s leaves\n",
                options.board_file->c_str(), options.width, options.height, board.cells(), letter,
                known.size() > 1 ? (std::string(", next ") + setup.shapes.letter(known[1])).c_str() : "",
                policy_name(setup.policy.config()).c_str(), known.size(), known.size() > 1 ? "s" : "", scored.size(),
                with_commas(leaves).c_str());
    if (lost)
        std::printf(
            "best: shape %d at column %d, row %d; clears %d rows; lost: the next piece fits after no "
            "placement\n",
            best->shape - setup.shapes.first(shape.piece), best->x, best->row, landing.lines);
    else
        std::printf("best: shape %d at column %d, row %d; clears %d rows; score %.6f\n",
                    best->shape - setup.shapes.first(shape.piece), best->x, best->row, landing.lines, score);
    std::printf("inputs: %s\n", !inputs           ? "(SRS inputs are for the tetrominoes on a well at least 4 wide)"
                                : inputs->empty() ? "(not reachable by SRS from spawn)"
                                                  : inputs->c_str());
    std::fputs(placement_frame(setup.shapes, board, *best, 1).c_str(), stdout);
    return ExitSuccess;
}

void check_options(const TetrisOptions& options) {
    if (options.width < 2 || options.width > MostWidth)
        throw InputError("--width must be 2 to " + std::to_string(MostWidth) + " for --game tetris");
    if (options.height < 2 || options.height > MostHeight)
        throw InputError("--height must be 2 to " + std::to_string(MostHeight) + " for --game tetris");
    if (options.board_file && !options.piece)
        throw InputError("--board needs --piece (and optionally --next)");
    if (!options.board_file && (options.piece || options.next))
        throw InputError("--piece and --next go with --board FILE");
    if (options.board_file && options.show)
        throw InputError("give either --board or --show, not both");
}

}  // namespace

int run_tetris(const TetrisOptions& options) {
    check_options(options);
    const Setup setup(options);
    if (options.board_file)
        return decide(options, setup);
    if (options.show) {
        std::printf("%s\ngame 0 of seed %llu\n", describe(options, setup).c_str(), (unsigned long long)options.seed);
        const GameRecord record = play_tetris_game(
            options, setup.rules, setup.shapes, setup.policy, setup.file_pieces ? &*setup.file_pieces : nullptr, 0,
            resolve_threads(options.threads),
            [&](const TetrisTurn& turn) { std::fputs(turn_frame(setup.shapes, turn).c_str(), stdout); });
        std::printf("%s after %s pieces: %s lines, %s points\n", record.topped_out ? "topped out" : "stopped",
                    with_commas(record.pieces).c_str(), with_commas(record.lines).c_str(),
                    with_commas(record.points).c_str());
        return ExitSuccess;
    }
    double seconds = 0;
    bool stopped = false;
    const std::vector<GameRecord> records = play_games(options, setup, seconds, stopped);
    return report_games(options, setup, records, seconds, stopped);
}

}  // namespace stack::tetris
