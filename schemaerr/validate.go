package schemaerr

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER.
const maxSafeInteger = 1<<53 - 1

// Validate checks a tool call's arguments against the schema and returns every issue, in the
// order the TypeScript SDK reports them: the schema's properties in the order the schema writes
// them, array elements by index, unknown keys last. Absent arguments (nil, empty or JSON null)
// are validated as {}. A nil result means the arguments are valid. The same arguments always
// give the same issues.
//
// Past the schema's MaxIssues (100 by default), the list is cut: its last issue, about the
// arguments as a whole, has the code "more_issues" and the message "and N more issues".
//
// Arguments over the schema's [Bounds] (larger than MaxBytes, nested deeper than MaxDepth, with
// more than MaxElements elements), whose validation does more work than MaxWork (or, when it is
// set, takes longer than MaxTime), or that are not JSON are refused whole with one issue whose
// [TypeScript] text is the SDK's wording for a refused call ("... arguments contain more than the maximum
// of N elements").
func (s *Schema) Validate(args json.RawMessage) []Issue {
	issues, _ := s.validate(args)
	return issues
}

// validate is Validate; it also returns the work counted, in steps.
func (s *Schema) validate(args json.RawMessage) ([]Issue, int) {
	lim := s.limits.orDefaults()
	var start time.Time
	if lim.MaxTime > 0 {
		start = time.Now()
	}
	if len(args) > lim.MaxBytes {
		return []Issue{{Code: codeTooLarge,
			Message: "arguments are larger than the maximum of " + strconv.Itoa(lim.MaxBytes) + " bytes"}}, 0
	}
	if t := bytes.TrimSpace(args); len(t) == 0 || string(t) == "null" {
		args = emptyObject
	}
	d, _ := s.pool.Get().(*decoder)
	if d == nil {
		d = &decoder{}
	}
	defer func() {
		if cap(d.vals) <= 1<<14 && len(d.matches) <= 1<<10 && len(d.probes) <= 1<<10 && len(d.keys) <= 1<<10 {
			d.reset(nil)
			s.pool.Put(d)
		}
	}()
	d.maxDepth, d.maxElems = lim.MaxDepth, lim.MaxElements
	d.reset(args)
	if !d.decode() {
		return []Issue{refusal(d.err)}, 0
	}
	// the check of validity, all a valid call costs, may do checkWork times MaxWork; wording
	// the refusal of invalid arguments, MaxWork more
	d.maxWork = checkWork * lim.MaxWork
	d.engineTime = lim.MaxTime
	if lim.MaxTime > 0 {
		d.deadline = start.Add(lim.MaxTime)
	} else {
		d.engineTime = defaultEngineTime
	}
	ev := evaluator{d: d, quit: true}
	ev.eval(s.root, 0)
	if d.late {
		return []Issue{d.tooSlow(checkWork * lim.MaxWork)}, d.work
	}
	if ev.nfail == 0 {
		return nil, d.work
	}
	d.maxWork = d.work + lim.MaxWork
	ev = evaluator{d: d, full: true, path: d.path[:0], maxIssues: lim.MaxIssues}
	ev.eval(s.root, 0)
	d.path = ev.path[:0] // keep the grown stack for the next call
	if d.late {
		return []Issue{d.tooSlow(lim.MaxWork)}, d.work
	}
	if ev.more > 0 {
		ev.issues = append(ev.issues, moreIssues(ev.more))
	}
	return ev.issues, d.work
}

var emptyObject = json.RawMessage("{}")

func refusal(e *limitError) Issue {
	switch e.code {
	case codeTooDeep:
		return Issue{Code: e.code,
			Message: "arguments nest deeper than the maximum of " + strconv.Itoa(e.limit) + " levels"}
	case codeTooManyElements:
		return Issue{Code: e.code,
			Message: "arguments contain more than the maximum of " + strconv.Itoa(e.limit) + " elements"}
	}
	return Issue{Code: codeInvalidJSON, Message: "arguments are not valid JSON: " + e.what + " at byte " + strconv.Itoa(e.off)}
}

// tooSlow is the refusal of arguments whose validation ran out of its budget: work steps,
// worded as the time they stand for, or the time of Bounds.MaxTime (or of the engine's
// matches).
func (d *decoder) tooSlow(work int) Issue {
	max := time.Duration(work) * stepTime
	if d.timedOut {
		max = d.engineTime
	}
	return Issue{Code: codeTooSlow, Message: "arguments take longer to validate than the maximum of " + durationText(max)}
}

// codeMore is the code of the issue that ends a list cut at Bounds.MaxIssues.
const codeMore = "more_issues"

// moreIssues is the issue that ends a list cut at Bounds.MaxIssues, n issues before its end.
func moreIssues(n int) Issue {
	return Issue{Code: codeMore, Message: moreText(n), more: n}
}

