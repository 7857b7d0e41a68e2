package envelope_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/envelope"
)

// documented is one line of testdata/corpus/responses.jsonl: an error
// response (or a success) as a public API, gateway or framework documents
// it, where the documentation is (source), and what the documentation says
// it means (want), written from the documentation before any rule was run
// on it. A want with no wait on a rate_limited case is the Reader's
// documented default wait (header.DefaultRetryAfter, 60 s).
type documented struct {
	Name   string            `json:"name"`
	API    string            `json:"api"`
	Source string            `json:"source"`
	Status int               `json:"status"`
	Header map[string]string `json:"header"`
	Body   string            `json:"body"`
	Want   outcome           `json:"want"`
}

// heldOut reports whether a case is kept out of the rules' tuning: the
// first byte of the SHA-256 of its name is below 0x50 (about 31% of the
// cases). The split was fixed before any rule was written for the corpus.
func (c *documented) heldOut() bool {
	return sha256.Sum256([]byte(c.Name))[0] < 0x50
}

func loadDocumented(t testing.TB) []documented {
	t.Helper()
	return loadCorpus(t, "responses.jsonl")
}

// loadCorpus reads one JSON-lines file of testdata/corpus.
func loadCorpus(t testing.TB, name string) []documented {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []documented
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c documented
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// read reads c through a zero Reader into an any, which accepts any JSON.
func (c *documented) read() outcome {
	h := http.Header{}
	for k, v := range c.Header {
		h.Set(k, v)
	}
	resp := &http.Response{StatusCode: c.Status, Header: h, Body: io.NopCloser(strings.NewReader(c.Body)),
		ContentLength: int64(len(c.Body))}
	var r envelope.Reader
	var v any
	return outcomeOf(r.Read(resp, &v))
}

// asSent writes a documented message as the agent gets it: an agent gets
// a message with its line breaks and tabs as spaces (the package doc's
// cleaning of upstream text).
var asSent = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

// check reads c and reports what it read and whether that is what its
// documentation says, the message compared as the agent gets it. It sets
// c.Want's message so.
func (c *documented) check() (outcome, bool) {
	got := c.read()
	c.Want.Message = asSent.Replace(c.Want.Message)
	return got, cmp.Equal(c.Want, got)
}

// knownMisses are the cases of the tuned part the rules misread, each with
// its cause: a rule that would read it would be one vendor's (its field
// name, its code or its prose), which the rules do not hold. The test
// checks that each still misses, so the list shrinks when a general rule
// comes to read one.
var knownMisses = map[string]string{
	"dynamodb_400_unrecognized_client": "UnrecognizedClientException at 400: only AWS's word says the credential",
	"firebase_auth_400":                "the code EMAIL_NOT_FOUND is the message; errors[0].reason is the generic \"invalid\"",
	"couchdb_404":                      "CouchDB's reason \"missing\" is one word, read as the code as Kubernetes' reason is",
	"github_oauth_device_pending":      "RFC 8628's slow_down and interval: slow_down stays unread (S3's SlowDown is unavailable), interval is no wait member",
	"bigcommerce_422":                  "the expectation leaves out the problem type, which the library's problem-details reading keeps as the code",
	"kraken_200_error_array":           "\"error\" as a list of strings on a 200 with a result is no error shape; EAPI:Invalid key is prose",
	"slack_not_authed":                 "not_authed is Slack's own word",
	"meta_graph_190":                   "Meta's numeric code yields to the type OAuthException, a class, as a string code is read first",
	"meta_graph_4_rate":                "as meta_graph_190; only the numeric code 4 says a limit",
	"whatsapp_131047":                  "as meta_graph_190",
	"pusher_403":                       "a text 403 \"Unknown auth_key\": only the prose says the credential",
}

// heldOutFloor is the share of the held-out cases (in percent) that must
// read as documented. The held-out part was never looked at case by case
// while the rules were tuned: only its count was; this floor is the figure
// reached, rounded down, so that a change that loses ground fails (190 of
// 215 before the rules of the fresh batch's tuned half, 194 of 215 after,
// 196 of 215 after the ninth round's rules of the kind; in the eleventh
// round 198 of 215 after the rules of where the members are, of which
// one case, twoxx_jsend_fail, was looked at: JSend's "fail" read as data
// on the fast path, against the package doc; 197 of 215 after those of
// the kind; 199 of 215 with both).
const heldOutFloor = 92

// freshTunedFloor and freshHeldOutFloor are the shares (in percent) of the
// fresh batch's two halves that must read as documented: the figures
// measured, rounded down, not above.
//
// The batch was committed with its expectations, then the rules of the
// time (main at 8a4c2de) were run on it once: the tuned half read 123 of
// 184 (66.8%), the held-out half 138 of 190 (72.6%), 261 of 374 in all
// (69.8%). That held-out figure is the honest one for data nobody tuned
// to. The general rules were then tuned on the tuned half (and the tuned
// part of responses.jsonl) only: the tuned half reads 146 of 184 (79.3%),
// the held-out half 151 of 190 (79.5%), never looked at case by case.
// The second round (error flags in other writings, a non-zero code beside
// a message, the message's words on a 2xx, codes under other names, the
// error wrapped in an object of any name), tuned the same way: the tuned
// half reads 159 of 184 (86.4%), the held-out half 153 of 190 (80.5%).
// The third round was tuned on both halves (a new batch, never seen here,
// is now the held-out measure) and on the tuned part of responses.jsonl:
// the words of a message name the kind where the code and a generic 4xx
// or a 403 say no more than a refusal; a reason-phrase code yields to the
// status; None, null, "error" and "400 BadRequest" are no codes; a
// message that is only a label yields to one that says more; a code that
// ends in _scope is a permission. The half once held out reads 162 of
// 190 (85.3%, from 153), the tuned half 169 of 184 (91.8%, from 159);
// responses.jsonl's tuned part 415 of 430 (from 414) and its held-out
// part 194 of 215 (unchanged). The sixth round (tuned on batch5.jsonl,
// batch3.jsonl, both halves and responses.jsonl's tuned part) left every
// figure here as it was: 169 of 184, 162 of 190, 415 of 430, 194 of 215;
// the seventh round (tuned on batch6.jsonl with the same files) left them
// so too. The ninth round's rules of where the members are: 170 of 184
// (92.4%), 163 of 190 (85.8%), 415 of 430 and 194 of 215; then three
// expectations of the tuned half were corrected to the conventions the
// other corpora and the package doc hold (coingecko_429: a code that
// repeats the status is none; arcgis_200_404: a message keeps its spaces
// as sent; datadog_429: a 429 that asked for no delay waits at least the
// default, even when its window resets sooner): 173 of 184 (94.0%).
// The ninth round's rules of the kind alone (tuned on batch4.jsonl with
// the same files): 169 of 184, 164 of 190 (86.3%), 417 of 430, 196 of
// 215; both parts of the ninth round together: 173 of 184 (94.0%), 165
// of 190 (86.8%), 417 of 430 and 196 of 215. The tenth round's rules of
// the kind (tuned on batch7.jsonl's tuned half): 174 of 184 (94.5%), 166
// of 190 (87.4%), 418 of 430 (xmlrpc_fault reads now: "Too many
// parameters." on a 200 says an argument) and 196 of 215. The eleventh
// round of where the members are (rules11m): four expectations aligned
// to the convention that JSON:API's source stays in the details
// (telnyx_422 and klaviyo_429 of the tuned half, klaviyo_400 and
// paymongo_400 of the other): 177 of 184 (96.2%), 168 of 190 (88.4%),
// 418 of 430 and 198 of 215. The eleventh round's rules of the kind
// (rules11c): 175 of 184 (95.1%;
// arcgis_admin_error no longer reads: a message's phrases come before
// the message as a code, and "Token not found" is a missing thing), 168
// of 190 (88.4%), 419 of 430 (quickbooks_400_fault reads now) and 197 of
// 215.
// Both parts of the eleventh round together: 177 of 184 (96.2%), 170 of
// 190 (89.4%), 419 of 430 and 199 of 215.
const (
	freshTunedFloor   = 96
	freshHeldOutFloor = 89
)

// TestReadDocumentedCorpus reads several hundred documented error
// responses from well over a hundred APIs, gateways and frameworks. Every
// case of the tuned part must read as its documentation says, but the
// known misses, which must still miss; the held-out part reports its
// count and must stay at or above heldOutFloor. MCPERR_CORPUS_MISSES=1
// logs the tuned part's known misses (never the held-out part's).
func TestReadDocumentedCorpus(t *testing.T) {
	cases := loadDocumented(t)
	var tuned, held tally
	for _, c := range cases {
		got, ok := c.check()
		if c.heldOut() {
			held.add(ok)
			continue
		}
		tuned.add(ok)
		cause, known := knownMisses[c.Name]
		switch {
		case ok && known:
			t.Errorf("%s reads as documented now: take it off knownMisses (%s)", c.Name, cause)
		case !ok && !known:
			t.Errorf("%s (%s, %s):\n\twant %+v\n\tgot  %+v", c.Name, c.API, c.Source, c.Want, got)
		case !ok && os.Getenv("MCPERR_CORPUS_MISSES") != "":
			t.Logf("known miss %s: %s\n\twant %+v\n\tgot  %+v", c.Name, cause, c.Want, got)
		}
	}
	t.Logf("tuned part: %d of %d read as documented (%d known misses); held-out part: %d of %d",
		tuned.ok, tuned.n, len(knownMisses), held.ok, held.n)
	held.floor(t, "held-out part", heldOutFloor)
}

// freshTuned reports whether a case of the fresh batch (fresh.jsonl) is in
// the half the rules may be tuned on: the first byte of the SHA-256 of its
// name is below 0x80. The split was fixed, and the batch committed with its
// expectations, before any rule was run on it.
func (c *documented) freshTuned() bool {
	return sha256.Sum256([]byte(c.Name))[0] < 0x80
}

// TestReadFreshCorpus reads the fresh batch: documented error responses
// from APIs, gateways and frameworks that responses.jsonl does not hold,
// collected after the rules were written. It reports the tuned half and
// the half once held out apart, and fails if either falls under its
// floor. MCPERR_CORPUS_MISSES=1 logs the misses of both halves, which
// the rules were tuned on from the third round.
func TestReadFreshCorpus(t *testing.T) {
	tuned, held := readHalves(t, "fresh.jsonl", (*documented).freshTuned, true)
	t.Logf("fresh batch: tuned half %d of %d read as documented; held-out half %d of %d", tuned.ok, tuned.n, held.ok, held.n)
	tuned.floor(t, "fresh tuned half", freshTunedFloor)
	held.floor(t, "fresh held-out half", freshHeldOutFloor)
}

// readHalves reads the cases of file, counting those of the tuned half
// (tuned reports which) apart from the others, and with
// MCPERR_CORPUS_MISSES=1 logs the misses of the tuned half, and of the
// other half too when logHeld is set (a half still held out logs only its
// count).
func readHalves(t *testing.T, file string, tuned func(*documented) bool, logHeld bool) (in, out tally) {
	t.Helper()
	for _, c := range loadCorpus(t, file) {
		got, ok := c.check()
		isTuned := tuned(&c)
		if isTuned {
			in.add(ok)
		} else {
			out.add(ok)
		}
		if !ok && (isTuned || logHeld) && os.Getenv("MCPERR_CORPUS_MISSES") != "" {
			t.Logf("miss %s (%s, %s):\n\twant %+v\n\tgot  %+v", c.Name, c.API, c.Source, c.Want, got)
		}
	}
	return in, out
}

// tally counts the cases of a part of a corpus and those read right.
type tally struct{ n, ok int }

func (p *tally) add(ok bool) {
	p.n++
	if ok {
		p.ok++
	}
}

// floor fails t if fewer than percent of the part's cases read right.
func (p *tally) floor(t *testing.T, part string, percent int) {
	t.Helper()
	if p.ok*100 < percent*p.n {
		t.Errorf("%s: %d of %d read right, under the %d%% floor", part, p.ok, p.n, percent)
	}
}

// TestDocumentedCorpusSize keeps the corpus honest: large, from many
// APIs, each case with a source and a want that names a standard kind or
// data, and names unique.
func TestDocumentedCorpusSize(t *testing.T) {
	cases := loadDocumented(t)
	apis, names := map[string]bool{}, map[string]bool{}
	for _, c := range cases {
		apis[strings.SplitN(c.API, " (", 2)[0]] = true
		if names[c.Name] {
			t.Errorf("%s: name used twice", c.Name)
		}
		names[c.Name] = true
		if c.Source == "" || c.Status == 0 {
			t.Errorf("%s: no source or no status", c.Name)
		}
		if c.Want.Data == (c.Want.Kind != "") {
			t.Errorf("%s: want %+v is neither data nor a kind", c.Name, c.Want)
		}
		if bytes.ContainsRune([]byte(c.Name), ' ') {
			t.Errorf("%s: a name is one word", c.Name)
		}
	}
	if len(cases) < 500 || len(apis) < 150 {
		t.Errorf("%d cases from %d APIs; the corpus needs 500 from 150", len(cases), len(apis))
	}
}

// TestSuccessBodiesStayData: the rules that make a 2xx body an error (an
// errors list with no data, a status word that names a failure, an OAuth
// error, JSend's fail) leave realistic success bodies as data: a status
// member in prose or a success word, lists, errors beside data, empty
// errors, null error members.
func TestSuccessBodiesStayData(t *testing.T) {
	for _, body := range []string{
		`{"id":"sub_1","object":"subscription","status":"active"}`,
		`{"status":"ok","version":"1.2.3"}`,
		`{"status":"success","data":{"post":{"id":1}}}`,
		`{"status":"OK","results":[{"place_id":"x"}]}`,
		`{"status":"ZERO_RESULTS","results":[]}`,
		`{"status":"Succeeded","id":"op1"}`,
		`{"status":"SUCCESS","jobId":"j1"}`,
		`{"status":"ACTIVE","name":"projects/p"}`,
		`{"status":"RUNNING","name":"operations/o"}`,
		`{"status":"completed","conclusion":"failure"}`,
		`{"kind":"Status","status":"Success"}`,
		`[{"id":1,"state":"open"},{"id":2,"title":"error handling"}]`,
		`{"success":true,"errors":[],"messages":[],"result":{"id":"z"}}`,
		`{"ok":true,"message":{"text":"error in build"}}`,
		`{"data":{"hero":{"name":"R2-D2"}},"errors":[{"message":"friend not found","path":["hero","friends",0]}]}`,
		`{"id":"pi_1","last_payment_error":null,"error":null}`,
		`{"insertErrors":[]}`,
		`{"data":[{"status":"ok"},{"status":"error","message":"bad token"}]}`,
		`{"error_count":0,"items":[]}`,
		`{"state":"failure","statuses":[{"state":"error","description":"CI failed"}]}`,
		"\ufeff{\"count\":1,\"value\":[{\"id\":\"r1\"}]}",
		`{"id":"job_1","status":"FAILED","error":"worker lost"}`,
		`{"id":"pay_1","status":"DECLINED","amount":100}`,
		`{"id":"s_1","status":"PERMISSION_DENIED"}`,
		`{"status":"FAILED_PRECONDITION_CHECKED","count":2}`,
		`{"stat":"ok","photos":{"page":1}}`,
		`{"Response":"True","Title":"Alien"}`,
		`{"ok":1,"result":[]}`,
		`{"error":0,"message":"done"}`,
		`{"error":false,"message":"saved"}`,
		`{"code":0,"message":"success","data":{"id":1}}`,
		`{"code":200,"message":"OK"}`,
		`{"code":1100,"message":"created","data":{"id":1}}`,
		`{"id":"c_1","code":42,"message":"Hello"}`,
		`{"code":"US","message":"United States"}`,
		`{"status":true,"message":"Authorization URL created","data":{"reference":"r1"}}`,
		`{"result":"success","msg":"","id":42}`,
		`{"result":"Not found in cache, fetched","items":[]}`,
	} {
		var v any
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body))}
		var r envelope.Reader
		if err := r.Read(resp, &v); err != nil {
			t.Errorf("%s: %v, want data", body, err)
		}
	}
}

