package envelope_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/errkind"
)

// thirdBatchFloor is the share (in percent) of the third batch
// (testdata/corpus/batch3.jsonl) that must read as documented: the figure
// measured, rounded down, not above.
//
// The batch was collected from public sources only: vendors' error
// references, the recorded responses of client test suites and fixtures,
// and bodies quoted in issue threads and write-ups, each case's source
// naming where. Every API in it is one that neither responses.jsonl nor
// fresh.jsonl holds. The file was committed with its expectations before
// any rule was run on it (205 cases from 148 APIs); the rules of main at
// 9d86257 then read it: 144 of 205 as documented (70.2%); after the
// third round of general rules (tuned on fresh.jsonl and responses.jsonl
// only), 151 of 205 (73.7%).
//
// The batch was held out through the third round. From the fourth round
// on it is tuned on like fresh.jsonl (batch4.jsonl is the held-out
// measure now): 151 of 205 before the fourth round, 161 of 205 (78.5%)
// after it; 161 of 205 after the sixth round (tuned on batch5.jsonl with
// this batch), unchanged; 162 of 205 (79.0%) after the seventh round
// (tuned on batch6.jsonl with this batch); 164 of 205 (80.0%) after the
// eighth (an error number or a status that says failed beside a message
// at 200); 171 of 205 (83.4%) after the ninth (where the members are: codes
// and messages under other names, XML status children, wrapped errors).
// The ninth round's rules of the kind alone read 169 of 205 (82.4%) (code
// words in any case style: an access key, could_not_find, exists
// mid-code, already_*; a message's credential refused after its noun or
// not found); both parts of the ninth round together: 178 of 205 (86.8%).
// The tenth round's rules of the kind (tuned on batch7.jsonl's tuned
// half): 179 of 205 (87.3%).
// The tenth round's rules of where the members are (rules10m; a "status"
// sentence is the message): 179 of 205 (87.3%).
// Both parts of the tenth round together: 180 of 205 (87.8%).
// The eleventh round of where the members are (rules11m): one expectation
// aligned to the convention of which code a body gives
// (numverify_200_no_phone: the code word over the number), 181 of 205;
// with the round's rules (a wrapper whose only member says failed beside a
// message), 182 of 205 (88.8%).
// The eleventh round's rules of the kind (rules11c; a thing a 400 says
// matches nothing is not_found): 181 of 205 (88.3%).
// Both parts of the eleventh round together: 184 of 205 (89.7%).
const thirdBatchFloor = 89

// TestReadThirdBatch reads the third batch, documented responses of APIs
// the other corpora do not hold, and fails if the share read as
// documented falls under thirdBatchFloor. MCPERR_CORPUS_MISSES=1 logs its
// misses, as for the fresh batch: it is no longer held out.
func TestReadThirdBatch(t *testing.T) {
	readTunedBatch(t, "batch3.jsonl", "third batch", thirdBatchFloor)
}

// readTunedBatch reads a batch the rules are tuned on (file), logs the
// count read as documented and, with MCPERR_CORPUS_MISSES=1, each case
// that misses with what it wanted and got, and fails if the share falls
// under floor percent.
func readTunedBatch(t *testing.T, file, part string, floor int) {
	t.Helper()
	var all tally
	for _, c := range loadCorpus(t, file) {
		got, ok := c.check()
		all.add(ok)
		if !ok && os.Getenv("MCPERR_CORPUS_MISSES") != "" {
			t.Logf("miss %s (%s, %s):\n\twant %+v\n\tgot  %+v", c.Name, c.API, c.Source, c.Want, got)
		}
	}
	t.Logf("%s: %d of %d read as documented", part, all.ok, all.n)
	all.floor(t, part, floor)
}

// TestThirdBatchShape keeps the third batch what its commit says: at least
// 200 cases from at least 100 APIs, none of them an API of responses.jsonl
// or fresh.jsonl, each case with a one-word unique name, a source and a
// status, and a want that is data or one of the standard kinds.
func TestThirdBatchShape(t *testing.T) {
	checkBatchShape(t, "batch3.jsonl", "responses.jsonl", "fresh.jsonl")
}

// checkBatchShape checks that the batch in file holds at least 200 cases
// from at least 100 APIs, none of them an API of the earlier files, each
// case with a one-word unique name, a source and a status, and a want that
// is data or one of the standard kinds.
func checkBatchShape(t *testing.T, file string, earlier ...string) {
	t.Helper()
	seen := map[string]bool{}
	for _, f := range earlier {
		for _, c := range loadCorpus(t, f) {
			seen[apiName(&c)] = true
		}
	}
	standard := map[string]bool{}
	for _, k := range []errkind.Kind{
		errkind.InvalidArguments, errkind.AuthenticationFailed, errkind.PermissionDenied,
		errkind.NotFound, errkind.Conflict, errkind.RateLimited, errkind.Unavailable,
		errkind.ServerError, errkind.MalformedResponse, errkind.NetworkError,
	} {
		standard[string(k)] = true
	}
	cases := loadCorpus(t, file)
	apis, names := map[string]bool{}, map[string]bool{}
	for _, c := range cases {
		if seen[apiName(&c)] {
			t.Errorf("%s: %s is an API of the earlier corpora", c.Name, apiName(&c))
		}
		apis[apiName(&c)] = true
		if names[c.Name] {
			t.Errorf("%s: name used twice", c.Name)
		}
		names[c.Name] = true
		if c.Name == "" || strings.ContainsAny(c.Name, " \t\n") {
			t.Errorf("%q: a name is one word", c.Name)
		}
		if c.Source == "" || c.Status == 0 {
			t.Errorf("%s: no source or no status", c.Name)
		}
		switch {
		case c.Want.Data == (c.Want.Kind != ""):
			t.Errorf("%s: want %+v is neither data nor a kind", c.Name, c.Want)
		case c.Want.Kind != "" && !standard[c.Want.Kind]:
			t.Errorf("%s: %q is no standard kind", c.Name, c.Want.Kind)
		}
	}
	if len(cases) < 200 || len(apis) < 100 {
		t.Errorf("%s: %d cases from %d APIs; a batch needs 200 from 100", file, len(cases), len(apis))
	}
}

// apiName is the name of the API a case is of, without the part of its
// api field in parentheses ("Amazon SES v2 (SendEmail)" is "Amazon SES
// v2").
func apiName(c *documented) string { return strings.SplitN(c.API, " (", 2)[0] }
