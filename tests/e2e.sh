#!/usr/bin/env bash
# End-to-end checks of the built tools, one ctest test per subcommand.
#   e2e.sh generate NP OUT [W H CONNECTIONS]
#                                     stackgen (default 4x20) at NP ranks; checks
#                                     the connection count (and V(empty) on 4x20)
#   e2e.sh same A B                   tables bit-identical
#   e2e.sh naive TABLE W H            table bit-identical to the naive baseline
#   e2e.sh reference A                table equals the published 4x20 values
#   e2e.sh play TABLE EXP ARGS...     stackplay --check passes (and predicts EXP
#                                     unless EXP is -)
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
    ;;
*) echo "unknown subcommand $command"; exit 2 ;;
esac
