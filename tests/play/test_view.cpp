#include "support/json.h"
#include "rules/rules.h"
#include "play_support.h"
#include "stacking/view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace stack {

// The JSON of a game, printed and parsed back, holds the same chain of
// boards and values as the game itself.
TEST(GameJson, PrintsAndParsesBackToTheSameGame) {
    const StackTable table = testing::reference_table();
    const Geometry& geometry = table.geometry();
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    const ShownGame game = show_game(*policy, table, 0, 7);
    const Json parsed = Json::parse(json_text(game_json(game, geometry)));
    ASSERT_EQ(parsed["turns"].size(), game.turns.size());
    EXPECT_EQ(parsed["pieces_placed"].get<std::uint32_t>(), game.placed);
    for (std::size_t t = 0; t < game.turns.size(); ++t) {
        const Json& turn = parsed["turns"][t];
        EXPECT_EQ(turn["id_before"].get<BoardId>(), game.turns[t].before_id);
        EXPECT_EQ(turn["value_before"].get<double>(), table.value(game.turns[t].before_id));  // bits survive the text
        EXPECT_EQ(turn["fits"].get<bool>(), t + 1 < game.turns.size());
        if (t + 1 < game.turns.size()) {
            EXPECT_EQ(turn["id_after"].get<BoardId>(), parsed["turns"][t + 1]["id_before"].get<BoardId>());
        }
    }
}

TEST(ShowGame, FramesAddFourCellsOfTheDrawnPieceEachTurn) {
    const StackTable table = testing::reference_table();
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    const BoardId start = geometry.encode(geometry.parse_heights("1,0,2,0"));
    const ShownGame game = show_game(*policy, table, start, 4);
    ASSERT_EQ(game.turns.size(), game.placed + 1u);  // the last turn's piece does not fit
    EXPECT_LT(game.turns.back().move.orientation, 0);
    auto count = [](const std::vector<std::string>& well, char letter) {
        int cells = 0;
        for (const std::string& row : well)
            cells += int(std::count(row.begin(), row.end(), letter));
        return cells;
    };
    std::map<char, int> placed_cells;
    for (std::size_t t = 0; t + 1 < game.turns.size(); ++t) {
        const ShownTurn& turn = game.turns[t];
        placed_cells[piece_letter(Piece(turn.piece))] += stack::TetrominoCells;
        EXPECT_EQ(count(turn.well, '#'), 3);
        for (const auto& [letter, cells] : placed_cells)
            EXPECT_EQ(count(turn.well, letter), cells) << "turn " << turn.number;
        EXPECT_EQ(turn.value_before, table.value(turn.before_id));
        EXPECT_EQ(turn.value_after, table.value(turn.move.successor));
        EXPECT_EQ(game.turns[t + 1].before_id, turn.move.successor);
        // each drawn column is filled exactly up to the board's height
        const Heights after = geometry.decode(turn.move.successor);
        for (int x = 0; x < 4; ++x)
            for (int row = 0; row < geometry.height(); ++row)  // row 0 at the bottom
                EXPECT_EQ(turn.well[geometry.height() - 1 - row][x] != '.', row < after[x]);
    }
    const std::string text = format_game(game, geometry);
    EXPECT_NE(text.find(std::to_string(game.placed) + " pieces placed"), std::string::npos);
}

TEST(ExplainBoard, ListsEveryPlacementBestFirstStartingWithTheTablePolicysChoice) {
    const StackTable table = testing::reference_table();
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    const Heights heights = geometry.parse_heights("3,6,8,7");
    const BoardId id = geometry.encode(heights);
    const Explanation explanation = explain_board(placements, table, id);
    EXPECT_EQ(explanation.value, table.value(id));
    std::array<int, PieceCount> valid{};
    for (int o = 0; o < stack::Rules::tetrominoes().orientation_count(); ++o)
        for (int x = 0; x + stack::Rules::tetrominoes().orientation(o).width <= 4; ++x)
            valid[stack::Rules::tetrominoes().orientation(o).piece] += placements.fits(heights, o, x);
    for (int piece = 0; piece < PieceCount; ++piece) {
        const auto& options = explanation.options[piece];
        ASSERT_EQ(int(options.size()), valid[piece]) << piece;
        for (std::size_t i = 1; i < options.size(); ++i)
            EXPECT_GE(options[i - 1].value, options[i].value);
        const Move chosen = policy->choose(Turn{heights, id, Piece(piece), {}, nullptr});
        if (options.empty()) {
            EXPECT_LT(chosen.orientation, 0);
        } else {
            EXPECT_EQ(options[0].orientation, chosen.orientation);
            EXPECT_EQ(options[0].column, chosen.column);
            EXPECT_EQ(options[0].value, table.value(chosen.successor));
        }
    }
}

// --explain, --show and the web API name rotations as SRS does (0 spawn,
// R, 2, L): on 1,0,0,0 the flat T hard-dropped with no turn is rotation 0,
// the stem-left T (column 0 up 1, column 1 up 3) is L, and the upright I
// that a counter-clockwise turn reaches (inputs wH) is L, not R.
TEST(ExplainBoard, NamesRotationsAsSrsDoes) {
    const StackTable table = testing::reference_table();
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const Explanation explanation = explain_board(placements, table, geometry.encode(geometry.parse_heights("1,0,0,0")));
    const std::string text = format_explanation(explanation, geometry);
    EXPECT_NE(text.find("T rotation 0 at column 1   -> 1,1,2,1"), std::string::npos) << text;
    EXPECT_NE(text.find("T rotation L at column 0   -> 2,3,0,0"), std::string::npos) << text;
    EXPECT_NE(text.find("I rotation L at column 1   -> 1,4,0,0                  inputs wH"), std::string::npos)
        << text;
    const Json json = explanation_json(explanation, geometry);
    for (const Json& placement : json["pieces"][std::size_t(PieceT)]["placements"]) {
        const bool flat = placement["successor_heights"] == Json(std::vector<int>{1, 1, 2, 1});
        EXPECT_EQ(placement["rotation"].get<int>(), flat ? 0 : 3);
        EXPECT_EQ(placement["rotation_name"].get<std::string>(), flat ? "0" : "L");
    }
}

TEST(RotationOf, CountsWithinThePiece) {
    EXPECT_EQ(Rules::tetrominoes().rotation(0), 0);   // I flat
    EXPECT_EQ(Rules::tetrominoes().rotation(1), 1);   // I upright
    EXPECT_EQ(Rules::tetrominoes().rotation(6), 0);   // the square's only orientation
    EXPECT_EQ(Rules::tetrominoes().rotation(18), 3);  // the last J
}

}  // namespace stack
