// Placement enumeration: which orientations of a piece set (rules.h) fit a
// stack, and where the resulting stack lives in the id space.
//
// Placing orientation o at column x always adds the same amount to the board
// id, offset(o, x) = sum_k added[k] * (H+1)^(x+k), so a successor id is the
// id plus a constant: no successor list is ever stored.
//
// Finding the orientations that fit uses the local height differences: the
// surface condition of an orientation at column x depends only on d[x],
// d[x+1], ... (d[i] = h[i+1] - h[i]). Each d is clipped to [-L, L], where
// L - 1 is the largest step any orientation of the set needs (2 for the
// tetrominoes, so L = 3 and the values are those of the first version),
// and columns past the right wall read as L, which no step matches; the
// first three differences then index a table of (2L+1)^3 entries listing
// the orientations whose underside matches them (for the tetrominoes, 343
// entries and every orientation decided: none is wider than 4). An
// orientation wider than 4 columns has its further steps checked directly,
// and its width against the wall. The height limit is checked per match.
// Predecessors work the same way: o at x could have produced a stack when
// d[x+k] equals the "reverse surface" surface[k] + added[k+1] - added[k]
// (the step before the piece landed, seen after it), which a second table
// indexes.
#pragma once

#include "rules/board.h"
#include "rules/compositions.h"
#include "rules/residues.h"
#include "rules/rules.h"

#include <array>
#include <cstdint>
#include <vector>

namespace stack {

// The tie-break of every policy and view: among equal choices, the first
// orientation in table order, then the leftmost column.
constexpr bool placed_before(int orientation, int column, int other_orientation, int other_column) {
    return orientation < other_orientation || (orientation == other_orientation && column < other_column);
}

// The table's choice among placements, one at a time: the higher value of
// the board after wins, ties go to the placement placed_before the other.
// stackplay's table policy and <stack/table.h> choose by it.
struct ValuedChoice {
    int orientation = -1;  // -1: none considered yet
    int column = 0;
    BoardId successor = 0;
    double value = -1.0;

    bool better_than(const ValuedChoice& other) const {
        return value > other.value
               || (value == other.value
                   && (other.orientation < 0 || placed_before(orientation, column, other.orientation, other.column)));
    }
    void consider(int o, int x, BoardId after, double after_value) {
        const ValuedChoice candidate{o, x, after, after_value};
        if (candidate.better_than(*this))
            *this = candidate;
    }
};

class PlacementTable {
public:
    // [x] -> clip(h[x+1] - h[x]) + L; past the right wall (x >= W-1) it
    // reads as the largest value, which no surface matches.
    using Differences = std::array<std::uint8_t, MaxWidth + 2>;

    // `rules` must outlive the table.
    PlacementTable(const Geometry& geometry, const Rules& rules);

    const Geometry& geometry() const { return geometry_; }
    const Rules& rules() const { return *rules_; }
    BoardId offset(int orientation, int column) const {
        return offsets_[std::size_t(orientation) * MaxWidth + std::size_t(column)];
    }

    // A difference clipped to [-L, L], as a table index.
    std::uint8_t clipped_difference(int difference) const {
        difference = difference > limit_ ? limit_ : difference < -limit_ ? -limit_ : difference;
        return static_cast<std::uint8_t>(difference + limit_);
    }
    Differences differences(const Heights& heights) const;

    // visit(orientation, column, successor_offset) for every valid placement
    // on `heights`: columns ascending, orientations in the set's order within
    // a column.
    template <class Visit>
    void for_each_placement(const Heights& heights, Visit&& visit) const;
    // The same for one column, with `differences` = differences(heights)
    // (the caller may have changed entries it knows better).
    template <class Visit>
    void for_each_placement_at(const Heights& heights, const Differences& differences, int column, Visit&& visit) const;
    template <class Visit, class Wanted>
    void for_each_placement_at(const Heights& heights, const Differences& differences, int column, Visit&& visit,
                               Wanted&& wanted) const {
        for_each_match<false>(heights, differences, column, visit, wanted);
    }

