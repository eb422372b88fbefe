# A test cluster of hosts on this machine (source it; issue 37): each host a
# network namespace with its own address, its own host name (a UTS
# namespace) and its own /etc/hosts, joined by veth pairs to a bridge in the
# root namespace, which is the controller's address. Traffic between hosts is
# real TCP through the bridge, and each host's link counts its bytes. Slurm
# runs across them: one munged (its socket is a file, which every namespace
# sees), slurmctld in the root namespace, and one slurmd a host, each with
# its own node name, spool, pid and log files. Nothing outside this machine
# is addressed: the hosts take a /24 of 10.251.0.0/16 that no address or
# route of this machine names.
#
#   cluster_up HOSTS CPUS   builds it (CPUS: what each node tells Slurm)
#   cluster_run HOST CMD... runs CMD on host HOST (1..HOSTS), as ssh would
#   cluster_bytes           bytes the hosts' links carried so far, all hosts
#   cluster_cap RATE        caps every host's link at RATE (tc tbf: 1gbit, 100mbit; "" lifts the cap)
#   cluster_down            stops every process it started, removes the
#                           namespaces, links and files (an EXIT trap calls it)
#   cluster_skip_reason     why this machine cannot build one (empty: it can)
#   cluster_test_begin      for a ctest script (after lib.sh): exits 77 with
#                           the reason when no cluster can be built, else sets
#                           an EXIT trap that prints the daemons' logs on
#                           failure (or with CLUSTER_LOGS set), takes the
#                           cluster down, fails on namespaces left behind and
#                           removes $work; defines die, table_diff, job_script
#   cluster_job_state JOB FIELD   a field of Slurm's record of the job
# It sets cluster_work (its files), cluster_nodes (Slurm's node names),
# cluster_subnet, and exports SLURM_CONF. Needs root, ip (iproute2), tc,
# nsenter, the Slurm daemons and munge. Every process it starts carries
# STACK_CLUSTER=<cluster_work> in its environment, and is found by it.
# Safe under set -e.

export PATH="$PATH:/usr/sbin:/sbin"
cluster_work="" cluster_tag="" cluster_subnet="" cluster_hosts=0 cluster_nodes=()
# A requeued job waits this long before it starts again (slurm.conf's
# AuthInfo cred_expire; Slurm's default is 120 s): time for every node to
# clean up the first run, which shares the job's id, in a cluster of one
# machine's namespaces.
cluster_cred_expire=${STACK_CLUSTER_CRED_EXPIRE:-30}

cluster_skip_reason() {
    local tool
    [ "$(id -u)" = 0 ] || { echo "the test hosts need root (network namespaces)"; return; }
    for tool in ip tc unshare munged mungekey munge slurmctld slurmd slurmstepd sbatch srun squeue scontrol scancel sinfo; do
        command -v "$tool" > /dev/null || { echo "$tool is missing (apt-get install iproute2 util-linux slurm-wlm munge)"; return; }
    done
    ip netns add "stackprobe$$" 2> /dev/null || { echo "ip netns does not work here"; return; }
    ip netns del "stackprobe$$"
}

cluster_marker() { echo "STACK_CLUSTER=$cluster_work"; }
cluster_ours() {
    local p marker
    marker=$(cluster_marker)
    for p in /proc/[0-9]*; do
        tr '\0' '\n' 2> /dev/null < "$p/environ" | grep -qxF "$marker" && echo "${p#/proc/}"
    done
    return 0
}
cluster_ns() { echo "${cluster_tag}h$1"; }
cluster_link() { echo "${cluster_tag}v$1"; }

