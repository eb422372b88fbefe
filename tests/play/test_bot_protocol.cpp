// The Tetris Bot Protocol bot (tetris/bot_protocol.h), fed whole sessions:
// malformed lines, the leaf budget, holding, empty queues, blocked spawns,
// stop.
#include "support/json.h"
#include "tetris/bot_protocol.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace stack::tetris {

namespace {

std::string empty_board_json() {
    std::string rows;
    for (int y = 0; y < 40; ++y)
        rows += std::string(y ? "," : "") + "[null,null,null,null,null,null,null,null,null,null]";
    return "[" + rows + "]";
}

struct BotRun {
    std::vector<Json> replies;
    std::string errors;
    int code;
};

BotRun run(const std::string& input, bool hold = false, int preview = 0, std::uint64_t budget_leaves = 0,
           int spawn_row = DefaultSpawnRow, bool lock_out = false) {
    BotOptions options;
    options.spawn_row = spawn_row;
    options.lock_out = lock_out;
    options.game.hold = hold;
    options.game.threads = 1;
    options.game.preview = preview;
    options.budget_leaves = budget_leaves;
    std::istringstream in(input);
    std::ostringstream out, errors;
    BotRun result;
    result.code = run_bot(options, in, out, errors);
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);)
        result.replies.push_back(Json::parse(line));
    result.errors = errors.str();
    return result;
}

}  // namespace

TEST(BotProtocol, MalformedLinesAreReportedAndIgnored) {
    const std::string start =
        R"({"type":"start","hold":null,"queue":["T","I","O"],"combo":0,"back_to_back":false,"board":)"
        + empty_board_json() + "}\n";
    const BotRun result = run(R"({"type":"rules"})"
                              "\n" + start + "not json\n[1,2]\n{\"type\":\"no_such\"}\n{\"type\":\"play\"}\n"
                              R"({"type":"play","move":{"location":{"type":"T","orientation":"up","x":99,"y":-5}}})"
                              "\n"
                              R"({"type":"play","move":{"location":{"type":"O","orientation":"north","x":4,"y":0}}})"
                              "\n"
                              R"({"type":"play","move":{"location":{"type":"T","orientation":"north","x":4,"y":30}}})"
                              "\n{\"type\":\"new_piece\"}\n{\"type\":\"suggest\"}\n{\"type\":\"quit\"}\n"
                              "{\"type\":\"suggest\"}\n");
    EXPECT_EQ(result.code, 0);
    ASSERT_EQ(result.replies.size(), 3u);  // info, ready, one suggestion (nothing after quit)
    EXPECT_EQ(result.replies[0]["type"], "info");
    EXPECT_EQ(result.replies[1]["type"], "ready");
    const Json& suggestion = result.replies[2];
    EXPECT_EQ(suggestion["type"], "suggestion");
    EXPECT_EQ(suggestion["state"]["queue"], Json::array({"T", "I", "O"}));  // no bad line changed it
    EXPECT_EQ(suggestion["moves"][0]["location"]["type"], "T");
    // not JSON, not a message, no move, a bad orientation, a piece that is neither the current one nor what the
    // hold gives (the I, the hold being empty), a floating piece, a new piece without a piece; the unknown type
    // is ignored silently.
    EXPECT_EQ(std::count(result.errors.begin(), result.errors.end(), '\n'), 7) << result.errors;
    EXPECT_NE(result.errors.find("does not rest on anything"), std::string::npos) << result.errors;
}

// A leaf budget deepens the search one known piece at a time while the
// next depth's projection fits: a tiny budget stops at the current piece, a
// large one reaches --preview.
TEST(BotProtocol, ALeafBudgetChoosesTheDepth) {
    const std::string input =
        R"({"type":"start","hold":null,"queue":["T","I","O","S"],"combo":0,"back_to_back":false,"board":)"
        + empty_board_json() + "}\n{\"type\":\"suggest\"}\n";
    const auto depth_of = [&](std::uint64_t budget) {
        const BotRun result = run(input, false, 2, budget);
        return result.replies.back()["move_info"]["depth"].get<int>();
    };
    EXPECT_EQ(depth_of(1), 1);
    EXPECT_EQ(depth_of(1000000000), 3);
    EXPECT_EQ(run(input, false, 2).replies.back()["move_info"]["depth"], 3);  // no budget: --preview's
    const std::uint64_t middle = 3000;  // past depth 1's leaves times its growth, short of depth 3's
    EXPECT_EQ(depth_of(middle), 2);
}

