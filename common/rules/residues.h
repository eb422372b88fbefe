// Residue classes of the height sum.
//
// Every piece of a set adds a multiple of g cells, g the gcd of the pieces'
// cell counts (4 for the tetrominoes), so the boards whose height sum is r
// mod g can only lead to boards of the same class: each class is a problem
// of its own, and a table may hold some of them (stackgen --residue).
#pragma once

#include "support/limits.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stack {

class ResidueSet {
public:
    static constexpr int MostClasses = MostResidueClasses;

    // Every class of modulus 1 (all boards).
    ResidueSet() = default;
    // Every class of `modulus` (1..MostClasses).
    static ResidueSet all(int modulus);
    // The given classes of `modulus`; throws InputError on a class outside
    // [0, modulus), a repeated class, or none.
    static ResidueSet of(int modulus, const std::vector<std::int64_t>& classes);

    int modulus() const { return modulus_; }
    bool has(int residue) const { return (mask_ >> residue) & 1u; }
    bool holds_sum(int height_sum) const { return has(height_sum % modulus_); }
    int count() const { return __builtin_popcountll(mask_); }
    bool all() const { return count() == modulus_; }
    std::vector<std::int64_t> list() const;
    std::string text() const;  // "0,1,2,3"
    bool operator==(const ResidueSet&) const = default;

private:
    int modulus_ = 1;
    std::uint64_t mask_ = 1;
};

}  // namespace stack
