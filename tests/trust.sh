#!/usr/bin/env bash
# Trust: the verifier, integrity checks, resume after kill -9, failing ranks.
#   trust.sh verifier                  stackverify passes on good tables (v1, v2, a class, float32,
#                                      a line-clear table's proven bound) and fails on each planted fault
#   trust.sh damaged                   stackplay, stackverify and the Python reader (not in a
#                                      sanitizer build) refuse each
#                                      damaged file with one line and exit 2
#   trust.sh faults NP                 a rank failing in each phase ends the job within seconds,
#                                      one line naming the rank and the phase, no final file
#   trust.sh checkpoints NP            frequent progress records at np NP neither hang nor change
#                                      the table
#   trust.sh resume W H ROUNDS...      kill -9 one rank at each of ROUNDS, resume at np 1, 2, 3:
#                                      the table is byte-identical to an uninterrupted run;
#                                      ROUND@NP resumes that round at np NP alone
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS; THREADS (default 1):
# the worker threads per rank of the runs that checkpoint, are killed and resume
source "$(dirname "$0")/lib.sh"
command=$1; shift
threads=${THREADS:-1}

# rewrite TABLE PYTHON: change a table with h5py (f is the open file, np numpy, t
# the StackTable), then recompute the checksums (tests/reseal.py), so that
# only the values are wrong.
rewrite() {
    "$python" - "$1" "$reader" "$2" <<'PYTHON' && reseal "$1"
import sys
import h5py, numpy as np
sys.path.insert(0, sys.argv[2].rsplit("/", 1)[0])
from stack_table import StackTable
path, change = sys.argv[1], sys.argv[3]
t = StackTable(path)
t.close()
f = h5py.File(path, "r+")
exec(change)
f.close()
PYTHON
}

case "$command" in
verifier)
    mpi 2 "$stackgen" --width 4 --height 20 --output "$work/v2.h5" --quiet || exit 1
    mpi 2 "$stackgen" --width 4 --height 20 --residue 1 --precision float32 --output "$work/class1.h5" --quiet || exit 1
    "$naive" --width 4 --height 20 --write-v1 "$work/v1.h5" > /dev/null || exit 1
    for table in v2 class1 v1; do
        for np in 1 2 3; do
            if mpi "$np" "$stackverify" "$work/$table.h5" --json > "$work/report.json"; then pass; else fail "stackverify $table at np $np"; fi
        done
        "$python" -c "import json,sys; r=json.load(open(sys.argv[1])); print('$table:', r['states_checked'], 'states,', r['connections_counted'], 'connections, largest deviation', r['largest_deviation'], ',', r['seconds'], 's')" "$work/report.json"
    done
    # One value changed: board 3,6,8,7 (id 68484)
    cp "$work/v2.h5" "$work/changed.h5"
    rewrite "$work/changed.h5" "p = int(t.positions([68484])[0]); f['values'][p] = f['values'][p] * 1.0001"
    expect_error 1 "fails verification: [0-9]+ states disagree with their successors; the first, board [0-9,]+ \\(id [0-9]+\\)" mpi 2 "$stackverify" "$work/changed.h5"
    grep -q "verify: FAIL" "$work/out" && pass || fail "no FAIL line"
    # Two values of boards with the same height sum swapped: 3,6,8,7 and 3,8,6,7
    cp "$work/v2.h5" "$work/swapped.h5"
    rewrite "$work/swapped.h5" "a, b = (int(p) for p in t.positions(t.board_id([[3,6,8,7],[3,8,6,7]]))); v = f['values']; x, y = v[a], v[b]; assert x != y, 'the swap must change something'; v[a], v[b] = y, x" \
        || fail "the swap was not made"
    expect_error 1 "fails verification: [0-9]+ states disagree" mpi 2 "$stackverify" "$work/swapped.h5"
    # A line-clear table (the well game): the proven bound checked from the
    # file at np 1 and 3; one value raised by 1e-6 is named as the farthest
    # board; a stated bound smaller than the proven one, and a stated
    # largest value not the table's, are refused.
    mpi 2 "$stackgen" --width 5 --height 10 --clears tetris --output "$work/clears.h5" --quiet || exit 1
    for np in 1 3; do
        mpi "$np" "$stackverify" "$work/clears.h5" --json > "$work/report.json" && pass || fail "stackverify clears at np $np"
    done
    "$python" - "$work/report.json" <<'PYTHON' && pass || fail "the verifier's bracket"
