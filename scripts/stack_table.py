"""Read stackgen's tables from Python (numpy + h5py): both formats.

    from stack_table import StackTable
    table = StackTable("stack_6x20.h5")
    table.values([0, 1, 12345])           # float64 array, NaN where the table does not hold the board
    table.values_of([[0, 0, 0, 0, 0, 0]])  # the same by column heights
    table.holds(ids), table.heights(ids), table.board_id(heights)

Version 2 tables store their values round by round (the row sum S is the
height sum of columns 1..W-1), rows in board-id order, each row the
column-0 heights of the stored residue classes of the height sum mod g (g
the gcd of the piece set's sizes, 4 for the tetrominoes; table.modulus):
position = round_offsets[S] + rank(h_1..h_{W-1}) * n(S) + index(S, h0), the
same codec as common/table/table_format.h, computed here with counting tables of
compositions. Version 1 tables store every board in id order.

Run with Debian's /usr/bin/python3 (it has numpy and h5py).
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

# The pieces attribute of a table written before piece sets were stored
# (common/rules/pieces.h, TetrominoTable): such a table is the tetrominoes'.
TETROMINOES = ("i: ([0,0,0],[1,1,1,1]) ([],[4])\n"
               "t: ([-1,1],[1,2,1]) ([-1],[1,3]) ([0,0],[1,2,1]) ([1],[3,1])\n"
               "sq: ([0],[2,2])\n"
               "zr: ([0,1],[1,2,1]) ([-1],[2,2])\n"
               "zl: ([-1,0],[1,2,1]) ([1],[2,2])\n"
               "lr: ([1,0],[2,1,1]) ([-2],[1,3]) ([0,0],[1,1,2]) ([0],[3,1])\n"
               "ll: ([0,-1],[1,1,2]) ([0],[1,3]) ([0,0],[2,1,1]) ([2],[3,1])\n")
CHECKSUM_VALUES = 4096  # values per checksummed block; blocks start at each round's first value


class TableError(Exception):
    """The file is not a table this reader knows."""


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


def metadata_seconds():
    """The metadata child's time limit: 20 s, or STACK_METADATA_SECONDS."""
    text = os.environ.get("STACK_METADATA_SECONDS", "")
    return int(text) if text.isdigit() and int(text) > 0 else 20


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
        if self.format_version not in (1, 2):
            raise TableError("%s has table format version %d; this reader knows 1 and 2" % (path, self.format_version))
        if not (1 <= self.width <= 16 and 1 <= self.height <= 1000000):
            raise TableError("%s has an invalid shape %dx%d" % (path, self.width, self.height))
        self.base = self.height + 1
        self.states = self.base ** self.width
        if self._integer("states") != self.states:
            raise TableError("%s: its states attribute does not match its width and height" % path)
        self._read_piece_set()
        if "values" not in self.file:
            raise TableError("%s is not a stacking table: dataset /values is missing" % path)
        self.dataset = self.file["values"]
        self.checksums = None
        if self.format_version == 1:
            self.residues = tuple(range(self.modulus))
            self.precision = "float64"
            self._check_claims(self.states)
            if self.dataset.shape != (self.states,):
                raise TableError("%s: /values does not hold %d values in one dimension" % (path, self.states))
            self._check_storage(self.states)
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
        if self.precision not in ("float64", "float32"):
            raise TableError("%s: attribute 'precision' is '%s', not float64 or float32" % (path, self.precision))
        self._check_claims(self._integer("stored_states"))
        self._build_layout()
        stored = np.asarray(self.file["round_offsets"][...], dtype=np.uint64)
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
        self.checksums = np.asarray(self.file["checksums"][...], dtype=np.uint32)
        if self.checksums.shape != (int(self.block_offsets[-1]),):
            raise TableError("%s: /checksums does not hold one checksum per block" % path)

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
            if zlib.crc32((name + "\n" + text + cells).encode()) != stored:
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
        a version-2 table must store at least what its shape and classes give."""
        if stored * self._value_bytes() > self.file_size:
            raise TableError("'%s' is damaged: it claims %d values (%d bytes) but the file holds only %d bytes"
                             % (self.path, stored, stored * self._value_bytes(), self.file_size))
        if self.format_version >= 2:
            fewest = self.base ** (self.width - 1) * (self.base // self.modulus) * len(self.residues)
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

    def check_all(self):
        """Reads every value, checking every block against its checksum
        (version 2) and every value for being a number of pieces."""
        total = int(self.dataset.shape[0])
        step = CHECKSUM_VALUES * 256
        for first in range(0, total, step):
            self._read(np.arange(first, min(first + step, total), dtype=np.int64))

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
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.uint64)

    def heights(self, ids):
        """Column heights of board ids: an (n, W) array."""
        ids = np.asarray(ids, dtype=np.uint64).reshape(-1)
        result = np.zeros((ids.size, self.width), dtype=np.int64)
        rest = ids.copy()
        for column in range(self.width):
            result[:, column] = (rest % np.uint64(self.base)).astype(np.int64)
            rest //= np.uint64(self.base)
        return result

    def board_id(self, heights):
        heights = np.asarray(heights, dtype=np.uint64).reshape(-1, self.width)
        ids = np.zeros(heights.shape[0], dtype=np.uint64)
        for column in reversed(range(self.width)):
            ids = ids * np.uint64(self.base) + heights[:, column]
        return ids

    def holds(self, ids):
        ids = np.asarray(ids, dtype=np.uint64).reshape(-1)
        inside = ids < np.uint64(self.states)
        sums = self.heights(np.where(inside, ids, 0)).sum(axis=1) % self.modulus
        return inside & np.isin(sums, self.residues)

    def positions(self, ids):
        """Where each board's value lies in /values (the board must be held)."""
        ids = np.asarray(ids, dtype=np.uint64).reshape(-1)
        if self.format_version == 1:
            return ids.astype(np.int64)
        h = self.heights(ids)
        row_sum = h[:, 1:].sum(axis=1)
        rank = np.zeros(ids.size, dtype=np.uint64)
        remaining = row_sum.copy()
        for j in range(self.width - 2, 0, -1):  # column j + 1 of the board, most significant first
            value = h[:, j + 1]
            # the rows whose column j + 1 is lower: prefix(j, s) - prefix(j, s - value)
            rank += self.prefix[j, remaining + 1] - self.prefix[j, remaining - value + 1]
            remaining -= value
        length = self.row_length[row_sum % self.modulus].astype(np.uint64)
        index = self.index[row_sum % self.modulus, h[:, 0]].astype(np.uint64)
        return (self.offsets[row_sum] + rank * length + index).astype(np.int64)

    def values(self, ids):
        """Values of board ids as float64, NaN where the table does not hold the board."""
        ids = np.asarray(ids, dtype=np.uint64).reshape(-1)
        result = np.full(ids.size, np.nan)
        held = self.holds(ids)
        if held.any():
            result[held] = self._read(self.positions(ids[held]))
        return result

    def _blocks(self, positions):
        """The first position and value count of the block of each position
        (checksummed blocks in version 2, blocks of 4096 from 0 in version 1)."""
        if self.checksums is None:
            first = positions // CHECKSUM_VALUES * CHECKSUM_VALUES
            return first, np.minimum(CHECKSUM_VALUES, self.dataset.shape[0] - first)
        rounds = np.searchsorted(self.offsets, positions, side="right") - 1
        within = (positions - self.offsets[rounds].astype(np.int64)) // CHECKSUM_VALUES
        first = self.offsets[rounds].astype(np.int64) + within * CHECKSUM_VALUES
        return first, np.minimum(CHECKSUM_VALUES, self.offsets[rounds + 1].astype(np.int64) - first)

    def _read(self, positions):
        """Values at positions of /values, reading whole blocks (h5py's point
        selections are slow for many points), each checked against its
        checksum in version 2."""
        unique, inverse = np.unique(positions, return_inverse=True)
        read = np.empty(unique.size, dtype=np.float64)
        firsts, counts = self._blocks(unique)
        starts = np.flatnonzero(np.concatenate([[True], firsts[1:] != firsts[:-1]]))
        ends = np.concatenate([starts[1:], [unique.size]])
        for start, end in zip(starts, ends):
            first, count = int(firsts[start]), int(counts[start])
            block = self.dataset[first:first + count]
            if self.checksums is not None:
                round_index = int(np.searchsorted(self.offsets, first, side="right")) - 1
                index = int(self.block_offsets[round_index]) + (first - int(self.offsets[round_index])) // CHECKSUM_VALUES
                stored = np.ascontiguousarray(block, dtype="<f8" if self.precision == "float64" else "<f4")
                if zlib.crc32(stored.tobytes()) != int(self.checksums[index]):
                    raise TableError("%s is damaged: values %d..%d (block %d) do not match their checksum"
                                     % (self.path, first, first + count - 1, index))
            read[start:end] = block[unique[start:end] - first]
        if np.any(~np.isfinite(read)) or np.any(read < 0):
            raise TableError("%s holds a value that is not a number of pieces" % self.path)
        return read[inverse]

    def values_of(self, heights):
        return self.values(self.board_id(heights))

    def close(self):
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()