TEST(BotProtocol, ABoardItCannotHoldLeavesNoPositionNotSilence) {
    const BotRun result = run(R"({"type":"start","hold":null,"queue":["T"],"board":[[null]]})"
                              "\n{\"type\":\"suggest\"}\n");
    EXPECT_EQ(result.code, 0);
    ASSERT_EQ(result.replies.size(), 2u);  // info, and a suggestion of no moves
    EXPECT_EQ(result.replies[1]["type"], "suggestion");
    EXPECT_TRUE(result.replies[1]["moves"].empty());
    EXPECT_NE(result.errors.find("not a list of 40 rows"), std::string::npos) << result.errors;
    EXPECT_NE(result.errors.find("suggest after a start it could not use"), std::string::npos) << result.errors;
}

TEST(BotProtocol, PlayAdvancesThePositionAndClearsRows) {
    // The bottom row full but for columns 3-6: an I lying there clears it.
    std::string board = "[[\"G\",\"G\",\"G\",null,null,null,null,\"G\",\"G\",\"G\"]";
    for (int y = 1; y < 40; ++y)
        board += ",[null,null,null,null,null,null,null,null,null,null]";
    board += "]";
    const BotRun result = run(
        R"({"type":"start","hold":null,"queue":["T","I","O"],"combo":0,"back_to_back":false,"board":)" + board
            + "}\n"
              R"({"type":"play","move":{"location":{"type":"I","orientation":"north","x":4,"y":0},"spin":"none"}})"
              "\n"
              R"({"type":"play","move":{"location":{"type":"T","orientation":"north","x":4,"y":0},"spin":"none"}})"
              "\n{\"type\":\"suggest\"}\n",
        true);
    ASSERT_EQ(result.replies.size(), 2u) << result.errors;
    // No piece is left to place: the suggestion says so, and nothing else does.
    EXPECT_EQ(result.errors, "stackplay: tbp: suggest with an empty queue: no moves until a new piece arrives\n");
    // The I (the next piece) filled the row, holding the T; then the held T swapped with the O.
    const Json& state = result.replies[1]["state"];
    EXPECT_EQ(state["hold"], "O");
    EXPECT_EQ(state["queue"], Json::array());
    // The row cleared, and the T lies on the floor.
    const Json empty;
    EXPECT_EQ(state["board"][0], Json::array({empty, empty, empty, "T", "T", "T", empty, empty, empty, empty}));
    EXPECT_EQ(state["board"][1][4], "T");
    EXPECT_EQ(state["board"][1][3], empty);
    EXPECT_TRUE(result.replies[1]["moves"].empty());  // no piece left to place
}

namespace {

std::string start_json(const std::string& hold, const std::string& queue,
                       const std::string& board = empty_board_json()) {
    return R"({"type":"start","hold":)" + hold + R"(,"queue":)" + queue + R"(,"combo":0,"back_to_back":false,"board":)"
           + board + "}\n";
}

std::string play_json(const std::string& piece, int x, int y) {
    return R"({"type":"play","move":{"location":{"type":")" + piece + R"(","orientation":"north","x":)"
           + std::to_string(x) + ",\"y\":" + std::to_string(y) + R"(},"spin":"none"}})" + "\n";
}

}  // namespace

// Without --hold the bot never suggests holding, but it follows a frontend
// that holds: a start with a held piece, a play of the held piece (a swap)
// and, with the hold empty, a play of the next piece (the current one goes
// into the hold).
TEST(BotProtocol, WithoutHoldItFollowsAFrontendThatHolds) {
    const BotRun result =
        run(start_json(R"("T")", R"(["I","O","S"])") + "{\"type\":\"suggest\"}\n" + play_json("T", 4, 0)
            + "{\"type\":\"suggest\"}\n" + start_json("null", R"(["T","I","O"])") + play_json("I", 4, 0)
            + "{\"type\":\"suggest\"}\n");
    EXPECT_EQ(result.errors, "");
    ASSERT_EQ(result.replies.size(), 4u) << result.errors;  // info and three suggestions
    const Json& first = result.replies[1];
    EXPECT_EQ(first["state"]["hold"], "T");
    ASSERT_FALSE(first["moves"].empty());
    for (const Json& move : first["moves"])
        EXPECT_EQ(move["location"]["type"], "I") << "the bot itself never holds without --hold";
    // The held T was placed; the I went into the hold.
    const Json& second = result.replies[2]["state"];
    EXPECT_EQ(second["hold"], "I");
    EXPECT_EQ(second["queue"], Json::array({"O", "S"}));
    EXPECT_EQ(second["board"][0][4], "T");
    EXPECT_EQ(second["board"][1][4], "T");
    EXPECT_EQ(result.replies[2]["moves"][0]["location"]["type"], "O");
    // A new game with the hold empty: the I (the next piece) was placed, the T held.
    const Json& third = result.replies[3]["state"];
    EXPECT_EQ(third["hold"], "T");
    EXPECT_EQ(third["queue"], Json::array({"O"}));
    EXPECT_EQ(third["board"][0][3], "I");
    EXPECT_EQ(third["board"][0][6], "I");
}

