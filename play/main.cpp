// stackplay: parse the options, call the mode's library entry (run_stackplay,
// run_tetris, run_bot, serve), report errors.
#include "support/cli.h"
#include "support/errors.h"
#include "support/limits.h"
#include "stacking/stacking_run.h"
#include "tetris/bot_protocol.h"
#include "tetris/tetris_run.h"
#include "web/server.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace po = boost::program_options;

namespace {

// --threads's help, its bound from support/limits.h as stackgen's says it.
const std::string ThreadsHelp =
    "threads (0: the cores this process is bound to), at most " + std::to_string(stack::MostThreads);

}  // namespace

namespace {

po::options_description described_options() {
    po::options_description described = stack::tool_options(
        "Usage: stackplay [--table FILE] [options]\n"
        "       stackplay --game tetris [--policy P] [--preview N] [options]   (the real game)\n"
        "       stackplay --game tetris --board FILE --piece T [--next SZO] [--hold [L]]  (one decision)\n"
        "       stackplay --bot tbp [--hold] [--policy P] [--preview N]       (the Tetris Bot Protocol on stdin/stdout)\n"
        "       stackplay --serve [--port 8080] [--bind 127.0.0.1] [--table FILE]  (the web viewer)");
    described.add_options()("game", po::value<std::string>()->default_value("stacking"),
                            "stacking (the hole-free game of the table) or tetris (the real game: holes, line clears)")(
        "table", po::value<std::string>(),
        "table written by stackgen (default: the one stack_*.h5 in the current directory)")(
        "runs", po::value<std::string>()->default_value("100000"), "games to play (>= 1)")(
        "policy", po::value<std::string>()->default_value("table"),
        "stacking: table, random, heuristic, seed001 (its objective, the next piece known) or \"lookahead N\" "
        "(N = 1..4 next pieces known); tetris: dellacherie (its default), lee, el-tetris, seed001, expectimax, "
        "seed000-printed, seed001-printed")("start", po::value<std::string>(),
                                            "start board as column heights, e.g. 1,0,0,0 (default: empty)")(
        "board", po::value<std::string>(),
        "stacking: the same as --start (reads better with --explain); "
        "tetris: a board file ('#' filled, '.' empty, top row first; - reads standard input) "
        "to decide one move on (with --piece), or to start the games on")("start-id", po::value<std::string>(),
                                                                          "start board as a board id")(
        "seed", po::value<std::string>()->default_value("1"), "random seed (>= 0)")(
        "threads", po::value<std::string>()->default_value("0"), ThreadsHelp.c_str())(
        "check",
        "exit 1 when the games disagree with the exact length distribution (z-test of the mean, "
        "chi-square test of the lengths) or, for the table policy, its mean with the table's value")(
        "check-level", po::value<std::string>()->default_value("1e-4"), "--check fails on a p-value below this")(
        "memory-limit", po::value<std::string>(),
        "most bytes of table values to hold in memory, e.g. 16G (default: 3/4 of the available memory); "
        "a larger table is read lazily")(
        "show", "print one game (game 0 of --seed) as text frames instead of playing --runs games")(
        "explain", "print the start board's value and every placement of every piece, best first")(
        "json", "print the report as JSON");
    po::options_description tetris("The real game (--game tetris)");
    tetris.add_options()("width", po::value<std::string>()->default_value("10"), "well width, 2-16")(
        "height", po::value<std::string>()->default_value("20"), "well height, 2-64")(
        "pieces", po::value<std::string>()->default_value("tetrominoes"),
        "tetrominoes, rectangles, pentominoes or a piece file")("preview", po::value<std::string>()->default_value("0"),
                                                                "next pieces known and searched, 0-8 (past a "
                                                                "projected minute a move, with --yes; "
                                                                "seed 000's window of 4 is --preview 3)")(
        "depth", po::value<std::string>(), "--policy expectimax: unknown next pieces averaged, 1-2 (default 1)")(
        "moves", po::value<std::string>()->default_value("harddrop"),
        "harddrop (every rotation and column, dropped) or bfs (every SRS placement, tetrominoes)")(
        "draw", po::value<std::string>()->default_value("independent"),
        "independent (the set's weights) or bag (each piece once per bag)")(
        "piece-file", po::value<std::string>(), "pieces in seed 000's format: 0-6 for I O S Z T J L")(
        "game-over", po::value<std::string>()->default_value("placement"),
        "placement (no placement of the piece fits) or entry (also when it cannot enter at its spawn, Fahey's)")(
        "games", po::value<std::string>()->default_value("10"), "games to play, 1 to 1,000,000")(
        "max-pieces", po::value<std::string>()->default_value("1000000"),
        "stop a game after this many pieces (0: never)")("level", po::value<std::string>()->default_value("0"),
                                                         "Game Boy starting level, 0-20 (points)")(
        "piece", po::value<std::string>(), "with --board FILE: decide one move for this piece (its letter)")(
        "next", po::value<std::string>(), "with --piece: the next pieces known, in order, e.g. SZO")(
        "hold", po::value<std::string>()->implicit_value(""),
        "a turn may hold first (swap with the held piece; the hold empty, play the next); with --piece, "
        "--hold X says X is held")("alternatives", po::value<std::string>()->default_value("8"),
                                   "with --piece: the ranked first choices shown in --json, 0-1000")(
        "buffer-rows", po::value<std::string>()->default_value("0"),
        "rows above the well a piece may use, 0-8, if a cell of it is in the well (seed 000 has 5)")(
        "scoring", po::value<std::string>()->default_value("simple"),
        "simple (40/100/300/1200 x (level + 1), a level every 10 lines) or gameboy (the Game Boy's: its "
        "level-ups, a point a row soft-dropped, the score stopping at 999,999)")(
        "weights", po::value<std::string>(),
        "the policy's feature weights, comma-separated, as the seeds print them: lee, expectimax, "
        "seed000-printed 4 (height, lines, holes, bumpiness, magnitudes); dellacherie, el-tetris 6 (signed: "
        "landing height, eroded cells, row and column transitions, holes, wells); seed001 4 (its priorities: "
        "full rows, height, longest row, unreachable)")("yes",
                                                        "run a --preview projected to take over a minute a move")(
        "quiet", "no progress lines on stderr (results and --json still print)");
    described.add(tetris);
    po::options_description bot(
        "The Tetris Bot Protocol bot (--bot tbp; it takes --policy, --preview, --depth, --hold, "
        "--threads)");
    bot.add_options()("bot", po::value<std::string>(),
                      "tbp: play the Tetris Bot Protocol on standard input and output")(
        "budget-ms", po::value<std::string>(),
        "think at most about this long per suggestion: the search deepens one known piece at a time up to --preview "
        "while the next depth's projected time fits")("budget-leaves", po::value<std::string>(),
                                                      "the same budget counted in leaves scored (deterministic)")(
        "suggestions", po::value<std::string>()->default_value("5"), "moves a suggestion lists, best first, 1-100");
    described.add(bot);
    po::options_description web("The web viewer (--serve)");
    web.add_options()("serve",
                      "serve the web viewer and its JSON API (README: The web viewer) until Ctrl-C; --table adds the "
                      "table explorer and the table game's replays")(
        "port", po::value<std::string>()->default_value("8080"), "port to listen on, 0-65535 (0: any free one)")(
        "bind", po::value<std::string>()->default_value("127.0.0.1"),
        "address to listen on; the default answers this machine only: anything else (0.0.0.0: every network) "
        "must be asked for")("allow-host", po::value<std::vector<std::string>>()->composing(),
                             "a host name the page may be reached by besides localhost and IP addresses (the Host "
                             "header is checked against them; repeatable; * admits any)");
    described.add(web);
    return described;
}

// The options that belong to one game only: given for the other, they are
// refused rather than ignored.
constexpr const char* TetrisOnly[] = {"width",   "height",     "pieces",    "preview", "depth",        "moves",
                                      "draw",    "piece-file", "game-over", "games",   "max-pieces",   "level",
                                      "piece",   "next",       "quiet",     "hold",    "alternatives", "buffer-rows",
                                      "scoring", "weights",    "yes"};
constexpr const char* StackingOnly[] = {"table", "runs",        "start",        "start-id",
                                        "check", "check-level", "memory-limit", "explain"};

bool given(const po::variables_map& variables, const char* name) {
    return variables.count(name) && !variables[name].defaulted();
}

constexpr const char* ServeOnly[] = {"port", "bind", "allow-host"};
stack::web::ServeOptions parse_serve_options(const po::variables_map& variables) {
    for (const auto& [name, value] : variables)
        if (!value.defaulted() && name != "serve" && name != "table"
            && std::find(std::begin(ServeOnly), std::end(ServeOnly), name) == std::end(ServeOnly))
            throw stack::InputError("--" + name
                                    + " is not for --serve (it takes --port, --bind, --allow-host and --table)");
    stack::web::ServeOptions options;
    options.port = stack::parse_int_option("port", variables["port"].as<std::string>(), 0, 65535);
    options.bind = variables["bind"].as<std::string>();
    if (options.bind.empty())
        throw stack::InputError("--bind must name an address, e.g. 127.0.0.1");
    if (variables.count("allow-host"))
        for (const std::string& name : variables["allow-host"].as<std::vector<std::string>>()) {
            if (name.empty() || name.size() > 253 || name.find_first_of(" /:@[]") != std::string::npos)
                throw stack::InputError("--allow-host takes a host name without a port (got '"
                                        + stack::printable(name, 60) + "')");
            options.allowed_hosts.push_back(name);
        }
    if (variables.count("table")) {
        options.table = variables["table"].as<std::string>();
        if (options.table->empty())
            throw stack::InputError("--table must name a file");
    }
    return options;
}

stack::tetris::TetrisOptions parse_tetris_options(const po::variables_map& variables) {
    for (const char* name : StackingOnly)
        if (given(variables, name))
            throw stack::InputError(std::string("--") + name + " is for the stacking game, not --game tetris");
    const auto text = [&](const char* name) { return variables[name].as<std::string>(); };
    stack::tetris::TetrisOptions options;
    options.width = stack::parse_int_option("width", text("width"), 2, stack::tetris::MostWidth);
    options.height = stack::parse_int_option("height", text("height"), 2, stack::tetris::MostHeight);
    options.pieces = text("pieces");
    options.policy = given(variables, "policy") ? text("policy") : "dellacherie";
    if (given(variables, "preview"))  // unset: a decision searches every piece it is told
        options.preview = stack::parse_int_option("preview", text("preview"), 0, stack::tetris::MostPreview);
    if (variables.count("depth"))
        options.depth = stack::parse_int_option("depth", text("depth"), 1, 2);
    const std::string moves = text("moves"), draw = text("draw"), rule = text("game-over");
    if (moves != "harddrop" && moves != "bfs")
        throw stack::InputError("--moves must be harddrop or bfs (got '" + moves + "')");
    options.moves = moves == "bfs" ? stack::tetris::MoveSet::BreadthFirst : stack::tetris::MoveSet::HardDrop;
    if (draw != "independent" && draw != "bag")
        throw stack::InputError("--draw must be independent or bag (got '" + draw + "')");
    options.draw = draw == "bag" ? stack::tetris::Draw::Bag : stack::tetris::Draw::Independent;
    if (rule != "placement" && rule != "entry")
        throw stack::InputError("--game-over must be placement or entry (got '" + rule + "')");
    options.rule = rule == "entry" ? stack::tetris::GameOverRule::Entry : stack::tetris::GameOverRule::Placement;
    if (variables.count("piece-file"))
        options.piece_file = text("piece-file");
    options.games = stack::parse_unsigned_option("games", text("games"), 1, 1000000);
    options.max_pieces = stack::parse_unsigned_option("max-pieces", text("max-pieces"), 0, std::uint64_t(1) << 48);
    options.level = stack::parse_int_option("level", text("level"), 0, 20);
    const std::string scoring = text("scoring");
    if (scoring != "simple" && scoring != "gameboy")
        throw stack::InputError("--scoring must be simple or gameboy (got '" + scoring + "')");
    options.scoring = scoring == "gameboy" ? stack::tetris::ScoringRule::GameBoy : stack::tetris::ScoringRule::Simple;
    if (variables.count("weights")) {
        const std::string weights = text("weights");
        for (std::size_t from = 0;;) {
            const std::size_t comma = weights.find(',', from);
            options.weights.push_back(
                stack::parse_real_option("weights", weights.substr(from, comma - from), -1e6, 1e6));
            if (comma == std::string::npos)
                break;
            from = comma + 1;
        }
    }
    options.yes = variables.count("yes") > 0;
    options.seed = stack::parse_unsigned_option("seed", text("seed"));
    options.threads = stack::parse_int_option("threads", text("threads"), 0, stack::MostThreads);
    if (variables.count("board"))
        options.board_file = text("board");
    if (variables.count("piece"))
        for (const char* name : {"games", "max-pieces", "level", "scoring", "draw", "seed", "piece-file"})
            if (given(variables, name))
                throw stack::InputError(std::string("--") + name + " is for games, not the decision of --piece");
    if (variables.count("hold")) {
        options.hold = true;
        options.held = text("hold");
    }
    options.alternatives = stack::parse_int_option("alternatives", text("alternatives"), 0, 1000);
    options.buffer_rows = stack::parse_int_option("buffer-rows", text("buffer-rows"), 0, 8);
    if (options.height + options.buffer_rows > stack::tetris::MostHeight)
        throw stack::InputError("--height plus --buffer-rows must be at most "
                                + std::to_string(stack::tetris::MostHeight));
    if (variables.count("show"))
        for (const char* name : {"games", "json"})
            if (given(variables, name))
                throw stack::InputError(std::string("--show draws game 0 of --seed as text: give --") + name
                                        + " without it");
    if (variables.count("piece"))
        options.piece = text("piece");
    if (variables.count("next"))
        options.next = text("next");
    options.show = variables.count("show") > 0;
    if (options.show && !given(variables, "max-pieces")) {  // --show draws every piece: a cap unless asked
        options.max_pieces = stack::tetris::ShowMostPieces;
        options.show_capped = true;
    }
    options.json = variables.count("json") > 0;
    options.quiet = variables.count("quiet") > 0;
    return options;
}

constexpr const char* BotOnly[] = {"budget-ms", "budget-leaves", "suggestions"};

// --bot tbp: the real game's policy options, on the protocol's 10x40 board.
stack::tetris::BotOptions parse_bot_options(const po::variables_map& variables) {
    if (variables["bot"].as<std::string>() != "tbp")
        throw stack::InputError("--bot must be tbp (the Tetris Bot Protocol; got '" + variables["bot"].as<std::string>()
                                + "')");
    for (const char* name :
         {"width", "height", "pieces", "draw", "piece-file", "game-over", "games", "max-pieces", "level", "piece",
          "next", "board", "show", "json", "alternatives", "buffer-rows", "serve", "seed", "scoring"})
        if (variables.count(name) && !variables[name].defaulted())
            throw stack::InputError(std::string("--") + name
                                    + " is not for --bot tbp (the protocol's game: a 10x40 board, SRS moves)");
    stack::tetris::BotOptions options;
    options.game = parse_tetris_options(variables);
    if (!given(variables, "moves"))  // the bot's moves are SRS's; breadth first unless hard drop is asked for
        options.game.moves = stack::tetris::MoveSet::BreadthFirst;
    if (options.game.held && !options.game.held->empty())
        throw stack::InputError("--hold takes no piece with --bot (the start message says what is held)");
    const auto text = [&](const char* name) { return variables[name].as<std::string>(); };
    if (variables.count("budget-ms"))
        options.budget_ms = stack::parse_real_option("budget-ms", text("budget-ms"), 0.001, 3.6e6);
    if (variables.count("budget-leaves"))
        options.budget_leaves =
            stack::parse_unsigned_option("budget-leaves", text("budget-leaves"), 1, std::uint64_t(1) << 50);
    options.moves = stack::parse_int_option("suggestions", text("suggestions"), 1, 100);
    return options;
}

stack::PlayOptions parse_options(const po::variables_map& variables) {
    for (const char* name : TetrisOnly)
        if (given(variables, name))
            throw stack::InputError(std::string("--") + name + " is for --game tetris");
    stack::PlayOptions options;
    const auto text = [&](const char* name) { return variables[name].as<std::string>(); };
    if (variables.count("table")) {
        options.table = text("table");
        if (options.table.empty())
            throw stack::InputError("--table must name a file");
    }
    if (variables.count("start") && variables.count("board"))
        throw stack::InputError("give either --start or --board, not both");
    if (variables.count("start") || variables.count("board"))
        options.start_heights = text(variables.count("start") ? "start" : "board");
    if (variables.count("start-id"))
        options.start_id = stack::parse_unsigned_option("start-id", text("start-id"));
    if (variables.count("show") && variables.count("explain"))
        throw stack::InputError("give either --show or --explain, not both");
    options.mode = variables.count("show")      ? stack::PlayMode::Show
                   : variables.count("explain") ? stack::PlayMode::Explain
                                                : stack::PlayMode::Play;
    options.runs = stack::parse_unsigned_option("runs", text("runs"), 1, std::uint64_t(1) << 40);
    options.seed = stack::parse_unsigned_option("seed", text("seed"));
    options.threads = stack::parse_int_option("threads", text("threads"), 0, stack::MostThreads);
    options.check_level = stack::parse_real_option("check-level", text("check-level"), 0.0, 1.0);
    if (variables.count("memory-limit"))
        options.memory_limit = stack::parse_bytes_option("memory-limit", text("memory-limit"));
    options.policy = stack::parse_policy(text("policy"));
    options.json = variables.count("json") > 0;
    options.check = variables.count("check") > 0;
    return options;
}

int run(int argc, char** argv) {
    try {
        const po::options_description described = described_options();
        po::variables_map variables;
        stack::parse_command_line(argc, argv, described, variables);
        if (stack::print_help_or_version("stackplay", described, variables))
            return stack::ExitSuccess;
        if (variables.count("serve"))
            return stack::web::serve(parse_serve_options(variables));
        for (const char* name : ServeOnly)
            if (given(variables, name))
                throw stack::InputError(std::string("--") + name + " is for --serve");
        if (variables.count("bot")) {
            std::ios::sync_with_stdio(false);  // the protocol's lines through iostreams alone
            return stack::tetris::run_bot(parse_bot_options(variables), std::cin, std::cout, std::cerr);
        }
        for (const char* name : BotOnly)
            if (given(variables, name))
                throw stack::InputError(std::string("--") + name + " is for --bot tbp");
        const std::string game = variables["game"].as<std::string>();
        if (game == "tetris")
            return stack::tetris::run_tetris(parse_tetris_options(variables));
        if (game != "stacking")
            throw stack::InputError("--game must be stacking or tetris (got '" + game + "')");
        return stack::run_stackplay(parse_options(variables));
    } catch (const stack::InputError& error) {
        std::fprintf(stderr, "stackplay: error: %s\n", error.what());
        return stack::ExitBadInput;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "stackplay: error: %s\n", error.what());
        return stack::ExitFailure;
    }
}

}  // namespace

int main(int argc, char** argv) {
    stack::ignore_broken_pipe();
    return stack::finish_output("stackplay", run(argc, argv));
}
