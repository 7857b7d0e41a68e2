// Command modproxy writes a file-based Go module proxy (GOPROXY=file:///DIR)
// for modules of a git repository at one version: the .info, .mod and .zip of
// each, and its @v/list, as the public proxy would serve them once the tags
// are pushed.
//
//	modproxy -o DIR -v VERSION [-repo REPO] [-rev REV] MODDIR...
//
// MODDIR is a module's directory in the repository ("." for the root). Its
// files are those of git revision REV (a commit, tag or tree); without -rev,
// the module's release tag: VERSION for the root, MODDIR/VERSION for a nested
// module (Go's convention). The zip is made by golang.org/x/mod/zip from git's
// archive of that revision, as the go command makes it (and works in a git
// worktree, where zip.CreateFromVCS does not), so its hash is the one
// a consumer's go.sum will hold.
package main

import (
	stdzip "archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/zip"
)

func main() {
	out := flag.String("o", "", "the proxy directory to write (created if missing)")
	version := flag.String("v", "", "the version to write, such as v0.1.0")
	repo := flag.String("repo", ".", "the git repository")
	rev := flag.String("rev", "", "the git revision to read (default: each module's release tag)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: modproxy -o DIR -v VERSION [-repo REPO] [-rev REV] MODDIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || *version == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	for _, dir := range flag.Args() {
		line, err := write(*out, *repo, *rev, *version, dir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "modproxy: %s: %v\n", dir, err)
			os.Exit(1)
		}
		fmt.Println(line)
	}
}

// write writes the module in dir of repo at version into the proxy out and
// returns its go.sum line.
func write(out, repo, rev, version, dir string) (string, error) {
	dir = path.Clean(filepath.ToSlash(dir))
	subdir := dir
	if dir == "." {
		subdir = ""
	}
	if rev == "" {
		rev = tag(subdir, version)
	}
	gomod, err := git(repo, "show", rev+":"+path.Join(subdir, "go.mod"))
	if err != nil {
		return "", err
	}
	modPath := modfile.ModulePath(gomod)
	if modPath == "" {
		return "", errors.New("go.mod has no module line")
	}
	if err := module.Check(modPath, version); err != nil {
		return "", err
	}
	if subdir != "" && !strings.HasSuffix(modPath, "/"+subdir) {
		return "", fmt.Errorf("module %s does not end in its directory %s: the go command would not find it by the tag %s", modPath, subdir, tag(subdir, version))
	}
	escPath, err := module.EscapePath(modPath)
	if err != nil {
		return "", err
	}
	escVersion, err := module.EscapeVersion(version)
	if err != nil {
		return "", err
	}
	vdir := filepath.Join(out, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(vdir, 0o777); err != nil {
		return "", err
	}
	base := filepath.Join(vdir, escVersion)

	zipFile := base + ".zip"
	f, err := os.Create(zipFile)
	if err != nil {
		return "", err
	}
	files, err := gitFiles(repo, rev, subdir)
	if err == nil {
		err = zip.Create(f, module.Version{Path: modPath, Version: version}, files)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(base+".mod", gomod, 0o666); err != nil {
		return "", err
	}

	// The commit's time, as the public proxy gives it; a tree has none.
	when := time.Now().UTC()
	if t, err := git(repo, "log", "-1", "--format=%cI", rev); err == nil {
		if p, err := time.Parse(time.RFC3339, strings.TrimSpace(string(t))); err == nil {
			when = p.UTC()
		}
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, when})
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(base+".info", info, 0o666); err != nil {
		return "", err
	}
	if err := addToList(filepath.Join(vdir, "list"), version); err != nil {
		return "", err
	}

	sum, err := dirhash.HashZip(zipFile, dirhash.Hash1)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %s %s", modPath, version, sum), nil
}

// gitFiles lists the files of subdir at rev as the go command reads them to
// make a module zip (cmd/go/internal/modfetch): git's zip archive of the
// revision, and the repository's LICENSE for a nested module that has none.
// zip.Create leaves out what a module zip must not hold (nested modules,
// vendor directories). It does what zip.CreateFromVCS does, which refuses
// a git worktree.
func gitFiles(repo, rev, subdir string) ([]zip.File, error) {
	args := []string{"-c", "core.autocrlf=input", "-c", "core.eol=lf", "archive", "--format=zip", rev}
	if subdir != "" {
		args = append(args, subdir)
	}
	b, err := git(repo, args...)
	if err != nil {
		return nil, err
	}
	zr, err := stdzip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	var files []zip.File
	license := false
	for _, zf := range zr.File {
		name, ok := strings.CutPrefix(zf.Name, subdir)
		name = strings.TrimPrefix(name, "/")
		if !ok || name == "" || strings.HasSuffix(name, "/") {
			continue
		}
		files = append(files, archived{name, zf})
		license = license || name == "LICENSE"
	}
	if !license && subdir != "" {
		if b, err := git(repo, "cat-file", "blob", rev+":LICENSE"); err == nil {
			files = append(files, blob{"LICENSE", b})
		}
	}
	return files, nil
}

// archived is a file of git's archive.
type archived struct {
	name string
	f    *stdzip.File
}

func (a archived) Path() string                 { return a.name }
func (a archived) Lstat() (os.FileInfo, error)  { return a.f.FileInfo(), nil }
func (a archived) Open() (io.ReadCloser, error) { return a.f.Open() }

// blob is a file read whole from git.
type blob struct {
	name string
	data []byte
}

func (b blob) Path() string                 { return b.name }
func (b blob) Lstat() (os.FileInfo, error)  { return blobInfo(b), nil }
func (b blob) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b.data)), nil }

// blobInfo is a blob's os.FileInfo: a regular file of its size.
type blobInfo blob

func (i blobInfo) Name() string       { return path.Base(i.name) }
func (i blobInfo) Size() int64        { return int64(len(i.data)) }
func (i blobInfo) Mode() os.FileMode  { return 0o644 }
func (i blobInfo) ModTime() time.Time { return time.Time{} }
func (i blobInfo) IsDir() bool        { return false }
func (i blobInfo) Sys() any           { return nil }

// tag is the release tag of the module in subdir ("" for the root).
func tag(subdir, version string) string {
	if subdir == "" {
		return version
	}
	return subdir + "/" + version
}

// addToList adds version to the proxy's @v/list file, once.
func addToList(file, version string) error {
	b, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	versions := strings.Fields(string(b))
	if slices.Contains(versions, version) {
		return nil
	}
	versions = append(versions, version)
	return os.WriteFile(file, []byte(strings.Join(versions, "\n")+"\n"), 0o666)
}

// git runs git in repo and returns its standard output.
func git(repo string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = repo
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return b, nil
}
