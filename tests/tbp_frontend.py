#!/usr/bin/python3
"""A Tetris Bot Protocol (TBP) frontend that plays a bot and checks every move.

    tbp_frontend.py --bot "build/play/stackplay --bot tbp --hold" --pieces 1000 --seed 1
                    [--hold] [--frontend-hold] [--json OUT] [--max-seconds 600] [--game-pieces 300]

The game is written here from the SRS rules, independent of the C++ code: a
10x40 board (row 0 at the bottom), pieces spawning north with their TBP centre
at x=4, y=20 (the guideline's rows 21-22; --spawn-row 19 for TBP's "roughly
y=19"), SRS rotation with the JLSTZ and I kick tables (O does not kick),
the moves left, right, soft drop, cw and ccw, a 7-bag from
random.Random(seed), 5 pieces visible after the current one, hold only with
--hold. TBP's queue begins with the current piece.

Before each move it checks, and fails (exit 1, one line naming the piece and
the check) when one does not hold:
  1. the suggestion holds a move, unless the piece (and the hold choice) has
     no placement: a top-out, which ends the game;
  2. the first move's piece is the current one, or with --hold the hold piece
     (queue[1] while hold is empty);
  3. its cells lie on the board, on empty cells, and rest on something;
  4. a breadth-first search over (x, y, rotation) from spawn reaches those
     cells, and a "mini"/"full" spin claim is a T whose last move into the
     state can be a rotation meeting the 3-corner rule (full: both front
     corners filled, or the last kick of the table used);
  5. the suggestion's "state" (our bot's extension: board, queue, hold before
     the move) equals the frontend's.
The move is then played, rows cleared, and play plus new_piece sent.

Also: every 97th piece, before the suggest, malformed lines (not JSON, not an
object, an unknown type, a play with no move, one facing "up" off the board,
a 100 KB line, a new_piece without a piece, and a play of the current piece
floating at y=30), after which the bot must answer with its state unchanged;
by the end it must have written a line on stderr for each line not JSON or
not an object and each of the two plays with no move or facing "up"; games
last at most --game-pieces pieces, then stop, and every later game starts on a
board with garbage rows ("G"); after the last piece, quit must end the bot
with exit 0 within 5 s, and so must the end of input for a second bot. A reply
that takes over 10 s, or a run over --max-seconds, fails with one line.

After the last game, before quit, the hostile lines of issue 60, each
followed by a suggest that must be answered within 3 s (else the bot is
killed and the run fails rather than hangs): a start refused (a key given
twice, JSON cut short, a line over 1 MB) after a good one must leave no
position (no moves, an empty queue in the state); a play at x or y = 2^63
must be refused (the queue unchanged); a suggest naming "type" twice must
get a suggestion, and one padded past 1 MB by an unknown attribute one with
moves; a play with "spin": null is taken as none, and after stop the state
is empty.

With --frontend-hold the frontend holds on its own, as a player would, whether
or not the bot may: every 7th piece it plays, instead of the bot's move, the
piece the hold gives at its lowest resting placement SRS reaches, and every
game after the first starts with a held piece; check 5 then says whether the
bot followed (a bot without --hold still must not suggest holding, check 2).
It fails when it never held.

Prints one summary line (pieces, lines, top-outs, suggest latency median and
p99); --json writes the same as an object. Standard library only.
"""

import argparse
import json
import math
import os
import random
import resource
import shlex
import statistics
import subprocess
import sys
import threading
import time

PIECES = "IOTSZJL"
ORIENTATIONS = ("north", "east", "south", "west")
WIDTH, HEIGHT = 10, 40
SPAWN = [4, 20]  # the TBP centre of every piece at spawn, facing north (--spawn-row sets the row)
VISIBLE_ROWS = 20  # the guideline's visible field: a piece locked wholly above it is a lock-out
PREVIEW = 5
REPLY_SECONDS = 10.0
HOSTILE_SECONDS = 3.0  # a suggestion after a hostile line: a silent bot fails the run, it does not hang it
MALFORMED_EVERY = 97
FRONTEND_HOLD_EVERY = 7

