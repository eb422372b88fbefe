#!/usr/bin/env bash
# The web viewer's server (stackplay --serve) over HTTP, one subcommand each.
#   web.sh options TABLE   --serve's options: bad ones refused with one line, exit 2
#   web.sh http TABLE      statuses and JSON errors of hostile requests; the
#                          answers against the command line's; still answering after
# Environment: BIN (build dir)
source "$(dirname "$0")/lib.sh"
command=$1; table=$2; shift 2

# start_server ARGS...: starts stackplay --serve on a free loopback port;
# sets $url and $server (its pid), stopped when the script exits.
start_server() {
    "$stackplay" --serve --port 0 "$@" 2> "$work/server.err" &
    server=$!
    trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
    for _ in $(seq 100); do
        url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/server.err" | head -n 1)
        [ -n "$url" ] && return 0
        sleep 0.1
    done
    echo "FAIL: the server did not start"; cat "$work/server.err"; exit 1
}

# expect_status CODE PATH [CURL ARGS...]: the answer's status, and a JSON
# body with an "error" for every 4xx.
expect_status() {
    local expected=$1 path=$2; shift 2
    local status
    status=$(curl -s -o "$work/body" -w '%{http_code}' "$@" "$url$path")
    if [ "$status" != "$expected" ]; then
        fail "$path -> $status (expected $expected): $(head -c 200 "$work/body")"
    elif [ "${expected:0:1}" = 4 ] && ! "$python" -c "import json; d = json.load(open('$work/body')); assert d['error']" 2>/dev/null; then
        fail "$path -> $status without a JSON error: $(head -c 200 "$work/body")"
    else
        pass
    fi
}

