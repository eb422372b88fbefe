#include "tetris/tetris_board.h"

#include "support/errors.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace stack::tetris {

namespace {

Shape shape_of(const PieceCells& cells, int piece) {
    Shape shape;
    shape.piece = piece;
    shape.cells = int(cells.size());
    shape.bottom.fill(std::int8_t(MostShapeRows));
    for (const auto& [row, column] : cells) {
        shape.width = std::max(shape.width, column + 1);
        shape.height = std::max(shape.height, row + 1);
        shape.rows[std::size_t(row)] |= Row(1) << column;
        shape.columns[std::size_t(column)] |= std::uint8_t(1u << row);
        shape.bottom[std::size_t(column)] = std::int8_t(std::min<int>(shape.bottom[std::size_t(column)], row));
        shape.top[std::size_t(column)] = std::int8_t(std::max<int>(shape.top[std::size_t(column)], row + 1));
    }
    return shape;
}

// A piece was read with `reflect` when its stored orientations are more
// than its rotations give.
bool reflected(const PieceShape& piece) {
    return piece.orientations.size() > derive_orientations(piece.cells, false).size();
}

}  // namespace

ShapeSet::ShapeSet(const PieceSet& set) : set_(set) {
    for (std::size_t p = 0; p < set_.pieces().size(); ++p) {
        const PieceShape& piece = set_.pieces()[p];
        first_.push_back(int(shapes_.size()));
        for (const PieceCells& cells : distinct_rotations(piece.cells, reflected(piece)))
            shapes_.push_back(shape_of(cells, int(p)));
    }
    first_.push_back(int(shapes_.size()));
}

int ShapeSet::piece_of_letter(char letter) const {
    int folded = -1, matches = 0;
    for (int p = 0; p < piece_count(); ++p) {
        if (this->letter(p) == letter)
            return p;
        if (std::toupper(static_cast<unsigned char>(this->letter(p)))
            == std::toupper(static_cast<unsigned char>(letter)))
            folded = p, ++matches;
    }
    return matches == 1 ? folded : -1;
}

int ShapeSet::piece_fitting_nowhere(int width, int height) const {
    for (int p = 0; p < piece_count(); ++p) {
        bool fits = false;
        for (int s = first(p); s < end(p); ++s)
            fits |= shape(s).width <= width && shape(s).height <= height;
        if (!fits)
            return p;
    }
    return -1;
}

const Shape& ShapeSet::spawn(int piece, int width, int height) const {
    for (int s = first(piece); s < end(piece); ++s)
        if (shape(s).width <= width && shape(s).height <= height)
            return shape(s);
    return shape(first(piece));
}

TetrisBoard::TetrisBoard(int width, int height) : width_(width), height_(height), full_(Row((Row(1) << width) - 1)) {
    if (width < 1 || width > MostWidth || height < 1 || height > MostHeight)
        throw InputError("a well is 1 to " + std::to_string(MostWidth) + " columns wide and 1 to "
                         + std::to_string(MostHeight) + " rows high (got " + std::to_string(width) + "x"
                         + std::to_string(height) + ")");
}

namespace {

std::string row_name(std::size_t index, std::size_t rows, RowNaming naming) {
    return naming == RowNaming::FileLine ? "board row " + std::to_string(index + 1)
                                         : "board: row " + std::to_string(rows - 1 - index) + " (from the bottom, 0)";
}

// A character that is not a cell, as an error names it: "'x'", or
// "U+2588 '...'" for UTF-8 (a row drawn with '█' is named by it, not
// miscounted by its bytes).
std::string named_character(const std::string& row, std::size_t at) {
    const unsigned char lead = static_cast<unsigned char>(row[at]);
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    const std::string_view character = std::string_view(row).substr(at, length);
    std::string named = "'" + printable(character) + "'";
    if (length > 1 && character.size() == length) {  // UTF-8: name its code point too
        unsigned point = lead & (0x7F >> length);
        for (std::size_t k = 1; k < length; ++k)
            point = point << 6 | (static_cast<unsigned char>(character[k]) & 0x3F);
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X ", point);
        named = code + named;
    }
    return named;
}

}  // namespace

std::vector<std::string> read_board_rows(const std::string& text, char separator, RowNaming naming) {
    std::vector<std::string> rows;
    std::size_t blank = 0;  // blank lines since the last row (a file's)
    for (std::size_t from = 0; from <= text.size();) {
        std::size_t end = text.find(separator, from);
        if (end == std::string::npos)
            end = text.size();
        std::string row = text.substr(from, end - from);
        from = end + 1;
        if (separator == '\n') {
            if (!row.empty() && row.back() == '\r')
                row.pop_back();
            if (row.empty()) {
                ++blank;
                continue;
            }
            if (blank > 0 && !rows.empty())
                throw InputError(row_name(rows.size(), rows.size() + 1, naming)
                                 + " is empty (blank lines only at the end)");
            blank = 0;
        }
        rows.push_back(std::move(row));
    }
    if (rows.empty() || (rows.size() == 1 && rows[0].empty()))
        throw InputError("the board has no rows");
    for (std::size_t i = 0; i < rows.size(); ++i) {  // the cells first, then the widths
        const std::size_t bad = rows[i].find_first_not_of("#.");
        if (bad != std::string::npos)
            throw InputError(row_name(i, rows.size(), naming) + " has " + named_character(rows[i], bad)
                             + " (only '#' filled and '.' empty)");
    }
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].size() != rows[0].size())
            throw InputError(row_name(i, rows.size(), naming) + " has " + std::to_string(rows[i].size()) + " cells, "
                             + (naming == RowNaming::FileLine ? "row 1" : "the top row") + " has "
                             + std::to_string(rows[0].size()));
    for (std::size_t i = rows.size(); i-- > 0;)
        if (rows[i].find('.') == std::string::npos)
            throw InputError(row_name(i, rows.size(), naming) + " is full (a full row is cleared at once)");
    return rows;
}

