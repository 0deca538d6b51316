package deep

import (
	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func init() {
	strategy.Register("deep", "the record strategy: exact where few codes are left, the best of the top entropy guesses played out above (--effort); past 2^20 codes, entropy with a win bonus from its book",
		func(o strategy.Options) mm.Strategy {
			return Strategy{Effort: Effort(o.Effort), Top: o.Top, Plies: o.Plies, Exact: o.Exact, NoBook: o.NoBook, Progress: o.Progress}
		})
}
