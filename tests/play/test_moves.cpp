#include "srs/moves.h"
#include "rules/rules.h"
#include "rules/pieces.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <tuple>

namespace stack::moves {

namespace {

using CellSet = std::set<Cells>;

CellSet cell_set(const std::vector<SrsPlacement>& placements) {
    CellSet set;
    for (const SrsPlacement& placement : placements)
        set.insert(placement.cells);
    return set;
}

std::uint8_t reached_at(const std::vector<SrsPlacement>& placements, const Cells& cells) {
    for (const SrsPlacement& placement : placements)
        if (placement.cells == cells)
            return placement.reached;
    return 0;
}

Cells sorted(Cells cells) {
    std::sort(cells.begin(), cells.end());
    return cells;
}

// A random board with holes and overhangs: random column heights, then
// cells removed below the top at the given rate.
SrsBoard random_board(std::mt19937_64& random, int width, int height, double hole_rate) {
    SrsBoard board(width, height);
    std::uniform_int_distribution<int> column_height(0, height - 4);
    std::bernoulli_distribution hole(hole_rate);
    for (int x = 0; x < width; ++x) {
        const int top = column_height(random);
        for (int y = 0; y < top; ++y)
            if (!hole(random))
                board.fill(x, y);
    }
    return board;
}

constexpr std::array<Piece, PieceCount> AllPieces = {PieceI,     PieceT,      PieceSquare, PieceZRight,
                                                     PieceZLeft, PieceLRight, PieceLLeft};

// The placements the tables use on a contour: each orientation of the
// piece at each column where its underside matches and it stays within H.
CellSet table_placements(const std::vector<int>& heights, int height, Piece piece) {
    CellSet set;
    const int width = int(heights.size());
    for (const Orientation& orientation : Rules::tetrominoes().orientations()) {
        if (orientation.piece != piece)
            continue;
        for (int x = 0; x + orientation.width <= width; ++x) {
            bool fits = true;
            for (int k = 0; k + 1 < orientation.width; ++k)
                fits &= heights[x + k + 1] - heights[x + k] == orientation.surface[k];
            for (int k = 0; k < orientation.width; ++k)
                fits &= heights[x + k] + orientation.added[k] <= height;
            if (fits)
                set.insert(table_placement_cells(orientation, x, heights.data()));
        }
    }
    return set;
}

// The BFS placements that leave no hole and stay within the well's rows.
CellSet hole_free_placements(const SrsBoard& board, Piece piece) {
    CellSet set;
    for (const SrsPlacement& placement : generate(board, piece, Algorithm::BreadthFirst)) {
        bool keep = true;
        for (const auto& [x, y] : placement.cells) {
            const bool supported = y == 0 || board.filled(x, y - 1)
                                   || std::count(placement.cells.begin(), placement.cells.end(), std::pair{x, y - 1});
            keep &= supported && y < board.height();
        }
        if (keep)
            set.insert(placement.cells);
    }
    return set;
}

struct ClaimCount {
    long contours = 0, checks = 0, holds = 0, fails = 0, fails_with_clearance = 0;
};

// Checks the claim on one contour for every piece; `clearance` is the
// number of empty rows under the spawn rows the contour leaves.
void check_claim(const std::vector<int>& heights, int height, ClaimCount& count) {
    const SrsBoard board = SrsBoard::from_heights(int(heights.size()), height, heights);
    const int highest = *std::max_element(heights.begin(), heights.end());
    ++count.contours;
    for (Piece piece : AllPieces) {
        ++count.checks;
        const CellSet reached = hole_free_placements(board, piece), tables = table_placements(heights, height, piece);
        if (reached == tables) {
            ++count.holds;
        } else {
            ++count.fails;
            CellSet missing;
            std::set_difference(tables.begin(), tables.end(), reached.begin(), reached.end(),
                                std::inserter(missing, missing.end()));
            if (count.fails <= 3) {
                std::cout << "[ moves ] the claim fails: " << piece_letter(piece) << " on heights";
                for (int h : heights)
                    std::cout << " " << h;
                std::cout << ": " << missing.size() << " table placements BFS cannot reach, "
                          << reached.size() + missing.size() - tables.size() << " BFS placements the tables lack\n";
            }
            count.fails_with_clearance += highest <= height - 4;
        }
    }
}

// A reference breadth first search, written from the rules as moves.h
// states them, slowly and plainly: locations in a std::set, the queue a
// std::deque, the placements by their cells in a std::map. Its output is
// what generate(..., BreadthFirst) must give, in the same order, with the
// same events.
namespace reference {

using Kicks = std::array<std::array<std::pair<int, int>, 5>, 4>;  // [from]: (dx, dy), tried in order
constexpr Kicks Clockwise = {{{{{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}}},
                              {{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}}},
                              {{{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}}},
                              {{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}}}}};
constexpr Kicks CounterClockwise = {{{{{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}}},
                                     {{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}}},
                                     {{{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}}},
                                     {{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}}}}};
constexpr Kicks IClockwise = {{{{{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}}},
                               {{{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}}},
                               {{{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}}},
                               {{{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}}}}};
constexpr Kicks ICounterClockwise = {{{{{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}}},
                                      {{{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}}},
                                      {{{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}}},
                                      {{{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}}}}};

