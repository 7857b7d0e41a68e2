package adaptertest

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/mcperr/mcperr/adapter"
)

// CanonicalResult is a tool result without _meta and resultType, its keys
// sorted, <, > and & as themselves, and a text block that holds JSON
// written as that JSON's value is (the go-sdk escapes <, > and & in it, as
// \u003c..., mcperr does not: the same value): the form in which two
// adapters' results of one tool compare equal.
func CanonicalResult(r json.RawMessage) (string, error) {
	var m map[string]any
	if err := json.Unmarshal(r, &m); err != nil {
		return "", err
	}
	delete(m, "_meta")
	delete(m, "resultType")
	content, _ := m["content"].([]any)
	for _, c := range content {
		block, _ := c.(map[string]any)
		if text, ok := block["text"].(string); ok {
			var v any
			if json.Unmarshal([]byte(text), &v) == nil {
				s, err := sortedJSON(v)
				if err != nil {
					return "", err
				}
				block["text"] = s
			}
		}
	}
	return sortedJSON(m)
}

// sortedJSON is v's JSON, keys sorted, <, > and & as themselves.
func sortedJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// Failures collects what an OnFailure hook hears; the zero value is ready
// to use, from several goroutines.
type Failures struct {
	mu  sync.Mutex
	got []adapter.Failure
}

// Hook is the OnFailure hook that adds each failure to f.
func (f *Failures) Hook(_ context.Context, fl adapter.Failure) {
	f.mu.Lock()
	f.got = append(f.got, fl)
	f.mu.Unlock()
}

// Got is a copy of the failures heard so far, in order.
func (f *Failures) Got() []adapter.Failure {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]adapter.Failure(nil), f.got...)
}
