#!/usr/bin/env bash
# The GPU path's command line, checked on a machine without a GPU
# (docs/gpu.md); its slice work itself is checked against the CPU
# kernel by slice_work_tests.
#   gpu.sh portable NP DIR   stackgen --portable-kernel (the GPU's slice work on
#                            the CPU) at NP ranks x 2 threads: the same digest,
#                            connections and table file, byte for byte, as the
#                            CPU kernel at 1 rank, on 6x10 (float64) and 7x8
#                            class 0 (float32 band and table); stackverify passes
#   gpu.sh emulated NP DIR   the GPU path's host side on a CPU stand-in for
#                            the CUDA runtime (stackgen_emulated --gpu) at NP
#                            ranks: the same table files, byte for byte, as
#                            the CPU kernel's (6x10 float64, 7x8 class 0 in a
#                            float32 band), by the block kernel and, where a
#                            block's shared memory is too small, by the
#                            thread-a-slice one; --json's gpu object; a run killed
#                            in the rounds resumed with --gpu gives the same
#                            table; a band larger than the "GPU" refused in
#                            one line, exit 2, no file left; the well game's
#                            sweeps (--clears tetris) on one rank: the CPU's
#                            table by both kernels, only the answer written
#                            unless --sweep-seconds asks, a run stopped by
#                            --max-sweeps resumed from its sweep table, one
#                            stopped by SIGTERM in sweep 1 leaving sweep 0
#                            (held only by the device) and resumed; at
#                            several ranks refused in one line
#   gpu.sh refused           --gpu where there is no GPU (or no CUDA in the
#                            build): one line naming --gpu, exit 2, no file
#                            left; --gpu with --portable-kernel, and
#                            --plan-gpu-memory without --gpu: exit 2
#   gpu.sh plan              --plan --gpu: 9x20 class 0, mirrored (the
#                            default), fits 139G with a float64 band and 80G
#                            with a float32 one, a block's shared memory
#                            within 227 KiB and no scratch; the full table's float32 band
#                            fits 139G and not 80G (exit 2 with the reason),
#                            its parts add up, and a float64 band is twice the
#                            float32 one; 9x12 class 0 --clears tetris fits
#                            139G with both sweeps' tables on the GPU
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
set -euo pipefail
command=$1; shift
python=/usr/bin/python3
stackgen="$BIN/gen/stackgen"; stackverify="$BIN/gen/stackverify"
read -r -a preflags <<< "${MPIEXEC_PREFLAGS:-}"
fail() { echo "FAIL: $*"; exit 1; }

case "$command" in
portable)
    np=$1 dir=$2
    mkdir -p "$dir"
    for well in "6 10 float64 float64" "7 8 float32 float32 0"; do
        read -r width height precision band residue <<< "$well"
        args=(--width "$width" --height "$height" --precision "$precision" --band-precision "$band" --json --force)
        [ -n "${residue:-}" ] && args+=(--residue "$residue")
        cpu="$dir/cpu_${width}x${height}.np$np.h5" portable="$dir/portable_${width}x${height}.np$np.h5"
        rm -f "$cpu" "$portable"
        "$stackgen" "${args[@]}" --output "$cpu" > "$cpu.json"
        "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$stackgen" "${args[@]}" --portable-kernel \
            --threads 2 --output "$portable" > "$portable.json"
        "$python" - "$cpu.json" "$portable.json" <<'PYTHON'
import json, sys
cpu, portable = (json.load(open(path)) for path in sys.argv[1:])
print("%dx%d: cpu %s, portable kernel at np %d x %d threads %s, %d connections"
      % (cpu["width"], cpu["height"], cpu["digest"], portable["ranks"], portable["threads"], portable["digest"],
         portable["connections"]))
assert cpu["kernel"] == "cpu" and portable["kernel"] == "portable", (cpu["kernel"], portable["kernel"])
assert portable["gpu"] is None
assert portable["digest"] == cpu["digest"], (portable["digest"], cpu["digest"])
assert portable["connections_per_piece"] == cpu["connections_per_piece"]
assert portable["empty_board_value"] == cpu["empty_board_value"]
PYTHON
        cmp "$cpu" "$portable" || fail "the tables differ byte for byte"
        "$stackverify" "$portable" > /dev/null || fail "stackverify rejects the portable kernel's table"
    done
    ;;