// The spawn state's cells in the piece's box (x right, y up) and the box's
// size, by Piece: I T O S Z L J; a clockwise turn maps (x, y) to (y, box -
// 1 - x).
constexpr std::array<std::pair<int, Cells>, PieceCount> Spawned = {{
    {4, {{{0, 2}, {1, 2}, {2, 2}, {3, 2}}}},
    {3, {{{0, 1}, {1, 1}, {2, 1}, {1, 2}}}},
    {2, {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}}},
    {3, {{{0, 1}, {1, 1}, {1, 2}, {2, 2}}}},
    {3, {{{0, 2}, {1, 2}, {1, 1}, {2, 1}}}},
    {3, {{{2, 2}, {0, 1}, {1, 1}, {2, 1}}}},
    {3, {{{0, 2}, {0, 1}, {1, 1}, {2, 1}}}},
}};

Cells cells_of(Piece piece, const Location& at) {
    const auto& [box, spawned] = Spawned[std::size_t(piece)];
    Cells cells = spawned;
    for (auto& [x, y] : cells) {
        for (int turn = 0; turn < at.rotation; ++turn)
            std::tie(x, y) = std::pair{y, box - 1 - x};
        x += at.x, y += at.y;
    }
    std::sort(cells.begin(), cells.end());
    return cells;
}

struct Output {
    std::vector<SrsPlacement> placements;
    std::vector<SearchEvent> events;
    long last_kick_spins = 0;  // arrivals full only by the last-kick rule
};

class Search {
public:
    Search(const SrsBoard& board, Piece piece, const MoveOptions& options)
        : board_(board), piece_(piece), options_(options) {
        const int spawn_row = options.spawn_row >= 0 ? options.spawn_row : board.height();
        top_ = std::max(board.height(), spawn_row) + 5;
    }

    Output run() {
        // The spawn: the box centred, the spawn cells in rows S and S+1 (the
        // I's in row S).
        const int box = Spawned[std::size_t(piece_)].first;
        const int spawn_row = options_.spawn_row >= 0 ? options_.spawn_row : board_.height();
        const Location spawn{(board_.width() - box) / 2,
                             piece_ == PieceI        ? spawn_row - 2
                             : piece_ == PieceSquare ? spawn_row
                                                     : spawn_row - 1,
                             0};
        if (!fits(spawn))
            return {};
        std::deque<Location> queue = {spawn};
        std::set<std::tuple<int, int, int>> visited = {key(spawn)};
        output_.events.push_back({SearchEventKind::Reached, spawn});
        if (lockable(spawn))
            add(spawn, ReachedPlain);
        while (!queue.empty()) {
            const Location at = queue.front();
            queue.pop_front();
            output_.events.push_back({SearchEventKind::Popped, at});
            for (int move = 0; move < 6; ++move) {
                int kick = -1;
                const std::optional<Location> to = apply(at, move, kick);
                if (!to)
                    continue;
                if (lockable(*to))
                    add(*to, move >= 3 ? spin(*to, kick) : std::uint8_t(ReachedPlain));
                if (visited.insert(key(*to)).second) {
                    output_.events.push_back({SearchEventKind::Reached, *to});
                    queue.push_back(*to);
                }
            }
        }
        return output_;
    }

private:
    static std::tuple<int, int, int> key(const Location& at) { return {at.x, at.y, at.rotation}; }

    // The search space as moves.cpp bounds it: x in [-3, W+3), y in [-3,
    // T+5), T the higher of the height and the spawn row.
    bool fits(const Location& at) const {
        if (at.x < -3 || at.x >= board_.width() + 3 || at.y < -3 || at.y >= top_)
            return false;
        for (const auto& [x, y] : cells_of(piece_, at))
            if (board_.filled(x, y))
                return false;
        return true;
    }
    bool lockable(const Location& at) const { return fits(at) && !fits({at.x, at.y - 1, at.rotation}); }

    // Moves 0-5: left, right, soft drop, clockwise, counter-clockwise, 180.
    std::optional<Location> apply(const Location& at, int move, int& kick) const {
        if (move < 3) {
            const Location to{at.x + (move == 0 ? -1 : move == 1 ? 1 : 0), at.y - (move == 2), at.rotation};
            return fits(to) ? std::optional(to) : std::nullopt;
        }
        if (move == 5) {
            const Location to{at.x, at.y, (at.rotation + 2) % 4};
            kick = 0;
            return options_.rotate_180 && fits(to) ? std::optional(to) : std::nullopt;
        }
        const bool clockwise = move == 3;
        const Kicks& kicks = piece_ == PieceI ? (clockwise ? IClockwise : ICounterClockwise)
                                              : (clockwise ? Clockwise : CounterClockwise);
        for (kick = 0; kick < (piece_ == PieceSquare ? 1 : 5); ++kick) {
            const auto [dx, dy] = kicks[at.rotation][kick];
            const Location to{at.x + dx, at.y + dy, (at.rotation + (clockwise ? 1 : 3)) % 4};
            if (fits(to))
                return to;
        }
        return std::nullopt;
    }

    // A turn's arrival: for a T, 3 of its box's corners filled make a spin,
    // full when both corners it points to are filled or the turn used the
    // last kick, else a mini.
    std::uint8_t spin(const Location& at, int kick) {
        if (piece_ != PieceT)
            return ReachedPlain;
        const std::array<bool, 4> corner = {board_.filled(at.x, at.y + 2), board_.filled(at.x + 2, at.y + 2),
                                            board_.filled(at.x + 2, at.y), board_.filled(at.x, at.y)};  // TL TR BR BL
        if (corner[0] + corner[1] + corner[2] + corner[3] < 3)
            return ReachedPlain;
        const bool front = corner[std::size_t(at.rotation)] && corner[std::size_t((at.rotation + 1) % 4)];
        output_.last_kick_spins += !front && kick == 4;
        return front || kick == 4 ? ReachedFull : ReachedMini;
    }

