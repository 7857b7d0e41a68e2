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