import json, sys
b = json.load(open(sys.argv[1]))["bracket"]
print("5x10 well game: one step moves a value by +%.3g / -%.3g; proven %.3g, stated %.3g; V(empty) in [%.15f, %.15f]"
      % (b["residual_above"], b["residual_below"], b["bound"], b["stated_bound"], b["empty_low"], b["empty_high"]))
assert b["stated_proven"] and b["bound"] <= b["stated_bound"] <= 1e-10, b
assert b["empty_low"] <= b["empty_high"] and b["empty_high"] - b["empty_low"] <= 2e-10, b
PYTHON
    cp "$work/clears.h5" "$work/raised.h5"
    rewrite "$work/raised.h5" "p = int(t.positions(t.board_id([[2,5,7,3,6]]))[0]); f['values'][p] = f['values'][p] + 1e-6"
    expect_error 1 "fails verification: [0-9,]+ states? (is|are) farther from one Bellman step than the stated bound .* allows; .*the farthest, board 2,5,7,3,6 " mpi 2 "$stackverify" "$work/raised.h5"
    cp "$work/clears.h5" "$work/claims.h5"
    "$python" -c "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f.attrs['clears_bound'] = f.attrs['clears_bound'] / 10" "$work/claims.h5"
    expect_error 1 "fails verification: [0-9,]+ states? (is|are) farther from one Bellman step than the stated bound" mpi 2 "$stackverify" "$work/claims.h5"
    cp "$work/clears.h5" "$work/largest.h5"
    "$python" -c "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f.attrs['clears_largest_value'] = f.attrs['clears_largest_value'] / 2" "$work/largest.h5"
    expect_error 1 "fails verification: its largest value is .*, not the .* its bound was stated with" mpi 2 "$stackverify" "$work/largest.h5"
    # Every value right, the recorded digest one bit off: the digest check alone fails it
    cp "$work/v2.h5" "$work/digest.h5"
    "$python" -c "import h5py, numpy as np, sys; f = h5py.File(sys.argv[1], 'r+'); f.attrs.modify('values_crc64', np.uint64(int(f.attrs['values_crc64']) ^ 1)); f.close()" "$work/digest.h5"
    expect_error 1 "fails verification: its values' digest crc64:[0-9a-f]{16} is not the crc64:[0-9a-f]{16} it records" \
        mpi 3 "$stackverify" "$work/digest.h5"
    grep -q "digest .*DIFFERENT" "$work/out" && pass || fail "the report does not mark the digest DIFFERENT"
    # The 4x20 table relabelled as 2x440 (21^4 = 441^2): version 1 holds ids only
    cp "$work/v1.h5" "$work/relabelled.h5"
    "$python" -c "import h5py, numpy as np, sys; f = h5py.File(sys.argv[1], 'r+'); f.attrs['width'] = np.int64(2); f.attrs['height'] = np.int64(440); f.close()" "$work/relabelled.h5"
    expect_error 1 "fails verification" mpi 2 "$stackverify" "$work/relabelled.h5"
    # The same relabelling of a version-2 table contradicts its round offsets
    cp "$work/v2.h5" "$work/relabelled2.h5"
    "$python" -c "import h5py, numpy as np, sys; f = h5py.File(sys.argv[1], 'r+'); f.attrs['width'] = np.int64(2); f.attrs['height'] = np.int64(440); f.close()" "$work/relabelled2.h5"
    expect_error 2 "stored_states attribute|round_offsets" mpi 2 "$stackverify" "$work/relabelled2.h5"
    # Another piece set recorded in the file
    cp "$work/v2.h5" "$work/pieces.h5"
    "$python" -c "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f.attrs['pieces'] = f.attrs['pieces'].replace('i: ([0,0,0],[1,1,1,1]) ([],[4])', 'i: ([],[4])'); f.close()" "$work/pieces.h5"
    expect_error 2 "is damaged: its piece set does not match its checksum" mpi 2 "$stackverify" "$work/pieces.h5"
    # ... and with the stored set removed: an older table's pieces must be the tetrominoes
    "$python" -c "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); [f.attrs.__delitem__(n) for n in ('piece_set', 'piece_cells', 'piece_set_checksum')]; f.close()" "$work/pieces.h5"
    expect_error 2 "was built with another piece set than the tetrominoes and does not store it" mpi 2 "$stackverify" "$work/pieces.h5"
    finish
    ;;
