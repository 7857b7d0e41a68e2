package redisstore

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		url  string
		ok   bool
		addr string
		db   int
	}{
		{"redis://127.0.0.1:6379/0", true, "127.0.0.1:6379", 0},
		{"redis://127.0.0.1:6379/3", true, "127.0.0.1:6379", 3},
		{"redis://user:s3cret@127.0.0.1:6379", true, "127.0.0.1:6379", 0},
		{"127.0.0.1:6379", false, "", 0},
		{"http://127.0.0.1:6379/0", false, "", 0},
		{"redis://", false, "", 0},
		{"redis://127.0.0.1/0", false, "", 0},
		{"redis://127.0.0.1:6379/zero", false, "", 0},
		{"redis://:s3cret@127.0.0.1:6379/x", false, "", 0},
		{"::::", false, "", 0},
		{"", false, "", 0},
	}
	for _, tt := range tests {
		opt, err := ParseURL(tt.url)
		if (err == nil) != tt.ok {
			t.Errorf("ParseURL(%q): %v, want ok %v", tt.url, err, tt.ok)
			continue
		}
		if err != nil {
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("ParseURL(%q): the error %q repeats the password", tt.url, err)
			}
			continue
		}
		if len(opt.InitAddress) != 1 || opt.InitAddress[0] != tt.addr || opt.SelectDB != tt.db {
			t.Errorf("ParseURL(%q) = %v db %d, want %s db %d", tt.url, opt.InitAddress, opt.SelectDB, tt.addr, tt.db)
		}
	}
}

func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"redis://127.0.0.1:6379/0", "rediss://u:p@h:1/2?protocol=2", "redis://[::1]:6379", "%", "redis://h:1/%00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, err := ParseURL("redis://u:s3cret@" + s)
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("the error %q repeats the password", err)
		}
	})
}

// A server that is not Redis, or answers nothing, is a clear error from
// New within a few timeouts, never a hang.
func TestNewNotRedis(t *testing.T) {
	for _, tt := range []struct {
		name  string
		serve func(net.Conn)
	}{
		{"an HTTP server", func(c net.Conn) {
			bufio.NewReader(c).ReadString('\n')
			c.Write([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
			c.Close()
		}},
		{"garbage", func(c net.Conn) {
			c.Write([]byte("*3\r\n:1\r\n$-7\r\n\x00\xff\r\n"))
			time.Sleep(50 * time.Millisecond)
			c.Close()
		}},
		{"silence", func(c net.Conn) {
			time.Sleep(3 * time.Second)
			c.Close()
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					go tt.serve(c)
				}
			}()
			start := time.Now()
			s, err := New(context.Background(), "redis://"+ln.Addr().String()+"/0", Options{Timeout: 100 * time.Millisecond})
			if err == nil {
				s.Close()
				t.Fatal("New succeeded")
			}
			var e *Error
			if !errors.As(err, &e) || e.Op != "connect" {
				t.Errorf("New: %v, want a connect *Error", err)
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("New took %v", took)
			}
		})
	}
}
