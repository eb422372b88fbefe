#!/usr/bin/env bash
# cmake --install, then the example consumer (examples/consumer: its
# CMakeLists.txt and main.cpp) built against the install tree with
# find_package(stack), run on the 4x20 table: V(empty) must be the
# reference's 2.539044371732, and its T placement stackplay's --explain
# choice. The installed tools must run from the install tree too; the
# manual, the examples, the license, the Slurm job and (where help2man is
# installed) the man pages, made from the tools' options, are installed.
#   tests/install.sh SOURCE_DIR BUILD_DIR TABLE
set -euo pipefail
source_dir=$1 build_dir=$2 table=$3
# A sanitizer or fuzzing build's library needs its runtime at every link:
# the plain build (scripts/run-tests' first pass) is the one installed.
if grep -qE '^STACK_(SANITIZE|FUZZ):BOOL=ON' "$build_dir/CMakeCache.txt"; then
    echo "install: skipped in a sanitizer or fuzzing build"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install: $*" >&2; exit 1; }

cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
for file in bin/stackgen bin/stackplay bin/stackverify include/stack/table.h lib/libstacktable.so \
            lib/cmake/stack/stackConfig.cmake lib/cmake/stack/stackConfigVersion.cmake lib/cmake/stack/stackTargets.cmake; do
    [ -e "$work/prefix/$file" ] || fail "the install tree has no $file"
done
"$work/prefix/bin/stackplay" --version > /dev/null || fail "the installed stackplay does not run"
for file in share/doc/stack/README.md share/doc/stack/LICENSE share/doc/stack/docs/format.md \
            share/doc/stack/examples/consumer/main.cpp share/stack/stackgen.sbatch; do
    [ -e "$work/prefix/$file" ] || fail "the install tree has no $file"
done
[ -x "$work/prefix/share/stack/stackgen.sbatch" ] || fail "the installed stackgen.sbatch is not executable"
if grep -q "^STACK_HELP2MAN:FILEPATH=/" "$build_dir/CMakeCache.txt"; then
    for pair in stackgen:--width stackplay:--runs stackverify:--table; do
        tool=${pair%%:*} option=${pair#*:}
        page="$work/prefix/share/man/man1/$tool.1"
        [ -s "$page" ] || fail "no man page $page"
        grep -q -- "${option//-/\\\\-}" "$page" || grep -q -- "$option" "$page" || fail "$tool.1 does not list $option"
        # NAME, DESCRIPTION, EXAMPLES and SEE ALSO (docs/man/TOOL.h2m and the
        # help's sentences), and a NAME line that is not help2man's default.
        for section in NAME DESCRIPTION EXAMPLES "SEE ALSO"; do
            grep -qx "\.SH \"\?$section\"\?" "$page" || fail "$tool.1 has no $section section"
        done
        name=$(sed -n '/^\.SH NAME/{n;p;q}' "$page")
        case $name in *"manual page for"*|"") fail "$tool.1's NAME is help2man's default: $name" ;; esac
        see_also=$(sed -n '/^\.SH "SEE ALSO"/,$p' "$page")
        for other in stackgen stackplay stackverify; do
            [ "$other" = "$tool" ] || grep -q "^\.BR $other (1)" <<< "$see_also" || fail "$tool.1's SEE ALSO lacks $other"
        done
        grep -q "share/doc/stack" <<< "$see_also" || fail "$tool.1's SEE ALSO does not name the installed manual"
    done
    echo "man pages: $(ls "$work/prefix/share/man/man1" | tr '\n' ' ')"
fi
"$work/prefix/bin/stackverify" "$table" > /dev/null || fail "the installed stackverify refuses the table"

# Every relative link of every installed Markdown page resolves to an
# installed file (the manual links to results/, scripts/ and tests/data/,
# installed beside it); outside code fences, as tests/house.sh reads them.
/usr/bin/python3 - "$work/prefix" <<'EOF' || fail "the installed manual has broken links"
import os, re, sys
broken = checked = 0
for folder, _, files in os.walk(sys.argv[1]):
    for page in (os.path.join(folder, name) for name in files if name.endswith(".md")):
        fence = False
        for number, line in enumerate(open(page, encoding="utf-8"), 1):
            if line.startswith("```"):
                fence = not fence
            for target in [] if fence else re.findall(r"\]\(([^)\s]+)\)", line):
                path = target.split("#", 1)[0]
                if not path or re.match(r"[a-z]+:", path):
                    continue
                checked += 1
                if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(page), path))):
                    print("install: %s:%d links to %s, which is not installed"
                          % (os.path.relpath(page, sys.argv[1]), number, target))
                    broken += 1
