package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
)

// A fitsJournal keeps a row's search of whether some strategy keeps to L
// guesses (exact.FitsJournal) in fits-L.json of the row's partial
// directory: the parts of first guesses found to fit, the second guesses
// refuted on a part, the first guesses beaten, the answer once found, and
// the CPU and wall seconds of every run. The file is written whole or not
// at all after each step, so a run stopped midway loses only the step
// under way.
type fitsJournal struct {
	path  string
	rules mm.Rules
	limit int
	// The journals of the row's searches of least totals: a unit they
	// solved within this limit fits.
	known []*fileJournal

	mu    sync.Mutex
	list  fitsList
	clock runClock
}

type fitsList struct {
	Rules rulesJSON `json:"rules"`
	Limit int       `json:"limit"`
	// Fits is the answer, once found.
	Fits    *bool       `json:"fits,omitempty"`
	Fit     []fitsEntry `json:"fit"`
	Refuted []fitsEntry `json:"refuted"`
	Beaten  []string    `json:"beaten"`
	// The CPU and wall seconds of the search, over all its runs.
	CPUSeconds  float64 `json:"cpu_seconds,omitempty"`
	WallSeconds float64 `json:"wall_seconds,omitempty"`
}

// A fitsEntry names the part of the codes that give Black and White to
// Guess and, for a refutation, the second guess Next.
type fitsEntry struct {
	Guess string `json:"guess"`
	Black int    `json:"black"`
	White int    `json:"white"`
	Next  string `json:"next,omitempty"`
}

// openFitsJournal returns the journal of r's search within limit guesses
// in dir, with what earlier runs kept there.
func openFitsJournal(dir string, r mm.Rules, limit int, known []*fileJournal) (*fitsJournal, error) {
	j := &fitsJournal{path: filepath.Join(dir, fmt.Sprintf("fits-%d.json", limit)), rules: r.WithDefaults(), limit: limit, known: known,
		list: fitsList{Rules: toRulesJSON(r), Limit: limit, Fit: []fitsEntry{}, Refuted: []fitsEntry{}, Beaten: []string{}}}
	b, err := os.ReadFile(j.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal(b, &j.list); err != nil {
			return nil, fmt.Errorf("%s: %w", j.path, err)
		}
		if j.list.Rules != toRulesJSON(j.rules) || j.list.Limit != limit {
			return nil, fmt.Errorf("%s is the journal of %+v within %d guesses, not of %v within %d", j.path, j.list.Rules, j.list.Limit, j.rules, limit)
		}
	}
	j.clock = startClock(j.list.CPUSeconds, j.list.WallSeconds)
	return j, nil
}

// Answer returns the answer an earlier run found, if any.
func (j *fitsJournal) Answer() (fits, known bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.list.Fits == nil {
		return false, false
	}
	return *j.list.Fits, true
}

// Answered keeps the answer.
func (j *fitsJournal) Answered(fits bool) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list.Fits = &fits
	return j.save()
}

func partEntry(g mm.Code, f mm.Feedback) fitsEntry {
	return fitsEntry{Guess: g.String(), Black: f.Black, White: f.White}
}

func (j *fitsJournal) Fits(g mm.Code, f mm.Feedback) bool {
	for _, k := range j.known {
		for _, u := range k.listed(g, f) {
			if 1+u.Depth <= j.limit {
				return true
			}
		}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Contains(j.list.Fit, partEntry(g, f))
}

func (j *fitsJournal) Fit(g mm.Code, f mm.Feedback) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list.Fit = append(j.list.Fit, partEntry(g, f))
	return j.save()
}

func (j *fitsJournal) Refuted(g mm.Code, f mm.Feedback, g2 mm.Code) bool {
	e := partEntry(g, f)
	e.Next = g2.String()
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Contains(j.list.Refuted, e)
}

func (j *fitsJournal) Refute(g mm.Code, f mm.Feedback, g2 mm.Code) error {
	e := partEntry(g, f)
	e.Next = g2.String()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list.Refuted = append(j.list.Refuted, e)
	return j.save()
}

func (j *fitsJournal) Beaten(g mm.Code) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Contains(j.list.Beaten, g.String())
}

func (j *fitsJournal) Beat(g mm.Code) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list.Beaten = append(j.list.Beaten, g.String())
	return j.save()
}

// Steps returns how many steps the journal keeps: parts found to fit,
// second guesses refuted and first guesses beaten.
func (j *fitsJournal) Steps() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.list.Fit) + len(j.list.Refuted) + len(j.list.Beaten)
}

// Record keeps the time spent so far.
func (j *fitsJournal) Record() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.save()
}

// Seconds returns the CPU and wall seconds of the search, over all its
// runs, this one until its last save.
func (j *fitsJournal) Seconds() (cpu, wall float64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.list.CPUSeconds, j.list.WallSeconds
}

// save writes the list, with the time spent so far; j.mu is held.
func (j *fitsJournal) save() error {
	if err := os.MkdirAll(filepath.Dir(j.path), 0o755); err != nil {
		return err
	}
	j.list.CPUSeconds, j.list.WallSeconds = j.clock.now(j.list.CPUSeconds)
	b, err := json.MarshalIndent(j.list, "", " ")
	if err != nil {
		return err
	}
	return writeBytes(j.path, append(b, '\n'))
}

var _ exact.FitsJournal = (*fitsJournal)(nil)

// A runClock counts the seconds of a search over its runs: those of the
// runs before (the base) and this run's since it started.
type runClock struct {
	cpuBase, wallBase float64
	cpu0              time.Duration
	cpuKnown          bool
	wall0             time.Time
}

// startClock starts this run's clock over the base seconds.
func startClock(cpu, wall float64) runClock {
	c := runClock{cpuBase: cpu, wallBase: wall, wall0: time.Now()}
	c.cpu0, c.cpuKnown = cpuTime()
	return c
}

// now returns the CPU and wall seconds so far; the CPU seconds are last,
// those last saved, where the process's CPU time is not known.
func (c runClock) now(last float64) (cpu, wall float64) {
	wall = c.wallBase + time.Since(c.wall0).Seconds()
	cpu = last
	if t, ok := cpuTime(); ok && c.cpuKnown {
		cpu = c.cpuBase + (t - c.cpu0).Seconds()
	}
	return cpu, wall
}
