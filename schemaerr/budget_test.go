package schemaerr

import (
	"encoding/json"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// hostileShape is a schema and a way to fill at most n bytes of arguments that makes it work
// hard, and fail.
type hostileShape struct {
	name   string
	schema string
	args   func(n int) []byte
}

// repeatList writes {"<key>":[item,item,...]} of about n bytes, item(i) giving each element.
func repeatList(key string, n int, item func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(`{"` + key + `":[`)
	for i := 0; ; i++ {
		x := item(i)
		if b.Len()+len(x)+3 > n {
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// repeatObject writes {"<key>":{k0:v,k1:v,...}} of about n bytes.
func repeatObject(key string, n int, member func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(`{"` + key + `":{`)
	for i := 0; ; i++ {
		x := member(i)
		if b.Len()+len(x)+3 > n {
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// nestedUnion is a recursive schema whose every level is an anyOf of two branches that both
// descend: without memoised probes, a value nested d deep is probed 2^d times.
const nestedUnion = `{"type":"object","properties":{"t":{"$ref":"#/$defs/n"}},"$defs":{"n":{"anyOf":[` +
	`{"type":"array","items":{"$ref":"#/$defs/n"},"maxItems":3},` +
	`{"type":"array","items":{"$ref":"#/$defs/n"},"minItems":5},` +
	`{"type":"integer","maximum":0}]}}}`

var hostileShapes = []hostileShape{
	{"uniqueItems integers", `{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`,
		func(n int) []byte { return repeatList("a", n, func(i int) string { return strconv.Itoa(i % 100000) }) }},
	{"uniqueItems objects", `{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`,
		func(n int) []byte {
			return repeatList("a", n, func(i int) string { return `{"x":` + strconv.Itoa(i%20000) + `,"y":[1,2],"z":"s"}` })
		}},
	{"uniqueItems wide objects", `{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`,
		func(n int) []byte {
			half := repeatObject("a", n/2, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` })
			o := string(half[len(`{"a":`) : len(half)-1])
			return []byte(`{"a":[` + o + `,` + o + `]}`)
		}},
	{"pattern on items", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","pattern":"^([a-z]+[0-9]*)+(-[a-z0-9]+)*$"}}}}`,
		func(n int) []byte {
			return repeatList("a", n, func(int) string { return `"` + strings.Repeat("ab1-", 8) + `!"` })
		}},
	{"pattern on one string", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string","pattern":"^(\\w+\\s?)*$","maxLength":3},{"type":"string","pattern":"^(\\w+\\s?)*$","minLength":2000000}]}}}`,
		func(n int) []byte { return []byte(`{"a":"` + strings.Repeat("ab ", (n-16)/3) + `!"}`) }},
	{"propertyNames pattern", `{"type":"object","properties":{"a":{"type":"object","propertyNames":{"pattern":"^[a-z]+$"},"additionalProperties":{"type":"integer"}}}}`,
		func(n int) []byte {
			return repeatObject("a", n, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` })
		}},
	{"strict object, unknown keys", `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x","y","z"],"additionalProperties":false}}}`,
		func(n int) []byte {
			return repeatObject("a", n, func(i int) string { return `"` + strconv.Itoa(i) + `":1` })
		}},
	{"enum-keyed record", `{"type":"object","properties":{"a":{"type":"object","propertyNames":{"enum":["p","q","r"]},"required":["p","q","r"],"additionalProperties":{"type":"string"}}}}`,
		func(n int) []byte {
			return repeatObject("a", n, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` })
		}},
	{"nested unions", nestedUnion,
		func(n int) []byte {
			d := 60
			inner := strings.Repeat("[", d) + "1" + strings.Repeat("]", d)
			return repeatList("t", n, func(int) string { return inner })
		}},
	{"contains and not", `{"type":"object","properties":{"a":{"type":"array","contains":{"type":"string","not":{"pattern":"^x"}},"items":{"not":{"type":"object"}}}}}`,
		func(n int) []byte {
			return repeatList("a", n, func(i int) string { return `"x` + strconv.Itoa(i) + `"` })
		}},
	{"union of 30 objects", `{"type":"object","properties":{"a":{"type":"array","items":{"anyOf":[` +
		strings.TrimSuffix(strings.Repeat(`{"type":"object","properties":{"k":{"const":"no"},"v":{"type":"string","minLength":1}},"required":["k","v"]},`, 30), ",") + `]}}}}`,
		func(n int) []byte {
			return repeatList("a", n, func(int) string { return `{"k":"no","v":""}` })
		}},
}

// validShapes are costly arguments that pass: each shape fills n bytes with values its schema
// accepts, the costliest found for a valid call.
var validShapes = []hostileShape{
	{"uniqueItems integers", `{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`,
		func(n int) []byte { return repeatList("a", n, func(i int) string { return strconv.Itoa(i) }) }},
	{"uniqueItems objects", `{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`,
		func(n int) []byte {
			return repeatList("a", n, func(i int) string { return `{"x":` + strconv.Itoa(i) + `,"y":[1,2],"z":"s"}` })
		}},
	{"pattern on items", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","pattern":"^([a-z]+[0-9]*)+(-[a-z0-9]+)*$"}}}}`,
		func(n int) []byte {
			return repeatList("a", n, func(int) string { return `"` + strings.Repeat("ab1-", 8) + `x"` })
		}},
	{"pattern on one string", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string","pattern":"^(\\w+\\s?)*$","maxLength":3},{"type":"string","pattern":"^(\\w+\\s?)*$"}]}}}`,
		func(n int) []byte { return []byte(`{"a":"` + strings.Repeat("ab ", (n-16)/3) + `"}`) }},
	{"propertyNames pattern", `{"type":"object","properties":{"a":{"type":"object","propertyNames":{"pattern":"^[a-z0-9]+$"},"additionalProperties":{"type":"integer"}}}}`,
		func(n int) []byte {
			return repeatObject("a", n, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` })
		}},
	{"nested unions", nestedUnion,
		func(n int) []byte {
			d := 60
			inner := strings.Repeat("[", d) + "0" + strings.Repeat("]", d)
			return repeatList("t", n, func(int) string { return inner })
		}},
	{"contains and not", `{"type":"object","properties":{"a":{"type":"array","contains":{"type":"string","not":{"pattern":"^x"}},"items":{"not":{"type":"object"}}}}}`,
		func(n int) []byte {
			return repeatList("a", n, func(i int) string { return `"y` + strconv.Itoa(i) + `"` })
		}},
	{"nested unions second branch", nestedUnion,
		func(n int) []byte {
			return repeatList("t", n, func(int) string { return "[[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]]" })
		}},
	{"nested unions wide", nestedUnion,
		func(n int) []byte {
			return repeatList("t", n, func(int) string { return "[[[0,0,0],[0,0,0],[0,0,0]],[[0,0,0],[0,0,0],[0,0,0]]]" })
		}},
	{"union of 8 objects, last", `{"type":"object","properties":{"a":{"type":"array","items":{"anyOf":[` + strings.Repeat(`{"type":"object","properties":{"k":{"const":"no"},"v":{"type":"string","minLength":1}},"required":["k","v"]},`, 7) + `{"type":"object","properties":{"k":{"const":"yes"},"v":{"type":"integer"}},"required":["k","v"]}]}}}}`,
		func(n int) []byte {
			return repeatList("a", n, func(int) string { return `{"k":"yes","v":1}` })
		}},
	{"enum of 50", `{"type":"object","properties":{"a":{"type":"array","items":{"enum":[` + list50() + `]}}}}`,
		func(n int) []byte {
			return repeatList("a", n, func(int) string { return `"v49"` })
		}},
}

func list50() string {
	var b []string
	for i := range 50 {
		b = append(b, `"v`+strconv.Itoa(i)+`"`)
	}
	return strings.Join(b, ",")
}

// TestWorkLinear: the work of validating grows with the arguments and no faster, keyword by
// keyword: validation time per byte at 256 KiB of arguments is within 16 times that at 8 KiB
// (CPU time, the best of 5 samples, the budget out of the way). A keyword that compares every
// pair of elements costs 32 times more a byte. Linear work can cost up to about 10 times more a
// byte at the larger size: caches, and a decoder of more than 16k values, which is allocated
// afresh instead of pooled (uniqueItems on objects measures a step of 4 to 5 times between 64
// and 128 KiB, then stays flat up to 1 MiB). The sizes were 16 and 512 KiB: the same factor of
// 32 at half the cost.
func TestWorkLinear(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("times validation of 256 KiB arguments")
	}
	for _, sh := range hostileShapes {
		s, err := Compile([]byte(sh.schema), &Options{Bounds: Bounds{MaxWork: 1 << 40}})
		if err != nil {
			t.Fatal(sh.name, err)
		}
		// each sample validates 256 KiB in all: 32 times 8 KiB, or once 256 KiB
		perByte := func(n int) float64 {
			args := sh.args(n)
			runs := (256 << 10) / n
			best := time.Duration(math.MaxInt64)
			for range 5 {
				runtime.GC()
				c := cpuTime()
				for range runs {
					s.Validate(args)
				}
				best = min(best, cpuTime()-c)
			}
			return float64(max(best, time.Microsecond)) / float64(runs*len(args))
		}
		small, big := perByte(8<<10), perByte(256<<10)
		if big > 16*small {
			t.Errorf("%s: %.1f ns a byte at 256 KiB, %.1f at 8 KiB: the work grows faster than the arguments", sh.name, big, small)
		} else {
			t.Logf("%s: %.1f ns a byte at 256 KiB, %.1f at 8 KiB", sh.name, big, small)
		}
	}
}

// TestNestedUnionsLinear: unions nested in a recursive schema probe each value once per schema,
// not once per enclosing branch: a value nested 16 deep costs about twice one nested 8 deep,
// not 2^8 times.
func TestNestedUnionsLinear(t *testing.T) {
	s, err := Compile([]byte(nestedUnion), &Options{Bounds: Bounds{MaxWork: 1 << 40}})
	if err != nil {
		t.Fatal(err)
	}
	cost := func(depth int) time.Duration {
		args := []byte(`{"t":` + strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth) + `}`)
		best := time.Duration(math.MaxInt64)
		for range 5 {
			c := time.Now()
			for range 20 {
				if is := s.Validate(args); len(is) != 1 || is[0].Code != codeInvalidUnion {
					t.Fatalf("depth %d: %v; want one invalid_union issue", depth, is)
				}
			}
			best = min(best, time.Since(c))
		}
		return best
	}
	shallow, deep := cost(8), cost(16)
	if deep > 20*shallow {
		t.Errorf("nested 16 deep: %v, 8 deep: %v; want about twice, not exponential", deep, shallow)
	}
}

// TestWorstCase: whatever the schema, validating arguments of the default 1 MiB bound does at
// most the default budget of work, counted (ten times MaxWork to check them, MaxWork more to
// word their refusal), and ends with the issues or with the refusal. The log (-v) shows each
// shape's work and CPU time with no budget.
func TestWorstCase(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("times validation of 1 MiB arguments")
	}
	for _, sh := range hostileShapes {
		args := sh.args(defaultMaxBytes)
		s, err := Compile([]byte(sh.schema), nil)
		if err != nil {
			t.Fatal(sh.name, err)
		}
		c0 := cpuTime()
		is, work := s.validate(args)
		spent := cpuTime() - c0
		if max := (checkWork + 1) * defaultMaxWork; work > max+len(args) {
			t.Errorf("%s: Validate of %d bytes did %d steps of work; want at most %d", sh.name, len(args), work, max)
		}
		if len(is) == 0 {
			t.Errorf("%s: no issues; the shape is meant to fail", sh.name)
		}
		if !testing.Verbose() {
			continue // the run without a budget is for the log alone, which only -v shows
		}
		free, _ := Compile([]byte(sh.schema), &Options{Bounds: Bounds{MaxWork: 1 << 40}})
		c := cpuTime()
		_, all := free.validate(args)
		t.Logf("%-28s %7d bytes: %8d steps, %v CPU without a budget; %8d steps, %v CPU with the default bounds (%s)", sh.name, len(args), all, cpuTime()-c, work, spent, is[0].Code)
	}
	// the costliest valid arguments found are accepted, far within the check's budget
	for _, sh := range validShapes {
		args := sh.args(defaultMaxBytes)
		s, err := Compile([]byte(sh.schema), nil)
		if err != nil {
			t.Fatal(sh.name, err)
		}
		c := cpuTime()
		is, work := s.validate(args)
		took := cpuTime() - c
		if is != nil {
			t.Errorf("valid %s: %v", sh.name, is[0])
		}
		t.Logf("valid %-22s %7d bytes: %8d steps (%.0f%% of the check's budget), %v CPU", sh.name, len(args), work, 100*float64(work)/float64(checkWork*defaultMaxWork), took)
	}
}

// TestDuplicate: uniqueItems names the pair a loop over every pair names first, comparing as
// JSON values: numbers as numbers, strings unescaped, object members in any order with a
// repeated key's last value.
func TestDuplicate(t *testing.T) {
	s, err := Compile([]byte(`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		items string
		i, j  int // -1: unique
	}{
		{`1,2,3`, -1, -1},
		{`1,2,1.0`, 0, 2},
		{`0,-0`, 0, 1},
		{`"a","b","b","a"`, 0, 3},
		{`"b","a","a"`, 1, 2},
		{`"\u0061","a"`, 0, 1},
		{`{"x":1,"y":[1,{"z":null}]},{"y":[1,{"z":null}],"x":1}`, 0, 1},
		{`{"x":1,"x":2},{"x":2}`, 0, 1},
		{`{"x":1},{"x":1,"y":1}`, -1, -1},
		{`[1,2],[2,1],[1,2]`, 0, 2},
		{`true,1,"1",null,[],{},false,0,"",[null],{"":null}`, -1, -1},
		{`null,[],null`, 0, 2},
	}
	for _, tt := range tests {
		is := s.Validate([]byte(`{"a":[` + tt.items + `]}`))
		var want []string
		if tt.i >= 0 {
			want = []string{"Invalid input: expected unique items, items " + strconv.Itoa(tt.i) + " and " + strconv.Itoa(tt.j) + " are equal at a"}
		}
		var got []string
		for _, x := range is {
			got = append(got, x.String())
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("[%s] (-want +got):\n%s", tt.items, diff)
		}
	}
}

// FuzzDuplicate compares uniqueItems with a loop over every pair of the array as encoding/json
// decodes it (numbers as float64, a repeated key's last value).
func FuzzDuplicate(f *testing.F) {
	for _, s := range []string{`[1,2,1.0]`, `[{"a":1,"b":2},{"b":2,"a":1}]`, `["\u0061","a"]`, `[[1],[1.0],{"a":[]}]`, `[{"x":1,"x":2},{"x":2}]`} {
		f.Add(s)
	}
	s, err := Compile([]byte(`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, items string) {
		var ref []any
		if !utf8.ValidString(items) || json.Unmarshal([]byte(items), &ref) != nil {
			return
		}
		args := []byte(`{"a":` + items + `}`)
		is := s.Validate(args)
		if len(is) == 1 && refusedWhole(is[0].Code) {
			return
		}
		var want []string
	pairs:
		for i := range ref {
			for j := i + 1; j < len(ref); j++ {
				if reflect.DeepEqual(ref[i], ref[j]) {
					want = []string{"Invalid input: expected unique items, items " + strconv.Itoa(i) + " and " + strconv.Itoa(j) + " are equal at a"}
					break pairs
				}
			}
		}
		var got []string
		for _, x := range is {
			got = append(got, x.String())
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", items, diff)
		}
	})
}

// BenchmarkHostile validates 1 MiB of each hostile shape with no budget; its MB/s is the
// throughput the budget is set against.
func BenchmarkHostile(b *testing.B) {
	for _, sh := range hostileShapes {
		b.Run(strings.ReplaceAll(sh.name, " ", "_"), func(b *testing.B) {
			s, err := Compile([]byte(sh.schema), &Options{Bounds: Bounds{MaxWork: 1 << 40}})
			if err != nil {
				b.Fatal(err)
			}
			args := sh.args(defaultMaxBytes)
			b.SetBytes(int64(len(args)))
			for b.Loop() {
				s.Validate(args)
			}
		})
	}
}

// TestBudgetCounted: the budget counts work, not time: a call that does W steps is accepted
// with a budget of W and refused with one of W-1, whatever the machine, the same every time.
func TestBudgetCounted(t *testing.T) {
	for _, sh := range validShapes {
		args := sh.args(64 << 10)
		free, _ := Compile([]byte(sh.schema), &Options{Bounds: Bounds{MaxWork: 1 << 40}})
		_, w := free.validate(args)
		if _, again := free.validate(args); again != w {
			t.Errorf("%s: %d steps, then %d", sh.name, w, again)
		}
		// a valid call is checked only, within checkWork times MaxWork
		max := (w + checkWork - 1) / checkWork
		fits, _ := Compile([]byte(sh.schema), &Options{Bounds: Bounds{MaxWork: max}})
		over, _ := Compile([]byte(sh.schema), &Options{Bounds: Bounds{MaxWork: max - 1}})
		if is := fits.Validate(args); is != nil {
			t.Errorf("%s: %d steps with a budget of %d: %v", sh.name, w, checkWork*max, is[0])
		}
		if is := over.Validate(args); len(is) != 1 || is[0].Code != codeTooSlow {
			t.Errorf("%s: %d steps with a budget of %d: %v; want it refused", sh.name, w, checkWork*(max-1), is)
		}
	}
}

// TestValidUnderLoad: a valid call within the size bound is never refused for the machine
// being busy: 22 concurrent calls of 945 KiB, two of each costly valid shape, on one core
// (GOMAXPROCS=1) shared with CPU hogs, are all accepted. With a budget of wall-clock time
// most were refused (35 of 64 with GOMAXPROCS=1).
func TestValidUnderLoad(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("validates 64 calls of 945 KiB per shape")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	done := make(chan struct{})
	var hogs sync.WaitGroup
	for range 4 {
		hogs.Add(1)
		go func() {
			defer hogs.Done()
			for x := 0; ; x++ {
				select {
				case <-done:
					return
				default:
				}
				for range 1 << 16 {
					x = x*31 + 7
				}
			}
		}()
	}
	defer func() { close(done); hogs.Wait() }()
	schemas := make([]*Schema, len(validShapes))
	args := make([][]byte, len(validShapes))
	for i, sh := range validShapes {
		var err error
		if schemas[i], err = Compile([]byte(sh.schema), nil); err != nil {
			t.Fatal(err)
		}
		args[i] = sh.args(945 << 10)
	}
	refused := make([]atomic.Int64, len(validShapes))
	var calls sync.WaitGroup
	start := time.Now()
	for i := range 2 * len(validShapes) {
		calls.Add(1)
		go func() {
			defer calls.Done()
			k := i % len(validShapes)
			if is := schemas[k].Validate(args[k]); is != nil {
				refused[k].Add(1)
			}
		}()
	}
	calls.Wait()
	for i, sh := range validShapes {
		if n := refused[i].Load(); n > 0 {
			t.Errorf("%s: %d of 2 valid calls refused", sh.name, n)
		}
	}
	t.Logf("%d concurrent valid calls of about 945 KiB on one core beside 4 CPU hogs: all accepted in %v", 2*len(validShapes), time.Since(start))
}
