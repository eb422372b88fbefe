#include "tetris/bot_protocol.h"

#include "rules/rules.h"
#include "srs/centre.h"
#include "support/cli.h"
#include "support/errors.h"
#include "support/json.h"
#include "support/parallel.h"
#include "table/stack_table.h"
#include "tetris/decision.h"
#include "tetris/tetris_run.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <istream>
#include <iterator>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

namespace stack::tetris {

namespace {

constexpr int BoardWidth = 10, BoardHeight = 40;
constexpr std::size_t MostLineBytes = 1 << 20;  // a longer line is read through but not kept
constexpr int MostCoordinate = 1000;             // |x| and |y| of a played move

// A message the bot cannot act on: one line on the error stream, and the
// position stays as it was.
class BadMessage : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The position the bot keeps: the board with each cell's letter (as the
// frontend drew it, so that "state" shows the frontend's own board), the
// queue (the current piece first) and the hold.
struct Position {
    TetrisBoard board{BoardWidth, BoardHeight};
    std::vector<std::string> letters = std::vector<std::string>(BoardHeight, std::string(BoardWidth, ' '));
    std::vector<int> queue;
    int hold = -1;
    int combo = 0;
    bool back_to_back = false;
};

// Where the game stands: no start yet; a start the bot could not use; a
// game on; a game the frontend stopped. Only Playing has a position.
enum class Phase { NoStart, BadStart, Playing, Stopped };

// What a line's top-level object gives "type": how many strings, and
// whether "start" or "suggest" is among them.
struct Types {
    std::size_t count = 0;
    bool start = false, suggest = false;

    void add(const std::string& type) {
        ++count;
        start = start || type == "start";
        suggest = suggest || type == "suggest";
    }
};

// One line of input as read_line leaves it: its text while within
// MostLineBytes, its types (read even when the rest is refused), and why
// it is refused ("" for one JSON value with no key given twice in an
// object; a line over MostLineBytes is not checked as JSON).
struct Line {
    std::string text;
    bool blank = true;      // only whitespace
    bool too_long = false;  // over MostLineBytes: `text` is not kept
    Types types;
    std::string refusal;
};

class Bot {
public:
    Bot(const BotOptions& options, std::ostream& out, std::ostream& errors);
    // Handles one line; false after quit.
    bool handle(const Line& line, std::uint64_t number);

private:
    void send(const Json& message);
    void forget(Phase phase);
    void start(const Json& message);
    void suggest(const std::string& refused = {});
    void play(const Json& message);
    void new_piece(const Json& message);
    std::string without_position(const char* what) const;
    std::string forfeit_reason() const;
    int piece_of(const Json& value, const char* what) const;
    void append_state(std::string& text) const;
    bool append_move(std::string& text, const TetrisChoice& choice) const;
    bool choose(std::optional<TetrisChoice>& best, std::vector<TetrisChoice>& ranked, std::uint64_t& leaves,
                std::size_t& depth) const;

