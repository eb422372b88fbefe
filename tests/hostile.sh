#!/usr/bin/env bash
# What a hostile user tried (issue 16), one subcommand each; every case
# failed before the fix (results/reliability.md).
#   hostile.sh writers          two runs on one --output: the second is refused naming the first's pid
#   hostile.sh output           an output that is not a regular file, "", a missing or read-only directory
#   hostile.sh partial          a plain run refuses an existing partial; --force discards it
#   hostile.sh resume           --resume checks the partial: edited counters, a damaged round, a finished one
#   hostile.sh reader           a reader holding the partial open does not stop the writer
#   hostile.sh sizes            wells the box cannot hold are refused at once, with what they need
#   hostile.sh claims           tables claiming more than they hold: stackplay, stackverify, the Python reader
#   hostile.sh memory TABLE     a chunked copy of TABLE stays within stackplay's --memory-limit
#   hostile.sh messages         file messages name the path and the OS reason; strict --start
#   hostile.sh progress         progress lines under mpirun by default; --quiet, --progress
#   hostile.sh full             output to a full device (/dev/full): every tool exits 3 with one line
#                               saying so (issue 28; under mpirun, mpirun forwards the ranks' output and
#                               ignores its own write failures, so stackgen and stackverify run as singletons)
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
source "$(dirname "$0")/lib.sh"
command=$1; shift

# A 6x12 table the runs below must reproduce byte for byte.
reference() { mpi 1 "$stackgen" --width 6 --height 12 --output "$work/reference.h5" --quiet || exit 1; }

# paused_run OUTPUT ROUND [ARGS]: stackgen 6x12 at np 2 in the background,
# rank 0 stopping itself (SIGSTOP) at the start of ROUND; sets run_pid (the
# launcher) and stopped (rank 0's pid), or fails.
paused_run() {
    local output=$1 round=$2; shift 2
    STACK_FAULT="rank=0,round=$round,phase=compute,action=pause" "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" 2 \
        "${preflags[@]}" -x STACK_FAULT "$stackgen" --width 6 --height 12 --output "$output" --quiet \
        --checkpoint-seconds 0 "$@" > "$work/paused.out" 2> "$work/paused.err" &
    run_pid=$! stopped=""
    for _ in $(seq 600); do
        for pid in $(pgrep -f "^$stackgen .*--output $output" || true); do
            [ "$(awk '{print $3}' "/proc/$pid/stat" 2> /dev/null)" = T ] && stopped=$pid
        done
        [ -n "$stopped" ] && return 0
        kill -0 "$run_pid" 2> /dev/null || break
        sleep 0.1
    done
    fail "the run never paused at round $round:"; cat "$work/paused.err"
    return 1
}

# resume_run OUTPUT: lets the paused run go on; it must finish, exit 0.
resume_run() {
    kill -CONT "$stopped"
    wait "$run_pid" && pass || { fail "the paused run failed after SIGCONT:"; cat "$work/paused.err"; }
}

case "$command" in
interrupt)
    # SIGTERM (or Ctrl-C) during the rounds: the ranks agree on it after the
    # round, record what is on disk, release the lock, say how to go on in
    # one line, and exit 130 (mpirun: non-zero); --resume then gives the
    # uninterrupted table. The signal reaches rank 0 while it is paused at
    # round 20 and takes effect as it goes on.
    reference
    paused_run "$work/t.h5" 20 || exit 1
    kill -TERM "$stopped"
    kill -CONT "$stopped"
    wait "$run_pid"; code=$?
    last=$(tail -n 1 "$work/paused.err")
    [ "$code" -ne 0 ] && printf '%s\n' "$last" | grep -Eq "^stackgen: interrupted after round 21 of 61; 21 rounds are on disk in .*t\.h5\.partial: stackgen --resume continues$" \
        && pass || fail "SIGTERM at np 2: exit $code, last line: $last"
    [ -f "$work/t.h5.partial" ] && [ ! -e "$work/t.h5.lock" ] && [ ! -e "$work/t.h5" ] && pass \
        || fail "after SIGTERM: $(ls "$work")"
    mpi 2 "$stackgen" --width 6 --height 12 --output "$work/t.h5" --quiet --resume && cmp -s "$work/t.h5" "$work/reference.h5" \
        && pass || fail "--resume after SIGTERM did not give the uninterrupted table"
    # One process alone: exit 130, and with --no-output nothing is kept.
    STACK_FAULT="rank=0,round=20,phase=compute,action=pause" "$stackgen" --width 6 --height 12 --no-output \
        > "$work/alone.out" 2> "$work/alone.err" &
    alone=$!
    for _ in $(seq 600); do
        [ "$(awk '{print $3}' "/proc/$alone/stat" 2> /dev/null)" = T ] && break
        sleep 0.1
    done
    kill -TERM "$alone"; kill -CONT "$alone"
    wait "$alone"; code=$?
    last=$(tail -n 1 "$work/alone.err")
    [ "$code" -eq 130 ] && [ "$last" = "stackgen: interrupted after round 21 of 61; nothing was kept (--no-output)" ] \
        && pass || fail "SIGTERM alone: exit $code, last line: $last"
    finish
    ;;