# The north cells relative to the TBP centre (y up). The centre is SRS's
# rotation point for JLSTZ; for I the middle-left mino, for O the bottom-left.
NORTH = {
    "I": ((-1, 0), (0, 0), (1, 0), (2, 0)),
    "O": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "T": ((-1, 0), (0, 0), (1, 0), (0, 1)),
    "S": ((-1, 0), (0, 0), (0, 1), (1, 1)),
    "Z": ((-1, 1), (0, 1), (0, 0), (1, 0)),
    "J": ((-1, 1), (-1, 0), (0, 0), (1, 0)),
    "L": ((1, 1), (-1, 0), (0, 0), (1, 0)),
}

# SRS offset tables per rotation (north, east, south, west). Rotating from r
# to s about the TBP centre, kick i moves the piece by OFFSET[r][i] -
# OFFSET[s][i]; this gives the guideline kick tables (checked in self_test),
# and for O the one "kick" that keeps its cells in place.
_JLSTZ = (((0, 0),) * 5, ((0, 0), (1, 0), (1, -1), (0, 2), (1, 2)),
          ((0, 0),) * 5, ((0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)))
OFFSET = {
    "I": (((0, 0), (-1, 0), (2, 0), (-1, 0), (2, 0)),
          ((-1, 0), (0, 0), (0, 0), (0, 1), (0, -2)),
          ((-1, 1), (1, 1), (-2, 1), (1, 0), (-2, 0)),
          ((0, 1), (0, 1), (0, 1), (0, -1), (0, 2))),
    "O": (((0, 0),), ((0, -1),), ((-1, -1),), ((-1, 0),)),
}
OFFSET.update({p: _JLSTZ for p in "TSZJL"})


def shape(piece, rotation):
    """The cells of a piece relative to its centre, turned cw `rotation` times."""
    cells = NORTH[piece]
    for _ in range(rotation):
        cells = tuple((y, -x) for x, y in cells)
    return cells


SHAPES = {p: tuple(shape(p, r) for r in range(4)) for p in PIECES}


def kicks(piece, start, end):
    """The translations SRS tries, in order, rotating piece from start to end."""
    return tuple((a[0] - b[0], a[1] - b[1]) for a, b in zip(OFFSET[piece][start], OFFSET[piece][end]))


KICKS = {(p, r, s): kicks(p, r, s) for p in PIECES for r in range(4) for s in ((r + 1) % 4, (r + 3) % 4)}


def cells_of(piece, state):
    x, y, r = state
    return tuple((x + dx, y + dy) for dx, dy in SHAPES[piece][r])


class Fail(Exception):
    """A check failed: the message says what; the run exits 1."""


# --- the board and the game ---------------------------------------------

class Board:
    def __init__(self, rows=None):
        self.rows = rows if rows is not None else [[None] * WIDTH for _ in range(HEIGHT)]

    def filled(self, x, y):
        return not (0 <= x < WIDTH and 0 <= y < HEIGHT) or self.rows[y][x] is not None

    def fits(self, cells):
        return not any(self.filled(x, y) for x, y in cells)

    def place(self, cells, letter):
        """Lock the cells, clear full rows (rows above move down); the rows cleared."""
        for x, y in cells:
            self.rows[y][x] = letter
        kept = [row for row in self.rows if None in row]
        cleared = HEIGHT - len(kept)
        self.rows = kept + [[None] * WIDTH for _ in range(cleared)]
        return cleared

    def to_json(self):
        return [list(row) for row in self.rows]

    def draw(self):
        """The rows up to two above the highest filled one, top first."""
        top = max([y for y in range(HEIGHT) if any(self.rows[y])] + [-1]) + 2
        return ["%2d |%s|" % (y, "".join(c or "." for c in self.rows[y])) for y in range(min(top, HEIGHT - 1), -1, -1)]


def successors(board, piece, state):
    """(next state, kick index or None) for left, right, soft drop, cw, ccw."""
    x, y, r = state
    for step in ((x - 1, y, r), (x + 1, y, r), (x, y - 1, r)):
        if board.fits(cells_of(piece, step)):
            yield step, None
    for turn in ((r + 1) % 4, (r + 3) % 4):
        for index, (dx, dy) in enumerate(KICKS[piece, r, turn]):
            kicked = (x + dx, y + dy, turn)
            if board.fits(cells_of(piece, kicked)):
                yield kicked, index
                break


