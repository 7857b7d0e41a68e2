package envelope_test

import "testing"

// fifthBatchFloor is the share (in percent) of the fifth batch
// (testdata/corpus/batch5.jsonl) that must read as documented: the figure
// measured, rounded down, not above.
//
// The batch holds documented error responses (and a few successes) of
// APIs from these domains only: LLM and inference APIs and the gateways in
// front of them, vector databases, auth and identity providers, commerce
// and payments, messaging, email and SMS, maps, geo and weather, media
// (images, video, audio, music, podcasts) and SaaS productivity (CRM,
// ticketing, calendars, forms, invoicing). Each case's source names the
// vendor's error reference, or the issue thread or recorded response it
// was copied from; most bodies are copied verbatim from the page, and
// where a page gives only a format and a table of codes the source says
// the body was written from them. Every API in it is one that none of
// responses.jsonl, fresh.jsonl, batch3.jsonl and batch4.jsonl holds.
//
// The file was committed with its expectations, written from each API's
// documentation and errkind's catalogue, before any rule was run on it
// (202 cases from 107 APIs); the rules of main at 438ac34 then read it:
// 173 of 202 as documented (85.6%), the honest figure for data nobody
// tuned to. Three expectations were then corrected to the corpora's
// conventions, which the collector had missed (Spring's default error
// body gives its reason phrase as the message, as responses.jsonl's
// Spring Boot cases read; errkind's catalogue reads invalid_grant at a
// 400 as an argument): main's rules read 176 of 202 by them. The sixth
// round of general rules was tuned on this batch (with fresh.jsonl,
// responses.jsonl and batch3.jsonl, never batch4.jsonl): 187 of 202
// (92.6%) after it, and after the seventh round (tuned on batch6.jsonl
// with this batch), unchanged; 191 of 202 (94.6%) after the ninth.
// The ninth round's rules of the kind alone read 188 of 202 (a credential
// refused by any adjective: "Old authorization key"); both parts of the
// ninth round together: 193 of 202 (95.5%). The tenth round's rules of
// the kind (a message's words of a wrong argument below 400): 194 of 202
// (96.0%).
// The eleventh round of where the members are (rules11m): one expectation
// aligned to the convention of which code a body gives
// (weatherstack_200_usage_limit: the code word over the number): 195 of
// 202 (96.5%).
// The eleventh round's rules of the kind (rules11c), with one expectation
// brought to errkind's litmus test and batch3's siliconflow_400_model
// (zai_400_model: "Model does not exist" at a 400 is not_found): 194 of
// 202 (96.0%).
// Both parts of the eleventh round together: 195 of 202 (96.5%).
const fifthBatchFloor = 96

// TestReadFifthBatch reads the fifth batch, documented responses of APIs
// the other corpora do not hold, and fails if the share read as
// documented falls under fifthBatchFloor. MCPERR_CORPUS_MISSES=1 logs its
// misses: the sixth round of rules is tuned on it (batch4.jsonl stays the
// held-out measure).
func TestReadFifthBatch(t *testing.T) {
	readTunedBatch(t, "batch5.jsonl", "fifth batch", fifthBatchFloor)
}

// TestFifthBatchShape keeps the fifth batch what its commit says: at
// least 200 cases from at least 100 APIs, none of them an API of the four
// earlier files, names unique, sources present, kinds standard.
func TestFifthBatchShape(t *testing.T) {
	checkBatchShape(t, "batch5.jsonl", "responses.jsonl", "fresh.jsonl", "batch3.jsonl", "batch4.jsonl")
}