writers)
    reference
    paused_run "$work/t.h5" 20 || exit 1
    holder=$(cat "$work/t.h5.lock" 2> /dev/null)
    [ "$holder" = "$stopped" ] && pass || fail "the lock file names pid '$holder', not the writer $stopped"
    expect_error 2 "another stackgen \(pid $stopped\) is writing 'FILE' \(it holds FILE\.lock\)" \
        mpi 1 "$stackgen" --width 6 --height 12 --output "$work/t.h5" --quiet
    expect_error 2 "another stackgen \(pid $stopped\)" \
        mpi 1 "$stackgen" --width 6 --height 12 --output "$work/t.h5" --quiet --force
    expect_error 2 "another stackgen \(pid $stopped\)" \
        mpi 1 "$stackgen" --width 6 --height 12 --output "$work/t.h5" --quiet --resume
    resume_run
    cmp -s "$work/reference.h5" "$work/t.h5" && pass || fail "the first run's table differs from the reference"
    [ ! -e "$work/t.h5.lock" ] && pass || fail "the lock file was left behind"
    finish
    ;;
output)
    gen() { mpi 2 "$stackgen" --width 4 --height 8 --quiet "$@"; }
    # A character device of the test's own, the twin of /dev/null (1, 3):
    # the code before the fix replaced /dev/null itself.
    mknod -m 666 "$work/device.h5" c 1 3 || fail "cannot make a character device (mknod needs root)"
    expect_error 2 "the output 'FILE' exists and is a character device: stackgen replaces only regular files" \
        gen --output "$work/device.h5"
    [ -c "$work/device.h5" ] && pass || fail "the character device was replaced"
    mkfifo "$work/fifo.h5"
    expect_error 2 "the output 'FILE' exists and is a FIFO" gen --output "$work/fifo.h5"
    [ -p "$work/fifo.h5" ] && pass || fail "the FIFO was replaced"
    "$python" -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$work/socket.h5"
    expect_error 2 "the output 'FILE' exists and is a socket" gen --output "$work/socket.h5"
    [ -S "$work/socket.h5" ] && pass || fail "the socket was replaced"
    mkdir "$work/directory.h5"
    expect_error 2 "the output 'FILE' exists and is a directory" gen --output "$work/directory.h5"
    mkdir "$work/p.h5.partial"
    expect_error 2 "the partial table 'FILE\.partial' exists and is a directory" gen --output "$work/p.h5"
    expect_error 2 "--output must name a file" gen --output ""
    # Checked before any compute: a failure injected at the first round
    # would otherwise come first.
    export STACK_FAULT="rank=0,round=0,phase=compute"
    expect_error 2 "cannot write the output in '.*/missing': No such file or directory" \
        mpi 2 -x STACK_FAULT "$stackgen" --width 4 --height 8 --quiet --output "$work/missing/t.h5"
    if unshare -m true 2> /dev/null; then
        expect_error 2 "cannot write the output in '/mnt': Read-only file system" unshare -m sh -c \
            "mount -t tmpfs -o ro,size=1m tmpfs /mnt && exec '$stackgen' --width 4 --height 8 --output /mnt/t.h5"
    else
        fail "cannot make a mount namespace for the read-only directory (unshare -m)"
    fi
    unset STACK_FAULT
    finish
    ;;
