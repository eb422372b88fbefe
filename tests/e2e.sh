#!/usr/bin/env bash
# End-to-end checks of the built tools, one ctest test per subcommand.
#   e2e.sh generate NP OUT [W H CONNECTIONS]
#                                     stackgen (default 4x20) at NP ranks; checks
#                                     the connection count (and V(empty) on 4x20)
#   e2e.sh same A B                   tables bit-identical
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
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
set -euo pipefail
command=$1; shift
stackgen="$BIN/gen/stackgen"; stackplay="$BIN/play/stackplay"; table_diff="$BIN/tests/table_diff"
read -r -a preflags <<< "${MPIEXEC_PREFLAGS:-}"

case "$command" in
generate)
    np=$1 out=$2 width=${3:-4} height=${4:-20} connections=${5:-851,801}
    rm -f "$out"
    summary=$("$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$stackgen" \
              --width "$width" --height "$height" --output "$out")
    echo "$summary" | head -18
    echo "$summary" | grep -Eq "^  connections +$connections " || { echo "FAIL: connections are not $connections"; exit 1; }
    if [ "$width" = 4 ] && [ "$height" = 20 ]; then  # the reference's published V(empty)
        echo "$summary" | grep -Eq '^  V\(empty board\) +2\.5390443717318' || { echo "FAIL: V(empty board)"; exit 1; }
    fi
    [ -f "$out" ] || { echo "FAIL: $out was not written"; exit 1; }
    ;;
same) "$table_diff" "$1" "$2" ;;
naive) "$BIN/tests/bench/naive_baseline" --width "$2" --height "$3" --compare "$1" ;;
reference) "$table_diff" --reference "$1" ;;
play)
    table=$1 expected=$2; shift 2
    report=$("$stackplay" --table "$table" --runs 100000 --check "$@")
    echo "$report"
    if [ "$expected" != - ]; then
        echo "$report" | grep -q "^Exp: $expected | Avg: " || { echo "FAIL: expected Exp: $expected"; exit 1; }
    fi
    echo "$report" | grep -Eq '^chi-square [0-9.]+ on [0-9]+ degrees of freedom' || { echo "FAIL: no chi-square test"; exit 1; }
    echo "$report" | grep -q '^check: PASS' || { echo "FAIL: no PASS line"; exit 1; }
    ;;
json)
    table=$1; shift
    "$stackplay" --table "$table" --runs 20000 --json "$@" | /usr/bin/python3 -c '
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
               | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["observed"]["mean"])')
        echo "$policy: $mean"; means+=("$mean")
    done
    /usr/bin/python3 -c 'import sys; r, h, l = map(float, sys.argv[1:]); assert r < h < l, (r, h, l)' "${means[@]}" \
        || { echo "FAIL: expected random < heuristic < lookahead 1"; exit 1; }
    "$stackplay" --table "$1" --runs 50000 --policy heuristic --check | tail -3
    ;;
show)
    text=$("$stackplay" --table "$1" --show --seed 2)
    echo "$text" | head -25
    placed=$(echo "$text" | sed -n 's/^\([0-9]*\) pieces placed (seed 2)$/\1/p')
    [ -n "$placed" ] || { echo "FAIL: no closing line"; exit 1; }
    [ "$(echo "$text" | grep -c '^move [0-9]*: drew ., placed')" -eq "$placed" ] || { echo "FAIL: frame count"; exit 1; }
    "$stackplay" --table "$1" --show --seed 2 --json | /usr/bin/python3 -c '
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
    "$stackplay" --table "$1" --explain --board 3,6,8,7 --json | /usr/bin/python3 -c '
import json, sys
board = json.load(sys.stdin)["board"]
assert board["heights"] == [3, 6, 8, 7] and board["id"] == 3 + 6 * 21 + 8 * 21**2 + 7 * 21**3
total = 0
for piece in board["pieces"]:
    values = [p["value"] for p in piece["placements"]]
    assert values == sorted(values, reverse=True)
    for p in piece["placements"]:
        assert sum(p["successor_heights"]) == 24 + 4
    total += sum(1 + max(values, default=-1) for _ in [0]) / 7
assert abs(total - board["value"]) < 1e-12, (total, board["value"])
print("value %.12f = mean over pieces of 1 + best successor value" % board["value"])
' || exit 1
    ;;
threads)
    one=$("$stackplay" --table "$1" --runs 30000 --seed 9 --threads 1 --start-id 1 | grep '^Exp:')
    three=$("$stackplay" --table "$1" --runs 30000 --seed 9 --threads 3 --start-id 1 | grep '^Exp:')
    echo "1 thread:  $one"; echo "3 threads: $three"
    [ "$one" = "$three" ] || { echo "FAIL: results depend on the thread count"; exit 1; }
    ;;
check_fails)
    wrong=$(mktemp --suffix=.h5); trap 'rm -f "$wrong"' EXIT
    cp "$1" "$wrong"
    /usr/bin/python3 -c "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f['/values'][...] = f['/values'][...] * 1.05" "$wrong"
    set +e
    report=$("$stackplay" --table "$wrong" --runs 100000 --start-id 1 --check); code=$?
    set -e
    echo "$report"
    [ "$code" -eq 1 ] && echo "$report" | grep -q '^check: FAIL' || { echo "FAIL: --check passed (exit $code) on a wrong table"; exit 1; }
    echo "$report" | grep -q 'failed: the exact mean differs from the table' || { echo "FAIL: the exact mean did not catch it"; exit 1; }
    echo "$report" | grep -q 'failed: z-test of the mean' || { echo "FAIL: the z-test did not catch it"; exit 1; }
    ;;
*) echo "unknown subcommand $command"; exit 2 ;;
esac