damaged)
    # The Python reader (pure Python over h5py) runs no code the sanitizers
    # instrument: a sanitizer build (scripts/sanitize) leaves its refusals
    # to the plain build's run of this test, about half the test's time.
    python_reader=true
    grep -qE '^STACK_SANITIZE:BOOL=ON' "$BIN/CMakeCache.txt" && python_reader=false
    mpi 2 "$stackgen" --width 4 --height 20 --output "$work/good.h5" --quiet || exit 1
    offset=$("$python" -c "import h5py, sys; print(h5py.File(sys.argv[1], 'r')['values'].id.get_offset())" "$work/good.h5")
    size=$(stat -c %s "$work/good.h5")
    head -c $((size / 2)) "$work/good.h5" > "$work/truncated.h5"
    cp "$work/good.h5" "$work/flipped.h5"
    "$python" -c "import sys; f = open(sys.argv[1], 'r+b'); f.seek(int(sys.argv[2]) + 8 * 12345 + 3); b = f.read(1); f.seek(-1, 1); f.write(bytes([b[0] ^ 0x10])); f.close()" "$work/flipped.h5" "$offset"
    echo "not a table" > "$work/text.h5"
    craft "$work/good.h5" missing "del f.attrs['height']"
    craft "$work/good.h5" wrong_type "del f.attrs['rounds_done']; f.attrs['rounds_done'] = 'all'"
    craft "$work/good.h5" dimensions "f.attrs['width'] = np.int64(5); f.attrs['states'] = np.uint64(21**5)"
    craft "$work/good.h5" newer "f.attrs['format_version'] = np.int64(5)"
    craft "$work/good.h5" unfinished "f.attrs['rounds_done'] = np.int64(20)"
    for case in "truncated:damaged|truncated|past its end|cannot be opened|not an HDF5" \
                "flipped:do not match their checksum" "text:not an HDF5 file|cannot be opened" \
                "missing:attribute 'height' is missing" "wrong_type:rounds_done' is not an integer|not an integer" \
                "dimensions:stored_states attribute \([0-9]+\) is fewer than its width, height and residue classes give" "newer:format version 5" \
                "unfinished:unfinished: 20 of 61 rounds"; do
        name=${case%%:*} pattern=${case#*:}
        expect_error 2 "$pattern" "$stackplay" --table "$work/$name.h5" --runs 100
        expect_error 2 "$pattern" mpi 2 "$stackverify" "$work/$name.h5"
        "$python_reader" && expect_error 2 "$pattern" "$python" "$reader" "$work/$name.h5" --check 0 1 12345
    done
    # A table damaged so that libhdf5 itself never returns (found by
    # tests/fuzz/fuzz_table; data/damaged/README.md): the metadata child's time
    # limit refuses it, in C++ and in the Python reader alike.
    hang="$(cd "$(dirname "$0")" && pwd)/data/damaged/libhdf5-hangs.h5"
    export STACK_METADATA_SECONDS=2
    expect_error 2 "did not finish in 2 s" timeout 60 "$stackplay" --table "$hang" --runs 100
    expect_error 2 "did not finish in 2 s" timeout 60 "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" 2 "${preflags[@]}" \
        -x STACK_METADATA_SECONDS "$stackverify" "$hang"
    "$python_reader" && expect_error 2 "'FILE' is damaged: reading its HDF5 metadata did not finish in 2 s" timeout 60 \
        "$python" "$reader" "$hang" 0
    # Every damaged table the fuzzer found (data/damaged/fuzz): libhdf5
    # hangs, reads freed memory, corrupts its heap or asks for gigabytes on
    # them. The MANIFEST lists each with its SHA-256 and the refusal it must
    # get (a regular expression, FILE for its path): the set must be there
    # in full, and stackplay refuses each with exit 2 and its own line.
    fuzz="$(dirname "$hang")/fuzz"
    manifest="$fuzz/MANIFEST"
    listed=0
    [ -f "$manifest" ] && listed=$(grep -v '^#' "$manifest" | grep -c .)
    present=$(find "$fuzz" -maxdepth 1 -name '*.h5' 2> /dev/null | wc -l)
    echo "fuzz-found tables: $listed in the manifest, $present present"
    [ "$listed" -ge 20 ] && pass || fail "the manifest $manifest lists $listed tables (missing or cut short)"
    [ "$present" -eq "$listed" ] && pass || fail "$present fuzz-found tables present, the manifest lists $listed"
    while IFS=$'\t' read -r sha name expected failure; do
        case "$sha" in '#'*|'') continue ;; esac
        table="$fuzz/$name"
        [ "$(sha256sum "$table" 2> /dev/null | cut -d' ' -f1)" = "$sha" ] && pass \
            || { fail "$name is missing or is not the file the manifest lists"; continue; }
        # Only a table whose refusal is the time limit gets the 2 s one: a read
        # that finishes (a 4 GiB allocation under AddressSanitizer, on a busy
        # machine) gets the default 20 s, so its refusal cannot turn into
        # the time limit's by chance.
        limit=20
        case "$expected" in *"did not finish in 2 s"*) limit=2 ;; esac
        STACK_METADATA_SECONDS=$limit expect_error 2 "$expected" timeout 60 "$stackplay" --table "$table" --runs 10
        # The Python reader (its own metadata child): one line naming the file.
        "$python_reader" || continue
        STACK_METADATA_SECONDS=$limit expect_error 2 "^stack_table: error: .*'?FILE'?" timeout 60 "$python" "$reader" \
            "$table" 0
    done < "$manifest"
    unset STACK_METADATA_SECONDS
    finish
    ;;
