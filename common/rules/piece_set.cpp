#include "rules/piece_set.h"

#include "support/errors.h"
#include "rules/pieces.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

namespace stack {

namespace {

using Cells = std::vector<std::pair<int, int>>;  // (row from the bottom, column)

constexpr int MaximumExtent = 8;        // rows and columns of a drawn piece
constexpr std::size_t MaximumPieces = 64;
constexpr std::size_t MaximumNameLength = 16;
constexpr std::uint32_t MaximumWeight = 1'000'000;

// Moves the cells so the lowest row and leftmost column are 0, sorted, so
// equal shapes compare equal.
Cells normalised(Cells cells) {
    int low_row = cells[0].first, low_column = cells[0].second;
    for (auto [row, column] : cells)
        low_row = std::min(low_row, row), low_column = std::min(low_column, column);
    for (auto& [row, column] : cells)
        row -= low_row, column -= low_column;
    std::sort(cells.begin(), cells.end());
    return cells;
}

Cells rotated_clockwise(const Cells& cells) {
    Cells turned;
    for (auto [row, column] : cells)
        turned.push_back({-column, row});
    return normalised(turned);
}

Cells mirrored(const Cells& cells) {
    Cells flipped;
    for (auto [row, column] : cells)
        flipped.push_back({row, -column});
    return normalised(flipped);
}

std::string grid_text(const Cells& cells) {
    int rows = 0, columns = 0;
    for (auto [row, column] : cells)
        rows = std::max(rows, row + 1), columns = std::max(columns, column + 1);
    std::string text;
    for (int row = rows - 1; row >= 0; --row) {
        for (int column = 0; column < columns; ++column)
            text += std::count(cells.begin(), cells.end(), std::pair{row, column}) ? '#' : '.';
        text += row ? "/" : "";
    }
    return text;
}

// (surface, added) of normalised cells, or false when a column's cells are
// not one contiguous run.
bool orientation_of(const Cells& cells, ShapeOrientation& orientation) {
    int columns = 0;
    for (auto [row, column] : cells)
        columns = std::max(columns, column + 1);
    std::vector<int> bottom(columns, MaximumExtent * 4), top(columns, -1), count(columns, 0);
    for (auto [row, column] : cells) {
        bottom[column] = std::min(bottom[column], row);
        top[column] = std::max(top[column], row);
        ++count[column];
    }
    orientation = {};
    for (int column = 0; column < columns; ++column) {
        if (count[column] == 0 || top[column] - bottom[column] + 1 != count[column])
            return false;
        orientation.added.push_back(count[column]);
        if (column > 0)
            orientation.surface.push_back(bottom[column] - bottom[column - 1]);
    }
    return true;
}

bool connected(const Cells& cells) {
    std::set<std::pair<int, int>> left(cells.begin(), cells.end()), reached;
    std::vector<std::pair<int, int>> frontier = {cells[0]};
    reached.insert(cells[0]);
    while (!frontier.empty()) {
        auto [row, column] = frontier.back();
        frontier.pop_back();
        for (auto next : {std::pair{row + 1, column}, {row - 1, column}, {row, column + 1}, {row, column - 1}})
            if (left.count(next) && reached.insert(next).second)
                frontier.push_back(next);
    }
    return reached.size() == left.size();
}

std::string list_text(const std::vector<int>& values) {
    std::string text = "[";
    for (std::size_t k = 0; k < values.size(); ++k)
        text += (k ? "," : "") + std::to_string(values[k]);
    return text + "]";
}

bool valid_name(const std::string& name) {
    return !name.empty() && name.size() <= MaximumNameLength
           && std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

// A piece's letter unless it says otherwise: a tetromino's own (pieces.h),
// else its name's first character, upper-cased.
char default_letter(const std::string& name) {
    for (int piece = 0; piece < PieceCount; ++piece)
        if (piece_name(Piece(piece)) == name)
            return piece_letter(Piece(piece));
    return char(std::toupper(static_cast<unsigned char>(name[0])));
}

std::uint32_t parse_weight(const std::string& text, const std::string& where) {
    std::size_t used = 0;
    unsigned long weight = 0;
    try {
        if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0])))
            weight = std::stoul(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || weight < 1 || weight > MaximumWeight)
        throw InputError(where + ": weight '" + text + "' is not an integer in [1, " + std::to_string(MaximumWeight)
                         + "]");
    return std::uint32_t(weight);
}

// Pieces drawn as grids, top row first, for the built-in sets.
struct DrawnPiece {
    const char* name;
    char letter;
    const char* rows;  // rows separated by '/'
};

