package stdio

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"testing"
)

// BenchmarkTransport is the transport's whole path, line in and answer
// out, with a tool that does nothing: tools/call requests pipelined 16 in
// flight through testServer's "bound" tool, over a pair of pipes. What it
// measures beyond the go-sdk's own work is the transport's (go test -run
// '^$' -bench Transport -cpuprofile cpu.out ./internal/stdio).
func BenchmarkTransport(b *testing.B) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- testServer().Run(ctx, &Transport{In: inR, Out: outW}) }()
	defer func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	}()
	r := bufio.NewReaderSize(outR, 1<<20)
	io.WriteString(inW, initLine+"\n"+initialized+"\n")
	if _, err := r.ReadBytes('\n'); err != nil {
		b.Fatal(err)
	}
	slots := make(chan struct{}, 16)
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		w := bufio.NewWriter(inW)
		for i := range b.N {
			if len(slots) == cap(slots) {
				w.Flush()
			}
			slots <- struct{}{}
			w.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+2) + `,"method":"tools/call","params":{"name":"bound","arguments":{}}}` + "\n")
		}
		w.Flush()
	}()
	for range b.N {
		if _, err := r.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
		<-slots
	}
}
