#!/usr/bin/python3
"""The Python reader (common/table/python/stack_table.py) against the C++ lookups.

    python_reader.py BUILD_DIR WORK_DIR

Generates version-3 tables (all classes float64; classes 1 and 3 float32;
the pentominoes' class 2 of 5; a weighted piece file of three sizes) with
stackgen, writes a version-1 copy of the first with h5py, takes the table
written before piece sets were stored (tests/data/legacy, version 2), and for
10,000 random ids plus the corners compares StackTable(path).values(ids)
with table_values (C++ StackTable, resident and lazy): the same bits, NaN
exactly where the C++ table does not hold the board. Then checks a few
boards against `stackplay --explain --json`.

The bulk reads, on every one of those tables: to_numpy() and values() of
every id against the C++ values of every id; iter_blocks() (one block, three
and the default at a time) yields each held board once, in file order
(positions 0, 1, ...), with its value; the lookup-table codec against the
column-by-column one, the inverse by binary search and values() in groups of
blocks give the same. A table with one byte of a value flipped (float64 and
float32) is refused by values() on that block, iter_blocks() exactly at that
block, to_numpy() and check_all(), naming the block, and still read away
from it; a value made negative behind a good checksum, and a version-1 NaN,
are refused by each; to_numpy() past its memory limit is refused naming
the sizes.

Mirrored tables (version 3, mirror = "canonical": only the boards with
h0 <= h_{W-1} stored), which stackgen does not write: each is made here
with h5py from a full table of stackgen (5x8 and 4x6, every class and
class 0 alone; 5x8 classes 1 and 3 in float32), its layout from plain loops
over every board in id order (a round's stored boards in id order, those
with h0 > h_{W-1} left out), with its own round_offsets, stored_states,
checksums and values_crc64. The C++ table_values and every read of the
reader (values of every id, by heights, holds, to_numpy, iter_blocks,
positions, both inverses, values in groups of blocks, the command) must give
each board the full table's value, those with h0 > h_{W-1} included. A
version-3 table whose mirror attribute is 'sideways' or missing, and a full
table that says it is mirrored, are refused.

Mirrored against full by id (issue 58): 200,000 random ids (half of them
the others' mirror images) read from each mirrored table (stackgen's, the
loops' copies) through the lookup tables, built for every split of the id's
digits, in int32 and int64, reading every block first and only the blocks
needed, give the full table's values of the same well bit for bit.
"""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import zlib

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "table", "python"))
import stack_table  # noqa: E402
from stack_table import CHECKSUM_VALUES, BoardError, BoardIdError, StackTable, TableError  # noqa: E402
from reseal import reseal  # noqa: E402

build, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
stackgen = os.path.join(build, "gen", "stackgen")
stackplay = os.path.join(build, "play", "stackplay")
table_values = os.path.join(build, "tests", "table_values")
environment = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def generate(path, *options, shape=(5, 8)):
    subprocess.run([stackgen, "--width", str(shape[0]), "--height", str(shape[1]), "--output", path, "--quiet",
                    *options], check=True, env=environment)


def cpp_values(path, ids, lazy):
    command = [table_values, path] + (["--lazy"] if lazy else [])
    out = subprocess.run(command, input="\n".join(str(int(i)) for i in ids), capture_output=True, text=True,
                         check=True).stdout
    return np.array([np.nan if v is None else v for v in json.loads(out)], dtype=np.float64)


def same(a, b):
    return a.shape == b.shape and np.array_equal(np.isnan(a), np.isnan(b)) and np.array_equal(
        a[~np.isnan(a)].view(np.uint64), b[~np.isnan(b)].view(np.uint64))


