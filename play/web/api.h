// The JSON API of stackplay --serve, apart from HTTP: each endpoint is a
// function from the request's query parameters to a JSON answer, so the
// tests call it directly and the server (server.h) only routes.
//
//   /api/moves    SRS move generation on a drawn board (srs/moves.h), with
//                 the search's events for the animation
//   /api/table    the loaded table's metadata
//   /api/board    a stack's value and every piece's placements, best first
//   /api/lengths  the table policy's exact length distribution from a stack
//                 beside the lengths of seeded games
//   /api/game     one seeded game turn by turn: the stacking game on the
//                 table, or the real game (holes, line clears)
//   /api/decide   one decision of the real game on a drawn board with the
//                 known pieces (tetris/decision.h), as --board FILE --piece X
//
// Every parameter is checked: an unknown or repeated name, a value out of
// range or a board the table does not hold throws BadRequest (HTTP 400),
// naming what is wrong. Every answer's work is bounded by the limits below,
// whatever is asked.
#pragma once

#include "support/json.h"
#include "support/limits.h"

#include <map>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace stack {
class StackTable;
class PlacementTable;
}  // namespace stack

namespace stack::web {

class BadRequest : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
// Asked of a table when none is loaded (HTTP 404).
class NoTable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

using Parameters = std::multimap<std::string, std::string>;

// Bounds on one request's work.
constexpr int MostBoardWidth = MaxWidth, MostBoardHeight = MostGameHeight;  // support/limits.h
constexpr int MostLengthGames = 10000;
constexpr int MostTetrisPieces = 1000;
constexpr int MostAlternatives = 8;  // per turn of a replayed real game
// A decision: the next pieces told, the ones searched, the first choices
// shown, and its projected work (api.cpp's decision_work: leaves, SRS moves
// weighted by the well's size; about 40 ns a unit on one core, so 2 s).
constexpr int MostDecisionNext = 6, MostDecisionPreview = 3, MostDecisionAlternatives = 16;
constexpr double MostDecisionWork = 5e7;
// The exact distribution is computed for tables of at most this many boards
// (its pass can visit every board of the table).
constexpr std::uint64_t MostExactStates = std::uint64_t(1) << 24;
constexpr std::size_t MostCachedDistributions = 1024;

class Api {
public:
    // Opens the table when a path is given (InputError when it is bad).
    explicit Api(const std::optional<std::string>& table_path);
    explicit Api(StackTable table);  // a table already open (tests)
    ~Api();

    std::string moves(const Parameters& parameters) const;  // JSON text (the hot endpoint)
    Json table() const;
    Json board(const Parameters& parameters) const;
    Json lengths(const Parameters& parameters) const;
    Json game(const Parameters& parameters) const;
    Json decide(const Parameters& parameters) const;  // no lock: it reads no shared state

private:
    const StackTable& loaded_table() const;
    std::unique_ptr<StackTable> table_;
    std::unique_ptr<PlacementTable> placements_;
    // Board id -> its exact distribution, computed once (Api::lengths). The
    // table itself is safe to read from many requests at once (its lazy
    // reads take their own lock, stack_table.h).
    mutable std::mutex cache_mutex_;
    mutable std::map<std::uint64_t, std::shared_future<Json>> exact_cache_;
};

}  // namespace stack::web
