#include "srs/moves.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>

namespace stack::moves {

namespace {

// The spawn state's cells in the piece's box (x right, y up) and the box size.
struct Shape {
    int box;
    Cells cells;
};
constexpr std::array<Shape, PieceCount> Shapes = {{
    {4, {{{0, 2}, {1, 2}, {2, 2}, {3, 2}}}},  // I  (i)
    {3, {{{0, 1}, {1, 1}, {2, 1}, {1, 2}}}},  // T  (t)
    {2, {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}}},  // O  (sq)
    {3, {{{0, 1}, {1, 1}, {1, 2}, {2, 2}}}},  // S  (zr)
    {3, {{{0, 2}, {1, 2}, {1, 1}, {2, 1}}}},  // Z  (zl)
    {3, {{{2, 2}, {0, 1}, {1, 1}, {2, 1}}}},  // L  (lr)
    {3, {{{0, 2}, {0, 1}, {1, 1}, {2, 1}}}},  // J  (ll)
}};

// SRS kicks (x right, y up) for a turn from rotation `from` to from+1
// (clockwise) and from-1 (counter-clockwise), tried in order.
using Kicks = std::array<std::pair<int, int>, 5>;
constexpr std::array<Kicks, 4> ClockwiseKicks = {{
    {{{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}}},  // 0 -> R
    {{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}}},      // R -> 2
    {{{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}}},     // 2 -> L
    {{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}}},   // L -> 0
}};
constexpr std::array<Kicks, 4> CounterClockwiseKicks = {{
    {{{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}}},     // 0 -> L
    {{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}}},      // R -> 0
    {{{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}}},  // 2 -> R
    {{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}}},   // L -> 2
}};
constexpr std::array<Kicks, 4> IClockwiseKicks = {{
    {{{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}}},  // 0 -> R
    {{{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}}},  // R -> 2
    {{{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}}},  // 2 -> L
    {{{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}}},  // L -> 0
}};
constexpr std::array<Kicks, 4> ICounterClockwiseKicks = {{
    {{{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}}},  // 0 -> L
    {{{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}}},  // R -> 0
    {{{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}}},  // 2 -> R
    {{{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}}},  // L -> 2
}};

// The cells of every rotation, in box coordinates: a clockwise turn maps
// (x, y) to (y, box - 1 - x).
std::array<Cells, 4> rotations_of(Piece piece) {
    const Shape& shape = Shapes[int(piece)];
    std::array<Cells, 4> turned;
    turned[0] = shape.cells;
    for (int rotation = 1; rotation < 4; ++rotation)
        for (int k = 0; k < 4; ++k)
            turned[rotation][k] = {turned[rotation - 1][k].second, shape.box - 1 - turned[rotation - 1][k].first};
    return turned;
}

enum Move : std::uint8_t { Left, Right, Down, Clockwise, CounterClockwise, Half, MoveCount };
constexpr char MoveLetters[] = {'l', 'r', 'd', 'c', 'w', 'f'};

// The search space: every location with x in [-3, W+3) and y in [-3, H+5),
// each rotation, numbered densely; fits[] says where the piece does not
// collide (the convolution map, used by every algorithm).
class Space {
public:
    Space(const SrsBoard& board, Piece piece) : board_(board), piece_(piece), shapes_(rotations_of(piece)) {
        columns_ = board.width() + 6;
        rows_ = board.height() + 8;
        fits_.resize(std::size_t(4) * rows_ * columns_);
        for (int rotation = 0; rotation < 4; ++rotation)
            for (int y = -3; y < board.height() + 5; ++y)
                for (int x = -3; x < board.width() + 3; ++x)
                    fits_[index({x, y, rotation})] = !collides({x, y, rotation});
    }
    std::size_t size() const { return fits_.size(); }
    std::size_t index(const Location& at) const {
        return (std::size_t(at.rotation) * rows_ + std::size_t(at.y + 3)) * columns_ + std::size_t(at.x + 3);
    }
    Location location(std::size_t index) const {
        return {int(index % columns_) - 3, int(index / columns_ % rows_) - 3, int(index / columns_ / rows_)};
    }
    bool inside(const Location& at) const {
        return at.x >= -3 && at.x < board_.width() + 3 && at.y >= -3 && at.y < board_.height() + 5;
    }
    bool fits(const Location& at) const { return inside(at) && fits_[index(at)]; }
    bool lockable(const Location& at) const { return fits(at) && !fits({at.x, at.y - 1, at.rotation}); }
    Cells cells(const Location& at) const {
        Cells cells;
        for (int k = 0; k < 4; ++k)
            cells[k] = {at.x + shapes_[at.rotation][k].first, at.y + shapes_[at.rotation][k].second};
        std::sort(cells.begin(), cells.end());
        return cells;
    }