    // visit(orientation, column, predecessor_offset) for every placement that
    // turns some valid stack into `heights` (the predecessor's id is the id
    // minus the offset); the per-column form as above.
    template <class Visit>
    void for_each_predecessor(const Heights& heights, Visit&& visit) const;
    template <class Visit>
    void for_each_predecessor_at(const Heights& heights, const Differences& differences, int column,
                                 Visit&& visit) const;
    // Both forms also come with a filter: only the orientations o for which
    // wanted(o) holds, asked before the rest of the test (the exchange wants
    // only the placements whose predecessor lives on another rank).
    template <class Visit, class Wanted>
    void for_each_predecessor_at(const Heights& heights, const Differences& differences, int column, Visit&& visit,
                                 Wanted&& wanted) const {
        for_each_match<true>(heights, differences, column, visit, wanted);
    }
    // The filter that keeps every orientation.
    struct AnyOrientation {
        constexpr bool operator()(int) const { return true; }
    };

    // The most orientations that can fit at one column of any stack.
    int most_placements_at_one_column() const { return most_at_one_column_; }
    // The steps d[0] a placement wider than one column at column 0 can need,
    // ascending: its surface's first step (forward), or the first step seen
    // after it landed (reverse).
    const std::vector<int>& first_steps(bool reverse) const { return first_steps_[reverse]; }

    // Orientation o's columns, read from the lookup's own (hot) copy.
    int width(int orientation) const { return candidates_[std::size_t(orientation)].width; }

    // The rule itself, for one (orientation, column) that lies inside the
    // well: does it fit `heights`? (The tests hold the lookup to it.)
    bool fits(const Heights& heights, int orientation, int column) const {
        return rules_->orientation(orientation).fits(heights.data(), column, geometry_.height());
    }
    // The heights after orientation o lands at column x.
    Heights after(const Heights& heights, int orientation, int column) const {
        Heights result = heights;
        rules_->orientation(orientation).place(result.data(), column);
        return result;
    }

private:
    // Lists of orientations, one per key, laid out inline so that a lookup
    // reads one short run of memory: entries[key * stride] is the count,
    // the orientations follow in the set's order. stride is one more than
    // the most matches of any key.
    struct MatchTable {
        int stride = 1;
        std::vector<std::uint16_t> entries;
        const std::uint16_t* list(int key) const { return entries.data() + std::size_t(key) * std::size_t(stride); }
    };
    // An orientation as the lookup reads it.
    struct Candidate {
        int width;
        int tail_from;  // steps from here on are checked directly (width - 1 when none)
        std::array<std::int8_t, MostPieceColumns> added;
        std::array<std::int8_t, MostPieceColumns - 1> step[2];  // [reverse][k]
    };
    // Builds the lists of `keys` keys: the orientations of `order`, in that
    // order, for which matches(key, o) holds.
    template <class Matches>
    static MatchTable build_table(int keys, const std::vector<int>& order, Matches&& matches);
    int step(int o, int k, bool reverse) const;
    template <bool Reverse, class Visit, class Wanted = AnyOrientation>
    void for_each_match(const Heights& heights, const Differences& differences, int x, Visit&& visit,
                        Wanted&& wanted = {}) const {
        if (has_tails_)
            for_each_match_of<Reverse, true>(heights, differences, x, visit, wanted);
        else
            for_each_match_of<Reverse, false>(heights, differences, x, visit, wanted);
    }
    // Tails: whether some orientation is wider than the key's three steps
    // (decided once per call, not once per match).
    template <bool Reverse, bool Tails, class Visit, class Wanted>
    void for_each_match_of(const Heights& heights, const Differences& differences, int x, Visit&& visit,
                           Wanted&& wanted) const;
    // What the key leaves to check of `candidate` at column x: the steps
    // past the key's three (Tails), and the rows the cells need, below the
    // top (forward) or held by the stack (reverse).
    template <bool Reverse, bool Tails>
    bool holds(const Heights& heights, int x, const Candidate& candidate) const {
        bool holds = true;
        if (Tails && candidate.tail_from < candidate.width - 1) {  // wider than the key: the rest directly
            holds = x + candidate.width <= geometry_.width();
            for (int s = candidate.tail_from; holds && s < candidate.width - 1; ++s)
                holds = heights[x + s + 1] - heights[x + s] == candidate.step[Reverse][s];
        }
        const int limit = geometry_.height();
        for (int c = 0; c < candidate.width; ++c)
            holds &= Reverse ? heights[x + c] >= candidate.added[c] : heights[x + c] + candidate.added[c] <= limit;
        return holds;
    }
    // The match table's key of the three clipped differences from `column`,
    // each one of `values` (2L + 1).
    static int key(const Differences& differences, int column, int values) {
        return (differences[column] * values + differences[column + 1]) * values + differences[column + 2];
    }

