// <stack/table.h>: a stackgen table inside your own program, as chess
// engines embed Syzygy's prober. Link the CMake target stack::table
// (find_package(stack)); the header needs only the standard library.
//
//   stack::Table table = stack::Table::open("stack_4x20.h5");
//   double v = table.value(std::vector<int>{0, 0, 0, 0});  // 2.539044371732...
//   if (auto move = table.best_placement(heights, 'T'))
//       play(move->rotation, move->column);
//
// A board is its column heights, column 0 (the left wall) first; every board
// of a W x H well with heights 0..H is a hole-free stack. Its value is the
// expected number of pieces optimal play places from it before a hole is
// unavoidable, each piece drawn at random with the set's weights.
//
// open() makes every check stackplay and stackverify make (the format, the
// piece set and value checksums, values in range; damaged metadata is read
// first in a forked child process, so a hostile file cannot hang or crash
// the caller; the checks of the values use one thread per core the process
// may run on) and holds the values in memory when they fit three quarters of
// the available memory, else reads them in checked blocks on demand. It
// turns off libhdf5's own error printing for the process.
//
// Threads: one open Table answers value(), best_placement() and the rest from
// many threads at once. libhdf5 is not thread-safe, so opening, closing and
// reading lazily (a table larger than the memory limit) must not overlap
// with another Table doing the same, or with the program's own HDF5 calls.
// A Table is movable, not copyable; a moved-from Table may only be assigned
// to or destroyed. Every failure throws stack::TableError with a one-line
// message.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(STACK_TABLE_BUILDING)
#define STACK_TABLE_API __attribute__((visibility("default")))
#else
#define STACK_TABLE_API
#endif

namespace stack {

class STACK_TABLE_API TableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class STACK_TABLE_API Table {
public:
    // One piece of the table's set, in the set's order.
    struct Piece {
        char letter = 0;
        std::string name;
        int cells = 0;
        // its distinct orientations that rest without a hole (and
        // reflections, where the set allows)
        int rotations = 0;
        std::uint32_t weight = 1;  // its draw weight (pieces are drawn with probability weight / total)
    };
    // A placement of a piece: its rotation (0 .. Piece::rotations-1, its
    // place in the set's order of the piece's orientations: for the
    // tetrominoes not the SRS name, 0 R 2 L, that stackplay's views give),
    // the leftmost column it covers, the board after it and that board's value.
    struct Placement {
        int rotation = 0;
        int column = 0;
        std::vector<int> heights;
        double value = 0;
    };

    static Table open(const std::string& path);

    Table(Table&&) noexcept;
    Table& operator=(Table&&) noexcept;
    ~Table();

    int width() const;
    int height() const;
    std::uint64_t boards() const;          // (height + 1)^width
    const std::string& piece_set() const;  // "tetrominoes", "rectangles", "pentominoes" or "file NAME"
    const std::vector<Piece>& pieces() const;
    const std::string& path() const;

    // Does the table store this board's value? A table solved for some
    // residue classes (stackgen --residue) holds the boards whose height
    // sum is in them; every other table holds every board.
    bool holds(std::span<const int> heights) const;
    // The board's value. Throws TableError for a board of the wrong width,
    // a height outside 0..height(), or a board the table does not hold.
    double value(std::span<const int> heights) const;
    // The table's choice for a piece (its letter): the placement whose board
    // after has the highest value, ties to the first rotation, then the
    // leftmost column (stackplay's table policy). Nothing when the piece
    // fits nowhere without a hole. Throws TableError as value() does, and
    // for a letter not in the set.
    std::optional<Placement> best_placement(std::span<const int> heights, char piece) const;
    // Every placement of the piece, best first (the same order).
    std::vector<Placement> placements(std::span<const int> heights, char piece) const;
    // The same, for a board written as a braced list: value({0, 0, 0, 0})
    // (a braced list becomes a std::span only from C++26 on).
    bool holds(std::initializer_list<int> heights) const { return holds(as_span(heights)); }
    double value(std::initializer_list<int> heights) const { return value(as_span(heights)); }
    std::optional<Placement> best_placement(std::initializer_list<int> heights, char piece) const {
        return best_placement(as_span(heights), piece);
    }
    std::vector<Placement> placements(std::initializer_list<int> heights, char piece) const {
        return placements(as_span(heights), piece);
    }

private:
    static std::span<const int> as_span(std::initializer_list<int> heights) {
        return {heights.begin(), heights.size()};
    }
    struct State;
    explicit Table(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace stack
