#!/usr/bin/env bash
# Piece sets through the whole pipeline (issue 17), one subcommand each.
#   pieces.sh files              bad piece files: one line, exit 2, before any compute, no output
#   pieces.sh residues           --residue refuses a class the set does not have; stackplay refuses
#                                a board of a class the table does not hold, naming the set's modulus
#   pieces.sh set SET W H NP     stackgen --pieces SET at NP ranks, then stackplay --runs 100000
#                                --check, stackverify and the Python reader, each on the stored set
#   pieces.sh views              --show draws each piece's letter, --explain lists every piece,
#                                --json names the set, seed001 plays it, on a small rectangles table
#   pieces.sh legacy             a table written before sets were stored reads as the tetrominoes
#   pieces.sh tetrominoes TABLE  the 6x20 values dataset hashes as it did before issue 17
# SET is a built-in name or a path; a relative path is taken from tests/data/pieces.
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
source "$(dirname "$0")/lib.sh"
command=$1; shift

# no_output_after NAME: the refused run left nothing at $work/NAME.h5 (nor its partial).
no_output_after() {
    if ls "$work/$1.h5"* > /dev/null 2>&1; then fail "a refused run left $(ls "$work/$1.h5"*)"; else pass; fi
}

# refuse_file NAME PATTERN [WIDTH [HEIGHT]]: the piece file $work/NAME.txt (written
# from stdin) is refused by stackgen at np 2 with --progress on, one line
# matching PATTERN, exit 2, and no table written.
refuse_file() {
    local name=$1 pattern=$2 width=${3:-5} height=${4:-8}
    cat > "$work/$name.txt"
    expect_error 2 "^stackgen: error: $pattern" mpi 2 "$stackgen" --width "$width" --height "$height" \
        --pieces "$work/$name.txt" --output "$work/$name.h5" --progress
    no_output_after "$name"
}

case "$command" in
files)
    refuse_file ragged "piece file line 1: the rows of a piece are all as long \(a ragged grid: '##' and '#'\)" <<'EOF'
piece a
##
#
EOF
    refuse_file zero "piece file line 1: piece 'a' has no cells" <<'EOF'
piece a
..
EOF
    refuse_file duplicate "pieces 'a' and 'b' are the same shape" <<'EOF'
piece a
##.
.##

piece b
.#
##
#.
EOF
    refuse_file twice "piece file line 4: piece 'a' is defined twice" <<'EOF'
piece a
#

piece a
##
EOF
    for weight in -1 0 1.5 two 99999999999999999999 1000001; do
        refuse_file weight "piece file line 1: weight '$weight' is not an integer in \[1, 1000000\]" <<EOF
piece a weight $weight
#
EOF
    done
    # Six columns and six rows in every orientation; the bar of six fits a 5-wide well standing.
    refuse_file wide "piece 'a' is wider than the 5-column well in every orientation \(at least 6 columns\)" <<'EOF'
piece a
#.....
#.....
#.....
#.....
#.....
######
EOF
    refuse_file tall_for_well "piece 'b' is taller than the 2-row well in every orientation that fits its 5 columns \(at least 3 rows\)" 5 2 <<'EOF'
piece a
#

piece b
###
###
###
EOF
    # The ring leaves a hole under its middle column in every orientation.
    refuse_file ring "piece file line 1: piece 'ring' cannot rest on a stack without a hole in any orientation" <<'EOF'
piece ring
###
#.#
###
EOF
    refuse_file tall "piece file line 1: piece 'tall' is taller than 8" <<'EOF'
piece tall
#
#
#
#
#
#
#
#
#
EOF
    refuse_file long "piece file line 2: a row of cells is up to 8 characters, each '#' \(a cell\) or '.'" <<'EOF'
piece long
#########
EOF
    refuse_file apart "piece file line 1: the cells of piece 'a' are not connected" <<'EOF'
piece a
#.#
EOF
    refuse_file empty "the piece file holds no pieces" < /dev/null
    refuse_file comments "the piece file holds no pieces" <<'EOF'
