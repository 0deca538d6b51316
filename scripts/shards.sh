#!/bin/bash
# Runs a mastermind job in N shards on this machine, P at a time (default
# 2, one per core of the machine BENCHMARKS.md measures on), each shard on
# one core (GOMAXPROCS=1), then merges them, as a cluster of P one-core
# nodes would; the merged output goes to stdout. For BENCHMARKS.md's
# sharded workload:
#
#   scripts/shards.sh N [P] COMMAND [FLAGS...]
#   scripts/shards.sh 4 2 bench --rules super --strategy knuth,entropy
#
# MASTERMIND names the binary (default: mastermind on PATH).
set -euo pipefail
if [ $# -lt 3 ]; then
	sed -n '2,10s/^# \{0,1\}//p' "$0" >&2
	exit 2
fi
n=$1 p=$2
shift 2
bin=${MASTERMIND:-mastermind}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
seq 0 $((n - 1)) | GOMAXPROCS=1 xargs -P "$p" -I {} "$bin" "$@" --shard {}/"$n" --out "$dir/part-{}.json"
"$bin" merge "$dir"
