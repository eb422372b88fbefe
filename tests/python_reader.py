#!/usr/bin/python3
"""The Python reader (scripts/stack_table.py) against the C++ lookups.

    python_reader.py BUILD_DIR WORK_DIR

Generates version-2 tables (all classes float64; classes 1 and 3 float32;
the pentominoes' class 2 of 5; a weighted piece file of three sizes) with
stackgen, writes a version-1 copy of the first with h5py, takes the table
written before piece sets were stored (tests/data/legacy), and for
10,000 random ids plus the corners compares StackTable(path).values(ids)
with table_values (C++ StackTable, resident and lazy): the same bits, NaN
exactly where the C++ table does not hold the board. Then checks a few
boards against `stackplay --explain --json`.
"""
import json
import os
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from stack_table import StackTable, TableError  # noqa: E402

build, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
stackgen = os.path.join(build, "gen", "stackgen")
stackplay = os.path.join(build, "play", "stackplay")
table_values = os.path.join(build, "tests", "table_values")
environment = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def generate(path, *options):
    subprocess.run([stackgen, "--width", "5", "--height", "8", "--output", path, "--quiet", *options], check=True,
                   env=environment)


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
