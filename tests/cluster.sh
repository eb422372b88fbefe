#!/usr/bin/env bash
# stackgen across three hosts (issue 37): the test cluster of
# tests/cluster_lib.sh (three network namespaces on a bridge, each its own
# address and host name, Slurm across them), one rank per host, Open MPI
# between them over TCP only (btl self,tcp on the bridge's subnet, as on a
# cluster without a fabric), launched by scripts/stackgen.sbatch through
# sbatch -N 3.
#   1. The table is byte-identical to a one-host run's (cmp, table_diff,
#      stackverify), and the bytes the hosts' links carried are within 15% of
#      what `stackgen --plan --plan-nodes 3` predicts crosses between nodes.
#   2. A host lost mid-run (every process on it killed, slurmd included):
#      the job ends within 60 s with one line from the job script, the
#      partial is kept, the job requeues itself (STACK_REQUEUE=1), waits for
#      the host to come back, resumes, and gives the same table.
# Exits 77 (skipped) without root, ip netns, Slurm or munge.
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cluster_lib.sh"
cluster_test_begin
width=${CLUSTER_WIDTH:-6} height=${CLUSTER_HEIGHT:-14}


started=$SECONDS
cluster_up 3 2 || die "the test cluster did not come up"
echo "cluster: 3 hosts on $cluster_subnet.0/24 up in $((SECONDS - started)) s"
# Open MPI between hosts as on a cluster without a fabric: TCP on the
# hosts' own subnet, for its runtime and for the ranks' messages.
export OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include="$cluster_subnet.0/24" \
       OMPI_MCA_oob_tcp_if_include="$cluster_subnet.0/24"
export STACK_BIND=none  # the hosts share this machine's cores

# The reference: one host, three ranks.
mpi 3 "$stackgen" --width "$width" --height "$height" --output "$work/one.h5" --quiet || die "the one-host run failed"

state() { cluster_job_state "$@"; }
# wait_job JOB SECONDS: until it has ended (or SECONDS pass); prints its state.
wait_job() {
    local i
    for i in $(seq 1 $(($2 * 4))); do
        case "$(state "$1" JobState)" in PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|REQUEUED|"") sleep 0.25 ;; *) break ;; esac
    done
    state "$1" JobState
}
submit() {  # submit NAME [VARIABLE=VALUE...] -- SBATCH OPTIONS... -- STACKGEN OPTIONS...: prints the job id
    local name=$1; shift
    local variables=() options=()
    while [ "$1" != -- ]; do variables+=("$1"); shift; done; shift
    while [ "$1" != -- ]; do options+=("$1"); shift; done; shift
    (cd "$work" && env "$(cluster_marker)" STACKGEN="$stackgen" "${variables[@]}" sbatch --parsable --time=5 \
        --job-name="stack-$name" --output="$work/$name.out" --open-mode=append "${options[@]}" "$job_script" \
        --width "$width" --height "$height" --output "$work/$name.h5" "$@")
}
same_table() {  # same_table NAME
    "$table_diff" "$work/one.h5" "$work/$1.h5" && pass || fail "$1's table differs from the one-host run's"
    cmp "$work/one.h5" "$work/$1.h5" && pass || fail "$1's table is not the same file as the one-host run's"
    mpi 1 "$stackverify" "$work/$1.h5" > /dev/null && pass || fail "$1's table does not verify"
}

# 1. Three hosts, one rank each, against the one-host table and the plan.
predicted=$("$stackgen" --width "$width" --height "$height" --plan --plan-ranks 3 --plan-nodes 3 --json \
            --output "$work/three.h5" | "$python" -c 'import json, sys; print(int(json.load(sys.stdin)["network"]["bytes_between_nodes"]))') \
    || die "stackgen --plan --plan-nodes 3 failed"
before=$(cluster_bytes)
job=$(submit three -- --nodes 3 --cpus-per-task 1 -- --json) || die "sbatch failed"
job_state=$(wait_job "$job" 120)
after=$(cluster_bytes)
[ "$job_state" = COMPLETED ] || { cat "$work/three.out"; die "the 3-host job ended $job_state"; }
grep -q "stackgen.sbatch: job $job, 3 node(s) x 1 rank(s) x 1 thread(s)" "$work/three.out" && pass \
    || fail "the job did not run 3 nodes x 1 rank x 1 thread"
