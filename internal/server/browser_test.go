package server_test

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// chromium is Debian's browser, which .ci/run installs.
const chromium = "/usr/bin/chromium"

// browser starts a headless chromium for the test, or skips the test if
// there is none; in CI (CI=true) a missing chromium fails the test.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("chromium not found at %s; CI must install it (apt-get install -y chromium): %v", chromium, err)
		}
		t.Skipf("chromium not found at %s; apt-get install -y chromium to run the browser test", chromium)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(900, 1100),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	return ctx
}

// TestBrowser plays a game to the end through the web page: the form
// filled with the server's defaults, a first guess by clicking pegs, a
// reload that keeps the game's token, a second tab that only watches, then
// the hint button until the code is found.
func TestBrowser(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	e := newEnv(t, func(s *server.Server) { s.Now, s.Defaults = nil, mm.Rules{Colors: 7, Pegs: 4} })
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	rows := func(n int) chromedp.Action[bool] {
		return chromedp.Poll[bool](fmt.Sprintf("document.querySelectorAll('#history tbody tr').length >= %d", n),
			chromedp.WithPollingTimeout(20*time.Second))
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.TextContent(css(sel)))
		if err != nil {
			t.Fatalf("reading %s: %v", sel, err)
		}
		return strings.TrimSpace(s)
	}

	err := chromedp.Do(ctx,
		chromedp.Navigate(e.URL+"/"),
		chromedp.WaitVisible(css("#start")),
	)
	if err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	// The form offers the server's defaults once it has read them.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("colors").value === "7"`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the form does not offer the server's 7 colours: %v", err)
	}
	err = chromedp.Do(ctx,
		chromedp.SetValue(css("#max-guesses"), "12"),
		chromedp.Click(css("#start")),
		chromedp.WaitVisible(css(`#palette button[data-color="5"]`)),
	)
	if err != nil {
		t.Fatalf("starting a game: %v", err)
	}
	if s := text("#rules-line"); !strings.Contains(s, "7 colours × 4 pegs") || !strings.Contains(s, "12 guesses") {
		t.Errorf("rules line %q; want 7 colours × 4 pegs and 12 guesses", s)
	}
	// 1122 by clicking the pegs, with a wrong one taken out again.
	err = chromedp.Do(ctx,
		chromedp.Click(css(`#palette button[data-color="0"]`)),
		chromedp.Click(css(`#palette button[data-color="0"]`)),
		chromedp.Click(css(`#palette button[data-color="3"]`)),
		chromedp.Click(css(`#current button[aria-label^="hole 3"]`)),
		chromedp.Click(css(`#palette button[data-color="1"]`)),
		chromedp.Click(css(`#palette button[data-color="1"]`)),
		chromedp.Click(css("#submit")),
	)
	if err != nil {
		t.Fatalf("first guess: %v", err)
	}
	if _, err := chromedp.Run(ctx, rows(1)); err != nil {
		t.Fatalf("waiting for the first guess in the history: %v", err)
	}
	if s := text("#history tbody tr:first-child td:nth-child(2) .code"); s != "1122" {
		t.Errorf("first guess on the board %q; want 1122", s)
	}
	checkTokenFlow(t, ctx, e)

	for n := 2; !strings.Contains(text("#status"), "You found it"); n++ {
		if n > 12 {
			t.Fatalf("not solved in 12 guesses; status %q", text("#status"))
		}
		err := chromedp.Do(ctx,
			chromedp.Click(css("#hint")),
			chromedp.WaitEnabled(css("#submit")),
			chromedp.Click(css("#submit")),
		)
		if err != nil {
			t.Fatalf("guess %d from a hint: %v", n, err)
		}
		if _, err := chromedp.Run(ctx, rows(n)); err != nil {
			t.Fatalf("waiting for guess %d in the history: %v", n, err)
		}
	}

	// The page and the store agree on the game, and the page shows the
	// secret now that the game is won.
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	id := loc[strings.LastIndex(loc, "#")+1:]
	g, err := e.store.Game(context.Background(), id, nil)
	if err != nil {
		t.Fatalf("the page's game %q: %v", id, err)
	}
	if g.Status != mm.Won {
		t.Errorf("game %s is %v; want won", id, g.Status)
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int]("document.querySelectorAll('#history tbody tr').length"))
	if err != nil || n != len(g.Turns) {
		t.Errorf("the board shows %d guesses, %v; the store has %d", n, err, len(g.Turns))
	}
	if s := text("#secret"); s != g.Secret.String() {
		t.Errorf("secret on the page %q; want %s", s, g.Secret)
	}
	if s := text("#status"); !strings.Contains(s, fmt.Sprintf("%d guesses", len(g.Turns))) && len(g.Turns) > 1 {
		t.Errorf("status %q; want it to say %d guesses", s, len(g.Turns))
	}
	// The coach weighs every guess once the game is over.
	coached := fmt.Sprintf(`!document.getElementById("coach").hidden && document.querySelectorAll("#coach-moves tbody tr").length === %d &&
		document.getElementById("coach-total").textContent.startsWith("In all your guesses")`, len(g.Turns))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](coached, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		total, _ := chromedp.Run(ctx, chromedp.TextContent(css("#coach-total")))
		t.Errorf("the coach after the game: %v (%q)", err, total)
	}
	disabled, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("document.getElementById('hint').disabled && document.getElementById('submit').disabled"))
	if err != nil || !disabled {
		t.Errorf("hint and guess buttons enabled after the end: %v", err)
	}
	if path := os.Getenv("MASTERMIND_SCREENSHOT"); path != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			err = os.WriteFile(path, png, 0o644)
		}
		if err != nil {
			t.Errorf("screenshot: %v", err)
		}
	}
}

