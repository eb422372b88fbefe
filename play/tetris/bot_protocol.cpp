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
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace stack::tetris {

namespace {

constexpr int BoardWidth = 10, BoardHeight = 40;
constexpr std::size_t MostLineBytes = 1 << 20;  // a longer line is ignored

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

class Bot {
public:
    Bot(const BotOptions& options, std::ostream& out, std::ostream& errors);
    // Handles one line; false after quit.
    bool handle(const std::string& line, std::uint64_t number);

private:
    void send(const Json& message);
    void start(const Json& message);
    void suggest();
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
    phase_ = Phase::BadStart;  // a start it cannot use leaves no position to play on,
    position_ = Position{};    // and nothing of the last one in the suggestions' state
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
// says) with one line on the error stream saying why.
void Bot::suggest() {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t leaves = 0;
    std::size_t depth = 0;
    if (phase_ != Phase::Playing)  // no position: a suggestion of no moves (a forfeit), never silence
        errors_ << "stackplay: tbp: " << without_position("suggest") << "; no moves\n" << std::flush;
    else if (position_.queue.empty())
        errors_ << "stackplay: tbp: suggest with an empty queue: no moves until a new piece arrives\n" << std::flush;
    std::string text;
    text.reserve(4096);
    text += "{\"type\":\"suggestion\",\"moves\":[";
    std::optional<TetrisChoice> best;
    std::vector<TetrisChoice> ranked;
    if (phase_ == Phase::Playing && !position_.queue.empty() && !choose(best, ranked, leaves, depth))
        errors_ << "stackplay: tbp: suggest: " << forfeit_reason() << ": forfeiting\n" << std::flush;
    else
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
    text += "}\n";
    out_ << text << std::flush;
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
    for (const char* axis : {"x", "y"})
        if (!location.contains(axis) || !location[axis].is_number_integer()
            || std::abs(location[axis].get<std::int64_t>()) > 1000)
            throw BadMessage(std::string("play: ") + axis + " is not a small integer");
    // The protocol's spins; the move itself says where the piece lies, so a
    // known spin changes nothing here, and an unknown one is a bad move.
    if (message["move"].contains("spin")) {
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
        moves::box_of(static_cast<Piece>(piece), *rotation, location["x"].get<int>(), location["y"].get<int>());
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

// A line as JSON, refused when it is not JSON or an object of it names a
// key twice (JSON leaves that undefined; a parser keeps one of the two, so
// the frontend and the bot could read different moves).
Json parse_message(const std::string& line) {
    std::vector<std::vector<std::string>> keys;  // [open object] -> its keys so far
    std::string repeated;
    const Json::parser_callback_t note_keys = [&](int, Json::parse_event_t event, Json& parsed) {
        if (event == Json::parse_event_t::object_start) {
            keys.emplace_back();
        } else if (event == Json::parse_event_t::object_end) {
            keys.pop_back();
        } else if (event == Json::parse_event_t::key && !keys.empty()) {
            const std::string& key = parsed.get_ref<const std::string&>();
            if (std::find(keys.back().begin(), keys.back().end(), key) != keys.back().end() && repeated.empty())
                repeated = key;
            keys.back().push_back(key);
        }
        return true;
    };
    const Json message = Json::parse(line, note_keys, false);
    if (message.is_discarded())
        throw BadMessage("not JSON");
    if (!repeated.empty())
        throw BadMessage("the key \"" + repeated + "\" is given twice");
    return message;
}

bool Bot::handle(const std::string& line, std::uint64_t number) {
    try {
        if (line.size() > MostLineBytes)
            throw BadMessage("longer than 1 MB");
        const Json message = parse_message(line);
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
            phase_ = Phase::Stopped;
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
    std::string line;
    for (std::uint64_t number = 1; std::getline(in, line); ++number)
        if (!line.empty() && line != "\r" && !bot.handle(line, number))
            break;
    return ExitSuccess;
}

}  // namespace stack::tetris
