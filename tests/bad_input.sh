#!/usr/bin/env bash
# Every bad request must give exactly one line on stderr naming the problem,
# a non-zero exit, and leave no file at the output path.
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
set -uo pipefail
stackgen="$BIN/gen/stackgen"; stackplay="$BIN/play/stackplay"
read -r -a preflags <<< "${MPIEXEC_PREFLAGS:-}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
failures=0 passes=0

# expect_error PATTERN COMMAND...: non-zero exit, one stderr line matching PATTERN
expect_error() {
    local pattern=$1; shift
    "$@" > "$work/out" 2> "$work/err"
    local code=$? lines
    lines=$(grep -c '' "$work/err")
    if [ "$code" -ne 0 ] && [ "$lines" -eq 1 ] && grep -Eq -e "$pattern" "$work/err"; then
        passes=$((passes + 1))
    else
        failures=$((failures + 1))
        echo "FAIL ($*): exit $code, $lines stderr line(s):"; cat "$work/err"
    fi
}
gen() { "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" 2 "${preflags[@]}" "$stackgen" "$@"; }

gen --width 3 --height 4 --output "$work/good.h5" --quiet || { echo "FAIL: cannot make a good table"; exit 1; }

expect_error 'stackgen: error: --width must be at least 1' gen --width 0 --height 20 --output "$work/a.h5"
expect_error 'stackgen: error: --height must be at least 1' gen --width 4 --height -3 --output "$work/a.h5"
expect_error 'does not fit in 64 bits' gen --width 15 --height 20 --output "$work/a.h5"
expect_error 'needs about .* available' gen --width 9 --height 20 --output "$work/a.h5"
expect_error "unrecognised option '--heigth'" gen --width 4 --heigth 20 --output "$work/a.h5"
expect_error "unrecognised option '--schedule'" gen --width 4 --height 4 --schedule jacobi --output "$work/a.h5"
expect_error "'--width' is invalid" gen --width four --height 4 --output "$work/a.h5"
expect_error '--height is required' gen --width 4 --output "$work/a.h5"
expect_error 'stackgen: error: create .*/missing/.*unable to create file' gen --width 3 --height 4 --output "$work/missing/t.h5"
[ -e "$work/a.h5" ] && { echo "FAIL: a failed run left $work/a.h5"; failures=$((failures + 1)); }
[ -n "$(ls -A "$work" | grep -v -e '^good.h5$' -e '^out$' -e '^err$')" ] && {
    echo "FAIL: temporary files left behind:"; ls -A "$work"; failures=$((failures + 1)); }

echo "not hdf5" > "$work/text.h5"
expect_error "stackplay: error: table '.*/nope.h5' does not exist" "$stackplay" --table "$work/nope.h5"
expect_error "is not an HDF5 file" "$stackplay" --table "$work/text.h5"
if command -v h5mkgrp > /dev/null; then
    h5mkgrp "$work/group.h5" /g
    expect_error "is not a stacking table: attribute 'format_version' is missing" "$stackplay" --table "$work/group.h5"
fi
expect_error "has 3 columns, the table's width is 3|has 2 columns, the table's width is 3" "$stackplay" --table "$work/good.h5" --start 1,2
expect_error "column 1 height 5 is outside \[0, 4\]" "$stackplay" --table "$work/good.h5" --start 0,5,0
expect_error "--start-id 125 is outside" "$stackplay" --table "$work/good.h5" --start-id 125
expect_error "unrecognised option '--bogus'" "$stackplay" --table "$work/good.h5" --bogus
expect_error "--table is required" "$stackplay"
expect_error "--runs must be at least 1" "$stackplay" --table "$work/good.h5" --runs 0
expect_error "--policy must be table, random, heuristic or \"lookahead N\" with N in 1..4, not 'lookahead 9'" \
    "$stackplay" --table "$work/good.h5" --policy "lookahead 9"
expect_error "--check needs a policy with an exact length distribution: table or heuristic, not random" \
    "$stackplay" --table "$work/good.h5" --policy random --check
expect_error "--check applies to a run of games, not to --show or --explain" "$stackplay" --table "$work/good.h5" --show --check
expect_error "give either --show or --explain, not both" "$stackplay" --table "$work/good.h5" --show --explain
expect_error "give either --start or --board, not both" "$stackplay" --table "$work/good.h5" --start 0,0,0 --board 0,0,0
expect_error "--check-level must lie strictly between 0 and 1" "$stackplay" --table "$work/good.h5" --check-level 2
expect_error "column 0 height 9 is outside \[0, 4\]" "$stackplay" --table "$work/good.h5" --explain --board 9,0,0

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
