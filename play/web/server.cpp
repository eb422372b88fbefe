#include "web/server.h"

#include "support/errors.h"
#include "web/assets.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <array>
#include <functional>
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <sys/resource.h>
#include <thread>

namespace stack::web {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using Response = http::response<http::string_body>;

Parameters parse_query(std::string_view query) {
    const auto decode = [](std::string_view text) {
        std::string out;
        out.reserve(text.size());
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '+') {
                out += ' ';
            } else if (text[i] != '%') {
                out += text[i];
            } else {
                const auto hex = [](char c) {
                    return c >= '0' && c <= '9'   ? c - '0'
                           : c >= 'a' && c <= 'f' ? c - 'a' + 10
                           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                  : -1;
                };
                const int high = i + 2 < text.size() ? hex(text[i + 1]) : -1;
                const int low = i + 2 < text.size() ? hex(text[i + 2]) : -1;
                if (high < 0 || low < 0)
                    throw BadRequest("bad percent-escape in the query: '" + printable(text.substr(i, 3), 3)
                                     + "' (a % needs two hex digits)");
                out += char(high * 16 + low);
                i += 2;
            }
        }
        return out;
    };
    Parameters parameters;
    while (!query.empty()) {
        const std::size_t end = std::min(query.find('&'), query.size());
        const std::string_view pair = query.substr(0, end);
        query.remove_prefix(std::min(end + 1, query.size()));
        if (pair.empty())
            continue;
        const std::size_t equals = std::min(pair.find('='), pair.size());
        parameters.emplace(decode(pair.substr(0, equals)), decode(pair.substr(std::min(equals + 1, pair.size()))));
    }
    return parameters;
}

bool host_allowed(std::string_view host, const std::vector<std::string>& allowed) {
    if (host.empty())
        return false;
    // The whole Host: a name or address, then nothing or ":PORT" (digits).
    std::string name;
    std::string_view rest;
    if (host.front() == '[') {  // an IPv6 literal, [::1]:8080
        const std::size_t close = host.find(']');
        if (close == std::string_view::npos)
            return false;
        name = host.substr(1, close - 1);
        rest = host.substr(close + 1);
    } else {
        const std::size_t colon = std::min(host.rfind(':'), host.size());
        name = host.substr(0, colon);
        rest = host.substr(colon);
    }
    if (!rest.empty()
        && (rest.front() != ':' || rest.size() < 2 || rest.size() > 6
            || !std::all_of(rest.begin() + 1, rest.end(), [](unsigned char c) { return std::isdigit(c); })))
        return false;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    boost::system::error_code error;
    asio::ip::make_address(name, error);
    if (!error || name == "localhost")
        return true;
    return std::any_of(allowed.begin(), allowed.end(), [&](const std::string& entry) {
        return entry == "*" || std::equal(entry.begin(), entry.end(), name.begin(), name.end(), [](char a, char b) {
                   return std::tolower(a) == std::tolower(b);
               });
    });
}

