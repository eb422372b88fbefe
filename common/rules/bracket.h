// The well game's proven bracket: from any table L of a line-clear game,
// one Bellman step T (value.h's equation, the tetris among the I's moves,
// every successor read from L itself) bounds how far L is from the fixed
// point V* = T(V*), whatever made L. With
//   above = a bound on max over boards of T(L) - L   (delta, >= 0)
//   below = a bound on max over boards of L - T(L)   (d, >= 0)
//   epsilon = above / (1 - above),  eta = below / (1 + below),
// the tables U = L + epsilon (1 + L) and D = L - eta (1 + L) satisfy
// T(U) <= U and T(D) >= D: T scales 1 + values, so T(U) = (1 + epsilon)
// T(L) <= (1 + epsilon)(L + above) <= U exactly when (1 + epsilon) above
// <= epsilon, and likewise for D. Every policy ends with probability 1 (a
// long enough run of S pieces fills any well), so the fixed point is
// unique, T is monotone, and
//   D <= V* <= U at every board.
// The distance bound is therefore max(epsilon, eta) (1 + the largest
// value), and V(empty)'s own bracket [D(empty), U(empty)].
// (docs/clears.md says where the two bounds come from: stackgen's sweeps
// bound them from each sweep's change at the boards a tetris lands on;
// stackverify measures them in one pass over the file.)
//
// Rounding. T is computed in float64: value.h's sum of P terms, each a
// weight times 1 + a value, divided by the weights' sum, is within
// (P + 2) 2^-53 (1 + the largest value) of the exact one. step_rounding()
// allows twice that; stackgen adds it four times to each side (its own
// step, the verifier's, and the room for the verifier to check against),
// and stackverify checks each board with one allowance kept back.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace stack {

// A sweep's change at the boards a tetris lands on, each way: the largest
// of L - X and of X - L, X the values its tetrises read (gen/clears.h).
struct TargetChange {
    double up = 0, down = 0;
};

struct Bracket {
    double above = 0;    // delta: bounds max(T(L) - L), exactly
    double below = 0;    // d: bounds max(L - T(L)), exactly
    double largest = 0;  // the largest value of L

    double epsilon() const { return above < 1 ? above / (1 - above) : std::numeric_limits<double>::infinity(); }
    double eta() const { return below / (1 + below); }
    // Every value's distance from the fixed point, at most.
    double bound() const { return std::max(epsilon(), eta()) * (1 + largest); }
    // The fixed point's value at a board whose value in L is `value` lies
    // in [low(value), high(value)].
    double low(double value) const { return value - eta() * (1 + value); }
    double high(double value) const { return value + epsilon() * (1 + value); }
};

// One Bellman step's rounding at values up to `largest`, with `pieces`
// pieces in the set (see the top of the file).
inline double step_rounding(double largest, int pieces) { return double(pieces + 2) * 0x1p-52 * (1 + largest); }

// The residuals a stated distance bound allows, the inverse of
// Bracket::bound(): T(L) - L up to allowed_above and L - T(L) up to
// allowed_below keep every value within `bound` of the fixed point.
inline double allowed_above(double bound, double largest) {
    const double epsilon = bound / (1 + largest);
    return epsilon / (1 + epsilon);
}
inline double allowed_below(double bound, double largest) {
    const double eta = bound / (1 + largest);
    return eta < 1 ? eta / (1 - eta) : std::numeric_limits<double>::infinity();
}

}  // namespace stack