// checkWork is how many times MaxWork the check of validity may do: the check is all a valid
// call costs, and a valid call is not to be refused.
const checkWork = 10

// checkEvery is the work, in steps, between two looks at the clock when Bounds.MaxTime is set.
const checkEvery = 4096

// tick counts n steps of work; it reports whether validation has run out of its budget, after
// which every check stops at once. With Bounds.MaxTime set, it looks at the clock every
// checkEvery steps.
func (d *decoder) tick(n int) bool {
	d.work += n
	if d.work > d.maxWork {
		d.late = true
	}
	if !d.deadline.IsZero() && d.work >= d.nextCheck {
		d.nextCheck = d.work + checkEvery
		if time.Now().After(d.deadline) {
			d.late, d.timedOut = true, true
		}
	}
	return d.late
}

// evaluator walks a schema over a decoded document with zod's semantics. In check mode (full
// false) it only counts failures and notes whether one aborts; in full mode it builds issues.
type evaluator struct {
	d       *decoder
	full    bool
	quit    bool // check mode that stops at the first failure
	nfail   int
	aborted bool
	// explicit counts zod's explicitly aborting issues (a non-integer for an int): they skip
	// the length checks of every array that holds them
	explicit int
	issues   []Issue
	path     []pathSeg
	arena    []any
	probing  int // how many probes enclose the value being checked
	// maxIssues bounds the issues built (Bounds.MaxIssues); more counts those past it
	maxIssues, more int
}

type pathSeg struct {
	key    any   // a declared property's name, boxed
	member int32 // the object member whose key this is, or -1
	idx    int   // an array index, when member is -1 and name is ""
	name   string
}

// fail records a failure; it reports true when no issue needs building (check mode).
func (ev *evaluator) fail(cont bool) bool {
	ev.nfail++
	if !cont {
		ev.aborted = true
	}
	return !ev.full
}

// room reports whether one more issue may be built; past Bounds.MaxIssues it counts the issue
// instead.
func (ev *evaluator) room() bool {
	if len(ev.issues) < ev.maxIssues {
		return true
	}
	ev.more++
	return false
}

// add builds an issue at the current path, unless the list is full (see room). Copying the
// path is work, one step a segment; a member's key is unquoted once per call and shared by
// every issue whose path holds it, so a long key costs its length once, not once per issue.
func (ev *evaluator) add(n *node, code, check, msg string) {
	if ev.room() {
		ev.build(n, code, check, msg)
	}
}

// build is add once room is made; it reports whether the issue was built (not when the budget
// ran out).
func (ev *evaluator) build(n *node, code, check, msg string) bool {
	if ev.d.tick(len(ev.path)) {
		return false
	}
	// the paths of one rejection share one backing array
	if ev.arena == nil {
		ev.arena = make([]any, 0, 16)
	}
	start := len(ev.arena)
	for _, p := range ev.path {
		switch {
		case p.key != nil:
			ev.arena = append(ev.arena, p.key)
		case p.member >= 0:
			ev.arena = append(ev.arena, ev.d.boxedKey(p.member))
		case p.name != "" || p.idx < 0:
			ev.arena = append(ev.arena, p.name)
		default:
			ev.arena = append(ev.arena, p.idx)
		}
	}
	var path []any // nil for an issue about the arguments as a whole
	if end := len(ev.arena); end > start {
		path = ev.arena[start:end:end]
	}
	if ev.issues == nil {
		ev.issues = make([]Issue, 0, 4)
	}
	ev.issues = append(ev.issues, Issue{Path: path, Code: code, Message: msg, n: n, check: check})
	return true
}

// boxedKey is the key of member m, unquoted and boxed once per call.
func (d *decoder) boxedKey(m int32) any {
	if k, ok := d.keys[m]; ok {
		return k
	}
	if d.keys == nil {
		d.keys = make(map[int32]any)
	}
	var k any = d.key(&d.vals[m])
	d.keys[m] = k
	return k
}

func (ev *evaluator) pushMember(m int32) {
	if ev.full {
		ev.path = append(ev.path, pathSeg{member: m})
	}
}

func (ev *evaluator) pushKey(key any) {
	if ev.full {
		ev.path = append(ev.path, pathSeg{key: key, member: -1})
	}
}

func (ev *evaluator) pushIndex(i int) {
	if ev.full {
		ev.path = append(ev.path, pathSeg{member: -1, idx: i})
	}
}

func (ev *evaluator) pop() {
	if ev.full {
		ev.path = ev.path[:len(ev.path)-1]
	}
}