faults)
    np=$1
    for phase in compute exchange write; do
        rm -f "$work"/*.h5*
        start=$(date +%s.%N)
        STACK_FAULT="rank=1,round=9,phase=$phase" timeout 60 "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" \
            -x STACK_FAULT "$stackgen" --width 6 --height 10 --output "$work/t.h5" --quiet > "$work/out" 2> "$work/err"
        code=$?
        seconds=$("$python" -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$(date +%s.%N)")
        ours=$(grep -c "^stackgen: error" "$work/err")
        echo "np $np, $phase: exit $code after $seconds s; $(grep '^stackgen: error' "$work/err")"
        [ "$code" -ne 0 ] && [ "$code" -ne 124 ] && pass || fail "np $np $phase: exit $code (124: hung)"
        [ "$ours" -eq 1 ] && grep -q "rank 1 failed in the $phase phase of round 9" "$work/err" && pass \
            || { fail "np $np $phase: not one line naming rank 1 and the $phase phase"; cat "$work/err"; }
        [ ! -e "$work/t.h5" ] && pass || fail "np $np $phase: a file under the final name"
        "$python" -c "import sys; sys.exit(0 if float(sys.argv[1]) < 30 else 1)" "$seconds" && pass || fail "np $np $phase: took $seconds s"
    done
    finish
    ;;
checkpoints)
    # Progress records every few rounds at np NP, timed so that the ranks'
    # clocks straddle the record's due time: every rank must take rank 0's
    # decision (a rank that asked its own clock hung the job, found in CI at
    # np 64). The tables equal an np 1 run byte for byte.
    np=$1
    mpi 1 "$stackgen" --width 6 --height 12 --output "$work/whole.h5" --quiet || exit 1
    for seconds in 0 0.01 0.03 0.1; do
        rm -f "$work"/t.h5*
        timeout 60 "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$stackgen" --width 6 --height 12 \
            --output "$work/t.h5" --quiet --checkpoint-seconds "$seconds" --threads "$threads"
        code=$?
        [ "$code" -eq 0 ] && pass || { fail "np $np, --checkpoint-seconds $seconds: exit $code (124: hung)"; continue; }
        cmp -s "$work/whole.h5" "$work/t.h5" && pass || fail "np $np, --checkpoint-seconds $seconds: differs from np 1"
        echo "np $np, --checkpoint-seconds $seconds: finished, byte-identical to np 1"
    done
    finish
    ;;
resume)
    width=$1 height=$2; shift 2
    mpi 2 "$stackgen" --width "$width" --height "$height" --output "$work/whole.h5" --quiet || exit 1
    for kill_at in "$@"; do
        round=${kill_at%@*} rank_counts="1 2 3"
        [ "$round" = "$kill_at" ] || rank_counts=${kill_at#*@}
        for np in $rank_counts; do
            rm -f "$work/t.h5" "$work/t.h5.partial"
            # rank 1 of a 2-rank run dies (SIGKILL) at the start of a round
            victim=1
            STACK_FAULT="rank=$victim,round=$round,phase=compute,action=kill" timeout 120 "$MPIEXEC" \
                "$MPIEXEC_NUMPROC_FLAG" 2 "${preflags[@]}" -x STACK_FAULT "$stackgen" --width "$width" --height "$height" \
                --output "$work/t.h5" --quiet --checkpoint-seconds 0 --threads "$threads" > /dev/null 2>&1
            [ -e "$work/t.h5.partial" ] && [ ! -e "$work/t.h5" ] && pass || { fail "round $round: no partial table after the kill"; continue; }
            done_rounds=$("$python" -c "import h5py, sys; print(int(h5py.File(sys.argv[1], 'r').attrs['rounds_done']))" "$work/t.h5.partial")
            # The killed run's lock file is left behind with its pid; where
            # Open MPI let rank 0 remove it, one is planted with a pid above
            # Linux's largest (4194304). The resume takes it over and says so.
            [ -s "$work/t.h5.lock" ] || echo 4194305 > "$work/t.h5.lock"
            stale_pid=$(tr -d '\n' < "$work/t.h5.lock")
            mpi "$np" "$stackgen" --width "$width" --height "$height" --output "$work/t.h5" --resume --checkpoint-seconds 0 \
                --threads "$threads" --json > "$work/resumed.json" 2> "$work/resumed.err" \
                || { fail "round $round: resume at np $np failed"; cat "$work/resumed.err"; continue; }
            grep -q "^stackgen: taking over the stale lock '$work/t.h5.lock' of pid $stale_pid: " "$work/resumed.err" && pass \
                || { fail "round $round: the resume at np $np did not say it took over the stale lock (pid $stale_pid):"
                     cat "$work/resumed.err"; }
            if cmp -s "$work/whole.h5" "$work/t.h5"; then
                pass; echo "${width}x${height}: killed at round $round ($done_rounds recorded), resumed at np $np: byte-identical"
            else
                fail "${width}x${height}: killed at round $round, resumed at np $np: the tables differ"
            fi
        done
    done
    mpi 2 "$stackverify" "$work/t.h5" > /dev/null && pass || fail "the resumed table does not verify"
    finish
    ;;
*) echo "unknown subcommand $command"; exit 2 ;;
esac