partial)
    reference
    STACK_FAULT="rank=1,round=10,phase=compute,action=kill" mpi 2 -x STACK_FAULT "$stackgen" --width 6 --height 12 \
        --output "$work/t.h5" --quiet --checkpoint-seconds 0 > /dev/null 2>&1
    [ -e "$work/t.h5.partial" ] && pass || fail "no partial after the kill"
    cp "$work/t.h5.partial" "$work/before"
    expect_error 2 "'FILE\.partial': a resumable partial exists: use --resume, or --force to discard it" \
        mpi 2 "$stackgen" --width 6 --height 12 --output "$work/t.h5" --quiet
    cmp -s "$work/before" "$work/t.h5.partial" && pass || fail "the refused run changed the partial"
    [ ! -e "$work/t.h5" ] && pass || fail "the refused run wrote a table"
    mpi 2 "$stackgen" --width 6 --height 12 --output "$work/t.h5" --quiet --force && pass || fail "--force failed"
    cmp -s "$work/reference.h5" "$work/t.h5" && pass || fail "--force: the table differs from the reference"
    finish
    ;;
resume)
    reference
    expect_error 2 "nothing to resume: 'FILE\.partial' does not exist" \
        mpi 2 "$stackgen" --width 6 --height 12 --output "$work/none.h5" --resume
    STACK_FAULT="rank=1,round=30,phase=compute,action=kill" mpi 2 -x STACK_FAULT "$stackgen" --width 6 --height 12 \
        --output "$work/killed.h5" --quiet --checkpoint-seconds 0 > /dev/null 2>&1
    partial="$work/killed.h5.partial"
    done_rounds=$("$python" -c "import h5py, sys; print(int(h5py.File(sys.argv[1], 'r').attrs['rounds_done']))" "$partial")
    [ "$done_rounds" -ge 10 ] && pass || fail "only $done_rounds rounds recorded before the kill"
    offset=$("$python" -c "import h5py, sys; print(h5py.File(sys.argv[1], 'r')['values'].id.get_offset())" "$partial")
    # resume_case NAME PATTERN PYTHON: the partial changed by PYTHON is refused with PATTERN, and left as it was
    resume_case() {
        craft "$partial" "$1" "$3"
        mv "$work/$1.h5" "$work/$1.h5.partial"
        cp "$work/$1.h5.partial" "$work/before"
        expect_error 2 "$2" mpi 2 "$stackgen" --width 6 --height 12 --output "$work/$1.h5" --quiet --resume
        [ ! -e "$work/$1.h5" ] && cmp -s "$work/before" "$work/$1.h5.partial" && pass \
            || fail "$1: the refused resume published a table or changed the partial"
    }
    resume_case more_rounds "connections_done attribute \(.*\) is not the count of its $((done_rounds + 5)) rounds" \
        "f.attrs['rounds_done'] = np.int64(f.attrs['rounds_done'] + 5)"
    # More rounds with the counters of a run that got further: the counters
    # agree, but the rounds added are not on disk.
    STACK_FAULT="rank=1,round=45,phase=compute,action=kill" mpi 2 -x STACK_FAULT "$stackgen" --width 6 --height 12 \
        --output "$work/later.h5" --quiet --checkpoint-seconds 0 > /dev/null 2>&1
    resume_case later_counters "values .* \(block [0-9]+\) do not match their checksum: it cannot be resumed" \
        "g = h5py.File('$work/later.h5.partial', 'r'); f.attrs['rounds_done'] = g.attrs['rounds_done']; f.attrs['connections_done'] = g.attrs['connections_done']"
    resume_case too_many_rounds "rounds_done attribute \(1000\) is outside 0\.\.61" "f.attrs['rounds_done'] = np.int64(1000)"
    resume_case negative_rounds "rounds_done attribute \(-1\) is outside 0\.\.61" "f.attrs['rounds_done'] = np.int64(-1)"
    resume_case connections "connections_done attribute \(.*\) is not the count of its $done_rounds rounds" \
        "c = f.attrs['connections_done'].copy(); c[1] += 1; f.attrs['connections_done'] = c"
    resume_case no_connections "attribute 'connections_done' does not hold one count per piece" \
        "f.attrs['connections_done'] = np.array([1, 2], dtype='<i8')"
    # One byte of the last round on disk (the round of the lowest row sum done).
    resume_case flipped "is damaged: values .* do not match their checksum: it cannot be resumed" \
        "v = f['values']; o = int(f['round_offsets'][61 - $done_rounds]); v[o] = v[o] + 1.0"
    # A finished partial (the rename failed) is checked and published.
    cp "$work/reference.h5" "$work/finished.h5.partial"
    mpi 2 "$stackgen" --width 6 --height 12 --output "$work/finished.h5" --quiet --resume \
        && pass || fail "a finished partial was not published"
    mpi 2 "$stackverify" "$work/finished.h5" > /dev/null && pass || fail "the published table does not verify"
    "$BIN/tests/table_diff" "$work/reference.h5" "$work/finished.h5" > /dev/null && pass \
        || fail "the published table's values differ from the reference"
    # The untouched partial still resumes, byte-identical.
    mpi 3 "$stackgen" --width 6 --height 12 --output "$work/killed.h5" --quiet --resume && pass || fail "resume failed"
    cmp -s "$work/reference.h5" "$work/killed.h5" && pass || fail "the resumed table differs from the reference"
    finish
    ;;
