package redisstore

import (
	"errors"
	"strings"
	"testing"
)

func TestReplyCheck(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		ok     bool
	}{
		{"integers in an array", "*3\r\n:1\r\n:-5\r\n:0\r\n", true},
		{"the handshake's map", "%2\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nmodules\r\n*0\r\n", true},
		{"a null blob and a null array", "$-1\r\n*-1\r\n_\r\n", true},
		{"a blob holding CRLF and a header", "$9\r\n*9\r\n$-7\r\n\r\n+OK\r\n", true},
		{"an error", "-NOSCRIPT No matching script. Please use EVAL.\r\n", true},
		{"nested within the depth", "*1\r\n*1\r\n*1\r\n:1\r\n", true},
		{"a negative blob length", "$-7\r\n", false},
		{"a blob longer than allowed", "$99999999999\r\n", false},
		{"an array longer than allowed", "*2147483648\r\n", false},
		{"nesting without end", strings.Repeat("*1\r\n", maxReplyDepth+1), false},
		{"a line without end", strings.Repeat("+", maxReplyLine+1), false},
		{"an unknown type", "HTTP/1.1 400 Bad Request\r\n", false},
		{"a bare LF", "+OK\n", false},
		{"a length that is not a number", "*x\r\n", false},
	}
	for _, tt := range tests {
		// Every split of the stream in two reads gives the same answer.
		for cut := 0; cut <= len(tt.stream); cut += max(1, len(tt.stream)/50) {
			var r replyCheck
			err := r.feed([]byte(tt.stream[:cut]))
			if err == nil {
				err = r.feed([]byte(tt.stream[cut:]))
			}
			if (err == nil) != tt.ok || (err != nil && !errors.Is(err, errFraming)) {
				t.Errorf("%s, cut at %d: %v, want ok %v", tt.name, cut, err, tt.ok)
				break
			}
		}
	}
}

func FuzzReplyCheck(f *testing.F) {
	for _, s := range []string{"*3\r\n:1\r\n:-5\r\n:0\r\n", "$-7\r\n", "%1\r\n+a\r\n$1\r\nb\r\n"} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, b []byte, cut int) {
		var r replyCheck
		if cut < 0 || cut > len(b) {
			cut = len(b) / 2
		}
		if r.feed(b[:cut]) == nil {
			r.feed(b[cut:])
		}
		if len(r.stack) > maxReplyDepth || len(r.line) > maxReplyLine {
			t.Fatalf("state beyond its bounds: depth %d, line %d", len(r.stack), len(r.line))
		}
	})
}
