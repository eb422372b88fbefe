// <stack/table.h> over the tools' own reader: StackTable opens and checks
// the file, PlacementTable lists a piece's placements, and the choice is
// rules/placement.h's best_choice, through which stackplay's table policy
// chooses too. Internal errors become TableError at this boundary, so a caller
// sees one exception type and none of the tools' headers.
#include "stack/table.h"

#include "rules/placement.h"
#include "support/errors.h"
#include "table/stack_table.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace stack {

struct Table::State {
    explicit State(StackTable opened) : table(std::move(opened)), placements(table.geometry(), table.rules()) {
        const Rules& rules = table.rules();
        for (int piece = 0; piece < rules.piece_count(); ++piece)
            pieces.push_back({rules.letter(piece), rules.name(piece), rules.cells(piece),
                              rules.first_orientation(piece + 1) - rules.first_orientation(piece),
                              rules.weight(piece)});
    }
    StackTable table;
    PlacementTable placements;
    std::vector<Piece> pieces;

    // The heights as the codec holds them, or nothing when they are not a
    // board of this well (`why`, when given, says why).
    std::optional<Heights> board_of(std::span<const int> heights, std::string* why) const {
        const Geometry& geometry = table.geometry();
        if (heights.size() != std::size_t(geometry.width())) {
            if (why)
                *why = "a board of this table has " + std::to_string(geometry.width()) + " column heights, not "
                       + std::to_string(heights.size());
            return std::nullopt;
        }
        Heights board{};
        for (std::size_t x = 0; x < heights.size(); ++x) {
            if (heights[x] < 0 || heights[x] > geometry.height()) {
                if (why)
                    *why = "column " + std::to_string(x) + "'s height " + std::to_string(heights[x]) + " is outside 0.."
                           + std::to_string(geometry.height());
                return std::nullopt;
            }
            board[x] = heights[x];
        }
        return board;
    }
    // The same, throwing TableError unless the board is of this well and held.
    Heights checked(std::span<const int> heights) const {
        std::string why;
        const std::optional<Heights> board = board_of(heights, &why);
        if (!board)
            throw TableError(why);
        const BoardId id = table.geometry().encode(*board);
        if (!table.holds(id))
            throw TableError(not_held_message(table, id));
        return *board;
    }
    int piece_index(char letter) const {
        for (std::size_t piece = 0; piece < pieces.size(); ++piece)
            if (pieces[piece].letter == letter)
                return int(piece);
        throw TableError("piece '" + printable(std::string(1, letter)) + "' is not in the set "
                         + table.info().pieces.name());
    }
    Placement placement(const Heights& heights, int orientation, int column, BoardId successor) const {
        const Heights after = placements.after(heights, orientation, column);
        const int width = table.geometry().width();
        return {table.rules().rotation(orientation), column, std::vector<int>(after.begin(), after.begin() + width),
                table.value(successor)};
    }
};

namespace {

// Runs `work`, turning the tools' exceptions into TableError.
template <class Work>
auto guarded(Work&& work) -> decltype(work()) {
    try {
        return work();
    } catch (const TableError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw TableError("out of memory");
    } catch (const std::exception& error) {
        throw TableError(error.what());
    }
}

}  // namespace

Table::Table(std::unique_ptr<State> state) : state_(std::move(state)) {}
Table::Table(Table&&) noexcept = default;
Table& Table::operator=(Table&&) noexcept = default;
Table::~Table() = default;

Table Table::open(const std::string& path) {
    return guarded([&] { return Table(std::make_unique<State>(StackTable::open(path))); });
}

int Table::width() const { return state_->table.geometry().width(); }
int Table::height() const { return state_->table.geometry().height(); }
std::uint64_t Table::boards() const { return state_->table.geometry().states(); }
const std::string& Table::piece_set() const { return state_->table.info().pieces.name(); }
const std::vector<Table::Piece>& Table::pieces() const { return state_->pieces; }
const std::string& Table::path() const { return state_->table.path(); }

bool Table::holds(std::span<const int> heights) const {
    const std::optional<Heights> board = state_->board_of(heights, nullptr);
    return board && state_->table.holds(state_->table.geometry().encode(*board));
}

double Table::value(std::span<const int> heights) const {
    return guarded([&] { return state_->table.value(state_->table.geometry().encode(state_->checked(heights))); });
}

std::optional<Table::Placement> Table::best_placement(std::span<const int> heights, char piece) const {
    return guarded([&]() -> std::optional<Placement> {
        const Heights board = state_->checked(heights);
        const int index = state_->piece_index(piece);
        const BoardId id = state_->table.geometry().encode(board);
        const ValuedChoice best = best_choice(state_->placements, board, id, index,
                                              [&](BoardId successor) { return state_->table.value(successor); });
        if (best.orientation < 0)
            return std::nullopt;
        return state_->placement(board, best.orientation, best.column, best.successor);
    });
}

std::vector<Table::Placement> Table::placements(std::span<const int> heights, char piece) const {
    return guarded([&] {
        const Heights board = state_->checked(heights);
        const int index = state_->piece_index(piece);
        const BoardId id = state_->table.geometry().encode(board);
        std::vector<ValuedChoice> found;
        state_->placements.for_each_placement(board, [&](int o, int x, BoardId offset) {
            if (state_->table.rules().orientation(o).piece == index)
                found.push_back({o, x, id + offset, state_->table.value(id + offset)});
        });
        std::sort(found.begin(), found.end(),
                  [](const ValuedChoice& a, const ValuedChoice& b) { return a.better_than(b); });
        std::vector<Placement> listed;
        for (const ValuedChoice& choice : found)
            listed.push_back(state_->placement(board, choice.orientation, choice.column, choice.successor));
        return listed;
    });
}

}  // namespace stack
