#!/usr/bin/python3
"""Hostile clients against the web viewer's server (stackplay --serve): slow senders, idle
keep-alives, bodies announced and never sent, foreign Host headers, pipelining, shutdown.

    web_slow_clients.py STACKPLAY [--cap SECONDS] [--only crowd,methods,...] [--json FILE]

Each measurement starts its own `STACKPLAY --serve --port 0` (URL read from the stderr line
"serving on http://127.0.0.1:PORT/") and always kills it, measures one thing and returns a dict
of numbers (seconds; None where nothing came within the cap), so scripts/web-load imports them
(`measure_all`, `checks`). Every wait is bounded by --cap (default 8 s). The checks, one line each
("ok   ..." or "FAIL ..."), then a JSON summary on stdout; exit 1 when one fails:

  a. 64 connections each sending "GET /api/moves?board=" then one byte a second, never finishing,
     and 64 idle keep-alives (a good request answered, then silence): 5 normal requests on new
     connections, 0.25 s apart, are each answered 200 well before the drippers' 5 s deadline
     (within 4 s; max and median reported); the drippers are cut off by the server within 11 s of
     their first byte (the whole-request deadline is 5 s);
  b. POST and PUT /api/moves with Content-Length: 10 and no body: 405 without waiting for the
     body (within 4 s), with Allow: GET, HEAD, and the connection closed;
  c. Host: a foreign name gets a 4xx; localhost, 127.0.0.1 and [::1] (with the port or not)
     200; HTTP/1.1 without Host 400, HTTP/1.0 without Host 200;
  d. two GETs written at once on one connection: two answers, in order;
  e. SIGTERM with 8 drippers connected: the process exits without waiting for them (within
     4 s), status 0;
Every check's time is a margin of seconds over what the server takes, tied to its own deadlines,
so that a loaded machine or a sanitizer build cannot miss it by chance; the latencies are
reported here and measured by scripts/web-load, not asserted.
  g. 128 begun requests from one address (its bound), then 10 more connections from it at once:
     each gets 503 with Retry-After (no begun one is closed: none is idle or slow yet), while
     127.0.0.2 is served; 1.2 s later a newcomer is served (the oldest begun request is slow).
Reported, not checked: a normal request's wait behind 32 drippers, and the 33rd client's wait
behind 32 idle keep-alives (the old cpp-httplib server served 32 connections at once).
"""
import argparse
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time

HOST = "127.0.0.1"
NORMAL = "/api/moves?board=....../....../....../......&piece=T&events=0"
DRIP_START = b"GET /api/moves?board="
DEFAULT_CAP = 8.0
# The server's whole-request deadline (play/web/server.h, RequestDeadline):
# a server that waited on a slow client would answer only once it passed.
# The checks ask for an answer well before it, at BEFORE_DEADLINE, and for
# the drippers to be cut by DRIPPERS_CUT after their first byte: margins of
# seconds over what the server takes (milliseconds), so that a loaded
# 2-core machine, or a sanitizer build, cannot miss them by chance (issue
# 38: a 1 s threshold failed once in the sanitizer pass). The latencies
# themselves are measured and reported (scripts/web-load), not asserted.
REQUEST_DEADLINE = 5.0
BEFORE_DEADLINE = REQUEST_DEADLINE - 1.0
DRIPPERS_CUT = REQUEST_DEADLINE + 6.0


class Server:
    """`binary --serve --port 0 ARGS` on loopback; killed on exit from the with-block."""

    def __init__(self, binary, *args, startup=10.0):
        self.process = subprocess.Popen([binary, "--serve", "--port", "0", *args], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.log, deadline, found = b"", time.monotonic() + startup, None
        fd = self.process.stderr.fileno()
        while not found and time.monotonic() < deadline:
            if select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                self.log += chunk
                found = re.search(rb"serving on http://127\.0\.0\.1:(\d+)/", self.log)
        if not found:
            self.stop()
            raise RuntimeError(f"the server did not start: {self.log[:300]!r}")
        self.port = int(found.group(1))
        self.url = f"http://{HOST}:{self.port}/"
        threading.Thread(target=self._drain, args=(fd,), daemon=True).start()  # the request log

    def _drain(self, fd):
        try:
            while chunk := os.read(fd, 65536):
                self.log = (self.log + chunk)[-65536:]
        except OSError:
            pass

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *failure):
        self.stop()


