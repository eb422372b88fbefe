#include "web/api.h"

#include "stacking/distribution.h"
#include "stacking/player.h"
#include "stacking/policy.h"
#include "stacking/view.h"
#include "srs/moves.h"
#include "rules/placement.h"
#include "tetris/tetris_board.h"
#include "tetris/decision.h"
#include "support/errors.h"
#include "table/stack_table.h"
#include "tetris/game.h"
#include "tetris/search.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <future>
#include <set>
#include <string_view>

namespace stack::web {

namespace {

// A request's query: every name must be one the endpoint takes, given at
// most once.
class Query {
public:
    Query(const Parameters& parameters, std::initializer_list<const char*> names) : parameters_(parameters) {
        const std::set<std::string> allowed(names.begin(), names.end());
        for (auto entry = parameters.begin(); entry != parameters.end(); entry = parameters.upper_bound(entry->first)) {
            if (!allowed.count(entry->first)) {
                std::string list;
                for (const char* name : names)
                    list += (list.empty() ? "" : ", ") + std::string(name);
                throw BadRequest("unknown parameter '" + printable(entry->first, 40) + "' (this endpoint takes "
                                 + (list.empty() ? "none" : list) + ")");
            }
            if (parameters.count(entry->first) > 1)
                throw BadRequest("parameter '" + printable(entry->first, 40) + "' given more than once");
        }
    }
    std::optional<std::string> text(const char* name) const {
        const auto entry = parameters_.find(name);
        return entry == parameters_.end() ? std::nullopt : std::optional<std::string>(entry->second);
    }
    std::string text(const char* name, const std::string& otherwise) const { return text(name).value_or(otherwise); }
    // A whole decimal number in [low, high].
    std::uint64_t number(const char* name, std::uint64_t low, std::uint64_t high, std::uint64_t otherwise) const {
        const std::optional<std::string> given = text(name);
        if (!given)
            return otherwise;
        std::uint64_t value = 0;
        const char* end = given->data() + given->size();
        const auto [stop, error] = std::from_chars(given->data(), end, value);
        if (given->empty() || error != std::errc() || stop != end || value < low || value > high)
            throw BadRequest(std::string(name) + " must be a whole number from " + std::to_string(low) + " to "
                             + std::to_string(high) + " (got '" + printable(*given, 40) + "')");
        return value;
    }

private:
    const Parameters& parameters_;
};

// ROWS: the rows top first, '.' empty and '#' filled, joined by '/', read
// as a board file's are (tetris::read_board_rows), an error naming a row as
// the page does (0 the bottom one); each row as wide, from `least_width`
// (`why`: the reason, if any) to MostBoardWidth cells, and at most
// MostBoardHeight of them.
std::vector<std::string> split_rows(const std::string& text, int least_width, const std::string& why) {
    const auto too_large = [] {
        return BadRequest("board: at most " + std::to_string(MostBoardHeight) + " rows of at most "
                          + std::to_string(MostBoardWidth) + " cells");
    };
    if (text.size() > std::size_t(MostBoardHeight) * (MostBoardWidth + 1))
        throw too_large();
    std::vector<std::string> rows;
    try {
        rows = tetris::read_board_rows(text, '/', tetris::RowNaming::FromFloor);
    } catch (const InputError& error) {
        throw BadRequest(error.what());
    }
    if (rows.size() > std::size_t(MostBoardHeight) || rows.front().size() > std::size_t(MostBoardWidth))
        throw too_large();
    if (rows.front().size() < std::size_t(least_width))
        throw BadRequest("board: rows of " + std::to_string(least_width) + " to " + std::to_string(MostBoardWidth)
                         + " cells" + why);
    return rows;
}

moves::SrsBoard parse_board(const std::string& text) {
    const std::vector<std::string> rows = split_rows(
        text, moves::LeastWidth, " (SRS spawns in a well at least " + std::to_string(moves::LeastWidth) + " wide)");
    const std::size_t width = rows.front().size();
    moves::SrsBoard board(int(width), int(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (std::size_t x = 0; x < width; ++x)
            if (rows[r][x] == '#')
                board.fill(int(x), int(rows.size() - 1 - r));
    }
    return board;
}

Piece parse_piece(const std::string& text, const char* name = "piece") {
    for (int p = 0; p < PieceCount; ++p)
        if (text.size() == 1 && text[0] == piece_letter(Piece(p)))
            return Piece(p);
    throw BadRequest(std::string(name) + " must be one of I O T S Z J L (got '" + printable(text, 20) + "')");
}

constexpr std::pair<const char*, moves::Algorithm> AlgorithmNames[] = {
    {"harddrop", moves::Algorithm::HardDrop},
    {"quick", moves::Algorithm::Quick},
    {"bfs", moves::Algorithm::BreadthFirst},
    {"convolution", moves::Algorithm::Convolution},
    {"convolution-seed", moves::Algorithm::ConvolutionSeed},
};

moves::Algorithm parse_algorithm(const std::string& text) {
    for (const auto& [name, algorithm] : AlgorithmNames)
        if (text == name)
            return algorithm;
    throw BadRequest("algorithm must be harddrop, quick, bfs, convolution or convolution-seed (got '"
                     + printable(text, 30) + "')");
}

// The board's heights from "h0,h1,...", checked against the table.
BoardId parse_stack(const StackTable& table, const std::optional<std::string>& text) {
    const Geometry& geometry = table.geometry();
    BoardId id = 0;
    if (text) {
        try {
            id = geometry.encode(geometry.parse_heights(*text));
        } catch (const InputError& error) {
            throw BadRequest(std::string("heights: ") + error.what());
        }
    }
    if (!table.holds(id))
        throw BadRequest(not_held_message(table, id));
    return id;
}

Json heights_json(const Heights& heights, int width) {
    return Json(std::vector<int>(heights.begin(), heights.begin() + width));
}

// The real game's pieces and rules, built once: a policy holds the shapes.
struct TetrisKit {
    PieceSet set = PieceSet::builtin("tetrominoes");
    Rules rules{set};
    tetris::ShapeSet shapes{set};
};
const TetrisKit& tetris_kit() {
    static const TetrisKit kit;
    return kit;
}

Json shape_cells(const tetris::Shape& shape, int x, int row) {
    Json cells = Json::array();
    shape.for_each_cell(x, row, [&](int cx, int cy) { cells.push_back({cx, cy}); });
    return cells;
}

Json tetris_game(const Query& query) {
    const TetrisKit& kit = tetris_kit();
    tetris::TetrisOptions options;
    options.policy = query.text("policy", "dellacherie");
    if (options.policy != "dellacherie" && options.policy != "lee" && options.policy != "el-tetris"
        && options.policy != "seed001")
        throw BadRequest("policy for the real game must be dellacherie, lee, el-tetris or seed001 (got '"
                         + printable(options.policy, 30) + "')");
    options.seed = query.number("seed", 0, std::numeric_limits<std::uint64_t>::max(), 1);
    options.max_pieces = query.number("pieces", 1, MostTetrisPieces, 200);
    const tetris::TetrisPolicy policy(kit.shapes, tetris::parse_tetris_policy(options.policy, 0, 0),
                                      tetris::draw_probabilities(kit.rules));
    Json turns = Json::array();
    const auto observe = [&](const tetris::TetrisTurn& turn) {
        const tetris::TetrisBoard& board = *turn.before;
        std::vector<tetris::TetrisChoice> ranked = *turn.scored;
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
        // The choice is the first of the best in the search's order: first.
        const double score = ranked.empty() ? 0.0 : ranked.front().score;
        Json alternatives = Json::array();
        for (std::size_t i = 0; i < ranked.size() && i < std::size_t(MostAlternatives); ++i) {
            const tetris::TetrisPlacement& placement = ranked[i].placement;
            alternatives.push_back(
                {{"cells", shape_cells(kit.shapes.shape(placement.shape), placement.x, placement.row)},
                 {"score", ranked[i].score}});
        }
        turns.push_back({{"move", turn.number},
                         {"piece", std::string(1, kit.shapes.letter(turn.piece))},
                         {"rows", tetris::board_rows(board)},
                         {"cells", shape_cells(kit.shapes.shape(turn.chosen.placement.shape), turn.chosen.placement.x,
                                               turn.chosen.placement.row)},
                         {"score", score},
                         {"alternatives", std::move(alternatives)},
                         {"lines_cleared", turn.lines_cleared},
                         {"lines", turn.record->lines},
                         {"points", turn.record->points}});
    };
    const tetris::GameRecord record =
        tetris::play_tetris_game(options, kit.rules, kit.shapes, policy, nullptr, 0, 1, observe);
    return {{"game", "tetris"},         {"policy", options.policy}, {"seed", options.seed},
            {"width", options.width},   {"height", options.height}, {"pieces_placed", record.pieces},
            {"lines", record.lines},    {"points", record.points},  {"topped_out", record.topped_out},
            {"turns", std::move(turns)}};
}

// The work a decision projects: its search's leaves as the command line
// projects them (projected_leaves, tetris/search.h), with SRS moves P being
// at least the most placements any piece has on this board (they can reach
// many more on a board with overhangs: 752 for a J on a sparse 16x64
// board, tests/play/test_api.cpp), and each board's placements coming from a
// breadth-first search over the well, so a leaf counts width x height / 80.
// About 40 ns a unit on one core either way.
double decision_work(const tetris::ShapeSet& shapes, const tetris::TetrisBoard& board,
                     const tetris::PolicyConfig& config, std::size_t known) {
    const int width = board.width(), height = board.height();
    const bool srs = config.moves == tetris::MoveSet::BreadthFirst;
    double most_placements = 0;
    if (srs) {
        const moves::SrsBoard drawn = tetris::srs_board(board);
        moves::MoveOptions options;
        options.spawn_row = config.spawn_row;
        for (int p = 0; p < shapes.piece_count(); ++p)  // the tetrominoes: a set index is its Piece
            most_placements =
                std::max(most_placements,
                         double(moves::generate(drawn, Piece(p), moves::Algorithm::BreadthFirst, options).size()));
    }
    const double work = tetris::projected_leaves(shapes, width, height, config, known, most_placements);
    return srs ? work * width * height / 80 : work;
}

}  // namespace

Api::Api(const std::optional<std::string>& table_path) {
    if (!table_path)
        return;
    TableOpenOptions open_options;
    open_options.residency = Residency::Automatic;
    table_ = std::make_unique<StackTable>(StackTable::open(*table_path, open_options));
    placements_ = std::make_unique<PlacementTable>(table_->geometry(), table_->rules());
}

Api::Api(StackTable table)
    : table_(std::make_unique<StackTable>(std::move(table))),
      placements_(std::make_unique<PlacementTable>(table_->geometry(), table_->rules())) {}

Api::~Api() = default;

const StackTable& Api::loaded_table() const {
    if (!table_)
        throw NoTable("no table loaded: start the server with --table FILE");
    return *table_;
}

namespace {

// JSON text written straight to a string: /api/moves answers with a few
// thousand small numbers, for which nlohmann's values cost several times
// the search itself. Only numbers and the fixed names and letters below are
// written, none of which needs escaping.
class JsonWriter {
public:
    JsonWriter& raw(std::string_view text) {
        out_ += text;
        return *this;
    }
    JsonWriter& number(std::int64_t value) {
        char buffer[24];
        const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
        out_.append(buffer, end);
        return *this;
    }
    JsonWriter& key(std::string_view name) { return raw("\"").raw(name).raw("\":"); }
    JsonWriter& text(std::string_view value) { return raw("\"").raw(value).raw("\""); }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

void write_location(JsonWriter& json, const moves::Location& at) {
    json.key("x").number(at.x).raw(",").key("y").number(at.y).raw(",").key("rotation").number(at.rotation);
}

}  // namespace

// The spins by name, as the page and the decision JSON call them.
constexpr std::array<std::pair<std::uint8_t, const char*>, 3> SpinNames = {
    {{moves::ReachedPlain, "none"}, {moves::ReachedMini, "mini"}, {moves::ReachedFull, "full"}}};

// The placements with the search's events, as JSON text. Events are [kind,
// x, y, rotation] with the kind an index into event_kinds, which keeps a
// 10x20 answer (about 2,000 events) near 20 KB.
std::string Api::moves(const Parameters& parameters) const {
    const Query query(parameters, {"board", "piece", "algorithm", "events", "rotate180"});
    const std::optional<std::string> board_text = query.text("board");
    if (!board_text)
        throw BadRequest("board is required: rows top first, '.' empty and '#' filled, joined by '/'");
    const moves::SrsBoard board = parse_board(*board_text);
    const Piece piece = parse_piece(query.text("piece", "T"));
    const std::string algorithm_text = query.text("algorithm", "bfs");
    const moves::Algorithm algorithm = parse_algorithm(algorithm_text);
    const bool with_events = query.number("events", 0, 1, 1) == 1;
    moves::MoveOptions options;
    options.rotate_180 = query.number("rotate180", 0, 1, 0) == 1;

    std::vector<moves::SearchEvent> events;
    const auto start = std::chrono::steady_clock::now();
    const std::vector<moves::SrsPlacement> placements =
        moves::generate(board, piece, algorithm, options, with_events ? &events : nullptr);
    // What the search alone cost (the page shows it beside each algorithm's
    // counts; with events it includes recording them).
    const double search_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const std::vector<moves::SpinInputs> inputs = moves::spin_inputs(board, piece, placements, options);
    std::vector<std::string> best_inputs;
    best_inputs.reserve(inputs.size());
    for (const moves::SpinInputs& ways : inputs)
        best_inputs.push_back(moves::inputs_for_spin(ways, moves::best_spin(ways)));
    const std::vector<int> kicks = moves::last_kicks(board, piece, best_inputs, options);
    const std::optional<moves::Location> spawn = moves::spawn_location(board, piece, options);

    JsonWriter json;
    json.raw("{").key("width").number(board.width()).raw(",").key("height").number(board.height());
    const char letter = piece_letter(piece);
    json.raw(",").key("piece").text(std::string_view(&letter, 1));
    json.raw(",").key("algorithm").text(algorithm_text);
    json.raw(",").key("rotate180").raw(options.rotate_180 ? "true" : "false").raw(",").key("spawn");
    if (spawn) {
        json.raw("{");
        write_location(json, *spawn);
        json.raw("}");
    } else {
        json.raw("null");
    }
    json.raw(",").key("placements").raw("[");
    int minis = 0, fulls = 0;
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const moves::SrsPlacement& placement = placements[i];
        minis += moves::best_spin(inputs[i]) == moves::ReachedMini;
        fulls += moves::best_spin(inputs[i]) == moves::ReachedFull;
        json.raw(i ? ",{" : "{");
        write_location(json, placement.location);
        json.raw(",").key("cells").raw("[");
        for (std::size_t k = 0; k < placement.cells.size(); ++k)
            json.raw(k ? ",[" : "[")
                .number(placement.cells[k].first)
                .raw(",")
                .number(placement.cells[k].second)
                .raw("]");
        // Every way the search reached it: a spot can be both a mini and a
        // full T-spin (by different last moves); `spin` is the best, and
        // `inputs` perform it. `spin_inputs` gives each way's inputs.
        const std::uint8_t best = moves::best_spin(inputs[i]);
        json.raw("],").key("spin").text(tetris::spin_name(best)).raw(",").key("spins").raw("[");
        const char* separator = "";
        for (const auto& [bit, name] : SpinNames)
            if (!moves::inputs_for_spin(inputs[i], bit).empty()) {
                json.raw(separator).text(name);
                separator = ",";
            }
        json.raw("],").key("inputs").text(moves::inputs_for_spin(inputs[i], best)).raw(",").key("kick");
        json.number(kicks[i]).raw(",").key("spin_inputs").raw("{");
        separator = "";
        for (const auto& [bit, name] : SpinNames)
            if (const std::string& way = moves::inputs_for_spin(inputs[i], bit); !way.empty()) {
                json.raw(separator).key(name).text(way);
                separator = ",";
            }
        json.raw("}}");
    }
    json.raw("]");
    std::uint64_t counted[3] = {0, 0, 0};
    if (with_events) {
        json.raw(",").key("event_kinds").raw("[\"reached\",\"popped\",\"placeable\"],").key("events").raw("[");
        for (std::size_t e = 0; e < events.size(); ++e) {
            const moves::SearchEvent& event = events[e];
            ++counted[int(event.kind)];
            json.raw(e ? ",[" : "[").number(int(event.kind)).raw(",").number(event.at.x).raw(",");
            json.number(event.at.y).raw(",").number(event.at.rotation).raw("]");
        }
        json.raw("]");
    }
    char search_text[32];
    std::snprintf(search_text, sizeof search_text, "%.4f", search_ms);
    json.raw(",").key("search_ms").raw(search_text);
    json.raw(",").key("counts").raw("{").key("placements").number(std::int64_t(placements.size()));
    json.raw(",").key("spins_mini").number(minis).raw(",").key("spins_full").number(fulls);
    if (with_events) {
        json.raw(",")
            .key("reached")
            .number(std::int64_t(counted[0]))
            .raw(",")
            .key("popped")
            .number(std::int64_t(counted[1]));
        json.raw(",").key("placeable").number(std::int64_t(counted[2])).raw(",").key("events");
        json.number(std::int64_t(events.size()));
    }
    json.raw("}}\n");
    return json.take();
}

Json Api::table() const {
    if (!table_)
        return {{"loaded", false}};
    std::string letters;
    for (int p = 0; p < table_->rules().piece_count(); ++p)
        letters += table_->rules().letter(p);
    return {{"loaded", true},
            {"file", std::filesystem::path(table_->path()).filename().string()},  // not where it lives
            {"width", table_->info().width},
            {"height", table_->info().height},
            {"states", table_->info().states},
            {"pieces", table_->rules().set().name()},
            {"piece_letters", letters},
            {"residues", table_->info().residues.text()},
            {"value_empty", table_->holds(0) ? Json(table_->value(0)) : Json(nullptr)},
            {"generator", table_->info().generator}};
}

Json Api::board(const Parameters& parameters) const {
    const Query query(parameters, {"heights"});
    const StackTable& table = loaded_table();
    const BoardId id = parse_stack(table, query.text("heights"));
    Json answer = explanation_json(explain_board(*placements_, table, id), table.geometry());
    answer["width"] = table.geometry().width();
    answer["height"] = table.geometry().height();
    return answer;
}

namespace {

// The table policy's exact length distribution from one board, or why
// there is none.
Json exact_distribution_json(const StackingPolicy& policy, const Geometry& geometry, BoardId id) {
    if (geometry.states() > MostExactStates)
        return {{"exact", nullptr},
                {"exact_mean", nullptr},
                {"why_no_exact", "the table has " + std::to_string(geometry.states())
                                     + " boards; the server computes the exact distribution for at most "
                                     + std::to_string(MostExactStates) + " (stackplay --check does it for any)"}};
    try {
        const LengthDistribution distribution =
            exact_length_distribution(policy, geometry, id, 1, std::uint64_t(1) << 30);
        return {{"exact", distribution.probability}, {"exact_mean", distribution.mean}};
    } catch (const DistributionTooLarge& error) {
        return {{"exact", nullptr}, {"exact_mean", nullptr}, {"why_no_exact", error.what()}};
    }
}

}  // namespace

// The exact distribution is cached per board: the explorer asks again for
// each board it draws, with other game counts. It takes up to half a second
// on a large table, so the lock guards only the cache: the first request
// for a board computes it outside the lock, and those asking meanwhile wait
// for that one's answer (a shared future), not for the lock.
Json Api::lengths(const Parameters& parameters) const {
    const Query query(parameters, {"heights", "games", "seed"});
    const StackTable& table = loaded_table();
    const std::uint64_t games = query.number("games", 1, MostLengthGames, 1000);
    const std::uint64_t seed = query.number("seed", 0, std::numeric_limits<std::uint64_t>::max(), 1);
    const BoardId id = parse_stack(table, query.text("heights"));
    const Geometry& geometry = table.geometry();
    const std::unique_ptr<StackingPolicy> policy = make_policy(PolicySpec{}, *placements_, table);
    Json answer = {{"heights", heights_json(geometry.decode(id), geometry.width())},
                   {"value", table.value(id)},
                   {"games", games},
                   {"seed", seed}};
    std::promise<Json> computing;
    std::shared_future<Json> exact;
    bool mine = false;
    {
        const std::lock_guard lock(cache_mutex_);
        const auto cached = exact_cache_.find(id);
        if (cached != exact_cache_.end()) {
            exact = cached->second;
        } else {
            if (exact_cache_.size() >= MostCachedDistributions)
                exact_cache_.clear();  // a client walking many boards holds bounded memory
            exact = computing.get_future().share();
            exact_cache_.emplace(id, exact);
            mine = true;
        }
    }
    if (mine) {
        try {
            computing.set_value(exact_distribution_json(*policy, geometry, id));
        } catch (...) {
            computing.set_exception(std::current_exception());
            const std::lock_guard lock(cache_mutex_);
            exact_cache_.erase(id);
        }
    }
    answer.update(exact.get());
    const RunTotals totals = play_games(*policy, geometry, id, games, seed, 1);
    answer["observed"] = totals.lengths;
    answer["observed_mean"] = double(totals.pieces) / double(totals.games);
    return answer;
}

// One game turn by turn. The stacking game's turns carry the drawn piece's
// placements ranked by the table (the table policy's choice first).
Json Api::game(const Parameters& parameters) const {
    const Query query(parameters, {"game", "seed", "policy", "heights", "pieces"});
    const std::string game = query.text("game", "stacking");
    if (game == "tetris") {
        if (query.text("heights"))
            throw BadRequest("heights is for the stacking game; the real game starts empty");
        return tetris_game(query);
    }
    if (game != "stacking")
        throw BadRequest("game must be stacking or tetris (got '" + printable(game, 30) + "')");
    if (query.text("pieces"))
        throw BadRequest("pieces is for the real game (game=tetris)");
    const StackTable& table = loaded_table();
    const std::uint64_t seed = query.number("seed", 0, std::numeric_limits<std::uint64_t>::max(), 1);
    PolicySpec spec;
    try {
        spec = parse_policy(query.text("policy", "table"));
    } catch (const InputError& error) {
        throw BadRequest(std::string("policy: ") + error.what());
    }
    const BoardId start = parse_stack(table, query.text("heights"));
    const Geometry& geometry = table.geometry();
    const std::unique_ptr<StackingPolicy> policy = make_policy(spec, *placements_, table);
    const ShownGame shown = show_game(*policy, table, start, seed);
    Json answer = game_json(shown, geometry);
    const Rules& rules = table.rules();
    // Each turn's alternatives: the drawn piece's placements ranked as
    // --explain ranks them (the table policy's choice first).
    for (std::size_t t = 0; t < shown.turns.size(); ++t) {
        const ShownTurn& turn = shown.turns[t];
        const Explanation explanation = explain_board(*placements_, table, turn.before_id, false);
        Json alternatives = Json::array();
        for (const PlacementOption& option : explanation.options[std::size_t(turn.piece)])
            alternatives.push_back(
                {{"orientation", option.orientation},
                 {"rotation", option.rotation},
                 {"rotation_name", shown_rotation_name(rules, option.rotation)},
                 {"column", option.column},
                 {"value", option.value},
                 {"heights_after", heights_json(geometry.decode(option.successor), geometry.width())}});
        answer["turns"][t]["alternatives"] = std::move(alternatives);
    }
    answer["game"] = "stacking";
    answer["policy"] = policy_name(spec);
    answer["width"] = geometry.width();
    answer["height"] = geometry.height();
    return answer;
}

// One decision of the real game on a drawn board: the command line's
// decision mode (stackplay --game tetris --board FILE --piece X), by the
// same code (tetris/decision.h). The policy is built per request and no
// shared state is read, so no lock is held while the search runs.
Json Api::decide(const Parameters& parameters) const {
    const Query query(parameters,
                      {"board", "piece", "next", "hold", "held", "policy", "preview", "moves", "alternatives"});
    const TetrisKit& kit = tetris_kit();
    const std::optional<std::string> board_text = query.text("board");
    if (!board_text)
        throw BadRequest("board is required: rows top first, '.' empty and '#' filled, joined by '/'");
    const std::vector<std::string> rows = split_rows(*board_text, 2, "");
    if (rows.size() < 2)
        throw BadRequest("board: 2 to " + std::to_string(MostBoardHeight) + " rows (the real game's well)");
    tetris::TetrisOptions options;
    options.width = int(rows.front().size());
    options.height = int(rows.size());
    const tetris::TetrisBoard board = tetris::TetrisBoard::from_rows(rows);

    // The known pieces: the current one, then the next ones in order.
    const auto set_piece = [&](const std::string& letter, const char* name) {
        return kit.shapes.piece_of_letter(piece_letter(parse_piece(letter, name)));
    };
    options.piece = query.text("piece");
    if (!options.piece)
        throw BadRequest("piece is required: the current piece, one of I O T S Z J L");
    std::vector<int> queue = {set_piece(*options.piece, "piece")};
    const std::string next = query.text("next", "");
    if (next.size() > std::size_t(MostDecisionNext))
        throw BadRequest("next: at most " + std::to_string(MostDecisionNext)
                         + " letters, the next pieces in order (got " + std::to_string(next.size()) + ")");
    for (const char letter : next)
        queue.push_back(set_piece(std::string(1, letter), "each letter of next"));
    if (!next.empty())
        options.next = next;
    options.hold = query.number("hold", 0, 1, 0) == 1;
    int held = -1;
    if (const std::optional<std::string> letter = query.text("held")) {
        if (!options.hold)
            throw BadRequest("held (the held piece) goes with hold=1 (holding allowed)");
        held = set_piece(*letter, "held");
        options.held = *letter;
    }

    // The policies a decision takes, named once for the check and its message.
    static constexpr std::array<const char*, 7> DecisionPolicies = {
        "dellacherie", "lee", "el-tetris", "seed001", "expectimax", "well", "well-builder"};
    options.policy = query.text("policy", "dellacherie");
    if (std::find(DecisionPolicies.begin(), DecisionPolicies.end(), options.policy) == DecisionPolicies.end()) {
        std::string names;
        for (std::size_t i = 0; i < DecisionPolicies.size(); ++i)
            names += std::string(i == 0 ? "" : i + 1 == DecisionPolicies.size() ? " or " : ", ") + DecisionPolicies[i];
        throw BadRequest("policy for a decision must be " + names + " (got '" + printable(options.policy, 30) + "')");
    }
    // The well policy judges with the server's table (--serve --table), one
    // column narrower than the board; the well is the left column.
    const StackTable* well_table = nullptr;
    if (options.policy == "well") {
        if (!table_)
            throw NoTable("policy=well needs a table: start the server with --table FILE");
        if (table_->rules().set().name() != "tetrominoes")
            throw BadRequest("policy=well needs a table of the tetrominoes (the server's is of "
                             + table_->rules().set().name() + ")");
        if (table_->geometry().width() + 1 != options.width)
            throw BadRequest("policy=well: the server's table is " + std::to_string(table_->geometry().width())
                             + " wide, so the board must be " + std::to_string(table_->geometry().width() + 1)
                             + " wide (got " + std::to_string(options.width) + ")");
        well_table = table_.get();
    }
    options.preview =
        int(query.number("preview", 0, MostDecisionPreview, std::min<std::uint64_t>(next.size(), MostDecisionPreview)));
    const std::string moves = query.text("moves", "harddrop");
    if (moves != "harddrop" && moves != "bfs")
        throw BadRequest("moves must be harddrop or bfs (got '" + printable(moves, 30) + "')");
    if (moves == "bfs" && options.width < 4)
        throw BadRequest("moves=bfs needs a well at least 4 wide (SRS)");
    options.moves = moves == "bfs" ? tetris::MoveSet::BreadthFirst : tetris::MoveSet::HardDrop;
    const int alternatives = int(query.number("alternatives", 0, MostDecisionAlternatives, 8));

    // As the command line's: every piece of the set must fit the well.
    if (const int p = kit.shapes.piece_fitting_nowhere(options.width, options.height); p >= 0)
        throw BadRequest("board: piece " + std::string(1, kit.shapes.letter(p)) + " fits the "
                         + std::to_string(options.width) + "x" + std::to_string(options.height)
                         + " well in no rotation");
    tetris::PolicyConfig config;
    try {
        config = tetris::policy_config(options);
    } catch (const InputError& error) {
        throw BadRequest(error.what());
    }
    const double work = decision_work(kit.shapes, board, config, queue.size());
    if (work > MostDecisionWork) {
        char projected[96];
        std::snprintf(projected, sizeof projected, "about %.2g units of search (the server's limit is %.2g)", work,
                      MostDecisionWork);
        throw BadRequest(std::string("the decision projects ") + projected
                         + ": give fewer next pieces, a smaller preview, hold=0 or moves=harddrop");
    }
    const tetris::TetrisPolicy policy(kit.shapes, config, tetris::draw_probabilities(kit.rules), well_table);
    const tetris::Known known{queue, held};
    const tetris::Decision decision = tetris::decide(policy, board, known, options.rule, 1);
    return tetris::decision_json(kit.shapes, policy, board, known, decision, alternatives);
}

}  // namespace stack::web