case "$command" in
options)
    expect_error 2 "^stackplay: error: --port must be" "$stackplay" --serve --port 65536
    expect_error 2 "^stackplay: error: --port must be" "$stackplay" --serve --port -1
    expect_error 2 "^stackplay: error: --port must be" "$stackplay" --serve --port 80x
    expect_error 2 "^stackplay: error: --runs is not for --serve" "$stackplay" --serve --runs 5
    expect_error 2 "^stackplay: error: --game is not for --serve" "$stackplay" --serve --game tetris
    expect_error 2 "^stackplay: error: --port is for --serve$" "$stackplay" --port 8080
    expect_error 2 "^stackplay: error: --bind is for --serve$" "$stackplay" --bind 0.0.0.0
    expect_error 2 "^stackplay: error: --bind must name an address" "$stackplay" --serve --bind ""
    expect_error 2 "^stackplay: error: cannot listen on 192.0.2.1 port 0" timeout 10 "$stackplay" --serve --port 0 --bind 192.0.2.1
    expect_error 2 "^stackplay: error: cannot listen on nowhere.invalid port 0" timeout 10 "$stackplay" --serve --port 0 --bind nowhere.invalid
    expect_error 2 "^stackplay: error: .*FILE" "$stackplay" --serve --table "$work/missing.h5"
    expect_error 2 "^stackplay: error: --allow-host takes a host name" "$stackplay" --serve --allow-host "evil:80"
    expect_error 2 "^stackplay: error: --allow-host is for --serve$" "$stackplay" --allow-host x.example
    # Bound beyond loopback, the server says so before it serves.
    "$stackplay" --serve --port 0 --bind 0.0.0.0 2> "$work/wide.err" &
    wide=$!
    for _ in $(seq 50); do grep -q "serving on" "$work/wide.err" && break; sleep 0.1; done
    kill -TERM "$wide"; wait "$wide" || true
    grep -q "^stackplay: warning: listening on 0.0.0.0, beyond loopback" "$work/wide.err" && pass \
        || fail "no warning line for --bind 0.0.0.0: $(head -c 300 "$work/wide.err")"
    # Allowed fewer files than connections: it says how many it will serve.
    prlimit --nofile=256 "$stackplay" --serve --port 0 2> "$work/few.err" &
    few=$!
    for _ in $(seq 50); do grep -q "serving on" "$work/few.err" && break; sleep 0.1; done
    kill -TERM "$few"; wait "$few" || true
    grep -q "^stackplay: warning: 256 file descriptors allowed: serving at most 192 connections" "$work/few.err" \
        && pass || fail "no warning line under 256 descriptors: $(head -c 300 "$work/few.err")"
    # A port in use is refused, not shared.
    start_server
    port=${url##*:}
    expect_error 2 "^stackplay: error: cannot listen on 127.0.0.1 port $port" timeout 10 "$stackplay" --serve --port "$port"
    "$stackplay" --help > "$work/help"  # whole, not piped into grep -q (which may stop reading early)
    grep -q -- "--bind" "$work/help" && pass || fail "--help does not tell --bind"
    grep -q "must be asked for" "$work/help" && pass || fail "--help does not say other addresses must be asked for"
    ;;
http)
    start_server --table "$table"
    grep -q "^stackplay: serving on http://127.0.0.1:[0-9]*/ with table" "$work/server.err" && pass || fail "no serving line"
    expect_status 200 "/"
    expect_status 200 "/index.html"
    expect_status 200 "/app.js"
    expect_status 404 "/../CMakeLists.txt" --path-as-is
    expect_status 404 "/%2e%2e/CMakeLists.txt" --path-as-is
    expect_status 404 "/api/nothing"
    expect_status 404 "/etc/passwd"
    expect_status 405 "/api/moves" -X POST -d board=x
    expect_status 405 "/" -X DELETE
    expect_status 400 "/api/moves"
    expect_status 400 "/api/moves?board=....%2F..."
    expect_status 400 "/api/moves?board=%FF%FE..%2F...."
    expect_status 400 "/api/moves?board=..........&piece=Q"
    expect_status 400 "/api/moves?board=..........&algorithm=dfs"
    expect_status 400 "/api/moves?board=..........&board=%23........."
    expect_status 400 "/api/moves?board=..........&events=yes"
    expect_status 400 "/api/moves?board=$(printf '.%.0s' $(seq 17))"
    expect_status 400 "/api/moves?board=$(printf '....%%2F%.0s' $(seq 64))...."
    expect_status 400 "/api/board?heights=1,0,0"
    expect_status 400 "/api/board?heights=99999999999999999999,0,0,0"
    expect_status 400 "/api/lengths?games=1000000"
    expect_status 400 "/api/game?policy=%00"
    expect_status 400 "/api/game?game=tetris&pieces=100000"
    expect_status 400 "/api/table?x=1"
    expect_status 400 "/api/moves?board=....&board=...."  # a repeat, even of the same value
    expect_status 413 "/api/moves?board=...." -X GET -H "Content-Length: 3" --data-binary abc
    expect_status 403 "/api/table" -H "Host: evil.example"
    expect_status 200 "/api/table" -H "Host: localhost:1"
    expect_status 200 "/api/table" --head
    expect_status 200 "/api/table"
    grep -q '"file":"np4.h5"' "$work/body" && ! grep -q '"path"' "$work/body" && pass \
        || fail "/api/table shows more than the table's file name: $(head -c 300 "$work/body")"
    # An error quoting a long request quotes a bounded part of it.
    expect_status 400 "/api/moves?board=$(head -c 6000 /dev/zero | tr '\0' 'x')"
    [ "$(wc -c < "$work/body")" -lt 400 ] && pass || fail "an error of $(wc -c < "$work/body") bytes"
    long=$(head -c 9000 /dev/zero | tr '\0' '.')
    status=$(curl -s -o /dev/null -w '%{http_code}' "$url/api/moves?board=$long")
    [ "$status" = 414 ] || [ "$status" = 400 ] && pass || fail "a 9 KB URI -> $status"
    # Not HTTP at all, and a request cut short: the server goes on.
    port=${url##*:}
    printf 'garbage\r\n\r\n' | timeout 5 "$python" -c "
import socket, sys
s = socket.create_connection(('127.0.0.1', $port)); s.sendall(sys.stdin.buffer.read()); s.settimeout(5)
print(s.recv(100)[:12])" > "$work/raw" 2>&1; grep -q "400" "$work/raw" && pass || fail "garbage: $(cat "$work/raw")"
    timeout 5 "$python" -c "
import socket
s = socket.create_connection(('127.0.0.1', $port)); s.sendall(b'GET /api/moves?bo'); s.close()"
    # raw REQUEST EXPECTED: the status line's code of a request written as is.
    raw() {
        printf "$1" | timeout 5 "$python" -c "
import socket, sys
s = socket.create_connection(('127.0.0.1', $port)); s.sendall(sys.stdin.buffer.read()); s.settimeout(5)
print(s.recv(100).split(b' ')[1].decode())" > "$work/raw" 2>&1
        [ "$(cat "$work/raw")" = "$2" ] && pass || fail "raw request $1 -> $(head -c 200 "$work/raw") (expected $2)"
    }
    raw 'GET /api/table HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n' 400
    raw 'GET http://localhost/api/table HTTP/1.1\r\nHost: other\r\n\r\n' 200
    raw 'GET http://evil.example/api/table HTTP/1.1\r\nHost: localhost\r\n\r\n' 403
    raw 'GET /api/table HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n' 413
    raw 'POST /api/table HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000000\r\n\r\n' 405
    raw 'GET /api/table HTTP/1.0\r\n\r\n' 200
    # A raw '#' in the target, and a Host with more than a name and a port.
    raw 'GET /api/moves?board=.#..&piece=T HTTP/1.1\r\nHost: localhost\r\n\r\n' 400
    raw 'GET /api/table#x HTTP/1.1\r\nHost: localhost\r\n\r\n' 400
    raw 'GET /api/table HTTP/1.1\r\nHost: [::1]evil.example\r\n\r\n' 403
    raw 'GET /api/table HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n' 200
    # The answers are the command line's: the table's value and the board's placements.
    curl -s "$url/api/board?heights=1,0,0,0" > "$work/board.json"
    "$stackplay" --table "$table" --explain --board 1,0,0,0 --json > "$work/explain.json"
    "$python" -c "
import json
web = json.load(open('$work/board.json')); cli = json.load(open('$work/explain.json'))['board']
assert web['value'] == cli['value'], (web['value'], cli['value'])
assert web['pieces'] == cli['pieces']" && pass || fail "/api/board differs from --explain --json"
    shaft=$(for _ in $(seq 19); do printf '%%23%%23%%23....%%23%%23%%23%%2F'; done; printf '%%23%%23%%23.%%23%%23%%23%%23%%23%%23')
    for pair in bfs:17 convolution:17 convolution-seed:11 harddrop:; do
        algorithm=${pair%%:*} expected=${pair##*:}
        count=$(curl -s "$url/api/moves?board=$shaft&piece=I&algorithm=$algorithm&events=0" \
                | "$python" -c "import json, sys; print(json.load(sys.stdin)['counts']['placements'])")
        [ -z "$expected" ] || [ "$count" = "$expected" ] && pass || fail "$algorithm on the shaft: $count placements, expected $expected"
    done
    # /api/decide is the command line's decision mode: the same JSON, less
    # the run's seconds and the board file's name.
    printf '%s\n' .......... .......... .......... .......... .......... .......... .......... \
        .......... .......... .......... .......... .......... .......... .......... '#.........' \
        '##....#...' '###..###..' '####.####.' '#####.###.' '.#########' > "$work/decide.txt"
    decide_board=$(tr '\n' / < "$work/decide.txt" | sed 's|/$||; s|#|%23|g')
    "$stackplay" --game tetris --board "$work/decide.txt" --piece T --next IOS --hold L --json > "$work/decide-cli.json"
    curl -s "$url/api/decide?board=$decide_board&piece=T&next=IOS&hold=1&held=L" > "$work/decide-web.json"
    "$python" -c "
import json
web = json.load(open('$work/decide-web.json')); cli = json.load(open('$work/decide-cli.json'))
assert 'board' not in web, 'the answer names a file'
for document in (web, cli):
    document.pop('seconds'); document.pop('board', None)
for key in ('best', 'plan', 'alternatives'):
    assert web[key] == cli[key], (key, web[key], cli[key])
assert web == cli, [k for k in set(web) | set(cli) if web.get(k) != cli.get(k)]
assert web['pieces_searched'] == 4 and web['hold'] == 'L' and web['best']['srs']['orientation']" \
        && pass || fail "/api/decide differs from --board FILE --piece T --next IOS --hold L --json"
    expect_status 200 "/api/decide?board=$decide_board&piece=I"
    expect_status 400 "/api/decide?board=$decide_board&piece=Q"
    expect_status 400 "/api/decide?board=$decide_board&piece=T&next=IOSZJLT"
    expect_status 400 "/api/decide?board=$decide_board&piece=T&held=L"
    expect_status 400 "/api/decide?board=$decide_board&piece=T&next=IOS&hold=1&moves=bfs"
    # Quick requests past MostQuickJobsInFlight (64) queued or running: 480
    # connections (120 from each of 127.0.0.2-5) send a 16x64 /api/moves at
    # once; those past the bound get 503 with Retry-After and a JSON error,
    # /api/table meanwhile is answered (it never queues), and the server
    # answers right afterwards (issue 38).
    "$python" - "${url##*:}" > "$work/flood" 2>&1 <<'FLOOD'
import json, re, socket, sys
port = int(sys.argv[1])
rows = ["".join("#" if (x * 7 + y * 3) % 11 == 0 and y % 3 == 0 else "." for x in range(16)) for y in range(64)]
request = (f"GET /api/moves?board={'%2F'.join(rows).replace('#', '%23')}&piece=T HTTP/1.1\r\n"
           "Host: localhost\r\nConnection: close\r\n\r\n").encode()
sockets = []
for k in range(480):
    s = socket.socket()
    s.bind((f"127.0.0.{2 + k // 120}", 0))
    s.connect(("127.0.0.1", port))
    sockets.append(s)
for s in sockets:
    s.sendall(request)
# Meanwhile /api/table, which searches nothing, is answered on the network
# thread: never 503, however full the quick queue.
with socket.create_connection(("127.0.0.1", port), timeout=30) as table:
    table.sendall(b"GET /api/table HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    answer = b""
    while chunk := table.recv(1 << 16):
        answer += chunk
    table_status = int(answer.split(b" ")[1])
statuses, busy = {}, 0
for s in sockets:
    s.settimeout(30)
    answer = b""
    while chunk := s.recv(1 << 16):
        answer += chunk
    s.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    statuses[status] = statuses.get(status, 0) + 1
    if status == 503:
        busy += re.search(rb"(?im)^retry-after: 1\r?$", head) is not None and "busy" in json.loads(body)["error"]
print(statuses, "503 with Retry-After and a JSON error:", busy, "; /api/table during the flood:", table_status)
assert statuses.get(503, 0) > 0 and busy == statuses[503] and set(statuses) <= {200, 503}, statuses
assert table_status == 200, table_status
FLOOD
    [ $? = 0 ] && pass || fail "a flood of quick requests: $(tail -c 400 "$work/flood")"
    expect_status 200 "/api/table"
    kill -0 "$server" && pass || fail "the server died"
    ;;
esac
finish
