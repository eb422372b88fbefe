// Real moves: every placement the 7 tetrominoes can reach under SRS (the
// Super Rotation System of modern Tetris) on any board, holes and overhangs
// allowed, by five algorithms (seed 004, "move generation"):
//
//   HardDrop      rotate at spawn, slide at spawn height, drop. Misses spins,
//                 tucks and anything that needs a kick.
//   BreadthFirst  every location (x, y, rotation) reachable by left, right,
//                 soft drop and rotation (with kicks), breadth first.
//   Quick         the hard-drop paths' airspace is marked visited without
//                 being expanded, then breadth first from where they land.
//                 Misses what needs a partial drop, then a slide.
//   Convolution   the map of where each rotation fits is computed first;
//                 the search floods it left, right and down, and every
//                 flooded location tries its turns. The same placements and
//                 spin marks as BreadthFirst on every board.
//   ConvolutionSeed  the document's version: turns only at the flood's edges
//                 (locations blocked left, right or below). Incomplete: a
//                 kick can lift a turn from open air where no edge's turn
//                 goes (an I in a 4-wide shaft over a 1-wide hole: 11
//                 placements against BFS's 17).
//
// Coordinates: x counts columns from the left wall, y rows from the floor
// (up). A location is the bottom-left corner of the piece's SRS box (3x3,
// 4x4 for I); rotation 0 is the spawn state, 1 = R (one clockwise turn), 2,
// 3 = L. Pieces spawn with their box centred ((width - box) / 2) and their
// spawn cells in rows S and S+1 (the I's in row S), where S is the spawn
// row (MoveOptions::spawn_row), by default the board's height H: just above
// the visible rows; rows from H up are empty (the vanish zone), so a full
// well never blocks the default spawn. A spawn row below H (a 40-row board
// spawning at row 19) can be blocked.
//
// T-spins (the document's rules): a T whose last move was a rotation and
// 3 of whose box's 4 corners are filled (walls and floor count) is a spin;
// it is a mini if either corner it points to is empty, unless that rotation
// used the last kick. A placement records every way it was reached: plain,
// mini, full (a bit each).
#pragma once

#include "rules/orientation.h"
#include "rules/pieces.h"
#include "support/limits.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stack::moves {

// The pieces are the tables' own (pieces.h): i is I, t T, sq O, zr S, zl Z,
// lr L and ll J, as piece_letter() draws them.

enum class Algorithm : std::uint8_t { HardDrop, BreadthFirst, Quick, Convolution, ConvolutionSeed };
const char* algorithm_name(Algorithm algorithm);

// SRS spawns a piece in a well at least this wide (the I's box is 4).
constexpr int LeastWidth = 4;

// A well of width LeastWidth to MaxWidth and any height; cells above the
// top row are empty.
class SrsBoard {
public:
    SrsBoard(int width, int height);
    int width() const { return width_; }
    int height() const { return height_; }
    bool filled(int x, int y) const;  // walls and floor are filled
    // Row y, in [0, height), as bits: bit x is set where (x, y) is filled.
    std::uint16_t row(int y) const { return rows_[std::size_t(y)]; }
    void fill(int x, int y);
    // A hole-free stack: column x filled up to heights[x].
    static SrsBoard from_heights(int width, int height, const std::vector<int>& heights);

private:
    int width_, height_;
    std::vector<std::uint16_t> rows_;  // [y] -> bit x
};

struct Location {
    int x = 0, y = 0, rotation = 0;
    bool operator==(const Location&) const = default;
};

using Cells = std::array<std::pair<int, int>, 4>;  // (x, y), sorted
Cells cells_at(Piece piece, const Location& location);

// A piece's spawn cells in its box (x right, y up), and the box's side.
struct SpawnShape {
    int box;
    Cells cells;
};
// The cells of each rotation (0, R, 2, L) in the piece's box: a clockwise
// turn maps (x, y) to (y, box - 1 - x). The web page's shapes are written
// from these at build time (play/web/page_tables.cpp).
std::array<Cells, 4> rotation_cells(Piece piece);

// The names of the rotations, one convention for every view (--explain,
// --show, the web page, whose tables.js is written from this table): SRS's
// 0 the spawn state, R one turn clockwise, 2 two turns, L one turn
// counter-clockwise, with the words the page explains each by.
struct RotationName {
    const char* name;
    const char* words;
};
constexpr RotationName RotationNames[4] = {
    {"0", "spawn"}, {"R", "one turn clockwise"}, {"2", "two turns"}, {"L", "one turn counter-clockwise"}};
const char* rotation_name(int rotation);  // "0" "R" "2" "L"

// The SRS rotation a tetromino's table orientation (pieces.h) is in: the
// first of 0 R 2 L whose cells have its shape. The I, S and Z have two
// rotations of each shape (an upright I is R or L): this gives the first,
// and the rotation shortest inputs end in (rotation_after) names the one
// that a player reaches.
int table_rotation(const Orientation& orientation);
// The rotation inputs from spawn end in: c a turn clockwise, w one
// counter-clockwise, f a half turn.
int rotation_after(const std::string& inputs);

// The inputs, one letter each, and the word the page spells each with.
struct InputLetter {
    char letter;
    const char* word;
};
constexpr InputLetter InputLetters[] = {
    {'l', "left"},       {'r', "right"},     {'c', "rotate-cw"},           {'w', "rotate-ccw"},
    {'f', "rotate-180"}, {'d', "soft-drop"}, {'D', "soft-drop-to-bottom"}, {'H', "hard-drop"}};

