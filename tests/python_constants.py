#!/usr/bin/python3
"""The Python reader's constants against the C++ ones.

    python_constants.py BUILD_DIR WORK_DIR PROJECT_VERSION TABLE

The C++ side is tests/table_constants (built from common/table, not copied
here): the format versions, dataset names, block size, precisions, shape
limits, the metadata child's time limit, the tetrominoes' pieces attribute
of a table without piece_set, and each built-in piece set's attributes,
checksum, piece count and class count (the gcd of its sizes); and the
attributes write_table_info() gives a table of each version (version 3's
mirror attribute, "none" for a table of every board).
Checks that stack_table (common/table/python) holds the same values; that
every attribute it reads opening TABLE (a version-3 table of stackgen), the
legacy table (tests/data/legacy) and a version-1 table made of the C++
writer's version-1 attributes is one the C++ writes; that it computes each
built-in set's checksum and class count as the C++ does; and that the
package's version (stack_table.__version__, which pyproject.toml reads) is
the project's (CMakeLists.txt) and pyproject.toml declares what it installs.
"""
import json
import math
import os
import subprocess
import sys
import tomllib

import h5py
import numpy as np

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(SOURCE, "common", "table", "python")
sys.path.insert(0, PACKAGE)
import stack_table  # noqa: E402

build, work, project_version, table_path = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
environment = dict(os.environ)
environment.pop("STACK_METADATA_SECONDS", None)
cpp = json.loads(subprocess.run([os.path.join(build, "tests", "table_constants"), work], check=True,
                                capture_output=True, text=True, env=environment).stdout)
failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def same(python, expected, what):
    check(python == expected, "%s: Python %r, C++ %r" % (what, python, expected))


# The constants.
same(stack_table.FORMAT_VERSION, cpp["clears_format_version"], "newest format version (a line-clear table's)")
same(stack_table.NO_CLEAR_FORMAT_VERSION, cpp["format_version"], "a no-clear table's format version")
same(stack_table.OLDEST_FORMAT_VERSION, cpp["oldest_format_version"], "oldest format version")
same(stack_table.VALUES_DATASET, cpp["values_dataset"], "values dataset")
same(stack_table.ROUND_OFFSETS_DATASET, cpp["round_offsets_dataset"], "round offsets dataset")
same(stack_table.CHECKSUMS_DATASET, cpp["checksums_dataset"], "checksums dataset")
same(stack_table.CHECKSUM_VALUES, cpp["checksum_values"], "values per checksummed block")
same(1 << stack_table.BLOCK_SHIFT, cpp["checksum_values"], "1 << BLOCK_SHIFT")
same(list(stack_table.PRECISIONS), cpp["precisions"], "precisions")
same(stack_table.MAX_WIDTH, cpp["max_width"], "widest table")
same(stack_table.MAX_HEIGHT, cpp["max_height"], "highest table")
same(stack_table.METADATA_SECONDS, cpp["metadata_seconds"], "metadata child's time limit")
same(stack_table.TETROMINOES, cpp["tetromino_table"], "pieces attribute of a table without piece_set")
same(stack_table.TETROMINO_CLASSES, cpp["piece_sets"]["tetrominoes"]["classes"], "the tetrominoes' classes")

# The piece sets: parsed, checksummed and their classes counted as the C++ does.
for name, piece_set in cpp["piece_sets"].items():
    pieces = stack_table.parse_pieces(piece_set["pieces"])
    same(len(pieces), piece_set["piece_count"], "%s: pieces" % name)
    same(math.gcd(*[cells for _, _, cells, _ in pieces]), piece_set["classes"], "%s: classes" % name)
    same(stack_table.piece_set_checksum(piece_set["name"], piece_set["pieces"], piece_set["piece_cells"]),
         piece_set["piece_set_checksum"], "%s: piece_set_checksum" % name)

# The attributes the reader reads, recorded as it opens tables.
written = {}
for version, path in cpp["attribute_files"].items():
    with h5py.File(path, "r") as f:
        written[int(version)] = set(f.attrs)
