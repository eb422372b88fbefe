// Board codec: the one place that maps a hole-free stack (a vector of column
// heights) to its board id and back.
//
// A W x H well holds (H+1)^W hole-free stacks. Board id = sum_i h_i*(H+1)^i,
// column 0 is the lowest digit, exactly as in the reference implementation.
#pragma once

#include "support/limits.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stack {

using BoardId = std::uint64_t;

// MaxWidth and MaxHeight: support/limits.h.
using Heights = std::array<int, MaxWidth>;  // [column] -> height, unused tail is 0

// The shape of a well and the arithmetic of its id space.
class Geometry {
public:
    // Throws InputError when width or height is < 1, the width exceeds
    // MaxWidth, or (height+1)^width does not fit in 64 bits.
    Geometry(int width, int height);

    int width() const { return width_; }
    int height() const { return height_; }
    std::uint64_t base() const { return height_ + 1; }  // ids per digit
    std::uint64_t states() const { return states_; }    // (H+1)^W
    std::uint64_t place_value(int column) const { return powers_[column]; }

    BoardId encode(const Heights& heights) const;
    Heights decode(BoardId id) const;
    int height_sum(BoardId id) const;

    // "3,6,8,7" -> heights; throws InputError on a wrong column count, a
    // height outside [0, H] or text that is not a list of integers.
    Heights parse_heights(const std::string& text) const;
    std::string format_heights(const Heights& heights) const;  // "3,6,8,7"

private:
    // id / base and id % base without a division: q = the high word of
    // id * floor(2^64 / base) is the quotient or one less, which the
    // remainder test corrects (exact for every 64-bit id).
    std::uint64_t divide_by_base(std::uint64_t id, std::uint64_t& remainder) const {
        std::uint64_t quotient = std::uint64_t((unsigned __int128)id * reciprocal_ >> 64);
        remainder = id - quotient * base();
        if (remainder >= base()) {
            ++quotient;
            remainder -= base();
        }
        return quotient;
    }

    int width_;
    int height_;
    std::uint64_t states_;
    std::uint64_t reciprocal_;                          // floor(2^64 / (H+1))
    std::array<std::uint64_t, MaxWidth + 1> powers_{};  // [column] -> (H+1)^column
};

// Number of ids of a W x H well, or 0 when it does not fit in 64 bits.
std::uint64_t checked_state_count(int width, int height);

}  // namespace stack
