package k8s

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// An instruction is one line of a Dockerfile, continuation lines joined.
type instruction struct {
	line int    // where it starts, from 1
	op   string // upper case: FROM, RUN, COPY…
	args string
}

// A stage is the instructions from one FROM to the next.
type stage struct {
	from, name string
	ins        []instruction
}

// parseDockerfile reads the stages of a Dockerfile.
func parseDockerfile(text string) ([]stage, error) {
	var stages []stage
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		start := i + 1
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, `\`) + " " + strings.TrimSpace(lines[i])
		}
		op, args, _ := strings.Cut(l, " ")
		in := instruction{start, strings.ToUpper(op), strings.TrimSpace(args)}
		if in.op == "FROM" {
			f := strings.Fields(in.args)
			st := stage{from: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				st.name = f[2]
			}
			stages = append(stages, st)
			continue
		}
		if len(stages) == 0 {
			return nil, fmt.Errorf("line %d: %s before FROM", start, in.op)
		}
		stages[len(stages)-1].ins = append(stages[len(stages)-1].ins, in)
	}
	return stages, nil
}

// shellWords splits a RUN line as sh does for the plain words these lines
// use: blanks separate words, and single or double quotes keep blanks.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, c := range s {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.ContainsRune("|&;<>()$`\\*?", c):
			return nil, fmt.Errorf("%q: a shell feature the test does not run: %q", s, c)
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("%q: unbalanced quote", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// A goBuild is a RUN line of the Dockerfile's build stage that runs go
// build: its environment and its arguments after "go".
type goBuild struct {
	line int
	env  []string
	args []string
	out  string // the -o path in the build stage
}

// goBuilds returns the go build lines of stage st.
func goBuilds(st stage) ([]goBuild, error) {
	var out []goBuild
	for _, in := range st.ins {
		if in.op != "RUN" || !strings.Contains(in.args, "go build") {
			continue
		}
		words, err := shellWords(in.args)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", in.line, err)
		}
		b := goBuild{line: in.line}
		for len(words) > 0 && strings.Contains(words[0], "=") {
			b.env, words = append(b.env, words[0]), words[1:]
		}
		if len(words) < 2 || words[0] != "go" || words[1] != "build" {
			return nil, fmt.Errorf("line %d: %q: want [VAR=VALUE…] go build …", in.line, in.args)
		}
		b.args = words[1:]
		for i, w := range b.args {
			if w == "-o" && i+1 < len(b.args) {
				b.out = b.args[i+1]
			}
		}
		if b.out == "" {
			return nil, fmt.Errorf("line %d: go build without -o", in.line)
		}
		out = append(out, b)
	}
	return out, nil
}

// jsonArgs reads the exec form of ENTRYPOINT or CMD.
func jsonArgs(in instruction) ([]string, error) {
	var args []string
	if err := json.Unmarshal([]byte(in.args), &args); err != nil {
		return nil, fmt.Errorf("line %d: %s %s: want the exec form, a JSON list (distroless has no shell): %v", in.line, in.op, in.args, err)
	}
	return args, nil
}

// An image is what the Dockerfile's final stage holds, with its files
// built here: the path of each file of the image on this machine.
type image struct {
	files      map[string]string // image path → local path
	dirs       map[string]string // directories copied in, image path → local
	owned      map[string]bool   // image paths copied with --chown of the user
	user       string
	entrypoint []string
	cmd        []string
}

// local returns the path on this machine of a path in the image.
func (im *image) local(p string) (string, bool) {
	if l, ok := im.files[p]; ok {
		return l, true
	}
	for d, l := range im.dirs {
		if rest, ok := strings.CutPrefix(p, d+"/"); ok {
			return filepath.Join(l, rest), true
		}
	}
	return "", false
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

var built struct {
	dir  string
	once sync.Once
	im   *image
	err  error
}

// buildImage builds the Dockerfile's targets as its go build lines say,
// with the build stage's /out a directory here, and lays out the final
// stage's files; once for every test that needs it, since each link takes
// seconds.
func buildImage(t *testing.T) *image {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "mastermind-image"); built.err != nil {
			return
		}
		built.im, built.err = layOut(built.dir)
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.im
}

// layOut builds the image's files under dir.
func layOut(dir string) (*image, error) {
	b, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		return nil, err
	}
	stages, err := parseDockerfile(string(b))
	if err != nil {
		return nil, fmt.Errorf("Dockerfile: %v", err)
	}
	if len(stages) < 2 || stages[0].name == "" {
		return nil, fmt.Errorf("Dockerfile: stages %v; want a named build stage and a final one", stages)
	}
	build, final := stages[0], stages[len(stages)-1]
	builds, err := goBuilds(build)
	if err != nil {
		return nil, fmt.Errorf("Dockerfile: %v", err)
	}
	if len(builds) == 0 {
		return nil, fmt.Errorf("Dockerfile: the build stage runs no go build")
	}
	// The build stage's paths, as the build stage's own directory here.
	stageDir := filepath.Join(dir, "build")
	inStage := func(p string) string { return filepath.Join(stageDir, filepath.FromSlash(p)) }
	for _, in := range build.ins {
		if in.op == "RUN" && strings.HasPrefix(in.args, "mkdir -p ") {
			for _, p := range strings.Fields(strings.TrimPrefix(in.args, "mkdir -p ")) {
				if err := os.MkdirAll(inStage(p), 0o755); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, g := range builds {
		args := slices.Clone(g.args)
		for i, a := range args {
			if i > 0 && args[i-1] == "-o" {
				args[i] = inStage(a)
			}
		}
		cmd := exec.Command("go", args...)
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), g.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("Dockerfile:%d: go %s: %v\n%s", g.line, strings.Join(g.args, " "), err, out)
		}
	}
	im := &image{files: map[string]string{}, dirs: map[string]string{}, owned: map[string]bool{}}
	for _, in := range final.ins {
		switch in.op {
		case "COPY":
			f := strings.Fields(in.args)
			from, chown := "", ""
			for len(f) > 0 && strings.HasPrefix(f[0], "--") {
				if v, ok := strings.CutPrefix(f[0], "--from="); ok {
					from = v
				}
				if v, ok := strings.CutPrefix(f[0], "--chown="); ok {
					chown = v
				}
				f = f[1:]
			}
			if from != build.name || len(f) != 2 {
				return nil, fmt.Errorf("Dockerfile:%d: COPY %s: want one path from the %s stage", in.line, in.args, build.name)
			}
			src := inStage(f[0])
			fi, err := os.Stat(src)
			if err != nil {
				return nil, fmt.Errorf("Dockerfile:%d: the build stage has no %s", in.line, f[0])
			}
			if fi.IsDir() {
				im.dirs[f[1]] = src
			} else {
				im.files[f[1]] = src
			}
			im.owned[f[1]] = chown != ""
		case "USER":
			im.user = in.args
		case "ENTRYPOINT":
			if im.entrypoint, err = jsonArgs(in); err != nil {
				return nil, err
			}
		case "CMD":
			if im.cmd, err = jsonArgs(in); err != nil {
				return nil, err
			}
		}
	}
	return im, nil
}

// TestImageBuild checks what the Dockerfile's final stage holds, built as
// its go build lines say: both commands, static, side by side, so that the
// small one finds the full one.
func TestImageBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("links both commands")
	}
	im := buildImage(t)
	for _, p := range []string{"/usr/local/bin/mastermind", "/usr/local/bin/mastermind-full"} {
		l, ok := im.files[p]
		if !ok {
			t.Errorf("the image has no %s", p)
			continue
		}
		f, err := elf.Open(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range f.Progs {
			if pr.Type == elf.PT_INTERP {
				t.Errorf("%s needs a dynamic loader; distroless/static and scratch have none", p)
			}
		}
		if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
			t.Errorf("%s links %v", p, libs)
		}
		f.Close()
	}
	if len(im.entrypoint) != 1 || im.entrypoint[0] != "/usr/local/bin/mastermind" {
		t.Errorf("ENTRYPOINT %q; want the mastermind command alone, so that the pods' args are its arguments", im.entrypoint)
	}
	if im.user != "65532:65532" {
		t.Errorf("USER %q; want distroless's nonroot, 65532:65532", im.user)
	}
}

