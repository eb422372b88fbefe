// Hold in the search, the decision's plan, SRS centres and the Tetris Bot
// Protocol bot: each against a plain restatement of its rule.
#include "rules/piece_set.h"
#include "rules/pieces.h"
#include "rules/rules.h"
#include "srs/centre.h"
#include "tetris/bot_protocol.h"
#include "tetris/decision.h"
#include "tetris/game.h"
#include "tetris/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace stack::tetris {

namespace {

struct Kit {
    PieceSet set = PieceSet::builtin("tetrominoes");
    Rules rules{set};
    ShapeSet shapes{set};
    std::vector<double> weights = std::vector<double>(7, 1.0 / 7);
};

const Kit& kit() {
    static const Kit made;
    return made;
}

TetrisBoard random_board(std::mt19937& rng, int width, int height, int rows) {
    TetrisBoard board(width, height);
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < width; ++x)
            if (rng() % 100 < 45)
                board.set(x, y);
    return board;
}

// Hold as the rules say it, by plain recursion: each turn places the
// current piece, or holds first (the held piece is placed and the current
// one held; with the hold empty the next piece is placed). Every line
// places as many pieces as the queue holds: when a line's queue runs out
// with turns left, the held piece is placed (issue 38). The leaf is the
// one-piece policy's score of the last placement, plus, for each earlier
// placement, its landing height and eroded cells weighted as the leaf
// weights them (`order`: those two weights, zero for Lee's).
struct Order {
    double landing = 0, eroded = 0;
};
double plain_best(const TetrisPolicy& leaf, const TetrisBoard& board, std::vector<int> queue, int hold, int turns,
                  double carried, const Order& order);

double plain_after(const TetrisPolicy& leaf, const TetrisBoard& board, int piece, const TetrisPlacement& placement,
                   const std::vector<int>& rest, int hold, int turns, double carried, const Order& order) {
    if (turns == 0) {
        const int only[] = {piece};
        return leaf.score(board, only, placement) + carried;
    }
    TetrisBoard next = board;
    const Shape& shape = kit().shapes.shape(placement.shape);
    const Landing landing = next.place(shape, placement.x, placement.row);
    carried += order.landing * (placement.row + (shape.height - 1) / 2.0) + order.eroded * landing.eroded_cells;
    if (!rest.empty())
        return plain_best(leaf, next, rest, hold, turns, carried, order);
    return plain_best(leaf, next, {hold}, -1, turns, carried, order);
}

// The turns of a position: (piece placed, queue after, hold after).
struct Turn {
    int piece;
    std::vector<int> rest;
    int hold;
    bool held;
};
std::vector<Turn> plain_turns(const std::vector<int>& queue, int hold) {
    std::vector<Turn> turns = {{queue[0], {queue.begin() + 1, queue.end()}, hold, false}};
    if (hold >= 0 && hold != queue[0])
        turns.push_back({hold, {queue.begin() + 1, queue.end()}, queue[0], true});
    if (hold < 0 && queue.size() > 1)
        turns.push_back({queue[1], {queue.begin() + 2, queue.end()}, queue[0], true});
    return turns;
}

double plain_best(const TetrisPolicy& leaf, const TetrisBoard& board, std::vector<int> queue, int hold, int turns,
                  double carried, const Order& order) {
    double top = Lost;
    for (const Turn& turn : plain_turns(queue, hold)) {
        std::array<TetrisPlacement, MostPlacements> placements;
        const int count = generate_placements(kit().shapes, board, turn.piece, MoveSet::HardDrop, placements);
        for (int i = 0; i < count; ++i)
            top = std::max(top, plain_after(leaf, board, turn.piece, placements[std::size_t(i)], turn.rest, turn.hold,
                                            turns - 1, carried, order));
    }
    return top;
}

}  // namespace