emulated)
    np=$1 dir=$2
    emulated="$BIN/tests/stackgen_emulated"
    mkdir -p "$dir"
    mpi() { "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" "$np" "${preflags[@]}" "$@"; }
    for well in "6 10 float64 float64" "7 8 float32 float32 0"; do
        read -r width height precision band residue <<< "$well"
        args=(--width "$width" --height "$height" --precision "$precision" --band-precision "$band" --json --force)
        [ -n "${residue:-}" ] && args+=(--residue "$residue")
        cpu="$dir/emu_cpu_${width}x${height}.np$np.h5" gpu="$dir/emu_gpu_${width}x${height}.np$np.h5"
        rm -f "$cpu" "$gpu"
        "$stackgen" "${args[@]}" --output "$cpu" > "$cpu.json"
        mpi "$emulated" "${args[@]}" --gpu --threads 2 --output "$gpu" > "$gpu.json"
        "$python" - "$cpu.json" "$gpu.json" <<'PYTHON'
import json, sys
cpu, gpu = (json.load(open(path)) for path in sys.argv[1:])
g = gpu["gpu"]
print("%dx%d: cpu %s, emulated GPU at np %d %s; kernel bytes %d, values back %d, sent %d, page-locked %s"
      % (cpu["width"], cpu["height"], cpu["digest"], gpu["ranks"], gpu["digest"], g["kernel_bytes"], g["copy_bytes"],
         g["upload_bytes"], g["copies_page_locked"]))
assert gpu["kernel"] == "gpu" and g["device"] == "CPU stand-in for a CUDA device" and g["gpus"] == gpu["ranks"]
assert gpu["digest"] == cpu["digest"] and gpu["connections_per_piece"] == cpu["connections_per_piece"]
size = 4 if gpu["band_precision"] == "float32" else 8
# Every placement read once and every state written once, at the band's precision.
assert g["kernel_bytes"] == (gpu["connections"] + gpu["stored_states"]) * size, g["kernel_bytes"]
assert g["copy_bytes"] == gpu["stored_states"] * size, g["copy_bytes"]
assert g["upload_bytes"] > 0 and g["copies_page_locked"] and 0 < g["allocated_bytes_max"]
# A block a slice, 2 blocks on each of the stand-in's 2 multiprocessors.
assert g["kernel_shape"] == "block" and g["threads_per_block"] == 128 and g["blocks"] == 4, g
assert 0 < g["shared_bytes_per_block"] <= 232448, g["shared_bytes_per_block"]
PYTHON
        cmp "$cpu" "$gpu" || fail "the emulated GPU's table differs from the CPU kernel's"
        # A block's shared memory too small for the block kernel: one
        # thread a slice, the same table.
        thread="$dir/emu_thread_${width}x${height}.np$np.h5"
        rm -f "$thread"
        STACK_EMULATED_GPU_SHARED=4096 mpi -x STACK_EMULATED_GPU_SHARED "$emulated" "${args[@]}" --gpu --threads 2 \
            --output "$thread" > "$thread.json"
        "$python" -c 'import json, sys; g = json.load(open(sys.argv[1]))["gpu"]
assert g["kernel_shape"] == "thread" and g["shared_bytes_per_block"] == 0, g' "$thread.json"
        cmp "$cpu" "$thread" || fail "the emulated GPU's thread-a-slice table differs from the CPU kernel's"
    done
    # --no-output: the digest on one rank's "GPU" (several rounds of
    # several digest pieces: 7x8's full rounds hold up to 293,949 values,
    # 3 pieces of 131,072 float64, and 8x6's up to 424,837, 2 pieces of
    # 262,144 float32), only the empty board's round back. (7x10 full and
    # 7x11 mirrored float32 did the same with 4 and 3 times the states:
    # about 70 s of each run under the sanitizers.)
    for well in "7 8 --mirror off" "8 6 --mirror off --band-precision float32 --precision float32" "6 10 --residue 0"; do
        read -r width height extra <<< "$well"
        # shellcheck disable=SC2086
        "$stackgen" --width "$width" --height "$height" $extra --no-output --json --quiet > "$dir/digest_cpu.json"
        # shellcheck disable=SC2086
        mpi "$emulated" --width "$width" --height "$height" $extra --gpu --no-output --json --quiet --threads 2 \
            > "$dir/digest_gpu.json"
        "$python" - "$dir/digest_cpu.json" "$dir/digest_gpu.json" "$np" <<'PYTHON'
