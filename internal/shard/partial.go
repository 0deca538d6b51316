package shard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
)

// Format names the layout of partial results; a change that older merges
// cannot read changes it.
const Format = "mastermind-partial/1"

// A Partial is what a shard writes: the job it is part of and the results
// of its units.
type Partial struct {
	Format  string `json:"format"`
	Toolkit string `json:"toolkit"` // the version of mastermind that wrote it (Toolkit)
	Command string `json:"command"` // bench, tree, openings or grid
	// Settings are the command's flags that shape the result, as
	// flag → value: the rules, the strategies, the games, their settings.
	Settings map[string]string `json:"settings"`
	Shard    Spec              `json:"shard"`
	// Inputs is the SHA-256 of everything above but the shard's index,
	// and of the plan and units below: the same in every shard of a job.
	Inputs string `json:"inputs"`
	// Plan is the command's plan of the job, the same in every shard.
	Plan json.RawMessage `json:"plan"`
	// Units are every unit of the job, numbered from 0, with their
	// estimated cost and the shard that runs them.
	Units []Unit `json:"units"`
	// Results are the results of the shard's units, in unit order; after
	// Collect, of every unit.
	Results []Result `json:"results"`
}

// A Unit is a piece of work of a job.
type Unit struct {
	Cost  int64 `json:"cost"`
	Shard int   `json:"shard"`
}

// A Result is what a unit computed.
type Result struct {
	Unit    int             `json:"unit"`
	Seconds float64         `json:"seconds"` // wall time of the unit
	Data    json.RawMessage `json:"data"`
}

// Toolkit returns the version of mastermind this binary was built from:
// the module's version and, when the build recorded them, the commit and
// whether the tree was modified. Partials of one job must agree on it.
func Toolkit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && !strings.Contains(v, s.Value[:min(12, len(s.Value))]):
			v += " commit " + s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			v += " modified"
		}
	}
	return v
}

// NewPartial returns the partial of shard sp of a job of command with
// settings, whose plan is plan and whose units cost costs; the units are
// dealt to the shards by Assign. The results are still to add.
func NewPartial(command string, settings map[string]string, sp Spec, plan any, costs []int64) (*Partial, error) {
	raw, err := json.Marshal(plan)
	if err != nil {
		return nil, err
	}
	p := &Partial{Format: Format, Toolkit: Toolkit(), Command: command, Settings: settings, Shard: sp, Plan: raw}
	for u, k := range Assign(costs, sp.Count) {
		p.Units = append(p.Units, Unit{Cost: costs[u], Shard: k})
	}
	p.Inputs, err = p.hash()
	return p, err
}

// SetToolkit replaces the version of mastermind the partial names, before
// any result is added: a command whose units' results do not depend on
// the version (bound's, which are numbers that any correct version
// computes alike) names the version of its plan instead, so that the
// shards of a long job may run, and resume, on builds of different
// commits.
func (p *Partial) SetToolkit(v string) error {
	p.Toolkit = v
	var err error
	p.Inputs, err = p.hash()
	return err
}

// Mine returns the units of the partial's shard, in order.
func (p *Partial) Mine() []int {
	var out []int
	for u, x := range p.Units {
		if x.Shard == p.Shard.Index {
			out = append(out, u)
		}
	}
	return out
}

// Add records the result of unit u, in unit order: data marshalled to
// JSON, and the seconds it took.
func (p *Partial) Add(u int, seconds float64, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	r := Result{Unit: u, Seconds: seconds, Data: raw}
	k, found := slices.BinarySearchFunc(p.Results, u, func(r Result, u int) int { return r.Unit - u })
	if found {
		return fmt.Errorf("shard: two results of unit %d", u)
	}
	p.Results = slices.Insert(p.Results, k, r)
	return nil
}

// hash returns the content hash of the job's inputs: every field but the
// shard's index, the hash itself and the results.
func (p *Partial) hash() (string, error) {
	var plan bytes.Buffer
	if err := json.Compact(&plan, p.Plan); err != nil {
		return "", err
	}
	b, err := json.Marshal(struct {
		Format, Toolkit, Command string
		Settings                 map[string]string
		Count                    int
		Plan                     json.RawMessage
		Units                    []Unit
	}{p.Format, p.Toolkit, p.Command, p.Settings, p.Shard.Count, plan.Bytes(), p.Units})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Write writes p as one line of JSON.
func Write(w io.Writer, p *Partial) error {
	return json.NewEncoder(w).Encode(p)
}

// WriteFile writes p to the file name: first to a temporary file beside
// it, flushed to disk, then renamed, so that the file is either absent or
// complete, whenever the shard is killed.
func WriteFile(name string, p *Partial) error {
	if err := WriteAtomic(name, func(w io.Writer) error { return Write(w, p) }); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}

// WriteAtomic writes the file name with write: first to a temporary file
// beside it, flushed to disk, then renamed, so that the file is either as
// it was or complete, whenever the process is killed.
func WriteAtomic(name string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	// Readable by the merge, which may run as another user.
	if err := f.Chmod(0o644); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := write(f); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := os.Rename(f.Name(), name); err != nil {
		return err
	}
	// Make the rename itself durable; not every system can sync a
	// directory, and the file is complete either way.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Read reads a partial written by Write and checks its content hash.
func Read(r io.Reader) (*Partial, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var p Partial
	if err := dec.Decode(&p); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, errors.New("not a whole partial result: it ends too soon")
		}
		return nil, fmt.Errorf("not a partial result: %w", err)
	}
	if p.Format != Format {
		return nil, fmt.Errorf("not a partial result of this mastermind: format %q, want %q", p.Format, Format)
	}
	if dec.More() {
		return nil, errors.New("not a partial result: more follows the result")
	}
	if _, err := check(p.Shard, "shard"); err != nil {
		return nil, err
	}
	h, err := p.hash()
	if err != nil {
		return nil, fmt.Errorf("not a partial result: %w", err)
	}
	if h != p.Inputs {
		return nil, errors.New("its content hash does not match its contents: it was changed after the shard wrote it")
	}
	return &p, nil
}