// readCase is a response to read and what it must read as; ct is its
// Content-Type, application/json when empty.
type readCase struct {
	name   string
	status int
	ct     string
	body   string
	want   outcome
}

// runReadCases reads each case as a subtest of t.
func runReadCases(t *testing.T, tests []readCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct := tt.ct
			if ct == "" {
				ct = "application/json"
			}
			c := documented{Status: tt.status, Header: map[string]string{"Content-Type": ct}, Body: tt.body}
			if diff := cmp.Diff(tt.want, c.read()); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadIssueCauses: each cause of misreading that issue 27 lists reads
// right (every case failed on the rules before it).
func TestReadIssueCauses(t *testing.T) {
	const min = 60 // the default wait of a rate limit that names none
	runReadCases(t, []readCase{
		{"a lone error string is the message", 404, "application/json", `{"error":"model \"x\" not found"}`,
			outcome{Kind: "not_found", Message: `model "x" not found`}},
		{"errcode and error", 400, "application/json", `{"errcode":"M_INVALID_PARAM","error":"limit must be an integer"}`,
			outcome{Kind: "invalid_arguments", Code: "M_INVALID_PARAM", Message: "limit must be an integer"}},
		{"status error, errorType, error", 400, "application/json", `{"status":"error","errorType":"bad_data","error":"invalid parameter \"query\""}`,
			outcome{Kind: "invalid_arguments", Code: "bad_data", Message: `invalid parameter "query"`}},
		{"detail as a list of {loc,msg}", 422, "application/json", `{"detail":[{"loc":["query","q"],"msg":"Field required","type":"missing"}]}`,
			outcome{Kind: "invalid_arguments", Message: "query.q: Field required"}},
		{"msg", 400, "application/json", `{"code":-1121,"msg":"Invalid symbol."}`,
			outcome{Kind: "invalid_arguments", Code: "-1121", Message: "Invalid symbol."}},
		{"meta.message", 403, "application/json", `{"meta":{"status":403,"message":"Forbidden: key lacks scope"},"data":[]}`,
			outcome{Kind: "permission_denied", Message: "Forbidden: key lacks scope"}},
		{"an OData message {lang,value}", 404, "application/json", `{"error":{"code":"ResourceNotFound","message":{"lang":"en-US","value":"No such list."}}}`,
			outcome{Kind: "not_found", Code: "ResourceNotFound", Message: "No such list."}},
		{"a REST validation list keeps the field and the code", 422, "application/json",
			`{"errors":[{"field":"email","code":"invalid_format","message":"is not an email"}]}`,
			outcome{Kind: "invalid_arguments", Code: "invalid_format", Message: "email: is not an email"}},
		{"an errors list with no data on a 200", 200, "application/json", `{"errors":[{"code":"NOT_FOUND","message":"no such board"}]}`,
			outcome{Kind: "not_found", Code: "NOT_FOUND", Message: "no such board"}},
		{"status REQUEST_DENIED on a 200", 200, "application/json", `{"status":"REQUEST_DENIED","error_message":"This API key is not authorized.","results":[]}`,
			outcome{Kind: "permission_denied", Code: "REQUEST_DENIED", Message: "This API key is not authorized."}},
		{"402 is a payment a person must make", 402, "application/json", `{"error":{"message":"Insufficient credits"}}`,
			outcome{Kind: "permission_denied", Message: "Insufficient credits"}},
		{"a LIMIT_EXCEEDED code wins over a 403", 403, "application/json", `{"error":{"code":"REQUEST_LIMIT_EXCEEDED","message":"slow down"}}`,
			outcome{Kind: "rate_limited", Code: "REQUEST_LIMIT_EXCEEDED", Message: "slow down", RetryAfterSeconds: min}},
		{"INVALID_API_KEYS at 400", 400, "application/json", `{"code":"INVALID_API_KEYS","message":"bad key"}`,
			outcome{Kind: "authentication_failed", Code: "INVALID_API_KEYS", Message: "bad key"}},
		{"conditionNotMet at 412", 412, "application/json", `{"error":{"code":412,"message":"m","errors":[{"reason":"conditionNotMet","message":"m"}]}}`,
			outcome{Kind: "conflict", Code: "conditionNotMet", Message: "m"}},
		{"a generic code does not override a 504", 504, "application/json", `{"code":"InternalServerErrorException","message":"timed out"}`,
			outcome{Kind: "unavailable", Code: "InternalServerErrorException", Message: "timed out"}},
		{"RetryInfo in Connect's form", 429, "application/json",
			`{"code":"resource_exhausted","message":"m","details":[{"type":"google.rpc.RetryInfo","value":"CgIIHg","debug":{"retryDelay":"30s"}}]}`,
			outcome{Kind: "rate_limited", Code: "resource_exhausted", Message: "m", RetryAfterSeconds: 30}},
		{"retry_after_ms in the body", 429, "application/json", `{"error":{"code":"rate_limited","message":"m","retry_after_ms":2500}}`,
			outcome{Kind: "rate_limited", Code: "rate_limited", Message: "m", RetryAfterSeconds: 3}},
		{"JSON behind a byte-order mark", 404, "application/json", "\ufeff{\"message\":\"gone\"}",
			outcome{Kind: "not_found", Message: "gone"}},
		{"JSON sent as text/plain", 400, "text/plain", `{"message":"bad q"}`,
			outcome{Kind: "invalid_arguments", Message: "bad q"}},
		{"a SOAP fault", 500, "text/xml", `<s:Envelope xmlns:s="x"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>bad request</faultstring></s:Fault></s:Body></s:Envelope>`,
			outcome{Kind: "invalid_arguments", Code: "s:Client", Message: "bad request"}},
		{"JSON-RPC -32005 rate limit exceeded", 429, "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"rate limit exceeded"}}`,
			outcome{Kind: "rate_limited", Code: "-32005", Message: "rate limit exceeded", RetryAfterSeconds: min}},
		{"JSON-RPC -5 no such transaction", 500, "application/json", `{"result":null,"error":{"code":-5,"message":"No such mempool transaction"},"id":1}`,
			outcome{Kind: "not_found", Code: "-5", Message: "No such mempool transaction"}},
		{"JSON-RPC -32601 at 404 as the catalogue says", 404, "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
			outcome{Kind: "invalid_arguments", Code: "-32601", Message: "Method not found"}},
	})
}

// TestReadMembersByName: the rules that read a member by what its name
// says, in any case style, and the shapes the fresh batch's tuned half
// showed; each case failed on the rules before them, but three guards:
// the gRPC OK one, which keeps the gRPC rule from taking a success; the
// 4xx one, which keeps the message's words from overriding a status; and
// the messageId that is no code word, which keeps a message's id from
// being read as a code.
func TestReadMembersByName(t *testing.T) {
	const min = 60 // the default wait of a rate limit that names none
	tests := []struct {
		name   string
		status int
		header map[string]string
		body   string
		want   outcome
	}{
		{"a number named errorNum is the code; code repeats the status", 404, nil,
			`{"code":404,"error":true,"errorNum":1202,"errorMessage":"document not found"}`,
			outcome{Kind: "not_found", Code: "1202", Message: "document not found"}},
		{"status_code and status_message", 401, nil,
			`{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}`,
			outcome{Kind: "authentication_failed", Code: "7", Message: "Invalid API key: You must be granted a valid key."}},
		{"a name with a space", 400, nil, `{"err code":"DRS-M00201","error msg":"The job_id parameter is empty."}`,
			outcome{Kind: "invalid_arguments", Code: "DRS-M00201", Message: "The job_id parameter is empty."}},
		{"errorDescription beside an OAuth-like error", 401, nil,
			`{"errorDescription":"Access token is unknown or invalid","error":"not_authorized"}`,
			outcome{Kind: "authentication_failed", Code: "not_authorized", Message: "Access token is unknown or invalid"}},
		{"error_msg", 404, nil, `{"error_msg":"404 Route Not Found"}`, outcome{Kind: "not_found", Message: "404 Route Not Found"}},
		{"errorText, and the code in an object named for an error", 403, nil,
			`{"detailedError":{"code":"Forbidden","message":"not allowed"},"errorText":"You are not allowed","httpStatusCode":403}`,
			outcome{Kind: "permission_denied", Code: "Forbidden", Message: "You are not allowed"}},
		{"an error object two members deep", 401, nil,
			`{"requestError":{"serviceException":{"messageId":"UNAUTHORIZED","text":"Invalid login details"}}}`,
			outcome{Kind: "authentication_failed", Code: "UNAUTHORIZED", Message: "Invalid login details"}},
		{"a messageId that is no code word is no code", 400, nil,
			`{"requestError":{"serviceException":{"messageId":"2250be2d4219-3af1-78856-aabe-1362af1edfd2","text":"Bad request"}}}`,
			outcome{Kind: "invalid_arguments", Message: "Bad request"}},
		{"a category that names no kind is a class, and a numeric errorId the code", 400, nil,
			`{"errors":[{"errorId":25002,"domain":"API_INVENTORY","category":"REQUEST","message":"Invalid SKU."}]}`,
			outcome{Kind: "invalid_arguments", Code: "25002", Message: "Invalid SKU."}},
		{"an object that holds the errors list, whatever its name", 504, nil,
			`{"root":{"id":"toplevel","fields":{"totalCount":0},"errors":[{"code":12,"summary":"Timed out","message":"Timeout while waiting for music"}]}}`,
			outcome{Kind: "unavailable", Code: "12", Message: "Timeout while waiting for music"}},
		{"a type URI that names only the status is no code", 401, map[string]string{"Content-Type": "application/problem+json"},
			`{"type":"https://httpproblems.com/http-status/401","title":"Unauthorized","status":401,"detail":"Authorization header is missing"}`,
			outcome{Kind: "authentication_failed", Message: "Authorization header is missing"}},
		{"_error", 404, nil, `{"_error":{"status":404,"title":"Not found","message":"Unknown conversation"}}`,
			outcome{Kind: "not_found", Message: "Unknown conversation"}},
		{"a list of objects with a message under another name", 401, nil,
			`{"success":false,"processId":"C1","reasons":[{"code":90000011,"message":"Authentication error"}]}`,
			outcome{Kind: "authentication_failed", Code: "90000011", Message: "Authentication error"}},
		{"a name that ends in code, and a list of error details", 401, nil,
			`{"authenticationResultCode":"InvalidCredentials","errorDetails":["Access was denied."],"statusCode":401,"statusDescription":"Unauthorized"}`,
			outcome{Kind: "authentication_failed", Code: "InvalidCredentials", Message: "Access was denied."}},
		{"Code in capitals", 401, nil, `{"Code":"Unauthorized","Message":"Api Authorization failed","Reference":"/x"}`,
			outcome{Kind: "authentication_failed", Code: "Unauthorized", Message: "Api Authorization failed"}},
		{"a number named error is a code", 429, nil, `{"message":"Rate limit exceeded","error":29}`,
			outcome{Kind: "rate_limited", Code: "29", Message: "Rate limit exceeded", RetryAfterSeconds: min}},
		{"an error object's details sentence is its message", 401, nil,
			`{"errors":[{"id":"authentication_failed","code":401,"details":"No user found for the API key supplied"}]}`,
			outcome{Kind: "authentication_failed", Code: "authentication_failed", Message: "No user found for the API key supplied"}},
		{"an error object without a message leaves the fast path", 429, nil,
			`{"error":{"code":"TOO_MANY_REQUESTS_PER_SECOND","description":"You have exceeded the queries-per-second limit."}}`,
			outcome{Kind: "rate_limited", Code: "TOO_MANY_REQUESTS_PER_SECOND", Message: "You have exceeded the queries-per-second limit.", RetryAfterSeconds: min}},
		{"a code that is an HTTP error status on a 200", 200, nil,
			`{"code":401,"message":"apikey parameter is incorrect","status":"error"}`,
			outcome{Kind: "authentication_failed", Code: "401", Message: "apikey parameter is incorrect"}},
		{"an error object's code 404 on a 200", 200, nil, `{"error":{"code":404,"message":"Service not found","details":[]}}`,
			outcome{Kind: "not_found", Code: "404", Message: "Service not found"}},
		{"a status that says only ERROR is no code", 401, nil, `{"status":"ERROR","request_id":"a1","error":"Unknown API Key"}`,
			outcome{Kind: "authentication_failed", Message: "Unknown API Key"}},
		{"a type written in words is no code", 429, nil,
			`{"code":429001,"type":"Too Many Calls","message":"The request limit has been reached."}`,
			outcome{Kind: "rate_limited", Code: "429001", Message: "The request limit has been reached.", RetryAfterSeconds: min}},
		{"the envelope's data.code ahead of a number", 429, nil,
			`{"error":{"message":"slow down","code":-32029,"data":{"code":"TOO_MANY_REQUESTS","httpStatus":429}}}`,
			outcome{Kind: "rate_limited", Code: "TOO_MANY_REQUESTS", Message: "slow down", RetryAfterSeconds: min}},
		{"a gRPC-Web failure in the header of an empty 200", 200,
			map[string]string{"Content-Type": "application/grpc-web+proto", "Grpc-Status": "5", "Grpc-Message": "user%2042%20not%20found"}, "",
			outcome{Kind: "not_found", Code: "5", Message: "user 42 not found"}},
		{"a gRPC status OK is a success", 200, map[string]string{"Content-Type": "application/grpc-web+proto", "Grpc-Status": "0"}, "",
			outcome{Data: true}},
		{`"stat" is "status": JSend's fail on a 200`, 200, nil, `{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}`,
			outcome{Kind: "authentication_failed", Code: "100", Message: "Invalid API Key (Key has invalid format)"}},
		{`an error flag written 0`, 200, nil, `{"ok":0,"message":"channel not found"}`,
			outcome{Kind: "not_found", Message: "channel not found"}},
		{`errcode and errmsg on a 200`, 200, nil, `{"errcode":40001,"errmsg":"invalid credential, access_token is invalid or not latest"}`,
			outcome{Kind: "authentication_failed", Code: "40001", Message: "invalid credential, access_token is invalid or not latest"}},
		{`"status" false is a flag down`, 200, nil, `{"status":false,"message":"Transaction reference not found"}`,
			outcome{Kind: "not_found", Message: "Transaction reference not found"}},
		{`"stat" "FAIL" in capitals`, 200, nil, `{"stat":"FAIL","message":"Invalid request parameters"}`,
			outcome{Kind: "invalid_arguments", Message: "Invalid request parameters"}},
		{`"result" "error" says the failure`, 200, nil, `{"result":"error","msg":"Stream 'x' does not exist"}`,
			outcome{Kind: "not_found", Message: "Stream 'x' does not exist"}},
		{`"Response": "False" is the success flag down`, 200, nil, `{"Response":"False","Error":"Movie not found!"}`,
			outcome{Kind: "not_found", Message: "Movie not found!"}},
		{`"error" a number beside a message on a 200`, 200, nil, `{"message":"Invalid API key - You must be granted a valid key","error":10}`,
			outcome{Kind: "authentication_failed", Code: "10", Message: "Invalid API key - You must be granted a valid key"}},
		{`a code other than 0 beside a message and no data on a 200`, 200, nil, `{"code":1100,"message":"invalid parameter[expected=collection name]"}`,
			outcome{Kind: "invalid_arguments", Code: "1100", Message: "invalid parameter[expected=collection name]"}},
		{`on a 2xx the words of the message name the kind an unknown code does not`, 200, nil, `{"error":{"code":498,"message":"Invalid token.","details":[]}}`,
			outcome{Kind: "authentication_failed", Code: "498", Message: "Invalid token."}},
		{`at 4xx the status speaks, not the message's words`, 400, nil, `{"errorCode":"E0000001","errorSummary":"Api validation failed: login"}`,
			outcome{Kind: "invalid_arguments", Code: "E0000001", Message: "Api validation failed: login"}},
		{"a code written None is no code", 429, nil, `{"error":{"message":"Max parallel request limit reached.","type":"None","param":"None","code":"429"}}`,
			outcome{Kind: "rate_limited", Message: "Max parallel request limit reached.", RetryAfterSeconds: min}},
		{"a code that says only error is no code", 429, nil, `{"code":"error","message":"Rate limit reached for gpt-4."}`,
			outcome{Kind: "rate_limited", Message: "Rate limit reached for gpt-4.", RetryAfterSeconds: min}},
		{"a code that opens with the status is the status", 400, nil, `{"error":{"code":"400 BadRequest","message":"The provided coordinates are invalid"}}`,
			outcome{Kind: "invalid_arguments", Message: "The provided coordinates are invalid"}},
		{"a message that is only the reason phrase yields to one that says more", 401, nil,
			`{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token"}`,
			outcome{Kind: "authentication_failed", Message: "you need to provide a valid access token"}},
		{"a message that is only the reason phrase stays when nothing says more", 401, nil, `{"error":"Unauthorized"}`,
			outcome{Kind: "authentication_failed", Message: "Unauthorized"}},
		{"a 424 is the dependency's failure", 424, nil, `{"error":"Request failed during generation","error_type":"generation"}`,
			outcome{Kind: "server_error", Code: "generation", Message: "Request failed during generation"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.header
			if h == nil {
				h = map[string]string{"Content-Type": "application/json"}
			}
			c := documented{Status: tt.status, Header: h, Body: tt.body}
			if diff := cmp.Diff(tt.want, c.read()); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadMessageWords: at a status that says no more than that the
// request was refused (400, 422, a 403 for a credential or a limit), or
// on a 200, with a code that says nothing of its own (none, a number, an
// HTTP reason phrase), the words of the message name the kind; each case
// failed on the rules before them (a thing that already exists at a 400
// since the fourth round), but the guards: a code word of the
// API's own, a parameter not found, a message that opens with its
// status's phrase, a message that names two kinds, "not found" at a 400,
// a quota at a 402, a reason-phrase code that names a kind other than
// the status's refusal.
func TestReadMessageWords(t *testing.T) {
	const min = 60 // the default wait of a rate limit that names none
	runReadCases(t, []readCase{
		{"an invalid session token at 400", 400, "", `{"code":209,"error":"Invalid session token"}`,
			outcome{Kind: "authentication_failed", Code: "209", Message: "Invalid session token"}},
		{"an invalid token two words after its adjective at 403", 403, "", `{"status_code":403,"error":"Forbidden","message":"Invalid project token."}`,
			outcome{Kind: "authentication_failed", Message: "Invalid project token."}},
		{"a quota at 403", 403, "", `{"error":"Quota exceeded"}`,
			outcome{Kind: "rate_limited", Message: "Quota exceeded", RetryAfterSeconds: min}},
		{"a permission at 400", 400, "", `{"code":"BAD_REQUEST","msg":"User not authorized for this query","result":"error"}`,
			outcome{Kind: "permission_denied", Code: "BAD_REQUEST", Message: "User not authorized for this query"}},
		{"guard: not found at a 400 stays an argument", 400, "", `{"error":"table does not exist [table=trades2]"}`,
			outcome{Kind: "invalid_arguments", Message: "table does not exist [table=trades2]"}},
		{"guard: a quota at a 402 is the payment", 402, "", `{"status":{"code":402,"message":"quota exceeded"}}`,
			outcome{Kind: "permission_denied", Message: "quota exceeded"}},
		{"guard: Not Found at a 400 still names not_found", 400, "", `{"statusCode":"404","error":"not_found","message":"Object not found"}`,
			outcome{Kind: "not_found", Code: "not_found", Message: "Object not found"}},
		{"a reason-phrase code says no more than the status", 400, "", `{"code":400,"message":"Invalid authentication information","name":"BadRequest"}`,
			outcome{Kind: "authentication_failed", Code: "BadRequest", Message: "Invalid authentication information"}},
		{"Unauthorized at a 403 is the 403", 403, "", `{"errors":[{"code":"Unauthorized","message":"Access to requested resource is denied.","details":""}]}`,
			outcome{Kind: "permission_denied", Code: "Unauthorized", Message: "Access to requested resource is denied."}},
		{"not authenticated on a 200", 200, "", `{"code":1800,"message":"user hasn't authenticated"}`,
			outcome{Kind: "authentication_failed", Code: "1800", Message: "user hasn't authenticated"}},
		{"guard: a parameter not found is an argument", 400, "", `{"message":"dst parameter not found"}`,
			outcome{Kind: "invalid_arguments", Message: "dst parameter not found"}},
		{"guard: a message that opens with its status's phrase", 400, "", `{"ok":false,"description":"Bad Request: chat not found"}`,
			outcome{Kind: "invalid_arguments", Message: "Bad Request: chat not found"}},
		{"guard: a message that names two kinds", 422, "", `{"code":"002003","message":"Object 'NOPE' does not exist or not authorized."}`,
			outcome{Kind: "invalid_arguments", Code: "002003", Message: "Object 'NOPE' does not exist or not authorized."}},
		{"guard: a quota named as an argument", 400, "", `{"message":"quota must be a positive integer"}`,
			outcome{Kind: "invalid_arguments", Message: "quota must be a positive integer"}},
		{"guard: a password is an argument", 400, "", `{"message":"Invalid password: use at least 8 characters"}`,
			outcome{Kind: "invalid_arguments", Message: "Invalid password: use at least 8 characters"}},
		{"a thing that already exists at 400", 400, "", `{"status":"BAD_REQUEST","message":"Customer has already been assigned with same email id"}`,
			outcome{Kind: "conflict", Code: "BAD_REQUEST", Message: "Customer has already been assigned with same email id"}},
		{"guard: a taken name at a 422 stays an argument", 422, "", `{"message":"Name is already in use in your account."}`,
			outcome{Kind: "invalid_arguments", Message: "Name is already in use in your account."}},
		{"guard: a state already reached is an argument", 400, "", `{"message":"The order has already been cancelled."}`,
			outcome{Kind: "invalid_arguments", Message: "The order has already been cancelled."}},
		{"guard: a code word of the API's own", 400, "", `{"error":"invalid_grant","error_description":"The refresh token has expired."}`,
			outcome{Kind: "invalid_arguments", Code: "invalid_grant", Message: "The refresh token has expired."}},
	})
}

// TestReadLabelYields: a message that is only a label (a reason phrase, a
// code word) yields to a member beside it that says more, in any order of
// the names; not to a headline (title, summary), and not to the error
// objects nested below it.
func TestReadLabelYields(t *testing.T) {
	runReadCases(t, []readCase{
		{"a reason-phrase message yields to the detail beside it", 400, "", `{"detail":"no such command","error":400,"message":"Bad Request"}`,
			outcome{Kind: "invalid_arguments", Message: "no such command"}},
		{"a code-word message yields to the description beside it", 404, "", `{"message":"NOT_FOUND","description":"No pet with id 7"}`,
			outcome{Kind: "not_found", Code: "NOT_FOUND", Message: "No pet with id 7"}}, // the label is the code since round 9 (TestReadCodeWordLabelIsTheCode)
		{"guard: a label detail does not yield to a title", 404, "application/problem+json", `{"title":"An error occurred","status":404,"detail":"Not Found"}`,
			outcome{Kind: "not_found", Message: "Not Found"}},
		{"guard: a label does not yield to a nested error", 404, "", `{"code":"not_found","context_info":{"errors":[{"name":"folder","message":"Invalid value 'f_1'."}]},"message":"Not Found"}`,
			outcome{Kind: "not_found", Code: "not_found", Message: "Not Found"}},
	})
}

// TestReadMessageSuffix: a member whose name ends in "message" or "msg",
// in any case style, holds the message where no listed name does; not
// over a label a listed name holds.
func TestReadMessageSuffix(t *testing.T) {
	runReadCases(t, []readCase{
		{"a developer-message", 404, "", `{"response-code":404,"developer-message":"No record 0000-0001"}`,
			outcome{Kind: "not_found", Message: "No record 0000-0001"}},
		{"a userMsg", 403, "", `{"userMsg":"You cannot edit this board"}`,
			outcome{Kind: "permission_denied", Message: "You cannot edit this board"}},
		{"guard: not over a label a listed name holds", 404, "", `{"message":"not found","long_message":"User not found"}`,
			outcome{Kind: "not_found", Message: "not found"}},
	})
}

// TestReadExceptionMembers: the exception's type is the code ("exceptionType",
// "exc_type") and its sentence the message ("exception"); an "exception"
// that is a class name is no message.
func TestReadExceptionMembers(t *testing.T) {
	runReadCases(t, []readCase{
		{"exceptionType is the code", 404, "", `{"exceptionType":"EntityNotFoundException","httpStatusCode":404,"message":"The following road id is not recognised: A1"}`,
			outcome{Kind: "not_found", Code: "EntityNotFoundException", Message: "The following road id is not recognised: A1"}},
		{"exc_type is the code, exception the message", 403, "", `{"exc_type":"PermissionError","exception":"Insufficient Permission for Note"}`,
			outcome{Kind: "permission_denied", Code: "PermissionError", Message: "Insufficient Permission for Note"}},
		{"guard: an exception that is a class name is no message", 500, "", `{"exception":"java.lang.IllegalStateException","error":"Internal Server Error"}`,
			outcome{Kind: "server_error", Message: "Internal Server Error"}},
	})
}

// TestReadOnlyMemberWraps: an object that is its parent's only member
// wraps the error, whatever its name (OpenStack's faults); an object
// beside other members is read only when its name says it holds an error.
func TestReadOnlyMemberWraps(t *testing.T) {
	runReadCases(t, []readCase{
		{"a fault named for its kind", 404, "", `{"itemNotFound":{"code":404,"message":"Instance srv-1 could not be found."}}`,
			outcome{Kind: "not_found", Message: "Instance srv-1 could not be found."}},
		{"a fault named for its status", 403, "", `{"forbidden":{"code":403,"message":"Policy does not allow this."}}`,
			outcome{Kind: "permission_denied", Message: "Policy does not allow this."}},
		{"guard: an object beside others is not the error", 404, "", `{"id":"x","page":{"message":"page 1 of 1"}}`,
			outcome{Kind: "not_found"}},
	})
}

// TestReadTypeURI: a code that is a URI names its kind by its last path
// segment or fragment, not by its host or the path before it.
func TestReadTypeURI(t *testing.T) {
	const min = 60 // the default wait of a rate limit that names none
	runReadCases(t, []readCase{
		{"the host's words do not name the kind", 429, "application/problem+json",
			`{"type":"https://signatureapi.com/docs/v1/errors/too-many-requests","title":"Too Many Requests","status":429,"detail":"Too many requests for this user."}`,
			outcome{Kind: "rate_limited", Code: "https://signatureapi.com/docs/v1/errors/too-many-requests", Message: "Too many requests for this user.", RetryAfterSeconds: min}},
		{"the last segment names it", 400, "application/problem+json",
			`{"type":"https://api.example.com/problems/token-expired","title":"Token expired","status":400}`,
			outcome{Kind: "authentication_failed", Code: "https://api.example.com/problems/token-expired", Message: "Token expired"}},
	})
}

// TestReadLoneOAuthError: a body whose only member is "error", a code
// word, is RFC 6749's error response (error_description is optional),
// at a 200 too; an "error" beside other members, or a sentence, is not
// that.
func TestReadLoneOAuthError(t *testing.T) {
	runReadCases(t, []readCase{
		{"error alone at a 200", 200, "", `{"error":"invalid_grant"}`,
			outcome{Kind: "server_error", Code: "invalid_grant"}},
		{"guard: error beside data at a 200", 200, "", `{"error":"none","items":[]}`,
			outcome{Data: true}},
		{"guard: an empty error at a 200", 200, "", `{"error":""}`,
			outcome{Data: true}},
	})
}
