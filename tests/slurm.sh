#!/usr/bin/env bash
# scripts/stackgen.sbatch under a real Slurm: a private one-node cluster
# (munged, slurmctld, slurmd from Debian's slurm-wlm and munge), every
# file of it (config, key, sockets, state, spool, logs, pids) in a scratch
# directory and the daemons on 127.0.0.1 at free ports; /etc/slurm,
# /etc/munge and systemd are not used. Two jobs of the same script on
# 6x10: mpirun, 1 rank x the node's cores (up to 2; sbatch given no
# layout), stackgen found on PATH; srun, 2 ranks x 1 thread, stackgen
# found under STACK_PREFIX. Each must end COMPLETED with exit 0, report the
# layout asked for, and write a table bit-identical to (and the same file
# as) plain mpirun's, which stackverify passes. Every process the cluster started is stopped on exit,
# pass or fail; the daemons' logs are printed on failure.
# Exits 77 (ctest: skipped) only when the Slurm or munge binaries are
# missing, when not run as root, or on a machine of fewer than 2 cores.
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
source "$(dirname "$0")/lib.sh"
export PATH="$PATH:/usr/sbin:/sbin"
for tool in munged mungekey munge slurmctld slurmd slurmstepd sbatch srun squeue scontrol scancel sinfo; do
    command -v "$tool" > /dev/null || { echo "SKIP: $tool is missing (apt-get install slurm-wlm munge)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: the private cluster's daemons run as root (SlurmUser=root)"; exit 77; }
table_diff="$BIN/tests/table_diff"
job_script="$tests_dir/../scripts/stackgen.sbatch"
width=6 height=10

chmod 711 "$work"  # munged wants every directory above its socket searchable
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/log" "$work/prefix/bin"
conf="$work/slurm.conf" socket="$work/munge/munge.socket"
export SLURM_CONF="$conf"
# Every daemon and job carries this in its environment (the test's own shell
# does not): the processes the cluster started, found by id on the way out.
marker="STACK_SLURM_TEST=$work"
daemons=()

ours() {
    local p
    for p in /proc/[0-9]*; do
        tr '\0' '\n' 2> /dev/null < "$p/environ" | grep -qxF "$marker" && echo "${p#/proc/}"
    done
}
logs() {
    local log
    for log in "$work"/log/*; do  # a daemon's .out only when it has no .log
        [ "${log%.out}" != "$log" ] && [ -s "${log%.out}.log" ] && continue
        echo "----- $log"; tail -n 40 "$log"
    done
}
cleanup() {
    local status=$? pid i jobs
    trap - EXIT INT TERM
    if [ -n "${daemons[*]}" ] && scontrol ping > /dev/null 2>&1; then
        jobs=$(squeue -h -o %i 2> /dev/null)
        [ -z "$jobs" ] || scancel $jobs 2> /dev/null
        for i in $(seq 1 40); do
            [ -z "$(squeue -h -o %i 2> /dev/null)" ] && break
            sleep 0.25
        done
    fi
    [ -z "${daemons[*]}" ] || kill -TERM "${daemons[@]}" 2> /dev/null
    for i in $(seq 1 40); do
        [ -z "$(ours)" ] && break
        sleep 0.25
    done
    for pid in $(ours); do kill -KILL "$pid" 2> /dev/null; done
    wait 2> /dev/null
    if [ -n "$(ours)" ]; then
        echo "FAIL: processes left behind: $(ours)"; status=1
    fi
    [ "$status" -eq 0 ] || logs
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 143' INT TERM
die() { echo "FAIL: $*"; exit 1; }

# Two free ports on 127.0.0.1 (slurmctld's and slurmd's).
read -r ctld_port slurmd_port < <("$python" -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))')

mungekey --create --keyfile="$work/munge/munge.key" || die "mungekey failed"
env "$marker" munged --foreground --socket="$socket" --key-file="$work/munge/munge.key" \
    --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munged.seed" \
    --log-file="$work/log/munged.log" < /dev/null > "$work/log/munged.log" 2>&1 &
daemons+=($!)
for i in $(seq 1 40); do
    munge -S "$socket" -n 2> /dev/null | unmunge -S "$socket" > /dev/null 2>&1 && break
    sleep 0.25
done
munge -S "$socket" -n | unmunge -S "$socket" > /dev/null || die "munged does not answer on $socket"

# Cores for the jobs: physical ones this process may use, at most 2.
cores=$(lscpu -p=Core,Socket 2> /dev/null | grep -v '^#' | sort -u | wc -l)
[ "$cores" -ge 1 ] || cores=$(nproc)
[ "$cores" -le "$(nproc)" ] || cores=$(nproc)
[ "$cores" -le 2 ] || cores=2
if [ "$cores" -lt 2 ]; then  # a 2-CPU machine of one core and two hardware threads
    echo "slurm: skipped: the jobs want 2 cores, this machine has $cores"; exit 77
fi

# The node is this host by its own name, as on a cluster (mpirun then starts
# the ranks itself rather than through an orted on a node it thinks is another).
node=$(hostname -s 2> /dev/null || uname -n); node=${node%%.*}
cat > "$conf" <<EOF
ClusterName=stacktest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cores Sockets=1 CoresPerSocket=$cores ThreadsPerCore=1 RealMemory=1000 State=UNKNOWN
PartitionName=stack Nodes=$node Default=YES MaxTime=10 State=UP
EOF
env "$marker" slurmctld -D -i -f "$conf" < /dev/null > "$work/log/slurmctld.out" 2>&1 &
daemons+=($!)
env "$marker" slurmd -D -N "$node" -f "$conf" < /dev/null > "$work/log/slurmd.out" 2>&1 &
daemons+=($!)
for i in $(seq 1 120); do
    [ "$(sinfo -h -n "$node" -o %T 2> /dev/null)" = idle ] && break
    sleep 0.25
done
[ "$(sinfo -h -n "$node" -o %T 2> /dev/null)" = idle ] || die "the node is not idle: $(sinfo 2>&1)"

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
    env "$marker" "${variables[@]}" sbatch --parsable --time=5 --job-name="stack-$name" --output="$work/$name.out" \
        "$@" "$job_script" --width "$width" --height "$height" --output "$work/$name.h5"
}
mpirun_job=$(submit mpirun "PATH=$BIN/gen:$PATH" --) || die "sbatch failed"  # the default: the whole node
srun_job=$(submit srun STACK_LAUNCHER=srun "STACK_PREFIX=$work/prefix" -- --ntasks-per-node=2 --cpus-per-task=1) \
    || die "sbatch failed"

state() { scontrol show job -o "$1" | tr ' ' '\n' | grep "^$2=" | cut -d= -f2-; }
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
