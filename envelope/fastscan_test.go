package envelope

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scanBodies are bodies the scan in place reads itself, and bodies it must
// leave to json.Unmarshal, each for one of the decoder's ways.
var scanBodies = []struct {
	body    string
	scanned bool
}{
	{`{"error":{"code":"trace_not_found","message":"no trace","details":{"trace_id":"dead"}}}`, true},
	{` {"error" : { "message" : "m" , "code" : "c" } } ` + "\n", true},
	{`{"data":[1,2.5e3,true,false,null,{"a":"b"}],"error":{"code":"c","message":"m","extra":[{}]}}`, true},
	{`{"error":{"code":"c","message":"m","details":null}}`, true},
	{`{"error":{"code":"c","message":"m","details":"text"}}`, true},
	{`{"error":{"code":"c","message":"m","details":[1, 2 ]}}`, true},
	{`{"error":{}}`, true},
	{`{}`, true},
	{`{"error":{"code":"é","message":"日本語"}}`, true},
	{`{"error":{"code":"","message":""}}`, true},

	// An escape: the decoder unquotes it.
	{`{"error":{"code":"c","message":"line\nbreak"}}`, false},
	{`{"error":{"co\u0064e":"c","message":"m"}}`, false},
	{`{"\u0065rror":{"code":"c","message":"m"}}`, false},
	// A name in another case, or folding to one (the Kelvin sign, the long s): the decoder folds case.
	{`{"Error":{"code":"c","message":"m"}}`, false},
	{`{"error":{"CODE":"c","message":"m"}}`, false},
	{`{"error":{"code":"c","meſſage":"m"}}`, false},
	{`{"error":{"code":"c","Details":{}}}`, false},
	{`{"error":{"code":"c","message":"m"},"ERROR":null}`, false},
	// A member named twice: the decoder merges them.
	{`{"error":{"code":"a"},"error":{"message":"m"}}`, false},
	{`{"error":{"code":"a","code":"b","message":"m"}}`, false},
	{`{"error":{"code":"a","message":"m","details":1,"details":2}}`, false},
	// A value of another type: the decoder reports it, or leaves the member.
	{`{"error":"text"}`, false},
	{`{"error":null}`, false},
	{`{"error":{"code":404,"message":"m"}}`, false},
	{`{"error":{"code":null,"message":"m"}}`, false},
	// Bytes that are not UTF-8: the decoder replaces them.
	{"{\"error\":{\"code\":\"c\",\"message\":\"\xff\"}}", false},
	{"{\"error\":{\"code\":\"c\",\"message\":\"m\",\"n\xc3\xa9\":1}}", false},
	// Not one JSON object.
	{`{"error":{"code":"c","message":"m"}} {}`, false},
	{`{"error":{"code":"c","message":"m"},}`, false},
	{`{"error":{"code":"c","message":"m"}`, false},
	{`{"error":{"code":"c","message":"m","details":01}}`, false},
	{"{\"error\":{\"code\":\"c\",\"message\":\"tab\there\"}}", false},
	{`[{"error":{"code":"c","message":"m"}}]`, false},
	{``, false},
	// Nested deeper than the scan's bound.
	{`{"error":{"code":"c","message":"m","details":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}}`, false},
}

// TestScanNestedAgreesWithUnmarshal checks the rule of the nested
// envelope's scan in place: a body it reads, it reads as json.Unmarshal
// does, with no error; any other it leaves to json.Unmarshal. Each body of
// the table is also read or left as the table says, so the scan keeps
// the common bodies to itself.
func TestScanNestedAgreesWithUnmarshal(t *testing.T) {
	for _, c := range scanBodies {
		got := checkScanNested(t, []byte(c.body))
		if got != c.scanned {
			t.Errorf("scanNested(%q) = %v, want %v", c.body, got, c.scanned)
		}
	}
}

// checkScanNested fails t when scanNested reads body otherwise than
// json.Unmarshal, and returns whether it read it.
func checkScanNested(t *testing.T, body []byte) bool {
	t.Helper()
	var got nestedBody
	if !scanNested(body, &got) {
		return false
	}
	var want struct {
		Error nestedBody `json:"error"`
	}
	if err := json.Unmarshal(body, &want); err != nil {
		t.Errorf("scanNested read %q, which json.Unmarshal refuses: %v", body, err)
		return true
	}
	if diff := cmp.Diff(want.Error, got); diff != "" {
		t.Errorf("scanNested(%q) reads otherwise than json.Unmarshal (-unmarshal +scan):\n%s", body, diff)
	}
	return true
}

func FuzzScanNested(f *testing.F) {
	for _, c := range scanBodies {
		f.Add([]byte(c.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkScanNested(t, body)
	})
}
