package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
	"github.com/mastermind-toolkit/mastermind/records"
)

// A fileJournal keeps an exact search by first guess (exact.Journal) in a
// directory, so that optima resumes a row where it was stopped: the file
// journal-L.json lists the units solved and the first guesses beaten
// within L guesses (0: no limit), and each unit's tree is a file of its
// own, L-GUESS-BbWw.json.gz. Every file is written whole or not at all, the
// tree before the list that names it. Shard K of a search shared out
// (optima --shard) keeps its own list, journal-L.shard-K.json, and every
// process reads the lists of the others as well as its own.
type fileJournal struct {
	dir   string
	rules mm.Rules
	limit int
	own   string // the file of the list this process writes
	// The journals of the same row's looser searches (no limit, or a
	// higher one): a unit they solved within this one's limit is solved
	// here too, and every unit they solved costs here at least as much.
	// Their trees are of any worst case within their limits, as the
	// searches within a limit ask (exact.Options.AnyWorstCase).
	looser []*fileJournal

	mu     sync.Mutex
	list   journalList // what this process keeps, or read from own
	others journalList // the other lists, as last read
	clock  runClock    // from the list's seconds when opened
}

type journalList struct {
	Rules  rulesJSON     `json:"rules"`
	Limit  int           `json:"limit"`
	Units  []journalUnit `json:"units"`
	Beaten []string      `json:"beaten"`
	// The CPU and wall seconds the processes that kept this list spent
	// on the search, over all their runs.
	CPUSeconds  float64 `json:"cpu_seconds,omitempty"`
	WallSeconds float64 `json:"wall_seconds,omitempty"`
}

type journalUnit struct {
	Guess string `json:"guess"`
	Black int    `json:"black"`
	White int    `json:"white"`
	Total int    `json:"total"`
	Depth int    `json:"depth"`
	File  string `json:"file"`
}

// openJournal returns the journal of r's search within limit guesses in
// dir, with what earlier runs kept there: shard is the process's shard, or
// -1 for a whole run.
func openJournal(dir string, r mm.Rules, limit, shard int) (*fileJournal, error) {
	own := fmt.Sprintf("journal-%d.json", limit)
	if shard >= 0 {
		own = fmt.Sprintf("journal-%d.shard-%d.json", limit, shard)
	}
	j := &fileJournal{dir: dir, rules: r.WithDefaults(), limit: limit, own: own, list: j0(r, limit)}
	if err := j.read(own, &j.list); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	j.clock = startClock(j.list.CPUSeconds, j.list.WallSeconds)
	return j, j.Refresh()
}

// j0 is the empty list of r's search within limit.
func j0(r mm.Rules, limit int) journalList {
	return journalList{Rules: toRulesJSON(r), Limit: limit, Units: []journalUnit{}, Beaten: []string{}}
}

// read reads the list in file name of dir into l.
func (j *fileJournal) read(name string, l *journalList) error {
	path := filepath.Join(j.dir, name)
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, l); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if l.Rules != toRulesJSON(j.rules) || l.Limit != j.limit {
		return fmt.Errorf("%s is the journal of %+v within %d guesses, not of %v within %d", path, l.Rules, l.Limit, j.rules, j.limit)
	}
	return nil
}

// Refresh reads again the lists of the other processes of the search.
func (j *fileJournal) Refresh() error {
	names, err := filepath.Glob(filepath.Join(j.dir, fmt.Sprintf("journal-%d.shard-*.json", j.limit)))
	if err != nil {
		return err
	}
	names = append(names, filepath.Join(j.dir, fmt.Sprintf("journal-%d.json", j.limit)))
	others := j0(j.rules, j.limit)
	for _, path := range names {
		name := filepath.Base(path)
		if name == j.own {
			continue
		}
		var l journalList
		if err := j.read(name, &l); errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
		others.Units = append(others.Units, l.Units...)
		others.Beaten = append(others.Beaten, l.Beaten...)
		others.CPUSeconds += l.CPUSeconds
		others.WallSeconds += l.WallSeconds
	}
	j.mu.Lock()
	j.others = others
	j.mu.Unlock()
	return nil
}

// Units returns how many units the journal lists, its own and the other
// processes' as last read.
func (j *fileJournal) Units() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	seen := map[journalUnit]bool{}
	for _, u := range slices.Concat(j.list.Units, j.others.Units) {
		seen[journalUnit{Guess: u.Guess, Black: u.Black, White: u.White}] = true
	}
	return len(seen)
}

// Kept returns how many units this process's own list holds.
func (j *fileJournal) Kept() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.list.Units)
}

func (j *fileJournal) Unit(g mm.Code, f mm.Feedback) (exact.Unit, bool) {
	if u, ok := j.solved(g, f); ok {
		return u, true
	}
	return j.fromLooser(g, f)
}