def request(target, port, method="GET", host=True, version="HTTP/1.1", extra=""):
    """A raw request; host=True names 127.0.0.1:PORT, a string names that, None sends no Host."""
    host = f"{HOST}:{port}" if host is True else host
    return (f"{method} {target} {version}\r\n" + (f"Host: {host}\r\n" if host is not None else "")
            + extra + "\r\n").encode("latin-1")


class Reader:
    """Answers read off one socket in order, each by a deadline (TimeoutError when passed, EOFError
    when the server closed first)."""

    def __init__(self, sock, deadline):
        self.sock, self.deadline, self.buffer = sock, deadline, b""

    def _fill(self):
        if not select.select([self.sock], [], [], max(0.0, self.deadline - time.monotonic()))[0]:
            raise TimeoutError
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError
        self.buffer += chunk

    def _take(self, count):
        while len(self.buffer) < count:
            self._fill()
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def _line(self):
        while b"\r\n" not in self.buffer:
            self._fill()
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def answer(self):
        """(status, headers with lowercase names, body)."""
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
        status = int(lines[0].split()[1])
        if "content-length" in headers:
            body = self._take(int(headers["content-length"]))
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            body = b""
            while size := int(self._line().split(b";")[0], 16):
                body += self._take(size)
                self._take(2)
            while self._line():  # trailers
                pass
        elif status in (204, 304) or 100 <= status < 200:
            body = b""
        else:  # until the server closes
            try:
                while True:
                    self._fill()
            except EOFError:
                body, self.buffer = self.buffer, b""
        return status, headers, body


def closes_within(sock, seconds):
    """Seconds until the server closed the connection (EOF or reset), None if it stayed open."""
    start = time.monotonic()
    while (left := start + seconds - time.monotonic()) > 0:
        if select.select([sock], [], [], left)[0]:
            try:
                if not sock.recv(65536):
                    return round(time.monotonic() - start, 4)
            except OSError:
                return round(time.monotonic() - start, 4)
    return None


def timed_request(port, data, cap, closing=0.0):
    """Sends DATA on a new connection; {"status", "seconds" (to the whole answer), "headers",
    "body", "error"}; status and seconds None when no answer came within CAP. With closing > 0,
    also "closed_after": seconds from the answer to the server's close, None if not within that."""
    start, result = time.monotonic(), {"status": None, "seconds": None, "headers": {}, "body": b"", "error": None}
    try:
        with socket.create_connection((HOST, port), timeout=cap) as sock:
            sock.sendall(data)
            result["status"], result["headers"], result["body"] = Reader(sock, start + cap).answer()
            result["seconds"] = round(time.monotonic() - start, 4)
            if closing:
                result["closed_after"] = closes_within(sock, closing)
    except TimeoutError:
        result["error"] = f"no answer within {cap:g} s"
    except EOFError:
        result["error"] = "closed without an answer"
    except (OSError, ValueError, IndexError) as error:
        result["error"] = f"{type(error).__name__}: {error}"
    return result


def json_error(body):
    try:
        return isinstance(json.loads(body).get("error"), str)
    except (ValueError, AttributeError):
        return False


