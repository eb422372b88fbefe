// The real game: a W x H well with holes allowed, full rows cleared, and a
// game that ends when the stack tops out. The rules live here; the games,
// the features and the policies that play them are in play/tetris/.
//
// The board is a column of row bitmasks (bit x of rows[y] is column x, y
// counted from the floor) with the column heights (one more than each
// column's highest filled cell) kept beside them, so that a hard drop is a
// maximum over the piece's columns, not a walk down the well:
//
//   landing row of shape s at column x = max over k of heights[x+k] - bottom[k]
//
// (bottom[k] the lowest cell of the shape's column k). Every piece of any
// set is played in each of its distinct rotations (the mirror images too,
// for a piece file's `reflect` pieces), whether or not a rotation leaves a
// hole: that is what the hole-free tables cannot do.
//
// Game over (GameOverRule):
//   Placement  the default: the game ends when no placement of the current
//              piece lies wholly inside the well.
//   Entry      Fahey's stricter rule: the game also ends when the piece
//              cannot enter, i.e. its spawn cells (its first rotation that
//              fits the well, its top row in the well's top row, its left
//              column at (W - width) / 2) overlap a filled cell.
#pragma once

#include "rules/piece_set.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace stack::tetris {

constexpr int MostWidth = MaxWidth;  // support/limits.h
constexpr int MostHeight = MostGameHeight;
constexpr int MostShapeRows = MostPieceColumns;

using Row = std::uint32_t;  // bit x: column x (wider than 16 bits so that shifted pieces never overflow)

// One rotation of one piece: its cells as row masks from its lowest row.
struct Shape {
    int piece = 0;
    int width = 0, height = 0, cells = 0;
    std::array<Row, MostShapeRows> rows{};                 // [dy] -> columns filled, bit 0 the leftmost
    std::array<std::int8_t, MostPieceColumns> bottom{};    // [k] -> lowest filled dy of column k
    std::array<std::int8_t, MostPieceColumns> top{};       // [k] -> highest filled dy of column k, plus one
    std::array<std::uint8_t, MostPieceColumns> columns{};  // [k] -> column k's cells, bit dy

    // visit(x + dx, row + dy) for each cell of the shape put with its lower
    // left corner at column x, row `row`: row by row from the lowest, each
    // from the left.
    template <class Visit>
    void for_each_cell(int x, int row, Visit&& visit) const {
        for (int dy = 0; dy < height; ++dy)
            for (Row bits = rows[std::size_t(dy)]; bits; bits &= bits - 1)
                visit(x + std::countr_zero(bits), row + dy);
    }
};

// The distinct rotations of every piece of a set, in the set's order.
class ShapeSet {
public:
    explicit ShapeSet(const PieceSet& set);
    const PieceSet& set() const { return set_; }
    int piece_count() const { return int(first_.size()) - 1; }
    const std::vector<Shape>& shapes() const { return shapes_; }
    const Shape& shape(int s) const { return shapes_[std::size_t(s)]; }
    // Piece p's rotations are shapes [first(p), first(p + 1)); the first is
    // the piece as drawn, which spawns.
    int first(int piece) const { return first_[std::size_t(piece)]; }
    int end(int piece) const { return first_[std::size_t(piece) + 1]; }
    // The piece drawn with this letter, or -1: the exact letter first, else
    // the one piece whose letter differs only in case.
    int piece_of_letter(char letter) const;
    // The rotation a piece spawns in on a W x H well: its first that fits
    // the well (the piece as drawn, unless that is wider or taller).
    const Shape& spawn(int piece, int width, int height) const;
    char letter(int piece) const { return set_.pieces()[std::size_t(piece)].letter; }
    // The first piece that fits a W x H well in no rotation, or -1 (a game
    // needs every piece to fit: the command line and the web refuse it).
    int piece_fitting_nowhere(int width, int height) const;

private:
    PieceSet set_;
    std::vector<Shape> shapes_;
    std::vector<int> first_;
};

enum class GameOverRule : std::uint8_t { Placement, Entry };

// Takes the full rows out of rows[from, top), the rows above moving down
// in order; returns where the kept rows end (rows from there to top keep
// their old contents, for the caller to empty or ignore). The one clearing
// rule of the board and of the features' copies of its rows.
inline int remove_full_rows(Row* rows, int from, int top, Row full) {
    int to = from;
    for (; from < top; ++from)
        if (rows[from] != full)
            rows[to++] = rows[from];
    return to;
}

// What one placement did.
struct Landing {
    int row = 0;           // the shape's lowest row
    int lines = 0;         // rows cleared
    int eroded_cells = 0;  // the piece's own cells in the cleared rows
};

// How an error names a drawn board's row: as a board file's line (1 the
// top row) or as the web page does (0 the floor).
enum class RowNaming { FileLine, FromFloor };

