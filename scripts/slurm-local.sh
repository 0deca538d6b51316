#!/bin/bash
# Runs mastermind jobs in shards on a real Slurm, started here as a
# one-node cluster, and checks that the merged results equal the runs of
# the whole jobs. Needs root and Debian's packages: it installs slurm-wlm
# and munge when they are missing (about 30 s), starts munged, slurmctld
# and slurmd from a configuration in a temporary directory (nothing in
# /etc/slurm), and stops them at the end.
#
# The jobs, through deploy/slurm/submit.sh:
#   1. bench --colors 10 --pegs 5 --strategy knuth,entropy in 4 shards; one
#      task is cancelled while it runs, leaves no partial, and is rerun
#      alone before the merge runs;
#   2. tree --strategy optimal --format json (classic 6 × 4) in 4 shards;
#   3. optima --only 4x4,6x4 in 3 shards through deploy/slurm/optima.sh,
#      round after round until the merge writes both rows, which must be
#      records/'s, trees byte for byte.
#
#   scripts/slurm-local.sh            # from the repository's root
#   KEEP=1 scripts/slurm-local.sh     # leave the cluster and files behind
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export PATH="$PATH:/usr/local/go/bin:/usr/sbin:/sbin"

say() { echo "slurm-local: $*"; }
die() {
	echo "slurm-local: FAIL: $*" >&2
	exit 1
}

if [ "$(id -u)" != 0 ]; then
	die "needs root, to install and run Slurm's daemons"
fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	say "installing slurm-wlm and munge"
	start=$SECONDS
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq slurm-wlm munge >/dev/null
	say "installed in $((SECONDS - start)) s"
fi

