package large

import (
	"math"
	"math/bits"
)

// Costs of the work Sampler counts against its budget, in nanoseconds on
// the project's 2-core machine, measured by the package's benchmarks (see
// BENCHMARKS.md), per elementary step of each kind:
const (
	// costRandom: a peg of a random code drawn and checked against a turn.
	costRandom = 1.5
	// costStep: a step of a walk, per word of a turn set it looks at;
	// costStepTurn: a step, per turn of the history, since the turns a
	// step updates grow with them. Measured on 2026-11-23 on histories of
	// 5 to 60 turns of 12 to 30 pegs (about 60 + 1.5·turns ns a step, up
	// to twice that late in real games, whose guesses resemble one
	// another).
	costStep     = 12
	costStepTurn = 3
	// costMove: a target looked at for one move of a guess, and
	// costMoveFixed: a move, whatever the targets. Re-measured on
	// 2026-11-23 by the thread's CPU time in BenchmarkGames (the machine
	// shared with other work, which slows a core's caches too): the climb
	// spent twice its budget at 8000 targets and three and a half times
	// at 325 with 1.6 and no fixed cost.
	costMove      = 3.4
	costMoveFixed = 700
	// costScore: a peg or a colour of a target scored against a guess.
	costScore = 1.0
	// costNode: a unit of Constraints.Cost, a node of a search;
	// costNodeTPK: a node, per turn and colour a position may still take
	// at the root, which Cost leaves out and which dominates on large
	// variants. Measured on 2026-11-23 on searches of histories of 5 to 60
	// random turns of 12 to 30 pegs: a node took 1.6 to 2.1 passes of
	// propagation, a pass about 1.2 ns a turn × peg × colour (5 to 118 µs a
	// node); late in real games, with fewer colours open, less.
	costNode    = 8.0
	costNodeTPK = 1.2
)

// meter counts the work of one guess in the units of the budget,
// nanoseconds on the reference machine, so that the amounts of work, and
// the guesses, depend on the budget and never on the clock: a game is
// reproducible from its seed whatever the machine's speed or load.
type meter struct {
	spent, budget float64
}

func (m *meter) spend(units float64) { m.spent += units }
func (m *meter) left() float64       { return m.budget - m.spent }

// share returns the units left times f, at least 0.
func (m *meter) share(f float64) float64 { return math.Max(0, m.left()*f) }

// nodeCost returns what a search of the constraints c costs a node.
func nodeCost(c *Constraints) float64 {
	open := 0 // the colours the positions may still take
	for _, d := range c.root.dom {
		open += bits.OnesCount64(d)
	}
	return costNode*float64(c.Cost()) + costNodeTPK*float64(c.turns*open)
}