    BotOptions options_;
    std::ostream& out_;
    std::ostream& errors_;
    PieceSet set_;
    ShapeSet shapes_;
    std::unique_ptr<StackTable> table_;   // --policy well's (--table)
    std::vector<TetrisPolicy> policies_;  // [d] searches d more known pieces than the first
    int threads_;
    Phase phase_ = Phase::NoStart;
    Position position_;
};

// The policies of each depth: with a budget, from the shallowest the
// options allow (the current piece, or with hold the current and the next)
// to --preview; without, --preview's only.
std::vector<TetrisPolicy> policies_for(const BotOptions& options, const ShapeSet& shapes, const Rules& rules,
                                       const StackTable* table) {
    std::vector<TetrisPolicy> policies;
    TetrisOptions game = options.game;
    const int deepest = policy_config(game).preview;
    const bool budget = options.budget_ms > 0 || options.budget_leaves > 0;
    policies.reserve(std::size_t(deepest) + 1);
    for (int preview = budget ? int(options.game.hold) : deepest; preview <= deepest; ++preview) {
        game.preview = preview;
        PolicyConfig config = policy_config(game);
        config.moves = options.game.moves == MoveSet::HardDrop ? MoveSet::SrsHardDrop : MoveSet::BreadthFirst;
        config.spawn_row = options.spawn_row;
        config.visible_rows = options.lock_out ? VisibleRows : 0;
        policies.emplace_back(shapes, config, draw_probabilities(rules), table);
    }
    return policies;
}

Bot::Bot(const BotOptions& options, std::ostream& out, std::ostream& errors)
    : options_(options), out_(out), errors_(errors), set_(PieceSet::named_or_file("tetrominoes")), shapes_(set_),
      table_(open_well_table(options.game)), policies_(policies_for(options, shapes_, Rules(set_), table_.get())),
      threads_(resolve_threads(options.game.threads)) {
    if (!options.budget_ms && !options.budget_leaves) {  // a budget bounds the work; else the guard does
        TetrisOptions well = options.game;
        well.height = options.spawn_row + 1;  // the rows under the spawn
        check_search_time(well, shapes_, policies_.back().config());
    }
}

void Bot::send(const Json& message) { out_ << json_text(message) << std::flush; }

// No position from now on (a start refused, a stop): the suggestions have
// no moves and their state is empty until a good start.
void Bot::forget(Phase phase) {
    phase_ = phase;
    position_ = Position{};
}

int Bot::piece_of(const Json& value, const char* what) const {
    if (!value.is_string() || value.get_ref<const std::string&>().size() != 1)
        throw BadMessage(std::string(what) + " is not a piece letter");
    const char letter = value.get_ref<const std::string&>()[0];
    const int piece = shapes_.piece_of_letter(letter);
    if (piece < 0 || shapes_.letter(piece) != letter)
        throw BadMessage(std::string(what) + " '" + printable(value.get<std::string>()) + "' is not I O T S Z J L");
    return piece;
}

// The suggestion is written as text, not built as JSON values: its names
// are fixed and its strings are piece letters (start checks the board's),
// and building a 400-cell board as values cost more than the search.
// The unit tests and the frontend read it back with a JSON parser.
void append_letter(std::string& text, char letter) {
    text += '"';
    text += letter;
    text += '"';
}

// The position as the suggestion's "state".
void Bot::append_state(std::string& text) const {
    text += "{\"board\":[";
    for (std::size_t y = 0; y < position_.letters.size(); ++y) {
        text += y ? ",[" : "[";
        for (std::size_t x = 0; x < position_.letters[y].size(); ++x) {
            if (x)
                text += ',';
            if (const char cell = position_.letters[y][x]; cell == ' ')
                text += "null";
            else
                append_letter(text, cell);
        }
        text += ']';
    }
    text += "],\"queue\":[";
    for (std::size_t i = 0; i < position_.queue.size(); ++i) {
        if (i)
            text += ',';
        append_letter(text, shapes_.letter(position_.queue[i]));
    }
    text += "],\"hold\":";
    if (position_.hold < 0)
        text += "null";
    else
        append_letter(text, shapes_.letter(position_.hold));
    text += '}';
}

// The start message: a 10x40 board of null or letter cells, row 0 at the
// bottom; the queue; the hold. All checked before the position changes; a
// start that fails a check leaves the bot without a position (its
// suggestions have no moves) until the next good start. A held piece is
// taken with or without --hold: the frontend's game may hold even where the
// bot never does. An empty queue is a position with nothing to place yet.
void Bot::start(const Json& message) {
    forget(Phase::BadStart);  // a start it cannot use leaves no position to play on,
                              // and nothing of the last one in the suggestions' state
    Position next;
    const Json& board = message.contains("board") ? message["board"] : Json();
    if (!board.is_array() || board.size() != std::size_t(BoardHeight))
        throw BadMessage("start: the board is not a list of 40 rows");
    for (int y = 0; y < BoardHeight; ++y) {
        const Json& row = board[std::size_t(y)];
        if (!row.is_array() || row.size() != std::size_t(BoardWidth))
            throw BadMessage("start: board row " + std::to_string(y) + " is not a list of 10 cells");
        for (int x = 0; x < BoardWidth; ++x) {
            const Json& cell = row[std::size_t(x)];
            if (cell.is_null())
                continue;
            if (!cell.is_string() || cell.get_ref<const std::string&>().size() != 1
                || !std::isalpha(static_cast<unsigned char>(cell.get_ref<const std::string&>()[0])))
                throw BadMessage("start: cell (" + std::to_string(x) + ", " + std::to_string(y)
                                 + ") is neither null nor a letter");
            next.board.set(x, y);
            next.letters[std::size_t(y)][std::size_t(x)] = cell.get_ref<const std::string&>()[0];
        }
    }
    if (!message.contains("queue"))
        throw BadMessage("start: no \"queue\" field: no position until a start that has one");
    const Json& queue = message["queue"];
    if (!queue.is_array())
        throw BadMessage("start: the queue is not a list");
    for (const Json& piece : queue)
        next.queue.push_back(piece_of(piece, "start: a queue piece"));
    if (message.contains("hold") && !message["hold"].is_null())
        next.hold = piece_of(message["hold"], "start: the hold");
    if (message.contains("combo") && message["combo"].is_number_integer())
        next.combo = message["combo"].get<int>();
    if (message.contains("back_to_back") && message["back_to_back"].is_boolean())
        next.back_to_back = message["back_to_back"].get<bool>();
    position_ = std::move(next);
    phase_ = Phase::Playing;
    if (position_.queue.empty())
        errors_ << "stackplay: tbp: start has an empty queue: no suggestion until a new piece arrives\n" << std::flush;
}

// The best choice at the deepest depth the budget allows. Returns false
// when no placement fits.
bool Bot::choose(std::optional<TetrisChoice>& best, std::vector<TetrisChoice>& ranked, std::uint64_t& leaves,
                 std::size_t& depth) const {
    const auto start = std::chrono::steady_clock::now();
    // Without --hold the search never holds, so the held piece (the
    // frontend's own holding) is no piece it may place.
    const Known known{position_.queue, options_.game.hold ? position_.hold : -1};
    std::uint64_t previous = 0;
    for (std::size_t d = 0; d < policies_.size(); ++d) {
        const auto began = std::chrono::steady_clock::now();
        std::vector<TetrisChoice> scored;
        std::uint64_t these = 0;
        const std::optional<TetrisChoice> choice =
            policies_[d].choose(position_.board, known, threads_, &these, &scored);
        leaves += these;
        if (!choice)
            return false;
        best = choice;
        ranked = std::move(scored);
        depth = std::min(known.queue.size(), std::size_t(policies_[d].config().preview) + 1);
        if (depth == known.queue.size())
            break;  // a deeper search knows no more pieces
        // The next depth costs about this one times its growth.
        const double growth = previous > 0 ? double(these) / double(previous) : double(ranked.size());
        const auto now = std::chrono::steady_clock::now();
        const double spent = std::chrono::duration<double, std::milli>(now - start).count();
        const double this_depth = std::chrono::duration<double, std::milli>(now - began).count();
        if (options_.budget_leaves && double(leaves) + double(these) * growth > double(options_.budget_leaves))
            break;
        if (options_.budget_ms > 0 && spent + this_depth * growth > options_.budget_ms)
            break;
        previous = these;
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const TetrisChoice& a, const TetrisChoice& b) { return a.score > b.score; });
    return true;
}

// A move as the protocol names it: the piece, its SRS state and centre
// (the state the search reached these cells in first) and its spin.
// Returns false (and writes nothing) for a placement SRS does not reach:
// the search's placements all are.
bool Bot::append_move(std::string& text, const TetrisChoice& choice) const {
    const TetrisPlacement& placement = choice.placement;
    const Shape& shape = shapes_.shape(placement.shape);
    const moves::Cells cells = placement_cells(shape, placement);
    for (const moves::SrsPlacement& srs :
         srs_placements(position_.board, shape.piece, options_.spawn_row, policies_.back().config().moves))
        if (srs.cells == cells) {
            const auto [x, y] = moves::centre_of(static_cast<Piece>(shape.piece), srs.location);
            text += "{\"location\":{\"type\":";
            append_letter(text, shapes_.letter(shape.piece));
            text += std::string(",\"orientation\":\"") + moves::orientation_name(srs.location.rotation)
                    + "\",\"x\":" + std::to_string(x) + ",\"y\":" + std::to_string(y) + "},\"spin\":\""
                    + spin_name(srs.reached) + "\"}";
            return true;
        }
    return false;
}

// Why a message that needs a position has none: `what` (the message's
// type) came before any start, after a start the bot could not use, or
// after stop.
std::string Bot::without_position(const char* what) const {
    if (phase_ == Phase::Stopped)
        return std::string(what) + " after stop: waiting for a start";
    if (phase_ == Phase::BadStart)
        return std::string(what) + " after a start it could not use: waiting for a good start";
    return std::string(what) + " before start";
}

// Why the search found no move for the position: the spawn of every piece
// the turn may place is blocked (the game is lost), or, should a piece that
// can spawn have no placement, that.
std::string Bot::forfeit_reason() const {
    const Known known{position_.queue, options_.game.hold ? position_.hold : -1};
    std::vector<int> pieces = {known.queue[0]};
    if (may_hold(known, options_.game.hold))
        pieces.push_back(placed_piece(known, true));
    moves::MoveOptions spawn;
    spawn.spawn_row = options_.spawn_row;
    const moves::SrsBoard board = srs_board(position_.board);
    const bool blocked = std::none_of(pieces.begin(), pieces.end(), [&](int piece) {
        return moves::spawn_location(board, static_cast<Piece>(piece), spawn).has_value();
    });
    const std::string current(1, shapes_.letter(pieces[0]));
    const std::string reachable =
        options_.lock_out ? " with a cell below row 20 is reachable (each other would lock out)" : " is reachable";
    if (pieces.size() == 1)
        return blocked ? "the spawn of " + current + " is blocked" : "no placement of " + current + reachable;
    const std::string both = current + " and of the hold's " + shapes_.letter(pieces[1]);
    return blocked ? "the spawns of " + both + " are blocked" : "no placement of " + both + reachable;
}

// The suggestion: the best moves, or none (a forfeit, as the protocol
// says) with a "reason" and one line on the error stream saying why. A
// suggest on a line the bot refused has no moves, its refusal (already on
// the error stream) as the reason: every suggest gets a suggestion.
void Bot::suggest(const std::string& refused) {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t leaves = 0;
    std::size_t depth = 0;
    std::optional<TetrisChoice> best;
    std::vector<TetrisChoice> ranked;
    std::string reason = refused;
    if (reason.empty()) {
        if (phase_ != Phase::Playing)  // no position: a suggestion of no moves (a forfeit), never silence
            reason = without_position("suggest") + "; no moves";
        else if (position_.queue.empty())
            reason = "suggest with an empty queue: no moves until a new piece arrives";
        else if (!choose(best, ranked, leaves, depth))
            reason = "suggest: " + forfeit_reason() + ": forfeiting";
        if (!reason.empty())
            errors_ << "stackplay: tbp: " << reason << '\n' << std::flush;
    }
    std::string text;
    text.reserve(4096);
    text += "{\"type\":\"suggestion\",\"moves\":[";
    for (std::size_t i = 0, written = 0; i < ranked.size() && written < std::size_t(options_.moves); ++i) {
        const std::size_t before = text.size();
        if (written)
            text += ',';
        if (append_move(text, ranked[i]))
            ++written;
        else
            text.resize(before);
    }
    const double milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    text += "],\"move_info\":{\"nodes\":" + std::to_string(leaves) + ",\"depth\":" + std::to_string(depth)
            + ",\"time_ms\":" + json_text(Json(milliseconds));
    text.pop_back();  // json_text's newline
    text += "},\"state\":";
    append_state(text);
    if (!reason.empty()) {
        text += ",\"reason\":" + json_text(Json(reason));
        text.pop_back();
    }
    text += "}\n";
    out_ << text << std::flush;
}

// An integer from -MostCoordinate to MostCoordinate, or nothing: a number
// of any size is refused, 2^63 included (the parser keeps it unsigned, and
// read as int64 it would wrap), as is a fraction or any other value.
std::optional<int> small_integer(const Json& value) {
    if (value.is_number_unsigned()) {
        if (value.get<std::uint64_t>() <= std::uint64_t(MostCoordinate))
            return int(value.get<std::uint64_t>());
    } else if (value.is_number_integer()) {
        const std::int64_t number = value.get<std::int64_t>();
        if (number >= -MostCoordinate && number <= MostCoordinate)
            return int(number);
    }
    return std::nullopt;
}

// The frontend's move: its cells must lie on empty cells of the board and
// rest on something, and its piece must be the current one or what the
// hold gives. A play of the hold's piece means the frontend held (as the
// protocol says), whether or not this bot may hold: the held piece is
// placed and the current one held, or with the hold empty the next piece
// is placed and the current one held.
void Bot::play(const Json& message) {
    if (phase_ != Phase::Playing)
        throw BadMessage(without_position("play"));
    if (!message.contains("move") || !message["move"].is_object() || !message["move"].contains("location")
        || !message["move"]["location"].is_object())
        throw BadMessage("play: no move location");
    const Json& location = message["move"]["location"];
    const int piece = piece_of(location.contains("type") ? location["type"] : Json(), "play: the type");
    const Json& orientation = location.contains("orientation") ? location["orientation"] : Json();
    const std::optional<int> rotation =
        orientation.is_string() ? moves::orientation_of(orientation.get<std::string>()) : std::nullopt;
    if (!rotation)
        throw BadMessage("play: the orientation is not north, east, south or west");
    std::optional<int> centre[2];
    for (int axis = 0; axis < 2; ++axis) {
        const char* name = axis ? "y" : "x";
        if (location.contains(name))
            centre[axis] = small_integer(location[name]);
        if (!centre[axis])
            throw BadMessage(std::string("play: ") + name + " is not an integer from -1000 to 1000");
    }
    // The protocol's spins; the move itself says where the piece lies, so a
    // known spin changes nothing here, and an unknown one is a bad move.
    // The spin is optional: null is taken as absent, that is none.
    if (message["move"].contains("spin") && !message["move"]["spin"].is_null()) {
        const Json& spin = message["move"]["spin"];
        if (!spin.is_string()
            || (spin.get_ref<const std::string&>() != "none" && spin.get_ref<const std::string&>() != "mini"
                && spin.get_ref<const std::string&>() != "full"))
            throw BadMessage("play: the spin is not none, mini or full");
    }
    const Known known{position_.queue, position_.hold};
    bool hold = false;
    if (known.queue.empty() || piece != known.queue[0]) {
        hold = may_hold(known, true) && placed_piece(known, true) == piece;  // the frontend held, --hold or not
        if (!hold)
            throw BadMessage("play: a " + std::string(1, shapes_.letter(piece))
                             + " is neither the current piece nor what the hold gives");
    }
    const moves::Location box =
        moves::box_of(static_cast<Piece>(piece), *rotation, *centre[0], *centre[1]);
    const moves::Cells cells = moves::cells_at(static_cast<Piece>(piece), box);
    const std::optional<TetrisPlacement> placement = placement_of_cells(shapes_, position_.board, piece, cells);
    if (!placement)
        throw BadMessage("play: the move leaves the board");
    for (const auto& [x, y] : cells)
        if (position_.board.filled(x, y))
            throw BadMessage("play: the move overlaps a filled cell");
    // A piece locks resting on something under every rule set; whether the
    // frontend's moves reach it is the frontend's to say.
    const Shape& shape = shapes_.shape(placement->shape);
    if (placement->row > 0 && position_.board.fits(shape, placement->x, placement->row - 1))
        throw BadMessage("play: the move does not rest on anything");
    // Now the position changes: the board, its letters, the queue, the hold.
    const Landing landing = position_.board.place(shape, placement->x, placement->row);
    for (const auto& [x, y] : cells)
        position_.letters[std::size_t(y)][std::size_t(x)] = shapes_.letter(piece);
    std::erase_if(position_.letters, [](const std::string& row) { return row.find(' ') == std::string::npos; });
    position_.letters.resize(BoardHeight, std::string(BoardWidth, ' '));
    position_.combo = landing.lines > 0 ? position_.combo + 1 : 0;
    const Known rest = after_turn(known, hold);
    position_.hold = rest.hold;
    position_.queue.erase(position_.queue.begin(),
                          position_.queue.begin() + std::ptrdiff_t(known.queue.size() - rest.queue.size()));
}

void Bot::new_piece(const Json& message) {
    if (phase_ != Phase::Playing)
        throw BadMessage(without_position("new_piece"));
    position_.queue.push_back(piece_of(message.contains("piece") ? message["piece"] : Json(), "new_piece: the piece"));
}

// The types of a line of any length, read a character at a time in
// constant memory and without checking the JSON: the strings given "type"
// in the top-level object, compared as written (a string with an escape
// matches nothing). A line over MostLineBytes is judged by these alone.
class TypeScan {
public:
    Types types;

