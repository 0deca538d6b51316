package server

import "strings"

// message returns err's text for a client, without the "mastermind: "
// that the toolkit's errors start with for the command line: an API
// client reads "answer 2: no code …", not "mastermind: answer 2: …".
func message(err error) string {
	msg := strings.ReplaceAll(err.Error(), ": mastermind: ", ": ")
	return strings.TrimPrefix(msg, "mastermind: ")
}
