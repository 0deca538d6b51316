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
#   deploy/slurm/optima.sh 8 /shared/records --only 6x5,10x4 --row-limit 110m
#
# DIR (with optimal.csv and optimal/) must be on a file system every node
# sees. MAX_ROUNDS (default 12) bounds the rounds; extra sbatch options go
# in SBATCH_* environment variables; MASTERMIND names the binary.
set -euo pipefail
if [ $# -lt 2 ]; then
	sed -n '2,16s/^# \{0,1\}//p' "$0" >&2
	exit 2
fi
n=$1 dir=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mm=${MASTERMIND:-mastermind}
failed=0
for round in $(seq "${MAX_ROUNDS:-12}"); do
	start=$SECONDS
	if sbatch --wait --quiet --array="0-$((n - 1))" --chdir="$dir" --export="ALL,SHARDS=$n" \
		"$here/optima.sbatch" "$dir" "$@"; then
		failed=0
	else
		failed=$((failed + 1))
		echo "optima.sh: round $round: some of the $n tasks failed; their output is in $dir" >&2
		if [ $failed -ge 2 ]; then
			echo "optima.sh: two rounds in a row failed; stopping" >&2
			exit 1
		fi
	fi
	echo "optima.sh: round $round of $n shards took $((SECONDS - start)) s"
	if "$mm" optima --dir "$dir" "$@" --merge; then
		exit 0
	fi
done
echo "optima.sh: rows not done after ${MAX_ROUNDS:-12} rounds" >&2
exit 1