TEST(Hold, TurnsFollowTheRules) {
    const std::vector<int> queue = {PieceT, PieceI, PieceSquare};
    EXPECT_EQ(placed_piece(Known{queue, -1}, false), PieceT);
    EXPECT_EQ(placed_piece(Known{queue, -1}, true), PieceI);  // hold empty: the next piece
    EXPECT_EQ(placed_piece(Known{queue, PieceZLeft}, true), PieceZLeft);
    const Known filled = after_turn(Known{queue, -1}, true);
    EXPECT_EQ(filled.hold, PieceT);
    ASSERT_EQ(filled.queue.size(), 1u);
    EXPECT_EQ(filled.queue[0], PieceSquare);
    const Known swapped = after_turn(Known{queue, PieceZLeft}, true);
    EXPECT_EQ(swapped.hold, PieceT);
    EXPECT_EQ(swapped.queue.size(), 2u);
    EXPECT_FALSE(may_hold(Known{queue, PieceT}, true));                             // the same piece: nothing to swap
    EXPECT_FALSE(may_hold(Known{std::span<const int>(queue).first(1), -1}, true));  // no next piece known
    EXPECT_FALSE(may_hold(Known{queue, -1}, false));
}

TEST(Hold, SearchEqualsAPlainRecursion) {
    std::mt19937 rng(2911);
    int compared = 0, held = 0;
    for (const char* name : {"lee", "dellacherie"}) {
        const TetrisPolicy leaf(kit().shapes, parse_tetris_policy(name, 0, 0), kit().weights);
        Order order;
        if (std::string(name) == "dellacherie") {
            const std::vector<double> weights = policy_weights(parse_tetris_policy(name, 0, 0));
            order = {weights[0], weights[1]};
        }
        for (const int preview : {1, 2}) {
            PolicyConfig config = parse_tetris_policy(name, preview, 0);
            config.hold = true;
            const TetrisPolicy policy(kit().shapes, config, kit().weights);
            for (int trial = 0; trial < 8; ++trial) {
                const TetrisBoard board = random_board(rng, 6, 10, 5);
                std::vector<int> queue(std::size_t(preview) + 1);
                for (int& piece : queue)
                    piece = int(rng() % 7);
                const int hold = trial % 2 ? int(rng() % 7) : -1;
                std::vector<TetrisChoice> scored;
                const std::optional<TetrisChoice> choice =
                    policy.choose(board, Known{queue, hold}, 1, nullptr, &scored);
                double top = Lost;
                for (const Turn& turn : plain_turns(queue, hold)) {
                    std::array<TetrisPlacement, MostPlacements> placements;
                    const int count =
                        generate_placements(kit().shapes, board, turn.piece, MoveSet::HardDrop, placements);
                    for (int i = 0; i < count; ++i) {
                        const TetrisPlacement& first = placements[std::size_t(i)];
                        const double expected = plain_after(leaf, board, turn.piece, first, turn.rest, turn.hold,
                                                            int(queue.size()) - 1, 0.0, order);
                        const double got = policy.score(board, Known{queue, hold}, TetrisChoice{first, turn.held, 0});
                        EXPECT_NEAR(got, expected, 1e-9) << name << " preview " << preview << " trial " << trial;
                        top = std::max(top, expected);
                        ++compared;
                    }
                }
                ASSERT_TRUE(choice.has_value());
                EXPECT_NEAR(choice->score, top, 1e-9);
                EXPECT_NEAR(plain_best(leaf, board, queue, hold, int(queue.size()), 0.0, order), top, 1e-9);
                held += choice->hold;
            }
        }
    }
    EXPECT_GT(compared, 500);
    EXPECT_GT(held, 0);  // some choices hold
}

