package envelope_test

import "testing"

// sixthBatchFloor is the share (in percent) of the sixth batch
// (testdata/corpus/batch6.jsonl) that must read as documented: the figure
// measured on main's rules, rounded down, not above.
//
// The batch holds documented error responses (and a few successes that
// look like errors) from the domains the issue names and no earlier corpus
// holds: API gateways, proxies, WAFs and edges; web frameworks' default
// error bodies, GraphQL servers among them; databases, search engines and
// message brokers with HTTP APIs; RPC over HTTP (JSON-RPC servers and
// batches, XML-RPC faults, SOAP faults, SAP's OData); cloud, infrastructure
// and devops APIs; and government and open-data APIs. Each case names its
// source. 15 bodies (of 10 APIs) were copied verbatim from a source open at
// the time (vendor docs, an RFC, a recorded answer in a client's test
// data); the other cases are the documented shape of the API's error,
// written from the collector's knowledge of the page named, so the figure
// is of shapes more than of bytes. Every API in it is one that none of
// responses.jsonl, fresh.jsonl, batch3.jsonl, batch4.jsonl and batch5.jsonl
// holds (the two batches were collected at the same time, apart).
//
// The file was committed with its expectations before any rule was run on
// it (435 cases from 216 APIs); the rules of main at 438ac34 then read it
// once: 344 of 435 as documented (79.1%); after the sixth round of
// general rules (tuned on batch5.jsonl, whose collector never saw this
// batch, and on the earlier tuned files), 344 of 435 again.
//
// The batch was held out through the sixth round at 344 of 435. From the
// seventh round on it is tuned on like batch5.jsonl (batch4.jsonl stays
// the held-out measure): 359 of 435 (82.5%) after the seventh round,
// whose rules read no vendor's name (a multi-line text at 4xx, an error
// object's message under any message name, field errors under a code's
// name, a body that is one string, one space for a CRLF, an X- field for
// the message, a wait named with its unit); 371 of 435 (85.3%) after the
// eighth, whose rules read no vendor's name either (an XML element whose
// status, class or result attribute says failed, an XML <Detail> of text
// as the message and a code that repeats the status as none, a status or
// an error number that says failed beside a message below 400, a fault's
// code word in capitals over a code the taxonomy does not know, a
// GraphQL error's HTTP status in its extensions); 382 of 435 (87.8%) after
// the ninth, whose rules of where the members are read no vendor's name
// (codes and messages under other names and case styles, an error
// object's class, XML status children, 2xx failures in other members).
// The ninth round's rules of the kind alone read 378 of 435 (86.9%)
// (code words: an access key,
// a credential, authorization_required, already_*, max_concurrent, a URN
// code's last part; the message's words through the taxonomy, a field's
// own "already exists" an argument), one of them by an expectation
// brought to batch4's convention (awx_400_exists: a DRF field's "already
// exists" at a 400 is that field's validation, as authentik_400 and
// flagsmith_400 read); both parts of the ninth round together: 388 of
// 435 (89.2%). The tenth round's rules of the kind (an argument's words
// below 400): 389 of 435 (89.4%).
// 435 (89.2%). The tenth round's rules of where the members are
// (rules10m; FHIR's OperationOutcome read by its specification): 393 of
// 435 (90.3%).
// Both parts of the tenth round together: 394 of 435 (90.6%).
// The eleventh round of where the members are (rules11m): one expectation
// aligned to discord_401's golden (yii2_404: a code 0 is kept as
// written), 395 of 435; with the round's rules (a catalogue's key such
// as "error.validation" is a label), 398 of 435 (91.5%).
// The eleventh round's rules of the kind (rules11c; a JSON-RPC
// implementation's own code below 400, "No valid lookup found"): 396 of
// 435 (91.0%).
// Both parts of the eleventh round together: 400 of 435 (91.9%).
const sixthBatchFloor = 91

// TestReadSixthBatch reads the sixth batch, documented error responses of
// gateways, frameworks, databases, RPC servers, cloud and infrastructure
// APIs and government APIs that the other corpora do not hold, and fails
// if the share read as documented falls under sixthBatchFloor.
// MCPERR_CORPUS_MISSES=1 logs its misses: the seventh and eighth rounds
// of rules are tuned on it (batch4.jsonl stays the held-out measure).
func TestReadSixthBatch(t *testing.T) {
	readTunedBatch(t, "batch6.jsonl", "sixth batch", sixthBatchFloor)
}

// TestSixthBatchShape keeps the sixth batch what its commit says: at least
// 200 cases from at least 100 APIs, none of them an API of the four earlier
// files, names unique, sources present, kinds standard.
func TestSixthBatchShape(t *testing.T) {
	checkBatchShape(t, "batch6.jsonl", "responses.jsonl", "fresh.jsonl", "batch3.jsonl", "batch4.jsonl", "batch5.jsonl")
}