// checkTokenFlow checks, in a game with one guess played, that the page
// keeps the game's token in sessionStorage, so that a reload plays on; that
// another tab, without it, only watches; and that the server refuses a
// guess without the token or sent as text/plain, as a page of another
// site would send it.
func checkTokenFlow(t *testing.T, ctx context.Context, e *env) {
	t.Helper()
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	id := loc[strings.LastIndex(loc, "#")+1:]
	token, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`sessionStorage.getItem("mastermind-token:%s") || ""`, id)))
	if err != nil || len(token) != 26 {
		t.Fatalf("token of game %s in sessionStorage: %q, %v; want 26 characters", id, token, err)
	}
	// A guess sent as text/plain, with the token, is refused.
	status, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`fetch("/api/games/%s/guesses", {method: "POST",
		headers: {"Content-Type": "text/plain", "Authorization": "Bearer %s"}, body: '{"guess":"1234"}'}).then(r => r.status)`, id, token),
		chromedp.EvalAwaitPromise))
	if err != nil || status != 415 {
		t.Errorf("a text/plain guess from the page: %d, %v; want 415", status, err)
	}

	// A reload plays on with the token.
	err = chromedp.Do(ctx, chromedp.Reload())
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('#history tbody tr').length === 1 &&
			!document.getElementById("hint").disabled`, chromedp.WithPollingTimeout(20*time.Second)))
	}
	if err != nil {
		t.Fatalf("reloading the page: %v", err)
	}
	title, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("#game-title")))
	if err != nil || title != "Your guess" {
		t.Errorf("after a reload the page says %q, %v; want Your guess", title, err)
	}

	// Another tab has no token: it watches.
	tab, closeTab := chromedp.NewContext(ctx)
	defer closeTab()
	err = chromedp.Do(tab, chromedp.Navigate(loc))
	if err == nil {
		_, err = chromedp.Run(tab, chromedp.Poll[bool](`document.querySelectorAll('#history tbody tr').length === 1`,
			chromedp.WithPollingTimeout(20*time.Second)))
	}
	if err != nil {
		t.Fatalf("opening the game in another tab: %v", err)
	}
	watching, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.getElementById("game-title").textContent === "Watching this game" &&
		document.getElementById("status").textContent.includes("watching") &&
		document.getElementById("hint").disabled && document.getElementById("submit").disabled &&
		[...document.querySelectorAll("#palette button")].every(b => b.disabled)`))
	if err != nil || !watching {
		status, _ := chromedp.Run(tab, chromedp.TextContent(chromedp.CSS("#status")))
		t.Errorf("the other tab plays (status %q, %v); want it to watch with its controls disabled", status, err)
	}
	status, err = chromedp.Run(tab, chromedp.Evaluate[int](fmt.Sprintf(`fetch("/api/games/%s/guesses", {method: "POST",
		headers: {"Content-Type": "application/json"}, body: '{"guess":"1234"}'}).then(r => r.status)`, id),
		chromedp.EvalAwaitPromise))
	if err != nil || status != 401 {
		t.Errorf("a guess without the token from the other tab: %d, %v; want 401", status, err)
	}
	g, err := e.store.Game(context.Background(), id, nil)
	if err != nil || len(g.Turns) != 1 {
		t.Errorf("after the refused guesses the game has %v turns, %v; want 1", len(g.Turns), err)
	}
}

