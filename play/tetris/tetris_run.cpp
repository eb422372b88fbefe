#include "tetris/tetris_run.h"

#include "game_random.h"
#include "srs/moves.h"
#include "rules/rules.h"
#include "support/cli.h"
#include "support/errors.h"
#include "support/interrupt.h"
#include "support/json.h"
#include "support/parallel.h"
#include "table/stack_table.h"
#include "tetris/decision.h"
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

// A count as the projection prints it: with commas, or past 10^15 in
// scientific notation.
// Everything a run plays with, built once; the policy holds the shapes by
// reference, so a Setup stays where it was made.
struct Setup {
    explicit Setup(const TetrisOptions& options)
        : set(PieceSet::named_or_file(options.pieces)), rules(set), shapes(set), table(open_well_table(options)),
          policy(shapes, policy_config(options), draw_probabilities(rules), table.get()) {
        if (const int p = shapes.piece_fitting_nowhere(options.width, options.height); p >= 0)
            throw InputError("piece " + set.pieces()[std::size_t(p)].name + " fits the " + std::to_string(options.width)
                             + "x" + std::to_string(options.height) + " well in no rotation");
        if (options.piece_file) {
            if (set.name() != "tetrominoes")
                throw InputError("--piece-file (digits 0-6) plays the tetrominoes only");
            if (options.draw == Draw::Bag)
                throw InputError("give either --piece-file or --draw bag, not both");
            file_pieces = read_seed000_pieces(read_small_file(*options.piece_file, "piece file"));
        }
        if (options.moves == MoveSet::BreadthFirst && options.width < 4)
            throw InputError("--moves bfs needs a well at least 4 wide (SRS)");
        const int preview = policy.config().preview;
        if (!options.piece && options.max_pieces != 0 && std::uint64_t(preview) >= options.max_pieces)
            throw InputError("--preview " + std::to_string(preview) + " is too deep for --max-pieces "
                             + std::to_string(options.max_pieces) + " (it must be smaller)");
        check_search_time(options, shapes, policy.config());
    }
    Setup(const Setup&) = delete;
    std::string letters() const {
        std::string out;
        for (int p = 0; p < shapes.piece_count(); ++p)
            out += shapes.letter(p);
        return out;
    }
    PieceSet set;
    Rules rules;
    ShapeSet shapes;
    std::unique_ptr<StackTable> table;  // --policy well's
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
           + ", game over: " + (options.rule == GameOverRule::Placement ? "no placement" : "entry (Fahey)")
           + ", scoring " + (options.scoring == ScoringRule::GameBoy ? "gameboy" : "simple")
           + (options.buffer_rows > 0 ? ", " + std::to_string(options.buffer_rows) + " buffer rows" : std::string())
           + (options.board_file && !options.piece ? ", from board " + *options.board_file : std::string());
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

// The figures of scoring for a well (issue 40), over the games played.
struct ScoreFigures {
    std::uint64_t lines = 0, points = 0, tetrises = 0, tetris_lines = 0;
    // Points per line counts each game up to the Game Boy's cap (its points
    // and lines then), as the counter stops there: the points and lines of
    // that count.
    std::uint64_t counted_points = 0, counted_lines = 0;
    std::uint64_t games_with_hole = 0, pieces_before_hole = 0;  // over the games that made one
    std::uint64_t games_to_cap = 0, pieces_to_cap = 0, lines_to_cap = 0;
    std::uint64_t fallback_turns = 0, fallback_stretches = 0, pieces = 0, banked_turns = 0;
    std::uint64_t clean_stretches = 0, clean_turns = 0, clean_stretches_cut = 0;
    std::uint64_t judged_stretches = 0, judged_turns = 0;
    double judged_predicted = 0;
    std::array<std::uint64_t, LossCauseCount> cause_turns{}, cause_stretches{};
    std::array<std::uint64_t, UnjudgedCount> unjudged_boards{};
};

ScoreFigures score_figures(const std::vector<GameRecord>& records, ScoringRule rule) {
    ScoreFigures f;
    for (const GameRecord& r : records) {
        f.lines += r.lines, f.points += r.points, f.pieces += r.pieces;
        const bool capped = rule == ScoringRule::GameBoy && r.pieces_to_cap;
        f.counted_points += capped ? GameBoyScore::MostPoints : r.points;
        f.counted_lines += capped ? r.lines_to_cap : r.lines;
        f.tetrises += r.tetrises, f.tetris_lines += r.tetris_lines;
        if (r.first_hole_at)
            ++f.games_with_hole, f.pieces_before_hole += r.first_hole_at - 1;
        if (r.pieces_to_cap)
            ++f.games_to_cap, f.pieces_to_cap += r.pieces_to_cap, f.lines_to_cap += r.lines_to_cap;
        f.fallback_turns += r.fallback_turns, f.fallback_stretches += r.fallback_stretches;
        f.banked_turns += r.banked_turns;
        f.clean_stretches += r.clean_stretches, f.clean_turns += r.clean_turns;
        f.clean_stretches_cut += r.clean_stretches_cut;
        f.judged_stretches += r.judged_stretches, f.judged_turns += r.judged_turns;
        f.judged_predicted += r.judged_predicted;
        for (std::size_t c = 0; c < f.cause_turns.size(); ++c)
            f.cause_turns[c] += r.cause_turns[c], f.cause_stretches[c] += r.cause_stretches[c];
        for (std::size_t u = 0; u < f.unjudged_boards.size(); ++u)
            f.unjudged_boards[u] += r.unjudged_boards[u];
    }
    return f;
}

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

// Null where no game had the event.
Json mean_or_null(std::uint64_t sum, std::uint64_t count) { return count ? Json(double(sum) / double(count)) : Json(); }

Json figures_json(const ScoreFigures& f, bool well) {
    Json out = {
        {"tetrises", f.tetrises},
        {"tetris_lines", f.tetris_lines},
        {"tetris_rate", ratio(double(f.tetris_lines), double(f.lines))},
        {"points_per_line", ratio(double(f.counted_points), double(f.counted_lines))},
        {"first_hole",
         {{"games", f.games_with_hole}, {"mean_pieces_before", mean_or_null(f.pieces_before_hole, f.games_with_hole)}}},
        {"cap_999999",
         {{"games", f.games_to_cap},
          {"mean_pieces", mean_or_null(f.pieces_to_cap, f.games_to_cap)},
          {"mean_lines", mean_or_null(f.lines_to_cap, f.games_to_cap)}}}};
    if (well) {
        Json losses = Json::object();
        for (int c = 0; c < LossCauseCount; ++c)
            losses[loss_cause_key(LossCause(c))] = {{"stretches", f.cause_stretches[std::size_t(c)]},
                                                    {"turns", f.cause_turns[std::size_t(c)]}};
        Json boards = Json::object();
        for (int u = 0; u < UnjudgedCount; ++u)
            boards[unjudged_key(Unjudged(u))] = f.unjudged_boards[std::size_t(u)];
        out["well"] = {{"fallback_turns", f.fallback_turns},
                       {"fallback_share", ratio(double(f.fallback_turns), double(f.pieces))},
                       {"fallback_stretches", f.fallback_stretches},
                       {"banked_turns", f.banked_turns},
                       {"banked_share", ratio(double(f.banked_turns), double(f.pieces))},
                       {"clean_stretches", f.clean_stretches},
                       {"clean_stretches_cut_by_game_end", f.clean_stretches_cut},
                       {"clean_mean_turns", ratio(double(f.clean_turns), double(f.clean_stretches))},
                       {"judged_stretches", f.judged_stretches},
                       {"judged_mean_turns", ratio(double(f.judged_turns), double(f.judged_stretches))},
                       {"judged_mean_predicted", ratio(f.judged_predicted, double(f.judged_stretches))},
                       {"losses", losses},
                       {"fallback_own_boards", boards}};
    }
    return out;
}

void print_figures(const ScoreFigures& f, bool well) {
    std::printf(
        "tetrises %s (%.1f%% of lines), %.1f points a line; first hole in %s games (mean %.1f pieces before "
        "it); 999,999 reached in %s games",
        with_commas(f.tetrises).c_str(), 100 * ratio(double(f.tetris_lines), double(f.lines)),
        ratio(double(f.counted_points), double(f.counted_lines)), with_commas(f.games_with_hole).c_str(),
        ratio(double(f.pieces_before_hole), double(f.games_with_hole)), with_commas(f.games_to_cap).c_str());
    if (f.games_to_cap)
        std::printf(" (mean %.0f pieces, %.0f lines)", ratio(double(f.pieces_to_cap), double(f.games_to_cap)),
                    ratio(double(f.lines_to_cap), double(f.games_to_cap)));
    std::printf("\n");
    if (well)
        std::printf(
            "well: fallback played %s turns (%.2f%%) in %s stretches; past the table's ceiling the banked contour "
            "judged %s turns (%.2f%%); %s clean stretches, mean %.1f turns "
            "(%s cut by the game's end); of those the table judged at their start (%s), the table's mean "
            "prediction %.2f pieces, observed %.1f\n",
            with_commas(f.fallback_turns).c_str(), 100 * ratio(double(f.fallback_turns), double(f.pieces)),
            with_commas(f.fallback_stretches).c_str(), with_commas(f.banked_turns).c_str(),
            100 * ratio(double(f.banked_turns), double(f.pieces)), with_commas(f.clean_stretches).c_str(),
            ratio(double(f.clean_turns), double(f.clean_stretches)), with_commas(f.clean_stretches_cut).c_str(),
            with_commas(f.judged_stretches).c_str(), ratio(f.judged_predicted, double(f.judged_stretches)),
            ratio(double(f.judged_turns), double(f.judged_stretches)));
    if (well) {
        std::printf("well: losses of control by cause (stretches, turns):");
        for (int c = 0; c < LossCauseCount; ++c)
            std::printf("%s %s %s, %s", c ? ";" : "", loss_cause_key(LossCause(c)),
                        with_commas(f.cause_stretches[std::size_t(c)]).c_str(),
                        with_commas(f.cause_turns[std::size_t(c)]).c_str());
        std::printf("\nwell: the fallback's own turns began on boards:");
        for (int u = 0; u < UnjudgedCount; ++u)
            std::printf("%s %s %s", u ? "," : "", unjudged_key(Unjudged(u)),
                        with_commas(f.unjudged_boards[std::size_t(u)]).c_str());
        std::printf("\n");
    }
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
    const ScoreFigures figures = score_figures(records, options.scoring);
    const int threads = resolve_threads(options.threads);
    if (options.json) {
        const Json document = {{"game", "tetris"},
                               {"width", options.width},
                               {"height", options.height},
                               {"pieces", setup.set.name()},
                               {"policy", policy_name(setup.policy.config())},
                               {"weights", policy_weights(setup.policy.config())},
                               {"preview", setup.policy.config().preview},
                               {"expectimax_depth", setup.policy.config().expectimax_depth},
                               {"hold", options.hold},
                               {"buffer_rows", options.buffer_rows},
                               {"start_board", options.board_file ? Json(*options.board_file) : Json()},
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
                               {"scoring", options.scoring == ScoringRule::GameBoy ? "gameboy" : "simple"},
                               {"observed",
                                {{"lines", summary_json(lines, !records.empty())},
                                 {"pieces", summary_json(placed, !records.empty())},
                                 {"score", summary_json(points, !records.empty())}}},
                               {"topped_out", topped},
                               {"scoring_figures", figures_json(figures, setup.policy.judge() != nullptr)},
                               {"timing",
                                {{"games_seconds", seconds},
                                 {"pieces_per_second", double(pieces) / seconds},
                                 {"leaves", leaves},
                                 {"leaves_per_second", double(leaves) / seconds}}}};
        Json report = document;
        if (stopped)
            report["interrupted"] = {{"games_asked", options.games}, {"games_finished", records.size()}};
        // The games one at a time after the rest (a million games' tree
        // took 1.17 GB): the document without its closing brace, then
        // "per_game".
        std::string head = json_text(report);
        head.resize(head.size() - 2);  // "}\n"
        std::fputs(head.c_str(), stdout);
        std::fputs(",\"per_game\":[", stdout);
        bool first = true;
        for (const GameRecord& record : records) {
            const Json game = {{"lines", record.lines},
                               {"pieces", record.pieces},
                               {"score", record.points},
                               {"topped_out", record.topped_out},
                               {"final_height", record.final_height},
                               {"mean_height", record.pieces ? double(record.height_sum) / double(record.pieces) : 0.0},
                               {"most_height", record.most_height},
                               {"holds", record.holds},
                               {"entry_blocked_at", record.entry_blocked_at},
                               {"lines_at_entry_block", record.lines_at_entry_block},
                               {"tetrises", record.tetrises},
                               {"tetris_lines", record.tetris_lines},
                               {"first_hole_at", record.first_hole_at},
                               {"pieces_to_cap", record.pieces_to_cap},
                               {"lines_to_cap", record.lines_to_cap},
                               {"fallback_turns", record.fallback_turns},
                               {"fallback_stretches", record.fallback_stretches},
                               {"banked_turns", record.banked_turns}};
            std::string text = json_text(game);
            text.pop_back();
            if (!first)
                std::fputc(',', stdout);
            std::fputs(text.c_str(), stdout);
            first = false;
        }
        std::fputs("]}\n", stdout);
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
    print_figures(figures, setup.policy.judge() != nullptr);
    std::printf("games %.3f s, %s pieces/s, %s leaves (%s leaves/s)\n", seconds,
                with_commas(std::uint64_t(double(pieces) / seconds)).c_str(), with_commas(leaves).c_str(),
                with_commas(std::uint64_t(double(leaves) / seconds)).c_str());
    if (stopped)
        std::printf("interrupted: %s of %s games finished\n", with_commas(records.size()).c_str(),
                    with_commas(options.games).c_str());
    return code;
}

// A piece of the set by its letter; throws InputError naming the option.
int piece_by_letter(const Setup& setup, char letter, const char* option) {
    const int piece = setup.shapes.piece_of_letter(letter);
    if (piece < 0)
        throw InputError(std::string("unknown piece letter '") + printable(std::string(1, letter)) + "' in --" + option
                         + " (the set's letters are " + setup.letters() + ")");
    return piece;
}

// The pieces the decision knows: --piece, then each letter of --next; and
// the held piece (--hold X).
std::vector<int> known_queue(const TetrisOptions& options, const Setup& setup) {
    if (options.piece->size() != 1)
        throw InputError("--piece takes one letter (got '" + printable(*options.piece) + "')");
    std::vector<int> queue = {piece_by_letter(setup, (*options.piece)[0], "piece")};
    if (options.next)
        for (const char letter : *options.next)
            queue.push_back(piece_by_letter(setup, letter, "next"));
    return queue;
}

int held_piece(const TetrisOptions& options, const Setup& setup) {
    if (!options.held || options.held->empty())
        return -1;
    if (options.held->size() != 1)
        throw InputError("--hold takes one letter, the held piece (got '" + printable(*options.held) + "')");
    return piece_by_letter(setup, (*options.held)[0], "hold");
}

int decide(const TetrisOptions& options, const Setup& setup) {
    const TetrisBoard& board = *options.start_board;
    const std::vector<int> queue = known_queue(options, setup);
    const Known known{queue, held_piece(options, setup)};
    const Decision decision =
        tetris::decide(setup.policy, board, known, options.rule, resolve_threads(options.threads));
    Json document = decision_json(setup.shapes, setup.policy, board, known, decision, options.alternatives);
    if (options.json) {
        Json report = {{"board", *options.board_file}};
        report.update(document);
        std::fputs(json_text(report).c_str(), stdout);
        return ExitSuccess;
    }
    const char letter = setup.shapes.letter(queue[0]);
    std::string pieces = std::string("piece ") + letter;
    if (options.next)
        pieces += ", next " + *options.next;
    if (known.hold >= 0)
        pieces += std::string(", hold ") + setup.shapes.letter(known.hold);
    std::printf("board %s: %dx%d, %d cells; %s; policy %s, %zu piece%s searched; %zu placements, %s leaves\n",
                options.board_file->c_str(), board.width(), board.height(), board.cells(), pieces.c_str(),
                policy_name(setup.policy.config()).c_str(), std::size_t(document["pieces_searched"]),
                document["pieces_searched"] == 1 ? "" : "s", decision.ranked.size(),
                with_commas(decision.leaves).c_str());
    if (!decision.choice) {
        if (decision.enters)
            std::printf("no placement of %c fits: the game is over\n", letter);
        else
            std::printf("%c cannot enter at its spawn: the game is over (--game-over entry)\n", letter);
        return ExitSuccess;
    }
    const Json& best = document["best"];
    const std::string held = decision.choice->hold ? std::string("hold, then ") + std::string(best["piece"]) + " " : "";
    std::printf("best: %sshape %d at column %d, row %d; clears %d rows; ", held.c_str(), int(best["shape"]),
                int(best["column"]), int(best["row"]), int(best["lines"]));
    if (best["lost"])
        std::printf("lost: a later known piece fits after no placement\n");
    else
        std::printf("score %.6f\n", double(best["score"]));
    std::printf("inputs: %s\n", best["srs"].is_null()
                                    ? (setup.set.name() != "tetrominoes" || board.width() < 4
                                           ? "(SRS inputs are for the tetrominoes on a well at least 4 wide)"
                                           : "(not reachable by SRS from spawn)")
                                    : std::string(best["inputs"]).c_str());
    std::fputs(placement_frame(setup.shapes, board, decision.choice->placement, 1).c_str(), stdout);
    for (std::size_t i = 1; i < document["plan"].size(); ++i) {
        const Json& step = document["plan"][i];
        std::printf("then %s%s: shape %d at column %d, row %d\n", step["hold"] ? "hold, " : "",
                    std::string(step["piece"]).c_str(), int(step["shape"]), int(step["column"]), int(step["row"]));
    }
    return ExitSuccess;
}

void check_options(const TetrisOptions& options) {
    if (options.width < 2 || options.width > MostWidth)
        throw InputError("--width must be 2 to " + std::to_string(MostWidth) + " for --game tetris");
    if (options.height < 2 || options.height > MostHeight)
        throw InputError("--height must be 2 to " + std::to_string(MostHeight) + " for --game tetris");
    if (!options.piece && (options.next || (options.held && !options.held->empty())))
        throw InputError("--next and --hold PIECE are for a decision: give --board FILE --piece X");
    if (options.piece && !options.board_file)
        throw InputError("--piece goes with --board FILE (the board to decide on)");
    if (options.piece && options.show)
        throw InputError("give either --piece (one decision) or --show (one game), not both");
    if (options.show && options.max_pieces == 0)
        throw InputError("--show draws every piece: give --max-pieces N of at least 1 (0, no limit, is for games)");
}

// The board file's text: the file, or with "-" standard input (at most 1 MB
// either way).
std::string board_text(const std::string& path) {
    if (path != "-")
        return read_small_file(path, "board file");
    std::string text;
    char buffer[4096];
    while (std::size_t got = std::fread(buffer, 1, sizeof buffer, stdin)) {
        text.append(buffer, got);
        if (text.size() > (1 << 20))
            throw InputError("the board on standard input is larger than 1 MB");
    }
    if (std::ferror(stdin))
        throw InputError("cannot read the board from standard input");
    return text;
}

}  // namespace

namespace {

std::string projected(double value) {
    if (value < 1e15)
        return with_commas(std::uint64_t(std::llround(value)));
    char text[32];
    std::snprintf(text, sizeof text, "%.1e", value);
    return text;
}

// A guard against searches that would not end: the leaves one move scores
// (projected_leaves, search.h) at a conservative 5 million leaves a second
// (one search thread scored 3.7 to 9.7 million a second at --preview 3 on
// 10x20, seed001 the slowest and lee the fastest). Past a minute a move,
// the run needs --yes. A decision searches the pieces it is told.
}  // namespace

void check_search_time(const TetrisOptions& options, const ShapeSet& shapes, const PolicyConfig& config) {
    constexpr double LeavesPerSecond = 5e6, MostSeconds = 60;
    const std::size_t known =
        options.piece ? 1 + (options.next ? options.next->size() : 0) : std::numeric_limits<std::size_t>::max();
    const double leaves = projected_leaves(shapes, options.width, options.height, config, known);
    const double seconds = leaves / LeavesPerSecond;
    if (seconds > MostSeconds && !options.yes)
        throw InputError("--preview " + std::to_string(config.preview)
                         + (options.depth > 0 ? " --depth " + std::to_string(options.depth) : std::string())
                         + " projects about " + projected(seconds) + " s per move (" + projected(leaves)
                         + " leaves); give --yes to run it anyway");
}

int run_tetris(const TetrisOptions& given) {
    check_options(given);
    TetrisOptions options = given;
    if (options.board_file)
        options.start_board = TetrisBoard::from_text(board_text(*options.board_file), options.width, options.height);
    const Setup setup(options);
    if (options.piece)
        return decide(options, setup);
    if (options.show) {
        if (options.show_capped)
            std::fprintf(stderr, "stackplay: --show: drawing at most %s pieces; give --max-pieces N to change it\n",
                         with_commas(options.max_pieces).c_str());
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
