#!/usr/bin/env bash
# A real Slurm run of examples/slurm/solve-array.sbatch on a one-node cluster on localhost.
#
# Starts munged, slurmctld and slurmd with a minimal configuration written to a temporary
# directory (no systemd, no cgroups: proctrack/linuxproc, task/none, no accounting), submits
# the example array job over a shipped dataset as 4 tasks (--array=0-3), waits for it and for
# the merge job it queues, and compares the merged output and summary with a single run, byte
# for byte. Every daemon it started is stopped on exit, whatever happens.
#
#   tests/slurm/run.sh [DATASET]      (default data/puzzles3_magictour_top1465.txt.gz)
#
# SUDOKU_BULK names the binary to test (default: target/debug/sudoku-bulk, built if missing).
# Exit codes: 0 passed, 1 failed, 77 skipped (this machine cannot run Slurm: the reason is
# printed). With SLURM_TEST_INSTALL=1 (root only), missing Slurm and munge packages are
# installed with apt-get first.

set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

say() { printf 'slurm-test: %s\n' "$*" >&2; }
skip() { say "SKIPPED: $*"; exit 77; }
fail() { say "FAILED: $*"; exit 1; }

dataset=${1:-data/puzzles3_magictour_top1465.txt.gz}
tasks=4

# --- What the machine needs -------------------------------------------------------------------
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs, and this is not root"
needed=(munged slurmctld slurmd sbatch squeue scontrol)
missing() { for c in "${needed[@]}"; do command -v "$c" > /dev/null || return 0; done; return 1; }
if missing && [ "${SLURM_TEST_INSTALL:-0}" = 1 ] && command -v apt-get > /dev/null; then
    say "installing slurmd slurmctld slurm-client munge with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -q --no-install-recommends slurmd slurmctld slurm-client munge ||
        { apt-get update -q && apt-get install -y -q --no-install-recommends slurmd slurmctld slurm-client munge; }
    } > /tmp/slurm-test-apt.log 2>&1 || say "apt-get failed (see /tmp/slurm-test-apt.log)"
fi
missing && skip "Slurm or munge is not installed (apt-get install slurmd slurmctld slurm-client munge)"

binary=${SUDOKU_BULK:-$repo/target/debug/sudoku-bulk}
if [ ! -x "$binary" ]; then
    cargo build --quiet --bin sudoku-bulk
fi
binary=$(realpath "$binary")
[ -f "$dataset" ] || fail "no dataset $dataset"
dataset=$(realpath "$dataset")

# --- A one-node cluster in a temporary directory ----------------------------------------------
tmp=$(mktemp -d /tmp/slurm-test.XXXXXX)
chmod 755 "$tmp"
pids=()
unset SLURM_CONF
cleanup() {
    local status=$?
    # Jobs still queued or running (after a failure) are cancelled before the daemons stop, so
    # that no job step outlives them.
    if [ -n "${SLURM_CONF:-}" ] && [ "${#pids[@]}" -gt 1 ]; then
        jobs=$(timeout 10 squeue -h -o %i 2> /dev/null || true)
        if [ -n "$jobs" ]; then
            # shellcheck disable=SC2086
            timeout 10 scancel $jobs 2> /dev/null || true
            for _ in $(seq 20); do
                [ -z "$(timeout 5 squeue -h -o %i 2> /dev/null)" ] && break
                sleep 0.5
            done
        fi
    fi
    for pid in "${pids[@]}"; do
        kill "$pid" 2> /dev/null || true
    done
    for pid in "${pids[@]}"; do
        # slurmd and slurmctld stop within seconds of SIGTERM; do not wait forever.
        for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2> /dev/null || true
    done
    if [ "$status" != 0 ] && [ "$status" != 77 ]; then
        for log in slurmctld slurmd munged; do
            [ -f "$tmp/$log.log" ] && { say "--- last lines of $log.log"; tail -n 15 "$tmp/$log.log" >&2; }
        done
    fi
    if [ "${SLURM_TEST_KEEP:-0}" = 1 ]; then say "kept $tmp"; else rm -rf "$tmp"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/work"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket

# Ports unlikely to be taken: from the process id.
port=$((20000 + ($$ % 5000) * 2))
host=$(hostname -s)
cat > "$tmp/slurm.conf" << EOF
ClusterName=slurmtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
MinJobAge=30
NodeName=slurmtest-node NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=slurmtest-node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf

start() { # NAME COMMAND...: starts a daemon in the foreground of a background job
    local name=$1
    shift
    "$@" >> "$tmp/$name.out" 2>&1 &
    pids+=("$!")
}
start munged munged --foreground --force --socket="$socket" --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munge/seed"
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || skip "munged did not start: $(tail -n 3 "$tmp/munged.out" "$tmp/munged.log" 2> /dev/null | tr '\n' ' ')"

start slurmctld slurmctld -D -i -f "$tmp/slurm.conf"
start slurmd slurmd -D -f "$tmp/slurm.conf" -N slurmtest-node

up=""
for _ in $(seq 60); do
    state=$(sinfo -h -n slurmtest-node -o %T 2> /dev/null || true)
    case "$state" in idle*) up=yes; break ;; esac
    sleep 0.5