work=$(mktemp -d /tmp/mastermind-slurm.XXXXXX)
chmod 755 "$work"
cleanup() {
	status=$?
	if [ $status -ne 0 ]; then
		for f in "$work"/slurmctld.log "$work"/slurmd.log; do
			[ -f "$f" ] && { echo "--- tail of $f"; tail -n 30 "$f"; }
		done
		for f in "$work"/*/*.out; do
			[ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
		done
	fi
	if [ -z "${KEEP:-}" ]; then
		for p in slurmd slurmctld; do
			[ -f "$work/$p.pid" ] && kill "$(cat "$work/$p.pid")" 2>/dev/null || true
		done
		[ -n "${munge_pid:-}" ] && kill "$munge_pid" 2>/dev/null || true
		sleep 1
		rm -rf "$work"
	else
		say "left running; files in $work (SLURM_CONF=$work/slurm.conf)"
	fi
	exit $status
}
trap cleanup EXIT

# munge: the key the package made, or a new one.
if [ ! -s /etc/munge/munge.key ]; then
	mkdir -p /etc/munge
	dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
	chown munge:munge /etc/munge/munge.key
	chmod 400 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
	mkdir -p /run/munge /var/log/munge /var/lib/munge
	chown munge:munge /run/munge /var/log/munge /var/lib/munge
	runuser -u munge -- /usr/sbin/munged
	munge_pid=$(cat /run/munge/munged.pid 2>/dev/null || pgrep -n munged)
	for _ in $(seq 50); do
		munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
		sleep 0.1
	done
fi
munge -n | unmunge >/dev/null || die "munge does not work"

node=$(hostname -s)
cpus=$(nproc)
mem=$(free -m | awk '/^Mem:/ {print $2}')
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<CONF
ClusterName=mastermind
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
	state=$(sinfo -h -N -o %T 2>/dev/null || true)
	case $state in idle*) break ;; esac
	sleep 0.5
done
case $state in idle*) ;; *) die "the node is not idle but '$state'" ;; esac
say "Slurm up: node $node, $cpus CPUs, $mem MB ($(sinfo -V))"

# The binary every task runs, on the shared file system (here, local).
go build -o "$work/mastermind" ./cmd/mastermind
export MASTERMIND=$work/mastermind

# jobstates ID prints the states of the job's tasks, one a line.
jobstates() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }

# waitjob ID waits for every task of the job to end, and fails unless all
# completed.
waitjob() {
	local s
	for _ in $(seq 1200); do
		s=$(jobstates "$1" | sort -u | tr '\n' ' ')
		case $s in
		*PENDING* | *RUNNING* | *CONFIGURING* | *COMPLETING* | *SUSPENDED* | "") ;;
		"COMPLETED ") return 0 ;;
		*)
			echo "job $1: $s" >&2
			return 1
			;;
		esac
		sleep 0.5
	done
	echo "job $1: still $s after 10 minutes" >&2
	return 1
}

# taskstate JOB K prints the state of array task K.
taskstate() { scontrol -o show job "$1_$2" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }

# taskpid JOB K prints the process id of the mastermind that array task K
# runs, once it runs (the one node is this machine). Slurm says RUNNING
# from the allocation on, before the node has started the task's script.
taskpid() {
	local p env
	for p in $(pgrep -x mastermind); do
		env=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null) || continue
		if grep -qx "SLURM_ARRAY_JOB_ID=$1" <<<"$env" && grep -qx "SLURM_ARRAY_TASK_ID=$2" <<<"$env"; then
			echo "$p"
			return
		fi
	done
}

untimed() { grep -v '^seconds' "$1"; }

# 1. bench in 4 shards, one cancelled midway and rerun.
# 10 x 5, not 8 x 5: a shard of 8 x 5 now ends in half a second, before
# the cancel below can reach it.
bench=(bench --colors 10 --pegs 5 --strategy knuth,entropy)
res=$work/bench
read -r array merge < <(deploy/slurm/submit.sh 4 "$res" "${bench[@]}")
say "bench: array job $array, merge job $merge"
pid=
for _ in $(seq 600); do
	pid=$(taskpid "$array" 3)
	[ -n "$pid" ] && break
	sleep 0.1
done
[ -n "$pid" ] || die "task 3 of $array never ran: $(taskstate "$array" 3)"
# The shard takes about 3 s of CPU (2026-12-02), alone on a core: cancel
# it early.
sleep 0.5
scancel "${array}_3"
for _ in $(seq 100); do
	case $(taskstate "$array" 3) in CANCELLED* | COMPLETED | FAILED) break ;; esac
	sleep 0.1
done
[ "$(taskstate "$array" 3)" = CANCELLED ] || die "task 3 was not cancelled while it ran: $(taskstate "$array" 3)"
# Slurm says CANCELLED as soon as it asks the node to stop the task: check
# what the task left only once its process is gone.
for _ in $(seq 100); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
! kill -0 "$pid" 2>/dev/null || die "task 3's process $pid still runs 10 s after it was cancelled"
if waitjob "$array" 2>/dev/null; then die "the array completed with a cancelled task"; fi
for k in 0 1 2; do
	[ -s "$res/part-$k.json" ] || die "task $k left no partial"
done
[ ! -e "$res/part-3.json" ] || die "the cancelled task left $res/part-3.json"
ls "$res"/.part-3.json.*.tmp 2>/dev/null && die "the cancelled task left a temporary file"
say "bench: task 3 cancelled while running, left no partial; the merge waits: $(scontrol -o show job "$merge" | grep -o 'Reason=[A-Za-z]*')"
scancel "$merge"
if "$MASTERMIND" merge "$res"/part-*.json >/dev/null 2>"$work/merge.err"; then die "merge took 3 shards of 4"; fi
grep -q "shard 3 of 4 missing" "$work/merge.err" || die "merge of 3 shards: $(cat "$work/merge.err")"
rerun=$(sbatch --parsable --array=3 --chdir="$res" --export="ALL,SHARDS=4" deploy/slurm/shard.sbatch "$res" "${bench[@]}")
merge=$(sbatch --parsable --dependency="afterok:$rerun" --chdir="$res" deploy/slurm/merge.sbatch "$res")
say "bench: task 3 rerun as job $rerun, merge job $merge"
waitjob "$rerun" || die "the rerun of task 3 failed"
waitjob "$merge" || die "the merge failed"
start=$SECONDS
"$MASTERMIND" "${bench[@]}" >"$work/bench-whole.out"
say "bench: whole run $((SECONDS - start)) s"
diff <(untimed "$res/merged.out") <(untimed "$work/bench-whole.out") || die "the merged bench differs from the whole run"
cat "$res/merged.out"
say "bench: the merge of 4 shards equals the whole run (wall seconds aside)"

# 2. the optimal tree of classic Mastermind in 4 shards.
tree=(tree --strategy optimal)
res=$work/tree
read -r array merge < <(deploy/slurm/submit.sh 4 "$res" "${tree[@]}" -- --format json)
say "tree: array job $array, merge job $merge"
waitjob "$array" || die "the tree's shards failed"
waitjob "$merge" || die "the tree's merge failed"
"$MASTERMIND" "${tree[@]}" --format json >"$work/tree-whole.json"
cmp "$res/merged.out" "$work/tree-whole.json" || die "the merged optimal tree differs from the whole run's"
grep -o '"games":1296,"total":5625,"max":6' "$res/merged.out" >/dev/null || die "the merged tree is not 5625 guesses, at most 6"
say "tree: the merge of 4 shards is the whole run's tree, byte for byte: 1296 secrets, 5625 guesses, at most 6"

# 3. two rows of the table of optima in 3 shards, in rounds.
res=$work/optima
start=$SECONDS
# (From $work, where the tasks' output files go.)
(cd "$work" && "$root/deploy/slurm/optima.sh" 3 "$res" --only 4x4,6x4) >"$work/optima.out" 2>&1 || {
	cat "$work/optima.out"
	die "optima.sh failed"
}
rounds=$(grep -c "^optima.sh: round" "$work/optima.out" || true)
[ "$rounds" -ge 2 ] || die "optima.sh took $rounds rounds; each row needs a search of its least total, then of fewer guesses"
for row in 4x4 6x4; do
	cmp "$res/optimal/$row.json.gz" records/optimal/$row.json.gz || die "the sharded $row tree differs from records/'s"
done
cut -d, -f1-10 records/optimal.csv | grep -E '^(4,4|6,4),false,' >"$work/optima-want.csv"
cut -d, -f1-10 "$res/optimal.csv" | grep -v '^colors' >"$work/optima-got.csv"
diff "$work/optima-got.csv" "$work/optima-want.csv" || die "the sharded rows differ from records/optimal.csv (seconds aside)"
[ ! -e "$res/optimal/partial" ] || die "the merge left $res/optimal/partial"
say "optima: 4x4 and 6x4 in 3 shards, $rounds rounds, $((SECONDS - start)) s: the rows and trees of records/, byte for byte"
say "PASS"
