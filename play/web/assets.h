// The page's files (play/web/page/), compiled into the binary by CMake
// (play/web/embed.cmake writes assets.cpp from them at build time).
#pragma once

#include <cstddef>
#include <string_view>

namespace stack::web {

struct Asset {
    std::string_view path;          // "/index.html", "/app.js", ...
    std::string_view content_type;  // from the extension
    std::string_view bytes;
};

// The asset served at `path` ("/" is "/index.html"), or nullptr.
const Asset* find_asset(std::string_view path);
// All of them, for tests.
std::size_t asset_count();
const Asset& asset(std::size_t index);

}  // namespace stack::web