def explore(board, piece):
    """Every state reachable from spawn, each with the kick indices of the rotations into it."""
    spawn = (SPAWN[0], SPAWN[1], 0)
    if not board.fits(cells_of(piece, spawn)):
        return {}
    reached = {spawn: set()}
    todo = [spawn]
    while todo:
        for state, kick in successors(board, piece, todo.pop()):
            if state not in reached:
                reached[state] = set()
                todo.append(state)
            if kick is not None:
                reached[state].add(kick)
    return reached


def spins(board, piece, state, kick_indices):
    """The spins ("mini", "full") a rotation into the state can score (3-corner rule)."""
    if piece != "T" or not kick_indices:
        return set()
    x, y, r = state
    corners = ((x - 1, y + 1), (x + 1, y + 1), (x + 1, y - 1), (x - 1, y - 1))  # NW NE SE SW
    if sum(board.filled(*c) for c in corners) < 3:
        return set()
    front_filled = board.filled(*corners[r]) and board.filled(*corners[(r + 1) % 4])
    return {"full" if front_filled or k == len(KICKS["T", 0, 1]) - 1 else "mini" for k in kick_indices}


def resting(board, cells):
    return board.fits(cells) and not board.fits([(x, y - 1) for x, y in cells])


class Bag:
    """The 7-bag: each bag a shuffle of IOTSZJL by the shared random.Random."""

    def __init__(self, rng):
        self.rng, self.left = rng, []

    def draw(self):
        if not self.left:
            self.left = list(PIECES)
            self.rng.shuffle(self.left)
        return self.left.pop(0)


class Game:
    def __init__(self, bag, board, hold_allowed, hold=None):
        self.bag, self.board, self.hold_allowed = bag, board, hold_allowed
        self.queue, self.hold = [], hold
        self.top_up()

    def top_up(self):
        """Refill the queue to the current piece plus PREVIEW; the pieces added."""
        added = []
        while len(self.queue) < PREVIEW + 1:
            added.append(self.bag.draw())
            self.queue.append(added[-1])
        return added

    def hold_choice(self):
        """The piece a move may place instead of the current one (None: no hold)."""
        if not self.hold_allowed:
            return None
        return self.hold if self.hold is not None else self.queue[1]

    def has_placement(self):
        spawn = (SPAWN[0], SPAWN[1], 0)
        choices = [self.queue[0], self.hold_choice()]
        return any(p and self.board.fits(cells_of(p, spawn)) for p in choices)

    def frontend_hold(self):
        """The frontend's own hold (--frontend-hold): (move, piece, cells) of the piece the hold
        gives at its lowest resting placement reachable from spawn; None when that piece is the
        current one (no hold) or has no placement."""
        piece = self.hold if self.hold is not None else self.queue[1]
        if piece == self.queue[0]:
            return None
        states = [s for s in explore(self.board, piece) if resting(self.board, cells_of(piece, s))]
        if not states:
            return None
        x, y, r = min(states, key=lambda s: (max(cy for _, cy in cells_of(piece, s)), s))
        move = {"location": {"type": piece, "orientation": ORIENTATIONS[r], "x": x, "y": y}, "spin": "none"}
        return move, piece, cells_of(piece, (x, y, r))

    def play(self, piece, cells):
        """Place piece (hold inferred from its type as TBP says); the rows cleared."""
        if piece != self.queue[0]:
            if self.hold is None:
                self.hold, self.queue = self.queue[0], self.queue[2:]
            else:
                self.hold, self.queue = self.queue[0], self.queue[1:]
        else:
            self.queue = self.queue[1:]
        return self.board.place(cells, piece)


# --- checking a suggestion ------------------------------------------------