    void feed(char c) {
        if (in_string_)
            return string_char(c);
        switch (c) {
        case '"':
            in_string_ = true;
            escape_ = false;
            plain_ = true;
            kept_.clear();
            string_is_key_ = key_next_;
            key_next_ = false;
            return;
        case '{':
        case '[':
            if (depth_ == 0)
                top_object_ = c == '{';
            type_key_ = false;  // "type" given an object or a list
            ++depth_;
            key_next_ = depth_ == 1 && top_object_;
            return;
        case '}':
        case ']':
            depth_ -= depth_ > 0;
            key_next_ = false;
            return;
        case ',':
            key_next_ = depth_ == 1 && top_object_;
            return;
        case ':':
            return;
        default:
            if (!std::isspace(static_cast<unsigned char>(c)))
                type_key_ = false;  // "type" given a number or a literal
        }
    }

private:
    static constexpr std::size_t MostKept = 16;  // longer than any type it looks for

    void string_char(char c) {
        if (escape_) {
            escape_ = false;
        } else if (c == '\\') {
            escape_ = true;
            plain_ = false;
        } else if (c != '"') {
            if (kept_.size() <= MostKept)
                kept_ += c;
        } else {
            in_string_ = false;
            if (depth_ != 1 || !top_object_)
                return;
            const bool readable = plain_ && kept_.size() <= MostKept;
            if (string_is_key_) {
                type_key_ = readable && kept_ == "type";
            } else if (type_key_) {
                types.add(readable ? kept_ : std::string());
                type_key_ = false;
            }
        }
    }

