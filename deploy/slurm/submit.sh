#!/bin/bash
# Submits a mastermind job to Slurm in N shards, an array job with one
# task per shard, and its merge as a job that runs when every shard has
# succeeded. Prints the two job ids, the array's first.
#
#   deploy/slurm/submit.sh N RESULTS COMMAND [FLAGS...] [-- MERGE FLAGS...]
#   deploy/slurm/submit.sh 8 /shared/super bench --rules super --strategy knuth,entropy -- --json
#
# RESULTS must be on a file system every node sees; the merged output goes
# to RESULTS/merged.out. Extra sbatch options (a partition, an account, the
# cores per task) go in SBATCH_* environment variables, such as
# SBATCH_PARTITION; MASTERMIND names the binary.
set -euo pipefail
if [ $# -lt 3 ]; then
	sed -n '2,12s/^# \{0,1\}//p' "$0" >&2
	exit 2
fi
n=$1 results=$2
shift 2
args=() merge=()
while [ $# -gt 0 ]; do
	if [ "$1" = -- ]; then
		shift
		merge=("$@")
		break
	fi
	args+=("$1")
	shift
done
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$results"
results=$(cd "$results" && pwd)
array=$(sbatch --parsable --array="0-$((n - 1))" --chdir="$results" --export="ALL,SHARDS=$n" \
	"$here/shard.sbatch" "$results" "${args[@]}")
array=${array%%;*}
merged=$(sbatch --parsable --dependency="afterok:$array" --chdir="$results" \
	"$here/merge.sbatch" "$results" "${merge[@]}")
echo "$array ${merged%%;*}"