import json, sys
cpu, gpu = (json.load(open(path)) for path in sys.argv[1:3])
assert gpu["digest"] == cpu["digest"], (gpu["digest"], cpu["digest"])
assert gpu["empty_board_value"] == cpu["empty_board_value"]
copied = gpu["gpu"]["copy_bytes"]
if sys.argv[3] == "1":  # the device's digest: the row sum 0 round only (at most H + 1 values) came back
    assert copied <= (gpu["height"] + 1) * 8, copied
else:  # several ranks: every round comes back for the exchange and the writer
    assert copied == gpu["stored_states"] * (4 if gpu["band_precision"] == "float32" else 8), copied
print("--no-output %dx%d at np %s: digest %s on the device, %d bytes back" % (gpu["width"], gpu["height"],
      sys.argv[3], gpu["digest"], copied))
PYTHON
    done
    # Killed in the rounds, resumed on the "GPU": the same table.
    killed="$dir/emu_killed.np$np.h5"
    rm -f "$killed" "$killed.partial" "$killed.lock"
    set +e
    STACK_FAULT="rank=0,round=30,phase=compute,action=kill" mpi -x STACK_FAULT "$emulated" --width 6 --height 10         --gpu --output "$killed" --quiet --checkpoint-seconds 0 > /dev/null 2>&1
    set -e
    [ -e "$killed.partial" ] || fail "no partial after the kill"
    rm -f "$killed.lock"
    mpi "$emulated" --width 6 --height 10 --gpu --output "$killed" --quiet --resume
    cmp "$dir/emu_cpu_6x10.np$np.h5" "$killed" || fail "the resumed table differs"
    echo "killed at round 30 and resumed with --gpu at np $np: the same table"
    # A band the "GPU" cannot hold: one line, exit 2, nothing left.
    set +e
    STACK_EMULATED_GPU_MEMORY=1000000 "$emulated" --width 6 --height 10 --gpu --output "$dir/small.h5"         > /dev/null 2> "$dir/small.err"
    status=$?
    set -e
    cat "$dir/small.err"
    [ "$status" = 2 ] || fail "a band larger than the GPU: exit $status, not 2"
    [ "$(wc -l < "$dir/small.err")" = 1 ] && grep -q "GPU memory" "$dir/small.err" || fail "not one line about GPU memory"
    [ ! -e "$dir/small.h5" ] && [ ! -e "$dir/small.h5.partial" ] && [ ! -e "$dir/small.h5.lock" ] || fail "files left"
    # The well game's sweeps on the "GPU" (one rank): the last sweep kept
    # and the change measured on the device, the tetrises read there.
    well_game=(--width 6 --height 8 --clears tetris)
    sweeps=("${well_game[@]}" --quiet)
    if [ "$np" = 1 ]; then
        # Class 0 last: its CPU table, left in $cpu, is the one the runs
        # below are compared with. The CPU's sweeps are plain, as a GPU's
        # are (--extrapolate off).
        for well in "--mirror off --residue 3" "--residue 0"; do
            read -r -a extra <<< "$well"
            cpu="$dir/clears_cpu.h5" gpu="$dir/clears_gpu.h5"
            rm -f "$cpu" "$gpu"*
            "$stackgen" "${sweeps[@]}" "${extra[@]}" --extrapolate off --output "$cpu" --threads 2
            # Without --quiet: only the answer is written by default
            # (stderr's ", written" once among its sweeps).
            "$emulated" "${well_game[@]}" "${extra[@]}" --gpu --output "$gpu" 2> "$dir/sweeps.err"
            cmp "$cpu" "$gpu" || fail "the emulated GPU's sweeps ($well) differ from the CPU kernel's"
            all=$(grep -c "^stackgen: sweep " "$dir/sweeps.err"); once=$(grep -c ", written" "$dir/sweeps.err")
            [ "$all" -gt 1 ] && [ "$once" = 1 ] || fail "the default ($well) wrote $once of $all sweeps, not the last alone"
            rm -f "$gpu"
            STACK_EMULATED_GPU_SHARED=4096 "$emulated" "${sweeps[@]}" "${extra[@]}" --gpu --output "$gpu"
            cmp "$cpu" "$gpu" || fail "the emulated GPU's thread-a-slice sweeps ($well) differ from the CPU kernel's"
            echo "--clears tetris $well: the emulated GPU's sweeps (block and thread kernels) give the CPU's table"
        done
        # Every sweep written with --sweep-seconds 0, the same table.
        rm -f "$gpu"
        "$emulated" "${well_game[@]}" --residue 0 --gpu --sweep-seconds 0 --output "$gpu" 2> "$dir/sweeps.err"
        every=$(grep -c ", written" "$dir/sweeps.err")
        [ "$every" = "$all" ] || fail "--sweep-seconds 0 wrote $every of $all sweeps"
        cmp "$cpu" "$gpu" || fail "--sweep-seconds 0 gives another table"
        echo "sweeps written: $once of $all by default, $every with --sweep-seconds 0"
        # Stopped by --max-sweeps (its last sweep written), resumed on the
        # "GPU" from the sweep table: the same table.
        rm -f "$gpu" "$gpu".*
        set +e
        "$emulated" "${sweeps[@]}" --residue 0 --gpu --max-sweeps 3 --output "$gpu" 2> "$dir/stopped.err"
        status=$?
        set -e
        [ "$status" != 0 ] && [ -e "$gpu.sweep" ] && [ ! -e "$gpu" ] || fail "--max-sweeps 3: exit $status, no sweep left"
        "$emulated" "${sweeps[@]}" --residue 0 --gpu --resume --output "$gpu"
        cmp "$cpu" "$gpu" || fail "the sweeps resumed on the GPU differ"
        [ ! -e "$gpu.sweep" ] || fail "the sweep table is left after the answer"
        echo "stopped after sweep 3, resumed on the emulated GPU: the same table"
        # SIGTERM in sweep 1 (STACK_FAULT pauses round 10 of every sweep):
        # sweep 0, which only the device held, is written before the exit
        # (130), and --resume goes on from it to the same table.
        rm -f "$gpu" "$gpu".*
        stopped_in_sweep() {  # waits until the run is paused (state T)
            for _ in $(seq 600); do
                [ "$(awk '{print $3}' "/proc/$1/stat" 2> /dev/null)" = T ] && return 0
                sleep 0.1
            done
            return 1
        }
        STACK_FAULT="rank=0,round=10,phase=compute,action=pause" "$emulated" "${sweeps[@]}" --residue 0 --gpu \
            --output "$gpu" 2> "$dir/term.err" &
        run=$!
        stopped_in_sweep "$run" || fail "the run never paused in sweep 0"
        kill -CONT "$run"
        stopped_in_sweep "$run" || fail "the run never paused in sweep 1"
        kill -TERM "$run"; kill -CONT "$run"
        set +e
        wait "$run"; status=$?
        set -e
        last=$(tail -n 1 "$dir/term.err")
        [ "$status" = 130 ] && [ "$last" = "stackgen: interrupted in sweep 1; sweep 0 is in $gpu.sweep: stackgen --resume goes on from it" ] \
            || fail "SIGTERM in sweep 1: exit $status, last line: $last"
        [ -e "$gpu.sweep" ] && [ ! -e "$gpu" ] && [ ! -e "$gpu.lock" ] || fail "after SIGTERM: $(ls "$dir")"
        "$emulated" "${sweeps[@]}" --residue 0 --gpu --resume --output "$gpu"
        cmp "$cpu" "$gpu" || fail "the sweeps resumed after SIGTERM differ"
        echo "SIGTERM in sweep 1 on the emulated GPU: sweep 0 written from the device, resumed to the same table"
    else
        set +e
        mpi "$emulated" "${sweeps[@]}" --gpu --output "$dir/clears_np.h5" > /dev/null 2> "$dir/clears.err"
        status=$?
        set -e
        [ "$status" = 2 ] && grep -q "one rank" "$dir/clears.err" || fail "GPU sweeps at np $np: exit $status"
        [ ! -e "$dir/clears_np.h5" ] && [ ! -e "$dir/clears_np.h5.partial" ] || fail "files left"
        echo "refused at np $np: $(sort -u "$dir/clears.err" | head -1)"
    fi
    ;;