// A game whose pieces are exactly the known ones plays the decision's plan:
// the plan is the search's principal line.
TEST(Decision, PlanIsWhatTheGamePlaysWhenNoPieceIsAdded) {
    std::mt19937 rng(77);
    int planned = 0;
    for (const bool hold : {false, true})
        for (int trial = 0; trial < 6; ++trial) {
            TetrisOptions options;
            options.width = 8;
            options.height = 12;
            options.policy = trial % 2 ? "lee" : "dellacherie";
            options.preview = 3;
            options.hold = hold;
            options.start_board = random_board(rng, 8, 12, 4);
            std::vector<int> pieces(4);
            for (int& piece : pieces)
                piece = int(rng() % 7);
            const TetrisPolicy policy(kit().shapes, policy_config(options), kit().weights);
            std::vector<TetrisChoice> played;
            play_tetris_game(options, kit().rules, kit().shapes, policy, &pieces, 0, 1,
                             [&](const TetrisTurn& turn) { played.push_back(turn.chosen); });
            const Decision decision =
                decide(policy, *options.start_board, Known{pieces, -1}, GameOverRule::Placement, 1);
            ASSERT_EQ(decision.plan.size(), played.size()) << "trial " << trial << " hold " << hold;
            for (std::size_t i = 0; i < played.size(); ++i) {
                EXPECT_EQ(decision.plan[i].placement, played[i].placement) << "piece " << i;
                EXPECT_EQ(decision.plan[i].hold, played[i].hold) << "piece " << i;
            }
            planned += int(played.size());
        }
    EXPECT_GT(planned, 30);
}

// Every plan entry carries `score` and `lost` as `best` does (README: the
// plan's entries are as `best`): on a 3x4 well three O's cannot all fit, so
// the line of play is lost at each of its steps; one O alone is not.
TEST(Decision, PlanEntriesCarryScoreAndLost) {
    const TetrisPolicy policy(kit().shapes, parse_tetris_policy("dellacherie", 2, 0), kit().weights);
    const TetrisBoard board(3, 4);
    const auto document_of = [&](const std::vector<int>& queue) {
        const Known known{queue, -1};
        const Decision decision = decide(policy, board, known, GameOverRule::Placement, 1);
        return decision_json(kit().shapes, policy, board, known, decision, 8);
    };
    const Json lost = document_of({PieceSquare, PieceSquare, PieceSquare});
    ASSERT_EQ(lost["plan"].size(), 2u) << lost.dump();  // the third O has no placement
    EXPECT_EQ(lost["plan"][0], lost["best"]);
    for (const Json& step : lost["plan"]) {
        EXPECT_EQ(step["lost"], true) << step.dump();
        EXPECT_TRUE(step.contains("score") && step["score"].is_null()) << step.dump();
    }
    const Json alone = document_of({PieceSquare});
    ASSERT_EQ(alone["plan"].size(), 1u) << alone.dump();
    EXPECT_EQ(alone["plan"][0], alone["best"]);
    EXPECT_EQ(alone["plan"][0]["lost"], false);
    EXPECT_TRUE(alone["plan"][0]["score"].is_number()) << alone.dump();
}

// The decision's SRS facts claim a spin only with inputs that perform it:
// every T placement SRS reaches on random boards with holes and overhangs,
// its inputs replayed as a game plays them (issue 38: 10 of 971 entries
// said 'mini' beside inputs that lock with none).
TEST(Decision, SrsSpinIsWhatItsInputsPerform) {
    std::mt19937 rng(38);
    int spins = 0, checked = 0;
    for (int trial = 0; trial < 120; ++trial) {
        const TetrisBoard board = random_board(rng, 10, 20, 2 + int(rng() % 10));
        std::array<TetrisPlacement, MostPlacements> placements{};
        const int count = generate_placements(kit().shapes, board, PieceT, MoveSet::BreadthFirst, placements);
        for (int i = 0; i < count; ++i) {
            const std::optional<SrsFacts> facts = srs_facts(kit().shapes, board, placements[std::size_t(i)], -1);
            ASSERT_TRUE(facts.has_value());
            const auto played = moves::replay(srs_board(board), PieceT, facts->inputs);
            ASSERT_TRUE(played.has_value()) << facts->inputs;
            EXPECT_EQ(played->cells, placement_cells(kit().shapes.shape(placements[std::size_t(i)].shape),
                                                     placements[std::size_t(i)]));
            EXPECT_EQ(spin_name(played->spin), std::string(spin_name(facts->reached)))
                << "trial " << trial << " inputs " << facts->inputs;
            spins += facts->reached != moves::ReachedPlain;
            ++checked;
        }
    }
    EXPECT_GT(spins, 20);
    EXPECT_GT(checked, 3000);
}

