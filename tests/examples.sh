#!/usr/bin/env bash
# examples/ run as a user would (examples/README.md): a table of the piece
# file examples/tall-pieces.txt made, verified and read by
# examples/read_table.py, which must print V(empty) and refuse a board
# above the well as a ValueError; the Tetris Bot Protocol session
# examples/tbp-session.jsonl fed to the bot, which must answer info, ready
# and a suggestion of moves for each suggest, with nothing on stderr.
#   tests/examples.sh SOURCE_DIR DIR
# Environment: BIN (build dir)
set -euo pipefail
source_dir=$1 dir=$2
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$dir"
table="$dir/tall_4x8.h5"
rm -f "$table"
"$BIN/gen/stackgen" --pieces "$source_dir/examples/tall-pieces.txt" --width 4 --height 8 --output "$table" --quiet
"$BIN/gen/stackverify" "$table" > "$dir/verify.out" || { cat "$dir/verify.out"; fail "stackverify refuses the example's table"; }
output=$(/usr/bin/python3 "$source_dir/examples/read_table.py" "$table") || fail "read_table.py failed: $output"
echo "$output"
grep -q "^tall_4x8.h5: 4x8, " <<< "$output" || fail "no well line"
grep -Eq "^V\(empty\) = [0-9]+\.[0-9]{12}$" <<< "$output" || fail "no V(empty)"
grep -q "^refused: height 9 is outside the well" <<< "$output" || fail "a board above the well was not refused as a ValueError"

# The bot's session: what a frontend sends, line by line.
"$BIN/play/stackplay" --bot tbp < "$source_dir/examples/tbp-session.jsonl" > "$dir/tbp.out" 2> "$dir/tbp.err" \
    || fail "the bot exited non-zero on the example session"
[ ! -s "$dir/tbp.err" ] || { cat "$dir/tbp.err"; fail "the bot complained about the example session"; }
/usr/bin/python3 - "$dir/tbp.out" <<'PYTHON'
import json, sys
replies = [json.loads(line) for line in open(sys.argv[1])]
kinds = [reply["type"] for reply in replies]
assert kinds == ["info", "ready", "suggestion", "suggestion"], kinds
assert all(reply["moves"] for reply in replies[2:]), "a suggestion without moves"
print("tbp-session: %s; first moves %s, then %s" % (" ".join(kinds), replies[2]["moves"][0]["location"],
                                                 replies[3]["moves"][0]["location"]))
PYTHON
