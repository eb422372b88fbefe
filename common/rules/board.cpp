#include "rules/board.h"

#include "support/errors.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace stack {

std::uint64_t checked_state_count(int width, int height) {
    if (width < 1 || height < 1)
        return 0;
    const std::uint64_t base = static_cast<std::uint64_t>(height) + 1;
    std::uint64_t count = 1;
    for (int column = 0; column < width; ++column) {
        if (count > std::numeric_limits<std::uint64_t>::max() / base)
            return 0;
        count *= base;
    }
    return count;
}

Geometry::Geometry(int width, int height) : width_(width), height_(height) {
    if (width < 1)
        throw InputError("--width must be at least 1, got " + std::to_string(width));
    if (height < 1)
        throw InputError("--height must be at least 1, got " + std::to_string(height));
    if (width > MaxWidth)
        throw InputError("--width " + std::to_string(width) + " exceeds the supported maximum of "
                         + std::to_string(MaxWidth));
    states_ = checked_state_count(width, height);
    if (states_ == 0)
        throw InputError("a " + std::to_string(width) + "x" + std::to_string(height)
                         + " well has (H+1)^W board ids, which does not fit in 64 bits");
    reciprocal_ = std::uint64_t(((unsigned __int128)1 << 64) / base());
    powers_[0] = 1;
    for (int column = 1; column <= width; ++column)
        powers_[column] = column < width ? powers_[column - 1] * base() : states_;
}

BoardId Geometry::encode(const Heights& heights) const {
    BoardId id = 0;
    for (int column = width_ - 1; column >= 0; --column)
        id = id * base() + static_cast<BoardId>(heights[column]);
    return id;
}

Heights Geometry::decode(BoardId id) const {
    Heights heights{};
    std::uint64_t digit = 0;
    for (int column = 0; column < width_; ++column) {
        id = divide_by_base(id, digit);
        heights[column] = static_cast<int>(digit);
    }
    return heights;
}

int Geometry::height_sum(BoardId id) const {
    int sum = 0;
    std::uint64_t digit = 0;
    for (int column = 0; column < width_; ++column) {
        id = divide_by_base(id, digit);
        sum += static_cast<int>(digit);
    }
    return sum;
}

// Strict: every item is digits only (no sign, no space), items are
// separated by single commas, and there is neither a leading nor a
// trailing comma.
Heights Geometry::parse_heights(const std::string& text) const {
    Heights heights{};
    int column = 0;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        const std::string item = text.substr(begin, end - begin);
        long value = 0;
        const auto [stop, error] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (item.empty() || stop != item.data() + item.size() || error != std::errc() || item[0] == '-')
            throw InputError("board '" + text + "': '" + item + "' is not a height (a whole number, digits only)");
        if (column >= width_)
            throw InputError("board '" + text + "' has more than " + std::to_string(width_)
                             + " columns (the table's width)");
        if (value < 0 || value > height_)
            throw InputError("board '" + text + "': column " + std::to_string(column) + " height "
                             + std::to_string(value) + " is outside [0, " + std::to_string(height_) + "]");
        heights[column++] = static_cast<int>(value);
        if (end == text.size())
            break;
        begin = end + 1;
    }
    if (column != width_)
        throw InputError("board '" + text + "' has " + std::to_string(column) + " columns, the table's width is "
                         + std::to_string(width_));
    return heights;
}

std::string Geometry::format_heights(const Heights& heights) const {
    std::string text;
    for (int column = 0; column < width_; ++column)
        text += (column ? "," : "") + std::to_string(heights[column]);
    return text;
}

}  // namespace stack