namespace {

// Beast 1.74 has its own string_view.
std::string_view view(beast::string_view text) { return {text.data(), text.size()}; }

Response error_response(http::status status, const std::string& message) {
    Response response{status, 11};
    // The message may quote the request: at most MostErrorBytes of it.
    const std::string bounded =
        message.size() > MostErrorBytes ? message.substr(0, MostErrorBytes) + "... (cut)" : message;
    response.body() = json_text(Json{{"error", bounded}});
    response.set(http::field::content_type, "application/json");
    return response;
}

std::string text_of(const Json& answer) { return json_text(answer); }
std::string text_of(std::string answer) { return answer; }

// Where an endpoint runs: Inline on the network thread itself (answers
// under a millisecond that read no board's moves: they never queue behind
// a flood of searches, issue 38), Quick and Long on their pools.
enum class Pool : std::uint8_t { Inline, Quick, Long };

// One API endpoint: the pool it runs on and the function that answers it.
struct Endpoint {
    Pool pool;
    std::function<std::string(const Api&, const Parameters&)> answer;
};

template <typename Method>
Endpoint endpoint(Pool pool, Method method) {
    return {pool,
            [method](const Api& api, const Parameters& parameters) { return text_of((api.*method)(parameters)); }};
}

const std::map<std::string, Endpoint, std::less<>>& endpoints() {
    static const std::map<std::string, Endpoint, std::less<>> table = {
        {"/api/moves", endpoint(Pool::Quick, &Api::moves)},
        {"/api/table",
         {Pool::Inline,
          [](const Api& api, const Parameters& parameters) {
              if (!parameters.empty())
                  throw BadRequest("/api/table takes no parameters");
              return json_text(api.table());
          }}},
        {"/api/board", endpoint(Pool::Inline, &Api::board)},  // under a millisecond: no search
        {"/api/lengths", endpoint(Pool::Long, &Api::lengths)},
        {"/api/game", endpoint(Pool::Long, &Api::game)},
        {"/api/decide", endpoint(Pool::Long, &Api::decide)},
    };
    return table;
}

// Runs one endpoint: its JSON with 200, a BadRequest as 400, no table as
// 404, anything else 500; the time spent goes into a Server-Timing header
// (the load test reads it as the server-side latency).
Response run_endpoint(const Endpoint& endpoint, const Api& api, const Parameters& parameters) {
    const auto start = Clock::now();
    Response response{http::status::ok, 11};
    try {
        response.body() = endpoint.answer(api, parameters);
        response.set(http::field::content_type, "application/json");
    } catch (const BadRequest& error) {
        response = error_response(http::status::bad_request, error.what());
    } catch (const InputError& error) {
        response = error_response(http::status::bad_request, error.what());
    } catch (const NoTable& error) {
        response = error_response(http::status::not_found, error.what());
    } catch (const std::exception& error) {
        response = error_response(http::status::internal_server_error, std::string("internal error: ") + error.what());
    }
    char timing[48];
    std::snprintf(timing, sizeof timing, "app;dur=%.3f",
                  std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    response.set("Server-Timing", timing);
    response.set(http::field::cache_control, "no-store");
    return response;
}

class Session;

// Everything the network thread shares: the API, the pools, the allowed
// host names and the open connections (touched by that thread only).
struct Server {
    Server(const ServeOptions& options, asio::io_context& io)
        : api(options.table), io(io), acceptor(io), quick_pool(std::max(2u, std::thread::hardware_concurrency())),
          long_pool(MostLongJobs), allowed_hosts(options.allowed_hosts) {}

    Api api;
    asio::io_context& io;
    tcp::acceptor acceptor;
    asio::thread_pool quick_pool, long_pool;
    std::vector<std::string> allowed_hosts;
    std::list<std::shared_ptr<Session>> sessions;
    std::map<asio::ip::address, int> per_address;
    int long_jobs_in_flight = 0;             // queued or running on long_pool
    int quick_jobs_in_flight = 0;            // queued or running on quick_pool
    int most_connections = MostConnections;  // fewer when descriptors are short
    bool stopping = false;

    // The long jobs running, for the shutdown's wait: once `stopped` is set
    // (under the mutex) no queued job starts.
    std::mutex running_mutex;
    std::condition_variable running_done;
    int running_long_jobs = 0;
    bool stopped = false;

    void accept();
    bool make_room(const asio::ip::address& address, bool& address_full);
    void stop();
};

// One connection. Its states, and what may close it:
//   Idle     waiting for a request: IdleTimeout; a newcomer's need of room
//            once it has been answered (a kept-alive connection), or once
//            it is over SlowSenderSeconds old (a new one that sends nothing)
//   Reading  a request arriving: RequestDeadline from its first byte, or a
//            newcomer's need once it is over SlowSenderSeconds old
//   Busy     its answer being computed (no deadline: the work is bounded)
//   Writing  its answer going out: WriteDeadline
//   Closing  answered, our side shut: what the client still sends is read
//            and dropped until it closes too, for at most LingerTime (a
//            close with unread data would reset the connection and could
//            destroy the answer in flight); a newcomer's need
class Session : public std::enable_shared_from_this<Session> {
public:
    enum class State : std::uint8_t { Idle, Reading, Busy, Writing, Closing, Closed };

    Session(Server& server, tcp::socket socket, asio::ip::address address)
        : server_(server), socket_(std::move(socket)), timer_(server.io), address_(address),
          buffer_(MostHeaderBytes + 4096) {}

    const asio::ip::address& address() const { return address_; }
    State state() const { return state_; }
    Clock::time_point since() const { return since_; }
    bool answered_before() const { return answered_before_; }

    void start(std::list<std::shared_ptr<Session>>::iterator self) {
        self_ = self;
        wait_for_request();
    }

    // A newcomer had no room: answer 503 and close.
    void refuse(bool address_full) {
        Response response = error_response(
            http::status::service_unavailable,
            address_full ? "too many connections from this address; try again" : "too many connections; try again");
        response.set(http::field::retry_after, "1");
        answer(std::move(response), true);
    }

    void close() {
        if (state_ == State::Closed)
            return;
        state_ = State::Closed;
        boost::system::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_both, ignored);
        socket_.close(ignored);
        timer_.cancel();
        if (registered_) {
            registered_ = false;
            if (--server_.per_address[address_] == 0)
                server_.per_address.erase(address_);
            server_.sessions.erase(self_);  // may drop the last owner but one: the caller holds another
        }
    }

    void mark_registered() { registered_ = true; }

private:
    void enter(State state, Clock::duration limit) {
        state_ = state;
        since_ = Clock::now();
        arm(limit);
    }

    // The state's deadline: when it passes, the connection closes (a
    // request cut short first gets 408).
    void arm(Clock::duration limit) {
        timer_.expires_after(limit);
        timer_.async_wait([self = shared_from_this(), generation = ++generation_](boost::system::error_code error) {
            if (error || generation != self->generation_ || self->state_ == State::Closed)
                return;
            if (self->state_ == State::Reading && self->parser_ && self->parser_->got_some()) {
                self->state_ = State::Busy;  // nothing more is read
                boost::system::error_code ignored;
                self->socket_.cancel(ignored);
                self->answer(
                    error_response(http::status::request_timeout,
                                   "the request took over " + std::to_string(RequestDeadline.count()) + " s to arrive"),
                    true);
            } else {
                self->close();
            }
        });
    }

    void disarm() {
        ++generation_;
        timer_.cancel();
    }

    // Between requests: the next one may already be in the buffer (sent
    // pipelined); else wait for its first byte.
    void wait_for_request() {
        if (buffer_.size() > 0)
            return read_request();
        enter(State::Idle, IdleTimeout);
        socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](boost::system::error_code error) {
            if (error || self->state_ != State::Idle)
                return self->close();
            self->read_request();
        });
    }

    void read_request() {
        enter(State::Reading, RequestDeadline);
        parser_.emplace();
        parser_->header_limit(MostHeaderBytes);
        // Never read: a body gets 405 or 413 from its header. (Not none:
        // Beast 1.74 compares a length above an empty limit as exceeding.)
        parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
        http::async_read_header(
            socket_, buffer_, *parser_,
            [self = shared_from_this()](boost::system::error_code error, std::size_t) { self->on_header(error); });
    }

    void on_header(boost::system::error_code error) {
        if (state_ != State::Reading)
            return;  // closed, or timed out and answered
        if (error == http::error::header_limit)
            return answer(
                error_response(http::status::request_header_fields_too_large,
                               "the request line and headers are over " + std::to_string(MostHeaderBytes) + " bytes"),
                true);
        if (error == http::error::end_of_stream || error == asio::error::eof || error == asio::error::operation_aborted
            || error == asio::error::connection_reset || error == http::error::partial_message)
            return close();
        if (error)
            return answer(error_response(http::status::bad_request, "malformed request: " + error.message()), true);
        const http::request<http::empty_body>& request = parser_->get();
        if (request.method() != http::verb::get && request.method() != http::verb::head) {
            Response response = error_response(http::status::method_not_allowed, "only GET and HEAD are served");
            response.set(http::field::allow, "GET, HEAD");
            return answer(std::move(response), true);
        }
        // Any Transfer-Encoding announces a body (and one not ending in
        // chunked leaves its length unknown): refused like a length.
        if (parser_->content_length().value_or(0) > 0 || request.count(http::field::transfer_encoding))
            return answer(error_response(http::status::payload_too_large, "a request here has no body"), true);
        head_ = request.method() == http::verb::head;
        keep_alive_ = request.keep_alive();
        version_ = request.version();
        std::string_view target = view(request.target());
        std::optional<std::string_view> host;
        if (request.count(http::field::host) > 1)
            return answer(error_response(http::status::bad_request, "more than one Host header"), true);
        if (request.count(http::field::host) == 1)
            host = view(request.find(http::field::host)->value());
        // The absolute form (http://HOST/path, as sent to a proxy) names
        // the host in the target, which then stands for the Host header.
        if (target.substr(0, 7) == "http://") {
            const std::size_t slash = std::min(target.find('/', 7), target.size());
            host = target.substr(7, slash - 7);
            target = slash < target.size() ? target.substr(slash) : "/";
        }
        if (!host && version_ >= 11)
            return answer(error_response(http::status::bad_request, "an HTTP/1.1 request needs a Host header"), true);
        if (host && !host_allowed(*host, server_.allowed_hosts))
            return answer(
                error_response(http::status::forbidden,
                               "Host '" + printable(*host, 60)
                                   + "' is not this server's (stackplay --serve --allow-host NAME admits it)"),
                false);
        route(target);
    }

    void route(std::string_view target) {
        if (target.size() > std::size_t(MostTargetBytes))
            return answer(error_response(http::status::uri_too_long,
                                         "the URI is over " + std::to_string(MostTargetBytes) + " bytes"),
                          false);
        if (target.find('#') != std::string_view::npos)
            return answer(error_response(http::status::bad_request,
                                         "a '#' has no place in a request target (a fragment stays in the browser; "
                                         "write %23 for the character)"),
                          false);
        const std::size_t mark = std::min(target.find('?'), target.size());
        const std::string_view path = target.substr(0, mark);
        const std::string_view query = target.substr(std::min(mark + 1, target.size()));
        const auto api = endpoints().find(path);
        if (api == endpoints().end())
            return answer_page(path);
        Parameters parameters;
        try {
            parameters = parse_query(query);
        } catch (const BadRequest& bad) {
            return answer(error_response(http::status::bad_request, bad.what()), false);
        }
        compute(api->second, std::move(parameters));
    }

    // The page: only the compiled-in files, never the filesystem. A query
    // (a cache-buster) changes nothing.
    void answer_page(std::string_view path) {
        const Asset* asset = find_asset(std::string(path));
        if (!asset)
            return answer(error_response(http::status::not_found,
                                         (path.substr(0, 5) == "/api/" ? "no such endpoint: " : "no such page: ")
                                             + printable(path, 60)),
                          false);
        Response response{http::status::ok, 11};
        response.body().assign(asset->bytes.data(), asset->bytes.size());
        response.set(http::field::content_type,
                     beast::string_view(asset->content_type.data(), asset->content_type.size()));
        response.set("Content-Security-Policy",
                     "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
        answer(std::move(response), false);
    }

    // Inline endpoints at once; off the network thread, quick endpoints on
    // one pool, long ones on the other, each refused (503, Retry-After) while its pool has its most
    // jobs queued or running (MostQuickJobsInFlight, MostLongJobsInFlight).
    void compute(const Endpoint& endpoint, Parameters parameters) {
        if (endpoint.pool == Pool::Inline)
            return answer(run_endpoint(endpoint, server_.api, parameters), false);
        const bool long_job = endpoint.pool == Pool::Long;
        if (long_job ? server_.long_jobs_in_flight >= MostLongJobsInFlight
                     : server_.quick_jobs_in_flight >= MostQuickJobsInFlight) {
            Response busy = error_response(http::status::service_unavailable,
                                           long_job ? "the server is busy with long requests; try again in a second"
                                                    : "the server is busy with quick requests (over "
                                                          + std::to_string(MostQuickJobsInFlight)
                                                          + " waiting); try again in a second");
            busy.set(http::field::retry_after, "1");
            return answer(std::move(busy), false);
        }
        state_ = State::Busy;
        disarm();
        server_.long_jobs_in_flight += long_job;
        server_.quick_jobs_in_flight += !long_job;
        auto job = [self = shared_from_this(), &endpoint, parameters = std::move(parameters), long_job]() mutable {
            Server& server = self->server_;
            if (long_job) {
                const std::lock_guard lock(server.running_mutex);
                if (server.stopped)
                    return;
                ++server.running_long_jobs;
            }
            auto response = std::make_shared<Response>(run_endpoint(endpoint, server.api, parameters));
            if (long_job) {
                const std::lock_guard lock(server.running_mutex);
                --server.running_long_jobs;
                server.running_done.notify_all();
            }
            asio::post(server.io, [self = std::move(self), response, long_job] {
                self->server_.long_jobs_in_flight -= long_job;
                self->server_.quick_jobs_in_flight -= !long_job;
                if (self->state_ == State::Busy)
                    self->answer(std::move(*response), false);
            });
        };
        if (long_job)
            asio::post(server_.long_pool, std::move(job));
        else
            asio::post(server_.quick_pool, std::move(job));
    }

    // Writes one answer (headers only for HEAD); then the next request, or
    // the end of the connection.
    void answer(Response response, bool then_close) {
        if (state_ == State::Closed)
            return;
        close_after_ = then_close || !keep_alive_ || server_.stopping;
        response.set("X-Content-Type-Options", "nosniff");
        response.set("Referrer-Policy", "no-referrer");
        response.keep_alive(!close_after_);
        if (version_ < 11 && !close_after_)
            response.set(http::field::connection, "keep-alive");  // a 1.0 client keeps only when told
        response.prepare_payload();
        if (head_)
            response.body().clear();  // Content-Length stays the body's
        response_ = std::make_unique<Response>(std::move(response));
        enter(State::Writing, WriteDeadline);
        serializer_.emplace(*response_);
        if (head_)
            serializer_->split(true);
        const auto done = [self = shared_from_this()](boost::system::error_code error, std::size_t) {
            self->on_written(error);
        };
        if (head_)
            http::async_write_header(socket_, *serializer_, done);
        else
            http::async_write(socket_, *serializer_, done);
    }

    void on_written(boost::system::error_code error) {
        serializer_.reset();
        response_.reset();
        parser_.reset();
        head_ = false;
        answered_before_ = true;
        if (error || state_ != State::Writing)
            return close();
        if (close_after_)
            return linger();
        keep_alive_ = true;
        wait_for_request();
    }

    void linger() {
        boost::system::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_send, ignored);
        buffer_.clear();
        enter(State::Closing, LingerTime);
        drain();
    }

    void drain() {
        static std::array<char, 16384> dropped;  // read into by the network thread only, and never read
        socket_.async_read_some(asio::buffer(dropped),
                                [self = shared_from_this()](boost::system::error_code error, std::size_t) {
                                    if (error || self->state_ != State::Closing)
                                        return self->close();
                                    self->drain();
                                });
    }

    Server& server_;
    tcp::socket socket_;
    asio::steady_timer timer_;
    asio::ip::address address_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::empty_body>> parser_;
    std::unique_ptr<Response> response_;
    std::optional<http::response_serializer<http::string_body>> serializer_;
    std::list<std::shared_ptr<Session>>::iterator self_;
    State state_ = State::Idle;
    Clock::time_point since_ = Clock::now();
    std::uint64_t generation_ = 0;
    unsigned version_ = 11;
    bool registered_ = false, head_ = false, keep_alive_ = true, close_after_ = false, answered_before_ = false;
};

