#include "stacking/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace stack {

// Closed forms for small even and odd degrees of freedom, on both sides of
// the series/continued-fraction switch (x/2 = k/2 + 1).
TEST(ChiSquareSurvival, MatchesClosedForms) {
    for (double x : {0.01, 0.5, 1.0, 2.5, 3.841458820694124, 7.0, 15.0, 40.0, 90.0}) {
        EXPECT_NEAR(chi_square_survival(x, 1), std::erfc(std::sqrt(x / 2)), 1e-13) << x;
        EXPECT_NEAR(chi_square_survival(x, 2), std::exp(-x / 2), 1e-13) << x;
        EXPECT_NEAR(chi_square_survival(x, 4), std::exp(-x / 2) * (1 + x / 2), 1e-13) << x;
        EXPECT_NEAR(chi_square_survival(x, 6), std::exp(-x / 2) * (1 + x / 2 + x * x / 8), 1e-13) << x;
    }
    EXPECT_NEAR(chi_square_survival(3.841458820694124, 1), 0.05, 1e-12);
    EXPECT_EQ(chi_square_survival(0.0, 5), 1.0);
    EXPECT_EQ(chi_square_survival(INFINITY, 5), 0.0);
}

TEST(ChiSquareSurvival, LargeDegreesOfFreedomCentreNearOneHalf) {
    // The median of chi-square(k) is about k (1 - 2/(9k))^3.
    for (int k : {50, 200, 1000}) {
        const double median = k * std::pow(1 - 2.0 / (9 * k), 3);
        EXPECT_NEAR(chi_square_survival(median, k), 0.5, 2e-3) << k;
    }
}

TEST(NormalTwoSidedP, KnownQuantiles) {
    EXPECT_NEAR(normal_two_sided_p(1.959963984540054), 0.05, 1e-12);
    EXPECT_NEAR(normal_two_sided_p(-3.890591886413094), 1e-4, 1e-12);
    EXPECT_EQ(normal_two_sided_p(0.0), 1.0);
}

TEST(ChiSquareTest, HandComputedStatistic) {
    const std::vector<std::uint64_t> observed = {10, 20, 70};
    const std::vector<double> probability = {0.1, 0.3, 0.6};  // expected 10, 30, 60
    const ChiSquareTest test = chi_square_test(observed, probability);
    EXPECT_DOUBLE_EQ(test.statistic, 100.0 / 30 + 100.0 / 60);
    EXPECT_EQ(test.bins, 3);
    EXPECT_EQ(test.degrees_of_freedom, 2);
    EXPECT_NEAR(test.p_value, std::exp(-2.5), 1e-13);
    EXPECT_EQ(test.impossible, 0u);
}

TEST(ChiSquareTest, MergesSmallBinsFromTheShortEndAndFoldsTheRemainderIntoTheLast) {
    // expected 2, 2, 2 | 44 | 48, 2: bins {0,1,2}, {3}, {4,5}
    const std::vector<std::uint64_t> observed = {1, 3, 2, 44, 47, 3};
    const std::vector<double> probability = {0.02, 0.02, 0.02, 0.44, 0.48, 0.02};
    const ChiSquareTest test = chi_square_test(observed, probability);
    EXPECT_EQ(test.bins, 3);
    EXPECT_EQ(test.degrees_of_freedom, 2);
    EXPECT_NEAR(test.statistic, 0.0, 1e-12);  // 6 vs 6, 44 vs 44, 50 vs 50
}

// Merging hides games of impossible lengths in a neighbouring bin (here the
// statistic is 0), which is why they are counted on their own.
TEST(ChiSquareTest, CountsImpossibleLengthsThatMergingWouldHide) {
    const std::vector<std::uint64_t> observed = {50, 0, 45, 5};
    const std::vector<double> probability = {0.5, 0.0, 0.5};
    const ChiSquareTest test = chi_square_test(observed, probability);
    EXPECT_EQ(test.impossible, 5u);  // length 3 lies past the prediction
    EXPECT_EQ(test.statistic, 0.0);
}

TEST(ChiSquareTest, OneBinHasNoDegreesOfFreedom) {
    const std::vector<std::uint64_t> observed = {0, 0, 100};
    const std::vector<double> probability = {0, 0, 1.0};
    const ChiSquareTest test = chi_square_test(observed, probability);
    EXPECT_EQ(test.bins, 1);
    EXPECT_EQ(test.degrees_of_freedom, 0);
    EXPECT_EQ(test.p_value, 1.0);
    EXPECT_EQ(test.statistic, 0.0);
}

TEST(ChiSquareTest, RejectsAWrongDistribution) {
    std::vector<std::uint64_t> observed(10, 1000);  // uniform over 10 lengths
    std::vector<double> probability(10, 0.0);
    probability[0] = 0.2;
    for (int k = 1; k < 10; ++k)
        probability[k] = 0.8 / 9;
    EXPECT_LT(chi_square_test(observed, probability).p_value, 1e-4);
}

}  // namespace stack