    // The result of a move, with the kick used by a turn (-1 for none),
    // or nothing when it is blocked.
    struct Moved {
        Location at;
        int kick = -1;
    };
    std::optional<Moved> apply(const Location& at, Move move, bool rotate_180) const {
        switch (move) {
        case Left: return shifted(at, -1, 0);
        case Right: return shifted(at, 1, 0);
        case Down: return shifted(at, 0, -1);
        case Half:
            if (!rotate_180)
                return std::nullopt;
            if (Location turned{at.x, at.y, (at.rotation + 2) % 4}; fits(turned))
                return Moved{turned, 0};
            return std::nullopt;
        default: break;
        }
        const bool clockwise = move == Clockwise;
        const int target = (at.rotation + (clockwise ? 1 : 3)) % 4;
        const bool i_piece = piece_ == PieceI;
        const Kicks& kicks = clockwise ? (i_piece ? IClockwiseKicks : ClockwiseKicks)[at.rotation]
                                       : (i_piece ? ICounterClockwiseKicks : CounterClockwiseKicks)[at.rotation];
        const int tries = piece_ == PieceSquare ? 1 : 5;
        for (int kick = 0; kick < tries; ++kick) {
            const Location turned{at.x + kicks[kick].first, at.y + kicks[kick].second, target};
            if (fits(turned))
                return Moved{turned, kick};
        }
        return std::nullopt;
    }

    // How a lockable location was reached by this move: plain, or a T-spin
    // (mini or full) by the corner rules.
    std::uint8_t arrival(const Moved& moved, Move move) const {
        if (piece_ != PieceT || (move != Clockwise && move != CounterClockwise && move != Half))
            return ReachedPlain;
        const Location& at = moved.at;
        const std::array<std::pair<int, int>, 4> corners = {{{0, 2}, {2, 2}, {2, 0}, {0, 0}}};  // TL TR BR BL
        int filled = 0;
        std::array<bool, 4> corner_filled{};
        for (int c = 0; c < 4; ++c) {
            corner_filled[c] = board_.filled(at.x + corners[c].first, at.y + corners[c].second);
            filled += corner_filled[c];
        }
        if (filled < 3)
            return ReachedPlain;
        // The corners the T points to: up TL TR, right TR BR, down BR BL, left BL TL.
        const bool front = corner_filled[at.rotation] && corner_filled[(at.rotation + 1) % 4];
        return front || moved.kick == 4 ? ReachedFull : ReachedMini;
    }

private:
    bool collides(const Location& at) const {
        for (int k = 0; k < 4; ++k)
            if (board_.filled(at.x + shapes_[at.rotation][k].first, at.y + shapes_[at.rotation][k].second))
                return true;
        return false;
    }
    std::optional<Moved> shifted(const Location& at, int dx, int dy) const {
        const Location next{at.x + dx, at.y + dy, at.rotation};
        if (fits(next))
            return Moved{next, -1};
        return std::nullopt;
    }

    const SrsBoard& board_;
    Piece piece_;
    std::array<Cells, 4> shapes_;
    int columns_ = 0, rows_ = 0;
    std::vector<bool> fits_;
};

// The placements found, one per set of cells, with how each was reached;
// and the search's events, when a trace is asked for.
class Found {
public:
    explicit Found(std::vector<SearchEvent>* trace) : trace_(trace) {}
    void add(const Space& space, const Location& at, std::uint8_t reached) {
        note(SearchEventKind::Placeable, at);
        const Cells cells = space.cells(at);
        auto [entry, fresh] = index_.try_emplace(cells, placements_.size());
        if (fresh)
            placements_.push_back({at, cells, 0});
        placements_[entry->second].reached |= reached;
    }
    void note(SearchEventKind kind, const Location& at) {
        if (trace_)
            trace_->push_back({kind, at});
    }
    std::vector<SrsPlacement> take() { return std::move(placements_); }

private:
    std::vector<SearchEvent>* trace_;
    std::map<Cells, std::size_t> index_;
    std::vector<SrsPlacement> placements_;
};