reader)
    reference
    paused_run "$work/t.h5" 25 || exit 1
    "$python" -c "import h5py, sys, time; f = h5py.File(sys.argv[1], 'r'); open(sys.argv[2], 'w').close(); time.sleep(120)" \
        "$work/t.h5.partial" "$work/held" &
    holder=$!
    for _ in $(seq 300); do [ -e "$work/held" ] && break; sleep 0.1; done
    [ -e "$work/held" ] && pass || fail "h5py could not open the partial"
    resume_run
    kill "$holder" 2> /dev/null
    cmp -s "$work/reference.h5" "$work/t.h5" && pass || fail "the table differs from the reference"
    finish
    ;;
sizes)
    # refused_fast NP W H: exit 2, one line with the needs, at most 300 MB of memory
    refused_fast() {
        local np=$1 width=$2 height=$3 rss
        rss=$(peak_rss_mb timeout 60 "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$stackgen" \
              --width "$width" --height "$height" --output "$work/big.h5")
        local code=$?
        if [ "$code" -eq 2 ] && [ "$(grep -c '' "$work/err")" -eq 1 ] \
           && grep -Eq "the ${width}x${height} table needs (at least|about) .* of memory per rank .* and .* of disk, but a node has .* of memory available" "$work/err" \
           && [ "$rss" -lt 300 ]; then
            pass; echo "${width}x${height} at np $np: refused, peak RSS $rss MB: $(cat "$work/err")"
        else
            fail "${width}x${height} at np $np: exit $code, peak RSS $rss MB:"; cat "$work/err"
        fi
    }
    refused_fast 2 11 20
    refused_fast 2 12 20
    refused_fast 2 16 14
    refused_fast 2 10 20
    refused_fast 1 9 20
    refused_fast 2 2 999999
    refused_fast 1 3 999999
    finish
    ;;
claims)
    mpi 2 "$stackgen" --width 3 --height 4 --mirror off --output "$work/good.h5" --quiet || exit 1
    # A small table claiming a 2x999999 well: its stored states are far
    # fewer than the shape gives.
    craft "$work/good.h5" tall "f.attrs['width'] = np.int64(2); f.attrs['height'] = np.int64(999999); f.attrs['states'] = np.uint64(10**12)"
    # ... and one whose stored states match such a well: 8 TB in 8 KB.
    craft "$work/good.h5" huge "f.attrs['width'] = np.int64(2); f.attrs['height'] = np.int64(999999); f.attrs['states'] = np.uint64(10**12); f.attrs['stored_states'] = np.uint64(10**12)"
    # A 7x20 version-1 table whose values were never written (an empty
    # chunked dataset): 14 GB claimed in a few kilobytes.
    "$python" -c "
import h5py, numpy as np, sys
src = h5py.File(sys.argv[1], 'r'); f = h5py.File(sys.argv[2], 'w')
for k, v in src.attrs.items():
    if k in ('format_version', 'width', 'height', 'schedule', 'states', 'connections', 'pieces', 'generator'):
        f.attrs[k] = v