// probe evaluates in check mode and reports whether n failed and whether a failure aborts.
// The answer depends on n and the value alone, so a non-empty array or object is probed once
// per schema: nested unions, which probe each branch and then evaluate the one they pick,
// would otherwise probe the values below them once per enclosing branch, exponentially. The
// answers kept are those of probes inside probes and of the pass that words the issues: a
// quick pass over valid arguments keeps none, and needs none.
func (ev *evaluator) probe(n *node, vi int32) (failed, aborted bool) {
	d := ev.d
	memo := vi >= 0 && int(vi) < len(d.vals) && (d.vals[vi].kind == kArray || d.vals[vi].kind == kObject) && d.vals[vi].n > 0
	if memo {
		if r, ok := d.probes[probeKey{n, vi}]; ok {
			return r.failed, r.aborted
		}
	}
	full, quit, nfail, ab, ex := ev.full, ev.quit, ev.nfail, ev.aborted, ev.explicit
	ev.full, ev.quit, ev.nfail, ev.aborted = false, false, 0, false
	ev.probing++
	ev.eval(n, vi)
	ev.probing--
	failed, aborted = ev.nfail > 0, ev.aborted
	ev.full, ev.quit, ev.nfail, ev.aborted, ev.explicit = full, quit, nfail, ab, ex
	if memo && !d.late && (full || ev.probing > 0) {
		if d.probes == nil {
			d.probes = make(map[probeKey]probeResult)
		}
		d.probes[probeKey{n, vi}] = probeResult{failed, aborted}
	}
	return failed, aborted
}

type probeKey struct {
	n  *node
	vi int32
}

type probeResult struct{ failed, aborted bool }

type matchKey struct {
	re   jsonschema.Regexp
	s, e int32
}

// memoMin is the length from which a string's pattern results are kept: below it RE2 and the
// format checks run faster than a map keeps their answers.
const memoMin = 64

// match runs pattern re on the string at span [s, e) of the arguments (esc: the span has
// escapes). Each pattern runs once per string: a pattern on the ECMAScript engine, or on a
// string of memoMin bytes or more, keeps its answer for the rest of the call (the quick pass and
// the full one, the branches of unions). A match on the ECMAScript engine starts only before
// the deadline; once past it, validation stops and the call is refused.
func (ev *evaluator) match(re jsonschema.Regexp, s, e int32, esc bool) bool {
	d := ev.d
	_, slow := re.(*engineRegexp)
	memo := slow || e-s >= memoMin
	k := matchKey{re, s, e}
	if memo {
		if ok, seen := d.matches[k]; seen {
			return ok
		}
	}
	cost := 1
	if r, isECMA := re.(*ecmaRegexp); isECMA {
		cost = r.cost
	}
	if d.tick(1 + int(e-s)*cost>>4) {
		return false
	}
	var ok bool
	switch r, isECMA := re.(*ecmaRegexp); {
	case slow:
		// the engine's work cannot be counted: it is timed
		t := time.Now()
		if !d.deadline.IsZero() && t.After(d.deadline) {
			d.late, d.timedOut = true, true
			return false
		}
		ok = re.MatchString(unquote(d.data[s:e], esc))
		if d.engineSpent += time.Since(t); d.engineSpent > d.engineTime {
			d.late, d.timedOut = true, true
			return false
		}
	case isECMA && !esc:
		ok = r.match(d.data[s:e])
	default:
		ok = re.MatchString(unquote(d.data[s:e], esc))
	}
	if memo {
		if d.matches == nil {
			d.matches = make(map[matchKey]bool)
		}
		d.matches[k] = ok
	}
	return ok
}

func (ev *evaluator) kind(vi int32) vkind {
	if vi < 0 {
		return kUndefined
	}
	return ev.d.vals[vi].kind
}

// stopped reports whether evaluation has nothing left to do: check mode that stops at the first
// failure has one, or the call ran past its deadline.
func (ev *evaluator) stopped() bool {
	return ev.quit && ev.nfail > 0 || ev.d.late
}

