#!/usr/bin/env bash
# scripts/stackgen.sbatch under a real Slurm: a private one-node cluster,
# the one-host case of tests/cluster_lib.sh (munged, slurmctld, and one
# slurmd on a host that is a network namespace of this machine; every file
# in a scratch directory; /etc/slurm, /etc/munge and systemd unused). Two
# jobs of the same script on 6x10: mpirun, 1 rank x the node's cores (up to
# 2; sbatch given no layout), stackgen found on PATH; srun, 2 ranks x 1
# thread, stackgen found under STACK_PREFIX. Each must end COMPLETED with
# exit 0, report the layout asked for, and write a table bit-identical to
# (and the same file as) plain mpirun's, which stackverify passes. Every
# process the cluster started is stopped on exit, pass or fail; the
# daemons' logs are printed on failure.
# Exits 77 (ctest: skipped) only when the Slurm or munge binaries or ip
# netns are missing, when not run as root, or on a machine of fewer than 2
# cores.
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cluster_lib.sh"
cluster_test_begin
width=6 height=10
mkdir -p "$work/prefix/bin"

# Cores for the jobs: physical ones this process may use, at most 2.
cores=$(lscpu -p=Core,Socket 2> /dev/null | grep -v '^#' | sort -u | wc -l)
[ "$cores" -ge 1 ] || cores=$(nproc)
[ "$cores" -le "$(nproc)" ] || cores=$(nproc)
[ "$cores" -le 2 ] || cores=2
if [ "$cores" -lt 2 ]; then  # a 2-CPU machine of one core and two hardware threads
    echo "slurm: skipped: the jobs want 2 cores, this machine has $cores"; exit 77
fi
cluster_up 1 "$cores" || die "the private cluster did not come up"

# The reference: plain mpirun.
mpi 2 "$stackgen" --width "$width" --height "$height" --output "$work/mpirun.h5" --quiet \
    || die "plain mpirun stackgen failed"

# The same job script twice: PATH and mpirun; STACK_PREFIX and srun.
ln -s "$stackgen" "$work/prefix/bin/stackgen"
cd "$work"
submit() {  # submit NAME [VARIABLE=VALUE...] -- SBATCH OPTIONS...: prints the job id
    local name=$1; shift
    local variables=()
    while [ "$1" != -- ]; do variables+=("$1"); shift; done; shift
    env "$(cluster_marker)" "${variables[@]}" sbatch --parsable --time=5 --job-name="stack-$name" --output="$work/$name.out" \
        "$@" "$job_script" --width "$width" --height "$height" --output "$work/$name.h5"
}
mpirun_job=$(submit mpirun "PATH=$BIN/gen:$PATH" --) || die "sbatch failed"  # the default: the whole node
srun_job=$(submit srun STACK_LAUNCHER=srun "STACK_PREFIX=$work/prefix" -- --ntasks-per-node=2 --cpus-per-task=1) \
    || die "sbatch failed"

state() { cluster_job_state "$@"; }
check() {  # check NAME JOB RANKS THREADS
    local name=$1 job=$2 ranks=$3 threads=$4 i job_state=""
    for i in $(seq 1 240); do
        job_state=$(state "$job" JobState)
        case "$job_state" in PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|"") sleep 0.25 ;; *) break ;; esac
    done
    echo "job $job ($name): $job_state, exit $(state "$job" ExitCode)"
    grep -E '^stackgen.sbatch|^stackgen ' "$work/$name.out"
    if [ "$job_state" != COMPLETED ] || [ "$(state "$job" ExitCode)" != 0:0 ]; then
        fail "job $name ended $job_state, exit code $(state "$job" ExitCode)"; cat "$work/$name.out"; return
    fi
    local plural=s; [ "$ranks" -eq 1 ] && plural=""
    local thread_plural=s; [ "$threads" -eq 1 ] && thread_plural=""
    grep -qx "stackgen [0-9.]*: ${width}x$height well, $ranks rank$plural x $threads thread$thread_plural" "$work/$name.out" \
        && pass || fail "job $name did not run $ranks rank(s) x $threads thread(s)"
    "$table_diff" "$work/mpirun.h5" "$work/$name.h5" && pass || fail "job $name's table differs from plain mpirun's"
    cmp "$work/mpirun.h5" "$work/$name.h5" && pass || fail "job $name's table is not the same file as plain mpirun's"
    mpi 1 "$stackverify" "$work/$name.h5" > /dev/null && pass || fail "job $name's table does not verify"
}
check mpirun "$mpirun_job" 1 "$cores"
check srun "$srun_job" 2 1
finish
