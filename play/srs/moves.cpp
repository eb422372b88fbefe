#include "srs/moves.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace stack::moves {

namespace {

// The spawn state's cells in the piece's box (x right, y up) and the box size.
constexpr std::array<SpawnShape, PieceCount> SpawnShapes = {{
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

// The moves a search steps by, and their input letters (InputLetters).
enum Step : std::uint8_t { Left, Right, Down, Clockwise, CounterClockwise, Half, StepCount };
constexpr char StepLetters[] = {'l', 'r', 'd', 'c', 'w', 'f'};
// Every step's letter, and H and D, is an input the page can spell.
constexpr bool every_letter_spelled() {
    for (const char letter : {'l', 'r', 'd', 'c', 'w', 'f', 'H', 'D'}) {
        bool found = false;
        for (const InputLetter& input : InputLetters)
            found = found || input.letter == letter;
        if (!found)
            return false;
    }
    for (const char letter : StepLetters)
        if (letter != 'l' && letter != 'r' && letter != 'd' && letter != 'c' && letter != 'w' && letter != 'f')
            return false;
    return true;
}
static_assert(every_letter_spelled());

// The spawn row: the options', or the board's height.
int spawn_row_of(const SrsBoard& board, const MoveOptions& options) {
    return options.spawn_row >= 0 ? options.spawn_row : board.height();
}

// Locations are numbered so that every move adds a constant, the same on
// every board: (x, y, rotation) is ((y + Margin) * 4 + rotation) * 32 + x +
// Margin. A step left or right adds -1 or +1, a row down -RowStep, and a
// turn to rotation t with the kick (dx, dy) adds (t - rotation) *
// RotationStep + dy * RowStep + dx. The margin of 5 columns and rows holds
// every location one move (a kick moves at most 2) from the search space
// (x in [-3, W+3), y from -3): x + Margin stays in [0, W + 10), within 32.
using Index = int;
constexpr int Margin = 5, RotationStep = 32, RowStep = 4 * RotationStep;

Index index_of(const Location& at) { return ((at.y + Margin) * 4 + at.rotation) * RotationStep + at.x + Margin; }
// The index's parts by shifts and masks (indexes are not negative).
int rotation_of(Index at) { return at >> 5 & 3; }
Location location_of(Index at) { return {(at & 31) - Margin, (at >> 7) - Margin, rotation_of(at)}; }

// A piece's cells and moves as index steps, the same on every board. Some
// rotations fill the same cells from another box position (I, S and Z in
// rotations 0 and 2, 1 and 3; O in all four): canonical[r] steps from a
// location in rotation r to the one in the first rotation with the same
// cells, so that each set of cells has one number.
struct PieceMoves {
    std::array<Cells, 4> shapes;  // [rotation]: cells in the box, sorted (and so at every location)
    std::array<std::array<Index, 5>, 4> clockwise, counter_clockwise;  // [from]: the kicks' steps, in order
    int kicks = 5;                                                     // tried; the O turns in place, unkicked
    std::array<Index, 4> half{}, canonical{};                          // [from]
};

// The turn from `from` by `turns` quarter turns with the kick (dx, dy).
Index turn_step(int from, int turns, std::pair<int, int> kick) {
    return ((from + turns) % 4 - from) * RotationStep + kick.second * RowStep + kick.first;
}

// The cells' lowest row and leftmost column, and the cells moved to start
// there.
std::pair<std::pair<int, int>, Cells> normalized(Cells cells) {
    std::pair<int, int> corner = cells[0];
    for (const auto& [x, y] : cells)
        corner = {std::min(corner.first, x), std::min(corner.second, y)};
    for (auto& [x, y] : cells)
        x -= corner.first, y -= corner.second;
    std::sort(cells.begin(), cells.end());
    return {corner, cells};
}

PieceMoves make_piece_moves(Piece piece) {
    PieceMoves moves;
    moves.shapes = rotation_cells(piece);
    for (Cells& cells : moves.shapes)
        std::sort(cells.begin(), cells.end());
    moves.kicks = piece == PieceSquare ? 1 : 5;
    const bool i_piece = piece == PieceI;
    for (int from = 0; from < 4; ++from) {
        for (int kick = 0; kick < 5; ++kick) {
            moves.clockwise[from][kick] = turn_step(from, 1, (i_piece ? IClockwiseKicks : ClockwiseKicks)[from][kick]);
            moves.counter_clockwise[from][kick] =
                turn_step(from, 3, (i_piece ? ICounterClockwiseKicks : CounterClockwiseKicks)[from][kick]);
        }
        moves.half[from] = turn_step(from, 2, {0, 0});
        const auto [corner, cells] = normalized(moves.shapes[from]);
        for (int first = 0; first <= from; ++first) {
            const auto [first_corner, first_cells] = normalized(moves.shapes[first]);
            if (first_cells == cells) {
                moves.canonical[from] = turn_step(
                    from, first - from + 4, {corner.first - first_corner.first, corner.second - first_corner.second});
                break;
            }
        }
    }
    return moves;
}

const PieceMoves& piece_moves(Piece piece) {
    static const std::array<PieceMoves, PieceCount> table = [] {
        std::array<PieceMoves, PieceCount> made;
        for (int piece = 0; piece < PieceCount; ++piece)
            made[piece] = make_piece_moves(Piece(piece));
        return made;
    }();
    return table[int(piece)];
}

// The result of a move, with the kick used by a turn (-1 for none).
struct Moved {
    Index at;
    int kick = -1;
};

// What a search reads of its space: where the piece fits and where it can
// lock (it fits, and does not one row down), a bit per location and a word
// per (row, rotation), and what its moves do. A view of pointers, cheap to
// copy: each search keeps its own copy rather than read through the
// thread's Search (whose vectors' pointers every call would make the
// compiler load again).
class Map {
public:
    Map(const SrsBoard& board, Piece piece, const std::uint32_t* fits, const std::uint32_t* locks)
        : board_(&board), piece_(piece), moves_(&piece_moves(piece)), fits_(fits), locks_(locks) {}

    bool fits(Index at) const { return fits_[at >> 5] >> (at & 31) & 1; }
    bool lockable(Index at) const { return locks_[at >> 5] >> (at & 31) & 1; }
    Index canonical(Index at) const { return at + moves_->canonical[rotation_of(at)]; }
    Cells cells(Index at) const {
        const Location location = location_of(at);
        Cells cells = moves_->shapes[location.rotation];
        for (auto& [x, y] : cells)
            x += location.x, y += location.y;
        return cells;
    }

    // Where a move goes, or nothing when it is blocked.
    std::optional<Moved> apply(Index at, Step move, bool rotate_180) const {
        switch (move) {
        case Left: return shifted(at, -1);
        case Right: return shifted(at, 1);
        case Down: return shifted(at, -RowStep);
        case Half:
            if (rotate_180 && fits(at + moves_->half[rotation_of(at)]))
                return Moved{at + moves_->half[rotation_of(at)], 0};
            return std::nullopt;
        default: break;
        }
        const auto& kicks = (move == Clockwise ? moves_->clockwise : moves_->counter_clockwise)[rotation_of(at)];
        for (int kick = 0; kick < moves_->kicks; ++kick)
            if (fits(at + kicks[kick]))
                return Moved{at + kicks[kick], kick};
        return std::nullopt;
    }

    // How a lockable location was reached by this move: plain, or a T-spin
    // (mini or full) by the corner rules.
    std::uint8_t arrival(const Moved& moved, Step move) const {
        if (piece_ != PieceT || (move != Clockwise && move != CounterClockwise && move != Half))
            return ReachedPlain;
        const Location at = location_of(moved.at);
        const std::array<std::pair<int, int>, 4> corners = {{{0, 2}, {2, 2}, {2, 0}, {0, 0}}};  // TL TR BR BL
        int filled = 0;
        std::array<bool, 4> corner_filled{};
        for (int c = 0; c < 4; ++c) {
            corner_filled[c] = board_->filled(at.x + corners[c].first, at.y + corners[c].second);
            filled += corner_filled[c];
        }
        if (filled < 3)
            return ReachedPlain;
        // The corners the T points to: up TL TR, right TR BR, down BR BL, left BL TL.
        const bool front = corner_filled[at.rotation] && corner_filled[(at.rotation + 1) % 4];
        return front || moved.kick == 4 ? ReachedFull : ReachedMini;
    }

private:
    std::optional<Moved> shifted(Index at, Index step) const {
        if (fits(at + step))
            return Moved{at + step, -1};
        return std::nullopt;
    }

    const SrsBoard* board_;
    Piece piece_;
    const PieceMoves* moves_;
    const std::uint32_t* fits_;   // [(y + Margin) * 4 + rotation] -> bit x + Margin
    const std::uint32_t* locks_;  // the same
};

// The search space: every location with x in [-3, W+3) and y in [-3, T+5),
// T the higher of the board's height and the spawn row, each rotation.
// It builds the maps (the fit map is the convolution map, computed up
// front for every algorithm) and keeps their room between searches.
class Space {
public:
    Space() = default;
    Space(const SrsBoard& board, Piece piece, const MoveOptions& options) { reset(board, piece, options); }
    void reset(const SrsBoard& board, Piece piece, const MoveOptions& options);

    // Every index of the space, its margin and the canonical locations of
    // placements is below size().
    std::size_t size() const { return fits_.size() * RotationStep; }
    Map map() const { return Map(*board_, piece_, fits_.data(), locks_.data()); }

private:
    std::uint32_t fit_mask(const Cells& shape, int y, std::uint64_t columns) const;

    const SrsBoard* board_ = nullptr;
    Piece piece_ = PieceI;
    std::vector<std::uint64_t> board_rows_;  // [y + Margin] -> bit x + Margin: filled, walls and floor included
    std::vector<std::uint32_t> fits_, locks_;
};

// The board's rows as masks (walls, and every bit below the floor, set)
// from Margin rows below the floor to the top of the box of the highest
// location; the maps from Margin rows below the floor to 3 rows above the
// box of the highest location (where placements' canonical locations can
// be), zero outside the space. From the top of the stack up, the fit map's
// rows are all the same.
void Space::reset(const SrsBoard& board, Piece piece, const MoveOptions& options) {
    board_ = &board;
    piece_ = piece;
    const int top = std::max(board.height(), spawn_row_of(board, options)), rows = top + 13;
    const std::uint64_t walls = ~(((std::uint64_t(1) << board.width()) - 1) << Margin);
    board_rows_.assign(std::size_t(rows), walls);
    std::fill(board_rows_.begin(), board_rows_.begin() + Margin, ~std::uint64_t(0));
    for (int y = 0; y < board.height(); ++y)
        board_rows_[std::size_t(y + Margin)] |= std::uint64_t(board.row(y)) << Margin;
    const std::array<Cells, 4>& shapes = piece_moves(piece).shapes;
    const std::uint64_t columns = ((std::uint64_t(1) << (board.width() + 6)) - 1) << (Margin - 3);  // [-3, W+3)
    int stack_top = board.height();
    while (stack_top > 0 && board.row(stack_top - 1) == 0)
        --stack_top;
    fits_.assign(std::size_t(rows) * 4, 0);
    for (int y = -3; y < top + 5; ++y)
        for (int rotation = 0; rotation < 4; ++rotation)
            fits_[std::size_t((y + Margin) * 4 + rotation)] =
                y <= stack_top ? fit_mask(shapes[rotation], y, columns)
                               : fits_[std::size_t((stack_top + Margin) * 4 + rotation)];
    locks_.assign(fits_.size(), 0);
    for (std::size_t row = 4; row < fits_.size(); ++row)
        locks_[row] = fits_[row] & ~fits_[row - 4];
}

// Where a rotation (its cells `shape`) fits in row y, among `columns`: a
// cell (dx, dy) of its box collides at x where board row y + dy has bit x +
// dx + Margin set, that is where the row shifted right by dx has bit x +
// Margin set.
std::uint32_t Space::fit_mask(const Cells& shape, int y, std::uint64_t columns) const {
    std::uint64_t collides = 0;
    for (const auto& [dx, dy] : shape)
        collides |= board_rows_[std::size_t(y + dy + Margin)] >> dx;
    return std::uint32_t(~collides & columns);
}

// Marks on locations, a bit each, in words held elsewhere: laid out as
// the maps' (a word per row and rotation), so that a step's three looks at
// its location share their index arithmetic.
struct Marks {
    std::uint32_t* words;
    // Marks the location; false when it was marked already.
    bool insert(Index at) const {
        std::uint32_t& word = words[at >> 5];
        const std::uint32_t bit = std::uint32_t(1) << (at & 31);
        const bool fresh = !(word & bit);
        word |= bit;
        return fresh;
    }
};

// The placements found, one per set of cells, with how each was reached;
// and the search's events, when a trace is asked for. A set of cells is
// known by its canonical location: number_[index] is its placement's number
// plus one, 0 for none. The next search clears the entries this one set
// (keys_), not the whole table.
class Found {
public:
    void reset(const Map& map, std::size_t size, std::vector<SearchEvent>* trace) {
        map_ = map;
        trace_ = trace;
        for (Index key : keys_)
            number_[std::size_t(key)] = 0;
        keys_.clear();
        placements_.clear();
        if (number_.size() < size)
            number_.resize(size, 0);
    }
    void add(Index at, std::uint8_t reached) {
        note(SearchEventKind::Placeable, at);
        std::uint32_t& number = number_[std::size_t(map_->canonical(at))];
        if (number == 0)
            number = fresh(at);
        placements_[number - 1].reached |= reached;
    }
    bool tracing() const { return trace_ != nullptr; }
    void note(SearchEventKind kind, Index at) {
        if (trace_)
            trace_->push_back({kind, location_of(at)});
    }
    // The placements, in a vector of their own: the one kept here keeps its
    // room for the next search.
    std::vector<SrsPlacement> take() const { return placements_; }

private:
    // A new placement at this location; its number plus one.
    std::uint32_t fresh(Index at) {
        keys_.push_back(map_->canonical(at));
        placements_.push_back({location_of(at), map_->cells(at), 0});
        return std::uint32_t(placements_.size());
    }

    std::optional<Map> map_;
    std::vector<SearchEvent>* trace_ = nullptr;
    std::vector<SrsPlacement> placements_;
    std::vector<Index> keys_;
    std::vector<std::uint32_t> number_;
};

// One search's room. generate() keeps one per thread between searches, so
// that a search allocates nothing but its answer (and its trace). The
// queue has room for every index: a search queues each at most once,
// besides Quick's landings (fewer than 4 turns x 32 columns).
struct Search {
    Space space;
    Found found;
    std::vector<std::uint32_t> visited;
    std::vector<Index> queue, seeds, flood;

    void reset(const SrsBoard& board, Piece piece, const MoveOptions& options, std::vector<SearchEvent>* trace) {
        space.reset(board, piece, options);
        found.reset(space.map(), space.size(), trace);
        visited.assign(space.size() / RotationStep, 0);
        if (queue.size() < space.size() + 4 * 32)
            queue.resize(space.size() + 4 * 32);
        seeds.clear();
        flood.clear();
    }
    Marks marks() { return {visited.data()}; }
    // Marks the location visited; false when it was already.
    bool reach(Index at) {
        if (!marks().insert(at))
            return false;
        found.note(SearchEventKind::Reached, at);
        return true;
    }
};

// The hard-drop stage shared by HardDrop and Quick: from spawn, each of the
// four rotations (none, c, c c, w), then every column reachable by sliding
// at that height, then straight down. Calls visit(location) for each
// location passed on the way and land(location) where each drop ends.
template <typename Visit, typename Land>
void hard_drop_paths(const Map& map, Index spawn, Visit visit, Land land) {
    struct Turns {
        int count;
        std::array<Step, 2> moves;
    };
    constexpr std::array<Turns, 4> paths = {
        {{0, {}}, {1, {Clockwise}}, {2, {Clockwise, Clockwise}}, {1, {CounterClockwise}}}};
    for (const Turns& turns : paths) {
        std::optional<Index> at = spawn;
        for (int k = 0; k < turns.count && at; ++k) {
            const auto moved = map.apply(*at, turns.moves[k], false);
            at = moved ? std::optional<Index>(moved->at) : std::nullopt;
            if (at)
                visit(*at);
        }
        if (!at)
            continue;
        for (int direction : {-1, 1}) {
            for (Index column = *at; map.fits(column); column += direction) {
                if (direction == 1 && column == *at)
                    continue;  // the turned location itself is dropped once, going left
                Index drop = column;
                visit(drop);
                while (map.fits(drop - RowStep)) {
                    drop -= RowStep;
                    visit(drop);
                }
                land(drop);
            }
        }
    }
}

// Breadth first over every move from the locations queued (the first
// `queued` of the search's queue); the visited marks hold what must not be
// expanded again. It works on copies of the map and of the pointers to the
// marks and the queue (see Map); each move's step is a function of its own,
// so that the move is a constant.
//
// Every location visited that is lockable has been found already (when it
// was first reached, or by Quick's hard drops, which land wherever they
// pass a lockable location), so a move to one found again adds nothing
// unless it can add a spin mark (a T) or the trace wants its event.
class BreadthFirstSearch {
public:
    BreadthFirstSearch(Search& search, std::size_t queued, Piece piece, const MoveOptions& options)
        : map_(search.space.map()), visited_(search.marks()), found_(search.found), queue_(search.queue.data()),
          tail_(queued), rotate_180_(options.rotate_180), revisits_count_(piece == PieceT || found_.tracing()) {}

    void run() {
        for (std::size_t head = 0; head < tail_; ++head) {
            const Index at = queue_[head];
            found_.note(SearchEventKind::Popped, at);
            step<Left>(at);
            step<Right>(at);
            step<Down>(at);
            step<Clockwise>(at);
            step<CounterClockwise>(at);
            step<Half>(at);
        }
    }

private:
    template <Step move>
    void step(Index at) {
        const auto moved = map_.apply(at, move, rotate_180_);
        if (!moved)
            return;
        const bool fresh = visited_.insert(moved->at);
        if ((fresh || revisits_count_) && map_.lockable(moved->at))
            found_.add(moved->at, map_.arrival(*moved, move));
        if (fresh) {
            found_.note(SearchEventKind::Reached, moved->at);
            queue_[tail_++] = moved->at;
        }
    }

    const Map map_;
    const Marks visited_;
    Found& found_;
    Index* const queue_;
    std::size_t tail_;
    const bool rotate_180_, revisits_count_;
};

// The convolution search: the fit map is the graph; each seed is flooded
// left, right and down, and the flooded locations try their turns, whose
// unvisited results become seeds. The document (seed 004) turns only at the
// edges of a flood (locations blocked left, right or below), claiming that a
// turn in open air leads nowhere a turn at an edge does not; that is false:
// a kick can lift a turn from a location away from the edges to where no
// edge's turn goes (the I in a 4-wide shaft over a 1-wide hole: 11
// placements where BFS finds 17, tests/play/test_moves.cpp). `edges_only` keeps
// the document's version (Algorithm::ConvolutionSeed); without it every
// flooded location turns and the search equals BFS.
void convolution(Search& search, Index spawn, const MoveOptions& options, bool edges_only) {
    const Map map = search.space.map();
    search.seeds.assign(1, spawn);
    search.reach(spawn);
    if (map.lockable(spawn))
        search.found.add(spawn, ReachedPlain);
    while (!search.seeds.empty()) {
        search.flood.assign(1, search.seeds.back());
        search.seeds.pop_back();
        for (std::size_t next = 0; next < search.flood.size(); ++next) {
            const Index at = search.flood[next];
            search.found.note(SearchEventKind::Popped, at);
            bool edge = false;  // blocked in some direction
            for (Step move : {Left, Right, Down}) {
                const auto moved = map.apply(at, move, false);
                if (!moved) {
                    edge = true;
                    continue;
                }
                if (map.lockable(moved->at))
                    search.found.add(moved->at, ReachedPlain);
                if (search.reach(moved->at))
                    search.flood.push_back(moved->at);
            }
            if (edges_only && !edge)
                continue;  // open air: the document leaves its turns to the edges
            for (Step move : {Clockwise, CounterClockwise, Half}) {
                const auto moved = map.apply(at, move, options.rotate_180);
                if (!moved)
                    continue;
                if (map.lockable(moved->at))
                    search.found.add(moved->at, map.arrival(*moved, move));
                if (search.reach(moved->at))
                    search.seeds.push_back(moved->at);
            }
        }
    }
}

Location spawn_of(const SrsBoard& board, Piece piece, const MoveOptions& options) {
    const int box = SpawnShapes[int(piece)].box, row = spawn_row_of(board, options);
    // Spawn cells in rows S and S+1: the I's are in its box's row 2, the O's
    // in rows 0-1, the others' in rows 1-2.
    const int y = piece == PieceI ? row - 2 : piece == PieceSquare ? row : row - 1;
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
    if (width < LeastWidth || width > MaxWidth || height < 1)
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

std::array<Cells, 4> rotation_cells(Piece piece) {
    const SpawnShape& shape = SpawnShapes[int(piece)];
    std::array<Cells, 4> turned;
    turned[0] = shape.cells;
    for (int rotation = 1; rotation < 4; ++rotation)
        for (int k = 0; k < 4; ++k)
            turned[rotation][k] = {turned[rotation - 1][k].second, shape.box - 1 - turned[rotation - 1][k].first};
    return turned;
}

const char* rotation_name(int rotation) { return RotationNames[((rotation % 4) + 4) % 4].name; }

// Each rotation's cells as a table orientation sees them: per column from
// the left, the cells it holds and the step from its bottom to the next
// column's bottom. The first rotation whose columns match is the one.
int table_rotation(const Orientation& orientation) {
    const Piece piece = Piece(orientation.piece);
    const std::array<Cells, 4> rotations = rotation_cells(piece);
    for (int rotation = 0; rotation < 4; ++rotation) {
        int left = 4, right = -1;
        for (const auto& [x, y] : rotations[std::size_t(rotation)]) {
            left = std::min(left, x);
            right = std::max(right, x);
        }
        if (right - left + 1 != orientation.width)
            continue;
        std::array<int, 4> count{}, bottom{4, 4, 4, 4};
        for (const auto& [x, y] : rotations[std::size_t(rotation)]) {
            ++count[std::size_t(x - left)];
            bottom[std::size_t(x - left)] = std::min(bottom[std::size_t(x - left)], y);
        }
        bool same = true;
        for (int k = 0; k < orientation.width; ++k) {
            same = same && count[std::size_t(k)] == orientation.added[std::size_t(k)];
            if (k + 1 < orientation.width)
                same = same && bottom[std::size_t(k + 1)] - bottom[std::size_t(k)] == orientation.surface[std::size_t(k)];
        }
        if (same)
            return rotation;
    }
    throw std::invalid_argument("table_rotation: no SRS rotation of the piece has this orientation's shape");
}

int rotation_after(const std::string& inputs) {
    int rotation = 0;
    for (const char input : inputs)
        rotation += input == 'c' ? 1 : input == 'w' ? 3 : input == 'f' ? 2 : 0;
    return rotation % 4;
}

Cells cells_at(Piece piece, const Location& location) {
    const std::array<Cells, 4>& shapes = piece_moves(piece).shapes;
    Cells cells;
    for (int k = 0; k < 4; ++k)
        cells[k] = {location.x + shapes[location.rotation][k].first, location.y + shapes[location.rotation][k].second};
    return cells;
}

std::optional<Location> spawn_location(const SrsBoard& board, Piece piece, const MoveOptions& options) {
    const Location spawn = spawn_of(board, piece, options);
    for (const auto& [x, y] : cells_at(piece, spawn))
        if (board.filled(x, y))
            return std::nullopt;
    return spawn;
}

std::vector<SrsPlacement> generate(const SrsBoard& board, Piece piece, Algorithm algorithm, const MoveOptions& options,
                                   std::vector<SearchEvent>* trace) {
    const std::optional<Location> spawn_at = spawn_location(board, piece, options);
    if (!spawn_at)
        return {};
    thread_local Search search;
    search.reset(board, piece, options, trace);
    const Map map = search.space.map();
    const Index spawn = index_of(*spawn_at);
    switch (algorithm) {
    case Algorithm::HardDrop:
        search.found.note(SearchEventKind::Reached, spawn);
        hard_drop_paths(
            map, spawn, [&](Index at) { search.found.note(SearchEventKind::Reached, at); },
            [&](Index at) { search.found.add(at, ReachedPlain); });
        break;
    case Algorithm::Quick: {
        std::size_t queued = 0;
        search.reach(spawn);
        hard_drop_paths(
            map, spawn, [&](Index at) { search.reach(at); },
            [&](Index at) {
                search.found.add(at, ReachedPlain);
                search.queue[queued++] = at;
            });
        BreadthFirstSearch(search, queued, piece, options).run();
        break;
    }
    case Algorithm::BreadthFirst:
        search.reach(spawn);
        search.queue[0] = spawn;
        if (map.lockable(spawn))
            search.found.add(spawn, ReachedPlain);
        BreadthFirstSearch(search, 1, piece, options).run();
        break;
    case Algorithm::Convolution: convolution(search, spawn, options, false); break;
    case Algorithm::ConvolutionSeed: convolution(search, spawn, options, true); break;
    }
    return search.found.take();
}

namespace {

// The spin kinds as indexes: none (plain), mini, full.
constexpr std::array<std::uint8_t, 3> SpinKinds = {ReachedPlain, ReachedMini, ReachedFull};
int kind_index(std::uint8_t reached) { return reached == ReachedFull ? 2 : reached == ReachedMini ? 1 : 0; }
bool is_turn(Step move) { return move == Clockwise || move == CounterClockwise || move == Half; }

// Breadth first over single inputs (each move, and D: soft drop held to
// the bottom), from spawn. Every way to lock is reported to
// locked(cells, kind, inputs), kind the SpinBits bit the lock earns and
// inputs a function building them: the hard drop from each location (a
// spin when it drops no row and the location was reached by a turn that
// earned one), and each move into a location that rests, a turn earning
// its spin (reached before or not: a location keeps only its first way
// in). Inputs end with H; drops straight before it are left out. Reports
// come in no particular order of length: the caller keeps the shortest.
template <typename Locked>
void search_inputs(const SrsBoard& board, Piece piece, const MoveOptions& options, Locked locked) {
    const std::optional<Location> spawn = spawn_location(board, piece, options);
    if (!spawn)
        return;
    const Space space(board, piece, options);
    const Map map = space.map();
    std::vector<Index> parent(space.size(), -1);
    std::vector<char> how(space.size(), 0);
    std::vector<std::uint8_t> arrived(space.size(), ReachedPlain);  // the spin a location's way in earns if it rests
    std::vector<Index> queue = {index_of(*spawn)};
    parent[std::size_t(queue.front())] = queue.front();
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const Index current = queue[head];
        Index landing = current;
        while (map.fits(landing - RowStep))
            landing -= RowStep;
        const auto inputs = [&](char last) {
            return [&, last] {
                std::string inputs = "H";
                if (last)
                    inputs.insert(inputs.begin(), last);
                for (Index at = current; parent[std::size_t(at)] != at; at = parent[std::size_t(at)])
                    inputs.insert(inputs.begin(), how[std::size_t(at)]);
                while (inputs.size() > 1 && (inputs[inputs.size() - 2] == 'd' || inputs[inputs.size() - 2] == 'D'))
                    inputs.erase(inputs.size() - 2, 1);
                return inputs;
            };
        };
        locked(map.cells(landing), landing == current ? arrived[std::size_t(current)] : std::uint8_t(ReachedPlain),
               inputs(0));
        auto step = [&](Index to, char letter, std::uint8_t arrival) {
            if (parent[std::size_t(to)] >= 0)
                return;
            parent[std::size_t(to)] = current;
            how[std::size_t(to)] = letter;
            arrived[std::size_t(to)] = arrival;
            queue.push_back(to);
        };
        for (int move = 0; move < StepCount; ++move)
            if (const auto moved = map.apply(current, Step(move), options.rotate_180)) {
                const std::uint8_t arrival =
                    is_turn(Step(move)) ? map.arrival(*moved, Step(move)) : std::uint8_t(ReachedPlain);
                if (!map.fits(moved->at - RowStep))
                    locked(map.cells(moved->at), arrival, inputs(StepLetters[move]));
                step(moved->at, StepLetters[move], arrival);
            }
        if (landing != current)
            step(landing, 'D', ReachedPlain);  // soft drop held to the bottom: one input, tried last
    }
}

// The shortest inputs of every way to lock each wanted set of cells:
// [i][kind index] (none, mini, full), empty where that way does not exist.
std::vector<SpinInputs> inputs_of(const SrsBoard& board, Piece piece, const std::vector<Cells>& targets,
                                  const MoveOptions& options) {
    std::vector<SpinInputs> found(targets.size());
    std::map<Cells, std::size_t> wanted;
    for (std::size_t i = 0; i < targets.size(); ++i)
        wanted.emplace(targets[i], i);
    search_inputs(board, piece, options, [&](const Cells& cells, std::uint8_t kind, const auto& inputs) {
        const auto entry = wanted.find(cells);
        if (entry == wanted.end())
            return;
        std::string& best = found[entry->second][std::size_t(kind_index(kind))];
        std::string candidate = inputs();
        if (best.empty() || candidate.size() < best.size())
            best = std::move(candidate);
    });
    return found;
}

// The shortest of a placement's ways, plain first on a tie.
std::string shortest_of(const SpinInputs& ways) {
    const std::string* best = nullptr;
    for (const std::string& way : ways)
        if (!way.empty() && (!best || way.size() < best->size()))
            best = &way;
    return best ? *best : std::string();
}

}  // namespace

std::optional<std::string> shortest_inputs(const SrsBoard& board, Piece piece, const Cells& target,
                                           const MoveOptions& options) {
    const std::string found = shortest_of(inputs_of(board, piece, {target}, options).front());
    return found.empty() ? std::nullopt : std::optional<std::string>(found);
}

std::vector<std::string> shortest_inputs(const SrsBoard& board, Piece piece,
                                         const std::vector<SrsPlacement>& placements, const MoveOptions& options) {
    std::vector<std::string> found;
    for (const SpinInputs& ways : spin_inputs(board, piece, placements, options))
        found.push_back(shortest_of(ways));
    return found;
}

std::vector<SpinInputs> spin_inputs(const SrsBoard& board, Piece piece, const std::vector<SrsPlacement>& placements,
                                    const MoveOptions& options) {
    std::vector<Cells> targets;
    for (const SrsPlacement& placement : placements)
        targets.push_back(placement.cells);
    return inputs_of(board, piece, targets, options);
}

std::uint8_t best_spin(const SpinInputs& ways) {
    return !ways[2].empty() ? ReachedFull : !ways[1].empty() ? ReachedMini : !ways[0].empty() ? ReachedPlain : 0;
}

const std::string& inputs_for_spin(const SpinInputs& ways, std::uint8_t spin) {
    return ways[std::size_t(kind_index(spin))];
}

// The inputs played as a game plays them: a blocked move does nothing (and
// is not the last move), D drops to the bottom, H drops and locks, and the
// lock is a spin when the last move was a turn that earned one and H
// dropped no row.
std::optional<Replayed> replay(const SrsBoard& board, Piece piece, const std::string& inputs,
                               const MoveOptions& options) {
    const std::optional<Location> spawn = spawn_location(board, piece, options);
    if (!spawn)
        return std::nullopt;
    const Space space(board, piece, options);
    const Map map = space.map();
    Index at = index_of(*spawn);
    std::uint8_t last = ReachedPlain;  // the spin the last move earns if the piece locks where it is
    for (const char letter : inputs) {
        if (letter == 'H' || letter == 'D') {
            Index landing = at;
            while (map.fits(landing - RowStep))
                landing -= RowStep;
            if (landing != at)
                last = ReachedPlain;
            at = landing;
            if (letter == 'H')
                return Replayed{map.cells(at), last};
            continue;
        }
        const char* found = std::find(std::begin(StepLetters), std::end(StepLetters), letter);
        if (found == std::end(StepLetters))
            throw std::invalid_argument(std::string("replay: no input '") + letter + "'");
        const Step move = Step(found - std::begin(StepLetters));
        if (const auto moved = map.apply(at, move, options.rotate_180)) {
            last = is_turn(move) ? map.arrival(*moved, move) : std::uint8_t(ReachedPlain);
            at = moved->at;
        }
    }
    return std::nullopt;  // never locked
}

std::vector<int> last_kicks(const SrsBoard& board, Piece piece, const std::vector<std::string>& inputs,
                            const MoveOptions& options) {
    std::vector<int> kicks(inputs.size(), -1);
    const std::optional<Location> spawn = spawn_location(board, piece, options);
    if (!spawn)
        return kicks;
    const Space space(board, piece, options);
    const Map map = space.map();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        Index at = index_of(*spawn);
        for (const char letter : inputs[i]) {
            if (letter == 'H')
                break;
            if (letter == 'D') {
                while (map.fits(at - RowStep))
                    at -= RowStep;
                continue;
            }
            const char* found = std::find(std::begin(StepLetters), std::end(StepLetters), letter);
            if (found == std::end(StepLetters))
                throw std::invalid_argument(std::string("last_kicks: no input '") + letter + "'");
            const Step move = Step(found - std::begin(StepLetters));
            if (const auto moved = map.apply(at, move, options.rotate_180)) {
                if (is_turn(move))
                    kicks[i] = moved->kick;
                at = moved->at;
            }
        }
    }
    return kicks;
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
        reaches[i].rotation = inputs[i].empty() ? table_rotation(*placements[i].first) : rotation_after(inputs[i]);
    }
    return reaches;
}

}  // namespace stack::moves