class Crowd:
    """Drippers (a request begun, then one byte a second, never finished) and idle keep-alives
    (a good request answered, then silence) against one server; all closed on exit. A thread
    drips and notes, every 0.1 s, when the server cut a dripper off (closed it or answered it)."""

    def __init__(self, port, connect_timeout=10.0):
        self.port, self.drippers, self.idle, self.connect_timeout = port, [], [], connect_timeout
        self.lock, self.stopping, self.thread = threading.Lock(), threading.Event(), None
        self.connect_failures, self.slowest_connect = 0, 0.0  # a full listen backlog: SYNs resent after 1 s

    def _connect(self):
        """A new connection, or None when it failed (counted)."""
        start = time.monotonic()
        try:
            return socket.create_connection((HOST, self.port), timeout=self.connect_timeout)
        except OSError:
            self.connect_failures += 1
            return None
        finally:
            self.slowest_connect = max(self.slowest_connect, round(time.monotonic() - start, 3))

    def add_idle(self, count, wait):
        """Opens COUNT keep-alives one after the other, each sending a normal request and reading
        its answer, all by WAIT s from now (past it, the rest are opened without waiting: an old
        server with every thread taken answers them later). Returns how many were answered 200.
        One at a time, so that a server's short listen backlog does not delay the connections."""
        deadline, answered = time.monotonic() + wait, 0
        for _ in range(count):
            if not (sock := self._connect()):
                continue
            entry = {"sock": sock, "answered": False, "closed": False}
            self.idle.append(entry)
            try:
                sock.sendall(request(NORMAL, self.port))
                entry["answered"] = Reader(sock, deadline).answer()[0] == 200
            except (TimeoutError, EOFError, OSError, ValueError, IndexError):
                pass
            answered += entry["answered"]
        return answered

    def add_drippers(self, count):
        for _ in range(count):
            if not (sock := self._connect()):
                continue
            try:
                sock.sendall(DRIP_START)
            except OSError:
                sock.close()
                self.connect_failures += 1
                continue
            sock.setblocking(False)
            now = time.monotonic()
            with self.lock:
                self.drippers.append({"sock": sock, "first_byte": now, "next": now + 1, "cut": None,
                                      "sent": len(DRIP_START)})
        if not self.thread:
            self.thread = threading.Thread(target=self._drip, daemon=True)
            self.thread.start()

    def _drip(self):
        while not self.stopping.wait(0.1):
            with self.lock:
                live = [d for d in self.drippers if d["cut"] is None]
                readable = select.select([d["sock"] for d in live], [], [], 0)[0] if live else []
                now = time.monotonic()
                for dripper in live:
                    if dripper["sock"] in readable:  # closed, or answered (a 408): cut off either way
                        dripper["cut"] = round(now - dripper["first_byte"], 3)
                    elif now >= dripper["next"]:
                        try:
                            dripper["sent"] += dripper["sock"].send(b".")
                        except BlockingIOError:
                            pass
                        except OSError:
                            dripper["cut"] = round(now - dripper["first_byte"], 3)
                        dripper["next"] += 1

    def state(self):
        """{"drippers_open", "drippers_cut", "idle_open", "idle_closed"}, at this moment: an idle
        connection is closed when the server closed it (EOF or reset); one answered late (an
        old server) still counts as open."""
        with self.lock:
            drippers_open = sum(d["cut"] is None for d in self.drippers)
        for entry in self.idle:
            try:
                while not entry["closed"] and select.select([entry["sock"]], [], [], 0)[0]:
                    entry["closed"] = not entry["sock"].recv(65536)
            except OSError:
                entry["closed"] = True
        idle_open = sum(not entry["closed"] for entry in self.idle)
        return {"drippers_open": drippers_open, "drippers_cut": len(self.drippers) - drippers_open,
                "idle_open": idle_open, "idle_closed": len(self.idle) - idle_open}

    def cut_times(self):
        with self.lock:
            return [d["cut"] for d in self.drippers]

    def close(self):
        self.stopping.set()
        if self.thread:
            self.thread.join()
        for entry in self.drippers + self.idle:
            entry["sock"].close()

    def __enter__(self):
        return self

    def __exit__(self, *failure):
        self.close()


