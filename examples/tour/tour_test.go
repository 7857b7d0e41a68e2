package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/vexlo/mcpserver"
)

// TestVexloSection: the vexlo section shows the nine kinds of seed 000, the
// MCP layer's two text shapes and the two answers that are data.
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

func TestTourOutput(t *testing.T) {
	var out bytes.Buffer
	s := section{name: "x", title: "a test", run: func(context.Context) ([]Line, error) {
		return []Line{
			Describe(nil, "a call", `{"kind":"not_found","code":"trace_not_found","message":"m"}`, true),
			Describe(nil, "rejected", "MCP error -32602: Input validation error: Invalid arguments for tool t: Too big: expected number to be <=5 at limit", true),
			Describe(nil, "data", `{"a":"`+strings.Repeat("x", 200)+`"}`, false),
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
