"""Read stackgen's tables from Python (numpy + h5py): formats 1 to 4.

    from stack_table import StackTable
    table = StackTable("stack_6x20.h5")
    table.values([0, 1, 12345])           # float64 array, NaN where the table does not hold the board
                                          # (an id or board not of the well: a TableError)
    table.values_of([[0, 0, 0, 0, 0, 0]])  # the same by column heights
    table.holds(ids), table.heights(ids), table.board_id(heights)
    for ids, values in table.iter_blocks():  # the whole table in file order, block by block
        ...
    everything = table.to_numpy()         # the whole table in board-id order, NaN where not held

Version 2 tables store their values round by round (the row sum S is the
height sum of columns 1..W-1), rows in board-id order, each row the
column-0 heights of the stored residue classes of the height sum mod g (g
the gcd of the piece set's sizes, 4 for the tetrominoes; table.modulus):
position = round_offsets[S] + rank(h_1..h_{W-1}) * n(S) + index(S, h0), the
same codec as common/table/table_format.h, computed here with counting tables of
compositions. Version 1 tables store every board in id order. Version 3
is version 2 with the attribute mirror: "none", version 2's layout, or
"canonical", only the boards with h0 <= h_{W-1} stored (a board and its
mirror image have the same value): rounds and rows as in version 2, a
round's rows grouped by their top t = h_{W-1} ascending, and a row of top t
holds only the first short(S, t) of its places (the stored h0 <= t). Every
lookup answers any board: one with h0 > h_{W-1} reads its mirror image
(table.mirrored says which layout a table has).

Bulk reads (scripts/reader-bench measures them: results/reader.md):
- values(ids) maps all the ids at once with numpy, a step of STEP ids at a
  time and no loop per id: the id's digits split in two groups (columns
  0..k and k+1..W-1), whose lookup tables give the rank's two parts, the
  row sum and the place in the row. A mirrored table's ids are first
  turned into their canonical boards' (h0 > h_{W-1}: the digits reversed)
  by tables of the same two groups, and its tables know each top's short
  rows. It reads each run of the checksummed blocks the ids fall in with
  one hyperslab, checks each block's CRC-32 (zlib's, on the block's bytes)
  against /checksums, and gathers. When the ids fall in nearly every block
  of a table that fits READ_BUDGET (a sample of them tells), it reads and
  checks every block first and then maps and gathers BATCH ids at a time,
  with no pass to find the blocks. Requests of fewer than FAST_FROM ids go
  column by column instead.
- iter_blocks(blocks=SCAN_BLOCKS) scans the whole table in file order in
  bounded memory: (ids, values) for `blocks` checksummed blocks (of
  CHECKSUM_VALUES values, a round's last one shorter) at a time; ids int64,
  values float64, fresh arrays each step. Versions 2 and 3 yield only the
  boards the table stores: the ids of the step's positions, by the inverse
  codec (round S's rows in id order, from the rows of its low columns
  sorted by height sum; a mirrored table's canonical boards alone, h0 <=
  h_{W-1}). Version 1 yields every id in order.
- to_numpy(memory_limit=None): the whole table as one float64 array of
  (H+1)^W values in board-id order, NaN for boards the table does not hold
  (a mirrored table's other boards filled in from their mirror images).
  Refused with a TableError naming the sizes when it would need more than
  memory_limit bytes (default three quarters of MemAvailable); a table
  that does not fit is read with iter_blocks().
Every read checks what it reads: a block whose CRC-32 does not match
(versions 2 and 3), or a value that is not a number of pieces (negative, NaN,
infinite), is refused with a TableError naming the values and the block.
check_all() (--check) reads every block so.

Run with Debian's /usr/bin/python3 (it has numpy and h5py). The package
lives beside the C++ format it reads (common/table/table_format.h):
`pip install common/table/python` installs the module and the stack-table
command; scripts/stack-table runs it from the source tree. Its constants are
pinned to the C++ ones by tests/python_constants.py.
"""
import math
import os
import re
import stat
import sys
import time
import zlib

import h5py
import numpy as np

__version__ = "0.6.0"  # the project's version (CMakeLists.txt); tests/python_constants.py checks they agree

# The pieces attribute of a table written before piece sets were stored
# (common/rules/pieces.h, TetrominoTable): such a table is the tetrominoes'.
TETROMINOES = ("i: ([0,0,0],[1,1,1,1]) ([],[4])\n"
               "t: ([-1,1],[1,2,1]) ([-1],[1,3]) ([0,0],[1,2,1]) ([1],[3,1])\n"
               "sq: ([0],[2,2])\n"
               "zr: ([0,1],[1,2,1]) ([-1],[2,2])\n"
               "zl: ([-1,0],[1,2,1]) ([1],[2,2])\n"
               "lr: ([1,0],[2,1,1]) ([-2],[1,3]) ([0,0],[1,1,2]) ([0],[3,1])\n"
               "ll: ([0,-1],[1,1,2]) ([0],[1,3]) ([0,0],[2,1,1]) ([2],[3,1])\n")
# The format (common/table/table_format.h; tests/python_constants.py pins these to it).
FORMAT_VERSION = 4            # ClearsFormatVersion: the newest version read (a line-clear table)
NO_CLEAR_FORMAT_VERSION = 3   # TableFormatVersion: what stackgen writes for a no-clear table
CLEARS_ATTRIBUTES = ("clears_sweep", "clears_change", "clears_previous_change", "clears_bound",
                     "clears_tolerance")  # version 4's sweep attributes (SweepState)
# The proven bracket's, from stackgen 0.7 on (older tables' bound is an estimate).
BRACKET_ATTRIBUTES = ("clears_largest_value", "clears_empty_low", "clears_empty_high")
OLDEST_FORMAT_VERSION = 1     # OldestTableFormatVersion
MIRROR_ATTRIBUTE = "mirror"   # MirrorAttribute (version 3)
MIRROR_CANONICAL = "canonical"  # MirrorCanonical: only boards with h0 <= h_{W-1} stored
MIRROR_NONE = "none"          # MirrorNone: every board of the stored classes
VALUES_DATASET = "values"                # ValuesDataset
ROUND_OFFSETS_DATASET = "round_offsets"  # RoundOffsetsDataset
CHECKSUMS_DATASET = "checksums"          # ChecksumsDataset
PRECISIONS = ("float64", "float32")      # precision_name()
MAX_WIDTH = 16                # MaxWidth (common/rules/board.h)
MAX_HEIGHT = 1000000          # MaxHeight
METADATA_SECONDS = 20         # metadata_seconds() without STACK_METADATA_SECONDS (common/table/metadata_guard.h)
TETROMINO_CLASSES = 4         # the tetrominoes' residue classes: the gcd of their sizes (PieceSet::cell_gcd)
CHECKSUM_VALUES = 4096  # values per checksummed block; blocks start at each round's first value
BLOCK_SHIFT = 12        # CHECKSUM_VALUES == 1 << BLOCK_SHIFT
NOT_HELD = -(1 << 62)   # the virtual position of a board the table does not hold
STEP = 1 << 16          # ids per step of the vectorised codec: its temporaries stay in the caches
BATCH = 1 << 20         # ids mapped before they are gathered, when values() reads every block
FAST_FROM = 1 << 14     # requests of this many ids build the codec's lookup tables
FAST_ENTRIES = 1 << 25  # the most entries those tables may have (past it: column by column)
NARROW_BELOW = 1 << 29  # the codec's lookup tables are int32 when every position and entry is below this
READ_BUDGET = 1 << 30   # bytes of blocks values() holds at once (past it: the ids in groups)
WHOLE_READS = True      # values() may read every block of a table within READ_BUDGET, when that pays
SCAN_BLOCKS = 256       # checksummed blocks per step of iter_blocks(): 1 Mi values


class TableError(Exception):
    """The file is not a table this reader knows, or it is damaged."""


class BoardError(ValueError):
    """A board or board id that is no board of the table: heights of
    another width, heights or ids that are not whole numbers, a height
    outside 0..H. `except ValueError` catches it, as it catches any bad
    argument."""


class BoardIdError(BoardError, LookupError):
    """A board id outside 0..states-1: a LookupError (as an index past a
    sequence's end is), and a BoardError."""


PIECE_LINE = re.compile(r"(\w{1,16})((?: weight=\d+| letter=\S)*):((?: \(\[(?:-?\d+(?:,-?\d+)*)?\],\[\d+(?:,\d+)*\]\))+)")


