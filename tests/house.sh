#!/usr/bin/env bash
# The house rules of issue 28, checked on the tracked tree:
#   - play/'s top level holds only main.cpp and what every game shares;
#   - no message or comment says "mod 4" but of the tetrominoes;
#   - Open MPI's root settings sit in at most two files of scripts/;
#   - the glossary (docs/glossary.md) defines each word a newcomer must learn;
#   - no two headers share a name, and every tool's --threads has one bound;
#   - the layout (docs/layout.md) names every source file's subsystem and
#     every folder of common/, gen/ and play/;
#   - the README is a front page of at most 300 lines; every relative link
#     of the tracked Markdown pages resolves; the user docs (README.md,
#     docs/) speak of the tools, not of the issues that made them;
#   - the tests mirror the source (issue 39): each test file of tests/common,
#     tests/gen and tests/play is named after a header of that room and is
#     built, and none is left at tests/' top level.
#   tests/house.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 77; }
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }

shared="play/CMakeLists.txt play/main.cpp play/game_random.cpp play/game_random.h play/objectives.h play/interrupt.cpp play/interrupt.h"
for file in $(git ls-files 'play/*' | grep -v '^play/[^/]*/'); do
    grep -qw "$file" <<< "$shared" || fail "play/ holds $file at its top level: give it a room"
done

# "mod 4" in the code, the tests and the scripts only where the
# tetrominoes' modulus is meant (the README's samples are tetromino runs).
git grep -n "mod 4" -- common gen play tests scripts ':!tests/house.sh' | grep -vi "tetromino" \
    | while IFS= read -r line; do echo "FAIL: says mod 4: $line"; done
mod4=$(git grep -n "mod 4" -- common gen play tests scripts ':!tests/house.sh' | grep -vic "tetromino")
[ "$mod4" -eq 0 ] || failures=$((failures + 1))

# The glossary (issue 39): an entry for each word a newcomer must learn.
glossary=$(cat docs/glossary.md)
for word in "h0" "row" "row sum" "round" "band" "slice" "chunk" "ghost" "segment" "residue class" "seed 000 to 004" \
            "leaves" "first placements"; do
    grep -q "\*\*$word\*\*\|\*\*[^*]*, $word\*\*\|\*\*$word, " <<< "$glossary" || fail "the glossary has no entry for '$word'"
done

# No two headers of one name (issue 39: two board.h, two run.h), and one
# thread limit for every tool (support/limits.h's MostThreads).
for twice in $(git ls-files '*.h' | xargs -n1 basename | sort | uniq -d); do
    fail "two headers named $twice: $(git ls-files "*/$twice" | tr '\n' ' ')"
done
git grep -n 'parse_int_option("threads"' -- common gen play | grep -v MostThreads \
    | while IFS= read -r line; do echo "FAIL: a thread limit of its own: $line"; done
own_limits=$(git grep -n 'parse_int_option("threads"' -- common gen play | grep -vc MostThreads)
[ "$own_limits" -eq 0 ] || failures=$((failures + 1))

root_files=$(git grep -l OMPI_ALLOW_RUN_AS_ROOT -- scripts | wc -l)
[ "$root_files" -le 2 ] || fail "Open MPI's root settings are in $root_files files of scripts/: $(git grep -l OMPI_ALLOW_RUN_AS_ROOT -- scripts | tr '\n' ' ')"

# The tests mirror the source (issue 39): tests/ROOM/test_NAME.cpp, or
# test_NAME_mpi.cpp for an MPI suite, tests ROOM's header NAME.h (in any
# folder of ROOM: no two headers share a name), and tests/CMakeLists.txt
# builds it; a test of several headers is named after its main one.
for file in $(git ls-files 'tests/test_*.cpp'); do
    fail "$file sits at tests/' top level: move it to the room of the header it tests (tests/common, gen or play)"
done
for file in $(git ls-files 'tests/common/*.cpp' 'tests/gen/*.cpp' 'tests/play/*.cpp'); do
    room=$(cut -d/ -f2 <<< "$file")
    name=$(basename "$file" .cpp)
    header=${name#test_}
    header=${header%_mpi}.h
    if [ "$name" = "${name#test_}" ]; then
        fail "$file: a test file's name is test_NAME.cpp, for the header NAME.h it tests"
    elif [ -z "$(git ls-files "$room/$header" "$room/*/$header")" ]; then
        fail "$file: $room/ has no header $header for it to test: name it after the header it tests"
    fi
    grep -qwF "${file#tests/}" tests/CMakeLists.txt || fail "$file: tests/CMakeLists.txt does not build it"
done

# The layout: each folder of common/, gen/ and play/ has its block (a line
# starting "name/" at its depth, with the lines indented under it), and each
# source file's name (without .h/.cpp) is a word of its own folder's block.
if ! git ls-files 'common/*' 'gen/*' 'play/*' | /usr/bin/python3 -c '
import re, sys
layout = open("docs/layout.md").read().split("\n")
blocks, path = {}, {}
for line in layout:
    match = re.match(r"^( *)([a-z_]+/)\s", line)
    if match and len(match.group(1)) in (0, 2):
        depth = len(match.group(1)) // 2
        path[depth] = match.group(2)
        key = "".join(path[d] for d in range(depth + 1))
        blocks[key] = line
        current = key
    elif line.startswith("   ") and blocks:
        blocks[current] += " " + line
    else:
        current = None
        if not line.startswith("   "):
            blocks.setdefault("", "")
failed = 0
for name in sys.stdin.read().split():
    folder = name.rsplit("/", 1)[0] + "/"
    if folder not in blocks:  # a folder deeper than two: named in the block above it
        parent, last = folder[:-1].rsplit("/", 1)
        if parent + "/" not in blocks or not re.search(r"(?<![\w/])%s/" % re.escape(last), blocks[parent + "/"]):
            print("FAIL: the layout names no %s" % folder); failed += 1
        continue
    if name.endswith((".h", ".cpp")):
        base = name.rsplit("/", 1)[1].rsplit(".", 1)[0]
        if not re.search(r"(?<![\w/.-])%s(?![\w-])" % re.escape(base), blocks[folder]):
            print("FAIL: the layout block of %s does not name %s" % (folder, name)); failed += 1
sys.exit(1 if failed else 0)'; then
    failures=$((failures + 1))
fi
# The front page, the links, the user docs' words.
lines=$(wc -l < README.md)
[ "$lines" -le 300 ] || fail "README.md has $lines lines: at most 300 (the rest belongs in docs/)"
git grep -n -i -E "\bissues? [0-9]+" -- README.md 'docs/*.md' | while IFS= read -r line; do echo "FAIL: names an issue: $line"; done
[ "$(git grep -c -i -E "\bissues? [0-9]+" -- README.md 'docs/*.md' | wc -l)" -eq 0 ] || failures=$((failures + 1))
if ! git ls-files '*.md' | /usr/bin/python3 -c '
import os, re, sys
failed = 0
for page in sys.stdin.read().split():
    fence = False
    for number, line in enumerate(open(page, encoding="utf-8"), 1):
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            path = target.split("#", 1)[0]
            if not path or re.match(r"[a-z]+:", path):
                continue
            if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(page), path))):
                print("FAIL: %s:%d links to %s, which is not there" % (page, number, target)); failed += 1
sys.exit(1 if failed else 0)'; then
    failures=$((failures + 1))
fi
echo "$failures failed"
[ "$failures" -eq 0 ]