Cells cells_of_rows(const std::vector<std::string>& rows) {
    Cells cells;
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t column = 0; column < rows[r].size(); ++column)
            if (rows[r][column] == '#')
                cells.push_back({int(rows.size() - 1 - r), int(column)});
    return cells;
}

PieceShape shape_from_drawing(const DrawnPiece& drawn) {
    std::vector<std::string> rows;
    std::stringstream stream(drawn.rows);
    for (std::string row; std::getline(stream, row, '/');)
        rows.push_back(row);
    PieceShape shape;
    shape.name = drawn.name;
    shape.letter = drawn.letter;
    shape.orientations = derive_orientations(normalised(cells_of_rows(rows)), false, &shape.dropped);
    return shape;
}

constexpr DrawnPiece Rectangles[] = {
    {"r1x1", 'A', "#"},        {"r1x2", 'B', "##"},          {"r1x3", 'C', "###"},
    {"r2x2", 'D', "##/##"},    {"r2x3", 'E', "###/###"},     {"r3x3", 'F', "###/###/###"},
};

// The 12 free pentominoes with their usual letters; with rotations only
// (the set's pieces are the free ones, as seed 001 and most variants use),
// mirror images are separate draws only when a file asks for `reflect`.
constexpr DrawnPiece Pentominoes[] = {
    {"f", 'F', ".##/##./.#."}, {"i", 'I', "#####"},       {"l", 'L', "####/#..."}, {"n", 'N', "##../.###"},
    {"p", 'P', "##/##/#."},    {"t", 'T', "###/.#./.#."}, {"u", 'U', "#.#/###"},   {"v", 'V', "#../#../###"},
    {"w", 'W', "#../##./.##"}, {"x", 'X', ".#./###/.#."}, {"y", 'Y', "####/.#.."}, {"z", 'Z', "##./.#./.##"},
};

}  // namespace

int ShapeOrientation::cells() const { return std::accumulate(added.begin(), added.end(), 0); }

std::vector<ShapeOrientation> derive_orientations(const Cells& cells, bool reflect, std::vector<std::string>* dropped) {
    std::vector<Cells> shapes;
    Cells shape = normalised(cells);
    for (int turn = 0; turn < 4; ++turn, shape = rotated_clockwise(shape))
        shapes.push_back(shape);
    if (reflect)
        for (int turn = 0; turn < 4; ++turn)
            shapes.push_back(mirrored(shapes[turn]));
    std::vector<ShapeOrientation> orientations;
    std::vector<Cells> seen;
    for (const Cells& candidate : shapes) {
        if (std::find(seen.begin(), seen.end(), candidate) != seen.end())
            continue;
        seen.push_back(candidate);
        ShapeOrientation orientation;
        if (orientation_of(candidate, orientation))
            orientations.push_back(orientation);
        else if (dropped)
            dropped->push_back(grid_text(candidate));
    }
    return orientations;
}

PieceSet PieceSet::builtin(std::string_view name) {
    PieceSet set;
    if (name == "tetrominoes") {
        for (const Orientation& orientation : Orientations) {
            if (set.pieces_.empty() || set.pieces_.back().name != piece_name(orientation.piece))
                set.pieces_.push_back({std::string(piece_name(orientation.piece)), piece_letter(orientation.piece), 1, {}, {}});
            ShapeOrientation shape;
            shape.surface.assign(orientation.surface.begin(), orientation.surface.begin() + orientation.width - 1);
            shape.added.assign(orientation.added.begin(), orientation.added.begin() + orientation.width);
            set.pieces_.back().orientations.push_back(shape);
        }
    } else if (name == "rectangles") {
        for (const DrawnPiece& drawn : Rectangles)
            set.pieces_.push_back(shape_from_drawing(drawn));
    } else if (name == "pentominoes") {
        for (const DrawnPiece& drawn : Pentominoes)
            set.pieces_.push_back(shape_from_drawing(drawn));
    } else {
        throw InputError("unknown piece set '" + std::string(name) + "' (tetrominoes, rectangles, pentominoes or a file)");
    }
    set.check();
    return set;
}

PieceSet PieceSet::named_or_file(const std::string& name_or_path) {
    if (name_or_path == "tetrominoes" || name_or_path == "rectangles" || name_or_path == "pentominoes")
        return builtin(name_or_path);
    std::ifstream file(name_or_path);
    if (!file)
        throw InputError("--pieces: '" + name_or_path + "' is neither a built-in set (tetrominoes, rectangles, "
                         "pentominoes) nor a readable file");
    std::stringstream text;
    text << file.rdbuf();
    return from_file_text(text.str());
}

