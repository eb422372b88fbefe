#include "rules/piece_set.h"

#include "support/errors.h"
#include "rules/pieces.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

namespace stack {

namespace {

constexpr int MaximumExtent = MostPieceExtent;        // rows and columns of a drawn piece
constexpr std::uintmax_t MaximumFileBytes = 1 << 20;  // a piece file, read whole
constexpr std::size_t MaximumPieces = MostPieces;
constexpr std::size_t MaximumNameLength = 16;
constexpr std::uint32_t MaximumWeight = 1'000'000;

// Moves the cells so the lowest row and leftmost column are 0, sorted, so
// equal shapes compare equal.
PieceCells normalised(PieceCells cells) {
    int low_row = cells[0].first, low_column = cells[0].second;
    for (auto [row, column] : cells)
        low_row = std::min(low_row, row), low_column = std::min(low_column, column);
    for (auto& [row, column] : cells)
        row -= low_row, column -= low_column;
    std::sort(cells.begin(), cells.end());
    return cells;
}

PieceCells rotated_clockwise(const PieceCells& cells) {
    PieceCells turned;
    for (auto [row, column] : cells)
        turned.push_back({-column, row});
    return normalised(turned);
}

PieceCells mirrored(const PieceCells& cells) {
    PieceCells flipped;
    for (auto [row, column] : cells)
        flipped.push_back({row, -column});
    return normalised(flipped);
}

}  // namespace

std::string grid_text(const PieceCells& cells) {
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

namespace {

// (surface, added) of normalised cells, or false when a column's cells are
// not one contiguous run.
bool orientation_of(const PieceCells& cells, Orientation& orientation) {
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
    orientation.width = columns;
    for (int column = 0; column < columns; ++column) {
        if (count[column] == 0 || top[column] - bottom[column] + 1 != count[column])
            return false;
        orientation.added[column] = std::int8_t(count[column]);
        if (column > 0)
            orientation.surface[column - 1] = std::int8_t(bottom[column] - bottom[column - 1]);
    }
    return true;
}

// The cells of an orientation: column k from its bottom b[k] up, b[0] = 0
// and b[k+1] = b[k] + surface[k], moved so the lowest is row 0.
PieceCells cells_of(const Orientation& orientation) {
    PieceCells cells;
    int bottom = 0;
    for (int k = 0; k < orientation.width; ++k) {
        if (k > 0)
            bottom += orientation.surface[k - 1];
        for (int row = 0; row < orientation.added[k]; ++row)
            cells.push_back({bottom + row, k});
    }
    return normalised(cells);
}

bool connected(const PieceCells& cells) {
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

template <std::size_t N>
std::string list_text(const std::array<std::int8_t, N>& values, int count) {
    std::string text = "[";
    for (int k = 0; k < count; ++k)
        text += (k ? "," : "") + std::to_string(values[std::size_t(k)]);
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

// The cells of rows drawn top first; throws InputError when the rows are
// not all as long (`where` names them).
PieceCells cells_of_rows(const std::vector<std::string>& rows, const std::string& where = "") {
    for (const std::string& row : rows)
        if (row.size() != rows[0].size())
            throw InputError(where + ": the rows of a piece are all as long (a ragged grid: '" + rows[0] + "' and '"
                             + row + "')");
    PieceCells cells;
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
    shape.cells = normalised(cells_of_rows(rows));
    shape.orientations = derive_orientations(shape.cells, false, &shape.dropped);
    return shape;
}

constexpr DrawnPiece Rectangles[] = {
    {"r1x1", 'A', "#"},     {"r1x2", 'B', "##"},      {"r1x3", 'C', "###"},
    {"r2x2", 'D', "##/##"}, {"r2x3", 'E', "###/###"}, {"r3x3", 'F', "###/###/###"},
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

std::vector<PieceCells> distinct_rotations(const PieceCells& cells, bool reflect) {
    std::vector<PieceCells> shapes;
    PieceCells shape = normalised(cells);
    for (int turn = 0; turn < 4; ++turn, shape = rotated_clockwise(shape))
        shapes.push_back(shape);
    if (reflect)
        for (int turn = 0; turn < 4; ++turn)
            shapes.push_back(mirrored(shapes[std::size_t(turn)]));
    std::vector<PieceCells> distinct;
    for (const PieceCells& candidate : shapes)
        if (std::find(distinct.begin(), distinct.end(), candidate) == distinct.end())
            distinct.push_back(candidate);
    return distinct;
}

std::vector<Orientation> derive_orientations(const PieceCells& cells, bool reflect, std::vector<std::string>* dropped) {
    std::vector<Orientation> orientations;
    for (const PieceCells& candidate : distinct_rotations(cells, reflect)) {
        Orientation orientation;
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
        return from_attribute(TetrominoTable, "", "tetrominoes");
    } else if (name == "rectangles") {
        for (const DrawnPiece& drawn : Rectangles)
            set.pieces_.push_back(shape_from_drawing(drawn));
    } else if (name == "pentominoes") {
        for (const DrawnPiece& drawn : Pentominoes)
            set.pieces_.push_back(shape_from_drawing(drawn));
    } else {
        throw InputError("unknown piece set '" + std::string(name)
                         + "' (tetrominoes, rectangles, pentominoes or a file)");
    }
    set.name_ = std::string(name);
    set.check();
    return set;
}

PieceSet PieceSet::named_or_file(const std::string& name_or_path) {
    if (name_or_path == "tetrominoes" || name_or_path == "rectangles" || name_or_path == "pentominoes")
        return builtin(name_or_path);
    // A FIFO or a device would block or never end: only a regular file of
    // reasonable size is read (a set of 64 pieces of 8x8 is a few kB).
    std::error_code error;
    const auto status = std::filesystem::status(name_or_path, error);
    if (!error && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        throw InputError("--pieces: '" + name_or_path + "' is not a regular file");
    if (!error && std::filesystem::is_regular_file(status)
        && std::filesystem::file_size(name_or_path, error) > MaximumFileBytes && !error)
        throw InputError("--pieces: '" + name_or_path + "' is larger than " + std::to_string(MaximumFileBytes)
                         + " bytes, which no piece file needs");
    std::ifstream file(name_or_path);
    if (!file)
        throw InputError("--pieces: '" + name_or_path + "' is neither a built-in set (tetrominoes, rectangles, "
                         "pentominoes) nor a readable file");
    std::stringstream text;
    text << file.rdbuf();
    PieceSet set = from_file_text(text.str());
    set.name_ = "file " + std::filesystem::path(name_or_path).filename().string();
    return set;
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
        const PieceCells cells = cells_of_rows(rows, where);
        if (cells.empty())
            throw InputError(where + ": piece '" + shape.name + "' has no cells");
        if (!connected(cells))
            throw InputError(where + ": the cells of piece '" + shape.name + "' are not connected");
        shape.cells = normalised(cells);
        shape.orientations = derive_orientations(shape.cells, reflect, &shape.dropped);
        if (shape.orientations.empty())
            throw InputError(where + ": piece '" + shape.name
                             + "' cannot rest on a stack without a hole in any orientation");
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
                else if (word == "letter" && words >> value && value.size() == 1
                         && std::isgraph(static_cast<unsigned char>(value[0])) && value != "." && value != "#")
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
    set.name_ = "file";
    set.check();
    return set;
}

// NAME[ weight=N][ letter=C]: (SURFACE,ADDED) ... per line.
PieceSet PieceSet::from_attribute(const std::string& text, const std::string& cells_text, const std::string& name) {
    PieceSet set;
    set.name_ = name;
    std::stringstream stream(text);
    std::string line;
    int line_number = 0;
    while (std::getline(stream, line)) {
        ++line_number;
        const std::string here = "the pieces attribute, line " + std::to_string(line_number);
        // The head ends at ": (", where the orientations start: a letter may
        // itself be ':' ("letter=:"), so the first ':' is not enough.
        const auto separator = line.find(": (");
        const auto colon = separator != std::string::npos ? separator : line.find(':');
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
            else if (word.rfind("letter=", 0) == 0 && word.size() == 8
                     && std::isgraph(static_cast<unsigned char>(word[7])))
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
                throw InputError(here + ": expected '" + std::string(1, wanted) + "' at column "
                                 + std::to_string(at + 1));
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
            const std::vector<int> surface = read_list();
            expect(',');
            const std::vector<int> added = read_list();
            expect(')');
            const auto within = [](const std::vector<int>& values, int low, int high) {
                return std::all_of(values.begin(), values.end(), [&](int v) { return v >= low && v <= high; });
            };
            if (added.empty() || added.size() > std::size_t(MostPieceColumns) || surface.size() + 1 != added.size()
                || !within(added, 1, MaximumExtent) || !within(surface, -MaximumExtent, MaximumExtent))
                throw InputError(here + ": an orientation is (width - 1 steps in [-8, 8], width counts in [1, 8]), "
                                 "width 1-" + std::to_string(MostPieceColumns));
            Orientation orientation;
            orientation.width = int(added.size());
            for (std::size_t k = 0; k < added.size(); ++k)
                orientation.added[k] = std::int8_t(added[k]);
            for (std::size_t k = 0; k < surface.size(); ++k)
                orientation.surface[k] = std::int8_t(surface[k]);
            shape.orientations.push_back(orientation);
        }
        if (shape.orientations.empty())
            throw InputError(here + ": piece '" + shape.name + "' has no orientations");
        shape.cells = cells_of(shape.orientations[0]);
        set.pieces_.push_back(shape);
    }
    if (set.pieces_.empty())
        throw InputError("the pieces attribute lists no pieces");
    if (!cells_text.empty())
        set.read_cells(cells_text);
    set.check();
    return set;
}

// The 'piece_cells' attribute: a line per piece, in the pieces' order, whose
// cells must give every orientation the pieces attribute lists.
void PieceSet::read_cells(const std::string& text) {
    std::stringstream stream(text);
    std::string line;
    for (PieceShape& piece : pieces_) {
        if (!std::getline(stream, line) || line.rfind(piece.name + ": ", 0) != 0)
            throw InputError("the piece_cells attribute does not list piece '" + piece.name + "' in its place");
        std::vector<std::string> rows;
        std::stringstream drawn(line.substr(piece.name.size() + 2));
        for (std::string row; std::getline(drawn, row, '/');) {
            if (row.empty() || row.size() > std::size_t(MaximumExtent)
                || row.find_first_not_of("#.") != std::string::npos)
                throw InputError("the piece_cells attribute: piece '" + piece.name + "' is not rows of '#' and '.'");
            rows.push_back(row);
        }
        if (rows.empty() || rows.size() > std::size_t(MaximumExtent))
            throw InputError("the piece_cells attribute: piece '" + piece.name + "' has no rows, or too many");
        const PieceCells cells = cells_of_rows(rows, "the piece_cells attribute");
        if (cells.empty() || !connected(cells))
            throw InputError("the piece_cells attribute: the cells of piece '" + piece.name + "' are not one piece");
        const std::vector<Orientation> possible = derive_orientations(normalised(cells), true);
        for (const Orientation& orientation : piece.orientations)
            if (std::none_of(possible.begin(), possible.end(),
                             [&](const Orientation& other) { return other.same_shape(orientation); }))
                throw InputError("the piece_cells attribute: the cells of piece '" + piece.name
                                 + "' do not give its orientations");
        piece.cells = normalised(cells);
    }
    if (std::getline(stream, line) && !line.empty())
        throw InputError("the piece_cells attribute lists more pieces than the pieces attribute");
}

// Every piece has orientations of one cell count, each with width - 1
// surface steps and positive column counts, no orientation twice, no two
// pieces with one name or one letter.
void PieceSet::check() {
    for (std::size_t p = 0; p < pieces_.size(); ++p) {
        for (Orientation& orientation : pieces_[p].orientations)
            orientation.piece = int(p);
        const PieceShape& piece = pieces_[p];
        if (piece.orientations.empty())
            throw InputError("piece '" + piece.name + "' has no orientations");
        for (std::size_t q = 0; q < p; ++q)
            if (pieces_[q].name == piece.name || pieces_[q].letter == piece.letter)
                throw InputError("pieces '" + pieces_[q].name + "' and '" + piece.name + "' share a name or a letter");
        const int cells = piece.orientations[0].cells();
        for (std::size_t o = 0; o < piece.orientations.size(); ++o) {
            const Orientation& orientation = piece.orientations[o];
            bool shaped = orientation.width >= 1 && orientation.width <= MaximumExtent;
            for (int k = 0; shaped && k < orientation.width; ++k)
                shaped = orientation.added[k] >= 1 && orientation.added[k] <= MaximumExtent
                         && (k + 1 == orientation.width
                             || (orientation.surface[k] >= -MaximumExtent && orientation.surface[k] <= MaximumExtent));
            if (!shaped)
                throw InputError("piece '" + piece.name + "': orientation " + std::to_string(o + 1)
                                 + " is not (width-1 steps in [-8, 8], width counts in [1, 8]), width 1-8");
            if (orientation.cells() != cells)
                throw InputError("piece '" + piece.name + "': its orientations hold different numbers of cells");
            for (std::size_t earlier = 0; earlier < o; ++earlier)
                if (piece.orientations[earlier].same_shape(orientation))
                    throw InputError("piece '" + piece.name + "' lists an orientation twice");
        }
        if (piece.cell_count() != cells)
            throw InputError("piece '" + piece.name + "': its cells are not those of its orientations");
        // One shape twice: the same orientations (as a set) under two names.
        for (std::size_t q = 0; q < p; ++q) {
            const auto covers = [](const PieceShape& a, const PieceShape& b) {
                return std::all_of(b.orientations.begin(), b.orientations.end(), [&](const Orientation& o) {
                    return std::any_of(a.orientations.begin(), a.orientations.end(),
                                       [&](const Orientation& other) { return other.same_shape(o); });
                });
            };
            if (covers(pieces_[q], piece) && covers(piece, pieces_[q]))
                throw InputError("pieces '" + pieces_[q].name + "' and '" + piece.name + "' are the same shape");
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
        divisor = std::gcd(divisor, piece.cell_count());
    return divisor;
}

int PieceSet::smallest_piece_cells() const {
    int fewest = 0;
    for (const PieceShape& piece : pieces_)
        fewest = fewest == 0 ? piece.cell_count() : std::min(fewest, piece.cell_count());
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
        for (const Orientation& orientation : piece.orientations)
            text += " (" + list_text(orientation.surface, orientation.width - 1) + ","
                    + list_text(orientation.added, orientation.width) + ")";
        text += "\n";
    }
    return text;
}

std::string PieceSet::cells_text() const {
    std::string text;
    for (const PieceShape& piece : pieces_)
        text += piece.name + ": " + grid_text(piece.cells) + "\n";
    return text;
}

}  // namespace stack