// eval applies schema n to value vi (-1: undefined, a required property that is absent).
func (ev *evaluator) eval(n *node, vi int32) {
	if ev.stopped() || ev.d.tick(1) {
		return
	}
	switch n.boolean {
	case 1:
		return
	case -1:
		if ev.fail(false) {
			return
		}
		ev.add(n, codeInvalidType, "never", "Invalid input: expected never, received "+ev.receivedName(vi))
		return
	}
	if n.ref != nil {
		ev.eval(n.ref, vi)
		if n.refOnly {
			return
		}
	}
	k := ev.kind(vi)

	// enum and const: zod's enum and literal say nothing but this about a value they refuse
	if n.enum != nil && !ev.inEnum(n, vi) {
		if ev.fail(false) {
			return
		}
		ev.add(n, codeInvalidValue, "enum", n.msg.enum)
		return
	}

	if n.types != 0 && !ev.typeOK(n, vi) {
		return
	}

	switch k {
	case kNumber:
		ev.number(n, ev.d.vals[vi].num)
	case kString:
		ev.str(n, vi)
	case kArray:
		if !ev.array(n, vi) {
			return
		}
	case kObject:
		ev.object(n, vi)
	}

	for _, x := range n.allOf {
		ev.eval(x, vi)
	}
	if k == kString && len(n.allOf) > 0 {
		ev.assert(n, vi)
	}
	if n.nullable != nil {
		if k != kNull {
			ev.eval(n.nullable, vi)
		}
	} else if len(n.anyOf) > 0 {
		ev.union(n, n.anyOf, vi, false)
	}
	if n.discKey != "" {
		ev.discriminated(n, vi)
	} else if len(n.oneOf) > 0 {
		ev.union(n, n.oneOf, vi, true)
	}
	if n.not != nil {
		if failed, _ := ev.probe(n.not, vi); !failed {
			if !ev.fail(false) {
				ev.add(n, codeCustom, "not", "Invalid input")
			}
		}
	}
	if n.ifN != nil {
		if failed, _ := ev.probe(n.ifN, vi); !failed {
			if n.thenN != nil {
				ev.eval(n.thenN, vi)
			}
		} else if n.elseN != nil {
			ev.eval(n.elseN, vi)
		}
	}
}

func (ev *evaluator) receivedName(vi int32) string {
	if vi >= 0 {
		v := &ev.d.vals[vi]
		if v.kind == kNumber && math.IsInf(v.num, 0) {
			return jsNumber(v.num)
		}
	}
	return received[ev.kind(vi)]
}

// typeOK checks the type keyword. A refused value gets zod's invalid_type issue; zod's length
// checks still measure a wrong-typed value that has a length (a string where an array belongs,
// or the other way round).
func (ev *evaluator) typeOK(n *node, vi int32) bool {
	k := ev.kind(vi)
	t := n.types
	var ok bool
	switch k {
	case kNull:
		ok = t&tNull != 0
	case kBool:
		ok = t&tBool != 0
	case kString:
		ok = t&tString != 0
	case kArray:
		ok = t&tArray != 0
	case kObject:
		ok = t&tObject != 0
	case kNumber:
		f := ev.d.vals[vi].num
		switch {
		case math.IsInf(f, 0):
			ok = false
		case t&tNumber != 0:
			ok = true
		case t&tInteger != 0:
			if f != math.Trunc(f) {
				ev.explicit++
				if !ev.fail(false) {
					ev.add(n, codeInvalidType, "int", "Invalid input: expected int, received number")
				}
				return false
			}
			ok = true
		}
	}
	if ok {
		return true
	}
	name := expectedName(t)
	if name == "" {
		if !ev.fail(false) {
			ev.add(n, codeInvalidUnion, "type", "Invalid input")
		}
		return false
	}
	if !ev.fail(false) && ev.room() {
		msg := n.msg.typ[k]
		if k == kNumber {
			msg = "Invalid input: expected " + n.typeName(name) + ", received " + ev.receivedName(vi)
		}
		ev.build(n, codeInvalidType, "type", msg)
	}
	switch {
	case k == kArray && t&^tNull == tString:
		ev.lengths(n, "array", "items", int(ev.d.vals[vi].n), n.minLen, n.maxLen)
	case k == kString && t&^tNull == tArray && len(n.prefix) == 0: // a tuple has no length checks
		ev.lengths(n, "string", "characters", ev.d.runeLen(&ev.d.vals[vi]), n.minItems, n.maxItems)
	}
	return false
}

// expectedName is zod's name for the type a schema wants, or "" when the type is a union of
// several (zod's union then says only "Invalid input").
func expectedName(t uint8) string {
	if t == tNull {
		return "null"
	}
	switch t &^ tNull {
	case tString:
		return "string"
	case tNumber, tInteger, tNumber | tInteger:
		return "number"
	case tBool:
		return "boolean"
	case tArray:
		return "array"
	case tObject:
		return "object"
	}
	return ""
}

// lengths reports minimum and maximum lengths as zod's length checks do; equal bounds are zod's
// .length(n), "exactly n".
func (ev *evaluator) lengths(n *node, origin, unit string, l, min, max int) {
	if min >= 0 && l < min || max >= 0 && l > max {
		small, big := lengthMessages(origin, unit, min, max, min == max)
		ev.bounds(n, l, min, max, small, big)
	}
}

// bounds reports a length below min or above max with the given texts.
func (ev *evaluator) bounds(n *node, l, min, max int, small, big string) {
	if min >= 0 && l < min {
		if !ev.fail(true) {
			ev.add(n, codeTooSmall, "min", small)
		}
	}
	if max >= 0 && l > max {
		if !ev.fail(true) {
			ev.add(n, codeTooBig, "max", big)
		}
	}
}