refused)
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
        echo "SKIP: this machine has a GPU; the refusal without one is not testable here"
        exit 77
    fi
    set +e
    "$stackgen" --width 5 --height 8 --gpu --output "$dir/t.h5" > "$dir/out" 2> "$dir/err"
    status=$?
    set -e
    cat "$dir/err"
    [ "$status" = 2 ] || fail "--gpu without a GPU exits $status, not 2"
    [ "$(wc -l < "$dir/err")" = 1 ] || fail "--gpu without a GPU: not one line"
    # A build with the GPU path, on a machine with no driver at all: said plainly.
    if grep -q "no CUDA device here" "$dir/err" && ! ldconfig -p | grep -q "libcuda.so.1"; then
        grep -q "no NVIDIA driver is installed" "$dir/err" || fail "no driver here, and the line does not say so"
    fi
    grep -q -- "--gpu" "$dir/err" || fail "the line does not name --gpu"
    [ -z "$(ls "$dir" | grep -v -e '^out$' -e '^err$')" ] || fail "files left: $(ls "$dir")"
    for refused in "--gpu --portable-kernel --no-output" "--plan --plan-gpu-memory 80G --no-output"; do
        set +e
        # shellcheck disable=SC2086
        "$stackgen" --width 5 --height 8 $refused > /dev/null 2> "$dir/err"
        status=$?
        set -e
        [ "$status" = 2 ] || fail "'$refused' exits $status, not 2"
        echo "refused: $refused: $(cat "$dir/err")"
    done
    ;;
