// The bench tools' command lines: "--name value" pairs, nothing else.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>

namespace stack::testing {

// The pairs of argv[1..], or nothing when a value is missing.
inline std::optional<std::map<std::string, std::string>> option_pairs(int argc, char** argv) {
    if ((argc - 1) % 2 != 0)
        return std::nullopt;
    std::map<std::string, std::string> pairs;
    for (int i = 1; i + 1 < argc; i += 2)
        pairs[argv[i]] = argv[i + 1];
    return pairs;
}

// The option as a positive integer, 0 when absent or not a number.
inline int positive_option(const std::map<std::string, std::string>& pairs, const std::string& name) {
    const auto found = pairs.find(name);
    if (found == pairs.end())
        return 0;
    try {
        return std::max(0, std::stoi(found->second));
    } catch (const std::exception&) {
        return 0;
    }
}

}  // namespace stack::testing
