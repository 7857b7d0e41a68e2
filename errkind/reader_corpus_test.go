package errkind_test

import (
	"bufio"
	"encoding/json"
	"hash/fnv"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mcperr/mcperr/errkind"
)

// answer is one record of testdata/answers.jsonl: an answer an MCP SDK or
// framework gives a client, where it came from (a file and version in the
// SDK's repository, or "run: " and how it was captured), and what Read must
// make of it, written down before the rules were.
type answer struct {
	Name    string `json:"name"`
	Batch   int    `json:"batch"` // 2, 3: added after the rules were written, read by them once before any change
	SDK     string `json:"sdk"`
	Version string `json:"version"`
	Source  string `json:"source"`
	Answer  struct {
		IsError bool            `json:"isError"`
		Text    string          `json:"text"`
		RPC     bool            `json:"rpc"`
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"answer"`
	Want answerWant `json:"want"`
}

type answerWant struct {
	Kind errkind.Kind `json:"kind"`
	Move errkind.Move `json:"move"`
	Args []string     `json:"args"`
	Tool string       `json:"tool,omitempty"`
	Wait string       `json:"wait,omitempty"`
}

func (a answer) outcome() errkind.Outcome {
	if a.Answer.RPC {
		o := errkind.Outcome{RPCCode: errkind.RPCCode(a.Answer.Code), Message: a.Answer.Message}
		if len(a.Answer.Data) > 0 {
			o.Data = a.Answer.Data
		}
		return o
	}
	return errkind.Outcome{IsError: a.Answer.IsError, Text: a.Answer.Text}
}

// heldOut reports whether a record is in the held-out part: about 30% of
// the records, by a stable hash of the name, decided before the rules were
// written; the rules were tuned on the rest.
func heldOut(name string) bool {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()%10 < 3
}

func readAnswers(t *testing.T) []answer {
	t.Helper()
	f, err := os.Open("testdata/answers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var as []answer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("%s: %v", sc.Bytes(), err)
		}
		if a.Source == "" || a.SDK == "" || a.Version == "" {
			t.Fatalf("%s: no SDK, version or source", a.Name)
		}
		as = append(as, a)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return as
}

// TestAnswers reads every answer of the corpus: the kind, the move, the
// arguments at fault (the same path whatever the SDK), the tool and the
// wait where the record names them. Tuned and held-out accuracy are
// logged apart.
func TestAnswers(t *testing.T) {
	as := readAnswers(t)
	sdks := map[string]bool{}
	var right, total [4]int // [tuned, held out, batch 2, batch 3]
	for _, a := range as {
		sdks[a.SDK] = true
		r := errkind.Read(a.outcome())
		got := answerWant{Kind: r.Kind, Move: r.Move, Args: r.Args}
		if a.Want.Tool != "" {
			got.Tool = r.Tool
		}
		if a.Want.Wait != "" && r.HasWait {
			got.Wait = r.Wait.String()
		}
		part := 0
		switch {
		case a.Batch >= 2:
			part = a.Batch
		case heldOut(a.Name):
			part = 1
		}
		total[part]++
		if d := cmp.Diff(a.Want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s (%s): (-want +got)\n%s", a.Name, a.Source, d)
			continue
		}
		right[part]++
	}
	t.Logf("%d SDKs and frameworks; tuned %d/%d, held out %d/%d, batch 2 %d/%d, batch 3 %d/%d", len(sdks), right[0], total[0], right[1], total[1], right[2], total[2], right[3], total[3])
	if len(sdks) < 12 {
		t.Errorf("%d SDKs and frameworks, want 12 at least", len(sdks))
	}
}