// Room for one more connection from `address`: within both bounds, or made
// by closing one among those the bound counts (the address's own when that
// bound is met): one closing, else the longest idle of those answered
// before, else the oldest of those sending nothing or a request slowly for
// over SlowSenderSeconds. A connection just accepted is not idle yet: a
// burst of newcomers must not close each other before they are read.
bool Server::make_room(const asio::ip::address& address, bool& address_full) {
    address_full = per_address[address] >= MostConnectionsPerAddress;
    if (per_address[address] == 0)
        per_address.erase(address);
    if (!address_full && int(sessions.size()) < most_connections)
        return true;
    const Clock::time_point slow = Clock::now() - SlowSenderSeconds;
    std::shared_ptr<Session> closing, idle, sending;
    const auto older = [](const std::shared_ptr<Session>& a, const std::shared_ptr<Session>& b) {
        return !b || a->since() < b->since();
    };
    for (const std::shared_ptr<Session>& session : sessions) {
        if (address_full && session->address() != address)
            continue;
        const Session::State state = session->state();
        if (state == Session::State::Closing && older(session, closing))
            closing = session;
        else if (state == Session::State::Idle && session->answered_before() && older(session, idle))
            idle = session;
        else if ((state == Session::State::Reading || state == Session::State::Idle) && session->since() < slow
                 && older(session, sending))
            sending = session;
    }
    const std::shared_ptr<Session> victim = closing ? closing : idle ? idle : sending;
    if (!victim)
        return false;
    victim->close();
    return true;
}

