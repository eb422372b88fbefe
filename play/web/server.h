// stackplay --serve: the web viewer. An HTTP server (cpp-httplib) that
// answers the JSON API (api.h) and serves the page (play/web/page/,
// compiled into the binary by assets.h: no file is read from disk).
//
// It binds loopback unless told otherwise. Requests are bounded: a GET
// only, a URI of at most 8 KB, no body, at most MostConnections served at
// once (the rest wait), a slow client cut off after ReadTimeoutSeconds.
// Every error is an HTTP status with a JSON body {"error": "..."}: 400 for
// a bad parameter, 404 for an unknown path or a table asked for without
// one, 405 for another method; the server never stops for a request.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace stack::web {

struct ServeOptions {
    std::string bind = "127.0.0.1";
    int port = 8080;  // 0: any free port
    std::optional<std::string> table;
    bool quiet = false;  // no request log on stderr
};

constexpr int MostConnections = 32;
constexpr int ReadTimeoutSeconds = 5;

// Serves until SIGINT or SIGTERM; prints "serving on http://HOST:PORT/" on
// stderr once listening (with the port chosen when --port 0). Throws
// InputError for a bad table or an address it cannot bind.
int serve(const ServeOptions& options);

}  // namespace stack::web