all_classes = os.path.join(work, "stack_5x8_all.h5")
odd = os.path.join(work, "stack_5x8_odd_f32.h5")
old = os.path.join(work, "stack_5x8_v1.h5")
pentominoes = os.path.join(work, "pentominoes_5x8_class2.h5")
mixed = os.path.join(work, "mixed_5x8.h5")
data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
legacy = os.path.join(data, "legacy", "tetrominoes_5x6.h5")
generate(all_classes)
generate(odd, "--residue", "1", "--residue", "3", "--precision", "float32")
generate(pentominoes, "--pieces", "pentominoes", "--residue", "2")
generate(mixed, "--pieces", os.path.join(data, "pieces", "mixed.txt"))
# What each table must say it holds: (set, modulus).
expected_sets = {all_classes: ("tetrominoes", 4), odd: ("tetrominoes", 4), old: ("tetrominoes", 4),
                 pentominoes: ("pentominoes", 5), mixed: ("file mixed.txt", 1), legacy: ("tetrominoes", 4)}

# A version-1 copy: every board in id order, from the version-2 table.
with StackTable(all_classes) as table:
    every = table.values(np.arange(table.states))
    with h5py.File(old, "w") as out:
        for name, value in table.file.attrs.items():
            if name not in ("layout", "residue_classes", "precision", "stored_states"):
                out.attrs[name] = value
        out.attrs["format_version"] = np.int64(1)
        out.create_dataset("values", data=every)

checked = 0
rng = np.random.default_rng(7)
for path in (all_classes, odd, old, pentominoes, mixed, legacy):
    with StackTable(path) as table:
        assert (table.piece_set, table.modulus) == expected_sets[path], (path, table.piece_set, table.modulus)
        ids = np.concatenate([rng.integers(0, table.states, 10000), [0, 1, table.states - 1]]).astype(np.uint64)
        python = table.values(ids)
        for lazy in (False, True):
            cpp = cpp_values(path, ids, lazy)
            assert same(python, cpp), "%s (%s): Python and C++ disagree on %d ids" % (
                path, "lazy" if lazy else "resident", int(np.sum(~((python == cpp) | (np.isnan(python) & np.isnan(cpp))))))
        held = table.holds(ids)
        assert np.array_equal(np.isnan(python), ~held), path
        if path == odd:
            assert np.all(held == np.isin(table.heights(ids).sum(axis=1) % 4, [1, 3])), "classes 1 and 3"
            # float32: the float64 table's values rounded to nearest
            with StackTable(all_classes) as full:
                exact = full.values(ids[held])
            assert np.array_equal(python[held], exact.astype(np.float32).astype(np.float64)), "float32 rounding"
        if path == pentominoes:
            assert np.all(held == (table.heights(ids).sum(axis=1) % 5 == 2)), "the pentominoes' class 2"
        checked += ids.size
        print("%s: %s, format %d, %s, classes %s mod %d: %d ids agree (resident and lazy)" % (
            os.path.basename(path), table.piece_set, table.format_version, table.precision, table.residues,
            table.modulus, ids.size))



def refused(what, read, pattern, kind=TableError):
    """read() must raise a `kind` (TableError: a bad file; BoardError, a
    ValueError: a bad board; BoardIdError, also a LookupError: an id past
    the table) whose message holds pattern."""
    try:
        read()
    except Exception as error:
        assert isinstance(error, kind), "%s: refused with %s, expected a %s" % (what, type(error).__name__, kind.__name__)
        assert pattern in str(error), "%s: refused with '%s', expected '%s'" % (what, error, pattern)
        return
    raise AssertionError("%s was read; expected a refusal with '%s'" % (what, pattern))


def scan(table, blocks):
    """iter_blocks(blocks) joined: (ids, values, the size of each step)."""
    steps = list(table.iter_blocks(blocks))
    for ids, values in steps:
        assert ids.dtype == np.int64 and values.dtype == np.float64 and ids.shape == values.shape
    return (np.concatenate([ids for ids, _ in steps]), np.concatenate([values for _, values in steps]),
            [values.size for _, values in steps])


