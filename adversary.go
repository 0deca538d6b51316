package mastermind

import "fmt"

// Evade returns the feedback that guess g gets from an adversary who
// holds no code and answers so as to keep as many members of s possible as
// it can, as cheating codemakers (Absurdle, cheatermind) do: the feedback
// of g's largest class in s, the first in (black, white) order on ties. A
// class of codes beats the win, so g wins only when it is the only member
// of s. Any code of s stays a secret consistent with every answer given.
func (s *Set) Evade(g Code) (Feedback, error) {
	p, err := s.EvadePart(g)
	return p.Feedback, err
}

// EvadePart is Evade, with the number of members that give the answer:
// the codes the adversary keeps. A caller that keeps them from turn to
// turn need not filter the set when they are all of it.
func (s *Set) EvadePart(g Code) (Part, error) {
	parts, err := s.Partition(g)
	if err != nil {
		return Part{}, err
	}
	if len(parts) == 0 {
		return Part{}, fmt.Errorf("%w: no code is left to answer %s", ErrInconsistent, g)
	}
	pegs := s.sp.rules.Pegs
	best := -1
	for i, p := range parts {
		if p.Feedback.Solved(pegs) && len(parts) > 1 {
			continue
		}
		if best < 0 || p.Count > parts[best].Count {
			best = i
		}
	}
	return parts[best], nil
}
