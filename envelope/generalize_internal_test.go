package envelope

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// TestReadFaults: a SOAP 1.1 and 1.2 fault and an XML-RPC fault give
// their code and message; below 400 only a fault is read, never an
// <Error> element, root or not.
func TestReadFaults(t *testing.T) {
	type res struct {
		Code, Message string
		OK            bool
	}
	tests := []struct {
		name string
		body string
		root bool
		want res
	}{
		{"SOAP 1.1", `<s:Envelope xmlns:s="x"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>bad</faultstring></s:Fault></s:Body></s:Envelope>`,
			true, res{"s:Client", "bad", true}},
		{"SOAP 1.2: the Code's first Value, the Reason's Text",
			"<e:Envelope><e:Body><e:Fault><e:Code>\n <e:Value>e:Sender</e:Value><e:Subcode><e:Value>m:T</e:Value></e:Subcode></e:Code>" +
				`<e:Reason><e:Text xml:lang="en">Sender Timeout</e:Text></e:Reason></e:Fault></e:Body></e:Envelope>`,
			true, res{"e:Sender", "Sender Timeout", true}},
		{"XML-RPC: the values named faultCode and faultString",
			`<methodResponse><fault><value><struct><member><name>faultCode</name><value><int>4</int></value></member>` +
				`<member><name>faultString</name><value><string>Too many parameters.</string></value></member></struct></value></fault></methodResponse>`,
			true, res{"4", "Too many parameters.", true}},
		{"an Error element is no fault below 400", `<Error><Code>NoSuchKey</Code></Error>`, true, res{}},
		{"a result that lists errors is no fault", `<DeleteResult><Error><Code>AccessDenied</Code></Error></DeleteResult>`, true, res{}},
		{"the same result read at 400 and above", `<DeleteResult><Error><Code>AccessDenied</Code></Error></DeleteResult>`, false,
			res{"AccessDenied", "", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, m, ok := readXML([]byte(tt.body), tt.root)
			if diff := cmp.Diff(tt.want, res{c, m, ok}); diff != "" {
				t.Errorf("readXML (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRetryInfoDelay: a google.rpc.RetryInfo in base64, padded or not,
// gives its retry_delay; anything else gives no wait.
func TestRetryInfoDelay(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"CgIIHg", 30 * time.Second},
		{"CgIIHg==", 30 * time.Second},
		{"CggIARCAyrXuAQ", 1500 * time.Millisecond}, // 1 s and 5e8 ns
		{"", 0}, {"!!", 0}, {"CgI", 0}, {"CgA", 0}, {"Cv8", 0},
	}
	for _, tt := range tests {
		if got := retryInfoDelay(tt.in); got != tt.want {
			t.Errorf("retryInfoDelay(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// FuzzRetryInfoDelay: any text never panics and gives a wait within the
// bound.
func FuzzRetryInfoDelay(f *testing.F) {
	for _, s := range []string{"CgIIHg", "CgIIBQ==", "CggIARCAyrXuAQ", "", "CgI"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := retryInfoDelay(s); d < 0 || d > header.MaxRetryAfter {
			t.Fatalf("retryInfoDelay(%q) = %v", s, d)
		}
	})
}

// TestCodeWords: a member read as a code holds a code word, not a name or
// an id of another kind.
func TestCodeWords(t *testing.T) {
	for _, tt := range []struct {
		s           string
		kebab, want bool
	}{
		{"RESOURCE_NOT_FOUND", false, true}, {"not_found", false, true}, {"NotFoundError", false, true},
		{"Invalid_Key", false, true}, {"my-repo", false, false}, {"not-found", true, true}, {"a1b2", true, false},
		{"x", true, false}, {"Cluster name", false, false}, {"3f2a-11", true, false}, {"repo", false, false},
	} {
		if got := isCodeWord(tt.s, tt.kebab); got != tt.want {
			t.Errorf("isCodeWord(%q, %v) = %v, want %v", tt.s, tt.kebab, got, tt.want)
		}
	}
}

// TestCredentialProseIndex keeps credentialProse the index of the refused
// credential's family in proseKinds, so the rules that name that family
// by its index read a credential, whatever order the families are in.
func TestCredentialProseIndex(t *testing.T) {
	if got := proseKinds[credentialProse].kind; got != errkind.AuthenticationFailed {
		t.Errorf("proseKinds[credentialProse] is of kind %s, want %s", got, errkind.AuthenticationFailed)
	}
}
