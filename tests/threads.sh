#!/usr/bin/env bash
# Threads inside ranks, the digest, --no-output and --plan.
#   threads.sh identity SET W H   tables of every ranks x threads in {1,2,3} x {1,2} are
#                                 byte-identical; every summary and a --no-output run give
#                                 the same digest, which is xz's CRC-64 of /values
#   threads.sh plan               --plan answers for 9x20 class 0 at 16 x 8 (fits with a big
#                                 enough node, exit 2 and one line when not), and refuses
#                                 impossible layouts and thread counts with one line; a
#                                 1-rank run's band at its peak is the plan's, to the byte
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
source "$(dirname "$0")/lib.sh"
command=$1; shift

# digest_of SUMMARY: the digest a summary printed.
digest_of() { sed -n 's/^  digest *\(crc64:[0-9a-f]*\).*/\1/p' "$1"; }

# xz_crc64 TABLE: CRC-64 of the table's /values bytes, as xz computes it.
xz_crc64() {
    "$python" -c "import h5py, sys; sys.stdout.buffer.write(h5py.File(sys.argv[1], 'r')['values'][...].tobytes())" "$1" \
        | xz -C crc64 -0 -c > "$work/values.xz"
    xz --robot --list -vv "$work/values.xz" | awk '$1 == "block" { print "crc64:" $11 }'
    rm -f "$work/values.xz"
}

case "$command" in
identity)
    set_name=$1 width=$2 height=$3
    shape=(--width "$width" --height "$height" --pieces "$set_name")
    mpi 1 "$stackgen" "${shape[@]}" --threads 1 --output "$work/1x1.h5" > "$work/1x1.txt" 2> "$work/1x1.err" \
        || { cat "$work/1x1.err"; exit 1; }
    reference=$(digest_of "$work/1x1.txt")
    [ -n "$reference" ] && pass || fail "1 x 1: no digest in the summary"
    [ "$(xz_crc64 "$work/1x1.h5")" = "$reference" ] && pass \
        || fail "the digest $reference is not xz's CRC-64 of /values ($(xz_crc64 "$work/1x1.h5"))"
    for ranks in 1 2 3; do
        for threads in 1 2; do
            [ "$ranks$threads" = 11 ] && continue
            layout="${ranks}x${threads}"
            mpi "$ranks" "$stackgen" "${shape[@]}" --threads "$threads" --output "$work/$layout.h5" > "$work/$layout.txt" \
                2> "$work/$layout.err" || { fail "$layout: stackgen failed: $(tail -1 "$work/$layout.err")"; continue; }
            cmp -s "$work/1x1.h5" "$work/$layout.h5" && pass || fail "$set_name ${width}x$height: $layout differs from 1 x 1"
            [ "$(digest_of "$work/$layout.txt")" = "$reference" ] && pass || fail "$layout: digest $(digest_of "$work/$layout.txt")"
            grep -q "$ranks rank.* x $threads thread" "$work/$layout.txt" && pass || fail "$layout: the summary names another layout"
            echo "$set_name ${width}x$height: $layout byte-identical to 1 x 1, digest $reference"
        done
    done
    mpi 2 "$stackgen" "${shape[@]}" --threads 2 --no-output > "$work/none.txt" 2> "$work/none.err" \
        || fail "--no-output failed: $(tail -1 "$work/none.err")"
    [ "$(digest_of "$work/none.txt")" = "$reference" ] && pass || fail "--no-output: digest $(digest_of "$work/none.txt")"
    grep -q "output  *none" "$work/none.txt" && pass || fail "--no-output: the summary names an output"
    [ -z "$(ls "$work" | grep -v -e '^[0-9]x[0-9]\.' -e '^none\.' -e '^out$' -e '^err$')" ] && pass \
        || fail "--no-output left files: $(ls "$work")"
    # One rank without a file digests its rows where they lie, each thread
    # an equal share (no segments): the digest of 2 ranks, which send and
    # assemble segments, straight from a float64 band and converted from a
    # float32 one. A 7x10 class-0 well, whose rounds are large enough to be
    # shared between the threads.
    digest_shape=(--width 7 --height 10 --residue 0 --pieces "$set_name" --no-output)
    for band in float64 float32; do
        mpi 2 "$stackgen" "${digest_shape[@]}" --threads 1 --band-precision "$band" > "$work/none_2x1_$band.txt" 2>&1 \
            || fail "--no-output 7x10 at 2 x 1 ($band band) failed"
        mpi 1 "$stackgen" "${digest_shape[@]}" --threads 2 --band-precision "$band" > "$work/none_1x2_$band.txt" 2>&1 \
            || fail "--no-output 7x10 at 1 x 2 ($band band) failed"
        one=$(digest_of "$work/none_1x2_$band.txt") two=$(digest_of "$work/none_2x1_$band.txt")
        [ -n "$one" ] && [ "$one" = "$two" ] && pass \
            || fail "--no-output 7x10, a $band band: 1 x 2 gives digest $one, 2 x 1 gives $two"
    done
    # A float32 band: the same bytes for every layout too (its own values).
    for layout in 1x1 2x2; do
        mpi "${layout%x*}" "$stackgen" "${shape[@]}" --threads "${layout#*x}" --band-precision float32 --precision float32 \
            --output "$work/band32_$layout.h5" --quiet || fail "--band-precision float32 at $layout failed"
    done
    cmp -s "$work/band32_1x1.h5" "$work/band32_2x2.h5" && pass || fail "a float32 band: 2 x 2 differs from 1 x 1"
    # A float32 table's summary gives V(empty) as the table holds it (the
    # computed float64 value beside it), not the float64 value alone.
    mpi 1 "$stackgen" "${shape[@]}" --precision float32 --output "$work/f32.h5" --json > "$work/f32.json" 2> /dev/null \
        || fail "--precision float32 --json failed"
    "$python" - "$reader" "$work/f32.h5" "$work/f32.json" <<'PYTHON' && pass || fail "a float32 table's V(empty) in --json"
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("stack_table", sys.argv[1])
stack_table = importlib.util.module_from_spec(spec); spec.loader.exec_module(stack_table)
summary = json.load(open(sys.argv[3]))
with stack_table.StackTable(sys.argv[2]) as table:
    held = float(table.values([0])[0])
