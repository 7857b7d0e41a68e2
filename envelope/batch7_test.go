package envelope_test

import "testing"

// seventhBatchFloor is the share (in percent) of the seventh batch
// (testdata/corpus/batch7.jsonl) that must read as documented: the figure
// measured on main's rules, rounded down, not above.
//
// The batch is held out: it was collected apart from the rules' authors to
// measure how the rules read data nobody tuned them to, so no rule may be
// tuned on it, and its test logs only the count read as documented, never
// which case misses.
//
// It holds 362 documented responses of 134 APIs that none of the earlier
// corpora holds, weighted toward the domains of the hidden corpus:
// LLM and inference APIs and gateways (Portkey, Keywords AI, Baseten,
// Writer, Firecrawl, AWS and Azure AI services, Google's AI and data
// APIs); databases and data engines (Kafka Connect, ksqlDB, Flink, Livy,
// WebHDFS, YARN, NiFi, Atlas, Superset, Metabase, Drill, Dremio, Presto,
// Gremlin Server, Redshift Data API, OpenFGA); commerce and payments
// (dLocal, Midtrans, EBANX, Finix, Moyasar, Payeezy, Worldpay, Ingenico
// and other gateways, BTCPay); shipping carriers (UPS, FedEx, DHL's four
// APIs, Canada Post, Australia Post, Chronopost, DPD, Sendle and more);
// messaging (Airship, Pushwoosh, Chatwork, Zalo, SMSAPI, SMTP2GO, Crisp);
// maps, geocoding and media (Geocodio, TravelTime, 2GIS, Tencent, Yandex,
// Postcodes.io, Loqate, Musixmatch, Trakt, SoundCloud); auth (LoginRadius,
// Unkey, ngrok); and RPC shapes over HTTP (JSON-RPC nodes, SOAP faults and
// SOAP answers that carry an error at 200, XML-PI). It includes 2xx bodies
// that are errors and 2xx bodies that only look like ones.
//
// 93 cases (of 58 APIs) are verbatim: copied byte for byte from a source
// open at the time, vendor documentation or the recorded answers in client
// test suites (karrioapi/karrio's carrier connectors, alexreisner/geocoder's
// fixtures, activemerchant/active_merchant's gateway tests), each naming
// its source and where the HTTP status came from. The other cases are the
// documented shape of the API's error, written from the page they name.
// Every expectation was written from the documentation and the corpus
// conventions, and the file committed, before any rule ran on it.
//
// The rules of main at 6f00050 then read it once: 239 of 362 as
// documented (66.0%). One correction followed, of a source, not of an
// expectation: airship_400_location was marked verbatim, but the page's
// example lacks its closing brace, which the case adds, so its source now
// says it is described from the documented shape.
const seventhBatchFloor = 66

// TestReadSeventhBatch reads the seventh batch, held-out documented
// responses of APIs the other corpora do not hold, logs only how many read
// as documented, and fails if the share falls under seventhBatchFloor.
func TestReadSeventhBatch(t *testing.T) {
	readHeldOutBatch(t, "batch7.jsonl", "seventh batch", seventhBatchFloor)
}

// readHeldOutBatch reads a batch kept out of the rules' tuning (file),
// logs the count read as documented and nothing of which cases miss, and
// fails if the share falls under floor percent.
func readHeldOutBatch(t *testing.T, file, part string, floor int) {
	t.Helper()
	var all tally
	for _, c := range loadCorpus(t, file) {
		_, ok := c.check()
		all.add(ok)
	}
	t.Logf("%s: %d of %d read as documented", part, all.ok, all.n)
	all.floor(t, part, floor)
}

// TestSeventhBatchShape keeps the seventh batch what its commit says: at
// least 200 cases from at least 100 APIs, none of them an API of the six
// earlier files, names unique, sources present, kinds standard.
func TestSeventhBatchShape(t *testing.T) {
	checkBatchShape(t, "batch7.jsonl", "responses.jsonl", "fresh.jsonl", "batch3.jsonl", "batch4.jsonl", "batch5.jsonl", "batch6.jsonl")
}
