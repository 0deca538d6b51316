package k8s

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decode reads the YAML documents of file strictly into objs, in order: a
// field the Kubernetes API does not have is an error.
func decode(t *testing.T, file string, objs ...any) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	docs := regexp.MustCompile(`(?m)^---\s*$`).Split(string(b), -1)
	if len(docs) != len(objs) {
		t.Fatalf("%s has %d documents; want %d", file, len(docs), len(objs))
	}
	for i, doc := range docs {
		if err := yaml.UnmarshalStrict([]byte(doc), objs[i]); err != nil {
			t.Fatalf("%s, document %d: %v", file, i+1, err)
		}
	}
}

// flag returns the value of --name in args, written --name=V or --name V.
func flag(args []string, name string) (string, bool) {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
		if a == "--"+name && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// manifests are the objects of shards.yaml and merge.yaml.
type manifests struct {
	pvc           corev1.PersistentVolumeClaim
	shards, merge batchv1.Job
}

func read(t *testing.T) *manifests {
	t.Helper()
	var m manifests
	decode(t, "shards.yaml", &m.pvc, &m.shards)
	decode(t, "merge.yaml", &m.merge)
	return &m
}

// TestManifests checks that the manifests are what the Kubernetes API
// reads, and that their fields fit together: an Indexed Job of N pods each
// running a shard of N, writing to the volume that the merge reads, as the
// Dockerfile's user.
func TestManifests(t *testing.T) {
	m := read(t)
	if m.pvc.Kind != "PersistentVolumeClaim" || m.shards.Kind != "Job" || m.merge.Kind != "Job" {
		t.Fatalf("kinds %s, %s, %s; want PersistentVolumeClaim, Job, Job", m.pvc.Kind, m.shards.Kind, m.merge.Kind)
	}
	if !slices.Contains(m.pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Errorf("the results volume is %v; the shards' pods and the merge's may run on different nodes: want ReadWriteMany", m.pvc.Spec.AccessModes)
	}
	js := m.shards.Spec
	if js.CompletionMode == nil || *js.CompletionMode != batchv1.IndexedCompletion {
		t.Fatalf("the shards' Job is not Indexed: completionMode %v", js.CompletionMode)
	}
	if js.Completions == nil || js.Parallelism == nil || *js.Parallelism > *js.Completions {
		t.Fatalf("completions %v, parallelism %v", js.Completions, js.Parallelism)
	}
	n := int(*js.Completions)
	if js.BackoffLimitPerIndex == nil {
		t.Error("no backoffLimitPerIndex: a failed shard would not be retried alone")
	}
	for _, job := range []*batchv1.Job{&m.shards, &m.merge} {
		pod := job.Spec.Template.Spec
		if pod.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("%s: restartPolicy %q; want Never", job.Name, pod.RestartPolicy)
		}
		if len(pod.Containers) != 1 {
			t.Fatalf("%s: %d containers; want 1", job.Name, len(pod.Containers))
		}
		sc := pod.SecurityContext
		if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser != 65532 {
			t.Errorf("%s: the pods do not run as the image's user 65532", job.Name)
		}
		if len(pod.Volumes) != 1 || pod.Volumes[0].PersistentVolumeClaim == nil || pod.Volumes[0].PersistentVolumeClaim.ClaimName != m.pvc.Name {
			t.Errorf("%s: volumes %+v; want the claim %s", job.Name, pod.Volumes, m.pvc.Name)
		}
		c := pod.Containers[0]
		if c.Image != m.shards.Spec.Template.Spec.Containers[0].Image {
			t.Errorf("%s runs %s; the shards %s", job.Name, c.Image, m.shards.Spec.Template.Spec.Containers[0].Image)
		}
		if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].Name != pod.Volumes[0].Name {
			t.Errorf("%s: mounts %+v", job.Name, c.VolumeMounts)
		}
	}
	shard := m.shards.Spec.Template.Spec.Containers[0]
	mount := shard.VolumeMounts[0].MountPath
	if count, ok := flag(shard.Args, "shard-count"); !ok || count != strconv.Itoa(n) {
		t.Errorf("the shards run --shard-count %q; the Job has %d completions", count, n)
	}
	if _, ok := flag(shard.Args, "shard"); ok {
		t.Error("the shards give --shard, which would win over JOB_COMPLETION_INDEX")
	}
	out, ok := flag(shard.Args, "out")
	if !ok || !strings.HasPrefix(out, mount+"/") || !strings.Contains(out, "%k") {
		t.Errorf("the shards write --out %q; want a file of each shard's own (%%k) under %s", out, mount)
	}
	merge := m.merge.Spec.Template.Spec.Containers[0]
	if len(merge.Args) < 2 || merge.Args[0] != "merge" || merge.Args[len(merge.Args)-1] != merge.VolumeMounts[0].MountPath {
		t.Errorf("the merge runs %q; want merge of the volume's directory", merge.Args)
	}
	if m.merge.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != m.shards.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName {
		t.Error("the merge reads another volume than the shards write")
	}
}

