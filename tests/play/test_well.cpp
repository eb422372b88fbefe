// The well policies (tetris/well.h): a clean board, the banked rows, the
// table's judgement of a contour, the well policy's choice against a plain
// search on the grid oracles, its fallback, and the well-builder's
// features.
#include "../naive_solver.h"
#include "rules/pieces.h"
#include "support/errors.h"
#include "table/stack_table.h"
#include "tetris/search.h"
#include "tetris/well.h"
#include "tetris_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

namespace stack::tetris {

using namespace stack::tetris::testing;

namespace {

constexpr int TableWidth = 4, TableHeight = 8;  // the board is 5 wide, its well the left column

// The exact 4x8 table, from the naive solver (tests/naive_solver.h).
const StackTable& exact_table() {
    static const StackTable table = [] {
        const std::vector<double> values = stack::testing::naive_solve(TableWidth, TableHeight).values;
        return StackTable::in_memory(Geometry(TableWidth, TableHeight),
                                     HugeVector<double>(values.begin(), values.end()));
    }();
    return table;
}

// A grid `height` rows tall from column heights (hole-free), well column
// included.
Grid grid_of_heights(const std::vector<int>& heights, int height) {
    Grid g(std::size_t(height), std::vector<bool>(heights.size(), false));
    for (std::size_t x = 0; x < heights.size(); ++x)
        for (int y = 0; y < heights[x]; ++y)
            g[std::size_t(y)][x] = true;
    return g;
}

// The oracles, on the grid: clean is the well column empty and every
// column's cells contiguous from the floor; the value is the table's of the
// heights beside the well (with `banked`, less 4 x floor(lowest / 4)),
// when they fit it.
bool naive_clean(const Grid& g, int well) {
    for (int x = 0; x < grid_width(g); ++x) {
        const int h = naive_column_height(g, x);
        if (x == well && h > 0)
            return false;
        for (int y = 0; y < h; ++y)
            if (!at(g, x, y))
                return false;
    }
    return true;
}

std::optional<double> naive_value(const Grid& g, int well, bool banked = false) {
    if (!naive_clean(g, well))
        return std::nullopt;
    std::vector<int> beside;
    for (int x = 0; x < grid_width(g); ++x)
        if (x != well)
            beside.push_back(naive_column_height(g, x));
    const int rows = banked ? *std::min_element(beside.begin(), beside.end()) / 4 * 4 : 0;
    Heights heights{};
    for (std::size_t i = 0; i < beside.size(); ++i) {
        heights[i] = beside[i] - rows;
        if (heights[i] > TableHeight)
            return std::nullopt;
    }
    return exact_table().value(exact_table().geometry().encode(heights));
}

// A random clean board 5 wide: the well empty, the other columns random
// heights from 0 to `most` (class 0: the sum a multiple of 4).
std::vector<int> random_clean_heights(std::mt19937& random, int most = 9) {
    for (;;) {
        std::vector<int> heights = {0};
        int sum = 0;
        for (int x = 0; x < TableWidth; ++x) {
            heights.push_back(int(random() % unsigned(most + 1)));
            sum += heights.back();
        }
        if (sum % 4 == 0)
            return heights;
    }
}

// The well policy with its three tiers (a line kept clean within the
// table; the current piece alone; the fallback); `past_ceiling` adds the
// banked contour's tier before the fallback (search.h), which the policy
// plays by default.
PolicyConfig well_config(int preview, bool past_ceiling = false) {
    PolicyConfig config = parse_tetris_policy("well", preview, 0);
    config.past_ceiling_banked = past_ceiling;
    return config;
}

}  // namespace

TEST(WellBoard, CleanMeansAnEmptyWellAndNoHole) {
    EXPECT_TRUE(is_clean(TetrisBoard(5, 12), 0));
    EXPECT_TRUE(is_clean(board_of(grid_of_heights({0, 3, 1, 4, 2}, 12)), 0));
    EXPECT_FALSE(is_clean(board_of(grid_of_heights({1, 3, 1, 4, 2}, 12)), 0));  // the well filled
    EXPECT_TRUE(is_clean(board_of(grid_of_heights({1, 3, 1, 4, 0}, 12)), 4));   // a well on the right
    Grid hole = grid_of_heights({0, 3, 1, 4, 2}, 12);
    hole[1][3] = false;  // under column 3's top
    EXPECT_FALSE(is_clean(board_of(hole), 0));
}

TEST(WellBoard, BankedRowsAreWholeTetrisesUnderTheLowestColumn) {
    EXPECT_EQ(banked_rows(board_of(grid_of_heights({0, 3, 5, 6, 7}, 12)), 0), 0);
    EXPECT_EQ(banked_rows(board_of(grid_of_heights({0, 4, 5, 6, 7}, 12)), 0), 4);
    EXPECT_EQ(banked_rows(board_of(grid_of_heights({0, 9, 8, 11, 8}, 12)), 0), 8);
    // The well's own column does not count.
    EXPECT_EQ(banked_rows(board_of(grid_of_heights({5, 6, 7, 4, 0}, 12)), 4), 4);
}

TEST(WellJudge, ValuesTheContourFromTheFloorOrAboveTheBankedRows) {
    const WellJudge judge(exact_table()), banked(exact_table(), true);
    EXPECT_EQ(judge.width(), TableWidth);
    const Geometry& geometry = exact_table().geometry();
    const auto table_value = [&](const char* heights) {
        return exact_table().value(geometry.encode(geometry.parse_heights(heights)));
    };
    EXPECT_EQ(judge.value(board_of(grid_of_heights({0, 5, 6, 4, 7}, 16)), 0), table_value("5,6,4,7"));
    // 9 rows leave the 8-row table from the floor; less 4 banked rows,
    // 5, 6, 4, 9 are 1, 2, 0, 5.
    EXPECT_FALSE(judge.value(board_of(grid_of_heights({0, 5, 6, 4, 9}, 16)), 0));
    EXPECT_EQ(banked.value(board_of(grid_of_heights({0, 5, 6, 4, 9}, 16)), 0), table_value("1,2,0,5"));
    // Nothing for a hole, a filled well, or a contour above the table's 8
    // rows (11 - 0 banked). (A class the table does not hold: tetris.sh's
    // class-0 tables.)
    Grid hole = grid_of_heights({0, 5, 6, 4, 7}, 16);
    hole[2][2] = false;
    EXPECT_FALSE(judge.value(board_of(hole), 0));
    EXPECT_FALSE(judge.value(board_of(grid_of_heights({2, 5, 6, 4, 7}, 16)), 0));
    EXPECT_FALSE(banked.value(board_of(grid_of_heights({0, 3, 6, 4, 11}, 16)), 0));
    // And the same as the oracle on random boards.
    std::mt19937 random(40);
    for (const bool bank : {false, true}) {
        const WellJudge& used = bank ? banked : judge;
        for (int trial = 0; trial < 200; ++trial) {
            const Grid g = grid_of_heights(random_clean_heights(random), 16);
            const std::optional<double> got = used.value(board_of(g), 0);
            const std::optional<double> expected = naive_value(g, 0, bank);
            ASSERT_EQ(bool(got), bool(expected));
            if (got) {
                EXPECT_EQ(*got, *expected);
            }
        }
    }
}

TEST(WellJudge, RefusesATableOfAnotherSet) {
    const StackTable rectangles = StackTable::in_memory(
        Geometry(3, 3), HugeVector<double>(Geometry(3, 3).states(), 0.0), Rules(PieceSet::builtin("rectangles")));
    EXPECT_THROW(WellJudge{rectangles}, InputError);
}

// An I piece goes into the well when every other column is at least 4
// high: a tetris, counted before any table value.
TEST(WellPolicy, PlaysTheIIntoTheWellForATetris) {
    const Tetrominoes& t = tetrominoes();
    const TetrisPolicy policy(t.shapes, well_config(0), t.weights, &exact_table());
    const TetrisBoard board = board_of(grid_of_heights({0, 4, 6, 5, 4}, 16));
    const int queue[] = {PieceI};
    const std::optional<TetrisChoice> choice = policy.choose(board, Known{queue});
    ASSERT_TRUE(choice);
    EXPECT_FALSE(choice->fallback);
    EXPECT_EQ(choice->placement.x, 0);
    TetrisBoard after = board;
    EXPECT_EQ(after.place(t.shapes.shape(choice->placement.shape), choice->placement.x, choice->placement.row).lines,
              4);
    EXPECT_DOUBLE_EQ(choice->score, TetrisBonus + *naive_value(grid_of_heights({0, 0, 2, 1, 0}, 16), 0));
    // The same on the right (--well right).
    PolicyConfig right = well_config(0);
    right.well_side = WellSide::Right;
    const TetrisPolicy mirrored(t.shapes, right, t.weights, &exact_table());
    const std::optional<TetrisChoice> there =
        mirrored.choose(board_of(grid_of_heights({4, 5, 6, 4, 0}, 16)), Known{queue});
    ASSERT_TRUE(there);
    EXPECT_EQ(there->placement.x, 4);
    EXPECT_DOUBLE_EQ(there->score, TetrisBonus + *naive_value(grid_of_heights({0, 1, 2, 0, 0}, 16), 4));
}

// The choice is the clean placement (clearing no rows, or four) whose
// board the table values most, with the next piece known the best of the
// two placements' lines (each line's tetrises first), against a plain
// search on the grid.
TEST(WellPolicy, ChoosesWhatAPlainSearchOfTheTableChooses) {
    const Tetrominoes& t = tetrominoes();
    std::mt19937 random(41);
    for (const int preview : {0, 1}) {
        const TetrisPolicy policy(t.shapes, well_config(preview), t.weights, &exact_table());
        int compared = 0;
        for (int trial = 0; trial < 100; ++trial) {
            const Grid g = grid_of_heights(random_clean_heights(random, 6), 16);
            const int queue[] = {int(random() % 7), int(random() % 7)};
            // The plain search: each line's score, the best first placement's.
            const auto line_score = [&](const Grid& from, int piece, auto&& rest) {
                std::optional<double> best;
                for (const TetrisPlacement& p : naive_placements(t.shapes, from, piece)) {
                    const NaivePlaced placed = naive_place(from, t.shapes.shape(p.shape), p.x, p.row, true);
                    if (!naive_clean(placed.grid, 0) || (placed.lines > 0 && placed.lines < 4))
                        continue;  // unclean, or a short clear down the well
                    const std::optional<double> after = rest(placed.grid);
                    if (after) {
                        const double score = *after + (placed.lines >= 4 ? TetrisBonus : 0.0);
                        best = best ? std::max(*best, score) : score;
                    }
                }
                return best;
            };
            const auto leaf = [&](const Grid& grid) { return naive_value(grid, 0); };
            const std::optional<double> expected =
                preview == 0
                    ? line_score(g, queue[0], leaf)
                    : line_score(g, queue[0], [&](const Grid& grid) { return line_score(grid, queue[1], leaf); });
            const std::optional<TetrisChoice> choice =
                policy.choose(board_of(g), Known{std::span<const int>(queue, std::size_t(preview) + 1)});
            ASSERT_TRUE(choice);
            if (!expected) {  // no clean line: the current piece alone, or the fallback
                EXPECT_TRUE(choice->fallback || preview == 1);
                continue;
            }
            ++compared;
            EXPECT_FALSE(choice->fallback);
            EXPECT_NEAR(choice->score, *expected, 1e-9) << "trial " << trial << " preview " << preview << "\n"
                                                        << board_of(g).text() << queue[0] << queue[1];
        }
        EXPECT_GT(compared, 25);  // random contours are rough: about a third have a clean line
    }
}

// A board the table cannot judge (a hole) goes to the fallback, whose
// choice it is, marked so.
TEST(WellPolicy, HandsWhatTheTableCannotJudgeToTheFallback) {
    const Tetrominoes& t = tetrominoes();
    PolicyConfig config = well_config(0);
    config.fallback = Evaluation::Dellacherie;
    const TetrisPolicy policy(t.shapes, config, t.weights, &exact_table());
    Grid g = grid_of_heights({0, 3, 4, 2, 4}, 16);
    g[1][2] = false;
    const int queue[] = {PieceT};
    const std::optional<TetrisChoice> choice = policy.choose(board_of(g), Known{queue});
    ASSERT_TRUE(choice);
    EXPECT_TRUE(choice->fallback);
    const TetrisPolicy dellacherie(t.shapes, parse_tetris_policy("dellacherie", 0, 0), t.weights);
    const std::optional<TetrisChoice> own = dellacherie.choose(board_of(g), Known{queue});
    EXPECT_EQ(choice->placement, own->placement);
    EXPECT_FALSE(policy.table_value(board_of(g)));
    // An S on a flat floor has no clean placement: the fallback plays it.
    const int s[] = {PieceZRight};
    EXPECT_TRUE(policy.choose(TetrisBoard(5, 16), Known{s})->fallback);
}

// The grid oracle of a placement that fills the well for less than a
// tetris: a cell of it in the well column, fewer than 4 rows cleared.
bool naive_short_fill(const Grid& g, const Shape& shape, int x, int row, int well) {
    bool in_well = false;
    for (int dy = 0; dy < shape.height; ++dy)
        for (int dx = 0; dx < shape.width; ++dx)
            in_well = in_well || (shape_cell(shape, dx, dy) && x + dx == well);
    return in_well && naive_place(g, shape, x, row, true).lines < 4;
}

// A random board 5 wide, 16 tall: columns up to `most` high beside the
// well, now and then a hole or a cell in the well.
Grid random_board(std::mt19937& random, int most) {
    Grid g = grid_of_heights(random_clean_heights(random, most), 16);
    if (random() % 4 == 0)
        g[std::size_t(random() % 3)][std::size_t(1 + random() % 4)] = false;
    if (random() % 6 == 0)
        g[0][0] = true;
    return g;
}

// The cause of a loss of control (well.h), from its definition on the
// grid: a board the table cannot judge is the fallback's own; else the
// best any placement of the piece does: a clean board within the
// table's 8 rows (then only the class can stop the table), a clean one
// past them, or none clean (a hole forced, or the well filled short).
// With the whole 4x8 table (every class) the well policy falls back
// exactly when the cause is not the class.
TEST(WellPolicy, CountsEachLossOfControlByItsCause) {
    const Tetrominoes& t = tetrominoes();
    const TetrisPolicy policy(t.shapes, well_config(0), t.weights, &exact_table());
    std::mt19937 random(43);
    std::array<int, LossCauseCount> seen{};
    for (int trial = 0; trial < 2000; ++trial) {
        const Grid g = random_board(random, 10);
        const int queue[] = {int(random() % 7)};
        LossCause expected = LossCause::FallbackOwn;
        if (naive_value(g, 0)) {
            bool clean = false, within = false;
            for (const TetrisPlacement& p : naive_placements(t.shapes, g, queue[0])) {
                const Shape& shape = t.shapes.shape(p.shape);
                const NaivePlaced placed = naive_place(g, shape, p.x, p.row, true);
                if (naive_short_fill(g, shape, p.x, p.row, 0) || !naive_clean(placed.grid, 0))
                    continue;
                clean = true;
                int top = 0;
                for (int x = 0; x < 5; ++x)
                    top = std::max(top, naive_column_height(placed.grid, x));
                within = within || top <= TableHeight;
            }
            expected = within ? LossCause::Class : clean ? LossCause::PastCeiling : LossCause::ForcedHole;
        }
        const LossCause cause = policy.loss_cause(board_of(g), Known{queue});
        EXPECT_EQ(cause, expected) << "trial " << trial << "\n" << board_of(g).text() << queue[0];
        const std::optional<TetrisChoice> choice = policy.choose(board_of(g), Known{queue});
        if (choice && cause != LossCause::FallbackOwn) {
            EXPECT_EQ(choice->fallback, cause != LossCause::Class) << "trial " << trial << "\n"
                                                                   << board_of(g).text() << queue[0];
        }
        ++seen[std::size_t(cause)];
    }
    for (const LossCause cause : {LossCause::ForcedHole, LossCause::PastCeiling, LossCause::FallbackOwn})
        EXPECT_GT(seen[std::size_t(cause)], 20) << loss_cause_key(cause);
    EXPECT_STREQ(loss_cause_key(LossCause::PastCeiling), "past_ceiling");
    // What keeps the table off a board on the fallback's own turns.
    Grid g = grid_of_heights({0, 3, 4, 2, 4}, 16);
    EXPECT_EQ(unjudged_state(board_of(g), 0), Unjudged::Clean);
    g[1][2] = false;
    EXPECT_EQ(unjudged_state(board_of(g), 0), Unjudged::Hole);
    g[0][0] = true;
    EXPECT_EQ(unjudged_state(board_of(g), 0), Unjudged::HoleAndFilledWell);
    g[1][2] = true;
    EXPECT_EQ(unjudged_state(board_of(g), 0), Unjudged::FilledWell);
}

// The fallback never fills the well for less than a tetris where the
// table judges waiting better: its own choice (El-Tetris with the repair
// bonus) stands unless it fills the well short while another placement
// keeps the well empty on a board the table values (by the banked
// contour past its 8 rows) above the fill's board (0 when the table
// cannot judge it); then the fallback's best-scored such placement plays.
TEST(WellPolicy, FallbackWaitsForTheIWhereTheTableSaysWaitingIsBetter) {
    const Tetrominoes& t = tetrominoes();
    const TetrisPolicy policy(t.shapes, well_config(0), t.weights, &exact_table());
    PolicyConfig own_config = parse_tetris_policy("el-tetris", 0, 0);
    own_config.repair = true;
    const TetrisPolicy own(t.shapes, own_config, t.weights, &exact_table());
    const auto waiting = [&](const Grid& g) -> std::optional<double> {
        const std::optional<double> value = naive_value(g, 0);
        return value ? value : naive_value(g, 0, true);
    };
    std::mt19937 random(44);
    int kept = 0, filled = 0;
    for (int trial = 0; trial < 600; ++trial) {
        const Grid g = grid_of_heights(random_clean_heights(random, 13), 16);
        const int queue[] = {int(random() % 7)};
        const std::optional<TetrisChoice> choice = policy.choose(board_of(g), Known{queue});
        if (!choice || !choice->fallback)
            continue;
        std::vector<TetrisChoice> scored;
        const TetrisChoice unguarded = *own.choose(board_of(g), Known{queue}, 1, nullptr, &scored);
        const Shape& shape = t.shapes.shape(unguarded.placement.shape);
        const auto& [x, row] = std::pair{unguarded.placement.x, unguarded.placement.row};
        std::optional<TetrisChoice> expected = unguarded;
        if (naive_short_fill(g, shape, x, row, 0)) {
            const double fill = waiting(naive_place(g, shape, x, row, true).grid).value_or(0);
            const TetrisChoice* best = nullptr;
            for (const TetrisChoice& c : scored) {
                const Shape& other = t.shapes.shape(c.placement.shape);
                const std::optional<double> value =
                    waiting(naive_place(g, other, c.placement.x, c.placement.row, true).grid);
                if (!naive_short_fill(g, other, c.placement.x, c.placement.row, 0) && value && *value > fill
                    && (!best || c.score > best->score))
                    best = &c;
            }
            if (best)
                expected = *best, ++kept;
            else
                ++filled;
        }
        EXPECT_EQ(choice->placement, expected->placement) << "trial " << trial << "\n" << board_of(g).text();
    }
    EXPECT_GT(kept, 10);  // the rule changed the fallback's choice that often
    // A stack past the table's 8 rows (4 banked), a J next: El-Tetris drops
    // it down the well for the rows it clears; the table waits for the I.
    const Grid high = grid_of_heights({0, 6, 8, 10, 4}, 16);
    const int l[] = {PieceLLeft};
    const TetrisChoice unguarded = *own.choose(board_of(high), Known{l});
    EXPECT_TRUE(naive_short_fill(high, t.shapes.shape(unguarded.placement.shape), unguarded.placement.x,
                                 unguarded.placement.row, 0));
    const std::optional<TetrisChoice> choice = policy.choose(board_of(high), Known{l});
    ASSERT_TRUE(choice && choice->fallback);
    EXPECT_FALSE(
        naive_short_fill(high, t.shapes.shape(choice->placement.shape), choice->placement.x, choice->placement.row, 0));
}

// Past the table's ceiling: when no clean placement keeps the contour
// within the table's 8 rows, the policy judges the contour above the
// banked rows (naive_value's `banked`), for boards at most 8 + 4 rows high,
// before its fallback plays; its choice is marked banked, not fallback,
// and scores what the grid oracle's best such placement scores. Without
// the tier the same boards go to the fallback.
TEST(WellPolicy, PastTheCeilingJudgesTheBankedContour) {
    const Tetrominoes& t = tetrominoes();
    const TetrisPolicy policy(t.shapes, well_config(0, true), t.weights, &exact_table());
    const TetrisPolicy without(t.shapes, well_config(0, false), t.weights, &exact_table());
    std::mt19937 random(45);
    int banked = 0;
    for (int trial = 0; trial < 1500; ++trial) {
        const Grid g = grid_of_heights(random_clean_heights(random, 11), 16);
        const int queue[] = {int(random() % 7)};
        std::optional<double> within, above;
        for (const TetrisPlacement& p : naive_placements(t.shapes, g, queue[0])) {
            const NaivePlaced placed = naive_place(g, t.shapes.shape(p.shape), p.x, p.row, true);
            if (!naive_clean(placed.grid, 0) || (placed.lines > 0 && placed.lines < 4))
                continue;
            const double bonus = placed.lines >= 4 ? TetrisBonus : 0.0;
            if (const std::optional<double> value = naive_value(placed.grid, 0))
                within = std::max(within.value_or(-1e300), *value + bonus);
            int top = 0;
            for (int x = 0; x < grid_width(placed.grid); ++x)
                top = std::max(top, naive_column_height(placed.grid, x));
            const std::optional<double> value = naive_value(placed.grid, 0, true);
            if (value && top <= TableHeight + 4)
                above = std::max(above.value_or(-1e300), *value + bonus);
        }
        const std::optional<TetrisChoice> choice = policy.choose(board_of(g), Known{queue});
        ASSERT_TRUE(choice);
        if (within || !naive_clean(g, 0)) {
            EXPECT_FALSE(choice->banked);
            continue;
        }
        if (!above) {
            EXPECT_TRUE(choice->fallback && !choice->banked) << "trial " << trial << "\n" << board_of(g).text();
            continue;
        }
        ++banked;
        EXPECT_TRUE(choice->banked && !choice->fallback) << "trial " << trial << "\n" << board_of(g).text();
        EXPECT_NEAR(choice->score, *above, 1e-9) << "trial " << trial << "\n" << board_of(g).text();
        EXPECT_TRUE(without.choose(board_of(g), Known{queue})->fallback);
    }
    EXPECT_GT(banked, 20);  // boards past the 8 rows with a clean placement above 4 banked rows
}

TEST(WellPolicy, NeedsATableOneColumnNarrowerThanTheBoard) {
    const Tetrominoes& t = tetrominoes();
    EXPECT_THROW(TetrisPolicy(t.shapes, well_config(0), t.weights), InputError);
    const TetrisPolicy policy(t.shapes, well_config(0), t.weights, &exact_table());
    const int queue[] = {PieceT};
    EXPECT_THROW(policy.choose(TetrisBoard(6, 16), Known{queue}), InputError);
    EXPECT_EQ(policy_name(policy.config()), "well, well left, fallback el-tetris");
    EXPECT_THROW(parse_fallback("well"), InputError);
    EXPECT_EQ(parse_fallback("dellacherie"), Evaluation::Dellacherie);
    PolicyConfig weighted = well_config(0);
    const double three[] = {1, 2, 3};
    EXPECT_THROW(set_policy_weights(weighted, three), InputError);  // the table judges: no weights
}

// The well-builder's features: Dellacherie's six as features.h counts
// them (the grid oracle), the well's open depth up to 4, and the tetris.
TEST(WellBuilder, FeaturesAreDellacheriesThenTheWells) {
    const Tetrominoes& t = tetrominoes();
    std::mt19937 random(42);
    for (int trial = 0; trial < 100; ++trial) {
        Grid g = grid_of_heights(random_clean_heights(random), 16);
        if (trial % 3 == 0)
            g[0][std::size_t(1 + random() % 4)] = false;  // a hole, sometimes
        const int piece = int(random() % 7);
        for (const TetrisPlacement& p : naive_placements(t.shapes, g, piece)) {
            const Shape& shape = t.shapes.shape(p.shape);
            const WellFeatures got = well_features(board_of(g), shape, p.x, p.row, 0);
            const DellacherieFeatures d = naive_dellacherie(g, shape, p.x, p.row);
            const NaivePlaced placed = naive_place(g, shape, p.x, p.row, true);
            int lowest = 99;
            for (int x = 1; x < 5; ++x)
                lowest = std::min(lowest, naive_column_height(placed.grid, x));
            const int depth = std::clamp(lowest - naive_column_height(placed.grid, 0), 0, 4);
            const WellFeatures expected = {d.landing_height,
                                           double(d.eroded_cells),
                                           double(d.row_transitions),
                                           double(d.column_transitions),
                                           double(d.holes),
                                           double(d.wells),
                                           double(depth),
                                           double(placed.lines >= 4)};
            ASSERT_EQ(got, expected) << "trial " << trial;
        }
    }
}

}  // namespace stack::tetris
