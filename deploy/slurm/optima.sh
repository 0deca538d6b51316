#!/bin/bash
# Solves rows of the table of exact optima on Slurm in N shards. A row has
# one search per worst case tried, each needing the last's result, so the
# work goes in rounds: an array job of N tasks (optima.sbatch) does every
# row's search under way, then "mastermind optima --merge" writes the rows
# whose searches are all done. Rounds go on until the merge has written
# every row. A task stopped by its --row-limit, a time limit or scancel
# keeps the parts it solved, and the next round resumes them.
#
#   deploy/slurm/optima.sh N DIR [OPTIMA FLAGS...]
#   deploy/slurm/optima.sh 8 /shared/records --only 6x5 --row-limit 110m
#
# DIR (with optimal.csv and optimal/) must be on a file system every node
# sees; the tasks' output goes to mastermind-optima-JOB_TASK.out in the
# current directory. --row-limit bounds each row of a task, so give a task
# one row, or a time limit (SBATCH_TIMELIMIT) for all. MAX_ROUNDS (default
# 12) bounds the rounds; extra sbatch options go in SBATCH_* environment
# variables; MASTERMIND names the binary.
set -euo pipefail
if [ $# -lt 2 ]; then
	sed -n '2,18s/^# \{0,1\}//p' "$0" >&2
	exit 2
fi
n=$1 dir=$2
shift 2
case $n in
'' | *[!0-9]* | 0) echo "optima.sh: N=$n: want a number of shards from 1" >&2 && exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mm=${MASTERMIND:-mastermind}
failed=0
for round in $(seq "${MAX_ROUNDS:-12}"); do
	start=$SECONDS
	# sbatch --wait exits with the highest status of the array's tasks: 3
	# is a task stopped at its --row-limit, its parts kept.
	rc=0
	sbatch --wait --quiet --array="0-$((n - 1))" --export="ALL,SHARDS=$n" \
		"$here/optima.sbatch" "$dir" "$@" || rc=$?
	echo "optima.sh: round $round of $n shards took $((SECONDS - start)) s (status $rc)"
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		failed=$((failed + 1))
		echo "optima.sh: round $round: a task failed (status $rc); see its mastermind-optima-*.out" >&2
		if [ $failed -ge 2 ]; then
			echo "optima.sh: two rounds in a row failed; stopping" >&2
			exit 1
		fi
	else
		failed=0
	fi
	# The merge exits 3 while a search lacks parts; anything else but 0
	# is an error no further round mends.
	rc=0
	"$mm" optima --dir "$dir" "$@" --merge || rc=$?
	case $rc in
	0) exit 0 ;;
	3) ;;
	*)
		echo "optima.sh: the merge failed (status $rc)" >&2
		exit 1
		;;
	esac
done
echo "optima.sh: rows not done after ${MAX_ROUNDS:-12} rounds" >&2
exit 1