// TestDockerfile checks the image the manifests run: a static binary of
// the command, on distroless or scratch, as the user the pods run as. No
// Docker engine runs the build here; TestPods runs the binary built the
// same way.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var froms []string
	for _, line := range strings.Split(string(b), "\n") {
		if f, ok := strings.CutPrefix(line, "FROM "); ok {
			froms = append(froms, strings.Fields(f)[0])
		}
	}
	if len(froms) < 2 {
		t.Fatalf("stages %v; want a build stage and a final one", froms)
	}
	if last := froms[len(froms)-1]; last != "scratch" && !strings.HasPrefix(last, "gcr.io/distroless/static") {
		t.Errorf("the image is built on %s; want distroless/static or scratch", last)
	}
	for _, want := range []string{"CGO_ENABLED=0 go build", "./cmd/mastermind", "USER 65532:65532", `ENTRYPOINT ["/usr/local/bin/mastermind"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the Dockerfile lacks %q", want)
		}
	}
}

// TestPods builds the command as the Dockerfile does (TestImageBuild
// checks that it is static) and runs the pods' command lines as the pods would — shard K
// with JOB_COMPLETION_INDEX=K and no other environment, then the merge —
// with the volume a directory here; the merge prints what the whole job
// prints.
func TestPods(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the manifest's whole job")
	}
	m := read(t)
	dir := t.TempDir()
	bin, ok := buildImage(t).files["/usr/local/bin/mastermind"]
	if !ok {
		t.Fatal("the image has no /usr/local/bin/mastermind")
	}

	results := filepath.Join(dir, "results")
	if err := os.Mkdir(results, 0o755); err != nil {
		t.Fatal(err)
	}
	shard := m.shards.Spec.Template.Spec.Containers[0]
	volume := func(args []string, mount string) []string {
		out := slices.Clone(args)
		for i, a := range out {
			out[i] = strings.ReplaceAll(a, mount, results)
		}
		return out
	}
	run := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("mastermind %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
		}
		return out.String()
	}
	args := volume(shard.Args, shard.VolumeMounts[0].MountPath)
	for k := range int(*m.shards.Spec.Completions) {
		if out := run([]string{fmt.Sprintf("JOB_COMPLETION_INDEX=%d", k)}, args...); out != "" {
			t.Errorf("pod %d printed %q; its partial goes to the volume", k, out)
		}
	}
	merge := m.merge.Spec.Template.Spec.Containers[0]
	merged := run(nil, volume(merge.Args, merge.VolumeMounts[0].MountPath)...)

	var whole []string
	for _, a := range shard.Args {
		if !strings.HasPrefix(a, "--shard-count") && !strings.HasPrefix(a, "--out") {
			whole = append(whole, a)
		}
	}
	want := run(nil, whole...)
	untimed := regexp.MustCompile(`(?m)^seconds.*$`)
	if g, w := untimed.ReplaceAllString(merged, ""), untimed.ReplaceAllString(want, ""); g != w || len(w) < 100 {
		t.Errorf("the merge prints\n%s\nthe whole job\n%s", merged, want)
	}
}