// TestBrowserAdversaryHint starts an adversary game from the form, asks
// for a hint and then types a guess of its own, which replaces the hint
// rather than being dropped; the page's screenshot shows the pegs.
func TestBrowserAdversaryHint(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	e := newEnv(t, func(s *server.Server) { s.Now = nil })
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	err := chromedp.Do(ctx,
		chromedp.Navigate(e.URL+"/"),
		chromedp.WaitVisible(css("#start")),
		chromedp.Click(css("#adversary")),
		chromedp.Click(css("#start")),
		chromedp.WaitVisible(css(`#palette button[data-color="5"]`)),
	)
	if err != nil {
		t.Fatalf("starting an adversary game: %v", err)
	}
	if s, _ := chromedp.Run(ctx, chromedp.TextContent(css("#rules-line"))); !strings.Contains(s, "holds no code") {
		t.Errorf("rules line %q; want it to say the server holds no code", s)
	}
	current := `[...document.querySelectorAll("#current button")].map(b => b.dataset.color || "-").join("")`
	err = chromedp.Do(ctx, chromedp.Click(css("#hint")))
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](current+` === "0000"`, chromedp.WithPollingTimeout(20*time.Second)))
	}
	if err != nil {
		t.Fatalf("the hint 1111 in the current row: %v", err)
	}
	// Typed after the hint, 1234 replaces it.
	if err := chromedp.Do(ctx, chromedp.KeyEvent("1234")); err != nil {
		t.Fatal(err)
	}
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](current)); err != nil || got != "0123" {
		t.Fatalf("current row after typing 1234 over the hint: %q, %v; want 0123", got, err)
	}
	err = chromedp.Do(ctx, chromedp.Click(css("#submit")))
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('#history tbody tr').length === 1`,
			chromedp.WithPollingTimeout(20*time.Second)))
	}
	if err != nil {
		t.Fatalf("playing 1234: %v", err)
	}
	// The adversary keeps 312 codes with 0 black, 2 white.
	row, err := chromedp.Run(ctx, chromedp.TextContent(css("#history tbody tr:first-child")))
	if err != nil || !strings.Contains(row, "1234") || !strings.Contains(row, "0 black, 2 white") {
		t.Errorf("first row %q, %v; want 1234 answered 0 black, 2 white", row, err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	checkScreenshot(t, png, color.RGBA{0xe6, 0x19, 0x4b, 0xff}) // colour 1's red peg
}

// checkScreenshot decodes a PNG screenshot and checks that it shows a
// patch of colour c, as a drawn peg does.
func checkScreenshot(t *testing.T, data []byte, c color.RGBA) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r, c.R) && near(g, c.G) && near(bl, c.B) {
				n++
			}
		}
	}
	if n < 100 {
		t.Errorf("the screenshot (%v) has %d pixels of %v; want a peg's worth", b.Size(), n, c)
	}
}

func near(v uint32, want uint8) bool {
	d := int(v>>8) - int(want)
	return d >= -8 && d <= 8
}

// TestBrowserAssist follows a game on a real board through the assistant
// page: answers typed for the proposed guesses and for one of the
// person's own, an undo, the codes left shrinking to the code; then the
// solver is watched breaking a code of its own.
func TestBrowserAssist(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	e := newEnv(t, func(s *server.Server) { s.Now = nil })
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	eval := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return s
	}
	wait := func(js string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Fatalf("waiting for %s: %v (status %q)", js, err, eval(`document.getElementById("status").textContent`))
		}
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(e.URL+"/assist.html"),
		chromedp.WaitVisible(css("#start")),
		chromedp.Click(css("#start")),
	)
	if err != nil {
		t.Fatalf("starting the assistant: %v", err)
	}
	wait(`document.getElementById("proposal").textContent.includes("proposes 1111")`)
	if s := eval(`document.getElementById("left-count").textContent`); !strings.HasPrefix(s, "1296 codes") {
		t.Errorf("codes left at the start %q; want 1296", s)
	}
	secret, _ := mm.Classic.ParseCode("3632")
	answerWith := func(guess string) {
		t.Helper()
		c, err := mm.Classic.ParseCode(guess)
		if err != nil {
			t.Fatal(err)
		}
		f := mm.Score(secret, c)
		err = chromedp.Do(ctx,
			chromedp.SetValue(css("#guess"), guess),
			chromedp.SetValue(css("#black"), fmt.Sprint(f.Black)),
			chromedp.SetValue(css("#white"), fmt.Sprint(f.White)),
			chromedp.Click(css("#answer")),
		)
		if err != nil {
			t.Fatalf("answering %s: %v", guess, err)
		}
	}
	// The person's own first guess, then a wrong answer taken back.
	answerWith("1122")
	wait(`document.querySelectorAll("#answers tbody tr").length === 1 && document.getElementById("left-count").textContent.startsWith("256 codes")`)
	err = chromedp.Do(ctx,
		chromedp.SetValue(css("#guess"), "1344"),
		chromedp.SetValue(css("#black"), "4"),
		chromedp.Click(css("#answer")),
	)
	if err != nil {
		t.Fatal(err)
	}
	wait(`document.querySelectorAll("#answers tbody tr").length === 2`)
	if err := chromedp.Do(ctx, chromedp.Click(css("#undo"))); err != nil {
		t.Fatal(err)
	}
	wait(`document.querySelectorAll("#answers tbody tr").length === 1 && document.getElementById("left-count").textContent.startsWith("256 codes")`)
	// Then the proposals, answered, to the code.
	for n := 2; !strings.Contains(eval(`document.getElementById("proposal").textContent`), "Solved"); n++ {
		if n > 10 {
			t.Fatalf("not solved in 10 guesses: %s", eval(`document.getElementById("proposal").textContent`))
		}
		answerWith(eval(`document.getElementById("guess").value`))
		wait(fmt.Sprintf(`document.querySelectorAll("#answers tbody tr").length === %d`, n))
	}
	if s := eval(`document.getElementById("left-codes").textContent`); s != "3632" {
		t.Errorf("codes left at the end %q; want 3632", s)
	}

	// Watching the solver: it finds a code of its own, the count of codes
	// left falling on every row but the last, the code found.
	if err := chromedp.Do(ctx, chromedp.Click(css("#watch"))); err != nil {
		t.Fatal(err)
	}
	wait(`document.getElementById("status").textContent.includes("The solver found")`)
	lefts := eval(`[...document.querySelectorAll("#answers tbody tr td:last-child")].map(td => td.textContent).join(",")`)
	if path := os.Getenv("MASTERMIND_SCREENSHOT"); path != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			err = os.WriteFile(strings.TrimSuffix(path, ".png")+"-assist.png", png, 0o644)
		}
		if err != nil {
			t.Errorf("screenshot: %v", err)
		}
	}
	prev := 1297
	rowsLeft := strings.Split(lefts, ",")
	for i, s := range rowsLeft {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil || n > prev || (n == prev && i != len(rowsLeft)-1) || (i == len(rowsLeft)-1 && n != 1) {
			t.Errorf("codes left while watching %s; want them falling", lefts)
			break
		}
		prev = n
	}
}

// refusing answers some of the requests for the solver as a loaded server
// would, 429 or 503 with Retry-After: 1, and passes the others on.
type refusing struct {
	next    http.Handler
	mu      sync.Mutex
	n       map[string]int // requests seen, by path's last element
	refused map[string]int
	refuse  func(kind string, n int) bool
}

func (h *refusing) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	kind := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	h.mu.Lock()
	h.n[kind]++
	refuse := (kind == "hint" || kind == "assist") && h.refuse(kind, h.n[kind])
	if refuse {
		h.refused[kind]++
	}
	h.mu.Unlock()
	if !refuse {
		h.next.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Content-Type", "application/json")
	if kind == "hint" {
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintln(w, `{"error":"mastermind: your share of the solver is spent; hints come again in 1 s (guesses are not limited by it)"}`)
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprintln(w, `{"error":"mastermind: the solver is busy; try again"}`)
}

// A hint or an assist refused for now is asked for again once the
// server's Retry-After has passed, and the page says so meanwhile rather
// than stopping with the error (issue 46: Hint on a large board, and
// Watch the solver, stopped at the first 429).
func TestBrowserRetryAfter(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	e := newEnv(t, func(s *server.Server) { s.Now = nil })
	h := &refusing{next: e.handler, n: map[string]int{}, refused: map[string]int{}, refuse: func(kind string, n int) bool {
		if kind == "hint" {
			return n <= 2 // the first two
		}
		return n > 1 && n%3 == 0 // every third assist while watching
	}}
	ts := httptest.NewServer(h)
	defer ts.Close()
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	status := func() string {
		s, _ := chromedp.Run(ctx, chromedp.TextContent(css("#status")))
		return s
	}
	poll := func(js string) error {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(20*time.Second)))
		return err
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(css("#start")),
		chromedp.Click(css("#start")),
		chromedp.WaitVisible(css(`#palette button[data-color="5"]`)),
		chromedp.Click(css("#hint")),
	)
	if err != nil {
		t.Fatalf("asking for a hint: %v", err)
	}
	if err := poll(`document.getElementById("status").textContent.includes("Asking again in")`); err != nil {
		t.Errorf("a hint refused with Retry-After: status %q; want it to say it asks again: %v", status(), err)
	}
	if err := poll(`document.getElementById("status").textContent.includes("The solver suggests 1111")`); err != nil {
		t.Fatalf("a hint refused twice with Retry-After: 1: status %q; want the hint in the end: %v", status(), err)
	}

	err = chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/assist.html"),
		chromedp.WaitVisible(css("#watch")),
		chromedp.Click(css("#watch")),
	)
	if err != nil {
		t.Fatalf("watching the solver: %v", err)
	}
	if err := poll(`document.getElementById("status").textContent.includes("The solver found")`); err != nil {
		t.Fatalf("watching the solver with every third assist refused: status %q; want the code found: %v", status(), err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.refused["hint"] != 2 || h.refused["assist"] == 0 {
		t.Errorf("refused %d hints and %d assists; want 2 and some", h.refused["hint"], h.refused["assist"])
	}
}
