package redisstore

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcperr/mcperr/ratelimit"
)

// fakeRedis answers the commands of a client with answer, reading each
// command as RESP arrays of bulk strings, as clients send them.
func fakeRedis(t *testing.T, answer func(cmd []string) string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil || !strings.HasPrefix(line, "*") {
						return
					}
					n, _ := strconv.Atoi(strings.TrimSpace(line[1:]))
					cmd := make([]string, 0, n)
					for range n {
						h, err := r.ReadString('\n')
						if err != nil {
							return
						}
						size, _ := strconv.Atoi(strings.TrimSpace(h[1:]))
						b := make([]byte, size+2)
						if _, err := io.ReadFull(r, b); err != nil {
							return
						}
						cmd = append(cmd, string(b[:size]))
					}
					if _, err := io.WriteString(c, answer(cmd)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return "redis://" + ln.Addr().String() + "/0"
}

// A server of an older version, without HELLO and RESP3, serves the store
// (it speaks RESP2 only); a script it cannot run fails the call, which
// fails open.
func TestOlderServer(t *testing.T) {
	var scripts atomic.Int64
	url := fakeRedis(t, func(cmd []string) string {
		switch strings.ToUpper(cmd[0]) {
		case "HELLO":
			return "-ERR unknown command 'HELLO'\r\n"
		case "PING":
			return "+PONG\r\n"
		case "CLUSTER":
			return "-ERR This instance has cluster support disabled\r\n"
		case "EVALSHA", "EVAL":
			scripts.Add(1)
			return "-ERR unknown command '" + cmd[0] + "'\r\n"
		}
		return "+OK\r\n"
	})
	logs := &syncBuffer{}
	s, err := New(context.Background(), url, Options{Timeout: time.Second, ErrorLog: log.New(logs, "", 0)})
	if err != nil {
		t.Fatalf("New on a server without HELLO: %v", err)
	}
	defer s.Close()
	lim := &ratelimit.Limiter{Rate: 1, Burst: 1, Store: s}
	d, err := lim.Check(context.Background(), "k", time.Now())
	var e *Error
	if !errors.As(err, &e) || !d.OK || scripts.Load() == 0 {
		t.Errorf("a script the server cannot run: %+v, %v; want the request allowed with an *Error", d, err)
	}
	t.Log(strings.TrimSpace(logs.String()))
}