// The hard-drop stage shared by HardDrop and Quick: from spawn, each of the
// four rotations (none, c, c c, w), then every column reachable by sliding
// at that height, then straight down. Calls visit(location) for each
// location passed on the way and land(location) where each drop ends.
template <typename Visit, typename Land>
void hard_drop_paths(const Space& space, const Location& spawn, Visit visit, Land land) {
    const std::array<std::vector<Move>, 4> turns = {{{}, {Clockwise}, {Clockwise, Clockwise}, {CounterClockwise}}};
    for (const std::vector<Move>& turn : turns) {
        std::optional<Location> at = spawn;
        for (Move move : turn) {
            const auto moved = space.apply(*at, move, false);
            at = moved ? std::optional<Location>(moved->at) : std::nullopt;
            if (!at)
                break;
            visit(*at);
        }
        if (!at)
            continue;
        for (int direction : {-1, 1}) {
            for (Location column = *at; space.fits(column); column.x += direction) {
                if (direction == 1 && column.x == at->x)
                    continue;  // the turned location itself is dropped once, going left
                Location drop = column;
                visit(drop);
                while (space.fits({drop.x, drop.y - 1, drop.rotation})) {
                    --drop.y;
                    visit(drop);
                }
                land(drop);
            }
        }
    }
}

// Breadth first from the queued locations over every move; `visited`
// holds what must not be expanded again.
void breadth_first(const Space& space, std::deque<std::size_t>& queue, std::vector<bool>& visited,
                   const MoveOptions& options, Found& found) {
    while (!queue.empty()) {
        const Location at = space.location(queue.front());
        queue.pop_front();
        found.note(SearchEventKind::Popped, at);
        for (int move = 0; move < MoveCount; ++move) {
            const auto moved = space.apply(at, Move(move), options.rotate_180);
            if (!moved)
                continue;
            if (space.lockable(moved->at))
                found.add(space, moved->at, space.arrival(*moved, Move(move)));
            const std::size_t next = space.index(moved->at);
            if (!visited[next]) {
                visited[next] = true;
                found.note(SearchEventKind::Reached, moved->at);
                queue.push_back(next);
            }
        }
    }
}

// The convolution search: the fit map is the graph; each seed is flooded
// left, right and down, and the flooded locations try their turns, whose
// unvisited results become seeds. The document (seed 004) turns only at the
// edges of a flood (locations blocked left, right or below), claiming that a
// turn in open air leads nowhere a turn at an edge does not; that is false:
// a kick can lift a turn from a location away from the edges to where no
// edge's turn goes (the I in a 4-wide shaft over a 1-wide hole: 11
// placements where BFS finds 17, tests/test_moves.cpp). `edges_only` keeps
// the document's version (Algorithm::ConvolutionSeed); without it every
// flooded location turns and the search equals BFS.
void convolution(const Space& space, const Location& spawn, const MoveOptions& options, bool edges_only, Found& found) {
    std::vector<bool> visited(space.size());
    std::vector<std::size_t> seeds = {space.index(spawn)}, flood;
    visited[space.index(spawn)] = true;
    found.note(SearchEventKind::Reached, spawn);
    if (space.lockable(spawn))
        found.add(space, spawn, ReachedPlain);
    while (!seeds.empty()) {
        flood.assign(1, seeds.back());
        seeds.pop_back();
        for (std::size_t next = 0; next < flood.size(); ++next) {
            const Location at = space.location(flood[next]);
            found.note(SearchEventKind::Popped, at);
            bool edge = false;  // blocked in some direction
            for (Move move : {Left, Right, Down}) {
                const auto moved = space.apply(at, move, false);
                if (!moved) {
                    edge = true;
                    continue;
                }
                const Location to = moved->at;
                if (space.lockable(to))
                    found.add(space, to, ReachedPlain);
                if (!visited[space.index(to)]) {
                    visited[space.index(to)] = true;
                    found.note(SearchEventKind::Reached, to);
                    flood.push_back(space.index(to));
                }
            }
            if (edges_only && !edge)
                continue;  // open air: the document leaves its turns to the edges
            for (Move move : {Clockwise, CounterClockwise, Half}) {
                const auto moved = space.apply(at, move, options.rotate_180);
                if (!moved)
                    continue;
                if (space.lockable(moved->at))
                    found.add(space, moved->at, space.arrival(*moved, move));
                if (!visited[space.index(moved->at)]) {
                    visited[space.index(moved->at)] = true;
                    found.note(SearchEventKind::Reached, moved->at);
                    seeds.push_back(space.index(moved->at));
                }
            }
        }
    }
}

Location spawn_of(const SrsBoard& board, Piece piece) {
    const int box = Shapes[int(piece)].box;
    // Spawn cells in rows H and H+1: the I's are in its box's row 2, the O's
    // in rows 0-1, the others' in rows 1-2.
    const int y = piece == PieceI ? board.height() - 2 : piece == PieceSquare ? board.height() : board.height() - 1;
    return {(board.width() - box) / 2, y, 0};
}

}  // namespace