f.attrs['format_version'] = np.int64(1); f.attrs['width'] = np.int64(7); f.attrs['height'] = np.int64(20)
f.attrs['states'] = np.uint64(21**7)
f.create_dataset('values', shape=(21**7,), dtype='<f8', chunks=(1 << 16,))
f.close()" "$work/good.h5" "$work/empty_v1.h5"
    for name in tall huge empty_v1; do
        case $name in
        tall) pattern="'FILE': its stored_states attribute \(125\) is fewer than its width, height and residue classes give \(at least 1000000000000\)" ;;
        *) pattern="'FILE' is damaged: it claims [0-9,]+ values \(.*\) but the file holds only [0-9,]+ bytes" ;;
        esac
        expect_error 2 "$pattern" timeout 60 "$stackplay" --table "$work/$name.h5" --runs 10
        rss=$(peak_rss_mb timeout 60 "$stackplay" --table "$work/$name.h5" --runs 10)
        [ "$rss" -lt 300 ] && pass || fail "stackplay $name: peak RSS $rss MB"
        echo "$name: stackplay refused it with peak RSS $rss MB: $(cat "$work/err")"
        expect_error 2 "$pattern" timeout 60 "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" 2 "${preflags[@]}" "$stackverify" "$work/$name.h5"
        expect_error 2 "$pattern" timeout 60 "$python" "$reader" "$work/$name.h5" --check 0
    done
    # The Python reader on a FIFO: refused, not opened.
    mkfifo "$work/fifo.h5"
    expect_error 2 "'FILE' is a FIFO, not a regular file" timeout 20 "$python" "$reader" "$work/fifo.h5" 0
    expect_error 2 "table 'FILE' is a FIFO, not a regular file" timeout 20 "$stackplay" --table "$work/fifo.h5"
    finish
    ;;
memory)
    table=$1
    # The table as chunks of 64 Ki values: not mappable, so read through
    # HDF5 into memory, which must stay within the limit.
    h5repack -l values:CHUNK=65536 "$table" "$work/chunked.h5" || { fail "h5repack"; finish; exit 1; }
    bytes=$("$python" -c "import h5py, sys; print(h5py.File(sys.argv[1], 'r')['values'].size * 8)" "$work/chunked.h5")
    limit_mb=$((bytes / 1048576 + 64))
    rss=$(peak_rss_mb "$stackplay" --table "$work/chunked.h5" --runs 20000 --memory-limit "${limit_mb}M" --json)
    code=$?
    cp "$work/out" "$work/chunked.json"
    echo "chunked table: ${bytes} bytes of values as float64, --memory-limit ${limit_mb}M, peak RSS $rss MB"
    [ "$code" -eq 0 ] && pass || { fail "stackplay on the chunked table: exit $code"; cat "$work/err"; }
    [ "$rss" -le $((limit_mb + 64)) ] && pass || fail "peak RSS $rss MB is above the limit of $limit_mb MB (+64 MB for the process)"
    "$stackplay" --table "$table" --runs 20000 --json > "$work/contiguous.json"
    "$python" -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a['observed'] == b['observed'], 'the chunked table plays other games'
assert a['table']['resident'] and b['table']['resident']" "$work/chunked.json" "$work/contiguous.json" \
        && pass || fail "the chunked table plays differently"
    finish
    ;;
messages)
    mpi 2 "$stackgen" --width 3 --height 4 --output "$work/good.h5" --quiet || exit 1
    expect_error 2 "cannot read table 'FILE': No such file or directory" "$stackplay" --table "$work/nope.h5"
    expect_error 2 "cannot read table 'FILE': No such file or directory" mpi 2 "$stackverify" "$work/nope.h5"
    mkdir "$work/directory.h5"
    expect_error 2 "table 'FILE' is a directory, not a regular file" "$stackplay" --table "$work/directory.h5"
    for start in "+1,0,0" "1,0,0," ",1,0,0" " 1,0,0" "1,,0" "1,0,0x" "0x1,0,0"; do
        expect_error 2 "board '.*' is not a height|has more than|has [0-9]+ columns" "$stackplay" --table "$work/good.h5" \
            --start "$start" --runs 10
    done
    expect_error 2 "--start-id must be a whole number >= 0, not '\+1'" "$stackplay" --table "$work/good.h5" --start-id +1
    finish
    ;;