    void add(const Location& at, std::uint8_t reached) {
        output_.events.push_back({SearchEventKind::Placeable, at});
        const Cells cells = cells_of(piece_, at);
        const auto [entry, fresh] = index_.try_emplace(cells, output_.placements.size());
        if (fresh)
            output_.placements.push_back({at, cells, 0});
        output_.placements[entry->second].reached |= reached;
    }

    const SrsBoard& board_;
    Piece piece_;
    MoveOptions options_;
    int top_;
    std::map<Cells, std::size_t> index_;
    Output output_;
};

}  // namespace reference

}  // namespace

TEST(Moves, SpawnIsCentredAboveTheWell) {
    const SrsBoard board(10, 20);
    EXPECT_EQ(cells_at(PieceT, *spawn_location(board, PieceT)), sorted({{{3, 20}, {4, 20}, {5, 20}, {4, 21}}}));
    EXPECT_EQ(cells_at(PieceI, *spawn_location(board, PieceI)), sorted({{{3, 20}, {4, 20}, {5, 20}, {6, 20}}}));
    EXPECT_EQ(cells_at(PieceSquare, *spawn_location(board, PieceSquare)),
              sorted({{{4, 20}, {5, 20}, {4, 21}, {5, 21}}}));
}

// On an empty 10-wide well every piece lands flat in every column and
// rotation: I 7 + 10, O 9, T 4 x 8 + ... counted by hand: the distinct
// resting cell sets of each piece on a flat floor.
TEST(Moves, EmptyWellPlacementCounts) {
    const SrsBoard board(10, 20);
    // I: 7 horizontal, 10 vertical. O: 9. T: 8 + 8 + 9 + 9. S, Z: 8 + 9.
    // J, L: 8 + 8 + 9 + 9.
    const std::array<std::size_t, PieceCount> expected = {17, 34, 9, 17, 17, 34, 34};  // I T O S Z L J
    for (Piece piece : AllPieces)
        for (Algorithm algorithm : {Algorithm::HardDrop, Algorithm::BreadthFirst, Algorithm::Quick,
                                    Algorithm::Convolution, Algorithm::ConvolutionSeed})
            EXPECT_EQ(generate(board, piece, algorithm).size(), expected[int(piece)])
                << piece_letter(piece) << " by " << algorithm_name(algorithm);
}

// The document's convolution turns only at the edges of a flood. An I in a
// 4-wide shaft (columns 3-6, walls of 3 columns each side, 19 rows) over a
// 1-wide hole at column 3: BFS finds 17 placements, the document's version
// 11; the complete convolution finds BFS's 17 with the same spin marks.
TEST(Moves, ConvolutionSeedMissesAKickLiftedTurnThatConvolutionFinds) {
    SrsBoard board(10, 20);
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 10; ++x)
            if (y == 0 ? x != 3 : (x < 3 || x > 6))
                board.fill(x, y);
    const auto bfs = generate(board, PieceI, Algorithm::BreadthFirst);
    const auto seed = generate(board, PieceI, Algorithm::ConvolutionSeed);
    const auto complete = generate(board, PieceI, Algorithm::Convolution);
    EXPECT_EQ(bfs.size(), 17u);
    EXPECT_EQ(seed.size(), 11u);
    EXPECT_EQ(cell_set(complete), cell_set(bfs));
    for (const SrsPlacement& placement : bfs)
        EXPECT_EQ(placement.reached, reached_at(complete, placement.cells));
    const CellSet found = cell_set(seed), all = cell_set(bfs);
    EXPECT_TRUE(std::includes(all.begin(), all.end(), found.begin(), found.end()));
}

TEST(Moves, RandomBoardsBreadthFirstEqualsConvolution) {
    std::mt19937_64 random(2026);
    long boards = 0, placements = 0, missed_by_hard_drop = 0, missed_by_quick = 0, missed_by_seed = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const SrsBoard board = random_board(random, 10, 20, trial % 3 == 0 ? 0.0 : 0.3);
        for (Piece piece : AllPieces) {
            for (bool rotate_180 : {false, true}) {
                const MoveOptions options{rotate_180};
                const auto bfs = generate(board, piece, Algorithm::BreadthFirst, options);
                const auto convolution = generate(board, piece, Algorithm::Convolution, options);
                ASSERT_EQ(cell_set(bfs), cell_set(convolution)) << "trial " << trial;
                for (const SrsPlacement& placement : bfs)
                    ASSERT_EQ(placement.reached, reached_at(convolution, placement.cells)) << "trial " << trial;
                if (rotate_180)
                    continue;
                const CellSet all = cell_set(bfs);
                const CellSet hard = cell_set(generate(board, piece, Algorithm::HardDrop));
                const CellSet quick = cell_set(generate(board, piece, Algorithm::Quick, options));
                const CellSet seed = cell_set(generate(board, piece, Algorithm::ConvolutionSeed, options));
                ASSERT_TRUE(std::includes(all.begin(), all.end(), hard.begin(), hard.end())) << "trial " << trial;
                ASSERT_TRUE(std::includes(all.begin(), all.end(), quick.begin(), quick.end())) << "trial " << trial;
                ASSERT_TRUE(std::includes(all.begin(), all.end(), seed.begin(), seed.end())) << "trial " << trial;
                missed_by_seed += long(all.size() - seed.size());
                ++boards;
                placements += long(all.size());
                missed_by_hard_drop += long(all.size() - hard.size());
                missed_by_quick += long(all.size() - quick.size());
            }
        }
    }
    std::cout << "[ moves ] " << boards << " (board, piece) pairs, " << placements
              << " BFS placements; hard drop missed " << missed_by_hard_drop << ", quick missed " << missed_by_quick
              << ", the document's convolution missed " << missed_by_seed << "\n";
    RecordProperty("placements", std::to_string(placements));
    RecordProperty("missed_by_hard_drop", std::to_string(missed_by_hard_drop));
    RecordProperty("missed_by_quick", std::to_string(missed_by_quick));
    EXPECT_GT(missed_by_hard_drop, 0);  // boards with overhangs have tucks and spins hard drop cannot reach
    EXPECT_LE(missed_by_quick, missed_by_hard_drop);
}