// A start whose queue is empty is a position with nothing to place: it is
// taken, with a line saying so, and each suggestion until a new piece
// arrives forfeits with a line. A start with no queue at all is refused
// with a line naming the field, and the bot waits for a good start.
TEST(BotProtocol, AnEmptyOrMissingQueueIsSaidNotSilent) {
    const BotRun empty = run(start_json("null", "[]") + "{\"type\":\"suggest\"}\n"
                             + R"({"type":"new_piece","piece":"T"})" + "\n{\"type\":\"suggest\"}\n");
    ASSERT_EQ(empty.replies.size(), 3u) << empty.errors;
    EXPECT_TRUE(empty.replies[1]["moves"].empty());
    EXPECT_EQ(empty.replies[2]["moves"][0]["location"]["type"], "T");
    EXPECT_EQ(std::count(empty.errors.begin(), empty.errors.end(), '\n'), 2) << empty.errors;
    EXPECT_NE(empty.errors.find("start has an empty queue: no suggestion until a new piece arrives"), std::string::npos)
        << empty.errors;
    EXPECT_NE(empty.errors.find("suggest with an empty queue"), std::string::npos) << empty.errors;

    const std::string no_queue = R"({"type":"start","hold":null,"board":)" + empty_board_json() + "}\n";
    const BotRun missing =
        run(no_queue + "{\"type\":\"suggest\"}\n" + start_json("null", R"(["S"])") + "{\"type\":\"suggest\"}\n");
    ASSERT_EQ(missing.replies.size(), 3u) << missing.errors;
    EXPECT_TRUE(missing.replies[1]["moves"].empty());
    EXPECT_EQ(missing.replies[2]["moves"][0]["location"]["type"], "S");  // alive, and the good start taken
    EXPECT_EQ(std::count(missing.errors.begin(), missing.errors.end(), '\n'), 2) << missing.errors;
    EXPECT_NE(missing.errors.find(R"(start: no "queue" field)"), std::string::npos) << missing.errors;
    EXPECT_NE(missing.errors.find("suggest after a start it could not use"), std::string::npos) << missing.errors;
}

// A spawn blocked (columns 3-5 filled through row 20, the spawn's): the
// suggestion has no moves (a forfeit) and one line says why; with --hold it
// names the hold's piece too.
TEST(BotProtocol, ABlockedSpawnForfeitsWithALine) {
    std::string board = "[";
    for (int y = 0; y < 40; ++y)
        board += std::string(y ? "," : "")
                 + (y <= DefaultSpawnRow ? R"([null,null,null,"G","G","G",null,null,null,null])"
                           : "[null,null,null,null,null,null,null,null,null,null]");
    board += "]";
    const BotRun alone = run(start_json("null", R"(["T"])", board) + "{\"type\":\"suggest\"}\n");
    ASSERT_EQ(alone.replies.size(), 2u) << alone.errors;
    EXPECT_TRUE(alone.replies[1]["moves"].empty());
    EXPECT_EQ(std::count(alone.errors.begin(), alone.errors.end(), '\n'), 1) << alone.errors;
    EXPECT_NE(alone.errors.find("the spawn of T is blocked: forfeiting"), std::string::npos) << alone.errors;
    const BotRun held = run(start_json("null", R"(["T","I"])", board) + "{\"type\":\"suggest\"}\n", true);
    ASSERT_EQ(held.replies.size(), 2u) << held.errors;
    EXPECT_TRUE(held.replies[1]["moves"].empty());
    EXPECT_NE(held.errors.find("the spawns of T and of the hold's I are blocked: forfeiting"), std::string::npos)
        << held.errors;
}

