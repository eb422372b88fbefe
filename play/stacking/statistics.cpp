#include "stacking/statistics.h"

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/special_functions/erf.hpp>

#include <algorithm>
#include <cmath>

namespace stack {

double chi_square_survival(double x, int degrees_of_freedom) {
    if (!(x > 0))
        return 1.0;
    if (std::isinf(x))
        return 0.0;
    return boost::math::cdf(boost::math::complement(boost::math::chi_squared(degrees_of_freedom), x));
}

double normal_two_sided_p(double z) { return boost::math::erfc(std::abs(z) / std::sqrt(2.0)); }

ChiSquareTest chi_square_test(std::span<const std::uint64_t> observed, std::span<const double> probability,
                              double minimum_expected) {
    ChiSquareTest test;
    double games = 0;
    for (std::uint64_t count : observed)
        games += double(count);
    const std::size_t lengths = std::max(observed.size(), probability.size());
    double bin_observed = 0, bin_expected = 0;
    double last_observed = 0, last_expected = 0;  // the last closed bin, not yet added to the statistic
    bool have_last = false;
    auto add_bin = [&](double o, double e) {
        test.statistic += e > 0 ? (o - e) * (o - e) / e : (o > 0 ? INFINITY : 0.0);
        ++test.bins;
    };
    for (std::size_t k = 0; k < lengths; ++k) {
        const double o = k < observed.size() ? double(observed[k]) : 0.0;
        const double p = k < probability.size() ? probability[k] : 0.0;
        if (p == 0 && o > 0)
            test.impossible += observed[k];
        bin_observed += o;
        bin_expected += games * p;
        if (bin_expected >= minimum_expected) {
            if (have_last)
                add_bin(last_observed, last_expected);
            last_observed = bin_observed, last_expected = bin_expected, have_last = true;
            bin_observed = bin_expected = 0;
        }
    }
    if (have_last)
        add_bin(last_observed + bin_observed, last_expected + bin_expected);
    else if (games > 0)
        add_bin(bin_observed, bin_expected);
    test.degrees_of_freedom = std::max(test.bins - 1, 0);
    test.p_value = test.degrees_of_freedom > 0 ? chi_square_survival(test.statistic, test.degrees_of_freedom) : 1.0;
    return test;
}

}  // namespace stack
