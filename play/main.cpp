// stackplay: parse the options, call the mode's library entry (run_stackplay,
// run_tetris, run_bot, serve), report errors.
#include "support/cli.h"
#include "support/options.h"
#include "support/errors.h"
#include "support/limits.h"
#include "stacking/stacking_run.h"
#include "tetris/bot_protocol.h"
#include "tetris/tetris_run.h"
#include "web/server.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>

namespace {

// stackplay's modes, as bits: each option declares the modes that take it,
// and an option given to a mode that does not is refused, not ignored.
constexpr stack::OptionTable::Modes Stacking = 1, Tetris = 2, Bot = 4, Serve = 8;

// Every option of stackplay, declared once: its bounds, default, help and
// the modes that take it.
stack::OptionTable declared_options() {
    stack::OptionTable table(
        "Usage: stackplay [--table FILE] [options]  (the table game, its games checked)\n"
        "   or: stackplay --game tetris [--policy P] [--preview N]  (the real game)\n"
        "   or: stackplay --game tetris --board FILE --piece T [--next SZO] [--hold [L]]\n"
        "   or: stackplay --bot tbp [--hold] [--policy P]  (the Tetris Bot Protocol)\n"
        "   or: stackplay --serve [--port 8080] [--bind 127.0.0.1]  (the web viewer)",
        "stackplay plays the games a stackgen table answers: many random games of hole-free stacking by a policy, "
        "checked against the table's exact distribution of game lengths; the real game with line clears; a bot "
        "for the Tetris Bot Protocol; and a web viewer of the table and the games.");
    table
        .choice("game",
                {{"stacking", "the hole-free game of the table"}, {"tetris", "the real game: holes, line clears"}})
        .defaults_to("stacking")
        .in(Stacking | Tetris | Bot);
    table
        .text("table",
              "table written by stackgen (default: the one stack_*.h5 in the current directory); "
              "for --policy well, a table one column narrower than the board")
        .in(Stacking | Tetris | Bot | Serve);
    table
        .text("policy",
              "stacking: table, random, heuristic, seed001 (the most of 18 full rows + 3 longest row - 10 height "
              "- 10 unreachable cells, the next piece known) or \"lookahead N\" "
              "(N = 1..4 next pieces known); tetris: dellacherie (its default), lee, el-tetris, seed001, expectimax, "
              "seed000-printed, seed001-printed, well (the table judges a stack beside an empty well column: "
              "--table), well-builder (a heuristic that keeps the well)")
        .defaults_to("table")
        .in(Stacking | Tetris | Bot);
    table
        .text("board",
              "stacking: the same as --start (reads better with --explain); "
              "tetris: a board file ('#' filled, '.' empty, top row first; - reads standard input) "
              "to decide one move on (with --piece), or to start the games on")
        .in(Stacking | Tetris);
    table.count("seed", 0, std::numeric_limits<std::uint64_t>::max(), "random seed")
        .defaults_to("1")
        .in(Stacking | Tetris);
    table.integer("threads", 0, stack::MostThreads, "threads (0: the cores this process is bound to)")
        .defaults_to("0")
        .in(Stacking | Tetris | Bot);
    table.flag("show", "print one game (game 0 of --seed) as text frames instead of playing --runs games")
        .in(Stacking | Tetris);
    table.flag("json", "print the report as JSON").in(Stacking | Tetris);

    table.section("The table game (--game stacking, the default)");
    table.count("runs", 1, std::uint64_t(1) << 40, "games to play").defaults_to("100000").in(Stacking);
    table.text("start", "start board as column heights, e.g. 1,0,0,0 (default: empty)").in(Stacking);
    table.count("start-id", 0, std::numeric_limits<std::uint64_t>::max(), "start board as a board id").in(Stacking);
    table
        .flag("check",
              "exit 1 when the games disagree with the exact length distribution (z-test of the mean, "
              "chi-square test of the lengths) or, for the table policy, its mean with the table's value")
        .in(Stacking);
    table.real("check-level", 0, 1, "--check fails on a p-value below this").defaults_to("1e-4").in(Stacking);
    table
        .bytes("memory-limit",
               "most bytes of table values to hold in memory (default: 3/4 of the available memory); "
               "a larger table is read lazily")
        .in(Stacking);
    table.flag("explain", "print the start board's value and every placement of every piece, best first").in(Stacking);

    table.section("The real game (--game tetris)");
    table.integer("width", 2, stack::tetris::MostWidth, "well width").defaults_to("10").in(Tetris);
    table.integer("height", 2, stack::tetris::MostHeight, "well height").defaults_to("20").in(Tetris);
    table.text("pieces", "tetrominoes, rectangles, pentominoes or a piece file").defaults_to("tetrominoes").in(Tetris);
    table
        .integer("preview", 0, stack::tetris::MostPreview,
                 "next pieces known and searched (past a projected minute a move, with --yes; "
                 "a window of 4 pieces, the current one and 3 next, is --preview 3)")
        .defaults_to("0")
        .in(Tetris | Bot);
    table.integer("depth", 1, 2, "--policy expectimax: unknown next pieces averaged (default 1)").in(Tetris | Bot);
    table
        .choice("well", {{"left", "the first column"}, {"right", "the last column"}},
                "--policy well, well-builder: the column kept empty for tetrises")
        .defaults_to("left")
        .in(Tetris | Bot);
    table
        .choice("fallback",
                {{"well-builder", "the heuristic well-builder"},
                 {"dellacherie", "Dellacherie's"},
                 {"el-tetris", "El-Tetris's"},
                 {"lee", "Lee's"}},
                "--policy well: the policy that plays while the table cannot judge the board")
        .defaults_to("el-tetris")
        .in(Tetris | Bot);
    table.flag("banked", "--policy well: judge the contour above the rows a tetris waits for, not from the floor")
        .in(Tetris | Bot);
    table
        .choice("past-ceiling",
                {{"banked",
                  "when every clean placement rises past the table's height, judge the contour above the rows a "
                  "tetris waits for, up to 4 rows past it, before the fallback plays"},
                 {"fallback", "the fallback plays there"}},
                "--policy well: who plays past the table's ceiling")
        .defaults_to("banked")
        .in(Tetris | Bot);
    table
        .choice("moves",
                {{"harddrop", "every rotation and column, dropped"}, {"bfs", "every SRS placement, tetrominoes"}})
        .defaults_to("harddrop")
        .in(Tetris | Bot);
    table.choice("draw", {{"independent", "the set's weights"}, {"bag", "each piece once per bag"}})
        .defaults_to("independent")
        .in(Tetris);
    table.text("piece-file", "the pieces to play, in order, from a file: digits 0-6 (I O S Z T J L) between spaces")
        .in(Tetris);
    table
        .choice("game-over", {{"placement", "no placement of the piece fits"},
                              {"entry", "also when it cannot enter at its spawn, Fahey's"}})
        .defaults_to("placement")
        .in(Tetris);
    table.count("games", 1, 1000000, "games to play").defaults_to("10").in(Tetris);
    table.count("max-pieces", 0, std::uint64_t(1) << 48, "stop a game after this many pieces (0: never)")
        .defaults_to("1000000")
        .in(Tetris);
    table.integer("level", 0, 20, "Game Boy starting level (points)").defaults_to("0").in(Tetris);
    table.text("piece", "with --board FILE: decide one move for this piece (its letter)").in(Tetris);
    table.text("next", "with --piece: the next pieces known, in order, e.g. SZO").in(Tetris);
    table
        .text("hold",
              "a turn may hold first (swap with the held piece; the hold empty, play the next); with --piece, "
              "--hold X says X is held")
        .bare_means("")
        .in(Tetris | Bot);
    table.integer("alternatives", 0, 1000, "with --piece: the ranked first choices shown in --json")
        .defaults_to("8")
        .in(Tetris);
    table
        .integer("buffer-rows", 0, 8,
                 "rows above the well a piece may use, if a cell of it is in the well")
        .defaults_to("0")
        .in(Tetris);
    table
        .choice("scoring", {{"simple", "40/100/300/1200 x (level + 1), a level every 10 lines"},
                            {"gameboy",
                             "the Game Boy's: its level-ups, a point a row soft-dropped, the score stopping at "
                             "999,999"}})
        .defaults_to("simple")
        .in(Tetris);
    table
        .reals("weights", -1e6, 1e6,
               "the policy's feature weights, in this order: lee, expectimax, "
               "seed000-printed 4 (height, lines, holes, bumpiness, magnitudes); dellacherie, el-tetris 6 (signed: "
               "landing height, eroded cells, row and column transitions, holes, wells); seed001 4 (its priorities: "
               "full rows, height, longest row, unreachable); well-builder 8 (signed: dellacherie's 6, then "
               "the well's readiness and a tetris)")
        .in(Tetris | Bot);
    table.flag("yes", "run a --preview projected to take over a minute a move").in(Tetris | Bot);
    table.flag("quiet", "no progress lines on stderr (results and --json still print)").in(Tetris | Bot);

    table.section("The Tetris Bot Protocol bot (--bot tbp)", Bot);
    table.choice("bot", {{"tbp", "play the Tetris Bot Protocol on standard input and output"}}).in(Bot);
    table
        .real("budget-ms", 0.001, 3.6e6,
              "think at most about this long per suggestion: the search deepens one known piece at a time up to "
              "--preview while the next depth's projected time fits")
        .in(Bot);
    table.count("budget-leaves", 1, std::uint64_t(1) << 50, "the same budget counted in leaves scored (deterministic)")
        .in(Bot);
    table.integer("suggestions", 1, 100, "moves a suggestion lists, best first").defaults_to("5").in(Bot);
    table
        .integer("spawn-row", 19, 20,
                 "the row of a piece's centre at spawn, north: 20 (the guideline's rows 21-22, counted from 1), or "
                 "19 (the protocol's \"roughly y=19\", where a cell at (4, 19) blocks the spawn)")
        .defaults_to(std::to_string(stack::tetris::DefaultSpawnRow))
        .in(Bot);
    table
        .flag("lock-out",
              "the guideline's lock-out: a piece locked wholly above the visible 20 rows ends the game, so the bot "
              "suggests none while a lower placement fits (and forfeits when none does)")
        .in(Bot);

    table.section("The web viewer (--serve)");
    table
        .flag("serve",
              "serve the web viewer and its JSON API (docs/web.md) until Ctrl-C; --table adds the "
              "table explorer and the table game's replays")
        .in(Serve);
    table.integer("port", 0, 65535, "port to listen on (0: any free one)").defaults_to("8080").in(Serve);
    table
        .text("bind",
              "address to listen on; the default answers this machine only: anything else (0.0.0.0: every "
              "network) must be asked for")
        .defaults_to("127.0.0.1")
        .in(Serve);
    table
        .text("allow-host",
              "a host name the page may be reached by besides localhost and IP addresses (the Host "
              "header is checked against them; * admits any)")
        .many()
        .in(Serve);
    return table;
}

// The first option given that only `mode` takes: "--port is for --serve".
void refuse_options_only_for(const stack::OptionTable& table, stack::OptionTable::Modes mode, const std::string& what) {
    for (const stack::OptionTable::Option& option : table.options())
        if (option.modes == mode && table.given(option.name))
            throw stack::InputError("--" + option.name + " is for " + what);
}

stack::web::ServeOptions parse_serve_options(const stack::OptionTable& table) {
    for (const stack::OptionTable::Option* option : table.given_outside(Serve))
        throw stack::InputError("--" + option->name + " is not for --serve (it takes "
                                + table.taken_only_by(Serve, "serve") + ")");
    stack::web::ServeOptions options;
    options.port = table.integer("port");
    options.bind = table.text("bind");
    if (options.bind.empty())
        throw stack::InputError("--bind must name an address, e.g. 127.0.0.1");
    for (const std::string& name : table.texts("allow-host")) {
        if (name.empty() || name.size() > 253 || name.find_first_of(" /:@[]") != std::string::npos)
            throw stack::InputError("--allow-host takes a host name without a port (got '" + stack::printable(name, 60)
                                    + "')");
        options.allowed_hosts.push_back(name);
    }
    if (table.has("table")) {
        options.table = table.text("table");
        if (options.table->empty())
            throw stack::InputError("--table must name a file");
    }
    return options;
}

// The real game's options; the options of other modes were refused before.
stack::tetris::TetrisOptions parse_tetris_options(const stack::OptionTable& table) {
    stack::tetris::TetrisOptions options;
    options.width = table.integer("width");
    options.height = table.integer("height");
    options.pieces = table.text("pieces");
    options.policy = table.given("policy") ? table.text("policy") : "dellacherie";
    if (table.given("table"))
        options.table_file = table.text("table");
    options.well = table.choice("well") == "right" ? stack::tetris::WellSide::Right : stack::tetris::WellSide::Left;
    options.fallback = stack::tetris::parse_fallback(table.choice("fallback"));
    options.banked = table.given("banked");
    options.past_ceiling_banked = table.choice("past-ceiling") == "banked";
    for (const char* name : {"fallback", "banked", "past-ceiling"})
        if (table.given(name) && options.policy != "well")
            throw stack::InputError(std::string("--") + name + " is for --policy well");
    if (table.given("well") && options.policy != "well" && options.policy != "well-builder")
        throw stack::InputError("--well is for --policy well or well-builder");
    if (table.given("preview"))  // unset: a decision searches every piece it is told
        options.preview = table.integer("preview");
    if (table.has("depth"))
        options.depth = table.integer("depth");
    options.moves =
        table.choice("moves") == "bfs" ? stack::tetris::MoveSet::BreadthFirst : stack::tetris::MoveSet::HardDrop;
    options.draw = table.choice("draw") == "bag" ? stack::tetris::Draw::Bag : stack::tetris::Draw::Independent;
    options.rule = table.choice("game-over") == "entry" ? stack::tetris::GameOverRule::Entry
                                                        : stack::tetris::GameOverRule::Placement;
    if (table.has("piece-file"))
        options.piece_file = table.text("piece-file");
    options.games = table.count("games");
    options.max_pieces = table.count("max-pieces");
    options.level = table.integer("level");
    options.scoring =
        table.choice("scoring") == "gameboy" ? stack::tetris::ScoringRule::GameBoy : stack::tetris::ScoringRule::Simple;
    if (table.has("weights"))
        options.weights = table.reals("weights");
    options.yes = table.given("yes");
    options.seed = table.count("seed");
    options.threads = table.integer("threads");
    if (table.has("board"))
        options.board_file = table.text("board");
    if (table.has("piece"))
        for (const char* name : {"games", "max-pieces", "level", "scoring", "draw", "seed", "piece-file"})
            if (table.given(name))
                throw stack::InputError(std::string("--") + name + " is for games, not the decision of --piece");
    if (table.has("hold")) {
        options.hold = true;
        options.held = table.text("hold");
    }
    options.alternatives = table.integer("alternatives");
    options.buffer_rows = table.integer("buffer-rows");
    if (options.height + options.buffer_rows > stack::tetris::MostHeight)
        throw stack::InputError("--height plus --buffer-rows must be at most "
                                + std::to_string(stack::tetris::MostHeight));
    if (table.given("show"))
        for (const char* name : {"games", "json"})
            if (table.given(name))
                throw stack::InputError(std::string("--show draws game 0 of --seed as text: give --") + name
                                        + " without it");
    if (table.has("piece"))
        options.piece = table.text("piece");
    if (table.has("next"))
        options.next = table.text("next");
    options.show = table.given("show");
    if (options.show && !table.given("max-pieces")) {  // --show draws every piece: a cap unless asked
        options.max_pieces = stack::tetris::ShowMostPieces;
        options.show_capped = true;
    }
    options.json = table.given("json");
    options.quiet = table.given("quiet");
    return options;
}

// --bot tbp: the real game's policy options, on the protocol's 10x40 board.
stack::tetris::BotOptions parse_bot_options(const stack::OptionTable& table) {
    table.choice("bot");
    for (const stack::OptionTable::Option* option : table.given_outside(Bot))
        throw stack::InputError("--" + option->name
                                + " is not for --bot tbp (the protocol's game: a 10x40 board, SRS moves)");
    stack::tetris::BotOptions options;
    options.game = parse_tetris_options(table);
    if (!table.given("moves"))  // the bot's moves are SRS's; breadth first unless hard drop is asked for
        options.game.moves = stack::tetris::MoveSet::BreadthFirst;
    if (options.game.held && !options.game.held->empty())
        throw stack::InputError("--hold takes no piece with --bot (the start message says what is held)");
    if (table.has("budget-ms"))
        options.budget_ms = table.real("budget-ms");
    if (table.has("budget-leaves"))
        options.budget_leaves = table.count("budget-leaves");
    options.moves = table.integer("suggestions");
    options.spawn_row = table.integer("spawn-row");
    options.lock_out = table.given("lock-out");
    return options;
}

stack::PlayOptions parse_options(const stack::OptionTable& table) {
    stack::PlayOptions options;
    if (table.has("table")) {
        options.table = table.text("table");
        if (options.table.empty())
            throw stack::InputError("--table must name a file");
    }
    if (table.has("start") && table.has("board"))
        throw stack::InputError("give either --start or --board, not both");
    if (table.has("start") || table.has("board"))
        options.start_heights = table.text(table.has("start") ? "start" : "board");
    if (table.has("start-id"))
        options.start_id = table.count("start-id");
    if (table.given("show") && table.given("explain"))
        throw stack::InputError("give either --show or --explain, not both");
    options.mode = table.given("show")      ? stack::PlayMode::Show
                   : table.given("explain") ? stack::PlayMode::Explain
                                            : stack::PlayMode::Play;
    options.runs = table.count("runs");
    options.seed = table.count("seed");
    options.threads = table.integer("threads");
    options.check_level = table.real("check-level");
    if (table.has("memory-limit"))
        options.memory_limit = table.bytes("memory-limit");
    options.policy = stack::parse_policy(table.text("policy"));
    options.json = table.given("json");
    options.check = table.given("check");
    return options;
}

int run(int argc, char** argv) {
    try {
        stack::OptionTable table = declared_options();
        table.parse(argc, argv);
        if (table.help_or_version("stackplay"))
            return stack::ExitSuccess;
        if (table.given("serve"))
            return stack::web::serve(parse_serve_options(table));
        refuse_options_only_for(table, Serve, "--serve");
        if (table.has("bot")) {
            std::ios::sync_with_stdio(false);  // the protocol's lines through iostreams alone
            return stack::tetris::run_bot(parse_bot_options(table), std::cin, std::cout, std::cerr);
        }
        refuse_options_only_for(table, Bot, "--bot tbp");
        if (table.choice("game") == "tetris") {
            for (const stack::OptionTable::Option* option : table.given_outside(Tetris))
                throw stack::InputError("--" + option->name + " is for the stacking game, not --game tetris");
            return stack::tetris::run_tetris(parse_tetris_options(table));
        }
        for (const stack::OptionTable::Option* option : table.given_outside(Stacking))
            throw stack::InputError("--" + option->name + " is for --game tetris");
        return stack::run_stackplay(parse_options(table));
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