assert summary["empty_board_value"] == held, (summary["empty_board_value"], held)
assert summary["empty_board_value_computed"] is not None and abs(summary["empty_board_value_computed"] - held) < 1e-6
PYTHON
    "$python" - "$work/band32_1x1.h5" "$work/1x1.h5" <<'PYTHON' && pass || fail "a float32 band's values are not within 1e-5 of float64's"
import sys, h5py, numpy as np
low, high = (h5py.File(path, "r")["values"][...].astype(np.float64) for path in sys.argv[1:3])
gap = np.abs(low - high).max()
print("float32 band: largest difference from float64 %.3g" % gap)
sys.exit(0 if low.shape == high.shape and 0 < gap < 1e-5 * max(1.0, high.max()) else 1)
PYTHON
    "$python" -c "import h5py, sys; a = h5py.File(sys.argv[1], 'r').attrs['values_crc64']; sys.exit(0 if 'crc64:%016x' % a == sys.argv[2] else 1)" \
        "$work/1x1.h5" "$reference" && pass || fail "the table's values_crc64 attribute is not the digest"
    finish
    ;;
plan)
    plan=(--plan --width 9 --height 20 --residue 0 --plan-ranks 16 --threads 8 --no-output)
    start=$(date +%s.%N)
    "$stackgen" "${plan[@]}" --plan-memory 4096G > "$work/plan.txt" && pass || fail "a 4 TB node: the plan does not fit"
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    echo "9x20 class 0, 16 x 8, planned in $seconds s:"; cat "$work/plan.txt"
    grep -q "16 ranks x 8 threads" "$work/plan.txt" && grep -q "memory per rank.*band.*ghosts.*writer" "$work/plan.txt" \
        && grep -Eq "^  band +.* at its largest, row sums [0-9]+\.\.[0-9]+: values .* = .* \+ .*, slice starts" "$work/plan.txt" \
        && grep -q "104,012,863,246 stored" "$work/plan.txt" && grep -q "fits  *yes" "$work/plan.txt" && pass \
        || fail "the plan misses its layout, parts, states or verdict"
    "$stackgen" "${plan[@]}" --plan-memory 4096G --json | "$python" -c "
