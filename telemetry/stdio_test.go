package telemetry_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/telemetry"
)

// stdioSession is a session over stdio: the handshake, tools/call with the
// ids 7 and "abc", one whose _meta sends it to the SDK's own path, and a
// line that is not JSON, which the transport refuses itself.
const stdioSession = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":"abc"}}}
{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":"get_trace","arguments":{"id":"zzz"}}}
{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":"abc"},"_meta":{"progressToken":1}}}
not json
`

// runStdio runs serve over pipes with the lines of stdioSession: the first
// (initialize), and once it is answered the rest (a call read before the
// session is initialized takes the go-sdk's own path). It returns the
// output once serve has returned.
func runStdio(t *testing.T, serve func(in io.Reader, out io.Writer)) string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		serve(inR, outW)
		outW.Close()
		close(done)
	}()
	first, rest, _ := strings.Cut(stdioSession, "\n")
	var out strings.Builder
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		io.WriteString(inW, first+"\n")
		// initialize's answer is the first line written.
		r := bufio.NewReader(outR)
		l, _ := r.ReadString('\n')
		out.WriteString(l)
		io.WriteString(inW, rest)
		inW.Close()
		io.Copy(&out, r)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the session did not end")
	}
	<-copied // the output is closed: the copy ends
	return out.String()
}

// requestIDs is each tools/call span's jsonrpc.request.id, "-" when it has
// none, by the call's upstream id.
func requestIDs(r *rig) map[string]int {
	out := map[string]int{}
	for _, s := range r.ended() {
		if s.Name == "tools/call get_trace" {
			id, ok := s.Attrs["jsonrpc.request.id"]
			if !ok {
				id = "-"
			}
			out[id]++
		}
	}
	return out
}

// TestStdio: over gosdk.StdioTransport, the tools/call requests its
// direct path serves record jsonrpc.request.id (gosdk.RequestID), the one
// the SDK serves does not (the go-sdk tells middleware no id); over
// mcpgo.ServeStdio every tools/call records it (mcpgo.RequestID), as the
// id's value (7, abc). On both, a line the transport refuses reaches
// telemetry.Failures as its OnFailure.
func TestStdio(t *testing.T) {
	for _, c := range []struct {
		name  string
		serve func(r *rig, api string, in io.Reader, out io.Writer)
		ids   map[string]int // "-": a span without the id
	}{
		{"gosdk", func(r *rig, api string, in io.Reader, out io.Writer) {
			s := goSDKServer(r, api)
			s.Run(context.Background(), &gosdk.StdioTransport{Server: s, In: in, Out: out, OnFailure: telemetry.Failures(r.opts)})
		}, map[string]int{"7": 1, "abc": 1, "-": 1}},
		{"mcpgo", func(r *rig, api string, in io.Reader, out io.Writer) {
			mcpgo.ServeStdio(context.Background(), mcpgoServer(r, api), &mcpgo.StdioOptions{In: in, Out: out, OnFailure: telemetry.Failures(r.opts)})
		}, map[string]int{"7": 1, "abc": 1, "9": 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig()
			var parents []string
			api := fakeAPI(t, &parents).URL
			out := runStdio(t, func(in io.Reader, out io.Writer) { c.serve(r, api, in, out) })
			if diff := cmp.Diff(c.ids, requestIDs(r)); diff != "" {
				t.Errorf("jsonrpc.request.id of the tools/call spans (-want +got):\n%s\noutput:\n%s", diff, out)
			}
			want := map[string]int64{
				"get_trace not_found expected=true": 1,
				" invalid_arguments expected=true":  1, // the line not JSON, -32700
			}
			if diff := cmp.Diff(want, r.failures(t)); diff != "" {
				t.Errorf("failure counter (-want +got):\n%s", diff)
			}
		})
	}
}
