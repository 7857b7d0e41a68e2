// Package schemaerr validates an MCP tool's arguments against the tool's JSON Schema and words
// the rejection as agents know it.
//
// Most MCP servers run on the TypeScript SDK, which validates arguments with zod, so agents have
// learned zod's sentences. A call whose arguments fail gets an ordinary tool result with isError
// set and one line per issue:
//
//	MCP error -32602: Input validation error: Invalid arguments for tool vexlo_get_values: Too big: expected array to have <=8 items at path
//	Too big: expected number to be <=100 at limit
//
// schemaerr produces that text byte for byte from the JSON Schema the SDK publishes for the zod
// schema (testdata/golden holds 192 cases captured from @modelcontextprotocol/sdk 1.32.2 with zod
// 4.6.7, and a test that captures them again; a differential test registers random zod tool
// schemas in the SDK and compares every answer a JSON Schema can decide, byte for byte). [TypeScriptV2]
// words the same issues as the SDK's next major version, @modelcontextprotocol/server 2.x, does
// (captured and differential-tested the same way, from 2.4.0):
//
//	Input validation error: Invalid arguments for tool vexlo_get_values: path: Too big: expected array to have <=8 items, limit: Too big: expected number to be <=100
//
// It also speaks a third dialect, the hint dialect ([Hint]),
// for servers that refuse bad arguments with a JSON-RPC error carrying a machine code and a
// did-you-mean instead.
//
// # The model
//
// [Compile] a tool's input schema once; the [Schema] is safe for concurrent use. [Schema.Validate]
// takes the call's raw arguments and returns every [Issue] in a fixed order (a [Set] keeps the
// compiled schemas of a server's tools, for an SDK adapter). A [Dialect] words the refusal:
// [Dialect.Refuse] of the issues, [Dialect.RefuseTool] of a call to a tool the server does not
// have, each a [Refusal], the text of an isError tool result or a JSON-RPC error:
//
//   - [TypeScript] (the default) frames the issues as the TypeScript SDK 1.x does, and
//     wire.TextError wraps the text in the isError tool result ([Schema.Reject] does all
//     three). [TypeScriptV2] is the 2.x SDK's wording.
//   - [Hint] turns the issues into one -32602 *wire.RPCError whose data.code is
//     unknown_parameter or invalid_parameter. [Schema.Check] validates, then runs the server's
//     own checks, which answer with their own codes, built with [Unknown] or [Invalid], and
//     answers in the hint dialect: a nil error when the arguments pass.
//
// # zod's rules, on JSON Schema
//
// Each JSON Schema keyword is read as the zod schema that publishes it would read it:
//
//	type: integer                 z.number().int(): a fraction is "Invalid input: expected int, received number" and nothing else
//	                              (an array holding it, at any depth, skips its minItems check);
//	                              beyond ±9007199254740991, "Too big: expected int to be <=9007199254740991" and then the bounds
//	minimum, exclusiveMaximum...  "Too small: expected number to be >=1", "Too big: expected number to be <100"
//	minLength, maxLength          counted in code points: "Too small: expected string to have >=3 characters"
//	pattern                       "Invalid string: must match pattern /^[a-z]+$/" (with a format zod knows, "Invalid email address");
//	                              several patterns (allOf) are worded each as the check that wrote it: startsWith,
//	                              endsWith, includes, zod's own format patterns, or a regex (printed /u when it needs the flag)
//	minItems, maxItems            an array over its maximum gets that issue alone, its elements unchecked; equal bounds say "exactly"
//	prefixItems (items: [...])    z.tuple: "expected tuple"; a short array gets "Too small" alone, a long one "Too big" and then
//	                              its items are checked
//	enum, const                   `Invalid option: expected one of "asc"|"desc"`, "Invalid input: expected true", whatever the type
//	anyOf, oneOf                  "Invalid input", unless exactly one branch failed only with issues that do not abort
//	                              (unknown keys, bounds, lengths): then that branch's issues
//	oneOf of objects with a const z.discriminatedUnion: the property whose const tells the branches apart picks
//	  property in each branch     one; else "Invalid discriminator value. Expected 'a' | 'b'" at that property
//	required                      the property's own schema applied to undefined: "Invalid input: expected array, received undefined"
//	additionalProperties: false   one "Unrecognized key: "a"" (or keys) issue after the object's other issues, keys in the
//	                              order a JavaScript object lists them: array indices ("2", "10") first, then as written
//	propertyNames, no properties  z.record: "expected record"; keyed by an enum, the enum's keys in order (a missing one is
//	                              undefined) and the others unrecognized; else a refused key is "Invalid key in record"
//	                              and its value is not checked
//	multipleOf                    zod's tolerance: the quotient within 4 x 2^-52 (relative) of an integer
//	other unknown keys            stripped, no issue
//
// Issues come in the order of the schema's properties as the schema writes them (not the input's
// order, and not sorted), array elements by index; the same arguments always give the same text.
// Each issue ends with " at " and its path, written "filter.window.hours" or "tags[2]". Numbers
// print as JavaScript prints them: 100, 2.5, 1e+21. Absent or null arguments are validated as {}.
//
// Where zod and JSON Schema disagree, schemaerr follows zod: numbers are float64 (so 1e400 is
// "received Infinity", and 3.0 is an integer); a string where an array belongs, or the reverse,
// is also measured against the length bounds. A format keyword names zod's words for a failed
// pattern ("Invalid email address", `Invalid string: must start with "ab"`); "uri" and "jwt",
// which zod publishes without a pattern, are checked as zod checks them; other formats without a
// pattern are annotations. Keywords zod never emits (not, if/then/else, uniqueItems,
// contains, propertyNames, dependentRequired, patternProperties) are validated with wording in
// zod's style.
//
// # Schemas
//
// JSON Schema 2020-12 is the default when $schema is absent; draft-07 (what the TypeScript SDK
// publishes), 2019-09, draft-06 and draft-04 are read when $schema names them. Compilation uses
// github.com/santhosh-tekuri/jsonschema/v6, which checks the schema against its metaschema and
// resolves $ref; references must stay inside the document. Patterns are ECMAScript regular
// expressions: \d, \s, \uXXXX, \u{...}, \p{Script=...}, [^] and the like are translated to Go's
// RE2. A pattern without the u flag (one with no \p{...} or \u{...}) matches UTF-16 code units as
// in JavaScript: "^.$" refuses an emoji. A pattern RE2 cannot run (lookahead, lookbehind,
// backreferences) fails Compile with a *[PatternError] naming it and the module that runs it,
// unless it comes with a format schemaerr checks in Go instead (zod's ISO duration); importing
// github.com/mcperr/mcperr/ecmaregexp and compiling with it as [Options].Patterns runs such
// patterns on a full ECMAScript engine, with a match timeout.
//
// # Bad input
//
// A schema bounds the arguments by the [Bounds] it is compiled with ([Options].Bounds; a [Set]
// compiles with its own). Arguments larger than MaxBytes (1 MiB), nested deeper than MaxDepth
// (64), or with more than MaxElements array elements and object members (no bound unless set)
// are refused with one issue, worded as the TypeScript SDK words its maxToolInputElements
// refusal:
//
//	MCP error -32602: Invalid arguments for tool t: arguments contain more than the maximum of 5 elements
//
// The decoder is strict JSON and allocates nothing on the path of valid arguments.
//
// A refusal is bounded too, whatever the arguments: Validate returns at most MaxIssues (100)
// issues, the last one counting those left out (code "more_issues"), and each dialect writes
// at most 64 KiB of issues, ending with the count of the rest:
//
//	Invalid input: expected string, received number at r.kkk[99]
//	and 16660 more issues
//
// (", and 16660 more issues" in [TypeScriptV2], "And 16660 more issues." in [Hint]; a first issue
// longer than 64 KiB alone is cut and ends with "…"). A member's key is copied once per call,
// however many issues' paths hold it. A call of 62 KiB with a 32,000-byte key and 16,760 wrong
// items gets 64 KiB in each dialect and allocates 1.5 MB to validate and word; one of 1 MiB with
// a 500,000-byte key, 15 MB. The TypeScript SDK, which has no such bound, writes the same text
// for every refusal within it.
//
// # The cost of a call
//
// For a given schema, validation takes time linear in the size of the arguments, keyword by
// keyword; the worst case of each:
//
//	type, enum, const, bounds, lengths     once per value they apply to (an enum: times its values)
//	pattern on RE2, format                 linear in the string (times the pattern's size); a pattern
//	                                       once per string, from strings of 64 bytes
//	pattern on the ECMAScript engine       once per string and pattern, each match bounded by the
//	                                       engine's own timeout (100 ms for ecmaregexp)
//	items, prefixItems, contains           once per element
//	uniqueItems                            linear: elements grouped by a canonical hash, only
//	                                       elements of the same hash compared
//	properties, additionalProperties       once per member; required and dependentRequired: times
//	                                       the names the schema lists
//	propertyNames, patternProperties       once per key (times the patterns)
//	z.record keyed by an enum              once per key
//	anyOf, oneOf, not, if, discriminator   each branch once per value: a branch's answer on an array
//	                                       or object is kept for the call, so that nested unions
//	                                       stay linear
//
// Above the keywords, a budget of work bounds a call, counted, not timed, so that the same call
// is accepted or refused whatever the machine and its load: a step is a keyword applied to a
// value, 16 bytes of a string matched on RE2 (times one plus a sixteenth of the pattern's
// program), an enum's eight values compared, an element hashed, a segment of a path copied into
// an issue. Checking whether arguments are valid, all a valid call costs, may take ten times
// Bounds.MaxWork (25,000,000 steps by default); wording the refusal of invalid ones, MaxWork
// more. Past either, validation stops and the call is refused with one issue, [codeTooSlow],
// worded as the time the steps stand for at 100 ns each:
//
//	MCP error -32602: Invalid arguments for tool t: arguments take longer to validate than the maximum of 250 ms
//
// At the 1 MiB bound, the costliest valid arguments found (unions nested 60 deep, whose values
// take the second branch or three at each level, a union of 8 objects matched by its last
// branch, an enum of 50, a uniqueItems array of 150,000 integers or of objects, 100,000 keys
// under propertyNames, a pattern on a 1 MiB string) count 0.1 to 2.5 million steps, at most a
// tenth of the check's budget, and take 15 to 350 ms of CPU. Invalid arguments are checked up
// to their first failure, then worded: the same shapes failing, and 100,000 keys refused by a
// strict object, count 0.1 to 3.7 million steps and take 35 ms to 1.1 s of CPU (the nested
// unions, whose check probes every value, the costliest); 60,000 objects each refused by a
// union of 30 branches are refused (codeTooSlow) at the wording's 2.5 million steps, after
// 0.55 s (1.4 s without a budget). These are the figures of TestWorstCase on 2 cores at a load
// average of 14 to 23; TestValidUnderLoad checks that 22 concurrent valid calls of 945 KiB on
// one core shared with CPU hogs are all accepted, TestBudgetCounted that a call is accepted
// with a budget of its steps and refused with one step less, and TestWorkLinear that the time
// per byte does not grow with the size.
//
// What is not counted is timed. The work of a pattern on an ECMAScript engine ([Options].Patterns)
// cannot be counted: each match is bounded by the engine's own timeout (wall-clock, 100 ms for
// ecmaregexp), and a call's matches together by 250 ms (or Bounds.MaxTime), past which the call
// is refused as above; on a machine short of CPU those matches meet their time sooner, and a
// call that needs such a pattern may be refused for the load. 40 values under a
// catastrophically backtracking pattern on ecmaregexp are refused after about 300 to 450 ms.
// RE2 on one long string is counted by its length, which undercounts its time on a pattern
// that keeps many states alive (195 ms of CPU for 1 MiB, 131,000 steps): MaxBytes bounds it.
// Bounds.MaxTime, off by default, adds an outer wall-clock bound on the whole call.
//
// # The hint dialect
//
// [Hint] writes one sentence per issue, unknown parameters first:
//
//	Unknown parameter 'langauge'. Did you mean 'language'?    (data.code unknown_parameter)
//	Unknown parameter 'xyz'.                                   (no declared name is close)
//	Missing required parameter 'query'.                        (invalid_parameter)
//	Invalid value for 'limit': must be between 1 and 50.       (invalid_parameter)
//
// The did-you-mean names a declared property within a small edit distance ([Suggest]).
package schemaerr
