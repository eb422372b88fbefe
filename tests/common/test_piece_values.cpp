#include "naive_solver.h"
#include "rules/piece_set.h"
#include "rules/piece_values.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>

namespace stack {

namespace {

using CellList = std::vector<std::pair<int, int>>;  // (row from the bottom, column)

// The built-in sets drawn again, by hand, for the brute force below: it
// must not share the derivation it checks.
struct Drawn {
    std::vector<std::vector<std::string>> pieces;  // rows, top first
    std::vector<std::uint32_t> weights;
};

Drawn drawn_set(const std::string& name) {
    if (name == "tetrominoes")
        return {{{"####"},
                 {"###", ".#."},
                 {"##", "##"},
                 {".##", "##."},
                 {"##.", ".##"},
                 {"#.", "#.", "##"},
                 {".#", ".#", "##"}},
                {1, 1, 1, 1, 1, 1, 1}};
    if (name == "rectangles")
        return {{{"#"}, {"##"}, {"###"}, {"##", "##"}, {"###", "###"}, {"###", "###", "###"}}, {1, 1, 1, 1, 1, 1}};
    if (name == "pentominoes")
        return {{{".##", "##.", ".#."},
                 {"#####"},
                 {"####", "#..."},
                 {"##..", ".###"},
                 {"##", "##", "#."},
                 {"###", ".#.", ".#."},
                 {"#.#", "###"},
                 {"#..", "#..", "###"},
                 {"#..", "##.", ".##"},
                 {".#.", "###", ".#."},
                 {"####", ".#.."},
                 {"##.", ".#.", ".##"}},
                std::vector<std::uint32_t>(12, 1)};
    // a weighted file set: a domino drawn three times as often as an L tromino
    return {{{"##"}, {"#.", "##"}}, {3, 1}};
}

CellList normalised(CellList cells) {
    int low_row = 1 << 20, low_column = 1 << 20;
    for (auto [row, column] : cells)
        low_row = std::min(low_row, row), low_column = std::min(low_column, column);
    for (auto& [row, column] : cells)
        row -= low_row, column -= low_column;
    std::sort(cells.begin(), cells.end());
    return cells;
}

// The distinct quarter turns of a drawn piece.
std::vector<CellList> turns_of(const std::vector<std::string>& rows) {
    CellList cells;
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < rows[r].size(); ++c)
            if (rows[r][c] == '#')
                cells.push_back({int(rows.size() - 1 - r), int(c)});
    std::vector<CellList> turns;
    CellList turned = normalised(cells);
    for (int turn = 0; turn < 4; ++turn) {
        if (std::find(turns.begin(), turns.end(), turned) == turns.end())
            turns.push_back(turned);
        CellList next;
        for (auto [row, column] : turned)
            next.push_back({-column, row});
        turned = normalised(next);
    }
    return turns;
}

// The quarter turns of the drawing's mirror image, as a sorted set.
std::vector<CellList> sorted(std::vector<CellList> turns) {
    std::sort(turns.begin(), turns.end());
    return turns;
}
std::vector<CellList> mirror_turns(const std::vector<std::string>& rows) {
    std::vector<std::string> mirrored = rows;
    for (std::string& row : mirrored)
        std::reverse(row.begin(), row.end());
    return sorted(turns_of(mirrored));
}

// The brute force: a memoised recursion from a board over every drop of
// every turn at every column that rests without a hole and within H. Its
// sum adds each piece to its mirror image's first (the value equation's
// order, value.h), the pairs found from the drawings.
class BruteForce {
public:
    BruteForce(const Drawn& drawn, int width, int height) : width_(width), height_(height), weights_(drawn.weights) {
        for (const auto& rows : drawn.pieces)
            turns_.push_back(turns_of(rows));
        partner_.assign(turns_.size(), -1);
        for (std::size_t p = 0; p < turns_.size(); ++p) {
            if (partner_[p] >= 0)
                continue;
            partner_[p] = int(p);
            for (std::size_t q = p + 1; q < turns_.size(); ++q)
                if (partner_[q] < 0 && sorted(turns_[q]) == mirror_turns(drawn.pieces[p])) {
                    partner_[p] = int(q);
                    partner_[q] = int(p);
                    break;
                }
        }
    }

    double value(const std::vector<int>& heights) {
        if (auto found = memo_.find(heights); found != memo_.end())
            return found->second;
        std::vector<double> term(turns_.size());
        for (std::size_t p = 0; p < turns_.size(); ++p) {
            double best = -1;
            for (const CellList& cells : turns_[p])
                for (int x = 0; x < width_; ++x)
                    if (auto next = drop(heights, cells, x))
                        best = std::max(best, value(*next));
            term[p] = double(weights_[p]) * (1.0 + best);
        }
        double sum = 0;
        for (std::size_t p = 0; p < turns_.size(); ++p)
            if (partner_[p] == int(p))
                sum += term[p];
            else if (partner_[p] > int(p))
                sum += term[p] + term[std::size_t(partner_[p])];
        double total = 0;
        for (std::uint32_t weight : weights_)
            total += double(weight);
        return memo_[heights] = sum / total;
    }
    const std::map<std::vector<int>, double>& memo() const { return memo_; }

private:
    // The piece dropped with its left edge at column x: it rests where a cell
    // first meets the stack; that must fill every column from its top, with
    // no gap, and stay within H.
    std::optional<std::vector<int>> drop(const std::vector<int>& heights, const CellList& cells, int x) const {
        int base = 0;
        for (auto [row, column] : cells) {
            if (x + column >= width_)
                return std::nullopt;
            base = std::max(base, heights[x + column] - row);
        }
        std::vector<int> next = heights;
        std::map<int, std::set<int>> rows_of;  // column -> rows it fills
        for (auto [row, column] : cells)
            rows_of[x + column].insert(base + row);
        for (const auto& [column, rows] : rows_of) {
            const int low = *rows.begin(), high = *rows.rbegin();
            if (low != heights[column] || high - low + 1 != int(rows.size()) || high >= height_)
                return std::nullopt;
            next[column] = high + 1;
        }
        return next;
    }