const char* algorithm_name(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::HardDrop: return "hard drop";
    case Algorithm::BreadthFirst: return "BFS";
    case Algorithm::Quick: return "quick";
    case Algorithm::Convolution: return "convolution";
    case Algorithm::ConvolutionSeed: return "convolution-seed";
    }
    return "?";
}

SrsBoard::SrsBoard(int width, int height) : width_(width), height_(height), rows_(std::size_t(height)) {
    if (width < 4 || width > 16 || height < 1)
        throw std::invalid_argument("moves::SrsBoard: the width is 4-16 and the height at least 1");
}

bool SrsBoard::filled(int x, int y) const {
    if (x < 0 || x >= width_ || y < 0)
        return true;
    return y < height_ && (rows_[std::size_t(y)] >> x & 1);
}

void SrsBoard::fill(int x, int y) {
    if (x < 0 || x >= width_ || y < 0 || y >= height_)
        throw std::out_of_range("moves::SrsBoard::fill outside the well");
    rows_[std::size_t(y)] |= std::uint16_t(1u << x);
}

SrsBoard SrsBoard::from_heights(int width, int height, const std::vector<int>& heights) {
    SrsBoard board(width, height);
    for (int x = 0; x < width; ++x)
        for (int y = 0; y < heights.at(std::size_t(x)); ++y)
            board.fill(x, y);
    return board;
}

Cells cells_at(Piece piece, const Location& location) {
    const std::array<Cells, 4> shapes = rotations_of(piece);
    Cells cells;
    for (int k = 0; k < 4; ++k)
        cells[k] = {location.x + shapes[location.rotation][k].first, location.y + shapes[location.rotation][k].second};
    std::sort(cells.begin(), cells.end());
    return cells;
}

std::optional<Location> spawn_location(const SrsBoard& board, Piece piece) {
    const Location spawn = spawn_of(board, piece);
    for (const auto& [x, y] : cells_at(piece, spawn))
        if (board.filled(x, y))
            return std::nullopt;
    return spawn;
}

std::vector<SrsPlacement> generate(const SrsBoard& board, Piece piece, Algorithm algorithm, const MoveOptions& options,
                                   std::vector<SearchEvent>* trace) {
    const std::optional<Location> spawn = spawn_location(board, piece);
    if (!spawn)
        return {};
    const Space space(board, piece);
    Found found(trace);
    switch (algorithm) {
    case Algorithm::HardDrop:
        found.note(SearchEventKind::Reached, *spawn);
        hard_drop_paths(
            space, *spawn, [&](const Location& at) { found.note(SearchEventKind::Reached, at); },
            [&](const Location& at) { found.add(space, at, ReachedPlain); });
        break;
    case Algorithm::Quick: {
        std::vector<bool> visited(space.size());
        std::deque<std::size_t> queue;
        visited[space.index(*spawn)] = true;
        found.note(SearchEventKind::Reached, *spawn);
        hard_drop_paths(
            space, *spawn,
            [&](const Location& at) {
                if (!visited[space.index(at)])
                    found.note(SearchEventKind::Reached, at);
                visited[space.index(at)] = true;
            },
            [&](const Location& at) {
                found.add(space, at, ReachedPlain);
                queue.push_back(space.index(at));
            });
        breadth_first(space, queue, visited, options, found);
        break;
    }
    case Algorithm::BreadthFirst: {
        std::vector<bool> visited(space.size());
        std::deque<std::size_t> queue = {space.index(*spawn)};
        visited[space.index(*spawn)] = true;
        found.note(SearchEventKind::Reached, *spawn);
        if (space.lockable(*spawn))
            found.add(space, *spawn, ReachedPlain);
        breadth_first(space, queue, visited, options, found);
        break;
    }
    case Algorithm::Convolution: convolution(space, *spawn, options, false, found); break;
    case Algorithm::ConvolutionSeed: convolution(space, *spawn, options, true, found); break;
    }
    return found.take();
}