def main(arguments):
    """stack_table.py TABLE [--check] [ID ...]: prints the values of the ids
    (or a summary); --check first reads every value against its checksum.
    Refuses a table it cannot trust with one line and exit 2."""
    if "--help" in arguments or "-h" in arguments:
        print("usage: stack_table.py TABLE [--check] [ID ...]\n" + main.__doc__.split(":", 1)[1].strip())
        return 0
    check = "--check" in arguments
    arguments = [a for a in arguments if a != "--check"]
    if not arguments:
        print("usage: stack_table.py TABLE [--check] [ID ...]", file=sys.stderr)
        return 2
    try:
        ids = [int(i) for i in arguments[1:]]
    except ValueError as error:
        print("stack_table: error: a board id must be a whole number: %s" % error, file=sys.stderr)
        return 2
    try:
        with StackTable(arguments[0]) as table:
            if ids and (min(ids) < 0 or max(ids) >= table.states):
                raise TableError("board ids run from 0 to %d in %s" % (table.states - 1, table.path))
            if check:
                table.check_all()
            if len(arguments) == 1:
                print("%s: %dx%d, %s, format %d, %s, classes %s (mod %d)"
                      % (table.path, table.width, table.height, table.piece_set, table.format_version,
                         table.precision, table.residues, table.modulus))
                table.values(np.arange(min(table.states, 1 << 16)))  # reads and checks the first blocks
            else:
                for value in table.values(ids):
                    print(repr(float(value)))
    except TableError as error:
        print("stack_table: error: %s" % error, file=sys.stderr)
        return 2
    except (OSError, RuntimeError, KeyError, ValueError) as error:  # h5py on damaged metadata
        print("stack_table: error: '%s' is damaged: %s" % (arguments[0], error), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