def parse_move(move):
    """(piece, state, spin) of a TBP move, or Fail when it is not well formed."""
    if not isinstance(move, dict) or not isinstance(move.get("location"), dict):
        raise Fail("the move is not an object with a location: %s" % short(move))
    loc = move["location"]
    piece, orient, x, y = loc.get("type"), loc.get("orientation"), loc.get("x"), loc.get("y")
    if piece not in NORTH or orient not in ORIENTATIONS:
        raise Fail("the move's type or orientation is not valid: %s" % short(move))
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)):
        raise Fail("the move's x, y are not integers: %s" % short(move))
    if move.get("spin") not in ("none", "mini", "full"):
        raise Fail("the move's spin is not none, mini or full: %s" % short(move))
    return piece, (x, y, ORIENTATIONS.index(orient)), move["spin"]


def check_piece(game, piece):
    """Check 2: the piece is the current one, or the hold choice under --hold."""
    if piece == game.queue[0]:
        return
    other = game.hold_choice()
    if piece != other:
        what = "hold is off" if not game.hold_allowed else "hold offers %s" % other
        raise Fail("the move places %s but the current piece is %s (%s)" % (piece, game.queue[0], what))


def check_placement(game, piece, state, spin):
    """Checks 3 and 4: the cells of the move, on the board, resting, reachable by SRS; the spin."""
    board, cells = game.board, cells_of(piece, state)
    if any(board.filled(x, y) for x, y in cells):
        raise Fail("the move's cells %s are off the board or on filled cells" % sorted(cells))
    if board.fits([(x, y - 1) for x, y in cells]):
        raise Fail("the move's cells %s do not rest on anything (floating)" % sorted(cells))
    reached = explore(board, piece)
    same = [s for s in reached if sorted(cells_of(piece, s)) == sorted(cells)]
    if not same:
        raise Fail("the move's cells %s are not reachable from spawn by SRS moves" % sorted(cells))
    if spin != "none":
        possible = set().union(*(spins(board, piece, s, reached[s]) for s in same))
        if spin not in possible:
            raise Fail("the move claims spin %s; possible there: %s" % (spin, sorted(possible) or "none"))
    return cells


def check_state(game, state):
    """Check 5: the bot's own view of the position equals the frontend's."""
    if not isinstance(state, dict):
        raise Fail("the suggestion has no \"state\" object")
    board = state.get("board")
    if not (isinstance(board, list) and len(board) == HEIGHT
            and all(isinstance(r, list) and len(r) == WIDTH for r in board)):
        raise Fail("the bot's state board is not 40 rows of 10 cells")
    diff = [(x, y) for y in range(HEIGHT) for x in range(WIDTH) if board[y][x] != game.board.rows[y][x]]
    if diff:
        x, y = diff[0]
        raise Fail("the bot's board differs from the frontend's in %d cells, first at x=%d y=%d: bot %s, frontend %s"
                   % (len(diff), x, y, json.dumps(board[y][x]), json.dumps(game.board.rows[y][x])))
    if state.get("queue") != game.queue or state.get("hold") != game.hold:
        raise Fail("the bot's queue/hold %s/%s differ from the frontend's %s/%s"
                   % (short(state.get("queue")), json.dumps(state.get("hold")), game.queue, json.dumps(game.hold)))


def check_suggestion(game, suggestion):
    """All five checks; (move, piece, cells) to play, or None on a top-out (no move, no placement)."""
    moves = suggestion.get("moves")
    if not isinstance(moves, list):
        raise Fail("the suggestion has no moves list")
    check_state(game, suggestion.get("state"))
    if not moves:
        if game.has_placement():
            raise Fail("the suggestion holds no move, but the piece has a placement")
        return None
    if not game.has_placement():
        raise Fail("the bot suggests %s, but spawn is blocked: no placement (a top-out)" % short(moves[0]))
    piece, state, spin = parse_move(moves[0])
    check_piece(game, piece)
    return moves[0], piece, check_placement(game, piece, state, spin)


def short(value, limit=160):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


# --- the bot process ------------------------------------------------------