TetrisBoard TetrisBoard::from_text(const std::string& text, int width, int height) {
    const std::vector<std::string> rows = read_board_rows(text, '\n', RowNaming::FileLine);
    if (int(rows[0].size()) != width || int(rows.size()) != height)
        throw InputError("the board is " + std::to_string(rows[0].size()) + "x" + std::to_string(rows.size())
                         + ", the well " + std::to_string(width) + "x" + std::to_string(height));
    return from_rows(rows);
}

TetrisBoard TetrisBoard::from_rows(const std::vector<std::string>& rows) {
    const int width = int(rows.front().size()), height = int(rows.size());
    TetrisBoard board(width, height);  // checks the well's size
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            if (rows[std::size_t(height - 1 - y)][std::size_t(x)] == '#')
                board.set(x, y);
    return board;
}

void TetrisBoard::set(int x, int y) {
    if (filled(x, y))
        return;
    rows_[std::size_t(y)] |= Row(1) << x;
    ++cells_;
    heights_[std::size_t(x)] = std::int8_t(std::max<int>(heights_[std::size_t(x)], y + 1));
    top_ = std::max(top_, y + 1);
}

bool TetrisBoard::fits(const Shape& shape, int x, int row) const {
    if (x < 0 || x + shape.width > width_ || row < 0 || row + shape.height > height_)
        return false;
    for (int dy = 0; dy < shape.height; ++dy)
        if (rows_[std::size_t(row + dy)] & shape.rows[std::size_t(dy)] << x)
            return false;
    return true;
}

// The piece's rows are OR-ed in; only they can have become full. Clearing
// moves the rows above down; a column's height then comes from the rows
// (a column whose top cell was cleared may drop by more than the rows
// cleared, onto a hole).
Landing TetrisBoard::place(const Shape& shape, int x, int row, bool clear) {
    Landing landing;
    landing.row = row;
    Row cleared = 0;  // bit dy: the piece's row dy is full
    for (int dy = 0; dy < shape.height; ++dy) {
        Row& target = rows_[std::size_t(row + dy)];
        target |= shape.rows[std::size_t(dy)] << x;
        if (target == full_) {
            cleared |= Row(1) << dy;
            landing.eroded_cells += std::popcount(shape.rows[std::size_t(dy)]);
        }
    }
    cells_ += shape.cells;
    for (int k = 0; k < shape.width; ++k) {
        std::int8_t& column = heights_[std::size_t(x + k)];
        column = std::int8_t(std::max(int(column), row + shape.top[std::size_t(k)]));
        top_ = std::max(top_, int(column));
    }
    if (cleared == 0)
        return landing;
    landing.lines = std::popcount(cleared);
    landing.eroded_cells *= landing.lines;
    if (!clear)
        return landing;
    for (int to = remove_full_rows(rows_.data(), row, top_, full_); to < top_; ++to)
        rows_[std::size_t(to)] = 0;
    cells_ -= landing.lines * width_;
    recompute_heights();
    return landing;
}

void TetrisBoard::recompute_heights() {
    heights_.fill(0);
    Row unseen = full_;
    int y = top_;
    while (y > 0 && rows_[std::size_t(y - 1)] == 0)
        --y;
    top_ = y;
    for (; y > 0 && unseen; --y) {
        Row found = rows_[std::size_t(y - 1)] & unseen;
        unseen &= ~found;
        for (; found; found &= found - 1)
            heights_[std::size_t(std::countr_zero(found))] = std::int8_t(y);
    }
}

bool TetrisBoard::can_enter(const Shape& shape) const {
    const int x = (width_ - shape.width) / 2;
    return fits(shape, x, height_ - shape.height);
}

std::string TetrisBoard::text() const {
    std::string out;
    for (int y = height_ - 1; y >= 0; --y) {
        for (int x = 0; x < width_; ++x)
            out += filled(x, y) ? '#' : '.';
        out += '\n';
    }
    return out;
}

bool TetrisBoard::operator==(const TetrisBoard& other) const {
    return width_ == other.width_ && height_ == other.height_ && rows_ == other.rows_ && heights_ == other.heights_
           && top_ == other.top_ && cells_ == other.cells_;
}

void GameBoyScore::add(int cleared, int dropped_rows) {
    static constexpr std::uint64_t Points[] = {0, 40, 100, 300, 1200};
    points += Points[std::min(cleared, 4)] * std::uint64_t(level() + 1);
    lines += std::uint64_t(cleared);
    if (rule == ScoringRule::GameBoy)
        points = std::min(points + std::uint64_t(std::max(dropped_rows, 0)), MostPoints);
}

}  // namespace stack::tetris