plan)
    base=(--plan --gpu --width 9 --height 20 --residue 0 --no-output --json --plan-memory 128G)
    # The default, mirrored table (canonical boards): a float64 band on an
    # H200's 139G, a float32 one on an H100's 80G.
    "$stackgen" "${base[@]}" --band-precision float64 --plan-gpu-memory 139G > /tmp/gpu-plan-m64.$$.json
    "$stackgen" "${base[@]}" --band-precision float32 --plan-gpu-memory 80G > /tmp/gpu-plan-m32.$$.json
    # The full table (--mirror off): a float32 band fits 139G and not 80G.
    "$stackgen" "${base[@]}" --mirror off --band-precision float32 --plan-gpu-memory 139G > /tmp/gpu-plan-32.$$.json
    "$stackgen" "${base[@]}" --mirror off --band-precision float64 > /tmp/gpu-plan-64.$$.json
    set +e
    "$stackgen" "${base[@]}" --mirror off --band-precision float32 --plan-gpu-memory 80G > /dev/null 2> /tmp/gpu-plan-err.$$
    status=$?
    set -e
    cat /tmp/gpu-plan-err.$$
    [ "$status" = 2 ] || fail "a band larger than the GPU: exit $status, not 2"
    grep -q "GPU needs" /tmp/gpu-plan-err.$$ || fail "the reason does not say the GPU is too small"
    "$python" - /tmp/gpu-plan-32.$$.json /tmp/gpu-plan-64.$$.json /tmp/gpu-plan-m64.$$.json /tmp/gpu-plan-m32.$$.json <<'PYTHON'
import json, sys
single, double, mirrored64, mirrored32 = (json.load(open(path)) for path in sys.argv[1:])
gpu = single["gpu"]
parts = gpu["bytes"]
print("9x20 class 0, full, float32 band: GPU %.1f GB (band %.1f GB), kernel traffic %.2f TB, %.1f GB back to the host"
      % (parts["total"] / 1e9, parts["band"] / 1e9, gpu["kernel_bytes"] / 1e12, gpu["copy_bytes"] / 1e9))