class Bot:
    """The bot's process: JSON lines both ways, stderr collected, every wait guarded."""

    def __init__(self, command, max_seconds):
        self.command = command
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace")
        self.stderr_lines = []
        self.stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.stderr_reader.start()
        self.max_seconds, self.deadline = max_seconds, time.monotonic() + max_seconds
        self.waiting = None  # (what, since) while blocked on the bot
        self.hung = None  # the watchdog's message once it has killed the bot
        threading.Thread(target=self._watchdog, daemon=True).start()

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr_lines.append(line.rstrip("\n")[:300])

    def _watchdog(self):
        """Kill the bot when a wait on it passes its limit (10 s; --start-seconds for the info message) or the run its deadline: the wait
        then ends in a Fail; should the main thread stay stuck, exit from here."""
        while not self.hung:
            time.sleep(0.2)
            waiting, now = self.waiting, time.monotonic()
            if waiting and (now - waiting[1] > waiting[2] or now > self.deadline):
                self.hung = ("the bot hung: no progress in %g s %s" % (waiting[2], waiting[0])
                             if now - waiting[1] > waiting[2] else
                             "the run passed --max-seconds (%g s) %s" % (self.max_seconds, waiting[0]))
                self.kill()
        time.sleep(5)
        print("tbp_frontend: FAIL: %s" % self.hung, file=sys.stderr, flush=True)
        os._exit(1)

    def guard(self, what, limit=REPLY_SECONDS):
        self.waiting = (what, time.monotonic(), limit)

    def send(self, message, what="writing to the bot"):
        line = message if isinstance(message, str) else json.dumps(message)
        self.guard(what)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Fail(self.hung or "the bot closed its input (exit code %s) %s" % (self.exit_code(), what))
        finally:
            self.waiting = None

    def receive(self, expected, what, limit=REPLY_SECONDS):
        """The next line, a JSON object of type `expected` (within `limit` seconds)."""
        self.guard(what, limit)
        line = self.proc.stdout.readline()
        self.waiting = None
        if not line:
            raise Fail(self.hung or "the bot ended its output (exit code %s) %s" % (self.exit_code(), what))
        try:
            message = json.loads(line)
        except ValueError:
            raise Fail("the bot wrote a line that is not JSON %s: %s" % (what, line.strip()[:160]))
        if not isinstance(message, dict) or message.get("type") != expected:
            raise Fail("the bot wrote %s %s, not a %s" % (short(message), what, expected))
        return message

    def finish(self, what):
        """Wait up to 5 s for the bot to exit after quit or end of input; it must exit 0."""
        self.guard(what)
        try:
            code = self.proc.wait(5)
        except subprocess.TimeoutExpired:
            raise Fail(self.hung or "the bot did not exit within 5 s %s" % what)
        finally:
            self.waiting = None
        self.stderr_reader.join(5)
        if code != 0:
            raise Fail("the bot exited %d %s" % (code, what))

    def exit_code(self):
        try:
            return self.proc.wait(2)
        except subprocess.TimeoutExpired:
            return "none yet"

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()


# --- the games --------------------------------------------------------------