func (ev *evaluator) number(n *node, f float64) {
	intOnly := n.types&tInteger != 0 && n.types&tNumber == 0
	if intOnly && math.Abs(f) > maxSafeInteger {
		if f > 0 {
			if !ev.fail(true) {
				ev.add(n, codeTooBig, "safe", "Too big: expected int to be <=9007199254740991")
			}
		} else if !ev.fail(true) {
			ev.add(n, codeTooSmall, "safe", "Too small: expected int to be >=-9007199254740991")
		}
	}
	// zod writes an int's safe range as minimum/maximum; the safe-range issue above says it
	if n.min != nil && f < *n.min && !(intOnly && *n.min == -maxSafeInteger) {
		if !ev.fail(true) {
			ev.add(n, codeTooSmall, "min", n.msg.min)
		}
	}
	if n.xmin != nil && f <= *n.xmin {
		if !ev.fail(true) {
			ev.add(n, codeTooSmall, "xmin", n.msg.xmin)
		}
	}
	if n.max != nil && f > *n.max && !(intOnly && *n.max == maxSafeInteger) {
		if !ev.fail(true) {
			ev.add(n, codeTooBig, "max", n.msg.max)
		}
	}
	if n.xmax != nil && f >= *n.xmax {
		if !ev.fail(true) {
			ev.add(n, codeTooBig, "xmax", n.msg.xmax)
		}
	}
	if n.multipleOf > 0 && !isMultiple(f, n.multipleOf) {
		if !ev.fail(true) {
			ev.add(n, codeNotMultipleOf, "multipleOf", n.msg.mult)
		}
	}
}

// isMultiple is zod's floatSafeRemainder(f, m) == 0: the quotient is within 4 x 2^-52 (relative,
// at least absolute) of the integer JavaScript's Math.round gives.
func isMultiple(f, m float64) bool {
	q := f / m
	r := math.Floor(q + 0.5)
	return math.Abs(q-r) < 4*0x1p-52*math.Max(math.Abs(q), 1)
}

func (ev *evaluator) str(n *node, vi int32) {
	if n.minLen >= 0 || n.maxLen >= 0 {
		ev.bounds(n, ev.d.runeLen(&ev.d.vals[vi]), n.minLen, n.maxLen, n.msg.minLen, n.msg.maxLen)
	}
	if n.pattern != nil {
		v := &ev.d.vals[vi]
		if !ev.match(n.pattern, v.s, v.e, v.esc) && !ev.fail(true) {
			check := "pattern"
			if n.word != "" {
				check = "format"
			}
			ev.add(n, codeInvalidFormat, check, n.msg.pattern)
		}
	}
	if len(n.allOf) == 0 {
		ev.assert(n, vi)
	}
}

// assert runs a format zod checks without a pattern (url, jwt). zod's format check comes after
// its pattern checks, which a schema with several patterns lists in allOf.
func (ev *evaluator) assert(n *node, vi int32) {
	if n.assert != nil && !n.assert(ev.d.str(&ev.d.vals[vi])) {
		if !ev.fail(true) {
			ev.add(n, codeInvalidFormat, "format", n.msg.format)
		}
	}
}

// array checks an array and reports whether evaluation may go on (zod stops at an array over
// its maximum without looking at its elements).
func (ev *evaluator) array(n *node, vi int32) bool {
	count := int(ev.d.vals[vi].n)
	max := n.maxItems
	if n.noMoreItems && (max < 0 || len(n.prefix) < max) {
		max = len(n.prefix)
	}
	// a zod tuple refuses a short array alone, and checks the items of a long one
	tuple := len(n.prefix) > 0
	if tuple && n.minItems >= 0 && count < n.minItems {
		if !ev.fail(false) {
			ev.add(n, codeTooSmall, "min", n.msg.minItems)
		}
		return false
	}
	if max >= 0 && count > max {
		if !ev.fail(false) {
			ev.add(n, codeTooBig, "max", n.msg.maxItems)
		}
		if !tuple {
			return false
		}
	}
	explicit := ev.explicit
	if count > 0 && (len(n.prefix) > 0 || n.items != nil) {
		i := 0
		for m := vi + 1; m >= 0; m = ev.d.vals[m].next {
			el := n.items
			if i < len(n.prefix) {
				el = n.prefix[i]
			}
			if el != nil {
				ev.pushIndex(i)
				ev.eval(el, m)
				ev.pop()
			}
			i++
		}
	}
	if !tuple && n.minItems >= 0 && count < n.minItems && ev.explicit == explicit {
		if !ev.fail(true) {
			ev.add(n, codeTooSmall, "min", n.msg.minItems)
		}
	}
	if n.uniqueItems && count > 1 && !ev.stopped() {
		if i, j, ok := ev.duplicate(vi); ok && !ev.fail(true) {
			ev.add(n, codeCustom, "uniqueItems", "Invalid input: expected unique items, items "+strconv.Itoa(i)+" and "+strconv.Itoa(j)+" are equal")
		}
	}
	if n.contains != nil {
		matched := 0
		if count > 0 {
			for m := vi + 1; m >= 0 && !ev.stopped(); m = ev.d.vals[m].next {
				if failed, _ := ev.probe(n.contains, m); !failed {
					matched++
				}
			}
		}
		minC, maxC := 1, -1
		if p := n.src.MinContains; p != nil {
			minC = *p
		}
		if p := n.src.MaxContains; p != nil {
			maxC = *p
		}
		if matched < minC {
			if !ev.fail(true) {
				ev.add(n, codeTooSmall, "contains", "Too small: expected array to have >="+strconv.Itoa(minC)+" matching items")
			}
		} else if maxC >= 0 && matched > maxC {
			if !ev.fail(true) {
				ev.add(n, codeTooBig, "contains", "Too big: expected array to have <="+strconv.Itoa(maxC)+" matching items")
			}
		}
	}
	return true
}