// One block per piece: the `piece` line, then its rows until a blank line,
// a comment or the next `piece` line.
PieceSet PieceSet::from_file_text(const std::string& text) {
    PieceSet set;
    std::stringstream stream(text);
    std::string line;
    int line_number = 0;
    std::vector<std::string> rows;
    bool reflect = false;
    std::string where;
    auto finish_piece = [&] {
        if (set.pieces_.empty())
            return;
        PieceShape& shape = set.pieces_.back();
        if (rows.empty())
            throw InputError(where + ": piece '" + shape.name + "' has no rows of cells");
        if (rows.size() > std::size_t(MaximumExtent))
            throw InputError(where + ": piece '" + shape.name + "' is taller than " + std::to_string(MaximumExtent));
        const Cells cells = cells_of_rows(rows);
        if (cells.empty())
            throw InputError(where + ": piece '" + shape.name + "' has no cells");
        if (!connected(cells))
            throw InputError(where + ": the cells of piece '" + shape.name + "' are not connected");
        shape.orientations = derive_orientations(cells, reflect, &shape.dropped);
        if (shape.orientations.empty())
            throw InputError(where + ": piece '" + shape.name + "' cannot rest on a stack without a hole in any orientation");
        rows.clear();
    };
    bool in_rows = false;
    while (std::getline(stream, line)) {
        ++line_number;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const std::string here = "piece file line " + std::to_string(line_number);
        std::stringstream words(line);
        std::string first;
        words >> first;
        if (first.empty()) {  // a blank line ends a block
            in_rows = false;
            continue;
        }
        if (first[0] == ';')
            continue;
        if (first == "piece") {
            finish_piece();
            if (set.pieces_.size() == MaximumPieces)
                throw InputError(here + ": more than " + std::to_string(MaximumPieces) + " pieces");
            PieceShape shape;
            if (!(words >> shape.name) || !valid_name(shape.name))
                throw InputError(here + ": 'piece' needs a name of 1-16 letters, digits or '_'");
            for (const PieceShape& other : set.pieces_)
                if (other.name == shape.name)
                    throw InputError(here + ": piece '" + shape.name + "' is defined twice");
            shape.letter = default_letter(shape.name);
            reflect = false;
            for (std::string word; words >> word;) {
                std::string value;
                if (word == "reflect")
                    reflect = true;
                else if (word == "weight" && words >> value)
                    shape.weight = parse_weight(value, here);
                else if (word == "letter" && words >> value && value.size() == 1 && std::isgraph(static_cast<unsigned char>(value[0])) && value != "." && value != "#")
                    shape.letter = value[0];
                else
                    throw InputError(here + ": '" + word + "' is not 'weight N', 'reflect' or 'letter C'");
            }
            set.pieces_.push_back(shape);
            where = here;
            in_rows = true;
            continue;
        }
        if (!in_rows)
            throw InputError(here + ": cells outside a piece (a block starts with 'piece NAME')");
        if (line.size() > std::size_t(MaximumExtent) || line.find_first_not_of("#.") != std::string::npos)
            throw InputError(here + ": a row of cells is up to " + std::to_string(MaximumExtent)
                             + " characters, each '#' (a cell) or '.'");
        rows.push_back(line);
    }
    finish_piece();
    if (set.pieces_.empty())
        throw InputError("the piece file holds no pieces");
    set.check();
    return set;
}