// After stop, a play, a new piece and a suggestion are answered as without
// a position, and the lines say the game was stopped, not "before start".
TEST(BotProtocol, AfterStopTheLinesSayTheGameStopped) {
    const BotRun result = run(start_json("null", R"(["T","I"])") + "{\"type\":\"stop\"}\n" + play_json("T", 4, 0)
                              + R"({"type":"new_piece","piece":"O"})" + "\n{\"type\":\"suggest\"}\n");
    ASSERT_EQ(result.replies.size(), 2u) << result.errors;
    EXPECT_TRUE(result.replies[1]["moves"].empty());
    EXPECT_EQ(std::count(result.errors.begin(), result.errors.end(), '\n'), 3) << result.errors;
    EXPECT_NE(result.errors.find("play after stop: waiting for a start"), std::string::npos) << result.errors;
    EXPECT_NE(result.errors.find("new_piece after stop"), std::string::npos) << result.errors;
    EXPECT_NE(result.errors.find("suggest after stop"), std::string::npos) << result.errors;
    EXPECT_EQ(result.errors.find("before start"), std::string::npos) << result.errors;
}

// The guideline spawns in rows 21-22 (20-21 from 0): a cell at (4, 19),
// under the spawn, leaves the T a move there; under the older rule (the
// centre in row 19) it blocks the spawn and the bot forfeits.
TEST(BotProtocol, PiecesSpawnWhereTheGuidelineSpawnsThem) {
    std::string board = "[";
    for (int y = 0; y < 40; ++y) {
        std::string row = "[null,null,null,null,null,null,null,null,null,null]";
        if (y == 19)
            row = "[null,null,null,null,\"G\",null,null,null,null,null]";
        else if (y < 19)
            row = "[\"G\",\"G\",\"G\",\"G\",\"G\",null,\"G\",\"G\",\"G\",\"G\"]";  // a shaft in column 5
        board += std::string(y ? "," : "") + row;
    }
    board += "]";
    const std::string input = start_json("null", R"(["T"])", board) + "{\"type\":\"suggest\"}\n";
    const BotRun guideline = run(input);
    ASSERT_EQ(guideline.replies.size(), 2u) << guideline.errors;
    EXPECT_FALSE(guideline.replies[1]["moves"].empty()) << guideline.errors;
    EXPECT_EQ(guideline.errors, "");
    const BotRun older = run(input, false, 0, 0, 19);
    ASSERT_EQ(older.replies.size(), 2u) << older.errors;
    EXPECT_TRUE(older.replies[1]["moves"].empty());
    EXPECT_NE(older.errors.find("the spawn of T is blocked"), std::string::npos) << older.errors;
}

// Under the guideline's lock-out (--lock-out) no suggestion lies wholly
// above the visible 20 rows: columns 0-8 filled through row 19, column 9
// empty, an O fits only on top (a lock-out: the bot forfeits, saying so),
// and of a T only the placements that reach into column 9 are offered.
TEST(BotProtocol, UnderLockOutNoSuggestionLiesWhollyAboveTheField) {
    std::string board = "[";
    for (int y = 0; y < 40; ++y)
        board += std::string(y ? "," : "")
                 + (y < VisibleRows ? R"(["G","G","G","G","G","G","G","G","G",null])"
                                    : "[null,null,null,null,null,null,null,null,null,null]");
    board += "]";
    const std::string o = start_json("null", R"(["O"])", board) + "{\"type\":\"suggest\"}\n";
    EXPECT_FALSE(run(o).replies[1]["moves"].empty());
    const BotRun o_locked = run(o, false, 0, 0, DefaultSpawnRow, true);
    EXPECT_TRUE(o_locked.replies[1]["moves"].empty());
    EXPECT_NE(o_locked.errors.find("no placement of O with a cell below row 20 is reachable"), std::string::npos)
        << o_locked.errors;
    const std::string t = start_json("null", R"(["T"])", board) + "{\"type\":\"suggest\"}\n";
    const BotRun t_free = run(t), t_locked = run(t, false, 0, 0, DefaultSpawnRow, true);
    ASSERT_FALSE(t_locked.replies[1]["moves"].empty()) << t_locked.errors;
    EXPECT_LT(t_locked.replies[1]["moves"].size(), t_free.replies[1]["moves"].size());
    for (const Json& move : t_locked.replies[1]["moves"])  // a T reaching into column 9: its centre at x 8 or 9
        EXPECT_GE(move["location"]["x"].get<int>(), 8) << move;
}