// A T-spin double slot: the T's stem goes into (2,0), its bar into row 1;
// the overhang at (3,2) lets it in only by a turn. All four corners of its
// box at the end but (1,2) are filled, and both corners it points to
// (down: (1,0), (3,0)) are filled: a full T-spin, which hard drop misses.
TEST(Moves, TSpinDoubleSlot) {
    SrsBoard board(10, 20);
    for (int x = 0; x < 10; ++x) {
        if (x != 2)
            board.fill(x, 0);
        if (x < 1 || x > 3)
            board.fill(x, 1);
    }
    board.fill(3, 2);
    board.fill(4, 2);
    const Cells slot = sorted({{{1, 1}, {2, 1}, {3, 1}, {2, 0}}});
    const auto bfs = generate(board, PieceT, Algorithm::BreadthFirst);
    EXPECT_TRUE(reached_at(bfs, slot) & ReachedFull);
    EXPECT_EQ(reached_at(generate(board, PieceT, Algorithm::HardDrop), slot), 0);
    const auto inputs = shortest_inputs(board, PieceT, slot);
    ASSERT_TRUE(inputs.has_value());
    EXPECT_NE(inputs->find_first_of("cw"), std::string::npos) << *inputs;
}

// A tuck: an O slides under a two-cell overhang at the left wall after
// dropping beside it. Hard drop lands on top of the overhang; quick and BFS
// tuck it.
TEST(Moves, TuckUnderAnOverhang) {
    SrsBoard board(10, 20);
    board.fill(0, 2);
    board.fill(1, 2);
    const Cells tucked = sorted({{{0, 0}, {1, 0}, {0, 1}, {1, 1}}});
    EXPECT_EQ(reached_at(generate(board, PieceSquare, Algorithm::HardDrop), tucked), 0);
    EXPECT_EQ(reached_at(generate(board, PieceSquare, Algorithm::Quick), tucked), ReachedPlain);
    EXPECT_EQ(reached_at(generate(board, PieceSquare, Algorithm::BreadthFirst), tucked), ReachedPlain);
    const auto inputs = shortest_inputs(board, PieceSquare, tucked);
    ASSERT_TRUE(inputs.has_value());
    EXPECT_EQ(inputs->back(), 'H');
    EXPECT_NE(inputs->find('l'), std::string::npos) << *inputs;
}

// An S spin: the slot's left cell (0,0) is under an overhang at (0,1) and
// (2,0) is filled, so the S can neither drop in flat nor slide in along row
// 0; it drops beside, then turns in with kicks. (Found by searching random
// boards for an S placement hard drop misses, then checked by hand.)
//   y=2  ...#.#..#.
//   y=1  #SS###...#
//   y=0  SS##.#..##
TEST(Moves, SKickIntoASlot) {
    SrsBoard board(10, 20);
    for (auto [x, y] : {std::pair{3, 2},
                        {5, 2},
                        {8, 2},
                        {0, 1},
                        {3, 1},
                        {4, 1},
                        {5, 1},
                        {9, 1},
                        {2, 0},
                        {3, 0},
                        {5, 0},
                        {8, 0},
                        {9, 0}})
        board.fill(x, y);
    const Cells slot = sorted({{{0, 0}, {1, 0}, {1, 1}, {2, 1}}});
    EXPECT_TRUE(reached_at(generate(board, PieceZRight, Algorithm::BreadthFirst), slot) & ReachedPlain);
    EXPECT_EQ(reached_at(generate(board, PieceZRight, Algorithm::HardDrop), slot), 0);
    const auto inputs = shortest_inputs(board, PieceZRight, slot);
    ASSERT_TRUE(inputs.has_value());
    // Over to the slot's columns, down, and then a turn (whose kick carries
    // it into the slot) before the lock.
    const std::size_t drop = inputs->find_first_of("dD");
    ASSERT_NE(drop, std::string::npos) << *inputs;
    EXPECT_NE(inputs->find_first_of("cw", drop), std::string::npos) << *inputs;
    EXPECT_EQ(inputs->back(), 'H');
}

// The claim the tables rest on: on a hole-free stack, the placements BFS
// reaches that leave no hole are exactly the tables' hard-drop placements.
// Every contour of the 4x8 and 5x6 wells, random contours of 10x20. Where
// it fails is counted and reported; it must hold whenever the stack leaves
// four empty rows under the spawn rows.
TEST(Moves, ContourClaimExhaustiveSmallWells) {
    for (auto [width, height] : {std::pair{4, 8}, std::pair{5, 6}}) {
        ClaimCount count;
        std::vector<int> heights(std::size_t(width), 0);
        while (true) {
            check_claim(heights, height, count);
            int column = 0;
            while (column < width && heights[column] == height)
                heights[column++] = 0;
            if (column == width)
                break;
            ++heights[column];
        }
        std::cout << "[ moves ] " << width << "x" << height << ": " << count.contours << " contours, " << count.checks
                  << " (contour, piece) checks, claim holds on " << count.holds << ", fails on " << count.fails << " ("
                  << count.fails_with_clearance << " of them with 4 free rows under the spawn)\n";
        EXPECT_EQ(count.fails_with_clearance, 0) << width << "x" << height;
    }
}

