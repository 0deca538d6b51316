package main

// The tests build mastermind-full with go build (build, in main_test.go).
// Importing what it links makes go test compile those packages before
// this package's tests start, so that the go build inside them finds
// them in the build cache. Otherwise, on a cold cache, go test ./... runs
// these tests while it compiles SQLite for the packages that use it, and
// the go build here compiles SQLite a second time beside it: a minute of
// CPU. Only the test binary links them: TestLight checks that the
// command does not.
import (
	_ "github.com/mastermind-toolkit/mastermind/internal/chart/draw"
	_ "github.com/mastermind-toolkit/mastermind/internal/play"
	_ "github.com/mastermind-toolkit/mastermind/internal/server"
	_ "github.com/mastermind-toolkit/mastermind/internal/store"
)
