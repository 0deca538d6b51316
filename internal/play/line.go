package play

import (
	"bufio"
	"context"
	"io"
	"strings"
)

// RunLines plays sess in plain line mode: it writes the session's lines to
// out and, after each prompt, reads one line from in, until the session is
// over. The end of in counts as "quit". With echo set, each line read is
// written after its prompt, so that out reads as a transcript when in is
// not a terminal.
//
// RunLines returns ctx's error as soon as ctx is done, even while the
// session is thinking; the session must not be used after that.
func RunLines(ctx context.Context, sess Session, in io.Reader, out io.Writer, echo bool) error {
	w := &lineWriter{w: out}
	w.lines(sess.Start())
	if w.err != nil {
		return w.err
	}
	input := make(chan string)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(input)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 4096), 1<<20)
		for sc.Scan() {
			select {
			case input <- sc.Text():
			case <-stop:
				return
			}
		}
	}()
	for !sess.Over() {
		w.text(sess.Prompt())
		if w.err != nil {
			return w.err
		}
		var line string
		var ok bool
		select {
		case <-ctx.Done():
			w.text("\n")
			return ctx.Err()
		case line, ok = <-input:
		}
		if !ok {
			line = "quit"
			w.text("\n")
		} else if echo {
			w.text(line + "\n")
		}
		reply := make(chan []Line, 1)
		go func() { reply <- sess.Do(line) }()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ls := <-reply:
			w.lines(ls)
		}
		if w.err != nil {
			return w.err
		}
	}
	return nil
}

// lineWriter writes text and keeps the first error.
type lineWriter struct {
	w   io.Writer
	err error
}

func (w *lineWriter) text(s string) {
	if w.err == nil {
		_, w.err = io.WriteString(w.w, s)
	}
}

// lines writes ls, each broken between words short of the 80th column,
// so that no line wraps on a terminal of 80 columns.
func (w *lineWriter) lines(ls []Line) {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(wordWrap(l.Text, lineWidth))
		b.WriteByte('\n')
	}
	w.text(b.String())
}

// lineWidth is the most columns a line of RunLines takes: a line that
// filled the 80th column would wrap on some terminals.
const lineWidth = 79