// ReadFile reads the partial in the file name.
func ReadFile(name string) (*Partial, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// Collect reads the partials in files and checks that they are every
// shard of one job, once each, with the results of exactly their units.
// It returns the job's partial with the results of every unit, in unit
// order, and an error naming the file or shard at fault otherwise: a file
// that is not a whole partial, one of another job (other command, flags,
// version or plan), a shard given twice, a shard missing.
func Collect(files []string) (*Partial, error) {
	if len(files) == 0 {
		return nil, errors.New("no partial results given")
	}
	ps := make([]*Partial, len(files))
	for i, name := range files {
		p, err := ReadFile(name)
		if err != nil {
			return nil, err
		}
		ps[i] = p
		if err := sameJob(files[0], ps[0], name, p); err != nil {
			return nil, err
		}
	}
	first := ps[0]
	n := first.Shard.Count
	byShard := make([]int, n)
	for i := range byShard {
		byShard[i] = -1
	}
	for i, p := range ps {
		k := p.Shard.Index
		if j := byShard[k]; j >= 0 {
			return nil, fmt.Errorf("%s and %s are both shard %v", files[j], files[i], p.Shard)
		}
		byShard[k] = i
	}
	var missing []int
	for k, i := range byShard {
		if i < 0 {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shard %s of %d missing: rerun it with --shard %d/%d (or its array task) and merge again",
			runs(missing), n, missing[0], n)
	}
	out := *first
	out.Shard = Spec{Index: 0, Count: n}
	out.Results = make([]Result, len(first.Units))
	seen := make([]bool, len(first.Units))
	for i, p := range ps {
		for _, r := range p.Results {
			switch {
			case r.Unit < 0 || r.Unit >= len(seen):
				return nil, fmt.Errorf("%s: a result of unit %d, which the job does not have", files[i], r.Unit)
			case first.Units[r.Unit].Shard != p.Shard.Index:
				return nil, fmt.Errorf("%s: shard %v has a result of unit %d, which is shard %d's", files[i], p.Shard, r.Unit, first.Units[r.Unit].Shard)
			case seen[r.Unit]:
				return nil, fmt.Errorf("%s: two results of unit %d", files[i], r.Unit)
			}
			seen[r.Unit] = true
			out.Results[r.Unit] = r
		}
	}
	for u, ok := range seen {
		if !ok {
			k := first.Units[u].Shard
			return nil, fmt.Errorf("%s: shard %d/%d lacks the result of its unit %d", files[byShard[k]], k, n, u)
		}
	}
	return &out, nil
}

// sameJob checks that partial q, read from file b, is of the same job as
// p, read from a.
func sameJob(a string, p *Partial, b string, q *Partial) error {
	switch {
	case p.Inputs == q.Inputs:
		return nil
	case p.Command != q.Command:
		return fmt.Errorf("%s is a shard of %s, and %s of %s", b, q.Command, a, p.Command)
	case p.Toolkit != q.Toolkit:
		return fmt.Errorf("%s was made by mastermind %s, and %s by %s: run every shard with one version", b, q.Toolkit, a, p.Toolkit)
	case p.Shard.Count != q.Shard.Count:
		return fmt.Errorf("%s is shard %v, of %d shards, and %s of %d", b, q.Shard, q.Shard.Count, a, p.Shard.Count)
	}
	keys := slices.Sorted(maps.Keys(p.Settings))
	for k := range q.Settings {
		if _, ok := p.Settings[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		v, ok := p.Settings[k]
		w, ok2 := q.Settings[k]
		switch {
		case !ok:
			return fmt.Errorf("%s has --%s %s, and %s does not: a shard of another job", b, k, w, a)
		case !ok2:
			return fmt.Errorf("%s has --%s %s, and %s does not: a shard of another job", a, k, v, b)
		case v != w:
			return fmt.Errorf("%s has --%s %s, and %s has %s: a shard of another job", b, k, w, a, v)
		}
	}
	return fmt.Errorf("%s has another plan of work than %s, with the same command and flags: were they built from the same source?", b, a)
}

// runs writes ascending numbers as a list in which three or more in a row
// are a range: "0, 2, 5–4095", so that a merge given one partial of
// thousands names the missing shards in a line.
func runs(ks []int) string {
	var parts []string
	for i := 0; i < len(ks); {
		j := i
		for j+1 < len(ks) && ks[j+1] == ks[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			parts = append(parts, fmt.Sprintf("%d–%d", ks[i], ks[j]))
		case j > i:
			parts = append(parts, fmt.Sprint(ks[i]), fmt.Sprint(ks[j]))
		default:
			parts = append(parts, fmt.Sprint(ks[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