    std::size_t depth_ = 0;
    bool top_object_ = false, in_string_ = false, escape_ = false, plain_ = true;
    bool key_next_ = false, string_is_key_ = false, type_key_ = false;
    std::string kept_;
};

// A line handed to the JSON parser a character at a time, up to (not
// including) its newline or the end of input. The parser sees at most
// MostLineBytes of it, and its text is kept only while it fits; every
// character goes through a TypeScan, so a longer line is read through in
// constant memory and still has its types.
struct LineReader {
    std::streambuf& in;
    Line& line;
    char current = 0;
    bool ended = false;
    TypeScan scan;

    void advance() {
        const int c = in.sbumpc();
        if (c == std::char_traits<char>::eof() || c == '\n') {
            ended = true;
            return;
        }
        current = char(c);
        scan.feed(current);
        if (!std::isspace(static_cast<unsigned char>(current)))
            line.blank = false;
        if (line.too_long)
            return;
        if (line.text.size() < MostLineBytes) {
            line.text += current;
        } else {
            line.too_long = true;
            std::string().swap(line.text);
        }
    }
};

// The parser's input iterator over a LineReader; the default one is the
// end, and so is a line's MostLineBytes.
class LineIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    LineIterator() = default;
    explicit LineIterator(LineReader* reader) : reader_(reader) {}
    const char& operator*() const { return reader_->current; }
    LineIterator& operator++() {
        reader_->advance();
        return *this;
    }
    bool operator==(const LineIterator& other) const { return done() == other.done(); }
    bool operator!=(const LineIterator& other) const { return !(*this == other); }

private:
    bool done() const { return !reader_ || reader_->ended || reader_->line.too_long; }
    LineReader* reader_ = nullptr;
};

