package store

import mm "github.com/mastermind-toolkit/mastermind"

// CodesOf returns set in the compact form that the store keeps of an
// adversary game's codes, for tests that fill a database directly.
func CodesOf(set *mm.Set) []byte { return codeSetOf(set) }