    int width_, height_;
    std::vector<std::uint32_t> weights_;
    std::vector<std::vector<CellList>> turns_;
    std::map<std::vector<int>, double> memo_;
    std::vector<int> partner_;  // [piece] -> its mirror image's piece (itself when symmetric or unmatched)
};

PieceSet set_named(const std::string& name) {
    if (name != "weighted")
        return PieceSet::builtin(name);
    return PieceSet::from_file_text("piece d weight 3\n##\n\npiece l\n#.\n##\n");
}

}  // namespace

// For the tetrominoes the plain solver for any set gives the naive
// baseline's bits (and so stackgen's): the weighted equation with unit
// weights is the tetrominoes' equation.
TEST(PieceValues, TetrominoesGiveTheNaiveBaselinesBits) {
    for (auto [width, height] : {std::pair{4, 6}, std::pair{5, 5}, std::pair{3, 10}}) {
        const PieceSetSolution solution = solve_piece_set(PieceSet::builtin("tetrominoes"), Geometry(width, height));
        const testing::NaiveSolution naive = testing::naive_solve(width, height);
        ASSERT_EQ(solution.values.size(), naive.values.size());
        EXPECT_EQ(std::memcmp(solution.values.data(), naive.values.data(), naive.values.size() * sizeof(double)), 0)
            << width << "x" << height;
        EXPECT_TRUE(std::equal(naive.connections.begin(), naive.connections.end(), solution.connections.begin()));
    }
}

// Every built-in set and a weighted piece file against the brute force, at
// every board the brute force reaches from the empty one, on small wells.
TEST(PieceValues, EverySetAgreesWithTheBruteForce) {
    for (const std::string name : {"tetrominoes", "rectangles", "pentominoes", "weighted"}) {
        for (auto [width, height] :
             {std::pair{2, 8}, std::pair{3, 6}, std::pair{4, 5}, std::pair{5, 4}, std::pair{5, 8}}) {
            const Geometry geometry(width, height);
            const PieceSetSolution solution = solve_piece_set(set_named(name), geometry);
            BruteForce brute(drawn_set(name), width, height);
            brute.value(std::vector<int>(std::size_t(width), 0));
            ASSERT_GT(brute.memo().size(), 0u);
            for (const auto& [heights, value] : brute.memo()) {
                Heights board{};
                std::copy(heights.begin(), heights.end(), board.begin());
                ASSERT_EQ(solution.values[geometry.encode(board)], value)
                    << name << " " << width << "x" << height << " at " << geometry.format_heights(board);
            }
        }
    }
}

// The value equation adds each mirror pair first (value.h), so a board and
// its mirror image get the same bits, for every mirror-closed set; a set
// without the S's mirror image has boards whose images differ.
TEST(PieceValues, MirrorImagesHaveTheSameBits) {
    for (const std::string name : {"tetrominoes", "rectangles", "weighted"}) {
        for (auto [width, height] : {std::pair{5, 6}, std::pair{6, 5}, std::pair{3, 9}}) {
            const Geometry geometry(width, height);
            const PieceSetSolution solution = solve_piece_set(set_named(name), geometry);
            std::uint64_t asymmetric = 0;
            for (BoardId id = 0; id < geometry.states(); ++id) {
                const Heights heights = geometry.decode(id);
                Heights image{};
                for (int column = 0; column < width; ++column)
                    image[column] = heights[width - 1 - column];
                const double value = solution.values[id], mirrored = solution.values[geometry.encode(image)];
                ASSERT_EQ(std::memcmp(&value, &mirrored, sizeof(double)), 0)
                    << name << " " << width << "x" << height << " at " << geometry.format_heights(heights);
                asymmetric += heights != image;
            }
            EXPECT_GT(asymmetric, 0u);
        }
    }
    const PieceSet lopsided = PieceSet::from_file_text("piece S\n.##\n##.\n\npiece O\n##\n##\n");
    const Geometry geometry(4, 6);
    const PieceSetSolution solution = solve_piece_set(lopsided, geometry);
    std::uint64_t differ = 0;
    for (BoardId id = 0; id < geometry.states(); ++id) {
        const Heights heights = geometry.decode(id);
        const Heights image{heights[3], heights[2], heights[1], heights[0]};
        differ += solution.values[id] != solution.values[geometry.encode(image)];
    }
    EXPECT_GT(differ, 0u);
}

// Values known by hand: a set of one 3x3 block fills the empty 3x3 well
// with its first piece (V = 1); a set of one 1x1 dot places nine.
TEST(PieceValues, OneBlockFillsTheWell) {
    const PieceSet block = PieceSet::from_file_text("piece b\n###\n###\n###\n");
    const PieceSetSolution solution = solve_piece_set(block, Geometry(3, 3));
    EXPECT_EQ(solution.values[0], 1.0);
    const PieceSet dot = PieceSet::from_file_text("piece d\n#\n");
    EXPECT_EQ(solve_piece_set(dot, Geometry(3, 3)).values[0], 9.0);  // nine dots always fit, then none
}

}  // namespace stack
