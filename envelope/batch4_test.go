package envelope_test

import "testing"

// fourthBatchFloor is the share (in percent) of the fourth batch
// (testdata/corpus/batch4.jsonl) that must read as documented: the figure
// measured on main's rules, rounded down, not above.
//
// Each case names the vendor's error reference, error schema, SDK error
// type or framework doc it stands for. Unlike batch3's, most bodies were
// written from the collector's knowledge of those pages, not copied from a
// page open at the time: about ten of the APIs were checked against their
// documentation while the batch was written, and eight cases that could
// not be supported were dropped. A case is the documented shape of an
// API's error, then, not always its verbatim body; its figure is read
// beside batch3's, whose bodies were copied from their sources. Every API in it is
// one that none of responses.jsonl, fresh.jsonl and batch3.jsonl holds.
// The file was committed with its expectations before any rule was run on
// it (365 cases from 203 APIs); the rules of main at 7f89df9 then read it:
// 295 of 365 as documented (80.8%); after the third round of general
// rules (tuned without this batch and batch3), 297 of 365 (81.4%); after
// the fourth round (tuned on batch3, fresh.jsonl and responses.jsonl,
// not on this batch), 301 of 365 (82.5%); after the sixth round (tuned on
// batch5, batch3, fresh.jsonl and responses.jsonl), 301 of 365,
// unchanged; after the seventh round (tuned on batch6, batch5, batch3,
// fresh.jsonl and responses.jsonl), 302 of 365 (82.7%); after the
// eighth round (tuned on the same), 302 of 365, unchanged; after the
// ninth round's rules of the kind, tuned on this batch too, 316 of 365
// (86.6%), one of them by an expectation brought to the corpora's
// convention (dex_400_invalid_grant: OAuth's invalid_grant at a 400 is an
// argument, as responses.jsonl and batch5.jsonl read it).
//
// The whole batch was held out through the eighth round: no rule was
// tuned on it, and the test logged only the count. From the ninth round on
// it is tuned on like the others, and a seventh batch, collected apart
// from the rules' authors, is the held-out measure: 311 of 365 (85.2%)
// after the ninth round's rules of where the members are. Two expectations
// were then corrected to the conventions the other corpora and the
// package doc hold (vm_422: a code that repeats the status is none;
// sesv2_400_notfound: x-amzn-ErrorType gives the code the body does not):
// 313 of 365 (85.8%).
// The ninth round's rules of the kind alone read 316 of 365, with one
// expectation brought to the corpora's convention (dex_400_invalid_grant:
// OAuth's invalid_grant at a 400 is an argument, as in responses.jsonl and
// batch5); both parts of the ninth round together: 327 of 365 (89.6%).
// The tenth round's rules of the kind (a 503 over the caller's limit):
// 328 of 365 (89.9%).
// The tenth round's rules of where the members are (rules10m; a "tag" or
// "class" written as a code word is the class): 331 of 365 (90.6%).
// Both parts of the tenth round together: 332 of 365 (91.0%).
// The eleventh round of where the members are (rules11m): six
// expectations aligned to the package doc's conventions (a text 500 that
// says only its status is malformed_response: uvicorn_500_text,
// puma_500_text; JSON:API's source stays in the details, as the
// jsonapi_422 golden has it: unit_400, shopware_400, datacite_422; HTML
// tags are dropped from a message: opentsdb_400), 338 of 365; with the
// round's rules (a status number of the API's own beside a message, a
// field's error object), 340 of 365 (93.2%).
// The eleventh round's rules of the kind (rules11c): 334 of 365 (91.5%),
// with one expectation brought to the convention of errkind's litmus
// test and of the other corpora (marqeta_400: a card product that
// matches nothing is not_found at a 400, as a model that does not exist
// is in batch3's siliconflow_400_model), and two to the package doc's
// (uvicorn_500_text, puma_500_text: a text 500 is malformed_response, as
// the plain_500 golden and responses.jsonl's starlette_500_text read the
// same body): 336 of 365 (92.1%).
// Both parts of the eleventh round together: 342 of 365 (93.6%).
const fourthBatchFloor = 93

// TestReadFourthBatch reads the fourth batch, documented responses of APIs
// the other corpora do not hold, and fails if the share read as
// documented falls under fourthBatchFloor. MCPERR_CORPUS_MISSES=1 logs its
// misses.
func TestReadFourthBatch(t *testing.T) {
	readTunedBatch(t, "batch4.jsonl", "fourth batch", fourthBatchFloor)
}

// TestFourthBatchShape keeps the fourth batch what its commit says: at
// least 200 cases from at least 100 APIs, none of them an API of the three
// earlier files, names unique, sources present, kinds standard.
func TestFourthBatchShape(t *testing.T) {
	checkBatchShape(t, "batch4.jsonl", "responses.jsonl", "fresh.jsonl", "batch3.jsonl")
}
