#!/usr/bin/env bash
# The house rules of issue 28, checked on the tracked tree:
#   - play/'s top level holds only main.cpp and what every game shares;
#   - no message or comment says "mod 4" but of the tetrominoes;
#   - Open MPI's root settings sit in at most two files of scripts/;
#   - the README's layout section names every source file's subsystem and
#     every folder of common/, gen/ and play/.
#   tests/house.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 77; }
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }

shared="play/CMakeLists.txt play/main.cpp play/game_random.cpp play/game_random.h play/objectives.h"
for file in $(git ls-files 'play/*' | grep -v '^play/[^/]*/'); do
    grep -qw "$file" <<< "$shared" || fail "play/ holds $file at its top level: give it a room"
done

# "mod 4" in the code, the tests and the scripts only where the
# tetrominoes' modulus is meant (the README's samples are tetromino runs).
git grep -n "mod 4" -- common gen play tests scripts ':!tests/house.sh' | grep -vi "tetromino" \
    | while IFS= read -r line; do echo "FAIL: says mod 4: $line"; done
mod4=$(git grep -n "mod 4" -- common gen play tests scripts ':!tests/house.sh' | grep -vic "tetromino")
[ "$mod4" -eq 0 ] || failures=$((failures + 1))

root_files=$(git grep -l OMPI_ALLOW_RUN_AS_ROOT -- scripts | wc -l)
[ "$root_files" -le 2 ] || fail "Open MPI's root settings are in $root_files files of scripts/: $(git grep -l OMPI_ALLOW_RUN_AS_ROOT -- scripts | tr '\n' ' ')"

layout=$(awk '/^## Layout/ {inside = 1; next} inside && /^## / {exit} inside' README.md)
[ -n "$layout" ] || fail "README.md has no Layout section"
for folder in $(git ls-files common gen play | grep / | sed 's@/[^/]*$@@' | sort -u | grep '/'); do
    grep -qw "$(basename "$folder")/" <<< "$layout" || fail "the layout does not name $folder/"
done
for file in $(git ls-files 'common/*.cpp' 'common/*.h' 'gen/*.cpp' 'gen/*.h' 'play/*.cpp' 'play/*.h'); do
    base=$(basename "$file"); base=${base%.*}
    grep -qw "$base" <<< "$layout" || fail "the layout does not name $file ($base)"
done
echo "$failures failed"
[ "$failures" -eq 0 ]
