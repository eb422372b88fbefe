// The decision's plan, ranking and SRS facts (tetris/decision.h): each
// against a plain restatement of its rule.
#include "rules/pieces.h"
#include "srs/moves.h"
#include "tetris/decision.h"
#include "tetris/game.h"
#include "tetris/search.h"
#include "tetris_support.h"

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace stack::tetris {

using namespace stack::tetris::testing;

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
            const TetrisPolicy policy(tetrominoes().shapes, policy_config(options), tetrominoes().weights);
            std::vector<TetrisChoice> played;
            play_tetris_game(options, tetrominoes().rules, tetrominoes().shapes, policy, &pieces, 0, 1,
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
    const TetrisPolicy policy(tetrominoes().shapes, parse_tetris_policy("dellacherie", 2, 0), tetrominoes().weights);
    const TetrisBoard board(3, 4);
    const auto document_of = [&](const std::vector<int>& queue) {
        const Known known{queue, -1};
        const Decision decision = decide(policy, board, known, GameOverRule::Placement, 1);
        return decision_json(tetrominoes().shapes, policy, board, known, decision, 8);
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
        const int count = generate_placements(tetrominoes().shapes, board, PieceT, MoveSet::BreadthFirst, placements);
        for (int i = 0; i < count; ++i) {
            const std::optional<SrsFacts> facts =
                srs_facts(tetrominoes().shapes, board, placements[std::size_t(i)], -1);
            ASSERT_TRUE(facts.has_value());
            const auto played = moves::replay(srs_board(board), PieceT, facts->inputs);
            ASSERT_TRUE(played.has_value()) << facts->inputs;
            EXPECT_EQ(played->cells, placement_cells(tetrominoes().shapes.shape(placements[std::size_t(i)].shape),
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
    const TetrisPolicy policy(tetrominoes().shapes, config, tetrominoes().weights);
    const TetrisBoard board = random_board(rng, 10, 20, 6);
    const std::vector<int> queue = {PieceT, PieceI};
    const Decision decision = decide(policy, board, Known{queue, -1}, GameOverRule::Placement, 1);
    ASSERT_TRUE(decision.choice);
    ASSERT_FALSE(decision.ranked.empty());
    EXPECT_EQ(decision.ranked.front().placement, decision.choice->placement);
    for (std::size_t i = 1; i < decision.ranked.size(); ++i)
        EXPECT_GE(decision.ranked[i - 1].score, decision.ranked[i].score);
}

}  // namespace stack::tetris
