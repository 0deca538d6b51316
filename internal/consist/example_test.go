package consist_test

import (
	"context"
	"errors"
	"fmt"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/consist"
)

func Example() {
	var g, h mm.Code
	_ = g.UnmarshalText([]byte("1122"))
	_ = h.UnmarshalText([]byte("3345"))
	turns := []mm.Turn{
		{Guess: g, Feedback: mm.Feedback{Black: 1, White: 0}},
		{Guess: h, Feedback: mm.Feedback{Black: 0, White: 2}},
	}
	ctx := context.Background()

	// One code that fits both answers.
	c, err := consist.Find(ctx, mm.Classic, turns, 0, nil)
	fmt.Println(err, mm.Score(c, g), mm.Score(c, h))

	// Every code that fits: asked for more, Sample returns them all.
	all, err := consist.Sample(ctx, mm.Classic, turns, 1000, 0, nil)
	fmt.Println(len(all), err)

	// A history no code fits.
	turns = append(turns, mm.Turn{Guess: g, Feedback: mm.Feedback{Black: 4}})
	_, err = consist.Find(ctx, mm.Classic, turns, 0, nil)
	fmt.Println(errors.Is(err, mm.ErrInconsistent))
	// Output:
	// <nil> 1 0 0 2
	// 54 <nil>
	// true
}