def parse_pieces(text):
    """The 'pieces' attribute (common/rules/piece_set.h), one line per piece,
    'NAME[ weight=N][ letter=C]: ([surface],[cells per column]) ...': a list
    of (name, weight, cells per piece, [(surface, added), ...])."""
    pieces = []
    for number, line in enumerate(text.splitlines(), 1):
        match = PIECE_LINE.fullmatch(line)
        if not match:
            raise TableError("the pieces attribute, line %d, is not 'NAME: (SURFACE,ADDED) ...'" % number)
        weight = re.search(r"weight=(\d+)", match.group(2))
        orientations = [([int(v) for v in surface.split(",") if v], [int(v) for v in added.split(",")])
                        for surface, added in re.findall(r"\(\[([-\d,]*)\],\[([\d,]+)\]\)", match.group(3))]
        cells = {sum(added) for _, added in orientations}
        if len(cells) != 1 or any(len(surface) != len(added) - 1 for surface, added in orientations):
            raise TableError("the pieces attribute, line %d: its orientations do not have one cell count" % number)
        pieces.append((match.group(1), int(weight.group(1)) if weight else 1, cells.pop(), orientations))
    if not pieces:
        raise TableError("the pieces attribute lists no pieces")
    return pieces


def piece_set_checksum(name, pieces, cells):
    """The piece_set_checksum attribute (common/table/table_format.cpp):
    the CRC-32 of the set's name, a newline, the pieces attribute and the
    piece_cells attribute."""
    return zlib.crc32((name + "\n" + pieces + cells).encode())


def regular_file_size(path):
    """The size of a readable regular file; a FIFO, device, socket or
    directory is refused before it is opened (h5py would block on a FIFO)."""
    try:
        status = os.stat(path)
    except OSError as error:
        raise TableError("cannot read table '%s': %s" % (path, error.strerror))
    if not stat.S_ISREG(status.st_mode):
        kind = ("a directory" if stat.S_ISDIR(status.st_mode) else "a FIFO" if stat.S_ISFIFO(status.st_mode)
                else "a socket" if stat.S_ISSOCK(status.st_mode) else "a character device"
                if stat.S_ISCHR(status.st_mode) else "a block device" if stat.S_ISBLK(status.st_mode) else "not a file")
        raise TableError("'%s' is %s, not a regular file" % (path, kind))
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError as error:
        raise TableError("cannot read table '%s': %s" % (path, error.strerror))
    return status.st_size


def memory_available():
    """MemAvailable from /proc/meminfo in bytes (0 when unknown)."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def size_text(size):
    """A byte count for a message: '686.2 MB (686,221,952 bytes)'."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return "%.1f %s (%s bytes)" % (size / scale, unit, format(size, ","))
    return "%d bytes" % size


def metadata_seconds():
    """The metadata child's time limit: 20 s, or STACK_METADATA_SECONDS."""
    text = os.environ.get("STACK_METADATA_SECONDS", "")
    return int(text) if text.isdigit() and int(text) > 0 else METADATA_SECONDS


def check_metadata_in_child(path):
    """libhdf5 1.10 can crash or hang on damaged metadata (tests/data/damaged),
    as the C++ loader knows (common/table/metadata_guard.h): the table is
    opened first in a forked child, which reports through a pipe; a child
    that crashes or outlives the time limit means a damaged file."""
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read_end)
        code, message = 0, ""
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 2)
            table = StackTable(path, guarded=False)
            for name in table.file.attrs:  # every attribute, as the C++ loader reads them all
                table.file.attrs[name]
            table.close()
        except TableError as error:
            code, message = 2, str(error)
        except Exception as error:  # h5py's own errors on damaged metadata
            code, message = 2, "'%s' is damaged: %s" % (path, error)
        os.write(write_end, message.encode(errors="replace")[:4096])
        os._exit(code)
    os.close(write_end)
    deadline = time.monotonic() + metadata_seconds()
    while True:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(child, 9)
            os.waitpid(child, 0)
            os.close(read_end)
            raise TableError("'%s' is damaged: reading its HDF5 metadata did not finish in %d s"
                             % (path, metadata_seconds()))
        time.sleep(0.002)
    message = os.read(read_end, 4096).decode(errors="replace")
    os.close(read_end)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 2 and message:
        raise TableError(message)
    how = "signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) else "exit %d" % os.WEXITSTATUS(status)
    raise TableError("'%s' is damaged: HDF5 failed reading its metadata (%s)" % (path, how))