void Server::accept() {
    acceptor.async_accept([this](boost::system::error_code error, tcp::socket socket) {
        if (stopping)
            return;
        if (error) {
            // Out of descriptors (or a connection reset while queued): wait
            // a moment rather than spin.
            auto timer = std::make_shared<asio::steady_timer>(io, std::chrono::milliseconds(50));
            timer->async_wait([this, timer](boost::system::error_code) { accept(); });
            return;
        }
        boost::system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        const tcp::endpoint remote = socket.remote_endpoint(ignored);
        const asio::ip::address address = remote.address();
        auto session = std::make_shared<Session>(*this, std::move(socket), address);
        bool address_full = false;
        if (!make_room(address, address_full)) {
            session->refuse(address_full);
        } else {
            sessions.push_front(session);
            ++per_address[address];
            session->mark_registered();
            session->start(sessions.begin());
        }
        accept();
    });
}

void Server::stop() {
    stopping = true;
    boost::system::error_code ignored;
    acceptor.close(ignored);
    while (!sessions.empty()) {
        const std::shared_ptr<Session> session = sessions.front();
        session->close();
    }
}

// Opens the listening socket on the first address the name resolves to
// (an InputError when it cannot).
void listen(asio::io_context& io, tcp::acceptor& acceptor, const ServeOptions& options) {
    boost::system::error_code error;
    tcp::resolver resolver(io);
    const auto found = resolver.resolve(options.bind, std::to_string(options.port),
                                        tcp::resolver::passive | tcp::resolver::numeric_service, error);
    if (error || found.empty())
        throw InputError("cannot listen on " + printable(options.bind, 60) + " port " + std::to_string(options.port)
                         + ": not an address of this machine (" + error.message() + ")");
    const tcp::endpoint endpoint = found.begin()->endpoint();
    // Only SO_REUSEADDR (a restart need not wait for the old sockets to
    // time out), never SO_REUSEPORT, which would let a second server share
    // a port already in use.
    if (!acceptor.open(endpoint.protocol(), error) && !acceptor.set_option(tcp::acceptor::reuse_address(true), error)
        && !acceptor.bind(endpoint, error) && !acceptor.listen(asio::socket_base::max_listen_connections, error))
        return;
    throw InputError("cannot listen on " + options.bind + " port " + std::to_string(options.port) + ": "
                     + error.message());
}

