// Package k8s holds the Kubernetes manifests that run a mastermind job in
// shards (shards.yaml, an Indexed Job) and merge them (merge.yaml), and a
// test that reads them with the Kubernetes API's own types and runs the
// pods' command lines as the pods would.
//
// It is a module of its own, so that the Kubernetes API packages the test
// reads the manifests with stay out of the toolkit's dependencies; run its
// test from this directory: go test ./...
package k8s