class Run:
    """One run: games against one bot until the pieces are placed, and its numbers."""

    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.bot = Bot(args.bot, args.max_seconds)
        self.pieces = self.lines = self.topped_out = self.games = self.malformed_batches = self.frontend_holds = 0
        self.tetris_lines = 0
        self.latencies = []
        self.bot_cpu_seconds = 0.0
        self.game = None
        self.where = "at the handshake"

    def handshake(self):
        info = self.bot.receive("info", "before its info message", self.args.start_seconds)
        if not isinstance(info.get("name"), str):
            raise Fail("the bot's info has no name: %s" % short(info))
        self.bot.send({"type": "rules", "randomizer": "seven_bag"})
        self.bot.receive("ready", "after the rules")

    def start_game(self):
        """A new game: an empty board first, then boards with garbage rows."""
        self.games += 1
        board = Board()
        for y in range(self.rng.randrange(1, 9) if self.games > 1 else 0):
            hole = self.rng.randrange(WIDTH)
            board.rows[y] = [None if x == hole else "G" for x in range(WIDTH)]
        held = self.rng.choice(PIECES) if self.args.frontend_hold and self.games > 1 else None
        bag = Bag(self.rng)
        self.game = Game(bag, board, self.args.hold, held)
        self.bot.send({"type": "start", "hold": held, "queue": self.game.queue, "combo": 0,
                       "back_to_back": False, "board": board.to_json(),
                       "randomizer": {"type": "seven_bag", "bag": list(bag.left)}})

    def play_game(self):
        self.start_game()
        for _ in range(self.args.game_pieces):
            if self.pieces >= self.args.pieces or not self.play_piece():
                break
        self.bot.send({"type": "stop"})

    def play_piece(self):
        """Suggest, check and play one piece; False on a top-out."""
        game = self.game
        self.where = "game %d piece %d (%s)" % (self.games, self.pieces + 1, game.queue[0])
        if (self.pieces + 1) % MALFORMED_EVERY == 0:
            self.send_malformed()
        checked = check_suggestion(game, self.suggest())
        if checked is None:
            self.topped_out += 1
            return False
        move, piece, cells = checked
        if self.args.frontend_hold and (self.pieces + 1) % FRONTEND_HOLD_EVERY == 0:
            own = game.frontend_hold()
            if own:
                move, piece, cells = own
                self.frontend_holds += 1
        cleared = game.play(piece, cells)
        self.lines += cleared
        self.tetris_lines += cleared if cleared >= 4 else 0
        self.bot.send({"type": "play", "move": move})
        if self.args.lock_out and all(y >= VISIBLE_ROWS for _, y in cells):
            self.topped_out += 1  # the guideline's lock-out: the piece locked wholly above the visible rows
            self.pieces += 1
            return False
        for new in game.top_up():
            self.bot.send({"type": "new_piece", "piece": new})
        self.pieces += 1
        return True

    def suggest(self):
        began = time.perf_counter()
        self.bot.send({"type": "suggest"})
        suggestion = self.bot.receive("suggestion", "waiting for the suggestion")
        self.latencies.append((time.perf_counter() - began) * 1000.0)
        return suggestion

    def send_malformed(self):
        """Lines the bot must refuse (a line on stderr) or ignore, its state unchanged."""
        floating = {"location": {"type": self.game.queue[0], "orientation": "north", "x": 4, "y": 30}, "spin": "none"}
        lines = ["not json", "[1,2]", '{"type":"no_such_type"}', '{"type":"play"}',
                 '{"type":"play","move":{"location":{"type":"T","orientation":"up","x":99,"y":-5},"spin":"none"}}',
                 "x" * 100000, '{"type":"new_piece"}']
        if not resting(self.game.board, cells_of(self.game.queue[0], (4, 30, 0))):
            lines.append(json.dumps({"type": "play", "move": floating}))
            self.where += " after malformed lines, the last a floating play of %s north at x=4 y=30" % self.game.queue[0]
        for line in lines:
            self.bot.send(line, "sending malformed lines")
        self.malformed_batches += 1

    def hostile(self):
        """Issue 60's hostile lines, each followed by a suggest that must be answered within HOSTILE_SECONDS."""
        bot = self.bot

        def start(queue):
            return json.dumps({"type": "start", "hold": None, "queue": queue, "combo": 0, "back_to_back": False,
                               "board": Board().to_json()})

        def suggest(what, line='{"type":"suggest"}'):
            self.where = "at the end, after %s" % what
            bot.send(line, "sending " + what)
            return bot.receive("suggestion", "waiting for the suggestion after " + what, HOSTILE_SECONDS)

        def play(x, y, spin="none", orientation="east"):
            return json.dumps({"type": "play", "move": {"location": {"type": "T", "orientation": orientation, "x": x,
                                                                     "y": y}, "spin": spin}})

        pad = "x" * ((1 << 20) + 10)
        refused_starts = {
            'a start naming "queue" twice': start(["S", "Z"]).replace('"queue": ', '"queue": ["S", "Z"], "queue": '),
            "a start cut short": start(["S", "Z"])[:200],
            "a start over 1 MB": start(["S", "Z"])[:-1] + ', "pad": "%s"}' % pad,
        }
        for what, line in refused_starts.items():
            bot.send(start(["L", "J"]))
            bot.send(line, "sending " + what)
            answer = suggest(what)
            if answer.get("moves") or answer.get("state", {}).get("queue"):
                raise Fail("after %s the suggestion is for the last game: %s" % (what, short(answer)))
        # Read as 0, either would be a T resting on the floor: east at x=0, north at y=0.
        for what, line in (("a play at x = 2^63", play(2 ** 63, 1)), ("a play at y = 2^63", play(4, 2 ** 63, "none", "north"))):
            bot.send(start(["T", "I"]))
            bot.send(line, "sending " + what)
            answer = suggest(what)
            if answer.get("state", {}).get("queue") != ["T", "I"]:
                raise Fail("the bot took %s: its state is %s" % (what, short(answer.get("state"))))
        bot.send(start(["T", "I"]))
        suggest('a suggest naming "type" twice', '{"type":"suggest","type":"play"}')
        answer = suggest("a suggest padded past 1 MB", '{"type":"suggest","pad":"%s"}' % pad)
        if not answer.get("moves"):
            raise Fail("a suggest padded past 1 MB by an unknown attribute got no moves: %s" % short(answer))
        bot.send(play(1, 1, None), 'sending a play with "spin": null')
        answer = suggest('a play with "spin": null')
        if answer.get("state", {}).get("queue") != ["I"]:
            raise Fail('a play with "spin": null was not taken as none: the state is %s' % short(answer.get("state")))
        bot.send({"type": "stop"})
        answer = suggest("stop")
        if answer.get("moves") or answer.get("state", {}).get("queue"):
            raise Fail("after stop the suggestion still shows the stopped game: %s" % short(answer))

    def end(self):
        """The hostile lines; quit: exit 0 within 5 s, a line on stderr per refused line; then a second bot at end of
        input."""
        self.hostile()
        self.where = "at the end"
        self.bot.send({"type": "quit"})
        self.bot.finish("after quit")
        # The bot is the only child reaped so far: its processor time, for the cost of a decision.
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.bot_cpu_seconds = usage.ru_utime + usage.ru_stime
        if self.args.frontend_hold and not self.frontend_holds:
            raise Fail("--frontend-hold: the frontend never held")
        refusals = 5 * self.malformed_batches  # not JSON, not an object, two bad plays, 100 KB
        if len(self.bot.stderr_lines) < refusals:
            raise Fail("the bot wrote %d lines on stderr for %d malformed lines it must refuse"
                       % (len(self.bot.stderr_lines), refusals))
        second = Bot(self.args.bot, self.args.max_seconds)
        second.receive("info", "(second bot) before its info message", self.args.start_seconds)
        second.proc.stdin.close()
        second.finish("(second bot) at the end of its input")

    def summary(self):
        ordered = sorted(self.latencies) or [0.0]
        p99 = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]
        return {"pieces": self.pieces, "lines": self.lines, "topped_out": self.topped_out, "games": self.games,
                "tetris_lines": self.tetris_lines, "tetris_rate": round(self.tetris_lines / max(1, self.lines), 4),
                "lock_out": self.args.lock_out,
                "latency_ms": {"median": round(statistics.median(ordered), 3), "p99": round(p99, 3),
                               "max": round(ordered[-1], 3)},
                "bot_cpu_seconds": round(self.bot_cpu_seconds, 3), "suggestions": len(self.latencies),
                "bot": self.args.bot, "hold": self.args.hold, "frontend_holds": self.frontend_holds,
                "seed": self.args.seed}


