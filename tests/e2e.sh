#!/usr/bin/env bash
# End-to-end checks of the built tools, one ctest test per subcommand.
#   e2e.sh generate NP OUT [W H CONNECTIONS]
#                                     stackgen --json (default 4x20) at NP ranks;
#                                     checks the connection count (and V(empty) on
#                                     4x20)
#   e2e.sh same A B                   tables bit-identical, and byte-identical files
#   e2e.sh naive TABLE W H            table bit-identical to the naive baseline
#   e2e.sh reference A                table equals the published 4x20 values
#   e2e.sh play TABLE EXP ARGS...     stackplay --check passes, with the z-test,
#                                     the chi-square test and the exact mean
#                                     (and predicts EXP unless EXP is -)
#   e2e.sh json TABLE ARGS...         stackplay --json: the exact mean equals the
#                                     table value to 1e-9, the histogram adds up
#   e2e.sh policies TABLE             random < heuristic < lookahead 1 on the same
#                                     pieces; heuristic passes its own --check
#   e2e.sh show TABLE                 --show: frames, and as JSON
#   e2e.sh explain TABLE              --explain --board: values match --json
#   e2e.sh threads TABLE              same seed, 1 and 3 threads: same games
#   e2e.sh check_fails TABLE          a table with values 5% too high fails --check
#   e2e.sh naive_v1 W H OUT [TABLE]   the naive baseline's values as a version-1 table;
#                                     with TABLE, that table bit-identical to them too
#                                     (one solve for both)
#   e2e.sh classes W H NP V1          stackgen at NP ranks, all classes in float64, each
#                                     class alone, and float32: every value the table
#                                     holds is V1's, bit for bit (float32: rounded)
#   e2e.sh clears NP OUT W H          stackgen --clears tetris at NP ranks (2 threads at
#                                     np 1): its sweeps reach the tolerance; then
#                                     stackplay --check plays the well game on it:
#                                     Exp vs Avg by the z-test; the Python reader
#                                     reads it
#   e2e.sh design_card W H NP         the design card's two commands verbatim, in an
#                                     empty directory, with scripts/mpi-env's PATH
# The checks read the tools' --json reports; the text reports are checked
# only where the text itself is what is tested.
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
set -euo pipefail
command=$1; shift
python=/usr/bin/python3
stackgen="$BIN/gen/stackgen"; stackverify="$BIN/gen/stackverify"; stackplay="$BIN/play/stackplay"; table_diff="$BIN/tests/table_diff"
read -r -a preflags <<< "${MPIEXEC_PREFLAGS:-}"

case "$command" in
generate)
    # CONNECTIONS: those of every board (a full table, --mirror off, as the
    # reference and the naive baseline count them), or "mirrored": the
    # default table of canonical boards, whose count is the rules' own.
    np=$1 out=$2 width=${3:-4} height=${4:-20} connections=${5:-mirrored}
    rm -f "$out"
    mirror=(); [ "$connections" = mirrored ] || mirror=(--mirror off)
    "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$stackgen" \
        --width "$width" --height "$height" "${mirror[@]}" --output "$out" --json --round-table > "$out.json"
    "$python" - "$out.json" "${connections//,/}" "$width" "$height" "$np" <<'PYTHON'
import json, sys
summary = json.load(open(sys.argv[1]))
connections = sys.argv[2]
width, height, ranks = map(int, sys.argv[3:])
print("stackgen %dx%d at np %d: %d states, %d stored, %d connections, V(empty) %.15f, %.3f s"
      % (summary["width"], summary["height"], summary["ranks"], summary["states"], summary["stored_states"],
         summary["connections"], summary["empty_board_value"], summary["seconds"]["total"]))
assert (summary["width"], summary["height"], summary["ranks"]) == (width, height, ranks)
assert summary["connections"] == sum(summary["connections_per_piece"].values())
assert summary["states"] == (height + 1) ** width
# the canonical boards h0 <= h(W-1): (H+1)^(W-2) pairs (h0, top) with h0 <= top each
canonical = (height + 1) ** (width - 2) * (height + 1) * (height + 2) // 2
if connections == "mirrored":
    assert summary["mirrored"] and summary["stored_states"] == canonical, (summary["stored_states"], canonical)
else:
    assert not summary["mirrored"] and summary["stored_states"] == summary["states"]
    assert summary["connections"] == int(connections), ("connections", summary["connections"], connections)
rounds = summary["round_table"]
assert len(rounds) == summary["rounds"] == (width - 1) * height + 1, len(rounds)
assert sum(r["states"] for r in rounds) == summary["stored_states"], "the rounds do not cover every stored state once"
if (width, height) == (4, 20):  # the reference's published V(empty)
    assert abs(summary["empty_board_value"] - 2.539044371731868) < 1e-12, summary["empty_board_value"]
