// The real game's search (tetris/search.h): the preview and expectimax
// searches and hold, each against a plain recursion; feature weights
// (--weights); SRS placements (--moves bfs) and seed 000's buffer rows.
#include "rules/pieces.h"
#include "support/errors.h"
#include "tetris/game.h"
#include "tetris/search.h"
#include "tetris_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace stack::tetris {

using namespace stack::tetris::testing;

namespace {

// The policies' scores as search.h states them.
double naive_lee_score(const LeeFeatures& f) {
    return -0.510066 * f.aggregate_height + 0.760666 * f.complete_lines - 0.35663 * f.holes - 0.184483 * f.bumpiness;
}
double naive_dellacherie_score(const DellacherieFeatures& f) {
    return -f.landing_height + f.eroded_cells - f.row_transitions - f.column_transitions - 4.0 * f.holes - f.wells;
}

double plain_leaf(const ShapeSet& shapes, const Grid& g, const TetrisPlacement& p, Evaluation evaluation) {
    const Shape& shape = shapes.shape(p.shape);
    if (evaluation == Evaluation::Lee)
        return naive_lee_score(naive_lee(naive_place(g, shape, p.x, p.row, false).grid));
    return naive_dellacherie_score(naive_dellacherie(g, shape, p.x, p.row));
}

double plain_best(const ShapeSet& shapes, const Grid& g, std::span<const int> pieces, Evaluation evaluation);

// `rest` the known pieces after this placement's.
double plain_after(const ShapeSet& shapes, const Grid& g, const TetrisPlacement& p, std::span<const int> rest,
                   Evaluation evaluation) {
    if (rest.empty())
        return plain_leaf(shapes, g, p, evaluation);
    const Grid next = naive_place(g, shapes.shape(p.shape), p.x, p.row, true).grid;
    return plain_best(shapes, next, rest, evaluation);
}

double plain_best(const ShapeSet& shapes, const Grid& g, std::span<const int> pieces, Evaluation evaluation) {
    double best = Lost;
    for (const TetrisPlacement& p : naive_placements(shapes, g, pieces[0]))
        best = std::max(best, plain_after(shapes, g, p, pieces.subspan(1), evaluation));
    return best;
}

void expect_close(double got, double expected, const std::string& what) {
    if (expected == Lost) {
        EXPECT_EQ(got, Lost) << what;
        return;
    }
    EXPECT_NEAR(got, expected, 1e-9 + 1e-12 * std::abs(expected)) << what;
}

// Two plain recursions: the one above (preview and expectimax, on a grid)
// and, overloading its plain_best and plain_after, hold's below (on a board).

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
    const Shape& shape = tetrominoes().shapes.shape(placement.shape);
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
        const int count = generate_placements(tetrominoes().shapes, board, turn.piece, MoveSet::HardDrop, placements);
        for (int i = 0; i < count; ++i)
            top = std::max(top, plain_after(leaf, board, turn.piece, placements[std::size_t(i)], turn.rest, turn.hold,
                                            turns - 1, carried, order));
    }
    return top;
}

}  // namespace

// ---------------------------------------------------------------------------
// The preview and expectimax searches against a plain recursion