def summary(seconds):
    """{"answered", "of", "median", "max"} of request times (None: unanswered, counted as the longest)."""
    ordered = sorted(seconds, key=lambda s: float("inf") if s is None else s)
    return {"answered": sum(s is not None for s in seconds), "of": len(seconds),
            "median": ordered[(len(ordered) - 1) // 2] if ordered else None, "max": ordered[-1] if ordered else None}


def probe(port, cap, count=1, spacing=0.25):
    """COUNT normal requests on new connections, SPACING s apart (each in its own thread, so an
    unanswered one does not hold back the next): [{"status", "seconds", "error"}] in order."""
    results, threads, start = [None] * count, [], time.monotonic()

    def one(k):
        time.sleep(max(0.0, start + k * spacing - time.monotonic()))
        answer = timed_request(port, request(NORMAL, port), cap)
        results[k] = {key: answer[key] for key in ("status", "seconds", "error")}

    for k in range(count):
        threads.append(threading.Thread(target=one, args=(k,)))
        threads[-1].start()
    for thread in threads:
        thread.join()
    return results


def measure_crowd(binary, cap=DEFAULT_CAP, drippers=64, idle=64, probes=5, spacing=0.25, deadline_watch=DRIPPERS_CUT):
    """(a) Normal requests while DRIPPERS slow senders and IDLE idle keep-alives are open; then,
    until DEADLINE_WATCH s after the last dripper's first byte, how soon the drippers were cut."""
    with Server(binary) as server, Crowd(server.port) as crowd:
        idle_answered = crowd.add_idle(idle, wait=min(cap, 3.0))
        crowd.add_drippers(drippers)
        time.sleep(0.5)
        before = crowd.state()
        answers = probe(server.port, cap, probes, spacing)
        after = crowd.state()
        last_first_byte = max((d["first_byte"] for d in crowd.drippers), default=time.monotonic())
        time.sleep(max(0.0, last_first_byte + deadline_watch - time.monotonic()))
        cut = crowd.cut_times()
        return {"drippers": drippers, "idle": idle, "idle_answered": idle_answered, "before_probes": before,
                "after_probes": after, "probes": answers, "statuses": [a["status"] for a in answers],
                **summary([a["seconds"] if a["status"] == 200 else None for a in answers]),
                "deadline_watch": deadline_watch, "drippers_cut": sum(c is not None for c in cut),
                "latest_cut": max((c for c in cut if c is not None), default=None), "cap": cap,
                "connect_failures": crowd.connect_failures, "slowest_connect": crowd.slowest_connect}


def measure_methods(binary, cap=DEFAULT_CAP, methods=("POST", "PUT")):
    """(b) METHOD /api/moves announcing a 10-byte body and sending none: the status, the time to
    the answer, the Allow header, and whether (how soon) the connection was closed after it."""
    out = {"cap": cap}
    with Server(binary) as server:
        for method in methods:
            announced = request("/api/moves", server.port, method, extra="Content-Length: 10\r\n")
            answer = timed_request(server.port, announced, cap, closing=min(cap, 1.0))
            out[method] = {"status": answer["status"], "seconds": answer["seconds"], "error": answer["error"],
                           "allow": answer["headers"].get("allow"), "json_error": json_error(answer["body"]),
                           "closed_after": answer.get("closed_after")}
    return out


def host_cases(port):
    """(name, raw request, expected: 200, 400 or '4xx')."""
    cases = [(f"Host: {h}", request(NORMAL, port, host=h), "4xx")
             for h in ("evil.example", f"localhost.evil.example:{port}")]
    cases += [(f"Host: {h}", request(NORMAL, port, host=h), 200)
              for h in (f"localhost:{port}", f"127.0.0.1:{port}", "localhost", "127.0.0.1", f"[::1]:{port}")]
    return cases + [("HTTP/1.1 without Host", request(NORMAL, port, host=None), 400),
                    ("HTTP/1.0 without Host", request(NORMAL, port, host=None, version="HTTP/1.0"), 200)]


def measure_hosts(binary, cap=DEFAULT_CAP):
    """(c) The status of each Host case, and whether a 4xx carries a JSON {"error"}."""
    out = {"cap": cap, "cases": {}}
    with Server(binary) as server:
        for name, data, expected in host_cases(server.port):
            answer = timed_request(server.port, data, cap)
            out["cases"][name] = {"expected": expected, "status": answer["status"], "error": answer["error"],
                                  "json_error": json_error(answer["body"])}
    return out


def measure_pipelining(binary, cap=DEFAULT_CAP):
    """(d) Two GETs (piece T, then I) in one write on one connection: the answers read, in order."""
    out = {"cap": cap, "answers": [], "error": None}
    with Server(binary) as server, socket.create_connection((HOST, server.port), timeout=cap) as sock:
        start = time.monotonic()
        targets = [NORMAL, NORMAL.replace("piece=T", "piece=I")]
        sock.sendall(b"".join(request(t, server.port) for t in targets))
        reader = Reader(sock, time.monotonic() + cap)
        try:
            for _ in targets:
                status, _, body = reader.answer()
                try:
                    piece = json.loads(body).get("piece")
                except (ValueError, AttributeError):
                    piece = None
                out["answers"].append({"status": status, "piece": piece, "seconds": round(time.monotonic() - start, 4)})
        except TimeoutError:
            out["error"] = f"no further answer within {cap:g} s"
        except EOFError:
            out["error"] = f"closed after {seconds_text(time.monotonic() - start)}"
        except (OSError, ValueError, IndexError) as error:
            out["error"] = f"{type(error).__name__}: {error}"
    out["in_order"] = [(a["status"], a["piece"]) for a in out["answers"]] == [(200, "T"), (200, "I")]
    return out


def measure_shutdown(binary, cap=DEFAULT_CAP, drippers=8, sig=signal.SIGTERM):
    """(e) SIG with DRIPPERS slow senders connected: seconds until the process exited (None: not
    within CAP, then killed) and its exit status."""
    with Server(binary) as server, Crowd(server.port) as crowd:
        crowd.add_drippers(drippers)
        time.sleep(1.2)  # connected, and dripping
        open_then = crowd.state()["drippers_open"]
        start = time.monotonic()
        server.process.send_signal(sig)
        try:
            status = server.process.wait(timeout=cap)
            seconds = round(time.monotonic() - start, 4)
        except subprocess.TimeoutExpired:
            status = seconds = None
        return {"cap": cap, "drippers": drippers, "drippers_open": open_then, "signal": signal.Signals(sig).name,
                "seconds": seconds, "exit_status": status}


def measure_behind_drippers(binary, cap=DEFAULT_CAP, drippers=32):
    """(f) A normal request's wait while DRIPPERS slow senders are connected."""
    with Server(binary) as server, Crowd(server.port) as crowd:
        crowd.add_drippers(drippers)
        time.sleep(0.5)
        answer = probe(server.port, cap)[0]
        return {"cap": cap, "drippers": drippers, **answer}


def measure_behind_idle(binary, cap=DEFAULT_CAP, idle=32):
    """(f) The (IDLE+1)th client's wait while IDLE keep-alives sit idle."""
    with Server(binary) as server, Crowd(server.port) as crowd:
        answered = crowd.add_idle(idle, wait=min(cap, 3.0))
        answer = probe(server.port, cap)[0]
        return {"cap": cap, "idle": idle, "idle_answered": answered, **answer}


def measure_full(binary, cap=DEFAULT_CAP, bound=128, newcomers=10):
    """(g) One address at its bound: BOUND connections each begin a request (none idle, none slow
    yet), then NEWCOMERS from the same address send whole requests at once: each status (503 with
    Retry-After expected, not a close without an answer), and how many of the BOUND the server
    closed; a request from another loopback address (127.0.0.2) meanwhile; and one more newcomer
    after 1.2 s, when the oldest begun request counts as slow and makes room."""
    def connect(source=HOST):
        sock = socket.create_connection((HOST, server.port), timeout=cap, source_address=(source, 0))
        return sock
    with Server(binary) as server:
        held = []
        try:
            for _ in range(bound):
                held.append(connect())
                held[-1].sendall(b"GET /api/table HTTP/1.1\r\nHost: 1")
            time.sleep(0.1)
            late = [connect() for _ in range(newcomers)]
            for sock in late:
                sock.sendall(request("/api/table", server.port))
            statuses, retry_after = [], 0
            for sock in late:
                try:
                    status, headers, _ = Reader(sock, time.monotonic() + cap).answer()
                    statuses.append(status)
                    retry_after += "retry-after" in headers
                except (TimeoutError, EOFError, OSError) as error:
                    statuses.append(type(error).__name__)
                sock.close()
            other = connect("127.0.0.2")
            other.sendall(request("/api/table", server.port))
            try:
                other_status = Reader(other, time.monotonic() + cap).answer()[0]
            except (TimeoutError, EOFError, OSError) as error:
                other_status = type(error).__name__
            other.close()
            closed = sum(1 for sock in held if select.select([sock], [], [], 0)[0])
            time.sleep(1.2)
            after = timed_request(server.port, request("/api/table", server.port), cap)
            return {"cap": cap, "bound": bound, "statuses": statuses, "retry_after": retry_after,
                    "held_closed": closed, "other_address": other_status, "after_slow": after["status"] or after["error"]}
        finally:
            for sock in held:
                sock.close()


MEASURES = {"crowd": measure_crowd, "methods": measure_methods, "hosts": measure_hosts,
            "pipelining": measure_pipelining, "shutdown": measure_shutdown,
            "behind_drippers": measure_behind_drippers, "behind_idle": measure_behind_idle,
            "full": measure_full}


def measure_all(binary, cap=DEFAULT_CAP, only=None):
    """Every measure (or those named in ONLY), each on its own server; one that raises gives
    {"error": ...} instead of its numbers, and the others still run."""
    results = {}
    for name, measure in MEASURES.items():
        if only and name not in only:
            continue
        start = time.monotonic()
        try:
            results[name] = measure(binary, cap)
        except Exception as error:  # reported, never fatal: the next measure still runs
            results[name] = {"error": f"{type(error).__name__}: {error}"}
        results[name]["wall_s"] = round(time.monotonic() - start, 2)
    return results


def seconds_text(seconds, cap=None):
    if seconds is None:
        return f">{cap:g} s" if cap else "none"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def checks(results):
    """[(name, passed, detail)] of the done-when thresholds, for the measures present."""
    out = []
    crowd = results.get("crowd")
    if crowd:
        if "error" in crowd and "probes" not in crowd:
            out.append(("a. normal requests under 64 drippers + 64 idle", False, crowd["error"]))
        else:
            cap, before = crowd["cap"], crowd["before_probes"]
            out.append(("a. the crowd in place before the probes: every idle answered, all open",
                        before["drippers_open"] == crowd["drippers"] and before["idle_open"] == crowd["idle"]
                        == crowd["idle_answered"],
                        f"{before['drippers_open']}/{crowd['drippers']} drippers and {before['idle_open']}/"
                        f"{crowd['idle']} idle open ({crowd['idle_answered']} idle answered; "
                        f"{crowd['connect_failures']} connections failed, the slowest took "
                        f"{seconds_text(crowd['slowest_connect'])})"))
            out.append((f"a. {crowd['of']} normal requests under {crowd['drippers']} drippers + {crowd['idle']} idle:"
                        f" each 200 before the drippers' deadline (within {BEFORE_DEADLINE:g} s)",
                        crowd["answered"] == crowd["of"] and crowd["max"] < BEFORE_DEADLINE,
                        f"statuses {crowd['statuses']}, median {seconds_text(crowd['median'], cap)}, "
                        f"max {seconds_text(crowd['max'], cap)}"))
            latest = crowd["latest_cut"]
            out.append((f"a. drippers cut off by the server within {crowd['deadline_watch']:g} s of their first byte"
                        f" (its deadline is {REQUEST_DEADLINE:g} s)",
                        crowd["drippers_cut"] == crowd["drippers"] and latest is not None
                        and latest <= crowd["deadline_watch"],
                        f"{crowd['drippers_cut']}/{crowd['drippers']} cut within {crowd['deadline_watch']} s, "
                        f"the last after {seconds_text(latest, crowd['deadline_watch'])}"))
    methods = results.get("methods")
    if methods:
        for method in ("POST", "PUT"):
            m = methods.get(method)
            if not m:
                out.append((f"b. {method} with Content-Length: 10, no body: 405 without waiting for the body", False,
                            methods.get("error", "not measured")))
                continue
            out.append((f"b. {method} with Content-Length: 10, no body: 405 without waiting for the body (within "
                        f"{BEFORE_DEADLINE:g} s)", m["status"] == 405 and m["seconds"] < BEFORE_DEADLINE,
                        f"{m['status'] or m['error']} after {seconds_text(m['seconds'], methods['cap'])}"))
            allow = {a.strip().upper() for a in (m["allow"] or "").split(",")}
            out.append((f"b. {method}'s 405: Allow: GET, HEAD, a JSON error, the connection closed",
                        m["status"] == 405 and allow == {"GET", "HEAD"} and m["json_error"]
                        and m["closed_after"] is not None,
                        f"Allow: {m['allow']}, JSON error {m['json_error']}, closed after "
                        f"{seconds_text(m['closed_after'], 1.0)}"))
    hosts = results.get("hosts")
    if hosts:
        if "cases" not in hosts:
            out.append(("c. Host header", False, hosts["error"]))
        for name, case in hosts.get("cases", {}).items():
            expected, status = case["expected"], case["status"]
            ok = (status is not None and 400 <= status < 500) if expected == "4xx" else status == expected
            out.append((f"c. {name}: {expected}", ok, f"{status or case['error']}"
                        + (f", JSON error {case['json_error']}" if status and status >= 400 else "")))
    pipelining = results.get("pipelining")
    if pipelining:
        answers = pipelining.get("answers", [])
        out.append(("d. two pipelined GETs: two answers, in order", bool(pipelining.get("in_order")),
                    f"{len(answers)} answers {[(a['status'], a['piece']) for a in answers]}"
                    + (f", {pipelining['error']}" if pipelining.get("error") else "")))
    shutdown = results.get("shutdown")
    if shutdown:
        seconds = shutdown.get("seconds")
        out.append((f"e. SIGTERM with {shutdown.get('drippers')} drippers: exit without waiting for them (within "
                    f"{BEFORE_DEADLINE:g} s), status 0",
                    seconds is not None and seconds < BEFORE_DEADLINE and shutdown.get("exit_status") == 0,
                    shutdown.get("error") or f"exited after {seconds_text(seconds, shutdown['cap'])}, "
                    f"status {shutdown['exit_status']} ({shutdown['drippers_open']} drippers open then)"))
    full = results.get("full")
    if full:
        if "statuses" not in full:
            out.append(("g. an address at its bound", False, full.get("error")))
        else:
            newcomers = len(full["statuses"])
            out.append((f"g. {newcomers} newcomers past an address's bound of {full['bound']} begun requests: "
                        "503 each with Retry-After, none of the begun closed",
                        full["statuses"] == [503] * newcomers and full["retry_after"] == newcomers
                        and full["held_closed"] == 0,
                        f"statuses {full['statuses']}, {full['retry_after']} with Retry-After, "
                        f"{full['held_closed']} begun closed"))
            out.append(("g. meanwhile another address is served", full["other_address"] == 200,
                        f"{full['other_address']}"))
            out.append(("g. after 1.2 s a newcomer gets room from the oldest slow request", full["after_slow"] == 200,
                        f"{full['after_slow']}"))
    return out


def reported(results):
    """[(name, detail)] of the figures reported and not checked."""
    out = []
    for name, key, what in (("behind_drippers", "drippers", "drippers"), ("behind_idle", "idle", "idle keep-alives")):
        r = results.get(name)
        if r:
            detail = f"{r['status']} after {seconds_text(r['seconds'])}" if r.get("status") else r.get("error")
            out.append((f"f. a normal request behind {r.get(key)} {what}", detail))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("stackplay")
    parser.add_argument("--cap", type=float, default=DEFAULT_CAP, help="the longest wait for any answer (s)")
    parser.add_argument("--only", help="comma-separated measures: " + ",".join(MEASURES))
    parser.add_argument("--json", help="also write the summary to this file")
    args = parser.parse_args()
    start = time.monotonic()
    results = measure_all(args.stackplay, args.cap, args.only and args.only.split(","))
    verdicts = checks(results)
    for name, ok, detail in verdicts:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)
    for name, detail in reported(results):
        print(f"info {name}: {detail}", flush=True)
    failed = [name for name, ok, _ in verdicts if not ok]
    document = {"binary": args.stackplay, "cap": args.cap, "wall_s": round(time.monotonic() - start, 2),
                "passed": not failed, "failed": failed, "results": results}
    text = json.dumps(document, default=lambda b: b.decode("latin-1") if isinstance(b, bytes) else str(b))
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    print(f"{len(failed)} failed" if failed else "all passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
