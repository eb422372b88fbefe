"""Shared by scripts/policies, plot, bench-8x20 and profile-8x20: where the
built tools are, what Open MPI needs to run as root, and a table for a
shape, generated with stackgen (2 ranks) when missing."""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STACKGEN = os.path.join(ROOT, "build", "gen", "stackgen")
STACKPLAY = os.path.join(ROOT, "build", "play", "stackplay")
MPI_ENVIRONMENT = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def run(command):
    return subprocess.run(command, check=True, capture_output=True, text=True,
                          env=dict(os.environ, **MPI_ENVIRONMENT)).stdout


def generate(width, height, path, ranks=2):
    """Runs stackgen; returns V(empty board) from its JSON summary."""
    summary = run(["mpirun", "-q", "--oversubscribe", "-n", str(ranks), STACKGEN, "--width", str(width),
                   "--height", str(height), "--output", path, "--json"])
    return json.loads(summary)["empty_board_value"]


def table(directory, width, height):
    path = os.path.join(directory, "stack_%dx%d.h5" % (width, height))
    if not os.path.exists(path):
        generate(width, height, path)
    return path


def setup():
    subprocess.run([os.path.join(ROOT, "scripts", "setup")], check=True)
