package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
// tree before the list that names it.
type fileJournal struct {
	dir   string
	rules mm.Rules
	limit int

	mu   sync.Mutex
	list journalList
}

type journalList struct {
	Rules  rulesJSON     `json:"rules"`
	Limit  int           `json:"limit"`
	Units  []journalUnit `json:"units"`
	Beaten []string      `json:"beaten"`
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
// dir, with what an earlier run kept there.
func openJournal(dir string, r mm.Rules, limit int) (*fileJournal, error) {
	j := &fileJournal{dir: dir, rules: r.WithDefaults(), limit: limit,
		list: journalList{Rules: toRulesJSON(r), Limit: limit, Units: []journalUnit{}, Beaten: []string{}}}
	b, err := os.ReadFile(j.path())
	if errors.Is(err, os.ErrNotExist) {
		return j, os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &j.list); err != nil {
		return nil, fmt.Errorf("%s: %w", j.path(), err)
	}
	if j.list.Rules != toRulesJSON(r) || j.list.Limit != limit {
		return nil, fmt.Errorf("%s is the journal of %+v within %d guesses, not of %v within %d", j.path(), j.list.Rules, j.list.Limit, r, limit)
	}
	return j, nil
}

func (j *fileJournal) path() string {
	return filepath.Join(j.dir, fmt.Sprintf("journal-%d.json", j.limit))
}

// Units returns how many units the journal lists.
func (j *fileJournal) Units() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.list.Units)
}

func (j *fileJournal) Unit(g mm.Code, f mm.Feedback) (exact.Unit, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, u := range j.list.Units {
		if u.Guess != g.String() || u.Black != f.Black || u.White != f.White {
			continue
		}
		fh, err := os.Open(filepath.Join(j.dir, u.File))
		if err != nil {
			return exact.Unit{}, false // solved again
		}
		defer fh.Close()
		rf, err := records.Read(fh, nil)
		if err != nil {
			return exact.Unit{}, false // solved again
		}
		if total, depth := rf.Tree.Cost(); total != u.Total || depth != u.Depth {
			return exact.Unit{}, false // the tree is not the one listed: solved again
		}
		return exact.Unit{Guess: g, Feedback: f, Total: u.Total, Depth: u.Depth, Tree: rf.Tree}, true
	}
	return exact.Unit{}, false
}

func (j *fileJournal) Solved(u exact.Unit) error {
	name := fmt.Sprintf("%d-%s-%db%dw.json.gz", j.limit, u.Guess, u.Feedback.Black, u.Feedback.White)
	var buf bytes.Buffer
	if err := records.WriteOptimumTree(&buf, records.NewFile(j.rules, "optimal", nil, u.Tree)); err != nil {
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
	for _, b := range j.list.Beaten {
		if b == g.String() {
			return true
		}
	}
	return false
}

func (j *fileJournal) Beat(g mm.Code) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list.Beaten = append(j.list.Beaten, g.String())
	return j.save()
}

// save writes the list; j.mu is held.
func (j *fileJournal) save() error {
	b, err := json.MarshalIndent(j.list, "", " ")
	if err != nil {
		return err
	}
	return writeBytes(j.path(), append(b, '\n'))
}

// writeBytes writes the file name whole or not at all.
func writeBytes(name string, b []byte) error {
	return shard.WriteAtomic(name, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