same_table three
echo "cluster: the 3-host job done at $((SECONDS - started)) s"
measured=$((after - before))
"$python" - "$measured" "$predicted" "$work/three.out" <<'PYTHON' && pass || fail "link bytes against the plan"
import json, sys
measured, predicted = int(sys.argv[1]), int(sys.argv[2])
text = open(sys.argv[3]).read()
report = json.loads(text[text.index("{"):text.rindex("}") + 1])
payload = report["bytes_exchanged"] + report["bytes_redistributed"]
print(f"cluster: the hosts' links carried {measured:,} bytes; the plan predicted {predicted:,} between nodes "
      f"({measured / predicted:.3f}); the run reports {payload:,} sent between ranks; "
      f"exchange {report['seconds']['exchange']:.2f} s, redistribution {report['seconds']['redistribute']:.2f} s "
      f"of {report['seconds']['rounds']:.2f} s of rounds")
sys.exit(0 if abs(measured / predicted - 1) <= 0.15 else 1)
PYTHON

# 2. A host lost during the rounds: killed once the rounds are under way
# (checkpoints every round), then back after the job requeued itself.
job=$(submit lost STACK_REQUEUE=1 -- --nodes 3 --cpus-per-task 1 --requeue -- --progress --checkpoint-seconds 0) \
    || die "sbatch failed"
for i in $(seq 1 1200); do  # round 20 of 71: about a fifth of the states done
    grep -Eq '^round +(2[0-9]|[3-9][0-9])/' "$work/lost.out" 2> /dev/null && break
    [ "$(state "$job" JobState)" = COMPLETED ] && die "the run ended before the host could be lost"
    sleep 0.1
done
grep -Eq '^round +(2[0-9]|[3-9][0-9])/' "$work/lost.out" || die "the run did not reach round 20: $(tail -3 "$work/lost.out")"
lost_at=$SECONDS
cluster_kill_host 2
for i in $(seq 1 240); do
    grep -q "stackgen.sbatch: job $job: stackgen failed" "$work/lost.out" && break
    sleep 0.25
done
ended=$((SECONDS - lost_at))
failure=$(grep "stackgen.sbatch: job $job: stackgen failed" "$work/lost.out")
echo "cluster: host 2 lost; the job said in $ended s: $failure"
[ "$(grep -c '' <<< "$failure")" -eq 1 ] && [ -n "$failure" ] && [ "$ended" -le 60 ] && pass \
    || fail "the job did not end with one line within 60 s of the host lost"
[ -f "$work/lost.h5.partial" ] && [ ! -e "$work/lost.h5" ] && pass || fail "the partial was not kept (or a table appeared)"
for i in $(seq 1 240); do [ "$(state "$job" Restarts)" = 1 ] && break; sleep 0.25; done
[ "$(state "$job" Restarts)" = 1 ] && pass || fail "the job did not requeue itself"
echo "cluster: requeued at $((SECONDS - started)) s"
cluster_slurmd 2  # the host is back
# Slurm holds a requeued job for cred_expire (its begin time: 30 s here,
# cluster_lib.sh, against Slurm's 120), time for every node to finish
# cleaning up the first run, which shares the job's id: released at once,
# the second run lost a rank to that cleanup (tried here).
job_state=$(wait_job "$job" 200)
[ "$job_state" = COMPLETED ] || { cat "$work/lost.out"; die "the requeued job ended $job_state"; }
echo "cluster: the requeued job done at $((SECONDS - started)) s"
grep -q "run 2: .*--resume-if-partial" "$work/lost.out" && pass || fail "the requeued run did not resume"
grep -Eq "resumed after round [1-9]" "$work/lost.out" && pass \
    || { fail "the requeued run did not say it resumed"; grep -v '^round' "$work/lost.out"; }
same_table lost
echo "cluster: $((SECONDS - started)) s in all"
finish