for name, plan in (("float64", mirrored64), ("float32", mirrored32)):
    print("9x20 class 0, mirrored, %s band: GPU %.1f GB (band %.1f GB) of %.0f GiB, %d stored states"
          % (name, plan["gpu"]["bytes"]["total"] / 1e9, plan["gpu"]["bytes"]["band"] / 1e9,
             plan["gpu"]["memory_bytes"] / 2**30, plan["stored_states"]))
assert single["fits"] and gpu["memory_bytes"] == 139 << 30
assert parts["sweeps"] == 0 and gpu["sweep_bytes"] == 0, parts
assert abs(parts["band"] + parts["ghosts"] + parts["chunks"] + parts["scratch"] - parts["total"]) < 1
# A block a slice fits an H100's or H200's 227 KiB of shared memory: no scratch planned.
for plan in (single, double, mirrored64, mirrored32):
    assert 0 < plan["gpu"]["block_shared_bytes"] <= 232448 and plan["gpu"]["bytes"]["scratch"] == 0, plan["gpu"]
assert 80 << 30 < parts["total"] < 139 << 30, parts["total"]
# One rank without a file: the digest is the device's, only the row sum 0 round comes back.
assert gpu["copy_bytes"] <= 4 * 21, gpu["copy_bytes"]
slices = double["gpu"]["bytes"]["band"] - 2 * parts["band"]  # the slice starts, the same in both
assert slices < 0 and abs(slices) < 0.05 * parts["band"], slices
# The host keeps two of the band's five rounds.
assert single["rank_bytes"]["band"] < 0.45 * parts["band"], (single["rank_bytes"]["band"], parts["band"])
# Mirrored: about half the boards, so a float64 band fits 139G and a float32 one 80G.
assert mirrored64["fits"] and mirrored64["gpu"]["bytes"]["total"] < 139 << 30, mirrored64["gpu"]["bytes"]
assert mirrored32["fits"] and mirrored32["gpu"]["bytes"]["total"] < 80 << 30, mirrored32["gpu"]["bytes"]
ratio = mirrored32["stored_states"] / single["stored_states"]
assert 0.5 < ratio < 0.53, ratio
assert 0.5 < mirrored32["gpu"]["bytes"]["band"] / parts["band"] < 0.56, (mirrored32["gpu"]["bytes"]["band"], parts["band"])
PYTHON
    # The well game on one GPU: 9x12 class 0 with both sweeps' float64
    # tables on the device.
    "$stackgen" --plan --gpu --width 9 --height 12 --residue 0 --clears tetris --json --plan-memory 128G \
        --plan-gpu-memory 139G > /tmp/gpu-plan-clears.$$.json
    "$python" - /tmp/gpu-plan-clears.$$.json <<'PYTHON'
import json, sys
plan = json.load(open(sys.argv[1]))
gpu, parts = plan["gpu"], plan["gpu"]["bytes"]
print("9x12 class 0 --clears tetris: GPU %.1f GB (two sweeps' tables %.1f GB), %d stored states, %.1f GB a sweep"
      % (parts["total"] / 1e9, parts["sweeps"] / 1e9, plan["stored_states"], (gpu["kernel_bytes"] + gpu["sweep_bytes"]) / 1e9))
assert plan["fits"], plan["reason"]
assert parts["sweeps"] >= 2 * 8 * plan["stored_states"], parts
assert abs(sum(parts[k] for k in ("band", "ghosts", "chunks", "scratch", "sweeps")) - parts["total"]) < 1
assert gpu["sweep_bytes"] == 4 * 8 * plan["stored_states"] and gpu["copy_bytes"] <= 8 * 13, gpu
assert plan["rank_bytes"]["targets"] == 0, plan["rank_bytes"]  # the last sweep is on the GPU
PYTHON
    rm -f /tmp/gpu-plan-*.$$.json /tmp/gpu-plan-err.$$
    ;;
*)
    echo "gpu.sh: unknown command '$command'" >&2
    exit 2
    ;;
esac
