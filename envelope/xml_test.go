package envelope

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

var xmlSeeds = []string{
	`<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The resource you requested does not exist</Message></Error>`,
	`<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error></ErrorResponse>`,
	`<Response><Errors><Error><Code>InvalidInstanceID.NotFound</Code><Message>m</Message></Error></Errors></Response>`,
	`<m:error xmlns:m="x"><m:code>C</m:code><m:message xml:lang="en-US">M</m:message></m:error>`,
	`<html><body><Error><Code>x</Code></Error></body></html>`,
	`<Error><Code><b>nested</b> text</Code></Error>`,
	`<Error></Error>`, `<Error><Code>`, `<Error><Code>a</Code>`, `<?xml version="1.0" encoding="ISO-8859-1"?><Error><Code>a</Code></Error>`,
	`<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><Error><Code>&a;&a;</Code></Error>`, ``, `<`, `<a><b><c>`,
}

// TestReadXML: the Error element at any depth, its Code and Message
// children (not deeper ones), in any case and namespace; HTML and
// documents without an Error are not errors.
func TestReadXML(t *testing.T) {
	type res struct {
		Code, Message string
		OK            bool
	}
	tests := []struct {
		body string
		want res
	}{
		{xmlSeeds[0], res{"NoSuchKey", "The resource you requested does not exist", true}},
		{xmlSeeds[1], res{"Throttling", "Rate exceeded", true}},
		{xmlSeeds[2], res{"InvalidInstanceID.NotFound", "m", true}},
		{xmlSeeds[3], res{"C", "M", true}},
		{xmlSeeds[4], res{}},
		{xmlSeeds[5], res{"nested text", "", true}},
		{xmlSeeds[6], res{}},
		{xmlSeeds[7], res{}},
		{`<Error><Detail><Code>deep</Code></Detail><Message>m</Message></Error>`, res{"", "m", true}},
		{`<Error><Code>` + strings.Repeat("é", 300) + `</Code></Error>`, res{strings.Repeat("é", maxPlainMessage/2), "", true}},
		{`<a>` + strings.Repeat("<b/>", 2*maxXMLTokens) + `<Error><Code>late</Code></Error></a>`, res{}},
	}
	for _, tt := range tests {
		c, m, ok := readXML([]byte(tt.body), false)
		if diff := cmp.Diff(tt.want, res{c, m, ok}); diff != "" {
			t.Errorf("readXML(%.60q) (-want +got):\n%s", tt.body, diff)
		}
	}
}

// FuzzReadXML: readXML never panics, and what it reads is bounded, valid
// UTF-8, and present when it reports ok.
func FuzzReadXML(f *testing.F) {
	for _, s := range xmlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, root := range []bool{false, true} {
			c, m, ok := readXML(body, root)
			if ok != (c != "" || m != "") {
				t.Fatalf("ok %v with code %q message %q", ok, c, m)
			}
			for _, s := range []string{c, m} {
				if len(s) > maxPlainMessage || !utf8.ValidString(s) {
					t.Fatalf("%q: %d bytes or not UTF-8", s, len(s))
				}
			}
		}
	})
}