def holds_bool(value):
    """Whether value (a height, a board or boards, nested lists, tuples or
    arrays) is or holds a bool, which numpy would take as 0 or 1."""
    if isinstance(value, (bool, np.bool_)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "b" or (value.dtype.kind == "O" and any(holds_bool(v) for v in value.flat))
    if isinstance(value, (list, tuple)):
        return any(holds_bool(v) for v in value)
    return False


class StackTable:
    def __init__(self, path, guarded=True):
        self.path = path
        self.file_size = regular_file_size(path)
        if guarded:
            check_metadata_in_child(path)
        try:
            self.file = h5py.File(path, "r")
        except OSError as error:
            raise TableError("'%s' cannot be opened as HDF5: %s" % (path, error))
        try:
            self._open()
        except TableError:
            self.file.close()
            raise
        except (KeyError, TypeError, ValueError, OSError, RuntimeError) as error:
            self.file.close()
            raise TableError("%s is not a valid stacking table: %s" % (path, error))

    def _open(self):
        path = self.path
        attributes = self.file.attrs
        for name in ("format_version", "width", "height"):
            if name not in attributes:
                raise TableError("%s is not a stacking table: attribute '%s' is missing" % (path, name))
        self.format_version = self._integer("format_version")
        self.width = self._integer("width")
        self.height = self._integer("height")
        if not OLDEST_FORMAT_VERSION <= self.format_version <= FORMAT_VERSION:
            raise TableError("%s has table format version %d; this reader knows %s"
                             % (path, self.format_version,
                                " and ".join(map(str, range(OLDEST_FORMAT_VERSION, FORMAT_VERSION + 1)))))
        if not (1 <= self.width <= MAX_WIDTH and 1 <= self.height <= MAX_HEIGHT):
            raise TableError("%s has an invalid shape %dx%d" % (path, self.width, self.height))
        self.base = self.height + 1
        self.states = self.base ** self.width
        if self._integer("states") != self.states:
            raise TableError("%s: its states attribute does not match its width and height" % path)
        self._read_piece_set()
        if VALUES_DATASET not in self.file:
            raise TableError("%s is not a stacking table: dataset /%s is missing" % (path, VALUES_DATASET))
        self.dataset = self.file[VALUES_DATASET]
        self.checksums = None
        self.mirrored = False
        self.clears = "none"
        self.sweeps = None
        if self.format_version == 1:
            self.residues = tuple(range(self.modulus))
            self.precision = "float64"
            self._check_claims(self.states)
            if self.dataset.shape != (self.states,):
                raise TableError("%s: /values does not hold %d values in one dimension" % (path, self.states))
            self._check_storage(self.states)
            self._prepare_blocks()
            return
        residues = np.asarray(attributes["residue_classes"])
        classes = self.modulus
        if residues.ndim != 1 or residues.size > classes or residues.dtype.kind not in "iu" \
                or len(set(residues.tolist())) != residues.size or not all(0 <= r < classes for r in residues):
            raise TableError("%s: attribute 'residue_classes' is not a set of classes 0..%d" % (path, classes - 1))
        self.residues = tuple(int(r) for r in residues)
        self.precision = attributes["precision"]
        if isinstance(self.precision, bytes):
            self.precision = self.precision.decode()
        if self.precision not in PRECISIONS:
            raise TableError("%s: attribute 'precision' is '%s', not float64 or float32" % (path, self.precision))
        if self.format_version >= 3:
            self._read_mirror()
        if self.format_version >= 4:
            self._read_clears()
        stored_states = self._integer("stored_states")
        self._check_claims(stored_states)
        self._build_layout()
        if stored_states != int(self.offsets[-1]):
            raise TableError("'%s': its stored_states attribute (%d) disagrees with its width, height and residue "
                             "classes" % (path, stored_states))
        stored = np.asarray(self.file[ROUND_OFFSETS_DATASET][...], dtype=np.uint64)
        if not np.array_equal(stored, self.offsets):
            raise TableError("%s: /round_offsets disagrees with its width, height and residue classes" % path)
        if self.dataset.shape != (int(self.offsets[-1]),) or self.dataset.dtype != np.dtype(self.precision):
            raise TableError("%s: /values does not hold %d %s values in one dimension" % (path, int(self.offsets[-1]),
                                                                                          self.precision))
        self._check_storage(int(self.offsets[-1]))
        rounds = len(self.offsets) - 1
        if self._integer("rounds_done") != rounds:
            raise TableError("%s is unfinished: %d of %d rounds are on disk" % (path, self._integer("rounds_done"),
                                                                                rounds))
        # Checksummed blocks: a round's start at its first value.
        sizes = np.diff(self.offsets)
        self.block_offsets = np.concatenate([[0], np.cumsum((sizes + CHECKSUM_VALUES - 1) // CHECKSUM_VALUES)]).astype(np.uint64)
        self.checksums = np.asarray(self.file[CHECKSUMS_DATASET][...], dtype=np.uint32)
        if self.checksums.shape != (int(self.block_offsets[-1]),):
            raise TableError("%s: /checksums does not hold one checksum per block" % path)
        self._prepare_blocks()

    def _read_mirror(self):
        """Version 3's attribute mirror, as the C++ loader reads it
        (common/table/table_format.cpp): "canonical" (only the boards with
        h0 <= h_{W-1} stored; the well must be 2 or more columns wide) or
        "none". Sets self.mirrored."""
        mirror = self._string(MIRROR_ATTRIBUTE)
        if mirror not in (MIRROR_CANONICAL, MIRROR_NONE):
            raise TableError("'%s': attribute '%s' is '%s', not %s or %s"
                             % (self.path, MIRROR_ATTRIBUTE, mirror, MIRROR_CANONICAL, MIRROR_NONE))
        self.mirrored = mirror == MIRROR_CANONICAL
        if self.mirrored and self.width < 2:
            raise TableError("'%s': a mirrored table must be 2 or more columns wide" % self.path)

    def _read_clears(self):
        """Version 4's attributes, as the C++ loader reads them: clears
        ("tetris": the well game's values, common/table/table_format.h) and
        the sweeps' progress. Sets self.clears and self.sweeps (a dict of
        sweep, change, previous_change, bound, tolerance; and bound_kind
        "proven" or "none", with largest_value, empty_low and empty_high
        where the table has them)."""
        clears = self._string("clears")
        if clears != "tetris":
            raise TableError("'%s': attribute 'clears' is '%s', not tetris" % (self.path, clears))
        self.clears = clears
        sweeps = {}
        for name in CLEARS_ATTRIBUTES:
            if name not in self.file.attrs:
                raise TableError("%s is not a valid stacking table: attribute '%s' is missing" % (self.path, name))
            sweeps[name[len("clears_"):]] = self.file.attrs[name]
        if not (int(sweeps["sweep"]) >= 0 and all(float(sweeps[k]) >= 0 for k in sweeps if k != "sweep")):
            raise TableError("'%s': its clears_* attributes are not a count of sweeps and distances >= 0" % self.path)
        self.sweeps = {k: int(v) if k == "sweep" else float(v) for k, v in sweeps.items()}
        self.sweeps["bound_kind"] = "none"
        if "clears_bound_kind" in self.file.attrs:
            kind = self._string("clears_bound_kind")
            if kind not in ("proven", "none"):
                raise TableError("'%s': attribute 'clears_bound_kind' is '%s', not proven or none" % (self.path, kind))
            self.sweeps["bound_kind"] = kind
            for name in BRACKET_ATTRIBUTES:
                if name not in self.file.attrs:
                    raise TableError("%s is not a valid stacking table: attribute '%s' is missing" % (self.path, name))
                self.sweeps[name[len("clears_"):]] = float(self.file.attrs[name])

    def _string(self, name):
        """A string attribute."""
        value = self.file.attrs[name] if name in self.file.attrs else None
        if not isinstance(value, (str, bytes)):
            raise TableError("'%s': attribute '%s' is missing or not a string" % (self.path, name))
        return value.decode() if isinstance(value, bytes) else value

    def _read_piece_set(self):
        """The piece set the table was built with, as the C++ loader reads it
        (common/table/table_format.cpp): stored with its name, cells and a
        CRC-32 of them since piece sets are stored; before that, the pieces
        attribute must be the tetrominoes'. Sets self.pieces (name, weight,
        cells, orientations per piece), self.piece_set and self.modulus."""
        path = self.path
        text = self._string("pieces")
        if "piece_set" in self.file.attrs:
            name, cells = self._string("piece_set"), self._string("piece_cells")
            stored = self._integer("piece_set_checksum")
            if piece_set_checksum(name, text, cells) != stored:
                raise TableError("'%s' is damaged: its piece set does not match its checksum" % path)
        elif text != TETROMINOES:
            raise TableError("'%s' was built with another piece set than the tetrominoes and does not store it" % path)
        else:
            name = "tetrominoes"
        try:
            self.pieces = parse_pieces(text)
        except TableError as error:
            raise TableError("'%s': its piece set cannot be read: %s" % (path, error))
        self.piece_set = name
        self.modulus = math.gcd(*[cells for _, _, cells, _ in self.pieces])

    def _value_bytes(self):
        return 8 if self.precision == "float64" else 4

    def _check_claims(self, stored):
        """Before anything is built from the shape (the C++ reader's checks,
        common/table/table_file.h): the stored values must fit the file, and
        a version-2 table must store at least what its shape and classes give
        (a mirrored one at least half of it: a board and its mirror image are
        of one class, and one of the two is stored)."""
        if stored * self._value_bytes() > self.file_size:
            raise TableError("'%s' is damaged: it claims %d values (%d bytes) but the file holds only %d bytes"
                             % (self.path, stored, stored * self._value_bytes(), self.file_size))
        if self.format_version >= 2:
            fewest = self.base ** (self.width - 1) * (self.base // self.modulus) * len(self.residues)
            if self.mirrored:
                fewest //= 2
            if stored < fewest:
                raise TableError("'%s': its stored_states attribute (%d) is fewer than its width, height and residue "
                                 "classes give (at least %d)" % (self.path, stored, fewest))

    def _check_storage(self, count):
        """/values must be stored in full in the file."""
        needed = count * self._value_bytes()
        dataset = self.dataset.id
        if self.dataset.chunks is None:
            offset = dataset.get_offset()
            if count > 0 and (offset is None or offset + needed > self.file_size):
                raise TableError("'%s' is damaged: /values claims %d bytes but the file ends at byte %d (truncated?)"
                                 % (self.path, needed, self.file_size))
        elif self.dataset.compression is None and not self.dataset.fletcher32 and not self.dataset.shuffle:
            if dataset.get_storage_size() < needed:
                raise TableError("'%s' is damaged: /values stores %d of its %d bytes"
                                 % (self.path, dataset.get_storage_size(), needed))
        else:
            expected = -(-count // self.dataset.chunks[0])
            if dataset.get_num_chunks() != expected:
                raise TableError("'%s' is damaged: /values stores %d of its %d chunks"
                                 % (self.path, dataset.get_num_chunks(), expected))

    def _integer(self, name):
        """An integer attribute (a scalar of an HDF5 integer type)."""
        if name not in self.file.attrs:
            raise TableError("%s is not a stacking table: attribute '%s' is missing" % (self.path, name))
        value = np.asarray(self.file.attrs[name])
        if value.shape != () or value.dtype.kind not in "iu":
            raise TableError("%s: attribute '%s' is not an integer" % (self.path, name))
        return int(value)

    def _build_layout(self):
        """The counting tables of the version-2 codec (common/rules/compositions.h):
        count[j][s], the vectors of j columns in [0, H] summing to s, and
        prefix[j][t + 1] = count[j][0] + ... + count[j][t]."""
        columns, height = self.width - 1, self.height
        max_sum = columns * height
        sums = np.arange(max_sum + 1)
        count = np.zeros((columns + 1, max_sum + 1), dtype=np.uint64)
        prefix = np.zeros((columns + 1, max_sum + 2), dtype=np.uint64)
        count[0][0] = 1
        prefix[0][1:] = 1
        for j in range(1, columns + 1):
            # j columns: the last one takes v in [0, H], the others s - v.
            low = sums - height
            count[j] = prefix[j - 1][sums + 1] - np.where(low > 0, prefix[j - 1][np.maximum(low, 0)], 0)
            prefix[j][1:] = np.cumsum(count[j])
        self.count, self.prefix = count, prefix
        # Row lengths and the index of each h0 in a row, by the row sum mod g.
        classes = self.modulus
        self.index = np.full((classes, height + 1), -1, dtype=np.int64)
        self.row_length = np.zeros(classes, dtype=np.int64)
        for sum_class in range(classes):
            for h0 in range(height + 1):
                if (sum_class + h0) % classes in self.residues:
                    self.index[sum_class][h0] = self.row_length[sum_class]
                    self.row_length[sum_class] += 1
        sizes = count[columns] * self.row_length[np.arange(max_sum + 1) % classes].astype(np.uint64)
        if self.mirrored:
            sizes = self._build_tops()
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.uint64)

    def _build_tops(self):
        """A mirrored layout's tables (RoundLayout's in common/table/table_format.h):
        short_length[c][t], the stored h0 <= t of a row whose sum is of class c
        (the first places of the full row); for each round S and top t in
        0..H+1, top_rows[S][t] and top_values[S][t], the rows of round S whose
        top (column W-1) is below t and their values (a round's rows of top u
        are the W-2 columns between summing to S - u). Returns each round's
        values."""
        height, rounds = self.height, (self.width - 1) * self.height + 1
        self.short_length = np.cumsum(self.index >= 0, axis=1).astype(np.uint64)
        between = self.count[self.width - 2]
        rest = np.arange(rounds)[:, None] - np.arange(height + 1)[None, :]  # [S][t] -> S - t
        of_top = np.where(rest >= 0, between[np.maximum(rest, 0)], np.uint64(0))
        lengths = self.short_length[np.arange(rounds) % self.modulus]  # [S][t]
        self.top_rows = np.zeros((rounds, height + 2), dtype=np.uint64)
        self.top_values = np.zeros((rounds, height + 2), dtype=np.uint64)
        self.top_rows[:, 1:] = np.cumsum(of_top, axis=1)
        self.top_values[:, 1:] = np.cumsum(of_top * lengths, axis=1)
        return self.top_values[:, height + 1]

    def _checked_ids(self, ids, past_end=False):
        """ids as a flat uint64 array. A TableError, as the C++ library
        gives, for one that is no board of this well: negative, not a whole
        number, or (unless past_end) from states on, which would otherwise
        wrap around or read as another board or NaN. A bool is refused
        too: numpy would read True as id 1, the board of heights 1, 0, ..."""
        if holds_bool(ids):
            raise BoardError("board ids of %s must be whole numbers, not bools (True is no id 1)" % self.path)
        given = np.asarray(ids)
        if given.size == 0:
            return np.zeros(0, dtype=np.uint64)
        flat = given.reshape(-1)
        if flat.dtype.kind == "f":
            whole = np.isfinite(flat) & (flat == np.floor(flat))
            if not whole.all():
                raise BoardError("board id %r of %s is not a whole number" % (float(flat[~whole][0]), self.path))
        elif flat.dtype.kind == "O":  # Python integers past int64 / uint64
            try:
                numbers = [int(i) for i in flat]
            except (TypeError, ValueError) as error:
                raise BoardError("a board id of %s is not a whole number: %s" % (self.path, error)) from None
            low, high = min(numbers), max(numbers)
            if low < 0 or (not past_end and high >= self.states) or high >= 1 << 64:
                bad = low if low < 0 else high
                raise BoardIdError("board id %d is no board of %s: ids run from 0 to %d" % (bad, self.path, self.states - 1))
            return np.array(numbers, dtype=np.uint64)
        elif flat.dtype.kind not in "iu":
            raise BoardError("board ids of %s must be whole numbers, not %s" % (self.path, flat.dtype))
        if flat.dtype.kind in "if" and flat.min() < 0:
            raise BoardIdError("board id %d is no board of %s: ids run from 0 to %d"
                             % (int(flat.min()), self.path, self.states - 1))
        flat = flat.astype(np.uint64, copy=False)
        if not past_end and self.states < 1 << 64 and flat.max() >= np.uint64(self.states):
            raise BoardIdError("board id %d is no board of %s: ids run from 0 to %d"
                             % (int(flat.max()), self.path, self.states - 1))
        return flat

    def heights(self, ids):
        """Column heights of board ids: an (n, W) array."""
        ids = self._checked_ids(ids)
        return self._heights_of(ids.view(np.int64) if ids.size == 0 or ids.max() < np.uint64(1 << 63) else ids)

    def board_id(self, heights):
        """Board ids of boards given by their column heights: one board (W
        heights) or an (n, W) array. A BoardError (a ValueError) for a board
        of another width or a height outside 0..H, with the C++ library's
        message."""
        if holds_bool(heights):
            raise BoardError("the heights of a board of %s must be whole numbers, not bools (True is no height 1)"
                             % self.path)
        given = np.asarray(heights)
        if given.ndim == 1:
            given = given.reshape(1, -1)
        if given.ndim != 2 or given.shape[1] != self.width:
            raise BoardError("a board of %s has %d heights, one a column; got shape %s"
                             % (self.path, self.width, tuple(np.asarray(heights).shape)))
        if given.size and given.dtype.kind not in "iu":
            if given.dtype.kind != "f" or not np.all(np.isfinite(given) & (given == np.floor(given))):
                raise BoardError("the heights of a board of %s must be whole numbers" % self.path)
        if given.size and (given.min() < 0 or given.max() > self.height):
            bad = given.min() if given.min() < 0 else given.max()
            raise BoardError("height %d is outside the well of %s: heights run from 0 to %d"
                             % (int(bad), self.path, self.height))
        heights = given.astype(np.uint64)
        ids = np.zeros(heights.shape[0], dtype=np.uint64)
        for column in reversed(range(self.width)):
            ids = ids * np.uint64(self.base) + heights[:, column]
        return ids

    def _prepare_blocks(self):
        """The blocks reads go by: version 2's checksummed blocks (each
        round's start at a block's start), version 1's runs of
        CHECKSUM_VALUES from 0. A value's virtual position is its position
        with each round moved to start at a block boundary
        (round_virtual[S] = first block of round S * CHECKSUM_VALUES): its
        block is virtual >> BLOCK_SHIFT and its place in the block
        virtual & (CHECKSUM_VALUES - 1)."""
        self.stored_dtype = np.dtype("<f8" if self.precision == "float64" else "<f4")
        stored = int(self.dataset.shape[0])
        self._fast = None          # the lookup tables of the codec, built on first bulk use
        self._file_space = self.dataset.id.get_space()
        self._unrank = None        # those of its inverse, built on first scan
        if self.format_version == 1:
            self.block_count = -(-stored // CHECKSUM_VALUES)
            return
        self._offsets64 = self.offsets.astype(np.int64)
        self._block_offsets64 = self.block_offsets.astype(np.int64)
        self.block_count = int(self._block_offsets64[-1])
        self._round_virtual = self._block_offsets64 * CHECKSUM_VALUES
        self._prefix64 = self.prefix.astype(np.int64)
        # The stored h0 of a row, ascending, by the row sum mod g.
        self._h0_lists = [np.flatnonzero(self.index[c] >= 0).astype(np.int64) for c in range(self.modulus)]
        if self.mirrored:
            self._short64 = self.short_length.astype(np.int64)
            self._top_rows64 = self.top_rows.astype(np.int64)
            self._top_values64 = self.top_values.astype(np.int64)

    def _read_range(self, buffer, target, source, length):
        """buffer[target:target + length] = /values[source:source + length], as
        one hyperslab (through h5py's low-level read: half of read_direct's
        time a call, which counts when the runs are short)."""
        if length > 0:
            self._file_space.select_hyperslab((source,), (length,))
            self.dataset.id.read(h5py.h5s.create_simple((length,)), self._file_space,
                                 buffer[target:target + length])

    def _block_extent(self, blocks):
        """The first position and the value count of blocks (int64 array)."""
        if self.format_version == 1:
            first = blocks * CHECKSUM_VALUES
            return first, np.minimum(CHECKSUM_VALUES, int(self.dataset.shape[0]) - first)
        rounds = np.searchsorted(self._block_offsets64, blocks, side="right") - 1
        first = self._offsets64[rounds] + (blocks - self._block_offsets64[rounds]) * CHECKSUM_VALUES
        return first, np.minimum(CHECKSUM_VALUES, self._offsets64[rounds + 1] - first)

    def _read_blocks(self, blocks, buffer, placed=None):
        """Reads blocks (ascending block indices) into buffer (stored_dtype),
        block i at buffer[placed[i]:] (default i * CHECKSUM_VALUES), with one
        hyperslab for each run of blocks that lie back to back in both, and
        checks each block against its checksum (versions 2 and 3): the
        CRC-32 of its bytes."""
        if blocks.size == 0:
            return
        if placed is None:
            placed = np.arange(blocks.size, dtype=np.int64) * CHECKSUM_VALUES
        first, count = self._block_extent(blocks)
        # A run breaks where the next block does not follow a full block, in the file or in buffer.
        breaks = np.flatnonzero((first[1:] != first[:-1] + CHECKSUM_VALUES)
                                | (placed[1:] != placed[:-1] + CHECKSUM_VALUES)) + 1
        starts = np.concatenate([[0], breaks])
        ends = np.concatenate([breaks, [blocks.size]])
        for start, end in zip(starts.tolist(), ends.tolist()):
            source = int(first[start])
            length = int(first[end - 1] + count[end - 1]) - source
            self._read_range(buffer, int(placed[start]), source, length)
        if self.checksums is not None:
            self._check_crcs(buffer, blocks, placed, count, first)

    def _check_crcs(self, buffer, blocks, placed, count, first):
        """Checks blocks (their indices) held at buffer[placed:placed + count]
        against their checksums: zlib's CRC-32 of each block's bytes."""
        size = buffer.dtype.itemsize
        raw = memoryview(buffer).cast("B")
        crc = zlib.crc32
        computed = np.fromiter((crc(raw[p * size:(p + c) * size]) for p, c in zip(placed.tolist(), count.tolist())),
                               dtype=np.uint32, count=blocks.size)
        bad = np.flatnonzero(computed != self.checksums[blocks])
        if bad.size:
            i = int(bad[0])
            raise TableError("%s is damaged: values %d..%d (block %d) do not match their checksum"
                             % (self.path, int(first[i]), int(first[i] + count[i]) - 1, int(blocks[i])))

    def _check_values(self, values):
        """Every value read must be a number of pieces: finite, not negative."""
        if values.size and not (values.min() >= 0 and values.max() < np.inf):
            raise TableError("%s holds a value that is not a number of pieces" % self.path)

    # The codec: board id -> virtual position, for many ids at once.

    def _int_ids(self, ids):
        """uint64 ids as the integer type the codec computes in: int64 (numpy's
        int64 division is many times faster than uint64's) unless the table
        has 2^63 boards or more."""
        return ids.view(np.int64) if self.states < 1 << 63 else ids

    def _heights_of(self, ids):
        h = np.empty((ids.size, self.width), dtype=np.int64)
        base = ids.dtype.type(self.base)
        rest = ids
        for column in range(self.width):
            quotient = rest // base
            h[:, column] = rest - quotient * base
            rest = quotient
        return h

    def _canonical(self, h):
        """The boards a mirrored table stores for heights h ((n, W), changed
        in place): each with h0 > h_{W-1} turned into its mirror image."""
        flip = np.flatnonzero(h[:, 0] > h[:, -1])
        h[flip] = h[flip, ::-1]
        return h

    def _by_columns(self, ids):
        """The row sum S and the place in round S (rank * n(S) + index(S, h0),
        index -1 when the board is not held) of ids below states, column by
        column with the counting tables (the reference the lookup tables are
        built from, and what small requests and mirrored tables use). A
        mirrored table gives the place of the board's canonical form: the
        round's values below its top t, then (rank - rows below t) rows of
        short(S, t) values, then index(S, h0)."""
        h = self._heights_of(self._int_ids(ids))
        if self.mirrored:
            h = self._canonical(h)
        row_sum = h[:, 1:].sum(axis=1)
        rank = np.zeros(ids.size, dtype=np.int64)
        remaining = row_sum.copy()
        for j in range(self.width - 2, 0, -1):  # column j + 1 of the board, most significant first
            value = h[:, j + 1]
            # the rows whose column j + 1 is lower: prefix(j, s) - prefix(j, s - value)
            rank += self._prefix64[j, remaining + 1] - self._prefix64[j, remaining - value + 1]
            remaining -= value
        classes = row_sum % self.modulus
        index = self.index[classes, h[:, 0]]
        if self.mirrored:
            top = h[:, -1]
            place = (self._top_values64[row_sum, top] + (rank - self._top_rows64[row_sum, top])
                     * self._short64[classes, top] + index)
            return row_sum, place, index
        return row_sum, rank * self.row_length[classes] + index, index

    def _virtual_by_columns(self, ids):
        if self.format_version == 1:
            return self._int_ids(ids).astype(np.int64)
        row_sum, place, index = self._by_columns(ids)
        return np.where(index >= 0, self._round_virtual[row_sum] + place, NOT_HELD)

    def _fast_entries(self, k):
        """The entries of the codec's lookup tables when the lo group is columns 0..k."""
        width, height, base = self.width, self.height, self.base
        tops = height + 1 if self.mirrored else 1
        return self._fast_classes() * tops * base ** (k + 1) + base ** (width - 1 - k) * (k * height + 1)

    def _fast_classes(self):
        """1 when every class has the same row (LP then does not depend on the class), else g."""
        one_class = all(self.row_length[c] == self.row_length[0] and np.array_equal(self.index[c], self.index[0])
                        for c in range(self.modulus))
        return 1 if one_class else self.modulus

    def _build_fast(self, k=None):
        """Lookup tables for the codec over two groups of digits of the id:
        lo (columns 0..k, B = base^(k+1) values) and hi (columns k+1..W-1).
        The rank of a row is a sum over its columns c >= 2 of terms that
        depend on h_c and the height sum of columns 1..c, so
            virtual = TV[key] + LP[CB[key] + lo],  key = hi * L + s_lo(lo)
        with s_lo the height sum of columns 1..k (L = kH + 1 of them); TV
        holds round_virtual[S] + rank_hi * n(S), CB the class S mod g (times
        B), LP rank_lo * n + index(h0), NOT_HELD when the board is not held.
        When every class is stored LP does not depend on the class and CB is
        left out.

        A mirrored table (k <= W-2, so that column W-1, the top t, is in hi)
        looks up each id's canonical board (h0 > t: the digits reversed),
        whose top is max(h0, t). A row of top t holds short(S, t) values and
        the round's rows of top t start at top_rows[S][t], top_values[S][t],
        so TV holds round_virtual[S] + top_values[S][t] + (rank_hi -
        top_rows[S][t]) * short(S, t) and LP has a part of B entries for
        each class and top: rank_lo * short + index(h0); the place in LP is
        CB[key] (the class times (H+1)B) + t * B + the canonical lo. With
        flip = h0 > t (tables of lo and of hi), key << 32 | t * B + lo is
        LOW[2 lo + flip] + HIGH[2 hi + flip]: when k <= (W-2)/2 the
        canonical board's lo digits are all in hi and its hi digits a part
        from lo and one from hi, so each table's entry is its group's share.
        Past that, SPLIT's two tables give the canonical id's two parts (lo
        and hi * B when not flipped), which is split again and looked up
        unflipped (LOW[lo] + HIGH[hi], one entry per group).

        TV, LP and CB are int32 (LP's NOT_HELD then -2^30) when every
        position and entry is below NARROW_BELOW (2^29), else int64. k is
        chosen for the fewest table entries, unless given (tests); none are
        built past FAST_ENTRIES (the codec then goes column by column)."""
        width, height, base = self.width, self.height, self.base
        mirrored = self.mirrored
        classes = self._fast_classes()
        if k is None:
            entries, k = min((self._fast_entries(k), k) for k in range(width - 1 if mirrored else width))
            if entries > FAST_ENTRIES:
                self._fast = False
                return
        prefix = self._prefix64

        def term(column, value, through):  # rows of columns 1..column summing to `through` with h_column < value
            return prefix[column - 1][through + 1] - prefix[column - 1][through - value + 1]

        def digits(numbers, first, last):  # [(column, its digit)] of numbers holding columns first..last
            return [(column, numbers // base ** (column - first) % base) for column in range(first, last + 1)]

        lo_count, sums = base ** (k + 1), k * height + 1
        lo = np.arange(lo_count, dtype=np.int64)
        h0 = lo % base
        s_lo = np.zeros(lo_count, dtype=np.int64)
        rank_lo = np.zeros(lo_count, dtype=np.int64)
        for column, digit in digits(lo, 0, k)[1:]:
            s_lo += digit
            if column >= 2:
                rank_lo += term(column, digit, s_lo)
        hi = np.arange(base ** (width - 1 - k), dtype=np.int64)
        row_sum = np.broadcast_to(np.arange(sums, dtype=np.int64), (hi.size, sums)).copy()
        rank_hi = np.zeros(row_sum.shape, dtype=np.int64)
        for column, digit in digits(hi, k + 1, width - 1):
            row_sum += digit[:, None]
            if column >= 2:
                rank_hi += term(column, digit[:, None], row_sum)
        row_class = row_sum % self.modulus
        if not mirrored:
            table_virtual = (self._round_virtual[row_sum] + rank_hi * self.row_length[row_class]).reshape(-1)
            low_part = np.concatenate([np.where(self.index[c][h0] >= 0, rank_lo * self.row_length[c]
                                                + self.index[c][h0], NOT_HELD) for c in range(classes)])
            class_base = None if classes == 1 else (row_class * lo_count).reshape(-1)
            self._fast = self._fast_tables(lo_count, sums, s_lo, table_virtual, low_part, class_base, None)
            return
        top = hi // base ** (width - 2 - k)
        short = self._short64[row_class, top[:, None]]
        table_virtual = (self._round_virtual[row_sum] + self._top_values64[row_sum, top[:, None]]
                         + (rank_hi - self._top_rows64[row_sum, top[:, None]]) * short).reshape(-1)
        tops = np.arange(height + 1, dtype=np.int64)[:, None]
        low_part = np.concatenate([
            np.where((self.index[c][h0] >= 0) & (h0 <= tops), rank_lo * self._short64[c][tops] + self.index[c][h0],
                     NOT_HELD).reshape(-1) for c in range(classes)])
        class_base = None if classes == 1 else (row_class * ((height + 1) * lo_count)).reshape(-1)

        def pair(unflipped, flipped):  # [2 i] unflipped, [2 i + 1] flipped
            return np.stack([unflipped, flipped], axis=1).reshape(-1)

        def mirror_of(numbers, first, last, columns):  # the share of columns first..last in the mirror image's columns
            return sum([digit * base ** (width - 1 - column - columns[0]) for column, digit in digits(numbers, first, last)
                        if columns[0] <= width - 1 - column <= columns[1]], np.zeros(numbers.size, dtype=np.int64))

        low = (s_lo << 32) + lo  # key << 32 | place, the unflipped share of lo
        high = ((hi * sums) << 32) + top * lo_count
        if k <= (width - 2) // 2:
            mirror_lo = mirror_of(hi, k + 1, width - 1, (0, k))  # the canonical lo: all from hi
            mirror_hi = (mirror_of(lo, 0, k, (k + 1, width - 1)), mirror_of(hi, k + 1, width - 1, (k + 1, width - 1)))
            low = pair(low, ((mirror_hi[0] * sums) << 32) + h0 * lo_count)
            high = pair(high, ((mirror_hi[1] * sums + s_lo[mirror_lo]) << 32) + mirror_lo)
            split = None
        else:
            split = (pair(lo, mirror_of(lo, 0, k, (0, width - 1))),
                     pair(hi * lo_count, mirror_of(hi, k + 1, width - 1, (0, width - 1))))
        mirror = (h0, top, low, high, split)
        self._fast = self._fast_tables(lo_count, sums, s_lo, table_virtual, low_part, class_base, mirror)

    def _fast_tables(self, lo_count, sums, s_lo, table_virtual, low_part, class_base, mirror):
        """The codec's tables in int32 where every position and entry is below NARROW_BELOW, else int64."""
        narrow = max(int(self._round_virtual[-1]), int(np.abs(table_virtual).max()), int(low_part.max()),
                     0 if class_base is None else int(class_base.max()) + low_part.size) < NARROW_BELOW
        kind = np.int32 if narrow else np.int64
        low_part = np.where(low_part >= 0, low_part, -(1 << 30) if narrow else NOT_HELD).astype(kind)
        table_virtual = table_virtual.astype(kind)
        class_base = None if class_base is None else class_base.astype(kind)
        return (lo_count, sums, s_lo, table_virtual, low_part, class_base, mirror)

    def _virtual_fast(self, ids):
        """Virtual positions of ids (int64, below states) through the lookup
        tables (int32 or int64, negative where the table does not hold the board)."""
        lo_count, sums, s_lo, table_virtual, low_part, class_base, mirror = self._fast
        hi = ids // lo_count
        lo = ids - hi * lo_count
        if mirror is None:
            key = hi * sums
            key += s_lo.take(lo)
            place = lo
        else:
            h0, top, low, high, split = mirror
            flip = top.take(hi)
            flip -= h0.take(lo)
            flip >>= 63  # -1 where h0 > t, else 0
            lo <<= 1
            lo -= flip
            hi <<= 1
            hi -= flip
            if split is not None:  # the canonical id, split again
                canonical = split[0].take(lo)
                canonical += split[1].take(hi)
                hi = canonical // lo_count
                lo = canonical - hi * lo_count
            key = low.take(lo)
            key += high.take(hi)
            place = key & 0xFFFFFFFF
            key >>= 32
        if class_base is not None:
            place = place + class_base.take(key)
        virtual = table_virtual.take(key)
        virtual += low_part.take(place)
        return virtual

    def _prepare_codec(self, count):
        """Builds the lookup tables for a request of count ids (FAST_FROM or
        more); whether the codec goes through them."""
        if self._fast is None and self.format_version >= 2 and count >= FAST_FROM and self.states < 1 << 63:
            self._build_fast()
        return self.format_version >= 2 and bool(self._fast)

    def _virtual_chunk(self, chunk, fast):
        """Virtual positions of uint64 ids below states (int64 or int32,
        negative where the table does not hold the board: NOT_HELD, or
        -2^30 from narrow lookup tables)."""
        if self.format_version == 1:
            return self._int_ids(chunk)
        if fast:
            return self._virtual_fast(self._int_ids(chunk))
        return self._virtual_by_columns(chunk)

    def _virtual_positions(self, ids, need=None, checked=False):
        """Virtual positions of uint64 ids (int64, negative where the table
        does not hold the board), STEP ids at a time so that the
        temporaries stay in the caches; marks need[block] for each held one.
        checked: every id is below states."""
        out = np.empty(ids.size, dtype=np.int64)
        fast = self._prepare_codec(ids.size)
        limit = np.uint64(self.states)
        for first in range(0, ids.size, STEP):
            chunk = ids[first:first + STEP]
            every = checked
            if not every:
                inside = chunk < limit
                every = inside.all()
                if not every:
                    chunk = np.where(inside, chunk, np.uint64(0))
            target = out[first:first + chunk.size]
            target[...] = self._virtual_chunk(chunk, fast)
            if not every:
                target[~inside] = NOT_HELD
            if need is not None:
                need[(target if target.min() >= 0 else target[target >= 0]) >> BLOCK_SHIFT] = True
        return out

    def holds(self, ids):
        """Whether the table holds each board id (False past the last id)."""
        return self._virtual_positions(self._checked_ids(ids, past_end=True)) >= 0

    def positions(self, ids):
        """Where each board's value lies in /values (the board must be held;
        in a mirrored table, a board with h0 > h_{W-1} lies where its
        mirror image does)."""
        ids = self._checked_ids(ids)
        if self.format_version == 1:
            return ids.astype(np.int64)
        row_sum, place, _ = self._by_columns(ids)
        return self._offsets64[row_sum] + place

    def values(self, ids):
        """Values of board ids as float64, NaN where the table does not hold
        the board; a BoardError (BoardIdError past the last id) for an id
        that is no board of the well, a TableError for a block the ids fall
        in that does not match its checksum or a value that is not a number
        of pieces."""
        ids = self._checked_ids(ids)
        result = np.empty(ids.size, dtype=np.float64)
        fast = self._prepare_codec(ids.size)
        if WHOLE_READS and self._whole_pays(ids):
            buffer = self._read_whole()
            if buffer is not None:  # every block read and checked: the ids mapped and gathered a batch at a time
                for first in range(0, ids.size, BATCH):
                    virtual = self._virtual_positions(ids[first:first + BATCH], checked=True)
                    for start in range(0, virtual.size, STEP):
                        self._gather_chunk(buffer, virtual[start:start + STEP], result[first + start:first + start + STEP])
                return result
        need = np.zeros(self.block_count, dtype=bool)
        virtual = self._virtual_positions(ids, need, checked=True)
        blocks = np.flatnonzero(need)
        per_group = max(1, READ_BUDGET // (CHECKSUM_VALUES * self.stored_dtype.itemsize))
        if blocks.size <= per_group:
            self._gather(virtual, blocks, result)
            return result
        # More blocks than READ_BUDGET holds: the ids in groups of blocks.
        firsts = blocks[::per_group]
        group = np.searchsorted(firsts, virtual >> BLOCK_SHIFT, side="right") - 1
        group[virtual < 0] = -1
        order = np.argsort(group, kind="stable")
        bounds = np.searchsorted(group[order], np.arange(-1, firsts.size + 1))
        result[order[bounds[0]:bounds[1]]] = np.nan
        for g in range(firsts.size):
            chosen = order[bounds[g + 1]:bounds[g + 2]]
            part = np.empty(chosen.size, dtype=np.float64)
            self._gather(virtual[chosen], blocks[g * per_group:(g + 1) * per_group], part)
            result[chosen] = part
        return result

    def _whole_pays(self, ids):
        """Whether values(ids) reads every block of the table (one that fits
        READ_BUDGET) rather than only those the ids fall in: when the blocks
        a sample of the ids (4 a block) leaves out hold fewer values than
        there are ids, reading them costs less than the second pass over
        the ids (their positions stored, the blocks marked, then gathered)."""
        stored = self.block_count * CHECKSUM_VALUES
        if stored * self.stored_dtype.itemsize > READ_BUDGET or ids.size * 8 < stored:
            return False
        need = np.zeros(self.block_count, dtype=bool)
        self._virtual_positions(ids[::max(1, ids.size // (4 * self.block_count))], need, checked=True)
        return (self.block_count - int(np.count_nonzero(need))) * CHECKSUM_VALUES < ids.size

    def _read_whole(self):
        """Every block, read and checked, laid out as the virtual positions;
        None when a block does not match its checksum (values() then reads
        the blocks its ids need, and refuses the request if that one is
        among them)."""
        buffer = np.empty(self.block_count * CHECKSUM_VALUES, dtype=self.stored_dtype)
        blocks = np.arange(self.block_count, dtype=np.int64)
        try:
            self._read_blocks(blocks, buffer, blocks * CHECKSUM_VALUES)
        except TableError:
            return None
        return buffer

    def _gather(self, virtual, blocks, result):
        """result[i] = the value at virtual[i] (NaN where negative), reading
        and checking `blocks` (ascending), which hold every one of them.
        Blocks that fill at least half of their span are read into a buffer
        laid out as the virtual positions from the first one's (a value's
        index is its virtual position less that start; the pages of the
        blocks not read are never touched); sparser ones back to back, each
        value's index then place[its block] + its virtual position."""
        if blocks.size == 0:
            result[...] = np.nan
            return
        start, span = int(blocks[0]), int(blocks[-1] - blocks[0]) + 1
        place = None
        if span <= 2 * blocks.size:
            buffer = np.empty(span * CHECKSUM_VALUES, dtype=self.stored_dtype)
            self._read_blocks(blocks, buffer, (blocks - start) * CHECKSUM_VALUES)
        else:
            buffer = np.empty(blocks.size * CHECKSUM_VALUES, dtype=self.stored_dtype)
            self._read_blocks(blocks, buffer)
            place = np.empty(self.block_count, dtype=np.int64)
            place[blocks] = (np.arange(blocks.size, dtype=np.int64) - blocks) * CHECKSUM_VALUES
        for first in range(0, virtual.size, STEP):
            self._gather_chunk(buffer, virtual[first:first + STEP], result[first:first + STEP],
                               start * CHECKSUM_VALUES, place)

    def _gather_chunk(self, buffer, virtual, out, shift=0, place=None):
        """out[i] = the value at virtual[i] (int64; NaN where negative), held
        in buffer at virtual[i] - shift, or at place[its block] + virtual[i];
        every value read checked for being a number of pieces."""
        every = virtual.size and virtual.min() >= 0
        if not every:
            held = virtual >= 0
            virtual = virtual[held]
        if place is not None:
            index = place.take(virtual >> BLOCK_SHIFT)
            index += virtual
        else:
            index = virtual - shift if shift else virtual
        if every:
            out[...] = buffer.take(index)
            self._check_values(out)
        else:
            read = buffer.take(index)
            self._check_values(read)
            out[...] = np.nan
            out[held] = read

    def values_of(self, heights):
        return self.values(self.board_id(heights))

    # Whole-table scans: position -> board id.

    def _build_unrank(self):
        """Tables for the ids of a round's rows in id order: a row id
        r = h_1 + h_2 B + ... (the board's id over base) splits into its k
        low columns (rl < R = base^k) and the rest (rh), and round S's rows
        are, rh ascending, rh * R + every rl whose height sum is S - s(rh),
        ascending. Sorts the rl by (height sum, rl) once."""
        columns = self.width - 1
        k = (columns + 1) // 2
        if self.base ** k > FAST_ENTRIES:
            self._unrank = False
            return
        low = np.arange(self.base ** k, dtype=np.int64)
        low_sum = np.zeros(low.size, dtype=np.int64)
        for column in range(k):
            low_sum += low // self.base ** column % self.base
        order = np.argsort(low_sum, kind="stable")
        starts = np.searchsorted(low_sum[order], np.arange(k * self.height + 2))
        high = np.arange(self.base ** (columns - k), dtype=np.int64)
        high_sum = np.zeros(high.size, dtype=np.int64)
        for column in range(columns - k):
            high_sum += high // self.base ** column % self.base
        self._unrank = (self.base ** k, k * self.height, order, starts, high_sum)
        self._unrank_round = None

    def _round_segments(self, row_sum):
        """For round S: the rh that have rows in it, where each one's rows
        start among the round's rows and in the sorted rl (cached for the last round)."""
        if self._unrank_round is not None and self._unrank_round[0] == row_sum:
            return self._unrank_round[1]
        low_count, low_most, order, starts, high_sum = self._unrank
        rest = row_sum - high_sum
        high = np.flatnonzero((rest >= 0) & (rest <= low_most))
        rest = rest[high]
        counts = starts[rest + 1] - starts[rest]
        ends = np.cumsum(counts)
        segments = (high * low_count, counts, ends, starts[rest] - (ends - counts))
        self._unrank_round = (row_sum, segments)
        return segments

    def _rows(self, row_sum, first, end):
        """Row ids of the rows first..end-1 of round S in id order."""
        if self._unrank is None:
            self._build_unrank()
        if not self._unrank:
            return self._rows_by_columns(row_sum, np.arange(first, end, dtype=np.int64))
        order = self._unrank[2]
        high, counts, ends, shift = self._round_segments(row_sum)
        a = int(np.searchsorted(ends, first, side="right"))
        b = int(np.searchsorted(ends, end - 1, side="right")) + 1
        counts = counts[a:b]
        rank = np.arange(int(ends[a] - counts[0]), int(ends[b - 1]), dtype=np.int64)
        rows = order[rank + np.repeat(shift[a:b], counts)] + np.repeat(high[a:b], counts)
        start = first - int(rank[0])
        return rows[start:start + end - first]

    def _rows_by_columns(self, row_sum, ranks):
        """The same by a binary search per column (the inverse of _by_columns)."""
        prefix = self._prefix64
        remaining = np.full(ranks.size, row_sum, dtype=np.int64)
        rest = ranks.copy()
        rows = np.zeros(ranks.size, dtype=np.int64)
        for column in range(self.width - 1, 1, -1):
            below = lambda value: prefix[column - 1][remaining + 1] - prefix[column - 1][remaining - value + 1]
            low = np.zeros(ranks.size, dtype=np.int64)
            high = np.minimum(self.height, remaining)
            while np.any(low < high):
                middle = (low + high + 1) // 2
                fits = below(middle) <= rest
                low = np.where(fits, middle, low)
                high = np.where(fits, high, middle - 1)
            rest -= below(low)
            remaining -= low
            rows += low * self.base ** (column - 1)
        return rows + remaining if self.width > 1 else rows

    def _ids_at(self, first, end):
        """Board ids of the values at positions first..end-1 (versions 2 and 3)."""
        pieces = []
        round_index = int(np.searchsorted(self._offsets64, first, side="right")) - 1
        while first < end:
            start = int(self._offsets64[round_index])
            stop = min(end, int(self._offsets64[round_index + 1]))
            if stop > first and self.mirrored:
                pieces.extend(self._mirrored_ids_at(round_index, first - start, stop - start))
                first = stop
            elif stop > first:
                h0 = self._h0_lists[round_index % self.modulus]
                length = h0.size
                row, last = (first - start) // length, (stop - start - 1) // length
                rows = self._rows(round_index, row, last + 1)
                ids = (rows[:, None] * self.base + h0[None, :]).reshape(-1)
                skip = first - start - row * length
                pieces.append(ids[skip:skip + stop - first])
                first = stop
            round_index += 1
        return pieces[0] if len(pieces) == 1 else np.concatenate(pieces)

    def _mirrored_ids_at(self, row_sum, first, end):
        """Board ids of the values first..end-1 of round S of a mirrored
        table (positions within the round): a list of arrays, one for each
        top t whose rows they reach, the rows of top t being the round's
        rows top_rows[S][t].. in id order, each of the first short(S, t) h0."""
        pieces = []
        tops = self._top_values64[row_sum]
        top = int(np.searchsorted(tops, first, side="right")) - 1
        while first < end:
            start, stop = int(tops[top]), min(end, int(tops[top + 1]))
            if stop > first:
                length = int(self._short64[row_sum % self.modulus, top])
                h0 = self._h0_lists[row_sum % self.modulus][:length]
                row, last = (first - start) // length, (stop - start - 1) // length
                below = int(self._top_rows64[row_sum, top])
                rows = self._rows(row_sum, below + row, below + last + 1)
                ids = (rows[:, None] * self.base + h0[None, :]).reshape(-1)
                skip = first - start - row * length
                pieces.append(ids[skip:skip + stop - first])
                first = stop
            top += 1
        return pieces

    def _scan(self, blocks, with_ids):
        """(ids or None, float64 values) for `blocks` checksummed blocks at a time, in file order."""
        if blocks < 1:
            raise ValueError("iter_blocks: blocks must be at least 1")
        for index in range(0, self.block_count, blocks):
            indices = np.arange(index, min(self.block_count, index + blocks), dtype=np.int64)
            first, count = self._block_extent(indices)
            start, end = int(first[0]), int(first[-1] + count[-1])
            # Back to back in the file: read as one run, checked block by block.
            buffer = np.empty(end - start, dtype=self.stored_dtype)
            self._read_range(buffer, 0, start, end - start)
            if self.checksums is not None:
                self._check_crcs(buffer, indices, first - start, count, first)
            values = buffer.astype(np.float64, copy=False)
            self._check_values(values)
            if not with_ids:
                yield None, values
            elif self.format_version == 1:
                yield np.arange(start, end, dtype=np.int64), values
            else:
                yield self._ids_at(start, end), values

    def iter_blocks(self, blocks=SCAN_BLOCKS):
        """The whole table in file order: (ids, values) for `blocks`
        checksummed blocks of CHECKSUM_VALUES values at a time (the last of
        a round may be shorter), each block checked against its checksum and
        every value for being a number of pieces: ids int64, values float64,
        fresh arrays each step. Versions 2 and 3 yield the ids of the stored
        boards only (a mirrored table's canonical ones, h0 <= h_{W-1});
        version 1 every id in order."""
        return self._scan(blocks, True)

    def check_all(self):
        """Reads every value, checking every block against its checksum
        (versions 2 and 3) and every value for being a number of pieces."""
        for _ in self._scan(SCAN_BLOCKS, False):
            pass

    def to_numpy(self, memory_limit=None):
        """The whole table as one float64 array in board-id order, NaN
        where the table does not hold the board. Refused with a TableError
        naming the sizes when it would need more than memory_limit bytes
        (default: three quarters of MemAvailable; no limit when that is unknown)."""
        if memory_limit is None:
            available = memory_available()
            memory_limit = available * 3 // 4 if available else None
        scan = 0 if self.format_version == 1 else SCAN_BLOCKS * CHECKSUM_VALUES * 32
        needed = self.states * 8 + scan
        if memory_limit is not None and needed > memory_limit:
            raise TableError("%s: to_numpy() needs %s (%d boards, 8 bytes each%s), more than the memory limit of %s; "
                             "scan it with iter_blocks()" % (self.path, size_text(needed), self.states,
                                                             ", and %s to read" % size_text(scan) if scan else "",
                                                             size_text(memory_limit)))
        result = np.empty(self.states, dtype=np.float64)
        if self.format_version == 1:
            step = SCAN_BLOCKS * CHECKSUM_VALUES
            for first in range(0, self.states, step):
                end = min(self.states, first + step)
                self._read_range(result, first, first, end - first)
                self._check_values(result[first:end])
            return result
        if len(self.residues) < self.modulus:
            result.fill(np.nan)
        for ids, values in self._scan(SCAN_BLOCKS, True):
            result[ids] = values
        if self.mirrored:
            self._fill_mirror_images(result)
        return result

    def _fill_mirror_images(self, result):
        """result[id] for each board with h0 > h_{W-1}: the value of its
        mirror image, which a mirrored table stores (result holds it)."""
        powers = self.base ** np.arange(self.width, dtype=np.int64)
        for first in range(0, self.states, STEP):
            ids = np.arange(first, min(self.states, first + STEP), dtype=np.int64)
            h = self._heights_of(ids)
            flip = np.flatnonzero(h[:, 0] > h[:, -1])
            result[ids[flip]] = result[h[flip, ::-1] @ powers]

    def close(self):
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()


def main(arguments=None):
    """stack-table TABLE [--check] [BOARD ...]: prints the values of the
    boards (or a summary), each a board id (7) or its column heights, one a
    column, with commas (1,0,0,0); --check first reads every value against
    its checksum. Refuses a table it cannot trust with one line and exit 2."""
    if arguments is None:
        arguments = sys.argv[1:]
    if "--help" in arguments or "-h" in arguments:
        print("usage: stack-table TABLE [--check] [BOARD ...]\n" + main.__doc__.split(":", 1)[1].strip())
        return 0
    check = "--check" in arguments
    arguments = [a for a in arguments if a != "--check"]
    if not arguments:
        print("usage: stack-table TABLE [--check] [BOARD ...]", file=sys.stderr)
        return 2
    try:
        boards = [[int(h) for h in b.split(",")] if "," in b else int(b) for b in arguments[1:]]
    except ValueError as error:
        print("stack_table: error: a board is an id or heights with commas, whole numbers: %s" % error,
              file=sys.stderr)
        return 2
    try:
        with StackTable(arguments[0]) as table:
            ids = [int(table.board_id(b)[0]) if isinstance(b, list) else b for b in boards]
            if ids and (min(ids) < 0 or max(ids) >= table.states):
                raise BoardIdError("board ids run from 0 to %d in %s" % (table.states - 1, table.path))
            if check:
                table.check_all()
                stored = int(table.dataset.shape[0])
                print("%s: checked: all %d stored values read, %s" % (
                    table.path, stored, "every block of them against its checksum (%d blocks)" % table.block_count
                    if table.format_version >= 2 else "each a number of pieces (format 1 keeps no checksums)"))
            if len(arguments) == 1:
                print("%s: %dx%d, %s, format %d, %s, classes %s (mod %d)%s%s"
                      % (table.path, table.width, table.height, table.piece_set, table.format_version,
                         table.precision, table.residues, table.modulus,
                         ", mirrored (canonical boards only, h0 <= h%d stored; the others read mirrored)"
                         % (table.width - 1) if table.mirrored else "",
                         ", line clears (the well game: sweeps 0..%d, %s bound %.3g)"
                         % (table.sweeps["sweep"], "proven" if table.sweeps["bound_kind"] == "proven" else "estimated",
                            table.sweeps["bound"]) if table.clears != "none" else ""))
                table.values(np.arange(min(table.states, 1 << 16)))  # reads and checks the first blocks
            else:
                for value in table.values(ids):
                    print(repr(float(value)))
    except (TableError, BoardError) as error:
        print("stack_table: error: %s" % error, file=sys.stderr)
        return 2
    except (OSError, RuntimeError, KeyError, ValueError) as error:  # h5py on damaged metadata
        print("stack_table: error: '%s' is damaged: %s" % (arguments[0], error), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