// The one reader of a drawn board, for board files and the web API alike:
// rows top first, '#' filled and '.' empty, split by `separator` ('\n' in
// a file, where "\r\n" ends and blank lines at the end are allowed; '/' in
// the API). Every row only '#' and '.' (another character is named, with its
// code point when it is UTF-8), every row as wide as the top one, and none
// full (a full row is cleared at once); throws InputError naming the first
// bad row by `naming`.
std::vector<std::string> read_board_rows(const std::string& text, char separator, RowNaming naming);

class TetrisBoard {
public:
    TetrisBoard(int width, int height);
    // A board drawn as text, one line per row (read_board_rows), `width` x
    // `height` of them; throws InputError.
    static TetrisBoard from_text(const std::string& text, int width, int height);
    // The same from rows read_board_rows returned.
    static TetrisBoard from_rows(const std::vector<std::string>& rows);

    int width() const { return width_; }
    int height() const { return height_; }
    Row full_row() const { return full_; }
    Row row(int y) const { return rows_[std::size_t(y)]; }
    const Row* rows() const { return rows_.data(); }
    bool filled(int x, int y) const { return rows_[std::size_t(y)] >> x & 1; }
    int column_height(int x) const { return heights_[std::size_t(x)]; }
    const std::array<std::int8_t, MostWidth>& heights() const { return heights_; }
    int top() const { return top_; }      // the highest column height
    int cells() const { return cells_; }  // filled cells
    // The column heights summed: the cells when the board has no hole.
    int height_sum() const {
        int sum = 0;
        for (int x = 0; x < width_; ++x)
            sum += heights_[std::size_t(x)];
        return sum;
    }

    // The row a hard drop of `shape` at leftmost column x lands on.
    int landing_row(const Shape& shape, int x) const {
        int row = 0;
        for (int k = 0; k < shape.width; ++k) {
            const int rest = heights_[std::size_t(x + k)] - shape.bottom[std::size_t(k)];
            row = rest > row ? rest : row;
        }
        return row;
    }
    // Whether the shape with its lowest row at `row` lies inside the well
    // (its top at most the well's height) and on no filled cell.
    bool fits(const Shape& shape, int x, int row) const;
    // Puts the shape there (it must fit), clears the full rows (unless
    // `clear` is false: seed 001 scores two blocks before either clears),
    // and keeps the heights; returns what happened.
    Landing place(const Shape& shape, int x, int row, bool clear = true);
    // Fahey's entry rule: the spawn cells of the shape (the piece's first
    // rotation) are free.
    bool can_enter(const Shape& shape) const;
    void set(int x, int y);    // fills one cell (for tests and board files)
    std::string text() const;  // as from_text reads it
    bool operator==(const TetrisBoard& other) const;

private:
    void recompute_heights();
    int width_, height_;
    Row full_;
    int top_ = 0, cells_ = 0;
    std::array<std::int8_t, MostWidth> heights_{};
    std::array<Row, MostHeight + MostShapeRows> rows_{};  // rows above the well stay empty
};

// Game Boy points: 40, 100, 300 or 1200 times (level + 1) for 1-4 rows
// cleared at once (more rows, as large pieces can clear, score as 4), at
// the level before the clear, up to the Game Boy's last level, 20. Two
// rules (--scoring):
//   Simple   the default: the level rises by one every 10 rows cleared
//            from the starting level (start + lines / 10); no other points.
//   GameBoy  the Game Boy's A-TYPE game (seed 002; TetrisWiki, "Tetris
//            (Game Boy)"): from start level L the first level-up comes at
//            L * 10 + 10 lines, i.e. (L + 1) * 10 for the levels 0-9 the
//            Game Boy offers, then one every 10 lines: level = max(L,
//            lines / 10). A piece pushed down by holding Down scores 1
//            point a row (our bot holds Down from the spawn to the
//            landing: dropped_rows below), and the counter stops at
//            999,999.
enum class ScoringRule : std::uint8_t { Simple, GameBoy };

struct GameBoyScore {
    static constexpr int LastLevel = 20;
    static constexpr std::uint64_t MostPoints = 999999;  // the Game Boy's counter (GameBoy only)
    ScoringRule rule = ScoringRule::Simple;
    std::uint64_t lines = 0;
    std::uint64_t points = 0;
    int start_level = 0;
    int level() const {
        const std::uint64_t level = rule == ScoringRule::GameBoy ? std::max(std::uint64_t(start_level), lines / 10)
                                                                 : std::uint64_t(start_level) + lines / 10;
        return level < LastLevel ? int(level) : LastLevel;
    }
    // One piece placed: it cleared `cleared` rows after a soft drop of
    // `dropped_rows` rows (points under GameBoy only).
    void add(int cleared, int dropped_rows = 0);
};

// The rows a piece soft-drops from its spawn to its landing: the spawn row
// of the shape's lowest cell (the shape's top row in the well's top row,
// as TetrisBoard::can_enter puts it: height - shape.height) less the row
// it lands on, never negative.
inline int dropped_rows(const Shape& shape, int height, int row) {
    const int rows = height - shape.height - row;
    return rows > 0 ? rows : 0;
}

}  // namespace stack::tetris
