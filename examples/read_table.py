#!/usr/bin/python3
"""examples/read_table.py TABLE: a stacking table read from Python.

Prints the table's well and piece set, V(empty), the value of one board by
its column heights, and how a board that is none of the table's is refused
(a BoardError, which is a ValueError). Run it with Debian's python3 (numpy
and h5py), from the source tree or an install tree (cmake --install puts
the example in P/share/doc/stack/examples and the reader in
P/share/stack/python); with the package installed
(`pip install common/table/python`) the sys.path lines are not needed.
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
for reader in (os.path.join(here, "..", "common", "table", "python"),  # the source tree
               os.path.join(here, "..", "..", "..", "stack", "python")):  # P/share/doc/stack/examples: P/share/stack
    if os.path.isfile(os.path.join(reader, "stack_table.py")):
        sys.path.insert(0, reader)
        break
from stack_table import StackTable  # noqa: E402

with StackTable(sys.argv[1]) as table:
    empty = [0] * table.width
    step = [min(2, table.height)] + [0] * (table.width - 1)  # column 0 two high
    print("%s: %dx%d, %s" % (os.path.basename(table.path), table.width, table.height, table.piece_set))
    print("V(empty) = %.12f" % table.values_of([empty])[0])
    print("V(%s) = %.12f" % (",".join(map(str, step)), table.values_of([step])[0]))
    try:
        table.values_of([[table.height + 1] + empty[1:]])
    except ValueError as error:
        print("refused: %s" % error)