import json, sys
p = json.load(sys.stdin)
r = p['rank_bytes']
assert p['fits'] and p['threads'] == 8 and p['ranks'] == 16, p
assert abs(r['band'] + r['ghosts'] + r['writer'] + r['process'] + r['chunks'] + r['threads'] - r['total']) < 1, r
assert p['seconds']['compute'] > 0 and p['file_bytes'] == 0, p" && pass || fail "--plan --json"
    expect_error 2 "does not fit: a node needs .* but has" "$stackgen" "${plan[@]}" --plan-memory 128G
    expect_error 2 "does not fit: the table needs .* of disk" "$stackgen" --plan --width 9 --height 20 --residue 0 \
        --plan-ranks 16 --plan-nodes 16 --plan-memory 4096G --plan-disk 64G --output "$work/t.h5"
    expect_error 2 "plan-nodes 17 is more nodes than the 16 ranks" "$stackgen" "${plan[@]}" --plan-nodes 17
    expect_error 2 "plan-ranks" "$stackgen" "${plan[@]}" --plan-ranks 0
    expect_error 2 "threads must be a whole number in \[0, 1024\], not '-0'" "$stackgen" --width 4 --height 8 --threads -0
    expect_error 2 "plan-ranks goes with --plan" "$stackgen" --width 4 --height 8 --plan-ranks 4
    expect_error 2 "threads" "$stackgen" --width 4 --height 8 --threads -1
    expect_error 2 "threads" "$stackgen" --width 4 --height 8 --threads 1025
    expect_error 2 "threads" "$stackgen" --width 4 --height 8 --threads two
    expect_error 2 "no-output writes no table" "$stackgen" --width 4 --height 8 --no-output --output "$work/t.h5"
    expect_error 2 "no-output writes no table" "$stackgen" --width 4 --height 8 --no-output --resume
    expect_error 2 "band-precision float32 rounds every value to float32" "$stackgen" --width 4 --height 8 \
        --band-precision float32 --output "$work/t.h5"
    expect_error 2 "band-precision must be float64 or float32" "$stackgen" --width 4 --height 8 --band-precision half
    "$stackgen" --plan --width 9 --height 20 --residue 0 --threads 16 --plan-memory 128G --no-output \
        --band-precision float32 > "$work/plan.txt" && grep -q "band .*float32" "$work/plan.txt" && pass \
        || fail "9x20 class 0 with a float32 band does not fit a 128 GB node: $(cat "$work/plan.txt")"
    [ ! -e "$work/t.h5" ] && pass || fail "a refused run left a table"
    # The network: the bytes a 3-rank run sends are the plan's, exactly
    # (6x14 is small enough to be counted whole); on one node none cross.
    mpi 3 "$stackgen" --width 6 --height 14 --no-output --json > "$work/run.json" 2> "$work/run.err" \
        || fail "6x14 at 3 ranks failed: $(tail -1 "$work/run.err")"
    "$stackgen" --plan --width 6 --height 14 --no-output --plan-ranks 3 --plan-nodes 3 --json > "$work/three.json" \
        && "$stackgen" --plan --width 6 --height 14 --no-output --plan-ranks 3 --plan-nodes 1 --json > "$work/one.json" \
        && "$python" - "$work/run.json" "$work/three.json" "$work/one.json" <<'PYTHON' && pass || fail "the plan's network"
import json, sys
run, three, one = (json.load(open(path)) for path in sys.argv[1:4])
n, m = three["network"], one["network"]
print("6x14 at 3 ranks: exchanged %d (planned %d), redistributed %d (planned %d)"
      % (run["bytes_exchanged"], n["exchange_bytes"], run["bytes_redistributed"], n["redistribute_bytes"]))
assert n["exact"] and n["exchange_bytes"] == run["bytes_exchanged"], n
assert n["redistribute_bytes"] == run["bytes_redistributed"], n
assert n["bytes_between_nodes"] == n["exchange_bytes"] + n["redistribute_bytes"] and n["seconds"] > 0, n
assert three["seconds"]["estimate"] >= three["seconds"]["compute"] + n["seconds"] - 1e-9, three["seconds"]
assert m["exchange_bytes"] == n["exchange_bytes"] and m["redistribute_bytes"] == n["redistribute_bytes"], m
for key in ("exchange_bytes_between_nodes", "redistribute_bytes_between_nodes", "bytes_between_nodes",
            "bytes_per_node_between_nodes", "seconds"):
    assert m[key] == 0, (key, m)
