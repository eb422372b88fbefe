// The web viewer's API (play/web/api.h), called directly: the answers
// against the modules they come from, and every kind of bad parameter
// refused with BadRequest.
#include "play_support.h"
#include "stacking/policy.h"
#include "rules/piece_set.h"
#include "rules/rules.h"
#include "srs/moves.h"
#include "support/errors.h"
#include "tetris/tetris_board.h"
#include "tetris/decision.h"
#include "tetris/game.h"
#include "web/api.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>
#include <vector>

namespace stack::web {

namespace {

// The issue's counterexample: an I over a 1-wide hole in a 4-wide shaft.
std::string shaft_board() {
    std::string text;
    for (int row = 0; row < 19; ++row)
        text += "###....###/";
    return text + "###.######";
}

std::string empty_board(int width, int height) {
    std::string text;
    for (int row = 0; row < height; ++row)
        text += (row ? "/" : "") + std::string(std::size_t(width), '.');
    return text;
}

Json moves_answer(const Api& api, const Parameters& parameters) { return Json::parse(api.moves(parameters)); }

}  // namespace

TEST(WebApi, MovesShowTheConvolutionSeedsMisses) {
    const Api api(std::nullopt);
    const std::pair<const char*, std::size_t> expected[] = {{"bfs", 17}, {"convolution", 17}, {"convolution-seed", 11}};
    for (const auto& [algorithm, count] : expected) {
        const Json answer = moves_answer(api, {{"board", shaft_board()}, {"piece", "I"}, {"algorithm", algorithm}});
        EXPECT_EQ(answer["placements"].size(), count) << algorithm;
        EXPECT_EQ(answer["counts"]["placements"].get<std::size_t>(), count) << algorithm;
    }
}

// Each placement's cells and inputs are the move generator's; every
// event lies inside the search space and the counts add up.
TEST(WebApi, MovesAnswerIsTheGeneratorsOwn) {
    const Api api(std::nullopt);
    std::string text = empty_board(10, 20);
    text.replace(text.size() - 10, 10, "##.#######");  // a T-spin-free floor with one hole
    moves::SrsBoard board(10, 20);
    for (int x = 0; x < 10; ++x)
        if (x != 2)
            board.fill(x, 0);
    for (const char* letter : {"I", "O", "T", "S", "Z", "J", "L"}) {
        const Json answer = moves_answer(api, {{"board", text}, {"piece", letter}, {"algorithm", "bfs"}});
        Piece piece = PieceI;
        for (int p = 0; p < PieceCount; ++p)
            if (piece_letter(Piece(p)) == letter[0])
                piece = Piece(p);
        const auto placements = moves::generate(board, piece, moves::Algorithm::BreadthFirst);
        ASSERT_EQ(answer["placements"].size(), placements.size()) << letter;
        for (std::size_t i = 0; i < placements.size(); ++i) {
            const Json& placed = answer["placements"][i];
            moves::Cells cells;
            for (std::size_t k = 0; k < 4; ++k)
                cells[k] = {placed["cells"][k][0].get<int>(), placed["cells"][k][1].get<int>()};
            EXPECT_EQ(cells, placements[i].cells);
            EXPECT_EQ(placed["inputs"].get<std::string>(), *moves::shortest_inputs(board, piece, placements[i].cells))
                << letter << " placement " << i;
            EXPECT_EQ(placed["spin"], "none");
        }
        const Json& counts = answer["counts"];
        EXPECT_EQ(counts["events"].get<std::size_t>(), answer["events"].size());
        EXPECT_EQ(counts["reached"].get<std::size_t>() + counts["popped"].get<std::size_t>()
                      + counts["placeable"].get<std::size_t>(),
                  answer["events"].size());
        for (const Json& event : answer["events"]) {
            EXPECT_GE(event[0].get<int>(), 0);
            EXPECT_LE(event[0].get<int>(), 2);
            EXPECT_GE(event[1].get<int>(), -3);
            EXPECT_LT(event[1].get<int>(), 13);
            EXPECT_GE(event[3].get<int>(), 0);
            EXPECT_LT(event[3].get<int>(), 4);
        }
        const Json quiet = moves_answer(api, {{"board", text}, {"piece", letter}, {"events", "0"}});
        EXPECT_FALSE(quiet.contains("events"));
        EXPECT_EQ(quiet["placements"], answer["placements"]);
    }
}

// Each placement gives the SRS kick its inputs' last turn used (-1: they
// turn nowhere), as replaying them finds; the answer gives the search's
// time. On the shaft the I's turns into the hole need kicks past the first;
// a turn at spawn in the open needs none.
TEST(WebApi, MovesGiveTheKickAndTheSearchsTime) {
    const Api api(std::nullopt);
    for (const auto& [board, piece] : {std::pair{empty_board(10, 20), "T"}, std::pair{shaft_board(), "I"}}) {
        const Json answer = moves_answer(api, {{"board", board}, {"piece", piece}, {"events", "0"}});
        ASSERT_TRUE(answer.contains("search_ms"));
        EXPECT_GE(answer["search_ms"].get<double>(), 0.0);
        int kicked = 0;
        for (const Json& placement : answer["placements"]) {
            const std::string inputs = placement["inputs"];
            const int kick = placement.at("kick");
            const bool turns = inputs.find_first_of("cwf") != std::string::npos;
            EXPECT_EQ(kick >= 0, turns) << inputs;
            EXPECT_LE(kick, 4) << inputs;
            kicked += kick > 0;
        }
        if (std::string(piece) == "I")
            EXPECT_GT(kicked, 0) << "no placement in the shaft needs a kick";
        for (const Json& placement : answer["placements"])  // a turn at spawn, in the open: in place
            if (placement["inputs"] == "cH")
                EXPECT_EQ(placement["kick"], 0);
    }
}

// The page counts rows from 0 at the floor; so do the errors about a row
// (a board file's lines count from 1 at the top: not here).
TEST(WebApi, BoardErrorsCountRowsFromTheFloor) {
    const Api api(std::nullopt);
    const auto error_of = [&](auto call) {
        try {
            call();
        } catch (const BadRequest& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    const std::string full_top = "####/..../..../....";  // the top row of 4: row 3 from the floor
    std::string said = error_of([&] { api.decide({{"board", full_top}, {"piece", "T"}}); });
    EXPECT_NE(said.find("row 3 (from the bottom, 0) is full"), std::string::npos) << said;
    said = error_of([&] { api.moves({{"board", full_top}}); });
    EXPECT_NE(said.find("row 3 (from the bottom, 0) is full"), std::string::npos) << said;
    const std::string short_bottom = "..../..../...";  // the bottom row short: row 0
    for (const std::string& endpoint : {"moves", "decide"}) {
        said = error_of([&] {
            endpoint == "moves" ? (void)api.moves({{"board", short_bottom}})
                                : (void)api.decide({{"board", short_bottom}, {"piece", "T"}});
        });
        EXPECT_NE(said.find("row 0 (from the bottom, 0) has 3 cells"), std::string::npos) << endpoint << ": " << said;
    }
}

// A seed is any 64-bit number, echoed exactly (the page keeps it as text).
TEST(WebApi, SeedsUpTo2To64AreEchoedExactly) {
    const Api api(std::nullopt);
    const Json game = api.game({{"game", "tetris"}, {"seed", "18446744073709551615"}, {"pieces", "1"}});
    EXPECT_EQ(game["seed"].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
    EXPECT_NE(json_text(game).find("\"seed\":18446744073709551615"), std::string::npos);
    EXPECT_THROW(api.game({{"game", "tetris"}, {"seed", "18446744073709551616"}}), BadRequest);
}

TEST(WebApi, MovesMarkATSpin) {
    const Api api(std::nullopt);
    // A T-spin double slot (tests/play/test_moves.cpp TSpinDoubleSlot): rows 0
    // and 1 full but for the slot, an overhang at (3,2) and (4,2).
    std::vector<std::string> rows(20, "..........");
    rows[19] = "##.#######";
    rows[18] = "#...######";
    rows[17] = "...##.....";
    std::string text;
    for (const std::string& row : rows)
        text += (text.empty() ? "" : "/") + row;
    const Json answer = moves_answer(api, {{"board", text}, {"piece", "T"}, {"algorithm", "bfs"}});
    const Json hard = moves_answer(api, {{"board", text}, {"piece", "T"}, {"algorithm", "harddrop"}});
    int full = 0;
    for (const Json& placed : answer["placements"])
        full += placed["spin"] == "full";
    EXPECT_GE(full, 1);
    EXPECT_EQ(answer["counts"]["spins_full"].get<int>(), full);
    EXPECT_EQ(hard["counts"]["spins_full"].get<int>(), 0);
    EXPECT_LT(hard["placements"].size(), answer["placements"].size());
}

// A spot reached both as a T-spin mini and as a full T-spin (by different
// last moves): `spins` lists every way the generator marked, `spin` the best.
TEST(WebApi, MovesListEveryWayASpotIsReached) {
    const Api api(std::nullopt);
    const std::vector<std::string> rows = {".....#", "......", "###.#.", "#.##..", "###...", "..#.##", "#####."};
    std::string text;
    moves::SrsBoard board(6, 7);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        text += (r ? "/" : "") + rows[r];
        for (int x = 0; x < 6; ++x)
            if (rows[r][std::size_t(x)] == '#')
                board.fill(x, int(rows.size() - 1 - r));
    }
    const Json answer = moves_answer(api, {{"board", text}, {"piece", "T"}, {"events", "0"}});
    const auto placements = moves::generate(board, PieceT, moves::Algorithm::BreadthFirst);
    ASSERT_EQ(answer["placements"].size(), placements.size());
    int both = 0;
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const Json& spins = answer["placements"][i]["spins"];
        const auto has = [&](const char* name) { return std::find(spins.begin(), spins.end(), name) != spins.end(); };
        EXPECT_EQ(has("none"), bool(placements[i].reached & moves::ReachedPlain)) << i;
        EXPECT_EQ(has("mini"), bool(placements[i].reached & moves::ReachedMini)) << i;
        EXPECT_EQ(has("full"), bool(placements[i].reached & moves::ReachedFull)) << i;
        const std::string best = has("full") ? "full" : has("mini") ? "mini" : "none";
        EXPECT_EQ(answer["placements"][i]["spin"], best) << i;
        both += has("mini") && has("full");
        // The inputs shown perform the spin shown, and each way's inputs
        // perform that way (issue 38).
        const auto spin_of = [&](const std::string& inputs) {
            const auto played = moves::replay(board, PieceT, inputs);
            EXPECT_TRUE(played && played->cells == placements[i].cells) << inputs;
            return played ? tetris::spin_name(played->spin) : "?";
        };
        EXPECT_EQ(spin_of(answer["placements"][i]["inputs"].get<std::string>()), best) << i;
        for (const auto& [name, inputs] : answer["placements"][i]["spin_inputs"].items())
            EXPECT_EQ(spin_of(inputs.get<std::string>()), name) << i;
        EXPECT_EQ(answer["placements"][i]["spin_inputs"].size(), spins.size()) << i;
    }
    EXPECT_GE(both, 1) << "the board was chosen for a spot that is both";
}

TEST(WebApi, BadMovesRequestsAreRefused) {
    const Api api(std::nullopt);
    const std::string good = empty_board(10, 20);
    const std::vector<Parameters> bad = {
        {},                                                // no board
        {{"board", ""}},                                   // empty
        {{"board", empty_board(3, 5)}},                    // too narrow
        {{"board", empty_board(17, 5)}},                   // too wide
        {{"board", empty_board(10, 65)}},                  // too tall
        {{"board", "..../...."}, {"board", "..../...."}},  // repeated
        {{"board", "..../..."}},                           // ragged
        {{"board", "....//...."}},                         // an empty row
        {{"board", "..x."}},                               // a bad cell
        {{"board", "####"}},                               // its only row full
        {{"board", "..../####"}},                          // a full row under an empty one
        {{"board", std::string("..\xff.")}},               // not text
        {{"board", good}, {"piece", "X"}},                 // no such piece
        {{"board", good}, {"piece", "t"}},                 // letters are upper case
        {{"board", good}, {"piece", "TT"}},
        {{"board", good}, {"algorithm", "dfs"}},
        {{"board", good}, {"events", "2"}},
        {{"board", good}, {"events", "-1"}},
        {{"board", good}, {"events", "1 "}},
        {{"board", good}, {"pieces", "T"}},  // unknown name
    };
    for (const Parameters& parameters : bad)
        EXPECT_THROW(api.moves(parameters), BadRequest) << (parameters.empty() ? "" : parameters.begin()->second);
}

TEST(WebApi, NoTableIsSaidAndRefused) {
    const Api api(std::nullopt);
    EXPECT_EQ(api.table(), (Json{{"loaded", false}}));
    EXPECT_THROW(api.board({}), NoTable);
    EXPECT_THROW(api.lengths({}), NoTable);
    EXPECT_THROW(api.game({}), NoTable);
    // The real game needs no table.
    const Json game = api.game({{"game", "tetris"}, {"pieces", "5"}, {"seed", "2"}});
    EXPECT_EQ(game["turns"].size(), 5u);
}

TEST(WebApi, BoardAndLengthsReadTheTable) {
    const Api api(testing::reference_table());
    const StackTable table = testing::reference_table();
    const Json meta = api.table();
    EXPECT_EQ(meta["width"], 4);
    EXPECT_EQ(meta["value_empty"].get<double>(), table.value(0));
    const Json board = api.board({{"heights", "1,0,0,0"}});
    EXPECT_EQ(board["value"].get<double>(), table.value(1));
    for (const Json& piece : board["pieces"]) {  // best first, each value the successor's
        double previous = 1e300;
        for (const Json& placement : piece["placements"]) {
            EXPECT_LE(placement["value"].get<double>(), previous);
            previous = placement["value"].get<double>();
            EXPECT_EQ(previous, table.value(placement["successor_id"].get<BoardId>()));
        }
    }
    const Json lengths = api.lengths({{"heights", "0,0,0,0"}, {"games", "500"}, {"seed", "3"}});
    double total = 0, mean = 0;
    const auto exact = lengths["exact"].get<std::vector<double>>();
    for (std::size_t k = 0; k < exact.size(); ++k)
        total += exact[k], mean += double(k) * exact[k];
    EXPECT_NEAR(total, 1.0, 1e-12);
    EXPECT_NEAR(mean, table.value(0), 1e-9);  // the table policy's exact mean is the table's value
    std::uint64_t games = 0;
    for (const Json& count : lengths["observed"])
        games += count.get<std::uint64_t>();
    EXPECT_EQ(games, 500u);
    // The same request again gives the same bits (the exact part is cached).
    EXPECT_EQ(api.lengths({{"heights", "0,0,0,0"}, {"games", "500"}, {"seed", "3"}}), lengths);
}

TEST(WebApi, StackingGameTurnsRankTheChoiceFirst) {
    const Api api(testing::reference_table());
    const Json game = api.game({{"seed", "5"}});
    ASSERT_GE(game["turns"].size(), 1u);
    for (const Json& turn : game["turns"]) {
        if (!turn["fits"].get<bool>()) {
            EXPECT_TRUE(turn["alternatives"].empty());
            continue;
        }
        ASSERT_FALSE(turn["alternatives"].empty());
        const Json& first = turn["alternatives"][0];
        EXPECT_EQ(first["value"], turn["value_after"]);
        EXPECT_EQ(first["heights_after"], turn["heights_after"]);
    }
}

TEST(WebApi, TetrisGameIsSeededAndItsChoiceIsBest) {
    const Api api(std::nullopt);
    const Json one = api.game({{"game", "tetris"}, {"seed", "4"}, {"pieces", "40"}, {"policy", "lee"}});
    const Json two = api.game({{"game", "tetris"}, {"seed", "4"}, {"pieces", "40"}, {"policy", "lee"}});
    EXPECT_EQ(one, two);
    ASSERT_EQ(one["turns"].size(), 40u);
    for (const Json& turn : one["turns"]) {
        ASSERT_FALSE(turn["alternatives"].empty());
        EXPECT_EQ(turn["alternatives"][0]["cells"], turn["cells"]);
        for (const Json& other : turn["alternatives"])
            EXPECT_LE(other["score"].get<double>(), turn["score"].get<double>());
        EXPECT_EQ(turn["rows"].size(), 20u);
        EXPECT_EQ(turn["cells"].size(), 4u);
    }
}

TEST(WebApi, BadTableRequestsAreRefused) {
    const Api api(testing::reference_table());
    const std::vector<std::pair<std::string, Parameters>> bad = {
        {"board", {{"heights", "1,0,0"}}},     // too few columns
        {"board", {{"heights", "21,0,0,0"}}},  // taller than the well
        {"board", {{"heights", "a,0,0,0"}}},
        {"board", {{"id", "3"}}},  // unknown name
        {"lengths", {{"games", "0"}}},
        {"lengths", {{"games", "10001"}}},
        {"lengths", {{"seed", "-1"}}},
        {"lengths", {{"seed", "99999999999999999999999"}}},
        {"game", {{"policy", "best"}}},
        {"game", {{"game", "chess"}}},
        {"game", {{"game", "tetris"}, {"pieces", "1001"}}},
        {"game", {{"game", "tetris"}, {"policy", "table"}}},
        {"game", {{"game", "tetris"}, {"heights", "0,0,0,0"}}},
        {"game", {{"pieces", "5"}}},  // pieces is the real game's
    };
    for (const auto& [endpoint, parameters] : bad) {
        const auto call = [&, &endpoint = endpoint, &parameters = parameters] {
            if (endpoint == "board")
                return api.board(parameters);
            if (endpoint == "lengths")
                return api.lengths(parameters);
            return api.game(parameters);
        };
        EXPECT_THROW(call(), BadRequest) << endpoint << " " << parameters.begin()->first;
    }
}

namespace {

// A 10x20 well with a ragged stack (rows top first, joined by '/').
std::string stack_board() {
    std::vector<std::string> rows(14, "..........");
    for (const char* row : {"#.........", "##....#...", "###..###..", "####.####.", "#####.###.", ".#########"})
        rows.push_back(row);
    std::string text;
    for (const std::string& row : rows)
        text += (text.empty() ? "" : "/") + row;
    return text;
}

// A 16x64 well with single cells scattered on every third row: SRS moves
// find up to 752 placements of a piece (tucks under each cell), where an
// open well has 4 x 16 at most.
std::string sparse_board() {
    std::string text;
    for (int y = 0; y < 64; ++y) {
        std::string row(16, '.');
        for (int x = 0; x < 16; ++x)
            if (y % 3 == 2 && y > 4 && (x + y) % 4 == 0)
                row[std::size_t(x)] = '#';
        text += (y ? "/" : "") + row;
    }
    return text;
}

// The command line's decision (run.cpp's decide) on the board: its options
// as main.cpp sets them, a board file named, the same modules.
Json command_line_decision(const std::string& rows, const std::string& piece, const std::string& next, bool hold,
                           const std::string& held, const std::string& policy, int preview, const std::string& moves,
                           int alternatives) {
    std::string text = rows;
    std::replace(text.begin(), text.end(), '/', '\n');
    tetris::TetrisOptions options;
    options.width = int(text.find('\n'));
    options.height = int(std::count(text.begin(), text.end(), '\n')) + 1;
    options.board_file = "board.txt";
    options.piece = piece;
    if (!next.empty())
        options.next = next;
    options.hold = hold;
    if (hold)
        options.held = held;
    options.policy = policy;
    if (preview > 0)  // as main.cpp: --preview given
        options.preview = preview;
    options.moves = moves == "bfs" ? tetris::MoveSet::BreadthFirst : tetris::MoveSet::HardDrop;
    const tetris::TetrisBoard board = tetris::TetrisBoard::from_text(text + "\n", options.width, options.height);
    const PieceSet set = PieceSet::builtin("tetrominoes");
    const Rules rules(set);
    const tetris::ShapeSet shapes(set);
    const tetris::TetrisPolicy decider(shapes, tetris::policy_config(options), tetris::draw_probabilities(rules));
    std::vector<int> queue = {shapes.piece_of_letter(piece[0])};
    for (const char letter : next)
        queue.push_back(shapes.piece_of_letter(letter));
    const tetris::Known known{queue, held.empty() ? -1 : shapes.piece_of_letter(held[0])};
    const tetris::Decision decision = tetris::decide(decider, board, known, tetris::GameOverRule::Placement, 2);
    return tetris::decision_json(shapes, decider, board, known, decision, alternatives);
}

Json without_seconds(Json document) {
    document.erase("seconds");
    return document;
}

}  // namespace

// /api/decide answers what the command line's decision mode answers (its
// JSON less "seconds", and less the board file's name, which the API never
// has), for the policies, the preview, hold and SRS moves.
TEST(WebApi, DecideIsTheCommandLinesDecision) {
    const Api api(std::nullopt);
    const std::string board = stack_board();
    struct Case {
        std::string piece, next;
        bool hold;
        std::string held, policy;
        int preview;  // the command line's --preview (0: the pieces told)
        std::string moves;
        int alternatives;
    };
    const Case cases[] = {
        {"T", "", false, "", "dellacherie", 0, "harddrop", 8},
        {"T", "IOS", true, "L", "dellacherie", 0, "harddrop", 8},
        {"I", "ZS", true, "", "lee", 0, "bfs", 16},
        {"S", "TJ", false, "", "el-tetris", 1, "harddrop", 3},
        {"L", "", false, "", "seed001", 0, "harddrop", 0},
        {"O", "IO", false, "", "expectimax", 0, "harddrop", 8},
    };
    for (const Case& c : cases) {
        Parameters parameters = {{"board", board},
                                 {"piece", c.piece},
                                 {"policy", c.policy},
                                 {"moves", c.moves},
                                 {"alternatives", std::to_string(c.alternatives)}};
        if (!c.next.empty())
            parameters.emplace("next", c.next);
        if (c.hold)
            parameters.emplace("hold", "1");
        if (!c.held.empty())
            parameters.emplace("held", c.held);
        if (c.preview > 0)
            parameters.emplace("preview", std::to_string(c.preview));
        const Json answer = api.decide(parameters);
        const Json expected =
            command_line_decision(board, c.piece, c.next, c.hold, c.held, c.policy, c.preview, c.moves, c.alternatives);
        const std::string label = c.piece + " next " + c.next + " " + c.policy;
        EXPECT_EQ(without_seconds(answer), without_seconds(expected)) << label;
        EXPECT_FALSE(answer.contains("board")) << label;
        ASSERT_FALSE(answer["best"].is_null()) << label;
        EXPECT_EQ(answer["plan"][0], answer["best"]) << label;  // the plan's first step is the choice
        EXPECT_EQ(answer["alternatives"].size(), std::size_t(std::min(c.alternatives, answer["placements"].get<int>())))
            << label;
        EXPECT_EQ(answer["hold_allowed"], c.hold) << label;
        EXPECT_FALSE(answer["best"]["srs"].is_null()) << label;
    }
    // The default preview is the pieces told: 1 + 3 searched.
    const Json told = api.decide({{"board", board}, {"piece", "T"}, {"next", "IOS"}});
    EXPECT_EQ(told["pieces_searched"], 4);
    EXPECT_EQ(told["plan"].size(), 4u);
    // An explicit preview 0 searches the current piece alone (the command
    // line's --preview 0 means "the pieces told").
    EXPECT_EQ(api.decide({{"board", board}, {"piece", "T"}, {"next", "IOS"}, {"preview", "0"}})["pieces_searched"], 1);
    // Six next pieces told, three searched (the web's cap).
    EXPECT_EQ(api.decide({{"board", board}, {"piece", "T"}, {"next", "IOSZJL"}})["pieces_searched"], 4);
}

// A well no placement of the piece fits: the game is over, said as the
// command line says it.
// policy=well judges with the server's table (issue 40): one column
// narrower than the board, the well the left column.
TEST(WebApi, DecideWithTheWellPolicyUsesTheServersTable) {
    const Api api(testing::reference_table());  // 4x20
    const Json answer =
        api.decide({{"board", "...../...../.####/.####/.####/.####"}, {"piece", "I"}, {"policy", "well"}});
    EXPECT_EQ(answer["policy"], "well, well left, fallback el-tetris");
    EXPECT_EQ(answer["best"]["column"], 0);  // into the well: a tetris
    EXPECT_EQ(answer["best"]["lines"], 4);
    EXPECT_THROW(api.decide({{"board", "....../......"}, {"piece", "T"}, {"policy", "well"}}), BadRequest);
    const Api none(std::nullopt);
    EXPECT_THROW(none.decide({{"board", "...../....."}, {"piece", "T"}, {"policy", "well"}}), NoTable);
    // The well-builder needs no table.
    EXPECT_FALSE(none.decide({{"board", "...../....."}, {"piece", "T"}, {"policy", "well-builder"}})["best"].is_null());
}

TEST(WebApi, DecideSaysTheGameIsOver) {
    const Api api(std::nullopt);
    const Json answer = api.decide({{"board", "#.../.#../..#./...#"}, {"piece", "I"}});
    EXPECT_TRUE(answer["best"].is_null());
    EXPECT_EQ(answer["game_over"], "no placement fits");
    EXPECT_EQ(without_seconds(answer), without_seconds(command_line_decision("#.../.#../..#./...#", "I", "", false, "",
                                                                             "dellacherie", 0, "harddrop", 8)));
}

TEST(WebApi, BadDecideRequestsAreRefused) {
    const Api api(std::nullopt);
    const std::string good = stack_board();
    const std::vector<Parameters> bad = {
        {{"piece", "T"}},                                        // no board
        {{"board", good}},                                       // no piece
        {{"board", good}, {"piece", "Q"}},                       // no such piece
        {{"board", good}, {"piece", "t"}},                       // upper case
        {{"board", good}, {"piece", "TI"}},                      // one letter
        {{"board", good}, {"piece", ""}},                        //
        {{"board", good}, {"piece", "T"}, {"next", "IOSZJLT"}},  // more than 6
        {{"board", good}, {"piece", "T"}, {"next", "IXS"}},      // a bad next letter
        {{"board", good}, {"piece", "T"}, {"held", "L"}},        // held without hold=1
        {{"board", good}, {"piece", "T"}, {"hold", "0"}, {"held", "L"}},
        {{"board", good}, {"piece", "T"}, {"hold", "1"}, {"held", "LL"}},
        {{"board", good}, {"piece", "T"}, {"hold", "1"}, {"held", ""}},
        {{"board", good}, {"piece", "T"}, {"hold", "2"}},
        {{"board", good}, {"piece", "T"}, {"hold", "yes"}},
        {{"board", good}, {"piece", "T"}, {"policy", "table"}},
        {{"board", good}, {"piece", "T"}, {"policy", "seed000-printed"}},
        {{"board", good}, {"piece", "T"}, {"preview", "4"}},
        {{"board", good}, {"piece", "T"}, {"preview", "-1"}},
        {{"board", good}, {"piece", "T"}, {"moves", "quick"}},
        {{"board", good}, {"piece", "T"}, {"alternatives", "17"}},
        {{"board", good}, {"piece", "T"}, {"depth", "1"}},  // unknown name
        {{"board", good}, {"piece", "T"}, {"piece", "T"}},  // repeated
        {{"board", "."}, {"piece", "T"}},                   // 1 wide
        {{"board", ".........."}, {"piece", "T"}},          // 1 high
        {{"board", "../.."}, {"piece", "O"}},               // I fits a 2x2 well in no rotation
        {{"board", "..../####"}, {"piece", "T"}},           // a full row
        {{"board", "..../..."}, {"piece", "T"}},            // ragged
        {{"board", "..../"}, {"piece", "T"}},               // an empty row
        {{"board", empty_board(17, 20)}, {"piece", "T"}},   // too wide
        {{"board", empty_board(10, 65)}, {"piece", "T"}},   // too tall
        {{"board", good}, {"piece", "T"}, {"next", "IOS"}, {"hold", "1"}, {"moves", "bfs"}},  // too much work
        {{"board", empty_board(16, 20)}, {"piece", "T"}, {"next", "IOS"}, {"hold", "1"}, {"policy", "expectimax"}},
        {{"board", sparse_board()}, {"piece", "T"}, {"next", "IO"}, {"hold", "1"}, {"moves", "bfs"}},  // tucks
        {{"board", "..././././..."}, {"piece", "T"}, {"moves", "bfs"}},  // SRS needs 4 wide
    };
    for (const Parameters& parameters : bad) {
        std::string label;
        for (const auto& [name, value] : parameters)
            label += name + "=" + value.substr(0, 20) + " ";
        EXPECT_THROW(api.decide(parameters), BadRequest) << label;
    }
    // The smallest wells the real game allows: 2 wide (every tetromino
    // turns to 2 wide), 4 high.
    EXPECT_NO_THROW(api.decide({{"board", "../../../.."}, {"piece", "I"}}));
    // The same SRS search with one known piece fewer is within bounds.
    EXPECT_NO_THROW(api.decide({{"board", sparse_board()}, {"piece", "T"}, {"next", "I"}, {"moves", "bfs"}}));
}

}  // namespace stack::web