def context(run):
    """The position at a failure, for the lines above the FAIL line."""
    if not run:
        return []
    lines = []
    if run.game:
        lines = ["board (y, x=0 at the left):"] + ["  " + row for row in run.game.board.draw()]
        lines.append("queue %s  hold %s" % (" ".join(run.game.queue), run.game.hold))
    return lines + ["bot stderr: " + s for s in run.bot.stderr_lines[-5:]]


def self_test():
    """The kick tables against the guideline's (relative to the basic rotation), I's basic
    rotation in its 4x4 box, O's rotation in place, and a T-spin double's slot."""
    def relative(piece, start, end):
        (x0, y0), *_ = table = KICKS[piece, start, end]
        return tuple((x - x0, y - y0) for x, y in table)
    assert relative("I", 0, 1) == ((0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2))
    assert relative("I", 1, 2) == ((0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1))
    assert relative("I", 0, 3) == ((0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1))
    assert relative("I", 3, 0) == ((0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1))
    assert relative("T", 0, 1) == ((0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2))
    assert relative("T", 2, 3) == ((0, 0), (1, 0), (1, 1), (0, -2), (1, -2))
    assert relative("T", 3, 0) == ((0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2))
    assert sorted(cells_of("I", (4, 19, 0))) == [(x, 19) for x in range(3, 7)]
    assert sorted(cells_of("I", (5, 19, 1))) == [(5, y) for y in range(17, 21)]  # box column 2
    assert KICKS["I", 0, 1][0] == (1, 0)
    for r in range(4):
        for turn in ((r + 1) % 4, (r + 3) % 4):
            (dx, dy), = KICKS["O", r, turn]
            assert sorted(cells_of("O", (4 + dx, 19 + dy, turn))) == sorted(cells_of("O", (4, 19, r)))
    assert sorted(cells_of("O", (4, 19, 2))) == [(3, 18), (3, 19), (4, 18), (4, 19)]
    board = Board()
    board.rows[0] = ["G"] * 4 + [None] + ["G"] * 5
    board.rows[1] = ["G"] * 3 + [None] * 3 + ["G"] * 4
    board.rows[2][3] = "G"  # the overhang over the slot's left side
    tsd = (4, 1, 2)
    reached = explore(board, "T")
    assert tsd in reached and spins(board, "T", tsd, reached[tsd]) == {"full"}


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", required=True, help="the bot's command line (split as a shell would)")
    parser.add_argument("--pieces", type=int, default=1000, help="pieces to place, over as many games as needed")
    parser.add_argument("--seed", type=int, default=1, help="seed of random.Random for the bags and garbage")
    parser.add_argument("--hold", action="store_true", help="allow moves that use hold")
    parser.add_argument("--frontend-hold", action="store_true",
                        help="the frontend holds on its own every 7th piece, and later games start with a held piece")
    parser.add_argument("--json", metavar="OUT", help="write the summary to OUT as JSON")
    parser.add_argument("--max-seconds", type=float, default=600, help="fail when the run takes longer")
    parser.add_argument("--game-pieces", type=int, default=300, help="stop a game after this many pieces")
    parser.add_argument("--start-seconds", type=float, default=REPLY_SECONDS,
                        help="how long the bot may take to start (its info message; a table to open)")
    parser.add_argument("--spawn-row", type=int, default=20, choices=(19, 20),
                        help="the row of a piece's centre at spawn: 20, the guideline's rows 21-22 (counted from 1), "
                             "or 19 (TBP's 'roughly y=19'); the bot must be given the same --spawn-row")
    parser.add_argument("--lock-out", action="store_true",
                        help="also end a game (a top-out) when a piece locks wholly above the visible 20 rows")
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    SPAWN[1] = args.spawn_row
    self_test()
    run = None
    try:
        run = Run(args)
        run.handshake()
        while run.pieces < args.pieces:
            run.play_game()
        run.end()
    except Fail as failure:
        if run:
            run.bot.kill()
            run.bot.stderr_reader.join(1)
        for line in context(run):
            print(line, file=sys.stderr)
        print("tbp_frontend: FAIL %s: %s" % (run.where if run else "", failure), file=sys.stderr)
        return 1
    except OSError as error:
        print("tbp_frontend: FAIL: cannot run the bot %r: %s" % (args.bot, error), file=sys.stderr)
        return 1
    result = run.summary()
    lat = result["latency_ms"]
    print("tbp_frontend: %d pieces, %d lines (%.1f%% by tetrises), %d topped out in %d games; suggest latency median "
          "%.2f ms, p99 %.2f ms, max %.2f ms (%s%s%s)" % (result["pieces"], result["lines"], 100 * result["tetris_rate"],
                                                         result["topped_out"], result["games"],
                                               lat["median"], lat["p99"], lat["max"], args.bot,
                                               ", hold" if args.hold else "",
                                               ", the frontend held %d times" % result["frontend_holds"]
                                               if args.frontend_hold else ""))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