; only a comment
EOF
    refuse_file headless "piece file line 1: cells outside a piece \(a block starts with 'piece NAME'\)" <<'EOF'
##
EOF
    # Not a piece file at all: a directory, a FIFO (which would block), a missing path.
    mkdir "$work/directory"; mkfifo "$work/fifo"
    for path in "$work/directory" "$work/fifo"; do
        expect_error 2 "^stackgen: error: --pieces: 'FILE' is not a regular file" \
            timeout 60 "$stackgen" --width 5 --height 8 --pieces "$path" --output "$work/not.h5"
    done
    expect_error 2 "^stackgen: error: --pieces: 'FILE' is neither a built-in set \(tetrominoes, rectangles, pentominoes\) nor a readable file" \
        "$stackgen" --width 5 --height 8 --pieces "$work/missing.txt" --output "$work/not.h5"
    expect_error 2 "^stackgen: error: --pieces: 'Tetrominoes' is neither a built-in set" \
        "$stackgen" --width 5 --height 8 --pieces Tetrominoes --output "$work/not.h5"
    no_output_after not
    # The built-in sets' widest pieces: the rectangles' 3x3 in a 2-column well, the tetrominoes' T in one.
    expect_error 2 "^stackgen: error: piece 'r3x3' is wider than the 2-column well in every orientation \(at least 3 columns\)" \
        "$stackgen" --width 2 --height 8 --pieces rectangles --output "$work/narrow.h5"
    expect_error 2 "^stackgen: error: piece 't' is wider than the 1-column well in every orientation \(at least 2 columns\)" \
        "$stackgen" --width 1 --height 8 --output "$work/narrow.h5"
    no_output_after narrow
    finish
    ;;
residues)
    expect_error 2 "^stackgen: error: --residue 1: the pieces \(rectangles\) have one class of the height sum \(the gcd of their sizes is 1\): 0$" \
        "$stackgen" --width 5 --height 8 --pieces rectangles --residue 1 --output "$work/r.h5"
    expect_error 2 "^stackgen: error: --residue 5: the pieces \(pentominoes\) have 5 classes of the height sum \(mod 5, the gcd of their sizes\): 0 to 4$" \
        "$stackgen" --width 5 --height 8 --pieces pentominoes --residue 5 --output "$work/r.h5"
    expect_error 2 "^stackgen: error: --residue 4: the pieces \(tetrominoes\) have 4 classes" \
        "$stackgen" --width 5 --height 8 --residue 4 --output "$work/r.h5"
    no_output_after r
    # Class 4 exists for the pentominoes, and the table holds only it.
    mpi 2 "$stackgen" --width 5 --height 8 --pieces pentominoes --residue 4 --output "$work/p4.h5" --quiet \
        && "$python" "$reader" "$work/p4.h5" | grep -q 'pentominoes, format 3, float64, classes (4,) (mod 5)' \
        && pass || fail "pentominoes --residue 4"
    # A board of another class is refused naming the set's modulus (5), not the tetrominoes' 4.
    expect_error 2 "^stackplay: error: the table holds the boards whose height sum mod 5 is in \{4\}; board 0,0,0,0,0 has height sum 0$" \
        "$stackplay" --table "$work/p4.h5" --start 0,0,0,0,0 --runs 1
    finish
    ;;
set)
    set_name=$1 width=$2 height=$3 ranks=$4
    case "$set_name" in tetrominoes|rectangles|pentominoes) pieces=$set_name stored=$set_name ;;
        *) pieces="$tests_dir/data/pieces/$set_name" stored="file $(basename "$set_name")" ;; esac
    # The done-when commands, in an empty directory: stackgen at NP ranks
    # (the default name, stack_WxH_SET.h5), then stackplay finding the table.
    stem=$(basename "$set_name" .txt); table="$work/stack_${width}x${height}_$stem.h5"
    (cd "$work" && mpi "$ranks" "$stackgen" --width "$width" --height "$height" --pieces "$pieces" \
        --json > "$work/gen.json") || fail "stackgen --pieces $set_name"
    [ -f "$table" ] && pass || fail "stackgen did not write $table: $(ls "$work")"
    "$python" - "$work/gen.json" "$stored" "$width" "$height" <<'PYTHON' && pass || fail "stackgen's report"
