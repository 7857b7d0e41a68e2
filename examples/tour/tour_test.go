package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/vexlo/mcpserver"
)

// TestVexloSection: the vexlo section shows the Vexlo error contract's nine
// kinds, the MCP layer's two text shapes and the two answers that are data.
func TestVexloSection(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lines, err := vexloTour(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lines {
		if !slices.Contains(got, l.Kind) {
			got = append(got, l.Kind)
		}
		if l.Move == "" || l.Text == "" {
			t.Errorf("%+v", l)
		}
	}
	want := []string{"(rejected arguments)", "(unknown tool)", "(data)",
		string(errkind.AuthenticationFailed), string(mcpserver.WrongRole), string(errkind.NotFound),
		string(errkind.InvalidArguments), string(mcpserver.TooManyValuesRequested), string(errkind.RateLimited),
		string(errkind.ServerError), string(errkind.MalformedResponse), string(errkind.NetworkError)}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kinds shown (-want +got):\n%s", diff)
	}
}

// TestVexloTiming: the vexlo section waits exactly once, the one retry of
// "the 21st call in a second" after its Retry-After of 1 s, and shows its
// rows in a few seconds: no earlier call may drain the demo token's
// bucket, or the burst spends hidden 1 s retries before its own. The one other second
// is the upstream that hangs until its 1 s deadline.
func TestVexloTiming(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var mu sync.Mutex
	var waits []time.Duration
	sleep := func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		select {
		case <-time.After(d):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	start := time.Now()
	lines, err := vexloRun(ctx, sleep)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]time.Duration{time.Second}, waits); diff != "" {
		t.Errorf("retry waits (-want +got):\n%s", diff)
	}
	var burst *Line
	for i := range lines {
		if lines[i].Shape == "the 21st call in a second" {
			burst = &lines[i]
		}
	}
	if burst == nil || burst.Kind != string(errkind.RateLimited) {
		t.Errorf("the 21st call: %+v", burst)
	}
	// 1 s of retry, 1 s of deadline, and the calls themselves. A retry the
	// section should not make shows in waits above; this bound catches a wait
	// taken outside the retry (a default Retry-After of 60 s, an upstream
	// timeout of 30 s), with room for a loaded 2-core machine, where the
	// calls alone took over 2 s (4.3 s in all, in CI at a load average of 13).
	if took > 10*time.Second {
		t.Errorf("the vexlo section took %v, want a few seconds", took)
	}
}

// TestTourOutput: the tour prints a section's lines in columns, a text
// marked Clip (data, a degraded or incomplete result) cut at maxText and a
// failure's text whole.
func TestTourOutput(t *testing.T) {
	var out bytes.Buffer
	s := section{name: "x", title: "a test", run: func(context.Context) ([]Line, error) {
		return []Line{
			Describe(nil, "a call", `{"kind":"not_found","code":"trace_not_found","message":"m"}`, true),
			Describe(nil, "rejected", "MCP error -32602: Input validation error: Invalid arguments for tool t: Too big: expected number to be <=5 at limit", true),
			Describe(nil, "data", `{"a":"`+strings.Repeat("x", 200)+`"}`, false),
			{Shape: "partial", Kind: "partial", Move: "wait", Text: `{"b":"` + strings.Repeat("y", 200) + `"}`, Clip: true},
			{Shape: "long", Kind: "not_found", Move: "stop", Text: `{"c":"` + strings.Repeat("z", 200) + `"}`},
		}, nil
	}}
	if err := tour(context.Background(), &out, []section{s}); err != nil {
		t.Fatal(err)
	}
	want := `== x: a test
  call      kind                  next move       text
  a call    not_found             try_another_id  {"kind":"not_found","code":"trace_not_found","message":"m"}
  rejected  (rejected arguments)  fix_argument    MCP error -32602: Input validation error: Invalid arguments for tool t: Too big: expected number to be <=5 at limit
  data      (data)                use it          {"a":"` + strings.Repeat("x", 114) + `…
  partial   partial               wait            {"b":"` + strings.Repeat("y", 114) + `…
  long      not_found             stop            {"c":"` + strings.Repeat("z", 200) + `"}
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDescribe: the tour shows each dialect errkind.Read tells apart.
func TestDescribe(t *testing.T) {
	tests := []struct {
		text     string
		isError  bool
		kind     string
		nextMove string
	}{
		{`{"kind":"rate_limited","retryAfterSeconds":1}`, true, "rate_limited", "wait_then_retry"},
		{`{"error":"not found","code":"story_not_found"}`, true, "not_found", "try_another_id"},
		{"MCP error -32602: Input validation error: Invalid arguments for tool t: Invalid input at x", true, "(rejected arguments)", "fix_argument"},
		{"MCP error -32602: Tool t not found", true, "(unknown tool)", "fix_argument"},
		{"MCP error -32603: boom", true, "(text)", "report"},
		{"something odd", true, "(text)", "report"},
		{`{"a":1}`, false, "(data)", "use it"},
	}
	for _, tt := range tests {
		l := Describe(nil, "s", tt.text, tt.isError)
		if diff := cmp.Diff([]string{tt.kind, tt.nextMove}, []string{l.Kind, l.Move}); diff != "" {
			t.Errorf("Describe(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}