TEST(TetrisPreview, ScoresEqualAPlainRecursion) {
    const ShapeSet& shapes = tetrominoes().shapes;
    std::mt19937 rng(777);
    int lost = 0, scored = 0;
    for (const auto& [width, height] : {std::pair{5, 8}, std::pair{6, 10}})
        for (const int preview : {1, 2})
            for (const char* name : {"lee", "dellacherie"}) {
                const PolicyConfig config = parse_tetris_policy(name, preview, 0);
                const TetrisPolicy policy(shapes, config, std::vector<double>(7, 1.0 / 7));
                const int boards = preview == 1 ? 12 : 6;
                for (int trial = 0; trial < boards; ++trial) {
                    const Grid grid = random_grid(rng, width, height, height - 2);
                    const TetrisBoard board = board_of(grid);
                    std::vector<int> known(std::size_t(preview + 1));
                    for (int& piece : known)
                        piece = std::uniform_int_distribution<int>(0, 6)(rng);
                    SCOPED_TRACE(std::string(name) + " preview " + std::to_string(preview) + "\n" + describe(grid));
                    const std::vector<TetrisPlacement> firsts = naive_placements(shapes, grid, known[0]);
                    ASSERT_EQ(generated(shapes, board, known[0]), firsts);
                    std::vector<double> values;
                    for (const TetrisPlacement& first : firsts) {
                        const double expected =
                            plain_after(shapes, grid, first, std::span<const int>(known).subspan(1), config.evaluation);
                        values.push_back(expected);
                        lost += expected == Lost;
                        ++scored;
                        expect_close(policy.score(board, known, first), expected,
                                     "first placement " + std::to_string(first.shape) + " at " + std::to_string(first.x)
                                         + "," + std::to_string(first.row));
                    }
                    // choose: the first placement of the best value.
                    const std::optional<TetrisPlacement> chosen = policy.choose(board, known);
                    ASSERT_EQ(chosen.has_value(), !firsts.empty());
                    if (!firsts.empty()) {
                        const double top = *std::max_element(values.begin(), values.end());
                        std::size_t first_best = 0;
                        while (values[first_best] < top - 1e-9)
                            ++first_best;
                        EXPECT_EQ(*chosen, firsts[first_best]);
                    }
                    // A longer known list is cut to the preview.
                    std::vector<int> longer = known;
                    longer.push_back(PieceI);
                    if (!firsts.empty()) {
                        EXPECT_EQ(policy.score(board, longer, firsts[0]), policy.score(board, known, firsts[0]));
                    }
                }
            }
    EXPECT_GT(scored, 500);
    EXPECT_GT(lost, 0);  // some branches ran out of room
}

TEST(TetrisPreview, ExpectimaxDepthOneIsTheMeanOverTheSevenPieces) {
    const ShapeSet& shapes = tetrominoes().shapes;
    const PolicyConfig config = parse_tetris_policy("expectimax", 0, 1);
    ASSERT_EQ(config.evaluation, Evaluation::Lee);
    ASSERT_EQ(config.expectimax_depth, 1);
    ASSERT_EQ(config.preview, 0);
    const TetrisPolicy policy(shapes, config, std::vector<double>(7, 1.0 / 7));
    std::mt19937 rng(4242);
    int scored = 0;
    for (const auto& [width, height] : {std::pair{5, 8}, std::pair{6, 10}})
        for (int trial = 0; trial < 10; ++trial) {
            const Grid grid = random_grid(rng, width, height, height - 2);
            const TetrisBoard board = board_of(grid);
            const int piece = std::uniform_int_distribution<int>(0, 6)(rng);
            const int known[] = {piece};
            SCOPED_TRACE(describe(grid));
            for (const TetrisPlacement& first : naive_placements(shapes, grid, piece)) {
                const Grid next = naive_place(grid, shapes.shape(first.shape), first.x, first.row, true).grid;
                double mean = 0;
                for (int q = 0; q < 7; ++q) {
                    const int draw[] = {q};
                    mean += plain_best(shapes, next, draw, Evaluation::Lee) / 7.0;
                }
                ++scored;
                expect_close(policy.score(board, known, first), mean, "expectimax");
            }
        }
    EXPECT_GT(scored, 100);
}

// ---------------------------------------------------------------------------
// Feature weights (--weights)

TEST(TetrisWeights, TheirOwnByDefaultAndAsTheSeedsPrintThem) {
    EXPECT_EQ(policy_weights(parse_tetris_policy("lee", 0, 0)),
              (std::vector<double>{0.510066, 0.760666, 0.35663, 0.184483}));
    EXPECT_EQ(policy_weights(parse_tetris_policy("expectimax", 0, 0)),
              policy_weights(parse_tetris_policy("lee", 0, 0)));
    EXPECT_EQ(policy_weights(parse_tetris_policy("dellacherie", 0, 0)), (std::vector<double>{-1, 1, -1, -1, -4, -1}));
    EXPECT_EQ(policy_weights(parse_tetris_policy("seed001", 0, 0)), (std::vector<double>{18, 10, 3, 10}));
    EXPECT_EQ(policy_weights(parse_tetris_policy("el-tetris", 0, 0)).size(), 6u);
    PolicyConfig lee = parse_tetris_policy("lee", 0, 0);
    EXPECT_EQ(policy_name(lee), "lee");
    const std::vector<double> seed000 = {0.810066, 0.760666, 0.35663, 0.184483};  // seed 000's getWeights
    set_policy_weights(lee, seed000);
    EXPECT_EQ(policy_name(lee), "lee, weights 0.810066,0.760666,0.35663,0.184483");
    EXPECT_EQ(policy_weights(lee), seed000);
    try {
        set_policy_weights(lee, std::vector<double>{1, 2, 3});
        ADD_FAILURE() << "3 weights for lee";
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "--weights: policy lee takes 4 weights (got 3)");
    }
    PolicyConfig dellacherie = parse_tetris_policy("dellacherie", 0, 0);
    EXPECT_THROW(set_policy_weights(dellacherie, seed000), InputError);
}

