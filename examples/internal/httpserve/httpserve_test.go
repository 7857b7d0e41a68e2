package httpserve_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/examples/internal/httpserve"
)

// TestRun: requests are served until the context ends, then Run returns nil
// and the port no longer answers; an oversized head gets 431.
func TestRun(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- httpserve.Run(ctx, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }), nil)
	}()

	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ok" {
		t.Fatalf("body %q", b)
	}

	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("X-Big", strings.Repeat("a", httpserve.MaxHeaderBytes+8<<10))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("oversized head: %v, %v; want 431", resp, err)
	} else {
		resp.Body.Close()
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run after cancel: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the context ended")
	}
	if _, err := http.Get(url); err == nil {
		t.Error("the port still answers after shutdown")
	}
}

func ExampleRun() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	ctx, stop := context.WithCancel(context.Background())
	stop() // a server told to stop at once shuts down cleanly
	err := httpserve.Run(ctx, ln, http.NotFoundHandler(), nil)
	fmt.Println(err)
	// Output:
	// <nil>
}
