// stackplay --serve: the web viewer. An event-driven HTTP/1.1 server
// (Boost.Beast on Asio) that answers the JSON API (api.h) and serves the
// page (play/web/page/, compiled into the binary by assets.h: no file is
// read from disk).
//
// One thread does all the network work: a connection costs a socket and a
// few kilobytes, never a thread, so clients that send slowly or sit idle
// hold nobody else up. The API's answers are computed on two pools: quick
// ones (/api/moves, /api/table, /api/board) on one, the long ones
// (/api/lengths, /api/game, /api/decide) on another of MostLongJobs
// threads, with at most MostLongJobsInFlight queued or running (more: 503
// with Retry-After), so long requests never delay the quick ones; the quick
// pool takes at most MostQuickJobsInFlight (more: 503 with Retry-After too).
//
// What a client gets (each a status with a JSON body {"error": "..."}):
//   - GET and HEAD only: any other method gets 405 at once and the
//     connection is closed (its body is never read); a GET with a body 413;
//   - a whole request, headers and all, within RequestDeadline of its first
//     byte, or the connection is closed (408 when part of it came);
//   - a request line and headers of at most MostHeaderBytes, a URI of at
//     most MostTargetBytes (431, 414); the absolute form http://HOST/path
//     too;
//   - one Host, naming this server (host_allowed below), else 403: a page
//     on another site that rebinds its name to 127.0.0.1 cannot read the
//     API (two Host headers: 400);
//   - pipelined requests answered in order; an idle kept-alive connection
//     closed after IdleTimeout;
//   - at most MostConnectionsPerAddress connections from one address and
//     MostConnections in all (fewer, with a warning, when the process may
//     not open that many files). A connection past a bound closes one that
//     is closing, or else an idle kept-alive one (the longest idle first),
//     or else one that has sent nothing or a request slowly for over
//     SlowSenderSeconds; when there is none it gets 503 with Retry-After;
//   - after an answer that closes the connection, what the client still
//     sends is read and dropped (for at most LingerTime) rather than
//     resetting the connection under the answer.
// It binds loopback unless told otherwise (and says so on stderr when not),
// and stops within a second of SIGINT or SIGTERM.
#pragma once

#include "web/api.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stack::web {

struct ServeOptions {
    std::string bind = "127.0.0.1";
    int port = 8080;  // 0: any free port
    std::optional<std::string> table;
    // Host names admitted besides localhost and IP addresses ("*": any).
    std::vector<std::string> allowed_hosts;
};

constexpr int MostConnections = 1024;
constexpr int MostConnectionsPerAddress = 128;
constexpr std::chrono::seconds RequestDeadline{5};
constexpr std::chrono::seconds IdleTimeout{10};
constexpr std::chrono::seconds WriteDeadline{10};
constexpr std::chrono::seconds SlowSenderSeconds{1};
constexpr int MostHeaderBytes = 16 * 1024;
constexpr int MostTargetBytes = 8 * 1024;
constexpr int MostLongJobs = 2;
constexpr int MostLongJobsInFlight = 16;
// Quick jobs (/api/moves, /api/table, /api/board) queued or running; past
// it 503 with Retry-After, so a flood of them cannot keep a request waiting
// behind thousands (issue 38: 1,000 connections x 4 pipelined /api/moves).
constexpr int MostQuickJobsInFlight = 64;
constexpr std::chrono::seconds LingerTime{1};
constexpr std::size_t MostErrorBytes = 200;  // of a message quoting the request

// Serves until SIGINT or SIGTERM; prints "serving on http://HOST:PORT/" on
// stderr once listening (with the port chosen when --port 0). Throws
// InputError for a bad table or an address it cannot bind.
int serve(const ServeOptions& options);

// A query string (after '?', still percent-encoded) as parameters: pairs
// split on '&', each name from its value at the first '=' (a value keeps
// any later '='), '+' a space, %XX a byte. A bad escape throws BadRequest.
Parameters parse_query(std::string_view query);

// Is a request's Host header one of this server's names? Its port is not
// compared. Admitted: localhost, any IP address literal (a rebinding page
// has a name, not an address), and the names in `allowed` ("*": any).
bool host_allowed(std::string_view host, const std::vector<std::string>& allowed);

}  // namespace stack::web