cluster_up() {
    local hosts=$1 cpus=$2 i octet socket port
    cluster_hosts=$hosts
    cluster_work=$(mktemp -d /tmp/stack-cluster.XXXXXX)
    chmod 711 "$cluster_work"  # munged wants every directory above its socket searchable
    cluster_tag="stk$(( $$ % 100000 ))"
    # A /24 that no route of this machine covers.
    for octet in $(seq $(( $$ % 200 + 20 )) 254) $(seq 20 254); do
        ip route show table all | grep -q "10\.251\.$octet\." && continue
        ip -o addr | grep -q "10\.251\.$octet\." && continue
        cluster_subnet="10.251.$octet"; break
    done
    [ -n "$cluster_subnet" ] || { echo "cluster: no free 10.251.x.0/24"; return 1; }
    mkdir -p "$cluster_work"/{munge,state,spool,log}
    ip link add "${cluster_tag}br" type bridge || return 1
    ip addr add "$cluster_subnet.1/24" dev "${cluster_tag}br"
    ip link set "${cluster_tag}br" up
    cluster_nodes=()
    {
        echo "127.0.0.1 localhost"
        echo "$cluster_subnet.1 stack-ctl"
        for i in $(seq 1 "$hosts"); do
            cluster_nodes+=("stack-h$i")
            echo "$cluster_subnet.$((10 + i)) stack-h$i"
            mkdir -p "$cluster_work/spool/stack-h$i"
        done
    } > "$cluster_work/hosts"
    for i in $(seq 1 "$hosts"); do
        local ns link
        ns=$(cluster_ns "$i") link=$(cluster_link "$i")
        ip netns add "$ns" || return 1
        ip link add "$link" type veth peer name eth0 netns "$ns" || return 1
        ip link set "$link" master "${cluster_tag}br" up
        ip -n "$ns" addr add "$cluster_subnet.$((10 + i))/24" dev eth0
        ip -n "$ns" link set lo up
        ip -n "$ns" link set eth0 up
        ip -n "$ns" route add default via "$cluster_subnet.1"
    done

    socket="$cluster_work/munge/munge.socket"
    mungekey --create --keyfile="$cluster_work/munge/munge.key" || return 1
    env "$(cluster_marker)" munged --foreground --socket="$socket" --key-file="$cluster_work/munge/munge.key" \
        --pid-file="$cluster_work/munge/munged.pid" --seed-file="$cluster_work/munge/munged.seed" \
        --log-file="$cluster_work/log/munged.log" < /dev/null > "$cluster_work/log/munged.out" 2>&1 &
    for i in $(seq 1 40); do
        munge -S "$socket" -n 2> /dev/null | unmunge -S "$socket" > /dev/null 2>&1 && break
        sleep 0.25
    done

    port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("0.0.0.0", 0)); print(s.getsockname()[1])')
    export SLURM_CONF="$cluster_work/slurm.conf"
    {
        cat <<EOF
ClusterName=stackcluster
SlurmctldHost=stack-ctl($cluster_subnet.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket,cred_expire=$cluster_cred_expire
StateSaveLocation=$cluster_work/state
SlurmdSpoolDir=$cluster_work/spool/%n
SlurmctldPidFile=$cluster_work/slurmctld.pid
SlurmdPidFile=$cluster_work/slurmd.%n.pid
SlurmctldLogFile=$cluster_work/log/slurmctld.log
SlurmdLogFile=$cluster_work/log/slurmd.%n.log
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
SlurmdTimeout=10
InactiveLimit=0
KillWait=5
JobRequeue=1
SlurmdParameters=config_overrides
EOF
        for i in $(seq 1 "$hosts"); do
            echo "NodeName=stack-h$i NodeAddr=$cluster_subnet.$((10 + i)) CPUs=$cpus Sockets=1 CoresPerSocket=$cpus" \
                 "ThreadsPerCore=1 RealMemory=1000 State=UNKNOWN"
        done
        echo "PartitionName=stack Nodes=stack-h[1-$hosts] Default=YES MaxTime=10 State=UP"
    } > "$SLURM_CONF"
    env "$(cluster_marker)" unshare --uts sh -c "hostname stack-ctl && exec slurmctld -D -i -f '$SLURM_CONF'" \
        < /dev/null > "$cluster_work/log/slurmctld.out" 2>&1 &
    for i in $(seq 1 "$hosts"); do cluster_slurmd "$i"; done
    for i in $(seq 1 160); do
        [ "$(sinfo -h -o %T 2> /dev/null | sort -u)" = idle ] && return 0
        sleep 0.25
    done
    echo "cluster: the nodes are not idle: $(sinfo 2>&1)"
    return 1
}

# Starts host I's slurmd (again, after cluster_kill_host).
cluster_slurmd() {
    cluster_run "$1" slurmd -D -N "stack-h$1" -f "$SLURM_CONF" < /dev/null > "$cluster_work/log/slurmd.stack-h$1.out" 2>&1 &
}

