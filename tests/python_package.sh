#!/usr/bin/env bash
# The Python reader as a package: `pip install` of common/table/python into
# a fresh virtual environment (offline: --no-index --no-build-isolation,
# Debian's setuptools; numpy and h5py from the system site packages, so
# --no-deps: Debian names h5py's distribution h5py._debian_h5py_serial,
# which pip does not take for h5py; the package declares both), then
# from / (away from the source tree) `import stack_table` reads TABLE (a
# 4x20 table: V(empty) = 2.5390443717...), the module is the installed one,
# its version the project's, and the stack-table command runs. The build
# happens in a copy of the package, so the source tree gets no build/ or
# *.egg-info.
#   python_package.sh SOURCE_DIR TABLE PROJECT_VERSION
set -uo pipefail
source_dir=$1 table=$2 version=$3
package="$source_dir/common/table/python"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
unset PIP_FIND_LINKS PIP_INDEX_URL PIP_EXTRA_INDEX_URL
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
ok() { echo "ok    $*"; }
files() { (cd "$package" && find . -path '*/__pycache__' -prune -o -print | sort); }

# The install line the package's README gives is the one that works here.
install_line="pip install --no-index --no-build-isolation --no-deps common/table/python"
grep -qF "$install_line" "$package/README.md" && ok "the package README gives: $install_line" \
    || fail "the package README does not give '$install_line'"

before=$(files)
cp -r "$package" "$work/src" && rm -rf "$work/src/__pycache__"
/usr/bin/python3 -m venv --system-site-packages "$work/venv" || { echo "FAIL: python3 -m venv (python3-venv)"; exit 1; }
if "$work/venv/bin/pip" install --no-index --no-build-isolation --no-deps "$work/src" > "$work/pip.log" 2>&1; then
    ok "pip install --no-index --no-build-isolation --no-deps"
else
    cat "$work/pip.log"; fail "pip install"
fi

cd / || exit 1
if "$work/venv/bin/python" - "$table" "$work/venv" "$package" "$version" <<'PYTHON'; then
import importlib.metadata, os, sys
import stack_table
table, venv, package, version = sys.argv[1:5]
where = os.path.realpath(stack_table.__file__)
assert where.startswith(os.path.realpath(venv) + os.sep), "stack_table imported from %s, not the venv" % where
assert not where.startswith(os.path.realpath(package) + os.sep), "stack_table imported from the source tree"
assert stack_table.__version__ == version, (stack_table.__version__, version)
assert importlib.metadata.version("stack-table") == version, importlib.metadata.version("stack-table")
requires = sorted(importlib.metadata.requires("stack-table") or [])
assert requires == ["h5py", "numpy"], requires
with stack_table.StackTable(table) as t:
    assert (t.width, t.height) == (4, 20), (t.width, t.height)
    value = float(t.values([0])[0])
assert abs(value - 2.539044371732) < 1e-9, value
print("ok    import stack_table from / (%s): V(empty) of the 4x20 table = %r" % (where, value))
PYTHON
    :
else
    fail "import stack_table from the venv"
fi

command="$work/venv/bin/stack-table"
out=$("$command" "$table" 0 2>&1)
if [[ $out == 2.53904437173* ]]; then ok "stack-table TABLE 0: $out"; else fail "stack-table TABLE 0: $out"; fi
out=$("$command" "$table" --check 2>&1)
if [[ $out == *"4x20, tetrominoes, format 3"* && $out == *"checked: all "*" stored values read, every block of them against its checksum"* ]]; then
    ok "stack-table TABLE --check"
else
    fail "stack-table --check: $out"
fi
out=$("$command" --help 2>&1)
if [[ $out == "usage: stack-table TABLE"* ]]; then ok "stack-table --help"; else fail "stack-table --help: $out"; fi
"$command" > /dev/null 2>&1; code=$?
[ "$code" -eq 2 ] && ok "stack-table without a table: exit 2" || fail "stack-table without a table: exit $code"

after=$(files)
if [ "$before" = "$after" ]; then
    ok "the source tree's package folder is unchanged"
else
    fail "the package folder changed:"; diff <(echo "$before") <(echo "$after")
fi
echo "$failures failed"
[ "$failures" -eq 0 ]
