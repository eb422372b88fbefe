// The viewer's HTTP server (web/server.h): its reading of a query and of the
// Host header.
#include "web/api.h"
#include "web/server.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace stack::web {

// The server's own reading of a query: names split from values at the
// first '=' only, escapes decoded, every repeat kept (so Query refuses it).
TEST(WebServer, QueryStringsAreReadWhole) {
    const Parameters parsed = parse_query("board=a%3Db=c&piece=T&empty=&flag&x=1+2&&x=1+2");
    EXPECT_EQ(parsed.find("board")->second, "a=b=c");
    EXPECT_EQ(parsed.find("piece")->second, "T");
    EXPECT_EQ(parsed.find("empty")->second, "");
    EXPECT_EQ(parsed.find("flag")->second, "");
    EXPECT_EQ(parsed.count("x"), 2u);
    EXPECT_EQ(parsed.find("x")->second, "1 2");
    EXPECT_EQ(parse_query("board=%23%2f%2F").find("board")->second, "#//");
    EXPECT_EQ(parse_query("").size(), 0u);
    for (const char* bad : {"board=%", "board=%2", "board=%zz", "%g1=1"})
        EXPECT_THROW(parse_query(bad), BadRequest) << bad;
    // The same name twice with the same value is refused like two values.
    const Api api(std::nullopt);
    EXPECT_THROW(api.moves(parse_query("board=....&board=....")), BadRequest);
    // A value holding '=' reaches the endpoint whole (and is refused for it).
    try {
        api.moves(parse_query("board=..=.&piece=T"));
        ADD_FAILURE() << "a board with '=' was accepted";
    } catch (const BadRequest& error) {
        EXPECT_NE(std::string(error.what()).find("'='"), std::string::npos) << error.what();
    }
}

// A page on another site whose name resolves to 127.0.0.1 sends its own
// name as Host: refused unless allowed; addresses and localhost pass.
TEST(WebServer, HostMustNameThisServer) {
    const std::vector<std::string> none, allowed = {"viewer.lan"};
    for (const char* host :
         {"localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:8080", "[::1]:8080", "[::1]", "192.168.1.20:80"})
        EXPECT_TRUE(host_allowed(host, none)) << host;
    for (const char* host :
         {"evil.example", "evil.example:8080", "localhost.evil.example", "", "[::1", "127.0.0.1.nip.io",
          "[::1]evil.example", "[::1]:80x", "[::1]:", "127.0.0.1:", "127.0.0.1:8o80", "localhost:1234567"})
        EXPECT_FALSE(host_allowed(host, none)) << host;
    EXPECT_TRUE(host_allowed("Viewer.LAN:8080", allowed));
    EXPECT_FALSE(host_allowed("viewer.lan.evil.example", allowed));
    EXPECT_TRUE(host_allowed("anything.example", {"*"}));
}

}  // namespace stack::web