enum SpinBits : std::uint8_t { ReachedPlain = 1, ReachedMini = 2, ReachedFull = 4 };

struct SrsPlacement {
    Location location;  // the first location found with these cells
    Cells cells;
    std::uint8_t reached = 0;  // SpinBits: how it can be reached
};

// What a search did, step by step, for drawing it (the seed's animation):
// a location marked seen (Reached), taken off the queue or flood and
// expanded (Popped), found lockable (Placeable; the same cells can be
// found again from another location or move).
enum class SearchEventKind : std::uint8_t { Reached, Popped, Placeable };
struct SearchEvent {
    SearchEventKind kind;
    Location at;
};

struct MoveOptions {
    bool rotate_180 = false;  // a 180-degree turn, kicks (0,0) only
    // The row (from the floor, 0-based) of the spawn state's lowest cells
    // for T, S, Z, J, L, O and the I's row; negative: the board's height.
    // The Tetris Bot Protocol's guideline spawn (the piece's centre at x=4,
    // y=19 on a 10x40 board) is 19.
    int spawn_row = -1;
};

// The spawn location, or nothing when the spawn cells are blocked.
std::optional<Location> spawn_location(const SrsBoard& board, Piece piece, const MoveOptions& options = {});

// Every lockable placement the algorithm finds, one per set of cells, in
// the order found. `trace`, when given, receives the search's events in
// order (costing nothing when not).
std::vector<SrsPlacement> generate(const SrsBoard& board, Piece piece, Algorithm algorithm,
                                   const MoveOptions& options = {}, std::vector<SearchEvent>* trace = nullptr);

// The inputs of a shortest sequence from spawn to the placement with these
// cells, one letter each: l r (left, right), c w (rotate clockwise,
// counter-clockwise), f (180), d (soft drop one row), D (soft drop held to
// the bottom), H (hard drop, always last); nothing when it is unreachable.
std::optional<std::string> shortest_inputs(const SrsBoard& board, Piece piece, const Cells& target,
                                           const MoveOptions& options = {});
// The same for many placements at once, by one search: [i] -> the inputs
// of placements[i], empty when unreachable.
std::vector<std::string> shortest_inputs(const SrsBoard& board, Piece piece,
                                         const std::vector<SrsPlacement>& placements, const MoveOptions& options = {});

// Every way to lock each placement, by spin: [i] -> the shortest inputs
// that lock placements[i] with no spin, as a T-spin mini, and as a full
// T-spin ([0], [1], [2]); empty where that way does not exist. A spin's
// inputs end with the turn that earns it and an H that drops no row, so
// that they perform the spin they are listed for (replay says so).
using SpinInputs = std::array<std::string, 3>;
std::vector<SpinInputs> spin_inputs(const SrsBoard& board, Piece piece, const std::vector<SrsPlacement>& placements,
                                    const MoveOptions& options = {});
// The best spin some inputs perform (ReachedFull, ReachedMini, ReachedPlain;
// 0 when none do), and those inputs.
std::uint8_t best_spin(const SpinInputs& ways);
const std::string& inputs_for_spin(const SpinInputs& ways, std::uint8_t spin);

// Inputs played from spawn as a game plays them: the cells the piece locks
// in at the first H, and the spin the lock earns (a SpinBits bit); nothing
// when the spawn is blocked or no H comes. Throws std::invalid_argument on
// a letter that is not an input.
struct Replayed {
    Cells cells;
    std::uint8_t spin;
};
std::optional<Replayed> replay(const SrsBoard& board, Piece piece, const std::string& inputs,
                               const MoveOptions& options = {});
// The SRS kick test the last turn of each input sequence used, played from
// spawn as replay() plays them: 0 the turn in place, 1-4 the offsets tried
// after it (a 180-degree turn: always 0), -1 when the inputs turn nowhere
// (or the spawn is blocked). One map of the board serves every sequence.
std::vector<int> last_kicks(const SrsBoard& board, Piece piece, const std::vector<std::string>& inputs,
                            const MoveOptions& options = {});

// The cells a table placement (orientation, leftmost column) fills on a
// contour: column + k gains rows heights[column + k] .. + added[k] - 1. Any
// set's orientation; the SRS functions take the tetrominoes' (their piece
// index is their Piece).
// `heights` holds at least column + width columns.
Cells table_placement_cells(const Orientation& orientation, int column, const int* heights);

// How a real player reaches a table placement on a contour: a shortest
// input sequence from spawn (empty when SRS cannot reach it), and whether
// hard drop alone (turn at spawn, slide, drop) gets there.
struct Reach {
    std::string inputs;
    bool hard_drop = false;
    int rotation = 0;  // the SRS rotation it locks in: the inputs' last, else table_rotation's
};
Reach reach_table_placement(const std::vector<int>& heights, int height, const Orientation& orientation, int column);
// The same for several placements of one piece on one contour, by one
// search for the inputs and one for hard drop: [i] -> placements[i]'s, each
// (orientation, leftmost column).
std::vector<Reach> reach_table_placements(const std::vector<int>& heights, int height,
                                          const std::vector<std::pair<const Orientation*, int>>& placements);

}  // namespace stack::moves