func (ev *evaluator) object(n *node, vi int32) {
	if n.record {
		ev.record(n, vi)
		return
	}
	d := ev.d
	np := len(n.props)
	var slotsBuf [16]int32
	var slots []int32
	if np <= len(slotsBuf) {
		slots = slotsBuf[:np]
	} else {
		// a large schema borrows from the decoder's scratch stack; nested objects push above it
		start := len(d.scratch)
		d.scratch = slices.Grow(d.scratch, np)[:start+np]
		slots = d.scratch[start : start+np]
		defer func() { d.scratch = d.scratch[:start] }()
	}
	for i := range slots {
		slots[i] = -1
	}
	// unknown keys matter only to a strict object, a catchall or pattern properties
	wantExtra := n.strict || n.additional != nil || len(n.patternProp) > 0
	var extraBuf [8]int32
	extra := extraBuf[:0]
	if d.vals[vi].n > 0 {
		for m := vi + 1; m >= 0; m = d.vals[m].next {
			mv := &d.vals[m]
			var idx int
			var ok bool
			if np > 0 {
				if mv.kesc {
					idx, ok = n.propIndex[d.key(mv)]
				} else {
					idx, ok = n.propIndex[string(d.data[mv.ks:mv.ke])]
				}
			}
			if ok {
				slots[idx] = m
			} else if wantExtra {
				extra = append(extra, m)
			}
		}
	}
	if len(extra) > 1 {
		extra = ev.dedupe(extra)
	}

	for i := range n.props {
		p := &n.props[i]
		if m := slots[i]; m >= 0 {
			ev.pushKey(p.key)
			ev.eval(p.n, m)
			ev.pop()
		} else if p.required {
			ev.missing(p.n, p.key)
		}
	}
	for _, name := range n.required {
		if !ev.has(vi, name) {
			ev.missing(ev.schemaFor(n, name), name)
		}
	}

	var unrec []int32
	for _, m := range extra {
		if ev.stopped() {
			break
		}
		matched := false
		if len(n.patternProp) > 0 {
			mv := &d.vals[m]
			for _, pp := range n.patternProp {
				if ev.match(pp.re, mv.ks, mv.ke, mv.kesc) {
					matched = true
					ev.pushMember(m)
					ev.eval(pp.n, m)
					ev.pop()
				}
			}
		}
		switch {
		case matched:
		case n.additional != nil:
			ev.pushMember(m)
			ev.eval(n.additional, m)
			ev.pop()
		case n.strict:
			unrec = append(unrec, m)
		}
	}

	if n.propNames != nil && d.vals[vi].n > 0 {
		for m := vi + 1; m >= 0 && !ev.stopped(); m = d.vals[m].next {
			mv := d.vals[m]
			tmp := int32(len(d.vals))
			d.vals = append(d.vals, value{kind: kString, s: mv.ks, e: mv.ke, esc: mv.kesc, next: -1})
			failed, _ := ev.probe(n.propNames, tmp)
			d.vals = d.vals[:tmp]
			if failed && !ev.fail(false) {
				ev.pushMember(m)
				ev.add(n, codeInvalidKey, "propertyNames", "Invalid key in record")
				ev.pop()
			}
		}
	}
	if n.minProps >= 0 || n.maxProps >= 0 {
		ev.lengths(n, "object", "properties", ev.countKeys(vi), n.minProps, n.maxProps)
	}
	for _, dr := range n.depReq {
		if ev.has(vi, dr.if_) {
			for _, name := range dr.then {
				if !ev.has(vi, name) {
					ev.missing(ev.schemaFor(n, name), name)
				}
			}
		}
	}
	for _, ds := range n.depSchemas {
		if ev.has(vi, ds.if_) {
			ev.eval(ds.n, vi)
		}
	}

	ev.unrecognized(n, unrec)
}

