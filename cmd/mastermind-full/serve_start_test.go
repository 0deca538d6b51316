package main

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A bad or busy --addr stops serve before it touches the database: no
// file is created, and nothing but the error is said.
func TestServeBadAddress(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, addr := range []string{busy.Addr().String(), "nonsense", "127.0.0.1:99999"} {
		dir := t.TempDir()
		_, stderr, err := runCmd(t, "", "serve", "--addr", addr, "--db", filepath.Join(dir, "games.db"))
		if err == nil || !strings.Contains(err.Error(), "listen") {
			t.Errorf("serve --addr %s: %v; want a listen error", addr, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("serve --addr %s left %s in the database's directory; want nothing", addr, entries[0].Name())
		}
		if stderr != "" {
			t.Errorf("serve --addr %s logged %q; want nothing", addr, stderr)
		}
	}
}

// One server per database, whatever the path: a second serve through a
// symbolic link or (on Linux) a hard link to the first one's database
// stops at once, saying the database is in use.
func TestServeOnePerDatabaseFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	serveInProcess(t, "--db", db)
	links := map[string]func(old, new string) error{filepath.Join(t.TempDir(), "symlink.db"): os.Symlink}
	if runtime.GOOS == "linux" {
		links[filepath.Join(t.TempDir(), "hardlink.db")] = os.Link
	}
	for link, makeLink := range links {
		if err := makeLink(db, link); err != nil {
			t.Fatal(err)
		}
		_, _, err := runCmd(t, "", "serve", "--addr", "127.0.0.1:0", "--db", link)
		if err == nil || !strings.Contains(err.Error(), "in use by another server") {
			t.Errorf("serve --db %s, a link to a database in use: %v; want an error saying it is in use", link, err)
		}
	}
}