TEST(Decision, RankedChoicesStartWithTheChoice) {
    std::mt19937 rng(5);
    PolicyConfig config = parse_tetris_policy("dellacherie", 1, 0);
    const TetrisPolicy policy(kit().shapes, config, kit().weights);
    const TetrisBoard board = random_board(rng, 10, 20, 6);
    const std::vector<int> queue = {PieceT, PieceI};
    const Decision decision = decide(policy, board, Known{queue, -1}, GameOverRule::Placement, 1);
    ASSERT_TRUE(decision.choice);
    ASSERT_FALSE(decision.ranked.empty());
    EXPECT_EQ(decision.ranked.front().placement, decision.choice->placement);
    for (std::size_t i = 1; i < decision.ranked.size(); ++i)
        EXPECT_GE(decision.ranked[i - 1].score, decision.ranked[i].score);
}

// The protocol's centres (tbp-spec): T, S, Z, J, L turn about their box's
// centre; I north is its middle-left cell, O north its bottom-left.
TEST(SrsCentre, MatchesTheProtocolsDefinition) {
    using moves::box_of;
    using moves::cells_at;
    const moves::Cells i_north = cells_at(PieceI, box_of(PieceI, 0, 4, 19));
    EXPECT_EQ(i_north, (moves::Cells{{{3, 19}, {4, 19}, {5, 19}, {6, 19}}}));
    const moves::Cells i_east = cells_at(PieceI, box_of(PieceI, 1, 4, 19));  // the middle-top cell
    EXPECT_EQ(i_east, (moves::Cells{{{4, 17}, {4, 18}, {4, 19}, {4, 20}}}));
    const moves::Cells o_north = cells_at(PieceSquare, box_of(PieceSquare, 0, 4, 19));
    EXPECT_EQ(o_north, (moves::Cells{{{4, 19}, {4, 20}, {5, 19}, {5, 20}}}));
    const moves::Cells o_south = cells_at(PieceSquare, box_of(PieceSquare, 2, 4, 19));  // the top-right cell
    EXPECT_EQ(o_south, (moves::Cells{{{3, 18}, {3, 19}, {4, 18}, {4, 19}}}));
    const moves::Cells t_west = cells_at(PieceT, box_of(PieceT, 3, 4, 19));
    EXPECT_EQ(t_west, (moves::Cells{{{3, 19}, {4, 18}, {4, 19}, {4, 20}}}));
    for (int piece = 0; piece < 7; ++piece)
        for (int rotation = 0; rotation < 4; ++rotation) {
            const moves::Location box = box_of(static_cast<Piece>(piece), rotation, 5, 7);
            EXPECT_EQ(moves::centre_of(static_cast<Piece>(piece), box), std::make_pair(5, 7));
            EXPECT_EQ(moves::orientation_of(moves::orientation_name(rotation)), rotation);
        }
    // The guideline spawn (srs/moves.h's spawn_row 19) has its centre at (4, 19).
    moves::MoveOptions options;
    options.spawn_row = 19;
    for (const Piece piece : {PieceT, PieceI, PieceSquare, PieceZLeft})
        EXPECT_EQ(moves::centre_of(piece, *moves::spawn_location(moves::SrsBoard(10, 40), piece, options)),
                  std::make_pair(4, 19));
}

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

BotRun run(const std::string& input, bool hold = false, int preview = 0, std::uint64_t budget_leaves = 0) {
    BotOptions options;
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

// A spawn blocked (columns 3-5 filled up to row 19, under the spawn): the
// suggestion has no moves (a forfeit) and one line says why; with --hold it
// names the hold's piece too.
TEST(BotProtocol, ABlockedSpawnForfeitsWithALine) {
    std::string board = "[";
    for (int y = 0; y < 40; ++y)
        board += std::string(y ? "," : "")
                 + (y < 20 ? R"([null,null,null,"G","G","G",null,null,null,null])"
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

}  // namespace stack::tetris
