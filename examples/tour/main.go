// Command tour shows, in a few seconds, every failure shape an agent meets
// on the example MCP servers: for each, the kind an agent branches on, its
// next move (from errkind's advice) and the raw text of the tool result.
//
// Run it from the examples module:
//
//	cd examples && go run ./tour
//
// Each server contributes a section (see sections.go): it starts its demo
// upstream and its MCP server in-process, drives the server through its
// public API only (a real go-sdk client on its MCP server, or HTTP on its
// handler), classifies what comes back with errkind's Read, and returns one
// Line per shape. The server packages export nothing for the tour.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/errkind"
)

// section is one server's part of the tour.
type section struct {
	name  string // the server, such as "vexlo"
	title string // one line saying what the section shows
	// run starts the server and its upstream, makes the calls, and returns
	// one Line per failure shape.
	run func(ctx context.Context) ([]Line, error)
}

// Line is one shape: what an agent reads from a tool result.
type Line struct {
	Shape string // what the call was, such as "unknown trace id"
	Kind  string // the kind, or the MCP layer's text shape in brackets
	Move  string // the agent's next move
	Text  string // the tool result's text, as sent
	// Clip marks a text that is not a failure (data, or a result that
	// says it is degraded or incomplete): the tour cuts it at maxText.
	// Failures are shown whole.
	Clip bool
}

// Describe reads a tool result's text as an agent would, with errkind.Read
// and the server's taxonomy (nil means errkind.Standard): a kind object or
// a code object is branched on by its kind, with the taxonomy's move; the
// MCP layer's texts are shown by their shape, in brackets. A result that is
// not an error is data.
func Describe(tax *errkind.Taxonomy, shape, text string, isError bool) Line {
	l := Line{Shape: shape, Text: text}
	r := tax.Read(errkind.Outcome{IsError: isError, Text: text})
	switch r.Form {
	case errkind.FormData:
		l.Kind, l.Move, l.Clip = "(data)", "use it", true
	case errkind.FormUnknownTool:
		l.Kind, l.Move = "(unknown tool)", string(r.Move)
	case errkind.FormInvalidArguments:
		l.Kind, l.Move = "(rejected arguments)", string(r.Move)
	case errkind.FormMCPError, errkind.FormUnknown:
		l.Kind, l.Move = "(text)", string(r.Move)
	default:
		l.Kind, l.Move = string(r.Kind), string(r.Move)
	}
	return l
}

// Call calls a tool on cs with raw JSON arguments ("" for none) and
// describes its result.
func Call(ctx context.Context, cs *mcp.ClientSession, tax *errkind.Taxonomy, shape, tool, args string) (Line, error) {
	p := &mcp.CallToolParams{Name: tool}
	if args != "" {
		p.Arguments = rawJSON(args)
	}
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		return Line{}, fmt.Errorf("%s: %w", shape, err)
	}
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	return Describe(tax, shape, strings.Join(texts, "\n"), res.IsError), nil
}

// rawJSON is JSON arguments sent as they are.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// Connect serves srv on an in-memory transport and returns a client
// session to it; closing the session ends the server's.
func Connect(ctx context.Context, srv *mcp.Server) (*mcp.ClientSession, error) {
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "tour", Version: "0"}, nil)
	return client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := tour(ctx, os.Stdout, sections); err != nil {
		fmt.Fprintln(os.Stderr, "tour:", err)
		os.Exit(1)
	}
}

// maxText is how much of a text a line marked Clip shows; failures are
// shown whole.
const maxText = 120

func tour(ctx context.Context, w io.Writer, sections []section) error {
	for i, s := range sections {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "== %s: %s\n", s.name, s.title)
		lines, err := s.run(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  call\tkind\tnext move\ttext")
		for _, l := range lines {
			text := strings.ReplaceAll(l.Text, "\n", `\n`)
			if l.Clip && len(text) > maxText {
				text = text[:maxText] + "…"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", l.Shape, l.Kind, l.Move, text)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}