// NAME[ weight=N][ letter=C]: (SURFACE,ADDED) ... per line.
PieceSet PieceSet::from_attribute(const std::string& text) {
    PieceSet set;
    std::stringstream stream(text);
    std::string line;
    int line_number = 0;
    while (std::getline(stream, line)) {
        ++line_number;
        const std::string here = "the pieces attribute, line " + std::to_string(line_number);
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            throw InputError(here + ": no ':' after the piece's name");
        if (set.pieces_.size() == MaximumPieces)
            throw InputError(here + ": more than " + std::to_string(MaximumPieces) + " pieces");
        std::stringstream head(line.substr(0, colon));
        PieceShape shape;
        if (!(head >> shape.name) || !valid_name(shape.name))
            throw InputError(here + ": a piece name is 1-16 letters, digits or '_'");
        shape.letter = default_letter(shape.name);
        for (std::string word; head >> word;) {
            if (word.rfind("weight=", 0) == 0)
                shape.weight = parse_weight(word.substr(7), here);
            else if (word.rfind("letter=", 0) == 0 && word.size() == 8 && std::isgraph(static_cast<unsigned char>(word[7])))
                shape.letter = word[7];
            else
                throw InputError(here + ": '" + word + "' is not weight=N or letter=C");
        }
        // The orientations: "(" list "," list ")" separated by spaces.
        std::size_t at = colon + 1;
        auto expect = [&](char wanted) {
            while (at < line.size() && line[at] == ' ')
                ++at;
            if (at >= line.size() || line[at] != wanted)
                throw InputError(here + ": expected '" + std::string(1, wanted) + "' at column " + std::to_string(at + 1));
            ++at;
        };
        auto read_list = [&] {
            expect('[');
            std::vector<int> values;
            while (at < line.size() && line[at] != ']') {
                if (!values.empty())
                    expect(',');
                const std::size_t start = at;
                if (at < line.size() && line[at] == '-')
                    ++at;
                while (at < line.size() && std::isdigit(static_cast<unsigned char>(line[at])) && at - start < 3)
                    ++at;
                const std::string number = line.substr(start, at - start);
                if (number.empty() || number == "-")
                    throw InputError(here + ": expected a small integer at column " + std::to_string(start + 1));
                values.push_back(std::stoi(number));
                if (values.size() > std::size_t(MaximumExtent))
                    throw InputError(here + ": a list longer than " + std::to_string(MaximumExtent));
            }
            expect(']');
            return values;
        };
        while (line.find_first_not_of(' ', at) != std::string::npos) {
            expect('(');
            ShapeOrientation orientation;
            orientation.surface = read_list();
            expect(',');
            orientation.added = read_list();
            expect(')');
            shape.orientations.push_back(orientation);
        }
        set.pieces_.push_back(shape);
    }
    if (set.pieces_.empty())
        throw InputError("the pieces attribute lists no pieces");
    set.check();
    return set;
}

// Every piece has orientations of one cell count, each with width - 1
// surface steps and positive column counts, no orientation twice, no two
// pieces with one name or one letter.
void PieceSet::check() const {
    for (std::size_t p = 0; p < pieces_.size(); ++p) {
        const PieceShape& piece = pieces_[p];
        if (piece.orientations.empty())
            throw InputError("piece '" + piece.name + "' has no orientations");
        for (std::size_t q = 0; q < p; ++q)
            if (pieces_[q].name == piece.name || pieces_[q].letter == piece.letter)
                throw InputError("pieces '" + pieces_[q].name + "' and '" + piece.name + "' share a name or a letter");
        const int cells = piece.orientations[0].cells();
        for (std::size_t o = 0; o < piece.orientations.size(); ++o) {
            const ShapeOrientation& orientation = piece.orientations[o];
            const bool shaped = orientation.width() >= 1 && orientation.width() <= MaximumExtent
                                && orientation.surface.size() + 1 == orientation.added.size()
                                && std::all_of(orientation.added.begin(), orientation.added.end(),
                                               [](int count) { return count >= 1 && count <= MaximumExtent; })
                                && std::all_of(orientation.surface.begin(), orientation.surface.end(),
                                               [](int step) { return step >= -MaximumExtent && step <= MaximumExtent; });
            if (!shaped)
                throw InputError("piece '" + piece.name + "': orientation " + std::to_string(o + 1)
                                 + " is not (width-1 steps in [-8, 8], width counts in [1, 8]), width 1-8");
            if (orientation.cells() != cells)
                throw InputError("piece '" + piece.name + "': its orientations hold different numbers of cells");
            for (std::size_t earlier = 0; earlier < o; ++earlier)
                if (piece.orientations[earlier] == orientation)
                    throw InputError("piece '" + piece.name + "' lists an orientation twice");
        }
    }
}

int PieceSet::orientation_count() const {
    int count = 0;
    for (const PieceShape& piece : pieces_)
        count += int(piece.orientations.size());
    return count;
}

int PieceSet::cell_gcd() const {
    int divisor = 0;
    for (const PieceShape& piece : pieces_)
        divisor = std::gcd(divisor, piece.orientations[0].cells());
    return divisor;
}

int PieceSet::smallest_piece_cells() const {
    int fewest = 0;
    for (const PieceShape& piece : pieces_)
        fewest = fewest == 0 ? piece.orientations[0].cells() : std::min(fewest, piece.orientations[0].cells());
    return fewest;
}

std::string PieceSet::attribute_text() const {
    std::string text;
    for (const PieceShape& piece : pieces_) {
        text += piece.name;
        if (piece.weight != 1)
            text += " weight=" + std::to_string(piece.weight);
        if (piece.letter != default_letter(piece.name))
            text += std::string(" letter=") + piece.letter;
        text += ":";
        for (const ShapeOrientation& orientation : piece.orientations)
            text += " (" + list_text(orientation.surface) + "," + list_text(orientation.added) + ")";
        text += "\n";
    }
    return text;
}

}  // namespace stack