// unrecognized reports the keys a strict object or an enum-keyed record does not know, as one
// issue after the object's others.
func (ev *evaluator) unrecognized(n *node, unrec []int32) {
	d := ev.d
	if len(unrec) > 0 && !ev.fail(true) && ev.room() {
		if d.tick(len(unrec)) {
			return
		}
		keys := make([]string, len(unrec))
		var b strings.Builder
		b.WriteString("Unrecognized key")
		if len(keys) > 1 {
			b.WriteByte('s')
		}
		b.WriteString(": ")
		for i, m := range unrec {
			keys[i] = d.key(&d.vals[m])
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('"')
			b.WriteString(keys[i])
			b.WriteByte('"')
		}
		if ev.build(n, codeUnrecognizedKeys, "additionalProperties", b.String()) {
			ev.issues[len(ev.issues)-1].Keys = keys
		}
	}
}

// record applies zod's z.record. Keyed by an enum, it walks the enum's keys in order, a missing
// key's value being undefined, and reports the keys outside the enum as unrecognized. Otherwise
// it walks the arguments' keys: a key the key schema refuses is "Invalid key in record" and its
// value goes unchecked.
func (ev *evaluator) record(n *node, vi int32) {
	d := ev.d
	var ms []int32
	if d.vals[vi].n > 0 {
		for m := vi + 1; m >= 0; m = d.vals[m].next {
			ms = append(ms, m)
		}
		ms = ev.dedupe(ms)
	}
	var unrec []int32
	if n.recordKeys != nil {
		byKey := make(map[string]int32, len(ms))
		for _, x := range ms {
			byKey[d.key(&d.vals[x])] = x
		}
		for _, key := range n.recordKeys {
			m, ok := byKey[key]
			if !ok {
				m = -1
			}
			if n.additional != nil {
				ev.pushKey(key)
				ev.eval(n.additional, m)
				ev.pop()
			}
		}
		for _, m := range ms {
			if !n.recordKeySet[d.key(&d.vals[m])] {
				unrec = append(unrec, m)
			}
		}
	} else {
		for _, m := range ms {
			if ev.stopped() {
				break
			}
			mv := d.vals[m]
			tmp := int32(len(d.vals))
			d.vals = append(d.vals, value{kind: kString, s: mv.ks, e: mv.ke, esc: mv.kesc, next: -1})
			failed, _ := ev.probe(n.propNames, tmp)
			d.vals = d.vals[:tmp]
			switch {
			case failed && n.keyEnum:
				unrec = append(unrec, m)
			case failed:
				if !ev.fail(false) {
					ev.pushMember(m)
					ev.add(n, codeInvalidKey, "propertyNames", "Invalid key in record")
					ev.pop()
				}
			case n.additional != nil:
				ev.pushMember(m)
				ev.eval(n.additional, m)
				ev.pop()
			}
		}
	}
	if n.minProps >= 0 || n.maxProps >= 0 {
		ev.lengths(n, "object", "properties", len(ms), n.minProps, n.maxProps)
	}
	ev.unrecognized(n, unrec)
}

// missing reports a required property that is absent: zod parses undefined with the property's
// schema, and when that schema takes undefined the key is still required.
func (ev *evaluator) missing(n *node, key any) {
	before, first := ev.nfail, len(ev.issues)
	ev.pushKey(key)
	if n != nil {
		ev.eval(n, -1)
	}
	if ev.nfail == before && !ev.fail(false) {
		ev.add(n, codeInvalidType, "required", "Invalid input: expected nonoptional, received undefined")
	}
	for i := first; i < len(ev.issues); i++ {
		if len(ev.issues[i].Path) == len(ev.path) {
			ev.issues[i].missing = true
		}
	}
	ev.pop()
}

// schemaFor is the schema an object applies to property name.
func (ev *evaluator) schemaFor(n *node, name string) *node {
	if i, ok := n.propIndex[name]; ok {
		return n.props[i].n
	}
	for _, pp := range n.patternProp {
		if pp.re.MatchString(name) {
			return pp.n
		}
	}
	return n.additional
}

func (ev *evaluator) has(vi int32, name string) bool {
	d := ev.d
	if d.vals[vi].n == 0 {
		return false
	}
	d.tick(int(d.vals[vi].n))
	for m := vi + 1; m >= 0; m = d.vals[m].next {
		mv := &d.vals[m]
		if mv.kesc {
			if d.key(mv) == name {
				return true
			}
		} else if string(d.data[mv.ks:mv.ke]) == name {
			return true
		}
	}
	return false
}

func (ev *evaluator) countKeys(vi int32) int {
	var ms []int32
	if ev.d.vals[vi].n > 0 {
		for m := vi + 1; m >= 0; m = ev.d.vals[m].next {
			ms = append(ms, m)
		}
	}
	return len(ev.dedupe(ms))
}