// The parser's events for what the bot must know of every line, whole or
// refused: the strings the top-level object gives "type", and the first
// key an object gives twice (JSON leaves that undefined; a parser keeps one
// of the two, so the frontend and the bot could read different moves).
class LineScan {
public:
    explicit LineScan(Line& line) : line_(line) {}
    bool null() { return value(); }
    bool boolean(bool) { return value(); }
    bool number_integer(Json::number_integer_t) { return value(); }
    bool number_unsigned(Json::number_unsigned_t) { return value(); }
    bool number_float(Json::number_float_t, const std::string&) { return value(); }
    bool binary(Json::binary_t&) { return value(); }
    bool string(std::string& text) {
        if (type_next_)
            line_.types.add(text);
        return value();
    }
    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(std::string& key) {
        type_next_ = objects_.size() == 1 && objects_[0] && key == "type";
        if (keys_.size() == open_objects_ && !keys_.back().insert(key).second
            && line_.refusal.empty())
            line_.refusal = "the key \"" + printable(key, 40) + "\" is given twice";
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        line_.refusal = "not JSON";
        return false;
    }

private:
    bool value() {
        type_next_ = false;
        return true;
    }
    bool open(bool object) {
        value();
        objects_.push_back(object);
        if (object && ++open_objects_ == keys_.size() + 1)
            keys_.emplace_back();
        return true;
    }
    bool close() {
        if (objects_.back()) {
            if (keys_.size() == open_objects_)
                keys_.pop_back();
            --open_objects_;
        }
        objects_.pop_back();
        return true;
    }
    Line& line_;
    std::vector<bool> objects_;                          // [open value] -> an object (else an array)
    std::size_t open_objects_ = 0;                       // the objects among them
    std::vector<std::unordered_set<std::string>> keys_;  // [open object] -> its keys
    bool type_next_ = false;
};