print("installed manual: %d relative links, %d broken" % (checked, broken))
sys.exit(1 if broken or not checked else 0)
EOF

# The install tree moves: its package config finds itself where it lies.
mv "$work/prefix" "$work/moved"
prefix=$work/moved

# The installed Python example finds the installed reader (share/stack/python).
output=$(cd / && /usr/bin/python3 "$prefix/share/doc/stack/examples/read_table.py" "$table" 2>&1) \
    || fail "the installed examples/read_table.py failed: $output"
grep -qx "V(empty) = 2.539044371732" <<< "$output" || fail "the installed read_table.py: $output"

# The example consumer, copied out of the source tree.
cp -r "$source_dir/examples/consumer" "$work/consumer"
[ "$(wc -l < "$work/consumer/main.cpp")" -le 12 ] || fail "the example consumer is longer than 12 lines"
cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" > "$work/configure.log" 2>&1 \
    || { cat "$work/configure.log"; fail "find_package(stack) failed against the install tree"; }
cmake --build "$work/consumer/build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "the consumer does not build"; }
# It must not have reached into the source tree for anything.
if grep -q "$source_dir/common" "$work/consumer/build/CMakeFiles/consumer.dir/flags.make"; then
    fail "the consumer's include path reaches into the source tree"
fi
output=$(cd / && "$work/consumer/build/consumer" "$table") || fail "the consumer failed: $output"
echo "$output"
grep -qx "V(empty 4x20) = 2.539044371732" <<< "$output" || fail "V(empty 4x20) is not 2.539044371732"

# The package's version: this one's minor version is accepted, a later
# major one refused.
version=$(sed -n 's/^project(stack VERSION \([0-9]*\.[0-9]*\).*/\1/p' "$source_dir/CMakeLists.txt")
for wanted in "$version" 99.0; do
    mkdir -p "$work/version$wanted"
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(v CXX)\nfind_package(stack %s REQUIRED)\n' "$wanted" \
        > "$work/version$wanted/CMakeLists.txt"
    found=0
    cmake -S "$work/version$wanted" -B "$work/version$wanted/build" -DCMAKE_PREFIX_PATH="$prefix" > /dev/null 2>&1 \
        || found=$?
    if [ "$wanted" = 99.0 ]; then [ "$found" -ne 0 ] || fail "find_package(stack 99.0) accepted $version"
    else [ "$found" -eq 0 ] || fail "find_package(stack $wanted) refused"; fi
done

# Its T placement is stackplay's table policy's (--explain lists T's best first;
# the library's rotation is the orientation's place in the set, --explain's piece_rotation).
expected=$("$prefix/bin/stackplay" --table "$table" --explain --json | /usr/bin/python3 -c '
import json, sys
board = json.load(sys.stdin)["board"]
t = next(p for p in board["pieces"] if p["piece"] == "T")
best = t["placements"][0]
print("T: rotation %d, column %d, value after %.12f" % (best["piece_rotation"], best["column"], best["value"]))')
grep -qxF "$expected" <<< "$output" || fail "the consumer's T placement is not stackplay's: expected '$expected'"
# A table of one residue class does not hold the empty board: the error
# crosses the library's boundary as stack::TableError with the reader's
# message (the consumer does not catch it, so the runtime prints it).
"$prefix/bin/stackgen" --width 4 --height 8 --residue 1 --output "$work/class1.h5" > /dev/null 2>&1 \
    || fail "the installed stackgen could not write a class-1 table"
(cd / && "$work/consumer/build/consumer" "$work/class1.h5") > "$work/class1.out" 2>&1 && fail "V(empty) of a class-1 table"
held="the table holds the boards whose height sum mod 4 is in {1}; board 0,0,0,0 has"  # the tetrominoes' modulus
grep -q "instance of 'stack::TableError'" "$work/class1.out" && grep -qF "$held" "$work/class1.out" \
    || fail "a board the table does not hold: $(cat "$work/class1.out")"
echo "install: ok"