// An O on the left of an empty 10x20 well: aggregate height 2 + 2, no
// lines or holes, bumpiness 2 (column 1 to 2). Lee's score and seed 000's
// (0.810066 for the height) by hand.
TEST(TetrisWeights, LeeScoreWithSeed000sWeights) {
    const Tetrominoes& t = tetrominoes();
    const TetrisBoard empty(10, 20);
    const int o[] = {PieceSquare};
    const TetrisPlacement left{std::int16_t(t.shapes.first(PieceSquare)), 0, 0};
    PolicyConfig config = parse_tetris_policy("lee", 0, 0);
    const TetrisPolicy own(t.shapes, config, std::vector<double>(7, 1.0 / 7));
    EXPECT_DOUBLE_EQ(own.score(empty, o, left), -0.510066 * 4 - 0.184483 * 2);
    set_policy_weights(config, std::vector<double>{0.810066, 0.760666, 0.35663, 0.184483});
    const TetrisPolicy seed000(t.shapes, config, std::vector<double>(7, 1.0 / 7));
    EXPECT_DOUBLE_EQ(seed000.score(empty, o, left), -0.810066 * 4 - 0.184483 * 2);
}

// Weights that are the policy's own, or all of them scaled by 2, play the
// same game (the scores keep their order).
TEST(TetrisWeights, OwnOrScaledWeightsPlayTheSameGame) {
    const Tetrominoes& t = tetrominoes();
    TetrisOptions options;
    options.max_pieces = 200;
    options.seed = 4;
    const std::vector<double> draw(7, 1.0 / 7);
    for (const char* name : {"lee", "dellacherie", "seed001"}) {
        const PolicyConfig plain = parse_tetris_policy(name, 0, 0);
        PolicyConfig same = plain, doubled = plain;
        const std::vector<double> weights = policy_weights(plain);
        std::vector<double> twice;
        for (const double w : weights)
            twice.push_back(2 * w);
        set_policy_weights(same, weights);
        set_policy_weights(doubled, twice);
        const TetrisPolicy a(t.shapes, plain, draw), b(t.shapes, same, draw), c(t.shapes, doubled, draw);
        const GameRecord one = play_tetris_game(options, t.rules, t.shapes, a, nullptr, 0, 1);
        for (const TetrisPolicy* other : {&b, &c}) {
            const GameRecord two = play_tetris_game(options, t.rules, t.shapes, *other, nullptr, 0, 1);
            EXPECT_EQ(one.pieces, two.pieces) << name;
            EXPECT_EQ(one.lines, two.lines) << name;
            EXPECT_EQ(one.final_height, two.final_height) << name;
        }
    }
}

