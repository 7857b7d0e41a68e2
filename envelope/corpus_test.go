package envelope_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// upstreamCase is one golden file of testdata/upstream: an error response
// (or a success) as a public API documents it, and what a zero Reader must
// make of it.
//
// The file is a wire transcript: comment lines starting with "#", the
// status line, the header fields, an empty line, the body (without the
// newline that ends it), then a line "-- want --" and the outcome as JSON.
type upstreamCase struct {
	name   string
	status int
	header http.Header
	body   []byte
	want   outcome
}

// outcome is what Read returned, in the terms the corpus checks: data, or
// the error's kind, code, message and wait in whole seconds.
type outcome struct {
	Data              bool   `json:"data,omitempty"`
	Kind              string `json:"kind,omitempty"`
	Code              string `json:"code,omitempty"`
	Message           string `json:"message,omitempty"`
	RetryAfterSeconds int64  `json:"retryAfterSeconds,omitempty"`
}

func loadUpstream(t testing.TB) []upstreamCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "upstream", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var cases []upstreamCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := parseUpstream(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		c.name = strings.TrimSuffix(filepath.Base(f), ".txt")
		cases = append(cases, c)
	}
	return cases
}

func parseUpstream(b []byte) (upstreamCase, error) {
	var c upstreamCase
	resp, want, ok := bytes.Cut(b, []byte("\n-- want --\n"))
	if !ok {
		return c, errors.New(`no "-- want --" line`)
	}
	if err := json.Unmarshal(want, &c.want); err != nil {
		return c, fmt.Errorf("want: %v", err)
	}
	for bytes.HasPrefix(resp, []byte("#")) {
		_, resp, _ = bytes.Cut(resp, []byte("\n"))
	}
	resp = append(resp, '\n')
	head, body, ok := bytes.Cut(resp, []byte("\n\n"))
	if !ok {
		return c, errors.New("no empty line after the header")
	}
	if len(body) > 0 {
		body = body[:len(body)-1] // the newline before "-- want --"
	}
	c.body = body
	sc := bufio.NewScanner(bytes.NewReader(head))
	sc.Scan()
	fields := strings.Fields(sc.Text())
	if len(fields) < 2 {
		return c, fmt.Errorf("status line %q", sc.Text())
	}
	status, err := strconv.Atoi(fields[1])
	if err != nil {
		return c, fmt.Errorf("status line %q", sc.Text())
	}
	c.status = status
	c.header = http.Header{}
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			return c, fmt.Errorf("header line %q", sc.Text())
		}
		c.header.Add(k, strings.TrimSpace(v))
	}
	return c, nil
}

// serve answers every request with c, as the upstream sent it.
func (c upstreamCase) serve(w http.ResponseWriter, _ *http.Request) {
	for k, vs := range c.header {
		if k == "Content-Length" {
			continue // the server counts the body itself
		}
		w.Header()[k] = vs
	}
	w.WriteHeader(c.status)
	w.Write(c.body)
}

func outcomeOf(err error) outcome {
	if err == nil {
		return outcome{Data: true}
	}
	var e *envelope.Error
	if !errors.As(err, &e) {
		return outcome{Kind: "not an *envelope.Error: " + err.Error()}
	}
	secs := int64(e.RetryAfter.Seconds())
	if e.RetryAfter%1e9 != 0 {
		secs++
	}
	return outcome{Kind: string(e.Kind), Code: e.Code, Message: e.Message, RetryAfterSeconds: secs}
}

// TestReadUpstreamCorpus reads the documented error responses of public
// APIs (testdata/upstream) through a zero Reader, over HTTP, into a
// map[string]any (a type that accepts any JSON): each must come back as the
// kind, code, message and wait its golden file names.
func TestReadUpstreamCorpus(t *testing.T) {
	for _, c := range loadUpstream(t) {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(c.serve))
			defer srv.Close()
			req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			var r envelope.Reader
			var v map[string]any
			got := outcomeOf(r.Do(req, &v))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUpstreamCorpusKinds keeps the corpus honest: every file names a kind
// the standard taxonomy has (or data), and the corpus is as large as the
// requirement it proves.
func TestUpstreamCorpusKinds(t *testing.T) {
	cases := loadUpstream(t)
	if len(cases) < 120 {
		t.Errorf("%d cases; the corpus needs at least 120", len(cases))
	}
	valid := map[string]bool{}
	for _, k := range []errkind.Kind{errkind.InvalidArguments, errkind.AuthenticationFailed, errkind.PermissionDenied, errkind.NotFound, errkind.Conflict, errkind.RateLimited, errkind.Unavailable, errkind.ServerError, errkind.MalformedResponse, errkind.NetworkError} {
		valid[string(k)] = true
	}
	for _, c := range cases {
		if c.want.Data != (c.want.Kind == "") || (!c.want.Data && !valid[c.want.Kind]) {
			t.Errorf("%s: want %+v names no kind of the standard taxonomy", c.name, c.want)
		}
	}
}