check(set(cpp["attribute_files"]) == {str(v) for v in range(stack_table.OLDEST_FORMAT_VERSION,
                                                              stack_table.FORMAT_VERSION + 1)},
      "the C++ writes the versions the reader reads")
read, probed = set(), set()
get_item, contains = h5py.AttributeManager.__getitem__, h5py.AttributeManager.__contains__


def recording_get(self, name):
    read.add(name)
    return get_item(self, name)


def recording_contains(self, name):
    probed.add(name)
    return contains(self, name)


def attributes_read(path):
    read.clear()
    probed.clear()
    h5py.AttributeManager.__getitem__, h5py.AttributeManager.__contains__ = recording_get, recording_contains
    try:
        with stack_table.StackTable(path, guarded=False) as table:
            version, value = table.format_version, table.values([0])[0]
    finally:
        h5py.AttributeManager.__getitem__, h5py.AttributeManager.__contains__ = get_item, contains
    return version, value, set(read), set(probed)


# A version-1 table: the C++ writer's version-1 attributes, and /values.
version1 = os.path.join(work, "v1_table.h5")
with h5py.File(cpp["attribute_files"]["1"], "r") as source, h5py.File(version1, "w") as target:
    for name, value in source.attrs.items():
        target.attrs[name] = value
    target.create_dataset(cpp["values_dataset"], data=np.full(int(source.attrs["states"]), 1.5))
legacy = os.path.join(SOURCE, "tests", "data", "legacy", "tetrominoes_5x6.h5")
every = set().union(*written.values())
for path, expected_version in ((table_path, stack_table.NO_CLEAR_FORMAT_VERSION), (legacy, 2), (version1, 1)):
    version, value, names, probes = attributes_read(path)
    label = os.path.basename(path)
    same(version, expected_version, "%s: format version" % label)
    check(value >= 0, "%s: reads board 0 (%r)" % (label, value))
    check(names and names <= written[version], "%s: every attribute read is one the C++ writes in version %d "
          "(not written: %s)" % (label, version, sorted(names - written[version]) or "none"))
    check(probes <= every, "%s: every attribute looked for is one the C++ writes (not written: %s)"
          % (label, sorted(probes - every) or "none"))
with stack_table.StackTable(version1) as table:
    same(float(table.values([table.states - 1])[0]), 1.5, "a version-1 table of the C++ attributes reads")
# Version 3's attribute mirror: its name, and the value of a table that stores every board.
with h5py.File(cpp["attribute_files"]["3"], "r") as f:
    check(stack_table.MIRROR_ATTRIBUTE in f.attrs, "version 3 has the attribute '%s'" % stack_table.MIRROR_ATTRIBUTE)
    mirror = f.attrs.get(stack_table.MIRROR_ATTRIBUTE, b"")
    same(mirror.decode() if isinstance(mirror, bytes) else mirror, stack_table.MIRROR_NONE,
         "the mirror attribute of a table of every board")

# Version 4's attributes: clears and the sweeps' progress, each one the reader reads.
with h5py.File(cpp["attribute_files"]["4"], "r") as f:
    for name in ("clears",) + stack_table.CLEARS_ATTRIBUTES:
        check(name in f.attrs, "version 4 has the attribute '%s'" % name)

# The package: its version is the project's, and pyproject.toml installs this module.
same(stack_table.__version__, project_version, "version (stack_table.__version__, CMakeLists.txt)")
same(stack_table.__version__, cpp["project_version"], "version (stack_table.__version__, project_version())")
with open(os.path.join(PACKAGE, "pyproject.toml"), "rb") as f:
    project = tomllib.load(f)
same(project["tool"]["setuptools"]["py-modules"], ["stack_table"], "pyproject.toml: the module")
same(project["tool"]["setuptools"]["dynamic"]["version"], {"attr": "stack_table.__version__"},
     "pyproject.toml: the version")
same(sorted(project["project"]["dependencies"]), ["h5py", "numpy"], "pyproject.toml: dependencies")
same(project["project"]["scripts"], {"stack-table": "stack_table:main"}, "pyproject.toml: the command")

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
