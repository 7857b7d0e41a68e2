package front_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/wire"
)

// rewriter answers as an SDK does, and checks nothing: a request gets a
// result whose id is decoded (a number as a float64, then an int64) and
// written anew; a notification gets 202.
var rewriter = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	var m struct {
		ID any `json:"id"`
	}
	b, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(b, &m); err != nil {
		http.Error(w, "malformed payload", http.StatusBadRequest)
		return
	}
	if m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if f, ok := m.ID.(float64); ok {
		m.ID = int64(f)
	}
	id, _ := json.Marshal(m.ID)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, id)
})

// FuzzFront drives arbitrary bodies through the front to an endpoint that
// rewrites ids as SDKs do: every answer is one JSON-RPC message (or a 202
// for a notification), a request's answer carries its id byte for byte, a
// refusal carries the id when the message rule read one and null
// otherwise, and the front goes on serving.
func FuzzFront(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\u0041","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":12345678901234567890123,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"method":"m","params":[[[[[[[[[[[]]]]]]]]]]]}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":1,`,
	} {
		f.Add([]byte(s))
	}
	fr := &front.Front{Handler: rewriter, MaxBytes: 64 << 10}
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		fr.ServeHTTP(rec, req)

		m, err := wire.CheckMessage(body)
		var me *wire.MessageError
		want := json.RawMessage("null")
		switch {
		case len(body) > 64<<10:
		case errors.As(err, &me) && me.ID != nil:
			want = me.ID
		case err == nil && m.Type == wire.NotificationMessage:
			if rec.Code != http.StatusAccepted {
				t.Fatalf("%q: a notification got %d %s", body, rec.Code, rec.Body)
			}
			return
		case err == nil && m.Type == wire.RequestMessage:
			want = m.ID
		}
		var got struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || got.JSONRPC != "2.0" {
			t.Fatalf("%q: answer %d %q is not a JSON-RPC message", body, rec.Code, rec.Body)
		}
		if !bytes.Equal(got.ID, want) {
			t.Fatalf("%q: answered with id %s, want %s", body, got.ID, want)
		}
	})
}