    Geometry geometry_;
    const Rules* rules_;
    int limit_ = 0;                      // L
    int values_ = 1;                     // 2L + 1
    std::vector<Candidate> candidates_;  // [orientation]
    std::array<MatchTable, 2> tables_;   // [reverse][key of d[x], d[x+1], d[x+2]]
    std::vector<BoardId> offsets_;       // [orientation * MaxWidth + column]
    int most_at_one_column_ = 0;
    bool has_tails_ = false;                       // some orientation is wider than the key's steps
    std::array<std::vector<int>, 2> first_steps_;  // [reverse]
};

inline PlacementTable::Differences PlacementTable::differences(const Heights& heights) const {
    Differences result;
    const int width = geometry_.width();
    for (int x = 0; x < width + 2; ++x)
        result[x] = x + 1 < width ? clipped_difference(heights[x + 1] - heights[x]) : std::uint8_t(values_ - 1);
    return result;
}

// Forward: the orientations whose surface matches and that stay below the
// top. Reverse: those whose surface seen after landing matches and whose
// cells the stack holds (each column at least as high as the cells added).
template <bool Reverse, bool Tails, class Visit, class Wanted>
void PlacementTable::for_each_match_of(const Heights& heights, const Differences& differences, int x, Visit&& visit,
                                       Wanted&& wanted) const {
    // The tables' addresses held in locals: `visit` stores through
    // pointers the compiler cannot tell apart from the vectors' own, and
    // would reload them at every match.
    const std::uint16_t* const list = tables_[Reverse].list(key(differences, x, values_));
    const Candidate* const candidates = candidates_.data();
    const BoardId* const offsets = offsets_.data();
    for (int i = 1; i <= list[0]; ++i) {
        const int o = list[i];
        if (wanted(o) && holds<Reverse, Tails>(heights, x, candidates[o]))
            visit(o, x, offsets[std::size_t(o) * MaxWidth + std::size_t(x)]);
    }
}

template <class Visit>
void PlacementTable::for_each_placement_at(const Heights& heights, const Differences& differences, int x,
                                           Visit&& visit) const {
    for_each_match<false>(heights, differences, x, visit);
}

template <class Visit>
void PlacementTable::for_each_predecessor_at(const Heights& heights, const Differences& differences, int x,
                                             Visit&& visit) const {
    for_each_match<true>(heights, differences, x, visit);
}

template <class Visit>
void PlacementTable::for_each_placement(const Heights& heights, Visit&& visit) const {
    const Differences difference = differences(heights);
    for (int x = 0; x < geometry_.width(); ++x)
        for_each_match<false>(heights, difference, x, visit);
}

template <class Visit>
void PlacementTable::for_each_predecessor(const Heights& heights, Visit&& visit) const {
    const Differences difference = differences(heights);
    for (int x = 0; x < geometry_.width(); ++x)
        for_each_match<true>(heights, difference, x, visit);
}

// The connections of one round: over the boards whose columns 1..W-1 sum
// to `sum` and whose height sum is in `residues`, the valid placements of
// each piece, counted without visiting a board. An orientation at column x
// sets its columns to b + d[k] for a base height b (d[k] the partial sums
// of its surface), so the boards it fits are, for each b with room, the
// compositions of what its columns leave of the sum over the other columns
// 1..W-1 (`columns` counts them: CompositionCodec(W-1, H)), times the
// column-0 heights of a stored class (or, at x = 0, whether b is one).
// stackgen checks its count against this, and a resumed partial's
// connections_done attribute. `mirrored`: over the canonical boards alone
// (h0 <= h(W-1), table_format.h), the column W-1 then taken height by
// height where the piece leaves it free.
PieceCounts round_connections(const Rules& rules, const Geometry& geometry, const CompositionCodec& columns,
                              const ResidueSet& residues, int sum, bool mirrored = false);

// The table's choice for `piece` on a board (its heights and id): every
// placement of the piece, each valued by value_of(successor id), the best by
// ValuedChoice; orientation -1 when the piece fits nowhere. stackplay's
// table policy and <stack/table.h> both choose through it.
template <class ValueOf>
ValuedChoice best_choice(const PlacementTable& placements, const Heights& heights, BoardId id, int piece,
                         ValueOf&& value_of) {
    ValuedChoice best;
    placements.for_each_placement(heights, [&](int o, int x, BoardId offset) {
        if (placements.rules().orientation(o).piece == piece)
            best.consider(o, x, id + offset, value_of(id + offset));
    });
    return best;
}

}  // namespace stack