# The bulk reads against the C++ values of every id.
for path in (all_classes, odd, old, pentominoes, mixed, legacy):
    with StackTable(path) as table:
        every = np.arange(table.states, dtype=np.uint64)
        cpp = cpp_values(path, every, False)
        assert same(cpp, cpp_values(path, every, True)), "%s: the C++ resident and lazy tables disagree" % path
        held = np.flatnonzero(~np.isnan(cpp))
        whole = table.to_numpy()
        assert whole.dtype == np.float64 and same(whole, cpp), "%s: to_numpy() and C++ disagree on %d ids" % (
            path, int(np.sum(~((whole == cpp) | (np.isnan(whole) & np.isnan(cpp))))))
        assert table.states >= stack_table.FAST_FROM
        assert same(table.values(every), cpp), "%s: values() of every id and C++ disagree" % path
        if table.format_version >= 2:
            assert table._fast, "%s: values() of every id did not use the lookup tables" % path
            fast, by_columns = table._virtual_fast(every.view(np.int64)), table._virtual_by_columns(every)
            assert np.array_equal(np.maximum(fast, -1), np.maximum(by_columns, -1)), \
                "%s: the lookup tables and the column-by-column codec disagree" % path  # negative: not held
        if table.mirrored:  # the file holds the canonical boards, h0 <= h(W-1)
            base = table.height + 1
            held = held[held % base <= held // base ** (table.width - 1)]
        for blocks in (1, 3, stack_table.SCAN_BLOCKS):
            ids, values, sizes = scan(table, blocks)
            assert np.array_equal(np.sort(ids), held), "%s: iter_blocks(%d) does not yield each held board once" % (
                path, blocks)
            assert same(values, cpp[ids]), "%s: iter_blocks(%d) and C++ disagree" % (path, blocks)
            assert np.array_equal(table.positions(ids), np.arange(ids.size)), "%s: iter_blocks(%d) not in file order" % (
                path, blocks)
            assert max(sizes) <= blocks * CHECKSUM_VALUES and len(sizes) == -(-table.block_count // blocks)
        if table.format_version >= 2:
            table._unrank = False  # the inverse by binary search, column by column
            assert np.array_equal(scan(table, 3)[0], ids), "%s: the two inverses of the codec disagree" % path
            table._unrank = None
        # values() holding only five blocks at once: the ids in groups of blocks.
        budget, stack_table.READ_BUDGET = stack_table.READ_BUDGET, 5 * CHECKSUM_VALUES * 8
        try:
            some = np.concatenate([rng.integers(0, table.states, 30000), [table.states - 1]]).astype(np.uint64)
            assert same(table.values(some), whole[some]), "%s: values() in groups of blocks" % path
        finally:
            stack_table.READ_BUDGET = budget
        print("%s: to_numpy, values and iter_blocks (1, 3, %d blocks a step) agree with C++ on all %d ids" % (
            os.path.basename(path), stack_table.SCAN_BLOCKS, table.states))
        checked += 2 * table.states

# A flipped bit in one value (the lowest of its mantissa: still a number of
# pieces, so only the checksum can tell): refused by every read of its block.
for source in (all_classes, odd):
    damaged = os.path.join(work, "damaged_" + os.path.basename(source))
    shutil.copyfile(source, damaged)
    with StackTable(damaged) as table:
        steps = list(table.iter_blocks(1))
        block = len(steps) * 2 // 3
        ids_in_block = steps[block][0]
        first, count = (int(v[0]) for v in table._block_extent(np.array([block])))
        position, size = first + count // 2, table.stored_dtype.itemsize
        offset = table.dataset.id.get_offset() + position * size
        away = np.concatenate([steps[block - 1][0], steps[block + 1][0]]).astype(np.uint64)
        expected = table.values(away)
    with open(damaged, "r+b") as out:
        out.seek(offset)
        byte = out.read(1)
        out.seek(offset)
        out.write(bytes([byte[0] ^ 1]))
    message = "values %d..%d (block %d) do not match their checksum" % (first, first + count - 1, block)
    with StackTable(damaged) as table:
        refused("values() of the damaged block", lambda: table.values(ids_in_block[:1]), message)
        refused("values() of every id", lambda: table.values(np.arange(table.states)), message)
        refused("iter_blocks()", lambda: list(table.iter_blocks()), message)
        refused("to_numpy()", table.to_numpy, message)
        refused("check_all()", table.check_all, message)
        good = []
        refused("iter_blocks(1)", lambda: good.extend(table.iter_blocks(1)), message)
        assert len(good) == block, "iter_blocks(1) refused after %d blocks, the damaged one is %d" % (len(good), block)
        assert same(table.values(away), expected), "the blocks beside the damaged one"
    print("%s, block %d of %d damaged: refused by values, iter_blocks, to_numpy and check_all" % (
        os.path.basename(damaged), block, len(steps)))

# Values that are not a number of pieces behind a good checksum (resealed),
# and in a version-1 table (no checksums).
negative = os.path.join(work, "negative_5x8.h5")
shutil.copyfile(all_classes, negative)
with h5py.File(negative, "r+") as out:
    out["values"][1000] = -1.0
reseal(negative)
not_a_number = os.path.join(work, "nan_5x8_v1.h5")
shutil.copyfile(old, not_a_number)
with h5py.File(not_a_number, "r+") as out:
    out["values"][2000] = np.nan
for path in (negative, not_a_number):
    with StackTable(path) as table:
        bad = 1000 if path == negative else 2000
        ids = table._ids_at(bad, bad + 1) if table.format_version >= 2 else np.array([bad])
        for what, read in (("values()", lambda: table.values(ids)),
                           ("values() of every id", lambda: table.values(np.arange(table.states))),
                           ("iter_blocks()", lambda: list(table.iter_blocks())),
                           ("to_numpy()", table.to_numpy), ("check_all()", table.check_all)):
            refused("%s of %s" % (what, os.path.basename(path)), read, "holds a value that is not a number of pieces")
print("a negative value behind a good checksum and a version-1 NaN: refused by each read")

# to_numpy() past its memory limit: refused, naming what it needs.
with StackTable(all_classes) as table:
    refused("to_numpy() past its memory limit", lambda: table.to_numpy(memory_limit=table.states * 8),
            "to_numpy() needs")
    refused("to_numpy() past its memory limit", lambda: table.to_numpy(memory_limit=1000),
            "(%d boards, 8 bytes each" % table.states)
    assert same(table.to_numpy(memory_limit=1 << 40), table.values(np.arange(table.states)))
print("to_numpy() past its memory limit: refused")

# stackplay's own lookups: the board and every successor in --explain.
with StackTable(all_classes) as table:
    for board in ("0,0,0,0,0", "3,2,5,1,0", "1,1,2,2,8"):
        report = json.loads(subprocess.run([stackplay, "--table", all_classes, "--explain", "--board", board, "--json"],
                                           capture_output=True, text=True, check=True).stdout)["board"]
        ids = [report["id"]] + [p["successor_id"] for piece in report["pieces"] for p in piece["placements"]]
        values = [report["value"]] + [p["value"] for piece in report["pieces"] for p in piece["placements"]]
        assert np.array_equal(table.values(ids), np.array(values)), board
        checked += len(ids)
    assert table.values_of([[0, 0, 0, 0, 0]])[0] == table.values([0])[0]
    assert table.values_of([0, 0, 0, 0, 0])[0] == table.values([0])[0]  # one board, flat
    # Boards that are not of this well are refused, never read as another board.
    top = table.height
    refused("a height above the well", lambda: table.values_of([[top + 1, 0, 0, 0, 0]]), "outside the well", ValueError)
    refused("a negative height", lambda: table.board_id([-1, 0, 0, 0, 0]), "outside the well", BoardError)
    refused("a board of another width", lambda: table.board_id([0, 0, 0, 0]), "has 5 heights", ValueError)
    refused("a flat list of two boards", lambda: table.board_id([0] * 10), "has 5 heights", BoardError)
    refused("a fractional height", lambda: table.board_id([0.5, 0, 0, 0, 0]), "whole numbers", BoardError)
    # numpy takes True as 1: a bool is no height, alone or among whole numbers.
    for board in ([True, 0, 0, 0, 0], [[0, 0, 0, 0, 0], [0, 0, np.True_, 0, 0]], (1, 2, 3, 4, False),
                  np.array([1, 0, True, 0, 0], dtype=object), np.ones(5, dtype=bool)):
        refused("a bool height in %r" % (board,), lambda: table.board_id(board), "not bools", BoardError)
        refused("a bool height in %r" % (board,), lambda: table.values_of(board), "not bools", ValueError)
    # Nor is a bool an id (numpy would read True as id 1), in any reader of ids.
    for ids in (True, [True], [0, np.True_], np.array([True, False])):
        for name in ("values", "heights", "holds", "positions"):
            refused("a bool id in %r (%s)" % (ids, name), lambda: getattr(table, name)(ids), "not bools", BoardError)
    refused("the id past the last", lambda: table.values([table.states]), "ids run from 0 to %d" % (table.states - 1),
            LookupError)
    refused("a negative id", lambda: table.values([-1]), "ids run from 0", BoardIdError)
    refused("an id past 2^64", lambda: table.values([1 << 64]), "ids run from 0", ValueError)
    refused("a fractional id", lambda: table.values([0.5]), "not a whole number", BoardError)
    refused("heights of the id past the last", lambda: table.heights([table.states]), "ids run from 0", BoardIdError)
    refused("positions of a negative id", lambda: table.positions(np.array([-3])), "ids run from 0", BoardIdError)
    assert not issubclass(BoardError, TableError) and not issubclass(TableError, ValueError)
    assert not table.holds([table.states])[0], "holds() past the last id"
    assert table.values(np.array([], dtype=np.int64)).size == 0
    assert table.values(np.array([0.0]))[0] == table.values([0])[0]
    print("boards outside the well: refused")

# Mirrored tables (format 3, mirror = "canonical"), made from full ones.
CRC64_TABLE = []
for byte in range(256):
    crc = byte
    for _ in range(8):
        crc = (crc >> 1) ^ 0xC96C5795D7870F42 if crc & 1 else crc >> 1
    CRC64_TABLE.append(crc)


def crc64_xz(data):
    """CRC-64/XZ (ECMA-182 reflected, as liblzma computes values_crc64:
    common/table/digest.h), byte by byte."""
    crc = 0xFFFFFFFFFFFFFFFF
    for byte in data:
        crc = CRC64_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFFFFFFFFFF


assert crc64_xz(b"123456789") == 0x995DC9BBDF1939FA, "CRC-64/XZ's check value"


def mirrored_copy(source, target):
    """Writes target, the mirrored table of the full table source (tetrominoes,
    format 3, mirror = "none"): its layout from a loop over every board in id
    order, not from the reader's codec. A round S (the height sum of columns
    1..W-1) of the full table holds its stored boards in id order (rows in id
    order, h0 ascending in a row); the mirrored table holds the same boards in
    the same order less those with h0 > h_{W-1}. Returns the boards' expected
    values in id order (the full table's, NaN where the class is not stored)
    and the ids the mirrored table stores, in file order."""
    with h5py.File(source, "r") as f:
        attributes = dict(f.attrs)
        values = f["values"][...]
        offsets = f["round_offsets"][...]
    assert attributes["format_version"] == 3 and attributes["mirror"] == "none", source
    width, height = int(attributes["width"]), int(attributes["height"])
    base, residues = height + 1, {int(r) for r in attributes["residue_classes"]}
    rounds = [[] for _ in range((width - 1) * height + 1)]  # [S]: (id, canonical) of its stored boards, id order
    for board in range(base ** width):
        h = [board // base ** column % base for column in range(width)]
        if sum(h) % stack_table.TETROMINO_CLASSES in residues:
            rounds[sum(h[1:])].append((board, h[0] <= h[-1]))
    assert list(offsets) == [0] + list(np.cumsum([len(r) for r in rounds])), "%s: the full layout" % source
    assert crc64_xz(values.tobytes()) == int(attributes["values_crc64"]), "%s: values_crc64" % source
    order = [board for r in rounds for board, _ in r]
    expected = np.full(base ** width, np.nan)
    expected[order] = values
    kept = values[[canonical for r in rounds for _, canonical in r]]
    stored = [board for r in rounds for board, canonical in r if canonical]
    mirrored_offsets = np.array([0] + list(np.cumsum([sum(c for _, c in r) for r in rounds])), dtype=offsets.dtype)
    checksums = []
    for first_of_round, end_of_round in zip(mirrored_offsets[:-1].tolist(), mirrored_offsets[1:].tolist()):
        for first in range(first_of_round, end_of_round, CHECKSUM_VALUES):
            checksums.append(zlib.crc32(kept[first:min(first + CHECKSUM_VALUES, end_of_round)].tobytes()))
    with h5py.File(target, "w") as out:
        for name, value in attributes.items():
            out.attrs[name] = value
        out.attrs["stored_states"] = np.asarray(attributes["stored_states"]).dtype.type(kept.size)
        out.attrs["values_crc64"] = np.uint64(crc64_xz(kept.tobytes()))
        out.attrs["mirror"] = "canonical"
        out.create_dataset("values", data=kept)
        out.create_dataset("round_offsets", data=mirrored_offsets)
        out.create_dataset("checksums", data=np.array(checksums, dtype=np.uint32))
    return expected, np.array(stored, dtype=np.int64)


def mirror_ids(ids, width, base):
    """The ids of the boards' mirror images."""
    h = [np.asarray(ids) // base ** column % base for column in range(width)]
    return sum(h[width - 1 - column] * base ** column for column in range(width))


# Full tables (--mirror off), each copied mirrored by the test's own loops.
full_all, full_odd = os.path.join(work, "full_5x8_all.h5"), os.path.join(work, "full_5x8_odd_f32.h5")
class0 = os.path.join(work, "full_5x8_class0.h5")
narrow, narrow0 = os.path.join(work, "full_4x6_all.h5"), os.path.join(work, "full_4x6_class0.h5")
generate(full_all, "--mirror", "off")
generate(full_odd, "--residue", "1", "--residue", "3", "--precision", "float32", "--mirror", "off")
generate(class0, "--residue", "0", "--mirror", "off")
generate(narrow, "--mirror", "off", shape=(4, 6))
generate(narrow0, "--residue", "0", "--mirror", "off", shape=(4, 6))
for source in (full_all, class0, full_odd, narrow, narrow0):
    path = os.path.join(work, "mirrored_" + os.path.basename(source))
    expected, stored = mirrored_copy(source, path)
    with StackTable(source) as full:
        assert not full.mirrored
        width, base = full.width, full.base
    every = np.arange(base ** width, dtype=np.uint64)
    heights = np.array([[i // base ** column % base for column in range(width)] for i in range(base ** width)])
    flipped = heights[:, 0] > heights[:, -1]
    assert flipped.any() and not np.isnan(expected[flipped]).all()
    for lazy in (False, True):
        assert same(cpp_values(path, every, lazy), expected), "%s: the C++ reads the mirrored copy otherwise" % path
    with StackTable(path) as table:
        assert table.mirrored and table.format_version == 3 and table.dataset.shape == (stored.size,), path
        assert same(table.values(every), expected), "%s: values() of every id" % path
        assert bool(table._fast) == (table.states >= stack_table.FAST_FROM), \
            "%s: values() of every id and the lookup tables" % path
        some = rng.integers(0, table.states, 1000)
        assert same(table.values(some), expected[some]), "%s: values() of a few ids" % path
        assert same(table.values_of(heights), expected), "%s: values_of() of every board" % path
        assert same(table.values_of(heights[flipped][:, ::-1]), expected[flipped]), "%s: the mirror images" % path
        assert np.array_equal(table.holds(every), ~np.isnan(expected)), "%s: holds()" % path
        assert same(table.to_numpy(), expected), "%s: to_numpy()" % path
        for blocks in (1, 3, stack_table.SCAN_BLOCKS):
            ids, values, sizes = scan(table, blocks)
            assert np.array_equal(ids, stored), "%s: iter_blocks(%d) yields other boards" % (path, blocks)
            assert same(values, expected[ids]), "%s: iter_blocks(%d) values" % (path, blocks)
        assert np.array_equal(table.positions(stored), np.arange(stored.size)), "%s: positions()" % path
        strict = np.flatnonzero(heights[stored, 0] < heights[stored, -1])  # an image of h0 = h_{W-1} is stored too
        assert np.array_equal(table.positions(mirror_ids(stored[strict], width, base)), strict), \
            "%s: positions() of the mirror images" % path
        table._unrank = False  # the inverse by binary search, column by column
        assert np.array_equal(scan(table, 3)[0], stored), "%s: the two inverses of the codec disagree" % path
        table._unrank = None
        table.check_all()
        budget, stack_table.READ_BUDGET = stack_table.READ_BUDGET, 2 * CHECKSUM_VALUES * 8
        try:
            assert same(table.values(every[::-1]), expected[::-1]), "%s: values() in groups of blocks" % path
        finally:
            stack_table.READ_BUDGET = budget
    # The command: a board with h0 > h_{W-1}, and the summary.
    board = int(np.flatnonzero(flipped & ~np.isnan(expected))[-1])
    by_heights = ",".join(str(int(h)) for h in heights[board])  # the board by its heights: 3,1,0,...
    for arguments, text in (([path, str(board)], repr(float(expected[board]))),
                            ([path, by_heights, "0"], "%r\n%r" % (float(expected[board]), float(expected[0]))),
                            ([path], "mirrored (canonical boards only")):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            assert stack_table.main(arguments) == 0, arguments
        assert text in output.getvalue(), "stack-table %s: '%s' not in %r" % (arguments, text, output.getvalue())
    for arguments in ([path, by_heights + ",0"], [path, "1,x"]):  # a height too many; not a number
        output = io.StringIO()
        with contextlib.redirect_stderr(output):
            assert stack_table.main(arguments) == 2, arguments
        assert output.getvalue().count("\n") == 1 and "stack_table: error: " in output.getvalue(), output.getvalue()
    print("%s: mirrored copy (%d of %d values, %d boards with h0 > h%d): every read agrees with the full table "
          "and with C++" % (os.path.basename(source), stored.size, int(np.sum(~np.isnan(expected))),
                            int(np.sum(flipped)), width - 1))
    checked += 4 * table.states
# stackgen's own mirrored tables hold the bytes of the copies the loops
# above laid out.
for made, copied in ((all_classes, full_all), (odd, full_odd)):
    with h5py.File(made, "r") as a, h5py.File(os.path.join(work, "mirrored_" + os.path.basename(copied)), "r") as b:
        assert a.attrs["mirror"] == "canonical" and np.array_equal(a["values"][...], b["values"][...]) \
            and np.array_equal(a["round_offsets"][...], b["round_offsets"][...]), made
print("stackgen's mirrored 5x8 tables (all classes; classes 1, 3 in float32) hold the loops' layout")

# Mirrored against full, bit for bit, by id through the lookup tables:
# random ids (and their mirror images, and the corners) read from a mirrored
# table give the full table's values, for stackgen's mirrored tables (all
# classes; classes 1 and 3 in float32) and the loops' copies (5x8 class 0,
# 4x6 all classes and class 0) against the full tables of the same wells.
# The tables are built for every split of the digits (columns 0..k and
# k+1..W-1; k <= (W-2)/2 turns the id into its canonical board's by tables
# of the two groups, a larger k reverses the id and splits it again), in
# int32 and in int64, each checked against the column-by-column codec on
# every id; values() reading every block first and only the blocks the ids
# need. A wrong canonical board reads another board's value (or one outside
# its class), which the full table's values tell.
wide_below = stack_table.NARROW_BELOW
for mirrored_path, full_path in [(all_classes, full_all), (odd, full_odd)] + [
        (os.path.join(work, "mirrored_" + os.path.basename(source)), source) for source in (class0, narrow, narrow0)]:
    with StackTable(mirrored_path) as table, StackTable(full_path) as full:
        assert table.mirrored and not full.mirrored and (table.width, table.height) == (full.width, full.height)
        width, base = table.width, table.base
        some = rng.integers(0, table.states, 100000)
        ids = np.concatenate([some, mirror_ids(some, width, base), [0, table.states - 1]]).astype(np.uint64)
        full._fast = False  # the full table column by column, then through its own tables
        expected = full.values(ids)
        full._fast = None
        assert same(full.values(ids), expected) and full._fast, full_path
        heights = table.heights(ids)
        flipped = heights[:, 0] > heights[:, -1]
        assert flipped.sum() > 30000 and (~flipped).sum() > 30000, mirrored_path
        every = np.arange(table.states, dtype=np.uint64)
        by_columns = np.maximum(table._virtual_by_columns(every), -1)
        splits = 0
        for narrow_tables in (True, False):
            stack_table.NARROW_BELOW = wide_below if narrow_tables else 0
            try:
                for k in range(width - 1):
                    table._build_fast(k)
                    assert (table._fast[3].dtype == np.int32) == narrow_tables, (mirrored_path, k)
                    assert (table._fast[6][4] is None) == (k <= (width - 2) // 2), (mirrored_path, k)
                    for whole in (True, False):  # every block read first, or the blocks the ids need
                        stack_table.WHOLE_READS = whole
                        got = table.values(ids)
                        assert same(got, expected), "%s (k = %d, %s, %s): %d of %d ids (%d with h0 > h%d) read " \
                            "otherwise than the full table" % (
                                mirrored_path, k, "int32" if narrow_tables else "int64",
                                "whole" if whole else "by blocks",
                                int(np.sum(~((got == expected) | (np.isnan(got) & np.isnan(expected))))),
                                ids.size, int(flipped.sum()), width - 1)
                    assert np.array_equal(np.maximum(table._virtual_fast(every.view(np.int64)), -1), by_columns), \
                        "%s (k = %d): the lookup tables and the column-by-column codec disagree" % (mirrored_path, k)
                    splits += 1
            finally:
                stack_table.NARROW_BELOW, stack_table.WHOLE_READS = wide_below, True
        table._fast = None
        if table.states >= stack_table.FAST_FROM:
            assert same(table.values(ids), expected) and table._fast, "%s: the tables values() builds" % mirrored_path
    print("%s: %d ids by the lookup tables (%d splits, int32 and int64, whole and by blocks) read the values of %s "
          "bit for bit"
          % (os.path.basename(mirrored_path), ids.size, splits // 2, os.path.basename(full_path)))

# A version-3 table whose mirror attribute is no layout, or missing, and a
# full table that says it is mirrored: refused, naming the file.
mirrored_path = os.path.join(work, "mirrored_" + os.path.basename(full_all))
for name, change, pattern in (
        ("sideways", lambda f: f.attrs.__setitem__("mirror", "sideways"),
         "attribute 'mirror' is 'sideways', not canonical or none"),
        ("no_mirror", lambda f: f.attrs.__delitem__("mirror"), "attribute 'mirror' is missing or not a string")):
    broken = os.path.join(work, "mirror_%s.h5" % name)
    shutil.copyfile(mirrored_path, broken)
    with h5py.File(broken, "r+") as f:
        change(f)
    refused("a mirror attribute '%s'" % name, lambda: StackTable(broken), "'%s': %s" % (broken, pattern))
claims = os.path.join(work, "mirror_claimed.h5")
shutil.copyfile(full_all, claims)
with h5py.File(claims, "r+") as f:
    f.attrs["mirror"] = "canonical"
refused("a full table said to be mirrored", lambda: StackTable(claims), "disagrees with its width, height")
print("mirror attributes 'sideways' and missing, and a full table said to be mirrored: refused")

# A file that is not a table.
plain = os.path.join(work, "plain.h5")
with h5py.File(plain, "w") as out:
    out.create_dataset("values", data=np.zeros(3))
try:
    StackTable(plain)
    raise AssertionError("a file without attributes was read as a table")
except TableError as error:
    print("refused:", error)
print("%d lookups agree" % checked)
