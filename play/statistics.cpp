#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stack {

namespace {

// Q(a, x) by its continued fraction (modified Lentz), good for x >= a + 1.
double upper_gamma_fraction(double a, double x) {
    constexpr double Tiny = std::numeric_limits<double>::min() / std::numeric_limits<double>::epsilon();
    double b = x + 1 - a, c = 1 / Tiny, d = 1 / b, h = d;
    for (int i = 1; i < 10000; ++i) {
        const double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        d = std::abs(d) < Tiny ? Tiny : d;
        c = b + an / c;
        c = std::abs(c) < Tiny ? Tiny : c;
        d = 1 / d;
        const double step = d * c;
        h *= step;
        if (std::abs(step - 1) < 1e-16)
            break;
    }
    return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

// P(a, x) = 1 - Q(a, x) by its power series, good for x < a + 1.
double lower_gamma_series(double a, double x) {
    double term = 1 / a, sum = term;
    for (int n = 1; n < 10000; ++n) {
        term *= x / (a + n);
        sum += term;
        if (std::abs(term) < std::abs(sum) * 1e-17)
            break;
    }
    return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

}  // namespace

double chi_square_survival(double x, int degrees_of_freedom) {
    const double a = degrees_of_freedom / 2.0, half = x / 2.0;
    if (!(x > 0))
        return 1.0;
    if (std::isinf(x))
        return 0.0;
    return half < a + 1 ? 1.0 - lower_gamma_series(a, half) : upper_gamma_fraction(a, half);
}

double normal_two_sided_p(double z) { return std::erfc(std::abs(z) / std::sqrt(2.0)); }

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