done
[ -n "$up" ] || skip "the one-node cluster did not come up (node state '${state:-unknown}'): $(tail -n 3 "$tmp/slurmctld.log" "$tmp/slurmd.log" 2> /dev/null | tr '\n' ' ')"
say "cluster up: slurmctld, slurmd and munged on $host (ports $port, $((port + 1)))"

# --- The example job, as 4 tasks -------------------------------------------------------------
work=$tmp/work
started=$(date +%s)
job=$(sbatch --parsable --array=0-$((tasks - 1)) --cpus-per-task=1 --chdir="$work" \
    --export="ALL,SUDOKU_BULK=$binary,OUT_DIR=$work/shards" \
    examples/slurm/solve-array.sbatch "$dataset") || fail "sbatch refused the example"
job=${job%%;*}
say "submitted array job $job ($tasks tasks) over $(basename "$dataset")"

# Wait for the array and for the merge job its first task queues.
show_logs() {
    for log in "$work"/sudoku-bulk-*.log; do
        if [ -s "$log" ]; then say "--- $(basename "$log")"; cat "$log" >&2; fi
    done
}
deadline=$((started + 240))
while :; do
    queue=$(squeue -h -o '%i %T %r' 2> /dev/null || true)
    if [ -z "$queue" ]; then
        [ -f "$work/shards/solved.csv.summary.json" ] && break
        show_logs
        fail "the jobs ended without a merged summary"
    fi
    if grep -q DependencyNeverSatisfied <<< "$queue"; then
        show_logs
        fail "a task of the array failed, so the merge can never start"
    fi
    if [ "$(date +%s)" -gt "$deadline" ]; then
        show_logs
        say "$queue"
        fail "the jobs did not finish within 240 s"
    fi
    sleep 1
done
say "array and merge finished in $(($(date +%s) - started)) s"
show_logs

ls "$work/shards" >&2
for k in $(seq 0 $((tasks - 1))); do
    [ -f "$work/shards/part-$k.csv.summary.json" ] || fail "task $k wrote no summary"
done

# --- The same over one run --------------------------------------------------------------------
"$binary" solve "$dataset" --quiet -o "$work/single.csv" --summary "$work/single.csv.summary.json"
cmp "$work/single.csv" "$work/shards/solved.csv" || fail "the merged output differs from a single run's"
cmp "$work/single.csv.summary.json" "$work/shards/solved.csv.summary.json" ||
    fail "the merged summary differs from a single run's"
rows=$(($(wc -l < "$work/single.csv") - 1))
say "PASSED: $tasks Slurm array tasks merged into the single run's output ($rows rows, $(wc -c < "$work/single.csv") bytes) and summary, byte for byte"
