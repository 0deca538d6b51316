#!/usr/bin/env bash
# measure.sh runs the measurements recorded in BENCHMARKS.md: the Go
# benchmarks of the hot paths and whole-command timings with hyperfine
# (Debian's hyperfine package). Run it on a quiet machine; it takes about
# an hour with the long optimal searches and the record trees made afresh,
# a few minutes with --quick.
#
#   scripts/measure.sh [--quick] > measurements.txt
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
quick=false
[ "${1:-}" = "--quick" ] && quick=true

dir=$(mktemp -d)
bin=$dir/mastermind
go build -o "$dir/" ./cmd/...
CGO_ENABLED=0 go build -o "$dir/static/" ./cmd/mastermind
# The yardstick of start-up: a Go hello world built the same way.
mkdir -p "$dir/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello, world") }\n' > "$dir/hello/main.go"
printf 'module hello\n\ngo 1.26.0\n' > "$dir/hello/go.mod"
(cd "$dir/hello" && go build -o hello .)
mm() { "$bin" "$@"; }

echo "# $(date -u +%Y-%m-%d) $(go version) $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"

echo "## go test -bench"
go test -run XXX -bench 'Score|Count|Split|Filter' -count 5 . | grep -E '^Benchmark'
go test -run XXX -bench 'Tree' -count 5 ./eval | grep -E '^Benchmark'
go test -run XXX -bench 'FirstGuess' -count 3 ./strategy | grep -E '^Benchmark'
GOMAXPROCS=1 go test -run XXX -bench 'SolveCold' -count 5 ./exact | grep -E '^Benchmark'
go test -run XXX -bench '^BenchmarkSample$' -count 5 ./large | grep -E '^Benchmark'

echo "## whole commands (hyperfine: mean ± σ, median)"
hf() {
	hyperfine -N --warmup "$1" --runs "$2" --export-json /tmp/hf.json "${@:3}" >/dev/null
	python3 - <<'EOF'
import json
for r in json.load(open('/tmp/hf.json'))['results']:
    print(f"{r['command']}: median {r['median']*1000:.1f} ms, mean {r['mean']*1000:.1f} ± {r['stddev']*1000:.1f} ms, min {r['min']*1000:.1f} ms ({len(r['times'])} runs)")
EOF
}
hf 5 100 "$dir/hello/hello" "$bin score 1122 1234" "$dir/static/mastermind score 1122 1234"
hf 3 30 "$bin bench --all --strategy knuth"
hf 3 30 "$bin bench"
hf 1 10 "$bin bench --colors 10 --pegs 4 --strategy knuth" "$bin bench --colors 6 --pegs 5 --strategy knuth"
hf 1 10 "$bin bench --colors 10 --pegs 4 --strategy knuth --workers 1" "$bin bench --colors 10 --pegs 4 --strategy knuth --workers 2"
hf 1 5 "$bin bench --colors 8 --pegs 5 --strategy knuth" "$bin bench --colors 8 --pegs 5 --strategy expected-size" \
	"$bin bench --colors 8 --pegs 5 --strategy entropy" "$bin bench --colors 8 --pegs 5 --strategy most-parts"
hf 2 10 "$bin bench --strategy optimal" "$bin bench --strategy optimal --max-depth 5"

echo "## auto on large spaces, one game at a time (grid: mean seconds per game in the last column)"
for n in 10 12 15; do
	mm grid --pegs $n --colors $n --games 20 --workers 1 --strategy auto | tail -1
done
$quick || mm grid --pegs 20 --colors 20 --games 5 --workers 1 --strategy auto | tail -1

if ! $quick; then
	echo "## long searches (one run each)"
	# One thread (the yardstick's way) and both cores, for the speed-up.
	for args in "--colors 6 --pegs 4" "--colors 7 --pegs 4" "--rules bulls-cows" "--colors 8 --pegs 4" "--colors 9 --pegs 4 --distinct"; do
		for procs in 1 2; do
			GOMAXPROCS=$procs /usr/bin/time -f "GOMAXPROCS=$procs bench $args --strategy optimal: %e s wall, %U s user, %S s system, %M KiB" \
				"$bin" bench $args --strategy optimal --csv
		done
	done
	echo "## the records, made afresh"
	/usr/bin/time -f "8x5 record: %e s wall, %U s user, %M KiB" "$bin" tree --rules logik --strategy deep --effort record --no-book --format json | cmp - <(gzip -dc records/8x5-deep.json.gz)
	/usr/bin/time -f "6x6 record: %e s wall, %U s user, %M KiB" "$bin" tree --colors 6 --pegs 6 --strategy deep --effort record --no-book --format json | cmp - <(gzip -dc records/6x6-deep.json.gz)
fi

echo "## game server: /api/stats at a million games, and guesses under load (three runs of each, in turn)"
go test -run XXX -bench Stats -benchtime 200x -count 5 ./internal/store | grep -E '^Benchmark'
srv=$(mktemp -d)/server.test
go test -c -o "$srv" ./internal/server
for run in 1 2 3; do
	for args in "-load.stats=0 -load.hints=0" "" "-load.follow"; do
		echo "TestLoad -load.guesses=20000 $args"
		"$srv" -test.run TestLoad -test.count=1 -test.v -load.guesses=20000 $args | grep -E 'durable|meanwhile'
	done
done
