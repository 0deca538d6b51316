package server

import "strings"

// message returns err's text for a client: an error wrapped with what it
// is about names the toolkit once, at the start ("mastermind: answer 2:
// no code …", not "answer 2: mastermind: no code …").
func message(err error) string {
	msg := strings.ReplaceAll(err.Error(), ": mastermind: ", ": ")
	if !strings.HasPrefix(msg, "mastermind: ") {
		msg = "mastermind: " + msg
	}
	return msg
}