// ---------------------------------------------------------------------------
// Hold in the search

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
        const TetrisPolicy leaf(tetrominoes().shapes, parse_tetris_policy(name, 0, 0), tetrominoes().weights);
        Order order;
        if (std::string(name) == "dellacherie") {
            const std::vector<double> weights = policy_weights(parse_tetris_policy(name, 0, 0));
            order = {weights[0], weights[1]};
        }
        for (const int preview : {1, 2}) {
            PolicyConfig config = parse_tetris_policy(name, preview, 0);
            config.hold = true;
            const TetrisPolicy policy(tetrominoes().shapes, config, tetrominoes().weights);
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
                        generate_placements(tetrominoes().shapes, board, turn.piece, MoveSet::HardDrop, placements);
                    for (int i = 0; i < count; ++i) {
                        const TetrisPlacement& first = placements[std::size_t(i)];
                        const double expected = plain_after(leaf, board, turn.piece, first, turn.rest, turn.hold,
                                                            int(queue.size()) - 1, 0.0, order);
                        const double got =
                            policy.score(board, Known{queue, hold}, TetrisChoice{first, turn.held, 0, false, false});
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

// ---------------------------------------------------------------------------
// SRS placements and seed 000's buffer rows

// --moves bfs: on low random boards (nothing near the spawn rows) every
// hard drop is also reached by SRS, and a tuck under an overhang, which no
// hard drop reaches, is found; each SRS placement is a rotation of its
// piece resting on the stack or the floor.
TEST(TetrisMoves, BreadthFirstHoldsEveryHardDropAndATuck) {
    const Tetrominoes& t = tetrominoes();
    std::mt19937 random(11);
    std::array<TetrisPlacement, MostPlacements> drops, reached;
    for (int trial = 0; trial < 60; ++trial) {
        TetrisBoard board(10, 20);
        for (int x = 0; x < 10; ++x)
            for (int y = 0, top = int(random() % 8); y < top; ++y)
                if (random() % 5 != 0 || y + 1 == top)
                    board.set(x, y);
        for (int y = 0; y < board.top(); ++y)
            if (board.row(y) == board.full_row())
                board = TetrisBoard(10, 20);  // no full rows: start again empty
        for (int piece = 0; piece < 7; ++piece) {
            const int hard = generate_placements(t.shapes, board, piece, MoveSet::HardDrop, drops);
            const int srs = generate_placements(t.shapes, board, piece, MoveSet::BreadthFirst, reached);
            for (int i = 0; i < hard; ++i)
                EXPECT_NE(std::find(reached.begin(), reached.begin() + srs, drops[std::size_t(i)]),
                          reached.begin() + srs)
                    << "trial " << trial << " piece " << piece;
            for (int i = 0; i < srs; ++i) {
                const TetrisPlacement& p = reached[std::size_t(i)];
                const Shape& shape = t.shapes.shape(p.shape);
                EXPECT_EQ(shape.piece, piece);
                EXPECT_TRUE(board.fits(shape, p.x, p.row));
                EXPECT_FALSE(board.fits(shape, p.x, p.row - 1));  // it rests
            }
        }
    }
    // An overhang over columns 2-3 at row 2: an O dropped at column 0
    // slides right under it only by SRS.
    TetrisBoard overhang = TetrisBoard::from_text("....\n....\n....\n..##\n....\n....\n", 4, 6);
    const int hard = generate_placements(t.shapes, overhang, PieceSquare, MoveSet::HardDrop, drops);
    const int srs = generate_placements(t.shapes, overhang, PieceSquare, MoveSet::BreadthFirst, reached);
    const TetrisPlacement tuck{std::int16_t(t.shapes.first(PieceSquare)), 1, 0};
    EXPECT_EQ(std::find(drops.begin(), drops.begin() + hard, tuck), drops.begin() + hard);
    EXPECT_NE(std::find(reached.begin(), reached.begin() + srs, tuck), reached.begin() + srs);
}

// Seed 000's buffer rows (--buffer-rows): the board is taller than the
// well, and a placement needs a cell in the well, i.e. its lowest row below
// visible_rows. Columns 0-1 filled to row 6 of a 4x9 board (a 4x6 well and
// 3 buffer rows): an O on them lands at row 7, in the buffer only.
TEST(TetrisBufferRows, APlacementNeedsACellInTheWell) {
    const ShapeSet& shapes = tetrominoes().shapes;
    TetrisBoard board(4, 9);
    for (int x = 0; x < 2; ++x)
        for (int y = 0; y < 7; ++y)
            board.set(x, y);
    std::array<TetrisPlacement, MostPlacements> out;
    const int anywhere = generate_placements(shapes, board, PieceSquare, MoveSet::HardDrop, out);
    EXPECT_EQ(anywhere, 3);  // columns 0, 1 (row 7) and 2 (row 0)
    const int in_well = generate_placements(shapes, board, PieceSquare, MoveSet::HardDrop, out, -1, 6);
    ASSERT_EQ(in_well, 1);
    EXPECT_EQ(out[0].x, 2);
    EXPECT_EQ(out[0].row, 0);
    // A game's policy sees the same: with the buffer rows, from the options.
    TetrisOptions options;
    options.width = 4;
    options.height = 6;
    options.buffer_rows = 3;
    options.policy = "lee";
    const PolicyConfig config = policy_config(options);
    EXPECT_EQ(config.visible_rows, 6);
    EXPECT_EQ(start_board(options).height(), 9);
}

}  // namespace stack::tetris