TEST(Moves, ContourClaimRandomTenByTwenty) {
    std::mt19937_64 random(20);
    ClaimCount count;
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<int> heights(10);
        const int ceiling = 1 + trial % 20;
        std::uniform_int_distribution<int> column(0, ceiling);
        for (int& h : heights)
            h = column(random);
        check_claim(heights, 20, count);
    }
    std::cout << "[ moves ] 10x20: " << count.contours << " random contours, " << count.checks
              << " checks, claim holds on " << count.holds << ", fails on " << count.fails << " ("
              << count.fails_with_clearance << " with 4 free rows under the spawn)\n";
    EXPECT_EQ(count.fails_with_clearance, 0);
}

// --explain's inputs: on an empty well every table placement is a hard
// drop with a sequence ending in the lock; beside a column filled to the top
// (a case the contour claim reports) the vertical I at the far column is out
// of SRS's reach.
TEST(Moves, ReachOfTablePlacements) {
    const std::vector<int> empty(10, 0);
    int checked = 0;
    for (const Orientation& orientation : Rules::tetrominoes().orientations()) {
        if (std::any_of(orientation.surface.begin(), orientation.surface.begin() + orientation.width - 1,
                        [](int step) { return step != 0; }))
            continue;  // its underside is not flat: it does not fit an empty well
        for (int x = 0; x + orientation.width <= 10; ++x, ++checked) {
            const Reach reach = reach_table_placement(empty, 20, orientation, x);
            EXPECT_TRUE(reach.hard_drop);
            ASSERT_FALSE(reach.inputs.empty());
            EXPECT_EQ(reach.inputs.back(), 'H');
        }
    }
    // The flat-bottomed orientations: I flat (7 columns) and upright (10),
    // T flat (8), O (9), L and J flat (8 each) and upright (9 each).
    EXPECT_EQ(checked, 7 + 10 + 8 + 9 + 8 + 8 + 9 + 9);
    const Reach blocked =
        reach_table_placement({15, 11, 0, 10, 7, 8, 15, 1, 20, 7}, 20, stack::Rules::tetrominoes().orientation(1), 9);
    EXPECT_EQ(stack::Rules::tetrominoes().orientation(1).piece, PieceI);
    EXPECT_TRUE(blocked.inputs.empty());
    EXPECT_FALSE(blocked.hard_drop);
}

// The one convention every view names rotations by: SRS's 0 R 2 L.
TEST(Moves, RotationNamesAreSrss) {
    EXPECT_STREQ(rotation_name(0), "0");
    EXPECT_STREQ(rotation_name(1), "R");
    EXPECT_STREQ(rotation_name(2), "2");
    EXPECT_STREQ(rotation_name(3), "L");
    EXPECT_STREQ(RotationNames[0].words, "spawn");
}

// A table orientation's SRS rotation, each shape written here from SRS's
// pictures: the T spawns flat side down, stem up (0); one turn clockwise
// points its stem right (R), two turns down (2), one turn counter-clockwise
// left (L). An orientation: its columns' cells (added) and the steps
// between its columns' bottoms (surface).
TEST(Moves, TableRotationOfTheTAndTheI) {
    auto shape = [](int piece, std::vector<int> added, std::vector<int> surface) {
        Orientation orientation;
        orientation.piece = piece;
        orientation.width = int(added.size());
        for (std::size_t k = 0; k < added.size(); ++k)
            orientation.added[k] = std::int8_t(added[k]);
        for (std::size_t k = 0; k < surface.size(); ++k)
            orientation.surface[k] = std::int8_t(surface[k]);
        return orientation;
    };
    EXPECT_EQ(table_rotation(shape(PieceT, {1, 2, 1}, {0, 0})), 0);  // stem up: spawn
    EXPECT_EQ(table_rotation(shape(PieceT, {3, 1}, {1})), 1);        // stem right: R
    EXPECT_EQ(table_rotation(shape(PieceT, {1, 2, 1}, {-1, 1})), 2);  // stem down
    EXPECT_EQ(table_rotation(shape(PieceT, {1, 3}, {-1})), 3);       // stem left: L
    EXPECT_EQ(table_rotation(shape(PieceI, {1, 1, 1, 1}, {0, 0, 0})), 0);
    EXPECT_EQ(table_rotation(shape(PieceI, {4}, {})), 1);  // upright: R or L, R the first
    EXPECT_EQ(table_rotation(shape(PieceLRight, {2, 1, 1}, {1, 0})), 2);  // L: its foot up at the left
    EXPECT_EQ(table_rotation(shape(PieceLRight, {3, 1}, {0})), 1);        // L: its foot at the bottom right
    // Every orientation of the tetrominoes' table has one, and each piece's
    // orientations have different ones.
    const Rules& rules = Rules::tetrominoes();
    for (int piece = 0; piece < PieceCount; ++piece) {
        std::set<int> seen;
        for (int o = rules.first_orientation(piece); o < rules.first_orientation(piece + 1); ++o)
            seen.insert(table_rotation(rules.orientation(o)));
        EXPECT_EQ(int(seen.size()), rules.first_orientation(piece + 1) - rules.first_orientation(piece)) << piece;
    }
}

