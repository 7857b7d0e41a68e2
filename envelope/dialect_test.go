package envelope

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDialectRowsDocumented: every row of the dialect table names a case
// of testdata/upstream, and that case is read by that row, so a row is
// never added without its documented case.
func TestDialectRowsDocumented(t *testing.T) {
	for _, row := range dialects {
		if row.evidence == "" {
			t.Errorf("row %q names no documented case", row.name)
			continue
		}
		b, err := os.ReadFile(filepath.Join("testdata", "upstream", row.evidence+".txt"))
		if err != nil {
			t.Errorf("row %q: %v", row.name, err)
			continue
		}
		status, body := caseResponse(t, b)
		s := Shape{}.fill()
		top := scanTop(body, s.Key, '{')
		envelope := len(top.env) > 0 && top.env[0] == '{'
		d := &doc{root: body, status: status, spans: top}
		if err := d.load(); err != nil {
			t.Errorf("row %q: %s: %v", row.name, row.evidence, err)
			continue
		}
		got := rowFor(d, &s, envelope, status >= 400)
		if got == nil || got.name != row.name {
			t.Errorf("%s is read by %v, not by its row %q", row.evidence, got, row.name)
		}
	}
}

// caseResponse is the status and body of a case of testdata/upstream (see
// corpus_test.go for the format).
func caseResponse(t *testing.T, b []byte) (int, []byte) {
	t.Helper()
	resp, _, _ := bytes.Cut(b, []byte("\n-- want --\n"))
	for bytes.HasPrefix(resp, []byte("#")) {
		_, resp, _ = bytes.Cut(resp, []byte("\n"))
	}
	head, body, _ := bytes.Cut(append(resp, '\n'), []byte("\n\n"))
	line, _, _ := strings.Cut(string(head), "\n")
	fields := strings.Fields(line)
	if len(fields) < 2 {
		t.Fatalf("status line %q", line)
	}
	status, err := strconv.Atoi(fields[1])
	if err != nil {
		t.Fatalf("status line %q", line)
	}
	return status, bytes.TrimSuffix(body, []byte("\n"))
}
