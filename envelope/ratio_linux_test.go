//go:build linux

package envelope_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/internal/cputime"
)

// TestRatios measures Read against its anchor in CPU time rather than wall
// time, interleaving the two in rounds, so a machine shared with other work
// still gives a fair ratio: the reported ratio is the median of the
// per-round ratios (beside it, the ratio of the fastest rounds), and the
// times are the median CPU ns per call. It runs only with MCPERR_RATIOS=1:
//
//	MCPERR_RATIOS=1 go test -run TestRatios -v ./envelope
func TestRatios(t *testing.T) {
	if os.Getenv("MCPERR_RATIOS") == "" {
		t.Skip("set MCPERR_RATIOS=1 to measure")
	}
	cases := []struct {
		name   string
		status int
		body   []byte
		anchor func() any
		goal   float64
	}{
		{"success 1 KiB", 200, benchBody(1 << 10), func() any { return new(benchPage) }, 1.25},
		{"success 64 KiB", 200, benchBody(64 << 10), func() any { return new(benchPage) }, 1.10},
		{"error envelope", 404, benchEnvelope, func() any { return new(envelopeType) }, 1.50},
		{"error in another dialect", 404, benchDialect, func() any { return new(dialectType) }, 0},
		{"success 1 KiB, mentions \"error\"", 200, mentionError(benchBody(1 << 10)), func() any { return new(benchPage) }, 0},
		{"success 64 KiB, mentions \"error\"", 200, mentionError(benchBody(64 << 10)), func() any { return new(benchPage) }, 0},
	}
	const rounds = 101
	for _, c := range cases {
		// About 2 ms of work per side per round, the sides alternating.
		n := max(8, int(2*time.Millisecond/estimate(c.body)))
		var r envelope.Reader
		rc := &resettable{}
		resp := &http.Response{StatusCode: c.status, ContentLength: int64(len(c.body)), Header: http.Header{
			"Content-Type": {"application/json"}, "Date": {"Mon, 30 Nov 2026 08:00:00 GMT"},
		}}
		var read, anchor, ratio []float64
		sink := new(benchPage) // the unused success value of an error read
		for range rounds {
			t0 := cputime.Process()
			for range n {
				rc.Reset(c.body)
				resp.Body = rc
				v := sink
				if c.status < 400 {
					v = new(benchPage)
				}
				err := r.Read(resp, v)
				if (c.status < 400) != (err == nil) {
					t.Fatal(err)
				}
			}
			read = append(read, float64(cputime.Process()-t0)/float64(n))
			t0 = cputime.Process()
			for range n {
				if err := json.Unmarshal(c.body, c.anchor()); err != nil {
					t.Fatal(err)
				}
			}
			anchor = append(anchor, float64(cputime.Process()-t0)/float64(n))
			ratio = append(ratio, read[len(read)-1]/anchor[len(anchor)-1])
		}
		mr, ma, mratio := median(read), median(anchor), median(ratio)
		minRatio := slices.Min(read) / slices.Min(anchor)
		verdict := "-"
		if c.goal > 0 {
			verdict = fmt.Sprintf("<= %.2fx: met", c.goal)
			if mratio > c.goal {
				verdict = fmt.Sprintf("<= %.2fx: MISSED", c.goal)
			}
		}
		fmt.Printf("| %s | %.0f | %.0f | %.3f | %.3f | %s |\n", c.name, mr, ma, mratio, minRatio, verdict)
	}
}

func estimate(body []byte) time.Duration {
	return time.Duration(len(body))*40*time.Nanosecond + 2*time.Microsecond
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