// fromLooser returns the unit of the codes that give f to g if a looser
// search solved it within this one's limit: its least total there is the
// least within this limit too, its tree keeping to the limit (the first
// guess and the unit's depth after it). The looser searches were done
// before this one began, so every process of it finds the same.
func (j *fileJournal) fromLooser(g mm.Code, f mm.Feedback) (exact.Unit, bool) {
	for _, l := range j.looser {
		if u, ok := l.solved(g, f); ok && 1+u.Depth <= j.limit {
			return u, true
		}
	}
	return exact.Unit{}, false
}

// solved returns the unit of the codes that give f to g if this search
// solved it, by this process or another, with its tree.
func (j *fileJournal) solved(g mm.Code, f mm.Feedback) (exact.Unit, bool) {
	for _, u := range j.listed(g, f) {
		// A tree file missing, unreadable or not the one listed leaves
		// the unit to the next list that has it, or to be solved again.
		if t, ok := j.tree(u); ok {
			return exact.Unit{Guess: g, Feedback: f, Total: u.Total, Depth: u.Depth, Tree: t}, true
		}
	}
	return exact.Unit{}, false
}

// Floor returns the greatest total the looser searches list for the
// unit (exact.Floorer): within a limit it costs at least that. A total
// is the result of a search whether or not its tree file is at hand.
func (j *fileJournal) Floor(g mm.Code, f mm.Feedback) (int, bool) {
	v, ok := 0, false
	for _, l := range j.looser {
		for _, u := range l.listed(g, f) {
			if !ok || u.Total > v {
				v, ok = u.Total, true
			}
		}
	}
	return v, ok
}

// listed returns the entries of the unit of the codes that give f to g in
// the lists of this search, this process's and the others'.
func (j *fileJournal) listed(g mm.Code, f mm.Feedback) []journalUnit {
	guess := g.String()
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []journalUnit
	for _, u := range slices.Concat(j.list.Units, j.others.Units) {
		if u.Guess == guess && u.Black == f.Black && u.White == f.White {
			out = append(out, u)
		}
	}
	return out
}

// tree reads the tree file of u, if it is the one listed.
func (j *fileJournal) tree(u journalUnit) (*mm.Tree, bool) {
	fh, err := os.Open(filepath.Join(j.dir, u.File))
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	rf, err := records.Read(fh, nil)
	if err != nil {
		return nil, false
	}
	if total, depth := rf.Tree.Cost(); total != u.Total || depth != u.Depth {
		return nil, false
	}
	return rf.Tree, true
}

func (j *fileJournal) Solved(u exact.Unit) error {
	name := fmt.Sprintf("%d-%s-%db%dw.json.gz", j.limit, u.Guess, u.Feedback.Black, u.Feedback.White)
	var buf bytes.Buffer
	if err := records.WriteOptimumTree(&buf, records.NewFile(j.rules, "optimal", nil, u.Tree)); err != nil {
		return err
	}
	if err := os.MkdirAll(j.dir, 0o755); err != nil {
		return err
	}
	if err := writeBytes(filepath.Join(j.dir, name), buf.Bytes()); err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	entry := journalUnit{Guess: u.Guess.String(), Black: u.Feedback.Black, White: u.Feedback.White, Total: u.Total, Depth: u.Depth, File: name}
	for i, v := range j.list.Units {
		if v.Guess == entry.Guess && v.Black == entry.Black && v.White == entry.White {
			j.list.Units[i] = entry // solved again: its file was missing or not the one listed
			return j.save()
		}
	}
	j.list.Units = append(j.list.Units, entry)
	return j.save()
}

func (j *fileJournal) Beaten(g mm.Code) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Contains(j.list.Beaten, g.String()) || slices.Contains(j.others.Beaten, g.String())
}

func (j *fileJournal) Beat(g mm.Code) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list.Beaten = append(j.list.Beaten, g.String())
	return j.save()
}

// Record keeps in the list the time spent on the search so far.
func (j *fileJournal) Record() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.save()
}

// Seconds returns the CPU and wall seconds that every process spent on
// the search, this one until its last save: the walls of processes that
// ran side by side add up.
func (j *fileJournal) Seconds() (cpu, wall float64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.list.CPUSeconds + j.others.CPUSeconds, j.list.WallSeconds + j.others.WallSeconds
}

// save writes the list, with the time spent so far; j.mu is held.
func (j *fileJournal) save() error {
	if err := os.MkdirAll(j.dir, 0o755); err != nil {
		return err
	}
	j.list.CPUSeconds, j.list.WallSeconds = j.clock.now(j.list.CPUSeconds)
	b, err := json.MarshalIndent(j.list, "", " ")
	if err != nil {
		return err
	}
	return writeBytes(filepath.Join(j.dir, j.own), append(b, '\n'))
}

// writeBytes writes the file name whole or not at all.
func writeBytes(name string, b []byte) error {
	return shard.WriteAtomic(name, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