import json, sys
report = json.load(open(sys.argv[1]))
stored, width, height = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
print("stackgen %s %dx%d at np %d: V(empty) %.15f, %d connections, %.2f s, %d rounds in a band of %d" % (
    report["pieces"], width, height, report["ranks"], report["empty_board_value"], report["connections"],
    report["seconds"]["total"], report["rounds"], report["band_rounds"]))
assert report["pieces"] == stored, report["pieces"]
assert report["connections"] == sum(report["connections_per_piece"].values())
assert report["states"] == (height + 1) ** width
# a mirror-closed set stores the canonical boards (h0 <= h(W-1)), another every board
canonical = (height + 1) ** (width - 2) * (height + 1) * (height + 2) // 2
assert report["stored_states"] == (canonical if report["mirrored"] else report["states"]), report["stored_states"]
PYTHON
    (cd "$work" && "$stackplay" --runs 100000 --check) | tee "$work/play.txt" | grep -q '^check: PASS' \
        && pass || { fail "stackplay --runs 100000 --check on $set_name"; cat "$work/play.txt"; }
    grep -q "^table ./$(basename "$table"): ${width}x${height}, .*, $stored (" "$work/play.txt" \
        && pass || fail "stackplay does not name the stored set: $(head -1 "$work/play.txt")"
    "$stackplay" --table "$table" --runs 20000 --check --json --seed 5 | "$python" -c '
import json, sys
report, stored = json.load(sys.stdin), sys.argv[1]
assert report["table"]["pieces"] == stored, report["table"]
assert report["check"]["passed"], report["check"]
assert abs(report["predicted"]["mean"] - report["optimal_value"]) <= 1e-9, report["predicted"]
' "$stored" && pass || fail "stackplay --json on $set_name"
    "$stackverify" "$table" > "$work/verify.txt" && grep -q "^verify: PASS" "$work/verify.txt" \
        && grep -q ", $stored, format 3, " "$work/verify.txt" && pass || { fail "stackverify"; cat "$work/verify.txt"; }
    "$python" "$reader" "$table" --check | grep -q "${width}x${height}, $stored, format 3" \
        && pass || fail "the Python reader on $set_name"
    finish
    ;;
views)
    table="$work/rectangles_5x8.h5"
    mpi 2 "$stackgen" --width 5 --height 8 --pieces rectangles --output "$table" --quiet || fail "stackgen"
    # --show: every cell a piece filled shows that piece's letter; the rectangles are A (1x1) to F (3x3).
    "$stackplay" --table "$table" --show --runs 1 --seed 3 > "$work/show.txt" || fail "--show"
    "$python" - "$work/show.txt" <<'PYTHON' && pass || { fail "--show letters"; cat "$work/show.txt"; }
import re, sys
text = open(sys.argv[1]).read()
moves = re.findall(r"^move \d+: drew (\S), placed (\S) rotation \d+ at column \d+", text, re.M)
assert moves, "no moves shown"
assert all(drawn == placed and drawn in "ABCDEF" for drawn, placed in moves), moves
cells = set(re.findall(r"[A-F]", "".join(re.findall(r"^\|([^|]*)\|$", text, re.M))))
assert cells <= {m[0] for m in moves} and cells, (cells, moves)
PYTHON
    # --explain: all six pieces, each with its name; the placements' values best first.
    "$stackplay" --table "$table" --explain --board 0,1,0,0,0 > "$work/explain.txt" || fail "--explain"
    for piece in "A (r1x1)" "B (r1x2)" "C (r1x3)" "D (r2x2)" "E (r2x3)" "F (r3x3)"; do
        grep -q "^piece $piece: [0-9]* placements\?, best first" "$work/explain.txt" \
            && pass || { fail "--explain lacks piece $piece"; cat "$work/explain.txt"; }
    done
    "$stackplay" --table "$table" --explain --board 0,1,0,0,0 --json | "$python" -c '
