#include "web/server.h"

#include "support/errors.h"
#include "web/api.h"
#include "web/assets.h"

#include <httplib.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <pthread.h>
#include <thread>

namespace stack::web {

namespace {

void answer_error(httplib::Response& response, int status, const std::string& message) {
    response.status = status;
    response.set_content(json_text(Json{{"error", message}}), "application/json");
}

std::string text_of(const Json& answer) { return json_text(answer); }
std::string text_of(std::string answer) { return answer; }

// Runs one endpoint: its JSON with 200, a BadRequest as 400, no table as
// 404; the time spent goes into a Server-Timing header (the load test reads
// it as the server-side latency).
template <typename Endpoint>
httplib::Server::Handler json_endpoint(Endpoint endpoint) {
    return [endpoint](const httplib::Request& request, httplib::Response& response) {
        const auto start = std::chrono::steady_clock::now();
        try {
            response.set_content(text_of(endpoint(request.params)), "application/json");
        } catch (const BadRequest& error) {
            answer_error(response, 400, error.what());
        } catch (const InputError& error) {
            answer_error(response, 400, error.what());
        } catch (const NoTable& error) {
            answer_error(response, 404, error.what());
        }
        const double milliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        char timing[48];
        std::snprintf(timing, sizeof timing, "app;dur=%.3f", milliseconds);
        response.set_header("Server-Timing", timing);
        response.set_header("Cache-Control", "no-store");
    };
}

void configure(httplib::Server& server, const Api& api) {
    server.new_task_queue = [] { return new httplib::ThreadPool(MostConnections); };
    // httplib's default also sets SO_REUSEPORT, which lets a second server
    // share a port already in use: only SO_REUSEADDR (a restart need not
    // wait for the old sockets to time out).
    server.set_socket_options([](socket_t socket) {
        const int yes = 1;
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    // The headers and the body go out in two writes: without TCP_NODELAY
    // the body waits for the client's delayed ACK (about 40 ms a request on
    // a kept-alive connection).
    server.set_tcp_nodelay(true);
    server.set_read_timeout(ReadTimeoutSeconds);
    server.set_write_timeout(ReadTimeoutSeconds);
    server.set_keep_alive_timeout(ReadTimeoutSeconds);
    server.set_keep_alive_max_count(10000);
    server.set_payload_max_length(4096);
    server.set_default_headers({{"X-Content-Type-Options", "nosniff"}, {"Referrer-Policy", "no-referrer"}});

    server.Get("/api/moves", json_endpoint([&api](const Parameters& p) { return api.moves(p); }));
    server.Get("/api/table", json_endpoint([&api](const Parameters& p) {
                   if (!p.empty())
                       throw BadRequest("/api/table takes no parameters");
                   return api.table();
               }));
    server.Get("/api/board", json_endpoint([&api](const Parameters& p) { return api.board(p); }));
    server.Get("/api/lengths", json_endpoint([&api](const Parameters& p) { return api.lengths(p); }));
    server.Get("/api/game", json_endpoint([&api](const Parameters& p) { return api.game(p); }));
    server.Get("/api/decide", json_endpoint([&api](const Parameters& p) { return api.decide(p); }));
    // The page: only the compiled-in files, never the filesystem.
    server.Get(R"(/[A-Za-z0-9_.\-]*)", [](const httplib::Request& request, httplib::Response& response) {
        const Asset* asset = find_asset(request.path);
        if (!asset)
            return answer_error(response, 404, "no such page: " + printable(request.path, 60));
        response.set_content(asset->bytes.data(), asset->bytes.size(), std::string(asset->content_type).c_str());
        response.set_header("Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    });
    const auto not_allowed = [](const httplib::Request&, httplib::Response& response) {
        answer_error(response, 405, "only GET is served");
        response.set_header("Allow", "GET");
    };
    server.Post(".*", not_allowed);
    server.Put(".*", not_allowed);
    server.Patch(".*", not_allowed);
    server.Delete(".*", not_allowed);
    server.Options(".*", not_allowed);
    // Anything else httplib refuses by itself (an unknown path, a URI too
    // long, a malformed request line) gets a JSON body too.
    server.set_error_handler([](const httplib::Request& request, httplib::Response& response) {
        if (response.body.empty())
            answer_error(response, response.status,
                         response.status == 404 ? "no such path: " + printable(request.path, 60)
                                                : "bad request (status " + std::to_string(response.status) + ")");
    });
    server.set_exception_handler([](const httplib::Request&, httplib::Response& response, std::exception_ptr failure) {
        std::string what = "internal error";
        try {
            std::rethrow_exception(failure);
        } catch (const std::exception& error) {
            what += std::string(": ") + error.what();
        } catch (...) {
        }
        answer_error(response, 500, what);
    });
}

}  // namespace

// SIGINT and SIGTERM are blocked in every thread and taken by one that
// stops the server: httplib's stop() is not safe in a signal handler.
int serve(const ServeOptions& options) {
    const Api api(options.table);
    httplib::Server server;
    configure(server, api);
    const int port = options.port == 0 ? server.bind_to_any_port(options.bind) : options.port;
    if (port < 0 || (options.port != 0 && !server.bind_to_port(options.bind, options.port)))
        throw InputError("cannot listen on " + options.bind + " port " + std::to_string(options.port)
                         + ": the address is in use or not one of this machine's");
    sigset_t stopping;
    sigemptyset(&stopping);
    sigaddset(&stopping, SIGINT);
    sigaddset(&stopping, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopping, nullptr);
    std::thread stopper([&] {
        int signal = 0;
        sigwait(&stopping, &signal);
        server.stop();
    });
    const std::string host = options.bind.find(':') != std::string::npos ? "[" + options.bind + "]" : options.bind;
    std::fprintf(stderr, "stackplay: serving on http://%s:%d/%s (Ctrl-C stops)\n", host.c_str(), port,
                 options.table ? (" with table " + *options.table).c_str() : "");
    const bool listened = server.listen_after_bind();
    if (stopper.joinable()) {
        pthread_kill(stopper.native_handle(), SIGTERM);  // wakes it when the server stopped by itself
        stopper.join();
    }
    return listened ? ExitSuccess : ExitFailure;
}

}  // namespace stack::web