// TestImageServe runs the image's default command line against the
// commands built from the Dockerfile, as the container would: only the
// image's binaries on PATH, the database in the volume the image gives the
// user; the address is moved to a free port of the loopback. The server
// answers the API and the page, and stops on SIGTERM with status 0.
func TestImageServe(t *testing.T) {
	if testing.Short() {
		t.Skip("links both commands")
	}
	im := buildImage(t)
	args := slices.Concat(im.entrypoint, im.cmd)
	if len(args) < 2 || args[1] != "serve" {
		t.Fatalf("the image runs %q; want serve by default", args)
	}
	bin, ok := im.local(args[0])
	if !ok {
		t.Fatalf("the image has no %s", args[0])
	}
	// The database must lie in a directory copied in for the user.
	data := t.TempDir()
	for i := 2; i < len(args); i++ {
		switch args[i-1] {
		case "--addr":
			args[i] = "127.0.0.1:0"
		case "--db":
			dbDir := path.Dir(args[i])
			if _, ok := im.dirs[dbDir]; !ok || !im.owned[dbDir] {
				t.Errorf("--db %s: the image copies in no %s owned by its user, where the server may write", args[i], dbDir)
			}
			args[i] = filepath.Join(data, path.Base(args[i]))
		}
	}
	cmd := exec.Command(bin, args[1:]...)
	cmd.Env = []string{"PATH=" + filepath.Dir(bin)}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		first <- line
		io.Copy(io.Discard, stdout)
	}()
	var line string
	select {
	case line = <-first:
	case <-time.After(2 * time.Minute):
		t.Fatalf("mastermind %s said nothing in two minutes; stderr: %s", strings.Join(args[1:], " "), stderr.String())
	}
	rest, ok := strings.CutPrefix(line, "serving on ")
	if !ok {
		t.Fatalf("mastermind %s printed %q; want \"serving on URL …\"; stderr: %s", strings.Join(args[1:], " "), line, stderr.String())
	}
	url := strings.Fields(rest)[0]
	for _, p := range []string{"/api/config", "/"} {
		resp, err := http.Get(url + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || len(body) == 0 {
			t.Errorf("GET %s: %s, %d bytes", p, resp.Status, len(body))
		}
	}
	if _, err := os.Stat(filepath.Join(data, path.Base(im.cmd[len(im.cmd)-1]))); err != nil {
		t.Errorf("the database is not in the volume: %v", err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v; want exit status 0; stderr: %s", err, stderr.String())
	}
}

// TestParseDockerfile checks the reading of the lines the tests run.
func TestParseDockerfile(t *testing.T) {
	stages, err := parseDockerfile("# c\nFROM golang AS build\nRUN CGO_ENABLED=0 go build \\\n  -ldflags='-s -w' -o /out/x ./cmd/x\nFROM scratch\nCMD [\"a\"]\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(stages) != 2 || stages[0].name != "build" || stages[1].from != "scratch" {
		t.Fatalf("stages %+v", stages)
	}
	bs, err := goBuilds(stages[0])
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"build", "-ldflags=-s -w", "-o", "/out/x", "./cmd/x"}
	if len(bs) != 1 || !slices.Equal(bs[0].env, []string{"CGO_ENABLED=0"}) || !slices.Equal(bs[0].args, want) || bs[0].out != "/out/x" || bs[0].line != 3 {
		t.Errorf("goBuilds = %+v; want env CGO_ENABLED=0, args %q, line 3", bs, want)
	}
	for _, bad := range []string{"go build $X", "go build 'x", "go build && rm -rf /"} {
		if _, err := shellWords(bad); err == nil {
			t.Errorf("shellWords(%q) = nil error; want the test to refuse what it cannot run", bad)
		}
	}
}
