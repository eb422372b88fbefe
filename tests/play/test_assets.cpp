// The viewer's page, compiled in (web/assets.h).
#include "web/assets.h"

#include <gtest/gtest.h>

#include <string_view>

namespace stack::web {

TEST(WebAssets, ThePageIsCompiledIn) {
    ASSERT_NE(find_asset("/"), nullptr);
    EXPECT_EQ(find_asset("/"), find_asset("/index.html"));
    EXPECT_NE(find_asset("/index.html")->bytes.find("<html"), std::string_view::npos);
    EXPECT_EQ(find_asset("/../CMakeLists.txt"), nullptr);
    EXPECT_EQ(find_asset("/api.cpp"), nullptr);
    for (std::size_t i = 0; i < asset_count(); ++i)
        EXPECT_FALSE(asset(i).content_type.empty()) << asset(i).path;
}

}  // namespace stack::web
