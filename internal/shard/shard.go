// Package shard splits the heavy jobs of the mastermind command into shards
// that a cluster engine runs apart — the tasks of a Slurm array job, the
// pods of a Kubernetes Indexed Job — and merges their partial results into
// exactly what one process prints. It schedules nothing: the engine starts
// the shards, and each works out its part alone.
//
// # Plans and units
//
// A job is cut into units of work, each with an estimate of its cost: the
// games of a strategy below one class of its first guess (or first two
// guesses), one first guess of an exact search, a range of sampled games,
// one cell of a grid. Every shard computes the same plan and Assign deals
// the units to the shards, the costliest first, each to the shard with the
// least work so far, so that the split is deterministic: each shard then
// runs its own units.
//
// # Partial results
//
// A shard writes a Partial: JSON with the command, the flags that shape its
// result (the rules and strategies among them), the toolkit's version, the
// shard K/N, the plan, a content hash of all of these, and the results of
// its units. WriteFile writes it under a temporary name and renames it when
// complete, so a shard killed midway leaves no file that Collect accepts;
// rerunning it completes the job.
//
// # Merging
//
// Collect reads the partials of a job and checks that they are of one job
// — the same command, flags, version and plan — and that every shard is
// there once, naming the file or shard that is not. Work.Report and
// Work.Tree then combine the units' results into what the whole run gives.
package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec names a shard: Index from 0 to Count-1.
type Spec struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s Spec) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// MaxCount is the most shards a job may be split into.
const MaxCount = 100_000

// Parse reads a shard written K/N, K from 0 to N-1.
func Parse(s string) (Spec, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	ki, err1 := strconv.Atoi(strings.TrimSpace(k))
	ni, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil {
		return Spec{}, fmt.Errorf("--shard %q: want K/N, shard K of N counting from 0, such as 0/4", s)
	}
	return check(Spec{ki, ni}, "--shard "+s)
}

// check validates sp, read from what.
func check(sp Spec, what string) (Spec, error) {
	if sp.Count < 1 || sp.Count > MaxCount {
		return Spec{}, fmt.Errorf("%s: want 1 to %d shards, not %d", what, MaxCount, sp.Count)
	}
	if sp.Index < 0 || sp.Index >= sp.Count {
		return Spec{}, fmt.Errorf("%s: shard %d of %d: want 0 to %d", what, sp.Index, sp.Count, sp.Count-1)
	}
	return sp, nil
}

// The environment variables that choose a shard when --shard is not given.
const (
	// SlurmID is the index of a task in a Slurm array job, and SlurmCount
	// the number of tasks; SlurmMin and SlurmMax are the least and the
	// greatest index of the array.
	SlurmID    = "SLURM_ARRAY_TASK_ID"
	SlurmCount = "SLURM_ARRAY_TASK_COUNT"
	SlurmMin   = "SLURM_ARRAY_TASK_MIN"
	SlurmMax   = "SLURM_ARRAY_TASK_MAX"
	// CompletionIndex is the index of a pod of a Kubernetes Indexed Job;
	// the count comes from --shard-count, as the pod does not see it.
	CompletionIndex = "JOB_COMPLETION_INDEX"
)

// Resolve returns the shard a command runs, and false when it runs whole.
// flag is --shard ("" if not given) and count --shard-count (0 if not
// given). --shard wins; without it a Slurm array task runs shard
// SLURM_ARRAY_TASK_ID of --shard-count, or of SLURM_ARRAY_TASK_COUNT for an
// array numbered from 0; without either, a Kubernetes Indexed Job's pod runs
// shard JOB_COMPLETION_INDEX of --shard-count. Reruns of some tasks of an
// array (sbatch --array=2) need --shard-count, since their array is not the
// whole job's.
func Resolve(flag string, count int, getenv func(string) string) (Spec, bool, error) {
	if count < 0 || count > MaxCount {
		return Spec{}, false, fmt.Errorf("--shard-count %d: want 1 to %d", count, MaxCount)
	}
	if flag != "" {
		sp, err := Parse(flag)
		if err != nil {
			return Spec{}, false, err
		}
		if count > 0 && count != sp.Count {
			return Spec{}, false, fmt.Errorf("--shard %s and --shard-count %d disagree", flag, count)
		}
		return sp, true, nil
	}
	if id := getenv(SlurmID); id != "" {
		k, err := envInt(SlurmID, id)
		if err != nil {
			return Spec{}, false, err
		}
		if count > 0 {
			sp, err := check(Spec{k, count}, fmt.Sprintf("%s=%d with --shard-count %d", SlurmID, k, count))
			return sp, err == nil, err
		}
		n, err := envInt(SlurmCount, getenv(SlurmCount))
		if err != nil {
			return Spec{}, false, err
		}
		lo, hi := getenv(SlurmMin), getenv(SlurmMax)
		if (lo != "" && lo != "0") || (hi != "" && hi != strconv.Itoa(n-1)) {
			return Spec{}, false, fmt.Errorf("the Slurm array runs tasks %s to %s, not 0 to %d: give --shard-count, the number of shards of the whole job", lo, hi, n-1)
		}
		sp, err := check(Spec{k, n}, fmt.Sprintf("%s=%d of %s=%d", SlurmID, k, SlurmCount, n))
		return sp, err == nil, err
	}
	if ix := getenv(CompletionIndex); ix != "" {
		k, err := envInt(CompletionIndex, ix)
		if err != nil {
			return Spec{}, false, err
		}
		if count == 0 {
			return Spec{}, false, fmt.Errorf("%s is set but not --shard-count: give the Job's completions", CompletionIndex)
		}
		sp, err := check(Spec{k, count}, fmt.Sprintf("%s=%d with --shard-count %d", CompletionIndex, k, count))
		return sp, err == nil, err
	}
	if count > 0 {
		return Spec{}, false, fmt.Errorf("--shard-count needs %s or %s in the environment; give --shard K/N instead", SlurmID, CompletionIndex)
	}
	return Spec{}, false, nil
}

func envInt(name, v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%q: want a number from 0", name, v)
	}
	return n, nil
}

// OutPath returns the file name that --out pattern gives shard sp: %k
// becomes its index, %n the count of shards, %% a percent sign, so that
// one command line serves every task of an array.
func OutPath(pattern string, sp Spec) (string, error) {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '%' {
			b.WriteByte(pattern[i])
			continue
		}
		if i+1 == len(pattern) {
			return "", fmt.Errorf("--out %q ends in %%: write %%%% for a percent sign", pattern)
		}
		i++
		switch pattern[i] {
		case 'k':
			b.WriteString(strconv.Itoa(sp.Index))
		case 'n':
			b.WriteString(strconv.Itoa(sp.Count))
		case '%':
			b.WriteByte('%')
		default:
			return "", fmt.Errorf("--out %q: %%%c means nothing; %%k is the shard, %%n the count, %%%% a percent sign", pattern, pattern[i])
		}
	}
	return b.String(), nil
}