assert one["seconds"]["network"] == 0, one["seconds"]
PYTHON
    # The band: each round sized for itself, so a 1-rank run holds at its
    # peak exactly the plan's band, the largest five consecutive rounds
    # (mirrored or full, float64 or float32 band, the pentominoes' six).
    for shape in "--width 7 --height 12 --residue 0" "--width 6 --height 12 --mirror off" \
        "--width 7 --height 12 --residue 0 --band-precision float32" "--width 5 --height 12 --pieces pentominoes"; do
        # shellcheck disable=SC2086 # the shape's words are options
        mpi 1 "$stackgen" $shape --no-output --json > "$work/run.json" 2> "$work/run.err" \
            && "$stackgen" $shape --no-output --plan --json > "$work/plan.json" \
            && "$python" - "$work/run.json" "$work/plan.json" "$shape" <<'PYTHON' && pass || fail "$shape: the band held is not the plan's"
import json, sys
run, plan = (json.load(open(path)) for path in sys.argv[1:3])
band, held = plan["band"], run["band_parts_max"]["rounds"]
print("%s: band held at its peak %d bytes, planned %d (row sums %d.., values %s, slice starts %d)"
      % (sys.argv[3], held, band["total"], band["first_sum"], band["round_bytes"], band["slice_starts"]))
assert held == band["total"] == plan["rank_bytes"]["band"], (held, band)
assert band["total"] == band["values"] + band["slice_starts"] == sum(band["round_bytes"]) + band["slice_starts"], band
assert len(band["round_bytes"]) == plan["band_rounds"], band
PYTHON
    done
    "$stackgen" "${plan[@]}" --plan-memory 4096G --plan-nodes 4 --plan-link 25G --plan-latency-us 1.5 > "$work/plan.txt" \
        && grep -Eq "^  network .* between nodes \(exchange .*, redistribution .*\), .* a node; .* s at 25 Gbit/s and 1.5 us a message$" \
            "$work/plan.txt" && grep -q "network .* s between rounds" "$work/plan.txt" && pass \
        || fail "4 nodes: no network line: $(cat "$work/plan.txt")"
    "$stackgen" "${plan[@]}" --plan-memory 4096G > "$work/plan.txt" && ! grep -q "network" "$work/plan.txt" && pass \
        || fail "one node: a network line: $(cat "$work/plan.txt")"
    for link in 0 -1 fast 10X 0G nan; do
        expect_error 2 "plan-link must be a rate in bits a second" "$stackgen" "${plan[@]}" --plan-link "$link"
    done
    expect_error 2 "plan-latency-us must be" "$stackgen" "${plan[@]}" --plan-latency-us -1
    expect_error 2 "plan-link goes with --plan" "$stackgen" --width 4 --height 8 --plan-link 10G
    # Threads that would wait for a core are warned about, and the advice
    # works where it is given: run again as advised, no warning. (The
    # binding advice is checked where a second core exists.)
    cores=$(getconf _NPROCESSORS_ONLN)
    mpi 2 "$stackgen" --width 4 --height 6 --no-output --progress --threads "$cores" > /dev/null 2> "$work/err"
    advice=$(grep -o "use --threads [0-9]*" "$work/err" | grep -o "[0-9]*$")
    [ "$advice" = "$(( cores / 2 > 1 ? cores / 2 : 1 ))" ] && grep -q "2 ranks x $cores threads on rank 0's node" "$work/err" \
        && pass || fail "2 ranks x $cores threads on $cores cores: no advice: $(grep warning "$work/err")"
    mpi 2 "$stackgen" --width 4 --height 6 --no-output --progress --threads "${advice:-1}" > /dev/null 2> "$work/err" \
        && ! grep -q warning "$work/err" && pass || fail "the advised --threads ${advice:-1} is warned about: $(cat "$work/err")"
    "$stackgen" --width 4 --height 6 --no-output --progress --threads 1024 > /dev/null 2> "$work/err"
    grep -q "use --threads $cores$" "$work/err" && ! grep -q "PE=1024" "$work/err" && pass \
        || fail "--threads 1024 alone: $(grep warning "$work/err")"
    if [ "$cores" -ge 2 ]; then
        mpi 1 --bind-to core "$stackgen" --width 4 --height 6 --no-output --progress --threads 2 > /dev/null 2> "$work/err"
        binding=$(grep -o "mpirun [^)]*" "$work/err" | cut -d' ' -f2-)
        [ -n "$binding" ] && mpi 1 $binding "$stackgen" --width 4 --height 6 --no-output --progress --threads 2 \
            > /dev/null 2> "$work/err" && ! grep -q warning "$work/err" && pass \
            || fail "the advised binding '$binding' does not give rank 0 two cores: $(cat "$work/err")"
    fi
    # Any well answers from formulas: the ones that ended in std::bad_alloc
    # or ate the machine are refused by the run's own lower bounds, in
    # little memory (the peak of each process, read by Python's resource).
    for shape in "11 20" "12 16" "10 30" "14 20" "16 13" "10 24" "3 1000000"; do
        set -- $shape
        expect_error 2 "does not fit: .* needs at least" "$stackgen" --plan --width "$1" --height "$2" --plan-memory 128G
    done
    "$python" - "$stackgen" <<'PYTHON' && pass || fail "a plan of a huge well used too much memory"