PYTHON
    [ -f "$out" ] || { echo "FAIL: $out was not written"; exit 1; }
    ;;
clears)
    np=$1 out=$2 width=$3 height=$4
    rm -f "$out" "$out.sweep"
    threads=1; [ "$np" = 1 ] && threads=2
    "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$stackgen" --width "$width" --height "$height" \
        --clears tetris --threads "$threads" --output "$out" --json > "$out.json"
    [ -f "$out" ] && [ ! -e "$out.sweep" ] || { echo "FAIL: $out not written, or its sweep left behind"; exit 1; }
    # stackverify checks the proven bound from the file alone.
    "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$stackverify" "$out" | tee /dev/stderr | grep -q "^verify: PASS"
    "$python" - "$out.json" <<'PYTHON'
import json, sys
summary = json.load(open(sys.argv[1]))
sweeps = summary["sweeps"]
runs = sweeps["runs"]
last = runs[-1]
print("stackgen --clears tetris %dx%d at np %d: %d sweeps, last change %.3g, ratio %.3g, bound %.3g; V(empty) %.12f "
      "(no clears %.12f)" % (summary["width"], summary["height"], summary["ranks"], len(runs), last["change"],
                             last["ratio"], last["bound"], summary["empty_board_value"], runs[0]["empty_board_value"]))
assert summary["clears"] == "tetris"
assert [r["sweep"] for r in runs] == list(range(len(runs))), runs
assert last["bound"] is not None and last["bound"] <= sweeps["tolerance"] == 1e-10, last
assert last["empty_low"] <= summary["empty_board_value"] <= last["empty_high"], last
assert last["empty_high"] - last["empty_low"] <= 2e-10, last
assert any(r["jump"] > 0 for r in runs), "no sweep extrapolated"
assert summary["empty_board_value"] == last["empty_board_value"] > runs[0]["empty_board_value"]
PYTHON
    "$stackplay" --table "$out" --runs 100000 --check --json | "$python" -c '
import json, sys
report = json.load(sys.stdin)
print("stackplay on the well game: Exp %.4f, Avg %.4f, z %.3f" % (report["optimal_value"], report["observed"]["mean"], report["z_test"]["z"]))
assert report["predicted"] is None and "cycles" in report["distribution_skipped"], report.get("distribution_skipped")
assert report["check"]["passed"] and abs(report["z_test"]["z"]) < 3.89, report["check"]
'
    # The Python reader reads the line-clear table: every block against its
    # checksum, and V(empty) with stackgen's bits.
    "$python" "$(dirname "$0")/../common/table/python/stack_table.py" "$out" --check | tee /dev/stderr | grep -q "line clears"
    python_value=$("$python" "$(dirname "$0")/../common/table/python/stack_table.py" "$out" 0)
    "$python" -c 'import json, sys; v = json.load(open(sys.argv[1]))["empty_board_value"]; assert repr(v) == sys.argv[2], (v, sys.argv[2])' "$out.json" "$python_value"
    ;;
same)  # the same values, and the same bytes: no rank count or time shows in a table
    "$table_diff" "$1" "$2"
    cmp "$1" "$2" || { echo "FAIL: $1 and $2 differ as files"; exit 1; }
    ;;
naive) "$BIN/tests/bench/naive_baseline" --width "$2" --height "$3" --compare "$1" ;;
reference) "$table_diff" --reference "$1" ;;
play)
    table=$1 expected=$2; shift 2
    "$stackplay" --table "$table" --runs 100000 --check "$@" | tee /dev/stderr | grep -q '^check: PASS'
    "$stackplay" --table "$table" --runs 100000 --check --json "$@" | "$python" -c '
import json, sys
report, expected = json.load(sys.stdin), sys.argv[1]
if expected != "-":  # the reference printed "Exp: <expected>"
    assert "%.4f" % report["optimal_value"] == expected, (report["optimal_value"], expected)
chi = report["chi_square"]
assert chi["degrees_of_freedom"] == chi["bins"] - 1 > 0, chi
assert report["check"]["passed"] and not report["check"]["failures"], report["check"]
assert abs(report["predicted"]["mean"] - report["optimal_value"]) <= 1e-9
print("JSON: check passed, z %.3f, chi-square p %.3g" % (report["z_test"]["z"], chi["p_value"]))
' "$expected"
    ;;
json)
    table=$1; shift
    "$stackplay" --table "$table" --runs 20000 --json "$@" | "$python" -c '
