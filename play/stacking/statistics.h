// The statistics of stackplay's checks of a run of games: the p-value of
// the z-test of the mean (compare, player.h, computes z: against the exact
// variance when the length distribution was computed, else the games' own)
// and a chi-square goodness-of-fit test of the histogram of game lengths
// against the exact distribution (distribution.h).
#pragma once

#include <cstdint>
#include <span>

namespace stack {

// P(X >= x) for X ~ chi-square with `degrees_of_freedom` (> 0) degrees,
// the regularized upper incomplete gamma function Q(k/2, x/2) (Boost.Math).
double chi_square_survival(double x, int degrees_of_freedom);

// P(|Z| >= |z|) for a standard normal Z: erfc(|z| / sqrt 2) (Boost.Math).
double normal_two_sided_p(double z);

struct ChiSquareTest {
    double statistic = 0;
    int degrees_of_freedom = 0;  // bins - 1; 0 when everything fell in one bin
    double p_value = 1;          // 1 when degrees_of_freedom is 0
    int bins = 0;
    std::uint64_t impossible = 0;  // games whose length has probability exactly 0
};

// observed[k] = games of length k, probability[k] = P(L = k); lengths past
// either span's end count as 0. Adjacent lengths are merged, from the
// shortest up, until each bin expects at least `minimum_expected` games; a
// short remainder joins the last bin.
ChiSquareTest chi_square_test(std::span<const std::uint64_t> observed, std::span<const double> probability,
                              double minimum_expected = 5.0);

}  // namespace stack
