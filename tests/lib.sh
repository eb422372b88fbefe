# Shared by the end-to-end scripts (source it): the tools, a scratch
# directory, pass/fail counters, and the check every refusal must pass.
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
set -uo pipefail
stackgen="$BIN/gen/stackgen"; stackplay="$BIN/play/stackplay"; stackverify="$BIN/gen/stackverify"
naive="$BIN/tests/bench/naive_baseline"
tests_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
reader="$tests_dir/../common/table/python/stack_table.py"  # the Python reader (scripts/stack-table runs it too)
python=/usr/bin/python3
read -r -a preflags <<< "${MPIEXEC_PREFLAGS:-}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
failures=0 passes=0
pass() { passes=$((passes + 1)); }
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
finish() { echo "$passes passed, $failures failed"; [ "$failures" -eq 0 ]; }
mpi() { local np=$1; shift; "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$@"; }

# expect_error CODE PATTERN COMMAND...: the command exits CODE (any
# non-zero for "any") with exactly one line on stderr, matching PATTERN
# (an extended regular expression). Before matching, every argument of the
# command that is a path (it holds a /) is replaced in the line by FILE, so
# that a pattern can never match a word of the path or the command line
# itself: a message that names the file given shows it as FILE.
expect_error() {
    local expected=$1 pattern=$2; shift 2
    "$@" > "$work/out" 2> "$work/err"
    local code=$? lines line argument
    lines=$(grep -c '' "$work/err")
    line=$(head -n 1 "$work/err")
    while IFS= read -r argument; do
        [ -n "$argument" ] && line=${line//"$argument"/FILE}
    done < <(printf '%s\n' "$@" | grep / | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2-)
    if { [ "$expected" = any ] && [ "$code" -ne 0 ] || [ "$code" = "$expected" ]; } \
       && [ "$lines" -eq 1 ] && printf '%s\n' "$line" | grep -Eq -e "$pattern"; then
        pass
    else
        fail "$* -> exit $code (expected $expected), $lines stderr line(s), the first as matched: $line"
        cat "$work/err"; tail -3 "$work/out"
    fi
}

# craft FROM NAME PYTHON: a copy of table FROM named $work/NAME.h5, changed
# by PYTHON with h5py (f is the open file, np numpy).
craft() {
    cp "$1" "$work/$2.h5"
    "$python" -c "import h5py, numpy as np; f = h5py.File('$work/$2.h5', 'r+'); $3; f.close()" \
        || fail "cannot craft $2"
}

# reseal TABLE: recompute a version-2 table's checksums after its values
# were changed on purpose (tests/reseal.py).
reseal() { "$python" "$tests_dir/reseal.py" "$1"; }

# peak_rss_mb COMMAND...: runs it, prints the largest resident set of it or
# any process it waited for, in MB, on stdout (its own output goes to
# $work/out and $work/err), and returns its exit code.
peak_rss_mb() {
    "$python" - "$@" <<'PYTHON'
import os, resource, subprocess, sys
with open(os.environ["RSS_OUT"], "w") as out, open(os.environ["RSS_ERR"], "w") as err:
    code = subprocess.call(sys.argv[1:], stdout=out, stderr=err)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
sys.exit(code)
PYTHON
}
export RSS_OUT="$work/out" RSS_ERR="$work/err"
