package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// run runs a command in dir with env added, failing the test on an error.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// The proxy serves what the go command accepts as the tagged modules: each
// module's files and no nested module's, the root's LICENSE in a nested
// module without one, and a zip whose hash is the go.sum line write returns,
// as go mod download computes it.
func TestProxyServesTheTags(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	files := map[string]string{
		"go.mod":         "module example.com/r\n\ngo 1.25\n",
		"r.go":           "package r\n",
		"LICENSE":        "the license\n",
		"sub/go.mod":     "module example.com/r/sub\n\ngo 1.25\n",
		"sub/sub.go":     "package sub\n",
		"sub/testdata/x": "data\n",
	}
	for name, text := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	git := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid"}
	run(t, repo, git, "git", "init", "-q")
	run(t, repo, git, "git", "add", "-A")
	run(t, repo, git, "git", "commit", "-q", "-m", "one")
	run(t, repo, git, "git", "tag", "v0.1.0")
	run(t, repo, git, "git", "tag", "sub/v0.1.0")

	proxy := t.TempDir()
	sums := map[string]string{}
	for _, dir := range []string{".", "sub"} {
		line, err := write(proxy, repo, "", "v0.1.0", dir)
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		sums[f[0]] = f[2]
	}

	cache := t.TempDir()
	env := []string{"GOWORK=off", "GOFLAGS=-modcacherw", "GOMODCACHE=" + cache, "GOPROXY=file://" + filepath.ToSlash(proxy), "GONOSUMDB=example.com", "GONOSUMCHECK=1", "GOSUMDB=off"}
	out := run(t, t.TempDir(), env, "go", "mod", "download", "-json", "example.com/r@v0.1.0", "example.com/r/sub@v0.1.0")
	got := map[string]string{}
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var m struct{ Path, Sum, Dir string }
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		got[m.Path] = m.Sum
		var names []string
		filepath.WalkDir(m.Dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(m.Dir, p)
				names = append(names, filepath.ToSlash(rel))
			}
			return err
		})
		want := map[string][]string{
			"example.com/r":     {"LICENSE", "go.mod", "r.go"},
			"example.com/r/sub": {"LICENSE", "go.mod", "sub.go", "testdata/x"},
		}[m.Path]
		if diff := cmp.Diff(want, names); diff != "" {
			t.Errorf("%s's files (-want +got):\n%s", m.Path, diff)
		}
	}
	if diff := cmp.Diff(sums, got); diff != "" {
		t.Errorf("go.sum hashes: write's (-) and go mod download's (+):\n%s", diff)
	}
}