import json, sys
r = json.load(sys.stdin)
predicted, observed = r["predicted"], r["observed"]
assert abs(predicted["mean"] - r["optimal_value"]) <= 1e-9, (predicted["mean"], r["optimal_value"])
assert abs(sum(predicted["lengths"]) - 1) < 1e-12, sum(predicted["lengths"])
assert sum(observed["lengths"]) == r["games"] == 20000, observed["lengths"]
assert abs(sum(k * n for k, n in enumerate(observed["lengths"])) / r["games"] - observed["mean"]) < 1e-12
assert r["chi_square"]["degrees_of_freedom"] == r["chi_square"]["bins"] - 1 > 0
print("exact mean %.12f = table value %.12f; chi-square p %.3g; z %.3f" % (predicted["mean"], r["optimal_value"], r["chi_square"]["p_value"], r["z_test"]["z"]))
'
    ;;
policies)
    means=()
    for policy in random heuristic "lookahead 1"; do
        mean=$("$stackplay" --table "$1" --runs 5000 --seed 4 --policy "$policy" --json \
               | "$python" -c 'import json, sys; print(json.load(sys.stdin)["observed"]["mean"])')
        echo "$policy: $mean"; means+=("$mean")
    done
    "$python" -c 'import sys; r, h, l = map(float, sys.argv[1:]); assert r < h < l, (r, h, l)' "${means[@]}" \
        || { echo "FAIL: expected random < heuristic < lookahead 1"; exit 1; }
    "$stackplay" --table "$1" --runs 50000 --policy heuristic --check | tail -3
    ;;
show)
    text=$("$stackplay" --table "$1" --show --seed 2)
    echo "$text" | head -25
    placed=$(echo "$text" | sed -n 's/^\([0-9]*\) pieces placed (seed 2)$/\1/p')
    [ -n "$placed" ] || { echo "FAIL: no closing line"; exit 1; }
    [ "$(echo "$text" | grep -c '^move [0-9]*: drew ., placed')" -eq "$placed" ] || { echo "FAIL: frame count"; exit 1; }
    "$stackplay" --table "$1" --show --seed 2 --json | "$python" -c '
import json, sys
game = json.load(sys.stdin)["game"]
turns = game["turns"]
assert len(turns) == game["pieces_placed"] + 1 and not turns[-1]["fits"], len(turns)
for before, after in zip(turns, turns[1:]):
    assert before["id_after"] == after["id_before"] and before["value_after"] == after["value_before"]
    assert sum(row.count(before["piece"]) for row in before["well"]) % 4 == 0
print("%d turns chain up" % len(turns))
' || exit 1
    ;;
explain)
    text=$("$stackplay" --table "$1" --explain --board 3,6,8,7)
    echo "$text"
    echo "$text" | grep -q '^board 3,6,8,7 (id 68484) in the 4x20 well: value' || { echo "FAIL: header"; exit 1; }
    "$stackplay" --table "$1" --explain --board 3,6,8,7 --json | "$python" -c '
import json, re, sys
report = json.load(sys.stdin)
board = report["board"]
# read lazily: the blocks of 4096 values holding the board and its successors
assert not report["table"]["resident"] and report["table"]["bytes_in_memory"] <= 28 * 4096 * 8, report["table"]
assert board["heights"] == [3, 6, 8, 7] and board["id"] == 3 + 6 * 21 + 8 * 21**2 + 7 * 21**3
total = 0
for piece in board["pieces"]:
    values = [p["value"] for p in piece["placements"]]
    assert values == sorted(values, reverse=True)
    for p in piece["placements"]:
        assert sum(p["successor_heights"]) == 24 + 4
        # far below the ceiling, SRS reaches every table placement by hard drop (the contour claim)
        assert p["hard_drop"] is True and re.fullmatch(r"[lrcwf]*H", p["inputs"]), p
    total += sum(1 + max(values, default=-1) for _ in [0]) / 7
assert abs(total - board["value"]) < 1e-12, (total, board["value"])
print("value %.12f = mean over pieces of 1 + best successor value" % board["value"])
' || exit 1
    ;;
threads)
    for threads in 1 3; do
        "$stackplay" --table "$1" --runs 30000 --seed 9 --threads "$threads" --start-id 1 --json > "$BIN/threads.$threads.json"
    done
    "$python" - "$BIN/threads.1.json" "$BIN/threads.3.json" <<'PYTHON'
import json, sys
one, three = (json.load(open(path)) for path in sys.argv[1:])
assert (one["threads"], three["threads"]) == (1, 3)
for report in (one, three):
    del report["predicted"]["seconds"]  # the one field that may differ
for key in ("observed", "predicted", "z_test", "chi_square"):
    assert one[key] == three[key], "%s depends on the thread count" % key
print("1 and 3 threads: the same %d games, mean %.4f, and the same exact distribution"
      % (one["games"], one["observed"]["mean"]))
