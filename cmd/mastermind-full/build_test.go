package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// binary is the mastermind command, built once for every test that runs it
// as a process: a link of it takes seconds of CPU, and several tests need it.
var binary struct {
	once sync.Once
	dir  string
	path string
	out  []byte
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binary.dir != "" {
		os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// buildBinary builds the mastermind command, once, and returns its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	binary.once.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		if binary.dir, binary.err = os.MkdirTemp("", "mastermind-full-test"); binary.err != nil {
			return
		}
		binary.path = filepath.Join(binary.dir, "mastermind")
		binary.out, binary.err = exec.Command(goBin, "build", "-o", binary.path, ".").CombinedOutput()
	})
	if binary.err != nil {
		t.Fatalf("go build: %v\n%s", binary.err, binary.out)
	}
	return binary.path
}
