package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/examples/internal/proc"
)

// TestNewsSection: the news section shows each failure shape of the news
// error contract (news/README.md, "Errors"), golden in
// testdata/news.golden, with the figures of its insufficient_credits
// example.
//
// The section makes some 360 calls, 348 of them the successes that set its
// steps up (most spend an account's 1,000 credits): 6 to 8 s under -race,
// and over 30 s, the bound it had, on a loaded 2-core machine beside the
// module's other packages. The bound only ends a hang, so it is 3 minutes.
func TestNewsSection(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	lines, err := newsRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.String() + "\n")
	}
	proc.Golden(t, filepath.Join("testdata", "news.golden"), b.String(), *update)
	for _, want := range []string{
		`"retry_after_secs":394200,"credits":{"min":3,"max":3},"credits_limit":1000,"credits_used":1000,"credits_remaining":0}`,
		`Unknown parameter 'langauge'. Did you mean 'language'?`,
		`"partial":true`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the section does not show %s", want)
		}
	}
}
