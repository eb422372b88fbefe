#!/usr/bin/python3
"""examples/read_table.py TABLE: a stacking table read from Python.

Prints the table's well and piece set, V(empty), the value of one board by
its column heights, and how a board that is none of the table's is refused
(a BoardError, which is a ValueError). Run it with Debian's python3 (numpy
and h5py), from the source tree; with the package installed
(`pip install common/table/python`) the sys.path line is not needed.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "table", "python"))
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