TEST(Moves, RotationAfterInputsCountsTheTurns) {
    EXPECT_EQ(rotation_after("H"), 0);
    EXPECT_EQ(rotation_after("lrdDH"), 0);
    EXPECT_EQ(rotation_after("cH"), 1);
    EXPECT_EQ(rotation_after("ccH"), 2);
    EXPECT_EQ(rotation_after("wH"), 3);
    EXPECT_EQ(rotation_after("cwH"), 0);
    EXPECT_EQ(rotation_after("fH"), 2);
    EXPECT_EQ(rotation_after("wfH"), 1);
}

// --explain's reaches of a whole piece by one search each: against each
// placement's own shortest search and the hard-drop placements, on random
// contours (some with a column at the top, some with deep wells).
TEST(Moves, ReachOfTablePlacementsOfAPieceAtOnce) {
    std::mt19937_64 random(23);
    const Rules& rules = Rules::tetrominoes();
    long checked = 0, unreachable = 0, spin_only = 0;
    for (int trial = 0; trial < 40; ++trial) {
        std::vector<int> heights(10);
        for (int& height : heights)
            height = int(random() % (trial % 2 ? 21 : 8));
        const SrsBoard board = SrsBoard::from_heights(10, 20, heights);
        for (Piece piece : AllPieces) {
            std::vector<std::pair<const Orientation*, int>> wanted;
            for (const Orientation& orientation : rules.orientations())
                for (int x = 0; orientation.piece == int(piece) && x + orientation.width <= 10; ++x)
                    if (orientation.fits(heights.data(), x, 20))
                        wanted.emplace_back(&orientation, x);
            const std::vector<Reach> reaches = reach_table_placements(heights, 20, wanted);
            ASSERT_EQ(reaches.size(), wanted.size());
            CellSet by_hard_drop;
            for (const SrsPlacement& placement : generate(board, piece, Algorithm::HardDrop))
                by_hard_drop.insert(placement.cells);
            for (std::size_t i = 0; i < wanted.size(); ++i, ++checked) {
                const Cells target = table_placement_cells(*wanted[i].first, wanted[i].second, heights.data());
                const auto single = shortest_inputs(board, piece, target);
                EXPECT_EQ(reaches[i].inputs.empty(), !single.has_value()) << "trial " << trial;
                if (single) {
                    EXPECT_EQ(reaches[i].inputs.size(), single->size()) << "trial " << trial;
                }
                EXPECT_EQ(reaches[i].hard_drop, by_hard_drop.count(target) > 0) << "trial " << trial;
                unreachable += !single.has_value();
                spin_only += single.has_value() && !reaches[i].hard_drop;
            }
        }
    }
    EXPECT_GT(checked, 500);    // 606 table placements fit these contours
    EXPECT_GT(unreachable, 0);  // the walls of the tall contours block some
    EXPECT_GT(spin_only, 0);
    EXPECT_THROW(
        reach_table_placements(std::vector<int>(10, 0), 20,
                               {{&rules.orientation(0), 0}, {&rules.orientation(rules.orientation_count() - 1), 0}}),
        std::invalid_argument);
}

// The batch of shortest inputs (one search for every placement) gives each
// placement a sequence as short as its own search's, ending in a hard drop;
// a trace does not change what a
// search finds, and every placement found has a Placeable event at it.
TEST(Moves, BatchInputsAndTracesAgreeWithTheSingleSearches) {
    std::mt19937_64 random(19);
    long checked = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const SrsBoard board = random_board(random, 10, 20, trial % 2 ? 0.3 : 0.0);
        for (Piece piece : AllPieces) {
            const auto placements = generate(board, piece, Algorithm::BreadthFirst);
            const auto batch = shortest_inputs(board, piece, placements);
            ASSERT_EQ(batch.size(), placements.size());
            for (std::size_t i = 0; i < placements.size(); ++i) {
                const auto single = shortest_inputs(board, piece, placements[i].cells);
                ASSERT_TRUE(single.has_value());
                EXPECT_EQ(batch[i].size(), single->size()) << "trial " << trial;
                ASSERT_FALSE(batch[i].empty());
                EXPECT_EQ(batch[i].back(), 'H');
                ++checked;
            }
            for (Algorithm algorithm : {Algorithm::HardDrop, Algorithm::BreadthFirst, Algorithm::Quick,
                                        Algorithm::Convolution, Algorithm::ConvolutionSeed}) {
                std::vector<SearchEvent> events;
                const auto traced = generate(board, piece, algorithm, {}, &events);
                const auto plain = generate(board, piece, algorithm);
                ASSERT_EQ(cell_set(traced), cell_set(plain));
                ASSERT_FALSE(events.empty());
                EXPECT_EQ(events.front().kind, SearchEventKind::Reached);
                EXPECT_EQ(events.front().at, *spawn_location(board, piece));
                for (const SrsPlacement& placement : traced)
                    EXPECT_TRUE(std::any_of(events.begin(), events.end(), [&](const SearchEvent& event) {
                        return event.kind == SearchEventKind::Placeable && cells_at(piece, event.at) == placement.cells;
                    })) << algorithm_name(algorithm);
                if (algorithm == Algorithm::BreadthFirst) {  // every location reached is popped once
                    const auto count = [&](SearchEventKind kind) {
                        return std::count_if(events.begin(), events.end(),
                                             [&](const SearchEvent& e) { return e.kind == kind; });
                    };
                    EXPECT_EQ(count(SearchEventKind::Reached), count(SearchEventKind::Popped));
                }
            }
        }
    }
    EXPECT_GT(checked, 10000);
}