// dedupe keeps the first member of each key, as a JavaScript object keeps a repeated key at its
// first position, but points it at the last value, as JSON.parse does; and it orders the members
// as a JavaScript object lists its keys: array indices ("0", "10") first, ascending, then the
// others as written.
func (ev *evaluator) dedupe(ms []int32) []int32 {
	d := ev.d
	d.tick(4 * len(ms))
	if len(ms) <= 8 && ev.plainKeys(ms) {
		return ms
	}
	type member struct {
		m     int32
		idx   uint64
		isIdx bool
	}
	out := make([]member, 0, len(ms))
	pos := make(map[string]int, len(ms))
	indices := false
	for _, m := range ms {
		k := d.key(&d.vals[m])
		if i, ok := pos[k]; ok {
			out[i].m = m
			continue
		}
		pos[k] = len(out)
		idx, isIdx := arrayIndex(k)
		out = append(out, member{m, idx, isIdx})
		indices = indices || isIdx
	}
	if indices {
		slices.SortStableFunc(out, func(a, b member) int {
			switch {
			case a.isIdx && b.isIdx:
				return cmp.Compare(a.idx, b.idx)
			case a.isIdx:
				return -1
			case b.isIdx:
				return 1
			}
			return 0
		})
	}
	ms = make([]int32, len(out))
	for i, x := range out {
		ms[i] = x.m
	}
	return ms
}

// plainKeys reports whether a few members have distinct keys, none of them an array index, so
// that they are already in the order a JavaScript object lists them; it allocates nothing.
func (ev *evaluator) plainKeys(ms []int32) bool {
	d := ev.d
	for i, m := range ms {
		v := &d.vals[m]
		if v.kesc {
			return false
		}
		k := d.data[v.ks:v.ke]
		if _, ok := arrayIndex(k); ok {
			return false
		}
		for _, o := range ms[:i] {
			ov := &d.vals[o]
			if bytes.Equal(k, d.data[ov.ks:ov.ke]) {
				return false
			}
		}
	}
	return true
}

// arrayIndex reports whether a key is a JavaScript array index (a canonical integer below
// 2^32-1), which an object lists before its other keys.
func arrayIndex[S string | []byte](k S) (uint64, bool) {
	if len(k) == 0 || len(k) > 10 || len(k) > 1 && k[0] == '0' {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false
		}
		n = n*10 + uint64(k[i]-'0')
	}
	if n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}

// union applies zod's union rule: the value passes if a branch passes; otherwise, when exactly
// one branch failed without aborting (only unknown keys, bounds, lengths), that branch's issues
// are the answer, else one "Invalid input". oneOf also refuses a value two branches take.
func (ev *evaluator) union(n *node, branches []*node, vi int32, one bool) {
	passed, nonAborted, pick := 0, 0, -1
	for i, b := range branches {
		failed, aborted := ev.probe(b, vi)
		switch {
		case !failed:
			passed++
		case !aborted:
			nonAborted++
			pick = i
		}
		if passed > 0 && !one || passed > 1 {
			break
		}
	}
	switch {
	case passed == 1 || passed > 1 && !one:
		return
	case passed > 1:
		if !ev.fail(false) {
			ev.add(n, codeInvalidUnion, "oneOf", "Invalid input: more than one option matched")
		}
	case nonAborted == 1:
		if ev.full {
			ev.eval(branches[pick], vi)
		} else {
			ev.fail(true)
		}
	default:
		if !ev.fail(false) {
			ev.add(n, codeInvalidUnion, "anyOf", "Invalid input")
		}
	}
}

// discriminated applies zod's discriminatedUnion: the discriminator property picks the branch,
// and only that branch speaks.
func (ev *evaluator) discriminated(n *node, vi int32) {
	if k := ev.kind(vi); k != kObject {
		if !ev.fail(false) {
			ev.add(n, codeInvalidType, "type", "Invalid input: expected object, received "+ev.receivedName(vi))
		}
		return
	}
	d := ev.d
	var val int32 = -1
	if d.vals[vi].n > 0 {
		for m := vi + 1; m >= 0; m = d.vals[m].next {
			mv := &d.vals[m]
			if mv.kesc && d.key(mv) == n.discKey || !mv.kesc && string(d.data[mv.ks:mv.ke]) == n.discKey {
				val = m // the last one, as JSON.parse keeps
			}
		}
	}
	if val >= 0 {
		for i, want := range n.discVals {
			if ev.equal(val, want) {
				ev.eval(n.oneOf[i], vi)
				return
			}
		}
	}
	if !ev.fail(false) {
		ev.pushKey(n.discName)
		ev.add(n, codeInvalidUnion, "discriminator", n.msg.disc)
		ev.pop()
	}
}
