"""Read stackgen's tables from Python (numpy + h5py): both formats.

    from stack_table import StackTable
    table = StackTable("stack_6x20.h5")
    table.values([0, 1, 12345])           # float64 array, NaN where the table does not hold the board
    table.values_of([[0, 0, 0, 0, 0, 0]])  # the same by column heights
    table.holds(ids), table.heights(ids), table.board_id(heights)

Version 2 tables store their values round by round (the row sum S is the
height sum of columns 1..W-1), rows in board-id order, each row the
column-0 heights of the stored residue classes of the height sum mod 4:
position = round_offsets[S] + rank(h_1..h_{W-1}) * n(S) + index(S, h0), the
same codec as common/table_format.h, computed here with counting tables of
compositions. Version 1 tables store every board in id order.

Run with Debian's /usr/bin/python3 (it has numpy and h5py).
"""
import h5py
import numpy as np

CLASSES = 4  # every piece adds 4 cells


class TableError(Exception):
    """The file is not a table this reader knows."""


class StackTable:
    def __init__(self, path):
        self.path = path
        self.file = h5py.File(path, "r")
        attributes = self.file.attrs
        for name in ("format_version", "width", "height"):
            if name not in attributes:
                raise TableError("%s is not a stacking table: attribute '%s' is missing" % (path, name))
        self.format_version = int(attributes["format_version"])
        self.width = int(attributes["width"])
        self.height = int(attributes["height"])
        if self.format_version not in (1, 2):
            raise TableError("%s has table format version %d; this reader knows 1 and 2" % (path, self.format_version))
        self.base = self.height + 1
        self.states = self.base ** self.width
        self.dataset = self.file["values"]
        if self.format_version == 1:
            self.residues = (0, 1, 2, 3)
            self.precision = "float64"
            return
        self.residues = tuple(int(r) for r in attributes["residue_classes"])
        self.precision = attributes["precision"]
        if isinstance(self.precision, bytes):
            self.precision = self.precision.decode()
        self._build_layout()
        stored = np.asarray(self.file["round_offsets"][...], dtype=np.uint64)
        if not np.array_equal(stored, self.offsets):
            raise TableError("%s: /round_offsets disagrees with its width, height and residue classes" % path)

    def _build_layout(self):
        """The counting tables of the version-2 codec."""
        columns, height = self.width - 1, self.height
        max_sum = columns * height
        # count[j][s]: vectors of j columns in [0, H] summing to s.
        count = np.zeros((columns + 1, max_sum + 1), dtype=np.uint64)
        count[0][0] = 1
        for j in range(1, columns + 1):
            for v in range(height + 1):
                count[j][v:] += count[j - 1][:max_sum + 1 - v]
        # below[j][s][v]: vectors of columns 0..j summing to s whose column j is below v.
        below = np.zeros((max(columns, 1), max_sum + 1, height + 1), dtype=np.uint64)
        for j in range(1, columns):
            for v in range(1, height + 1):
                shifted = np.zeros(max_sum + 1, dtype=np.uint64)
                shifted[v - 1:] = count[j][:max_sum + 2 - v]
                below[j, :, v] = below[j, :, v - 1] + shifted
        self.count, self.below = count, below
        # Row lengths and the index of each h0 in a row, by the row sum mod 4.
        self.index = np.full((CLASSES, height + 1), -1, dtype=np.int64)
        self.row_length = np.zeros(CLASSES, dtype=np.int64)
        for sum_class in range(CLASSES):
            for h0 in range(height + 1):
                if (sum_class + h0) % CLASSES in self.residues:
                    self.index[sum_class][h0] = self.row_length[sum_class]
                    self.row_length[sum_class] += 1
        sizes = count[columns] * self.row_length[np.arange(max_sum + 1) % CLASSES].astype(np.uint64)
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
        sums = self.heights(np.where(inside, ids, 0)).sum(axis=1) % CLASSES
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
            rank += self.below[j, remaining, value]
            remaining -= value
        length = self.row_length[row_sum % CLASSES].astype(np.uint64)
        index = self.index[row_sum % CLASSES, h[:, 0]].astype(np.uint64)
        return (self.offsets[row_sum] + rank * length + index).astype(np.int64)

    def values(self, ids):
        """Values of board ids as float64, NaN where the table does not hold the board."""
        ids = np.asarray(ids, dtype=np.uint64).reshape(-1)
        result = np.full(ids.size, np.nan)
        held = self.holds(ids)
        if held.any():
            result[held] = self._read(self.positions(ids[held]))
        return result

    BLOCK = 1 << 16  # values read at a time

    def _read(self, positions):
        """Values at positions of /values, reading whole blocks of BLOCK values
        (h5py's point selections are slow for many points)."""
        unique, inverse = np.unique(positions, return_inverse=True)
        read = np.empty(unique.size, dtype=np.float64)
        blocks = unique // self.BLOCK
        starts = np.flatnonzero(np.concatenate([[True], blocks[1:] != blocks[:-1]]))
        ends = np.concatenate([starts[1:], [unique.size]])
        for start, end in zip(starts, ends):
            first = int(blocks[start]) * self.BLOCK
            block = self.dataset[first:min(first + self.BLOCK, self.dataset.shape[0])]
            read[start:end] = block[unique[start:end] - first]
        return read[inverse]

    def values_of(self, heights):
        return self.values(self.board_id(heights))

    def close(self):
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()