// Reads the next line of `in` into `line`; false at the end of input.
bool read_line(std::istream& in, Line& line) {
    line = Line{};
    std::streambuf* buffer = in.rdbuf();
    if (!buffer || buffer->sgetc() == std::char_traits<char>::eof())
        return false;
    LineReader reader{*buffer, line};
    reader.advance();  // the parser's first character
    LineScan scan(line);
    Json::sax_parse(LineIterator(&reader), LineIterator(), &scan);
    while (!reader.ended)  // the rest of a line the parser stopped in
        reader.advance();
    if (line.too_long) {  // the parser saw a part: the types are the whole line's, and it is not checked as JSON
        line.types = reader.scan.types;
        line.refusal.clear();
    }
    return true;
}

// A line the bot refuses gets one line on the error stream. If it names
// "start" as its type (once or among others), it is a start refused: the
// position is cleared. If it names "suggest", it gets a suggestion of no
// moves. A line over MostLineBytes is refused but for one thing: one whose
// top-level object's only type is "suggest" needs nothing else of the
// line, so it is answered as any suggest (TBP ignores unknown attributes).
bool Bot::handle(const Line& line, std::uint64_t number) {
    const bool lone_suggest = line.types.count == 1 && line.types.suggest;
    std::string refusal = line.refusal;
    if (refusal.empty() && line.too_long && !lone_suggest)
        refusal = "longer than 1 MB";
    if (!refusal.empty()) {
        refusal = "line " + std::to_string(number) + ": " + refusal;
        std::string outcome = "ignored";
        if (line.types.start)
            outcome = "a start it cannot use: no position until a good start";
        if (line.types.suggest)
            outcome = (line.types.start ? outcome + "; " : std::string()) + "a suggest it cannot read: no moves";
        errors_ << "stackplay: tbp: " << refusal << "; " << outcome << '\n' << std::flush;
        if (line.types.start)
            forget(Phase::BadStart);
        if (line.types.suggest)
            suggest(refusal);
        return true;
    }
    if (line.too_long) {  // a lone suggest
        suggest();
        return true;
    }
    try {
        const Json message = Json::parse(line.text, nullptr, false);
        if (!message.is_object() || !message.contains("type") || !message["type"].is_string())
            throw BadMessage("not a message (an object with a type)");
        const std::string& type = message["type"].get_ref<const std::string&>();
        if (type == "rules")
            send({{"type", "ready"}});
        else if (type == "start")
            start(message);
        else if (type == "suggest")
            suggest();
        else if (type == "play")
            play(message);
        else if (type == "new_piece")
            new_piece(message);
        else if (type == "stop")
            forget(Phase::Stopped);
        else if (type == "quit")
            return false;
        // Other types are ignored, as the protocol says.
    } catch (const BadMessage& error) {
        errors_ << "stackplay: tbp: line " << number << ": " << error.what() << "; ignored\n" << std::flush;
    }
    return true;
}

}  // namespace

int run_bot(const BotOptions& options, std::istream& in, std::ostream& out, std::ostream& errors) {
    Bot bot(options, out, errors);
    out << json_text({{"type", "info"},
                      {"name", "stackplay"},
                      {"version", project_version()},
                      {"author", "stack"},
                      {"features", Json::array()}})
        << std::flush;
    Line line;
    for (std::uint64_t number = 1; read_line(in, line); ++number)
        if (!line.blank && !bot.handle(line, number))
            break;
    return ExitSuccess;
}

}  // namespace stack::tetris