import resource, subprocess, sys
for arguments in (["--width", "11", "--height", "20"], ["--width", "10", "--height", "24"],
                  ["--width", "11", "--height", "20", "--plan-memory", "1000T", "--no-output"],
                  ["--width", "11", "--height", "20", "--plan-memory", "1000T", "--plan-ranks", "4096",
                   "--plan-nodes", "64", "--no-output"]):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run([sys.argv[1], "--plan"] + arguments, capture_output=True, text=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(" ".join(arguments), "-> exit", done.returncode, "peak", peak, "KB")
    assert done.returncode in (0, 2) and "bad_alloc" not in done.stderr, done.stderr
    assert peak < 100 * 1024, (arguments, peak)
PYTHON
    # The plan runs the run's checks of the options and the output.
    expect_error 2 "band-precision float32 rounds every value to float32" "$stackgen" --plan --width 4 --height 8 \
        --band-precision float32
    expect_error 2 "nothing to resume" "$stackgen" --plan --width 4 --height 8 --resume --output "$work/none.h5"
    expect_error 2 "is a character device" "$stackgen" --plan --width 4 --height 8 --output /dev/null
    expect_error 2 "no-output writes no table" "$stackgen" --plan --width 4 --height 8 --no-output --output "$work/t.h5"
    # --threads 0 resolves on the planned node's cores, and the limits print
    # in the unit typed.
    "$stackgen" --plan --width 6 --height 10 --threads 0 --plan-cores 32 --plan-memory 128G --json \
        | "$python" -c "
import json, sys
p = json.load(sys.stdin)
assert p['threads'] == 32 and p['cores_per_node'] == 32 and not p['this_node']['cores'], p
assert p['this_node']['memory'] is False and p['node_memory_typed'] == '128G', p" && pass \
        || fail "--threads 0 --plan-cores 32 does not plan 32 threads"
    # Under mpirun the plan's node is this node, whatever rank 0 is bound to.
    mpi 2 "$stackgen" --plan --width 6 --height 10 --threads 0 --json | "$python" -c "
import json, sys
p = json.load(sys.stdin)
cores = int(sys.argv[1])
assert p['ranks'] == 2 and p['cores_per_node'] == cores and p['this_node']['cores'], p
assert p['threads'] == max(1, cores // 2), p" "$(getconf _NPROCESSORS_ONLN)" && pass \
        || fail "mpirun -n 2 --plan does not plan on this node's cores"
    "$stackgen" --plan --width 6 --height 10 --threads 0 --plan-cores 32 --plan-ranks 4 --json \
        | "$python" -c "
import json, sys
p = json.load(sys.stdin)
assert p['threads'] == 8, p" && pass || fail "--threads 0 on 4 ranks of a 32-core node is not 8 threads a rank"
    "$stackgen" --plan --width 6 --height 10 --plan-memory 128G > "$work/plan.txt" \
        && grep -q "memory per node .* of 128G available$" "$work/plan.txt" \
        && grep -q "time model *fitted on" "$work/plan.txt" && pass || fail "--plan-memory 128G: $(cat "$work/plan.txt")"
    expect_error 2 "needs at least [0-9]*G .1 rank x [0-9]*G. but has 128G" "$stackgen" --plan --width 11 --height 20 \
        --plan-memory 128G --no-output
    finish
    ;;
*) echo "unknown subcommand $command"; exit 2 ;;
esac