progress)
    # Under mpirun stderr is never a terminal: progress shows by default,
    # from rank 0 alone, a few lines a second at most.
    mpi 2 "$stackgen" --width 6 --height 12 --output "$work/default.h5" > "$work/out" 2> "$work/err"
    lines=$(grep -c '' "$work/err"); progress=$(grep -c '^round .* done' "$work/err")
    [ "$progress" -ge 1 ] && [ "$progress" -eq "$lines" ] && pass || { fail "default: $progress progress lines of $lines"; cat "$work/err"; }
    grep -q "^round  61/61 " "$work/err" && pass || fail "default: no line for the last round"
    mpi 2 "$stackgen" --width 6 --height 12 --output "$work/always.h5" --progress > "$work/out" 2> "$work/err2"
    always=$(grep -c '^round .* done' "$work/err2")
    [ "$always" -ge "$progress" ] && [ "$always" -gt 3 ] && pass || fail "--progress: $always lines (default $progress)"
    mpi 2 "$stackgen" --width 6 --height 12 --output "$work/quiet.h5" --quiet > "$work/out" 2> "$work/err3"
    [ ! -s "$work/err3" ] && [ ! -s "$work/out" ] && pass || fail "--quiet printed something"
    # --quiet silences progress and the text summary, never what --json asks for.
    mpi 2 "$stackgen" --width 6 --height 12 --no-output --quiet --json > "$work/out" 2> "$work/err4"
    [ ! -s "$work/err4" ] && "$python" -c 'import json, sys; assert json.load(open(sys.argv[1]))["digest"].startswith("crc64:")' "$work/out" \
        && pass || fail "--quiet --json: no JSON summary ($(head -c 100 "$work/out")) or stderr ($(head -c 100 "$work/err4"))"
    # With --no-output the summary is the result: --quiet prints it, as
    # stackplay's --quiet prints its results (one meaning for both).
    mpi 2 "$stackgen" --width 6 --height 12 --no-output --quiet > "$work/out" 2> "$work/err5"
    [ ! -s "$work/err5" ] && grep -q "V(empty board)" "$work/out" && grep -q "digest" "$work/out" && pass \
        || fail "--no-output --quiet: no summary ($(head -c 100 "$work/out"))"
    expect_error 2 "give --quiet or --progress, not both" mpi 2 "$stackgen" --width 6 --height 12 --output "$work/x.h5" --quiet --progress
    echo "progress lines: $progress by default, $always with --progress, 0 with --quiet"
    finish
    ;;
full)
    # to_device_full COMMAND...: stdout to /dev/full; exit 3 and a last
    # stderr line matching (stackgen's progress lines come before it).
    to_device_full() {
        "$@" > /dev/full 2> "$work/err"
        local code=$? last
        last=$(tail -n 1 "$work/err")
        if [ "$code" -eq 3 ] && printf '%s\n' "$last" | grep -Eq "cannot write the output"; then
            pass
        else
            fail "$* > /dev/full -> exit $code, last stderr line: $last"
        fi
    }
    # to_closed_pipe COMMAND...: stdout to a pipe whose reading end is
    # already closed (`... | head -c 0` without the race); the same exit 3
    # and last line, not a silent death by SIGPIPE (exit 141).
    to_closed_pipe() {
        local result code last
        result=$("$python" - "$@" <<'PYTHON'
import os, subprocess, sys
read_end, write_end = os.pipe()
os.close(read_end)
done = subprocess.run(sys.argv[1:], stdout=write_end, stderr=subprocess.PIPE)
lines = done.stderr.decode(errors="replace").strip().splitlines()
print(done.returncode, lines[-1] if lines else "")
PYTHON
)
        code=${result%% *} last=${result#* }
        if [ "$code" = 3 ] && printf '%s\n' "$last" | grep -Eq "cannot write the output: Broken pipe"; then
            pass
        else
            fail "$* | (closed) -> exit $code, last stderr line: $last"
        fi
    }
    to_full() { to_device_full "$@"; to_closed_pipe "$@"; }
    mpi 1 "$stackgen" --width 4 --height 8 --output "$work/t.h5" --quiet || exit 1
    to_device_full "$stackgen" --width 4 --height 8 --output "$work/json.h5" --json
    to_closed_pipe "$stackgen" --width 4 --height 8 --output "$work/json2.h5" --json
    to_full "$stackgen" --width 4 --height 8 --no-output
    to_full "$stackgen" --plan --width 9 --height 20 --residue 0 --plan-memory 1024G --no-output
    to_full "$stackverify" "$work/t.h5"
    to_full "$stackverify" "$work/t.h5" --json
    to_full "$stackplay" --table "$work/t.h5" --runs 1000
    to_full "$stackplay" --table "$work/t.h5" --runs 1000 --json
    to_full "$stackplay" --table "$work/t.h5" --show --seed 3
    to_full "$stackplay" --table "$work/t.h5" --explain --board 1,2,0,3
    to_full "$stackplay" --game tetris --games 2 --max-pieces 1000
    to_full "$stackplay" --game tetris --games 2 --max-pieces 1000 --json
    to_full "$stackplay" --help
    # The same commands to a device that takes everything succeed.
    "$stackplay" --table "$work/t.h5" --runs 1000 > /dev/null && "$stackverify" "$work/t.h5" > /dev/null && pass \
        || fail "a run to /dev/null failed"
    finish
    ;;
*) echo "unknown subcommand $command"; exit 2 ;;
esac