// A move's spin is none, mini or full; anything else is a bad move, and
// the position stays.
TEST(BotProtocol, AnUnknownSpinIsRefused) {
    const BotRun result = run(
        start_json("null", R"(["T","I"])")
        + R"({"type":"play","move":{"location":{"type":"T","orientation":"north","x":4,"y":0},"spin":"double"}})"
          "\n{\"type\":\"suggest\"}\n");
    ASSERT_EQ(result.replies.size(), 2u) << result.errors;
    EXPECT_NE(result.errors.find("play: the spin is not none, mini or full"), std::string::npos) << result.errors;
    EXPECT_EQ(result.replies[1]["state"]["queue"], Json::array({"T", "I"}));
}

// A start the bot cannot use leaves no trace of the position before it:
// the next suggestion's state is empty, not the last good start's.
TEST(BotProtocol, ARejectedStartLeavesNoStaleState) {
    const BotRun result = run(start_json("\"O\"", R"(["T","I"])")
                              + R"({"type":"start","hold":null,"queue":["S"],"board":[[null]]})"
                                "\n{\"type\":\"suggest\"}\n");
    ASSERT_EQ(result.replies.size(), 2u) << result.errors;
    const Json& state = result.replies[1]["state"];
    EXPECT_TRUE(result.replies[1]["moves"].empty());
    EXPECT_EQ(state["queue"], Json::array());
    EXPECT_TRUE(state["hold"].is_null());
    EXPECT_NE(result.errors.find("suggest after a start it could not use"), std::string::npos) << result.errors;
}

// JSON leaves a key given twice undefined: such a line is refused whole.
// A refused line that names "start" as its type is a refused start: it
// clears the position, whatever else it names.
TEST(BotProtocol, AKeyGivenTwiceIsRefused) {
    const BotRun result = run(
        start_json("null", R"(["T","I"])")
        + R"({"type":"play","move":{"location":{"type":"T","orientation":"north","x":4,"x":0,"y":0},"spin":"none"}})"
          "\n"
          R"({"type":"start","type":"quit"})"
          "\n{\"type\":\"suggest\"}\n");
    ASSERT_EQ(result.replies.size(), 2u) << result.errors;
    EXPECT_NE(result.errors.find("line 2: the key \"x\" is given twice"), std::string::npos) << result.errors;
    EXPECT_NE(result.errors.find("line 3: the key \"type\" is given twice"), std::string::npos) << result.errors;
    EXPECT_EQ(result.replies[1]["state"]["queue"], Json::array());
    EXPECT_TRUE(result.replies[1]["moves"].empty());
}

namespace {

// A suggestion of no moves for want of a position: no moves, an empty
// state, and a reason.
void expect_no_position(const Json& suggestion, const std::string& errors) {
    EXPECT_EQ(suggestion["type"], "suggestion");
    EXPECT_TRUE(suggestion["moves"].empty()) << suggestion["moves"];
    EXPECT_EQ(suggestion["state"]["queue"], Json::array());
    EXPECT_TRUE(suggestion["state"]["hold"].is_null());
    EXPECT_TRUE(suggestion.contains("reason") && suggestion["reason"].is_string()) << errors;
}

const std::string Suggest = "{\"type\":\"suggest\"}\n";

}  // namespace

// Issue 60: a start refused before it is parsed (a key given twice, a line
// over 1 MB, JSON cut short) left the last game in place, and the next
// suggestion answered for it ("L north x=8"). Every refused start clears.
TEST(BotProtocol, EveryRefusedStartClearsThePosition) {
    const std::string first = start_json("null", R"(["L","J"])");
    const std::string board = empty_board_json();
    const std::vector<std::string> refused = {
        R"({"type":"start","hold":null,"queue":["S","Z"],"queue":["S","Z"],"board":)" + board + "}\n",
        R"({"type":"start","hold":null,"queue":["S","Z"],"board":)" + board.substr(0, 200) + "\n",
        R"({"type":"start","hold":null,"queue":["S","Z"],"pad":")" + std::string((1 << 20) + 10, 'x')
            + R"(","board":)" + board + "}\n",
    };
    for (const std::string& line : refused) {
        const BotRun result = run(first + line + Suggest);
        ASSERT_EQ(result.replies.size(), 2u) << result.errors;
        expect_no_position(result.replies[1], result.errors);
        EXPECT_NE(result.errors.find("line 2: "), std::string::npos) << result.errors;
    }
    // A line whose type cannot be read is no start: the game goes on.
    const BotRun unread = run(first + "{\"queue\":[\"S\"\n" + Suggest);
    ASSERT_EQ(unread.replies.size(), 2u) << unread.errors;
    EXPECT_EQ(unread.replies[1]["state"]["queue"], Json::array({"L", "J"}));
}