import json, sys
board = json.load(sys.stdin)["board"]
pieces = board["pieces"]
assert len(pieces) == 6, len(pieces)
for piece in pieces:
    values = [p["value"] for p in piece["placements"]]
    assert values == sorted(values, reverse=True) and values, piece
# the board value is the draw-weighted mean over pieces of (1 + best successor)
mean = sum(1 + piece["placements"][0]["value"] for piece in pieces) / 6
assert abs(mean - board["value"]) < 1e-12, (mean, board["value"])
' && pass || fail "--explain --json on rectangles"
    # seed 001's objective plays the set: the same games on 1 and 3 threads.
    for threads in 1 3; do
        "$stackplay" --table "$table" --policy seed001 --runs 3000 --seed 9 --threads "$threads" --json \
            > "$work/seed001.$threads.json" || fail "--policy seed001"
    done
    "$python" - "$work/seed001.1.json" "$work/seed001.3.json" <<'PYTHON' && pass || fail "seed001 across threads"
import json, sys
one, three = (json.load(open(path)) for path in sys.argv[1:])
assert one["policy"] == "seed001" and one["table"]["pieces"] == "rectangles", one["policy"]
assert one["observed"]["lengths"] == three["observed"]["lengths"], "1 and 3 threads played different games"
assert 1 < one["observed"]["mean"] < one["optimal_value"] * 3, one["observed"]
PYTHON
    finish
    ;;
legacy)
    legacy="$tests_dir/data/legacy/tetrominoes_5x6.h5"
    mpi 2 "$stackgen" --width 5 --height 6 --output "$work/fresh.h5" --quiet || fail "stackgen 5x6"
    # Format 2 summed the pieces in the set's order, format 3 each mirror
    # pair first: the same values to the last bits.
    "$BIN/tests/table_diff" --sums "$legacy" "$work/fresh.h5" && pass || fail "the legacy table's values differ"
    "$stackplay" --table "$legacy" --runs 100000 --check > "$work/play.txt" && grep -q "tetrominoes (ITOSZLJ)" "$work/play.txt" \
        && pass || { fail "stackplay on the legacy table"; cat "$work/play.txt"; }
    "$stackverify" "$legacy" | grep -q "^verify: PASS" && pass || fail "stackverify on the legacy table"
    "$python" "$reader" "$legacy" --check | grep -q "5x6, tetrominoes, format 2" && pass || fail "the Python reader"
    # The legacy rule holds only for the tetrominoes: another pieces table without a stored set is refused.
    craft "$work/fresh.h5" other "f.attrs['pieces'] = 'I: ([0,0,0],[1,1,1,1])'; [f.attrs.__delitem__(a) for a in ('piece_set', 'piece_cells', 'piece_set_checksum')]"
    expect_error 2 "was built with another piece set than the tetrominoes and does not store it" \
        "$stackplay" --table "$work/other.h5" --runs 10
    finish
    ;;
tetrominoes)
    # The SHA-256 of the 6x20 values as little-endian float64, as format 3
    # writes them (each mirror pair summed first, the canonical boards
    # only): the tetrominoes' values are unchanged since. They hold the naive
    # baseline's bits at every board (e2e.naive_v1.6x20); the code before issue
    # 17 (62e3155) wrote the full table, summed in the set's order, whose
    # SHA-256 was 94219188a919aab24a5cf20afaace12111c08d8ccecceb15bd4ebf377805e18f.
    "$python" - "$1" <<'PYTHON' && pass || fail "the 6x20 values changed"
import hashlib, sys
import h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    digest = hashlib.sha256(np.ascontiguousarray(f["values"][...], dtype="<f8").tobytes()).hexdigest()
print("6x20 values SHA-256", digest)
assert digest == "dc1fb0ebe0e4c22246d82f0d166d517bddf88a7c62b448eb6003223bfc871aed", digest
PYTHON
    finish
    ;;
*) echo "pieces.sh: unknown command $command"; exit 2 ;;
esac