// Enough descriptors for MostConnections (the soft limit is often 1,024):
// the connections the server can hold, fewer (with a warning) when the hard
// limit is lower, so the bounds still apply before accept() runs out.
int raise_descriptor_limit() {
    constexpr rlim_t Spare = 64;  // the table's file, the pools, the listener
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return MostConnections;
    if (limit.rlim_cur < rlim_t(MostConnections) + Spare) {
        limit.rlim_cur = std::min<rlim_t>(limit.rlim_max, rlim_t(MostConnections) + Spare);
        setrlimit(RLIMIT_NOFILE, &limit);
        getrlimit(RLIMIT_NOFILE, &limit);
    }
    if (limit.rlim_cur >= rlim_t(MostConnections) + Spare)
        return MostConnections;
    const int most = std::max(16, int(limit.rlim_cur) - int(Spare));
    std::fprintf(stderr, "stackplay: warning: %llu file descriptors allowed: serving at most %d connections, not %d\n",
                 (unsigned long long)limit.rlim_cur, most, MostConnections);
    return most;
}

}  // namespace

// The network runs on this thread; SIGINT or SIGTERM closes every
// connection and ends it. A long computation still running then is given
// half a second, and past that abandoned: the process exits without
// waiting for it (it writes nothing), so the server stops within a second.
int serve(const ServeOptions& options) {
    const int most_connections = raise_descriptor_limit();
    asio::io_context io(1);
    Server server(options, io);
    server.most_connections = most_connections;
    listen(io, server.acceptor, options);
    const tcp::endpoint local = server.acceptor.local_endpoint();
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code error, int) {
        if (!error) {
            server.stop();
            io.stop();
        }
    });
    server.accept();

    const std::string host =
        local.address().is_v6() ? "[" + local.address().to_string() + "]" : local.address().to_string();
    if (!local.address().is_loopback())
        std::fprintf(stderr,
                     "stackplay: warning: listening on %s, beyond loopback: anyone who can reach this machine "
                     "can use the server (its Host must be an address, localhost or an --allow-host name)\n",
                     host.c_str());
    std::fprintf(stderr, "stackplay: serving on http://%s:%d/%s (Ctrl-C stops)\n", host.c_str(), int(local.port()),
                 options.table ? (" with table " + *options.table).c_str() : "");
    io.run();

    server.quick_pool.stop();
    server.long_pool.stop();
    server.quick_pool.join();
    std::unique_lock lock(server.running_mutex);
    server.stopped = true;
    if (!server.running_done.wait_for(lock, std::chrono::milliseconds(500),
                                      [&] { return server.running_long_jobs == 0; })) {
        std::fprintf(stderr, "stackplay: stopped, abandoning %d long computation(s)\n", server.running_long_jobs);
        std::fflush(stderr);
        std::_Exit(ExitSuccess);
    }
    lock.unlock();
    server.long_pool.join();
    std::fprintf(stderr, "stackplay: stopped\n");
    return ExitSuccess;
}

}  // namespace stack::web