// Issue 60: x or y of exactly 2^63 was read as 0 and the move placed there
// (a T east at x=0; a T north at y=0, on the floor). Every integer outside
// +-1000 is refused, whatever its size.
TEST(BotProtocol, ACoordinateOutsideAThousandIsRefusedWhateverItsSize) {
    for (const char* huge : {"9223372036854775808", "18446744073709551615", "18446744073709551616",
                                    "-9223372036854775808", "-9223372036854775809", "1001", "-1001"})
        for (const bool on_x : {true, false}) {
            const std::string x = on_x ? huge : "4", y = on_x ? "1" : huge;
            const BotRun result = run(start_json("null", R"(["T","I"])")
                                      + R"({"type":"play","move":{"location":{"type":"T","orientation":")"
                                      + (on_x ? "east" : "north") + R"(","x":)" + x + ",\"y\":" + y
                                      + R"(},"spin":"none"}})" + "\n" + Suggest);
            ASSERT_EQ(result.replies.size(), 2u) << result.errors;
            const Json& state = result.replies[1]["state"];
            EXPECT_EQ(state["queue"], Json::array({"T", "I"})) << huge << (on_x ? " as x" : " as y");
            EXPECT_TRUE(state["board"][0][on_x ? 0 : 4].is_null()) << huge;
            EXPECT_NE(result.errors.find(on_x ? "x is not" : "y is not"), std::string::npos) << result.errors;
        }
}

// Issue 60: a suggest on a line the bot refuses got no reply, so the
// frontend waited forever. Every suggest gets a suggestion: a refused one
// has no moves and says why; one padded past 1 MB by an attribute the
// protocol ignores is a good suggest, answered as any, with its type before
// the padding or after it.
TEST(BotProtocol, EverySuggestIsAnswered) {
    const std::string game = start_json("null", R"(["T","I"])");
    const std::string pad = std::string((1 << 20) + 10, 'x');
    for (const std::string& line : {std::string(R"({"type":"suggest","type":"play"})"), std::string(R"({"type":"suggest")"),
                                    R"({"type":"suggest","type":"suggest","pad":")" + pad + "\"}",
                                    R"({"type":"suggest","pad":")" + pad + R"(","type":"play"})"}) {
        const BotRun result = run(game + line + "\n");
        ASSERT_EQ(result.replies.size(), 2u) << result.errors;
        EXPECT_EQ(result.replies[1]["type"], "suggestion");
        EXPECT_TRUE(result.replies[1]["moves"].empty());
        EXPECT_NE(result.replies[1]["reason"].get<std::string>().find("line 2: "), std::string::npos)
            << result.replies[1]["reason"];
        EXPECT_EQ(result.replies[1]["state"]["queue"], Json::array({"T", "I"}));  // a suggest changes nothing
    }
    for (const std::string& line :
         {R"({"type":"suggest","pad":")" + pad + "\"}", R"({"pad":")" + pad + R"(","move":{"type":"T"},"type":"suggest"})"}) {
        const BotRun padded = run(game + line + "\n" + Suggest);
        ASSERT_EQ(padded.replies.size(), 3u) << padded.errors;
        EXPECT_EQ(padded.replies[1]["moves"], padded.replies[2]["moves"]);
        EXPECT_EQ(padded.replies[1]["moves"][0]["location"]["type"], "T");
        EXPECT_EQ(padded.errors, "");
    }
}

// Issue 60: "spin": null is an absent spin (none), as a play without one;
// stop empties the suggestion's state as a refused start does.
TEST(BotProtocol, ANullSpinIsNoneAndStopClearsTheState) {
    const BotRun result = run(
        start_json("null", R"(["T","I"])")
        + R"({"type":"play","move":{"location":{"type":"T","orientation":"north","x":4,"y":0},"spin":null}})"
          "\n"
        + Suggest + "{\"type\":\"stop\"}\n" + Suggest);
    ASSERT_EQ(result.replies.size(), 3u) << result.errors;
    EXPECT_EQ(result.replies[1]["state"]["queue"], Json::array({"I"})) << result.errors;
    EXPECT_EQ(result.replies[1]["state"]["board"][0][4], "T");
    expect_no_position(result.replies[2], result.errors);
    EXPECT_NE(result.errors.find("suggest after stop"), std::string::npos) << result.errors;
}

}  // namespace stack::tetris