namespace {

// Breadth first over single inputs (each move, and D: soft drop held to
// the bottom), each location then hard dropped: landed(cells, inputs) is
// called for every location in order of input count, with the cells its
// hard drop lands on and a function building its inputs; the first call
// for some cells is a shortest sequence to them. Stops when landed returns
// true.
template <typename Landed>
void search_inputs(const SrsBoard& board, Piece piece, const MoveOptions& options, Landed landed) {
    const std::optional<Location> spawn = spawn_location(board, piece);
    if (!spawn)
        return;
    const Space space(board, piece);
    std::vector<std::int32_t> parent(space.size(), -1);
    std::vector<char> how(space.size(), 0);
    std::deque<std::size_t> queue = {space.index(*spawn)};
    parent[space.index(*spawn)] = std::int32_t(space.index(*spawn));
    while (!queue.empty()) {
        const std::size_t current = queue.front();
        queue.pop_front();
        Location landing = space.location(current);
        while (space.fits({landing.x, landing.y - 1, landing.rotation}))
            --landing.y;
        const auto inputs = [&] {
            std::string inputs = "H";
            for (std::size_t at = current; parent[at] != std::int32_t(at); at = std::size_t(parent[at]))
                inputs.insert(inputs.begin(), how[at]);
            // Drops straight before the hard drop are not needed.
            while (inputs.size() > 1 && (inputs[inputs.size() - 2] == 'd' || inputs[inputs.size() - 2] == 'D'))
                inputs.erase(inputs.size() - 2, 1);
            return inputs;
        };
        if (landed(space.cells(landing), inputs))
            return;
        auto step = [&](const Location& to, char letter) {
            if (parent[space.index(to)] >= 0)
                return;
            parent[space.index(to)] = std::int32_t(current);
            how[space.index(to)] = letter;
            queue.push_back(space.index(to));
        };
        for (int move = 0; move < MoveCount; ++move)
            if (const auto moved = space.apply(space.location(current), Move(move), options.rotate_180))
                step(moved->at, MoveLetters[move]);
        if (!(landing == space.location(current)))
            step(landing, 'D');  // soft drop held to the bottom: one input, tried last
    }
}

}  // namespace

std::optional<std::string> shortest_inputs(const SrsBoard& board, Piece piece, const Cells& target,
                                           const MoveOptions& options) {
    std::optional<std::string> found;
    search_inputs(board, piece, options, [&](const Cells& cells, const auto& inputs) {
        if (cells == target)
            found = inputs();
        return found.has_value();
    });
    return found;
}

std::vector<std::string> shortest_inputs(const SrsBoard& board, Piece piece,
                                         const std::vector<SrsPlacement>& placements, const MoveOptions& options) {
    std::vector<std::string> found(placements.size());
    std::map<Cells, std::size_t> wanted;
    for (std::size_t i = 0; i < placements.size(); ++i)
        wanted.emplace(placements[i].cells, i);
    search_inputs(board, piece, options, [&](const Cells& cells, const auto& inputs) {
        if (const auto entry = wanted.find(cells); entry != wanted.end()) {
            found[entry->second] = inputs();
            wanted.erase(entry);
        }
        return wanted.empty();
    });
    return found;
}

Cells table_placement_cells(const Orientation& orientation, int column, const int* heights) {
    if (orientation.cells() != TetrominoCells)
        throw std::invalid_argument("table_placement_cells: a tetromino's orientation has 4 cells");
    Cells cells;
    std::size_t cell = 0;
    orientation.for_each_cell(heights, column, [&](int x, int y) { cells[cell++] = {x, y}; });
    std::sort(cells.begin(), cells.end());
    return cells;
}

Reach reach_table_placement(const std::vector<int>& heights, int height, const Orientation& orientation, int column) {
    return reach_table_placements(heights, height, {{&orientation, column}}).front();
}

std::vector<Reach> reach_table_placements(const std::vector<int>& heights, int height,
                                          const std::vector<std::pair<const Orientation*, int>>& placements) {
    std::vector<Reach> reaches(placements.size());
    if (placements.empty())
        return reaches;
    const SrsBoard board = SrsBoard::from_heights(int(heights.size()), height, heights);
    const Piece piece = Piece(placements.front().first->piece);
    std::vector<SrsPlacement> targets(placements.size());
    for (std::size_t i = 0; i < placements.size(); ++i) {
        if (Piece(placements[i].first->piece) != piece)
            throw std::invalid_argument("reach_table_placements: the placements are of one piece");
        targets[i].cells = table_placement_cells(*placements[i].first, placements[i].second, heights.data());
    }
    const std::vector<std::string> inputs = shortest_inputs(board, piece, targets);
    std::set<Cells> by_hard_drop;
    for (const SrsPlacement& placement : generate(board, piece, Algorithm::HardDrop))
        by_hard_drop.insert(placement.cells);
    for (std::size_t i = 0; i < placements.size(); ++i) {
        reaches[i].inputs = inputs[i];
        reaches[i].hard_drop = by_hard_drop.count(targets[i].cells) > 0;
    }
    return reaches;
}

}  // namespace stack::moves