// Every spin listed for a placement comes with inputs that perform it:
// replayed as a game plays them, they lock those cells with that spin, and
// no spin is listed that no inputs perform (issue 38: a 'mini' was shown
// with inputs that lock with none). T on random boards with overhangs.
TEST(Moves, EachSpinListedHasInputsThatPerformIt) {
    std::mt19937_64 random(38);
    long spins = 0, ways = 0;
    for (int trial = 0; trial < 150; ++trial) {
        const SrsBoard board = random_board(random, 10, 20, trial % 3 == 0 ? 0.0 : 0.35);
        for (const bool rotate_180 : {false, true}) {
            MoveOptions options;
            options.rotate_180 = rotate_180;
            const auto placements = generate(board, PieceT, Algorithm::BreadthFirst, options);
            const auto inputs = spin_inputs(board, PieceT, placements, options);
            ASSERT_EQ(inputs.size(), placements.size());
            for (std::size_t i = 0; i < placements.size(); ++i)
                for (const std::uint8_t spin : {ReachedPlain, ReachedMini, ReachedFull}) {
                    const std::string& way = inputs_for_spin(inputs[i], spin);
                    EXPECT_EQ(!way.empty(), (placements[i].reached & spin) != 0)
                        << "trial " << trial << " spin " << int(spin) << " reached " << int(placements[i].reached);
                    if (way.empty())
                        continue;
                    const auto played = replay(board, PieceT, way, options);
                    ASSERT_TRUE(played.has_value()) << way;
                    EXPECT_EQ(played->cells, placements[i].cells) << way;
                    EXPECT_EQ(played->spin, spin) << way << " trial " << trial;
                    ++ways;
                    spins += spin != ReachedPlain;
                }
        }
    }
    EXPECT_GT(spins, 100);
    EXPECT_GT(ways, 5000);
}

// The board issue 38 found: the T at x 1, y 0, rotation 3 (L) is a mini
// only by a turn into place; its shortest inputs (llwH) lock with none.
TEST(Moves, TheMiniFoundByAUserHasInputsThatSpin) {
    SrsBoard board(10, 20);
    for (int x = 0; x < 10; ++x)
        if (x != 2)
            board.fill(x, 0);
    board.fill(3, 2);
    board.fill(4, 2);
    const auto placements = generate(board, PieceT, Algorithm::BreadthFirst);
    const auto inputs = spin_inputs(board, PieceT, placements);
    bool found = false;
    for (std::size_t i = 0; i < placements.size(); ++i) {
        if (!(placements[i].location == Location{1, 0, 3}))
            continue;
        found = true;
        ASSERT_TRUE(placements[i].reached & ReachedMini);
        const auto shortest = replay(board, PieceT, shortest_inputs(board, PieceT, placements[i].cells).value());
        ASSERT_TRUE(shortest.has_value());
        EXPECT_EQ(shortest->spin, ReachedPlain);  // what was shown beside 'mini'
        const std::string& mini = inputs_for_spin(inputs[i], ReachedMini);
        const auto played = replay(board, PieceT, mini);
        ASSERT_TRUE(played.has_value()) << mini;
        EXPECT_EQ(played->spin, ReachedMini) << mini;
        EXPECT_EQ(played->cells, placements[i].cells);
    }
    EXPECT_TRUE(found);
    EXPECT_THROW(replay(board, PieceT, "lxH"), std::invalid_argument);
}

// The Tetris Bot Protocol's spawn on a 10x40 board: spawn row 19, the
// piece's centre at (4, 19), so the boxes' corners at (3, 18), the I's at
// (3, 17) and the O's at (4, 19); by default the spawn is above the board.
TEST(Moves, SpawnRowOnATallBoard) {
    const SrsBoard board(10, 40);
    MoveOptions options;
    options.spawn_row = 19;
    for (Piece piece : AllPieces) {
        const Location expected = piece == PieceI        ? Location{3, 17, 0}
                                  : piece == PieceSquare ? Location{4, 19, 0}
                                                         : Location{3, 18, 0};
        EXPECT_EQ(spawn_location(board, piece, options), expected) << piece_letter(piece);
    }
    EXPECT_EQ(cells_at(PieceT, *spawn_location(board, PieceT, options)),
              sorted({{{3, 19}, {4, 19}, {5, 19}, {4, 20}}}));
    EXPECT_EQ(spawn_location(board, PieceT), (Location{3, 39, 0}));
    options.spawn_row = 40;
    EXPECT_EQ(spawn_location(board, PieceT, options), spawn_location(board, PieceT));
}

// On empty wells every placement is on the floor, so where the piece spawns
// (row 19 of 40, row 20 of 20, row 23 above a 20-row well) does not change
// them or how they are reached; every algorithm honours the spawn row.
TEST(Moves, SpawnRowKeepsTheFloorsPlacements) {
    const SrsBoard tall(10, 40), standard(10, 20);
    for (int spawn_row : {19, 23})
        for (Piece piece : AllPieces)
            for (Algorithm algorithm : {Algorithm::HardDrop, Algorithm::BreadthFirst, Algorithm::Quick,
                                        Algorithm::Convolution, Algorithm::ConvolutionSeed}) {
                MoveOptions options;
                options.spawn_row = spawn_row;
                const auto expected = generate(standard, piece, algorithm);
                for (const SrsBoard* board : {&tall, &standard}) {
                    const auto found = generate(*board, piece, algorithm, options);
                    ASSERT_EQ(cell_set(found), cell_set(expected)) << piece_letter(piece) << " spawn row " << spawn_row;
                    for (const SrsPlacement& placement : found)
                        EXPECT_EQ(placement.reached, reached_at(expected, placement.cells));
                }
            }
}

