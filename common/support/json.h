// JSON documents for the tools' --json reports: nlohmann::json, keeping keys
// in insertion order so a report reads in the order the text one prints.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace stack {

using Json = nlohmann::ordered_json;

// The document on one line, then a newline (NaN and infinities are null;
// a string that is not UTF-8, such as a file name, has its bad bytes
// replaced by U+FFFD).
inline std::string json_text(const Json& document) {
    return document.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace stack
