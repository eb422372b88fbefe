"""Shared by the Python scripts in scripts/ (`import support`): where the
built tools are, what Open MPI needs to run as root (and oversubscribed),
the scripts' progress lines, and a table for a shape, generated with
stackgen (2 ranks) when missing. scripts/mpi-env holds the same Open MPI
settings for the bash scripts; these two are the only places they are
written down."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
# The built tools, by where each lies in a build directory.
TOOLS = {"stackgen": os.path.join("gen", "stackgen"), "stackverify": os.path.join("gen", "stackverify"),
         "stackplay": os.path.join("play", "stackplay")}


def tool(name, build=BUILD):
    """The path of a built tool (a TOOLS key) in a build directory (default build/)."""
    return os.path.join(build, TOOLS[name])


STACKGEN = tool("stackgen")
STACKVERIFY = tool("stackverify")
STACKPLAY = tool("stackplay")

# Open MPI refuses to run as root without these (scripts/mpi-env for bash).
MPI_ENVIRONMENT = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
# And these let mpirun start more ranks than cores (as --oversubscribe).
MPI_OVERSUBSCRIBE = {"OMPI_MCA_rmaps_base_oversubscribe": "1"}


def environment(oversubscribe=True, **extra):
    """This process's environment with Open MPI's root settings (and its
    oversubscribe setting unless oversubscribe=False), and `extra`."""
    return dict(os.environ, **MPI_ENVIRONMENT, **(MPI_OVERSUBSCRIBE if oversubscribe else {}), **extra)


def tools_environment(build, *more, **extra):
    """environment(**extra) with a build's tools first on PATH (its gen/ and
    play/, as the pages' commands name them bare), then the folders `more`."""
    env = environment(**extra)
    env["PATH"] = os.pathsep.join([os.path.join(build, "gen"), os.path.join(build, "play"), *more, env["PATH"]])
    return env


def progress(message):
    """A progress line on stderr, named by the script: 'bench: building'."""
    print(os.path.basename(sys.argv[0]) + ": " + message, file=sys.stderr, flush=True)


def run(command):
    return subprocess.run(command, check=True, capture_output=True, text=True, env=environment()).stdout


def generate(width, height, path, ranks=2):
    """Runs stackgen; returns V(empty board) from its JSON summary."""
    summary = run(["mpirun", "-q", "-n", str(ranks), STACKGEN, "--width", str(width),
                   "--height", str(height), "--output", path, "--json"])
    return json.loads(summary)["empty_board_value"]


def table(directory, width, height):
    path = os.path.join(directory, "stack_%dx%d.h5" % (width, height))
    if not os.path.exists(path):
        generate(width, height, path)
    return path


def setup():
    subprocess.run([os.path.join(ROOT, "scripts", "setup")], check=True)