// A spawn row inside the board can be blocked where the board's top is
// not: rows 0-19 of a 10x40 board filled, nothing spawns at row 19 (no
// placements, no inputs), everything does at the default spawn row. The
// cell (4, 20) is a spawn cell of T, O, S and Z at row 19, not of I, L, J.
TEST(Moves, BlockedSpawnRowGivesNoPlacements) {
    SrsBoard full(10, 40), one_cell(10, 40);
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 10; ++x)
            full.fill(x, y);
    one_cell.fill(4, 20);
    MoveOptions options;
    options.spawn_row = 19;
    for (Piece piece : AllPieces) {
        EXPECT_FALSE(spawn_location(full, piece, options).has_value());
        for (Algorithm algorithm : {Algorithm::HardDrop, Algorithm::BreadthFirst, Algorithm::Quick,
                                    Algorithm::Convolution, Algorithm::ConvolutionSeed}) {
            EXPECT_TRUE(generate(full, piece, algorithm, options).empty()) << piece_letter(piece);
            EXPECT_FALSE(generate(full, piece, algorithm).empty()) << piece_letter(piece);
        }
        const auto placements = generate(full, piece, Algorithm::BreadthFirst);
        EXPECT_FALSE(shortest_inputs(full, piece, placements.front().cells, options).has_value());
        EXPECT_TRUE(shortest_inputs(full, piece, placements.front().cells).has_value());
    }
    for (Piece piece : {PieceT, PieceSquare, PieceZRight, PieceZLeft})
        EXPECT_TRUE(generate(one_cell, piece, Algorithm::BreadthFirst, options).empty()) << piece_letter(piece);
    for (Piece piece : {PieceI, PieceLRight, PieceLLeft})
        EXPECT_FALSE(generate(one_cell, piece, Algorithm::BreadthFirst, options).empty()) << piece_letter(piece);
}

// generate(..., BreadthFirst) gives exactly what the reference search
// gives: the same placements in the same order, each with the same first
// location and spin marks, and the same events in the same order. Random
// boards (heights, then holes: few, many, or cells scattered, where the
// T-spin rules' rarer cases come up) of 10x20, 10x40 spawning at row 19,
// and random sizes and spawn rows; with and without 180-degree turns.
TEST(Moves, BreadthFirstEqualsAReferenceSearch) {
    std::mt19937 random(2027);
    long searches = 0, placements = 0, spins = 0, last_kick_spins = 0;
    for (int trial = 0; trial < 200; ++trial) {
        int width = 10, height = 20, spawn_row = -1;
        if (trial % 4 == 1) {
            height = 40;
            spawn_row = 19;
        } else if (trial % 4 == 2) {
            width = std::uniform_int_distribution<int>(4, 16)(random);
            height = std::uniform_int_distribution<int>(4, 26)(random);
            spawn_row = std::uniform_int_distribution<int>(-1, height + 4)(random);
        }
        SrsBoard board(width, height);
        std::uniform_int_distribution<int> column_height(0, std::min(height, trial % 3 == 0 ? height : 12));
        std::bernoulli_distribution hole(std::array{0.1, 0.3, 0.7}[std::size_t(trial % 3)]);  // 0.7: scattered cells
        for (int x = 0; x < width; ++x)
            for (int y = 0, top = column_height(random); y < top; ++y)
                if (!hole(random))
                    board.fill(x, y);
        for (Piece piece : AllPieces)
            for (bool rotate_180 : {false, true}) {
                MoveOptions options;
                options.rotate_180 = rotate_180;
                options.spawn_row = spawn_row;
                const reference::Output expected = reference::Search(board, piece, options).run();
                std::vector<SearchEvent> events;
                const auto found = generate(board, piece, Algorithm::BreadthFirst, options, &events);
                ASSERT_EQ(found.size(), expected.placements.size()) << "trial " << trial;
                for (std::size_t i = 0; i < found.size(); ++i) {
                    ASSERT_EQ(found[i].cells, expected.placements[i].cells) << "trial " << trial << " #" << i;
                    ASSERT_EQ(found[i].location, expected.placements[i].location) << "trial " << trial << " #" << i;
                    ASSERT_EQ(found[i].reached, expected.placements[i].reached) << "trial " << trial << " #" << i;
                    spins += found[i].reached != ReachedPlain;
                }
                ASSERT_EQ(events.size(), expected.events.size()) << "trial " << trial;
                for (std::size_t i = 0; i < events.size(); ++i) {
                    ASSERT_EQ(events[i].kind, expected.events[i].kind) << "trial " << trial << " event " << i;
                    ASSERT_EQ(events[i].at, expected.events[i].at) << "trial " << trial << " event " << i;
                }
                const auto untraced = generate(board, piece, Algorithm::BreadthFirst, options);
                ASSERT_EQ(untraced.size(), found.size());
                for (std::size_t i = 0; i < found.size(); ++i)
                    ASSERT_TRUE(untraced[i].location == found[i].location && untraced[i].reached == found[i].reached);
                ++searches;
                placements += long(found.size());
                last_kick_spins += expected.last_kick_spins;
            }
    }
    std::cout << "[ moves ] BFS equals the reference search on " << searches << " searches (" << placements
              << " placements, " << spins << " reached by a T-spin; " << last_kick_spins
              << " arrivals full by the last kick's rule alone)\n";
    EXPECT_GT(spins, 0);
    EXPECT_GT(last_kick_spins, 0);
}

}  // namespace stack::moves