# nsenter joins the host's network namespace only (ip netns exec would mount
# a fresh /sys, hiding the cgroup file system slurmd reads); the host's name
# and /etc/hosts come from a UTS and a mount namespace of its own.
cluster_run() {
    local host=$1; shift
    env "$(cluster_marker)" nsenter --net="/run/netns/$(cluster_ns "$host")" unshare --uts --mount sh -c \
        'mount --bind "$1" /etc/hosts && hostname "$0" && shift && exec "$@"' \
        "stack-h$host" "$cluster_work/hosts" "$@"
}

# Kills every process on host I, slurmd included, as a host lost would.
cluster_kill_host() {
    local pid
    for pid in $(ip netns pids "$(cluster_ns "$1")" 2> /dev/null); do kill -KILL "$pid" 2> /dev/null || true; done
}

cluster_bytes() {
    local i total=0 rx tx
    for i in $(seq 1 "$cluster_hosts"); do
        rx=$(cat "/sys/class/net/$(cluster_link "$i")/statistics/rx_bytes")
        total=$((total + rx))
    done
    echo "$total"
}

cluster_cap() {
    local i link
    for i in $(seq 1 "$cluster_hosts"); do
        for link in "$(cluster_link "$i")"; do
            tc qdisc del dev "$link" root 2> /dev/null || true
            [ -z "$1" ] || tc qdisc add dev "$link" root tbf rate "$1" burst 256kb latency 50ms || return 1
        done
        tc -n "$(cluster_ns "$i")" qdisc del dev eth0 root 2> /dev/null || true
        [ -z "$1" ] || tc -n "$(cluster_ns "$i")" qdisc add dev eth0 root tbf rate "$1" burst 256kb latency 50ms \
            || return 1
    done
}

cluster_logs() {
    local log
    for log in "$cluster_work"/log/*; do
        echo "----- $log"; tail -n 30 "$log"
    done
}

cluster_down() {
    local i pid jobs
    [ -n "$cluster_work" ] || return 0
    if scontrol ping > /dev/null 2>&1; then
        jobs=$(squeue -h -o %i 2> /dev/null)
        [ -z "$jobs" ] || scancel $jobs 2> /dev/null || true
        for i in $(seq 1 20); do
            [ -z "$(squeue -h -o %i 2> /dev/null)" ] && break
            sleep 0.25
        done
    fi
    for pid in $(cluster_ours); do kill -TERM "$pid" 2> /dev/null || true; done
    for i in $(seq 1 40); do
        [ -z "$(cluster_ours)" ] && break
        sleep 0.25
    done
    for pid in $(cluster_ours); do kill -KILL "$pid" 2> /dev/null || true; done
    for i in $(seq 1 "$cluster_hosts"); do
        cluster_kill_host "$i"
        ip netns del "$(cluster_ns "$i")" 2> /dev/null || true
        ip link del "$(cluster_link "$i")" 2> /dev/null || true  # gone with its namespace's end
    done
    ip link del "${cluster_tag}br" 2> /dev/null || true
    rm -rf "$cluster_work"
    cluster_work=""
}

cluster_job_state() { scontrol show job -o "$1" | tr ' ' '\n' | grep "^$2=" | cut -d= -f2-; }

cluster_test_end() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$cluster_work" ] && { [ "$status" -ne 0 ] || [ -n "${CLUSTER_LOGS:-}" ]; }; then
        cluster_logs
    fi
    local tag=$cluster_tag
    cluster_down
    [ -z "$tag" ] || [ -z "$(ip netns list | grep "^${tag}h")" ] || { echo "FAIL: namespaces left behind"; status=1; }
    rm -rf "$work"
    exit "$status"
}

cluster_test_begin() {
    local reason
    reason=$(cluster_skip_reason)
    [ -z "$reason" ] || { echo "SKIP: $reason"; exit 77; }
    trap cluster_test_end EXIT
    trap 'exit 143' INT TERM
    die() { echo "FAIL: $*"; exit 1; }
    table_diff="$BIN/tests/table_diff"
    job_script="$tests_dir/../scripts/stackgen.sbatch"
}