PYTHON
    ;;
check_fails)
    wrong=$(mktemp --suffix=.h5); trap 'rm -f "$wrong"' EXIT
    cp "$1" "$wrong"
    "$python" -c "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f['/values'][...] = f['/values'][...] * 1.05" "$wrong"
    "$python" "$(dirname "$0")/reseal.py" "$wrong"
    set +e
    "$stackplay" --table "$wrong" --runs 100000 --start-id 1 --check --json > "$wrong.json"; code=$?
    set -e
    [ "$code" -eq 1 ] || { echo "FAIL: --check exited $code on a wrong table, not 1"; exit 1; }
    "$python" - "$wrong.json" <<'PYTHON'
import json, sys
check = json.load(open(sys.argv[1]))["check"]
print(check)
assert not check["passed"]
assert any(f.startswith("the exact mean differs from the table") for f in check["failures"]), "exact mean"
assert any(f.startswith("z-test of the mean") for f in check["failures"]), "z-test"
PYTHON
    rm -f "$wrong.json"
    ;;
naive_v1)
    compare=(); [ -z "${4:-}" ] || compare=(--compare "$4")
    "$BIN/tests/bench/naive_baseline" --width "$1" --height "$2" --write-v1 "$3" "${compare[@]}"
    ;;
classes)
    width=$1 height=$2 np=$3 reference=$4
    here=$(mktemp -d); trap 'rm -rf "$here"' EXIT
    generate_table() {  # generate_table NAME OPTIONS...: stackgen into $here/NAME.h5
        local name=$1; shift
        "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$stackgen" --width "$width" --height "$height" \
            --output "$here/$name.h5" --quiet "$@"
    }
    generate_table all
    "$table_diff" "$reference" "$here/all.h5"        # v2, all classes: the v1 bits at every id
    for residue in 0 1 2 3; do
        generate_table "class$residue" --residue "$residue"
        "$table_diff" "$here/all.h5" "$here/class$residue.h5"
    done
    generate_table float32 --precision float32
    "$table_diff" "$here/all.h5" "$here/float32.h5"
    generate_table odd32 --residue 1 --residue 3 --precision float32
    "$table_diff" "$here/all.h5" "$here/odd32.h5"
    # 0.6.0's row walk (--kernel rows), mirrored and full: the same bits
    # (on the two smaller wells: the 6x20 runs are the suite's longest, and
    # the unit tests compare both kernels on every piece set).
    if [ $((width * height)) -le 100 ]; then
        generate_table rows --kernel rows --residue 0
        "$table_diff" "$here/all.h5" "$here/rows.h5"
        generate_table rows_full --kernel rows --mirror off --residue 2
        "$table_diff" "$here/all.h5" "$here/rows_full.h5"
        # The band in files (--spill): the same bits, and no file left.
        mkdir "$here/spill"
        generate_table spilled --spill "$here/spill" --residue 0
        "$table_diff" "$here/all.h5" "$here/spilled.h5"
        [ -z "$(ls -A "$here/spill")" ] || { echo "FAIL: --spill left files behind: $(ls -A "$here/spill")"; exit 1; }
    fi
    ;;
design_card)
    # design_card W H NP [SAVE]: SAVE keeps the session as a terminal shows
    # it, for the README's sample check (scripts/readme-samples --check)
    width=$1 height=$2 np=$3 save=${4:-/dev/null} root=$(cd "$(dirname "$0")/.." && pwd)
    here=$(mktemp -d); trap 'rm -rf "$here"' EXIT
    cd "$here"
    # exactly the README's lines, but for the well and rank count
    ( source "$root/scripts/mpi-env"
      [ "$(command -v stackgen)" = "$BIN/gen/stackgen" ] || [ "$(command -v stackgen)" = "$root/build/gen/stackgen" ] \
          || { echo "FAIL: scripts/mpi-env does not put stackgen on PATH"; exit 1; }
      generate="mpirun -n $np stackgen --width $width --height $height"
      echo "\$ $generate" > "$save"
      $generate > "$here/generate.txt" 2>&1 || { cat "$here/generate.txt"; exit 1; }
      cat "$here/generate.txt" >> "$save"; tail -3 "$here/generate.txt"
      [ -f "stack_${width}x${height}.h5" ] || { echo "FAIL: stackgen did not write stack_${width}x${height}.h5 here"; exit 1; }
      echo "\$ stackplay --runs 100000 --check" >> "$save"
      stackplay --runs 100000 --check 2>&1 | tee -a "$save"; exit "${PIPESTATUS[0]}" )
    ;;
*) echo "unknown subcommand $command"; exit 2 ;;
esac
