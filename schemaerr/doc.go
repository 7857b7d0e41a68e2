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
// schemas in the SDK and compares every answer a JSON Schema can decide, byte for byte). [Text2]
// words the same issues as the SDK's next major version, @modelcontextprotocol/server 2.x, does
// (captured and differential-tested the same way, from 2.4.0):
//
//	Input validation error: Invalid arguments for tool vexlo_get_values: path: Too big: expected array to have <=8 items, limit: Too big: expected number to be <=100
//
// It also speaks a third dialect, the hint dialect,
// for servers that refuse bad arguments with a JSON-RPC error carrying a machine code and a
// did-you-mean instead.
//
// # The model
//
// [Compile] a tool's input schema once; the [Schema] is safe for concurrent use. [Schema.Validate]
// takes the call's raw arguments and returns every [Issue] in a fixed order (a [Set] keeps the
// compiled schemas of a server's tools, for an SDK adapter). Then either:
//
//   - [Text] frames the issues as the TypeScript SDK does, and wire.TextError wraps the text in
//     the isError tool result ([Schema.Reject] does all three). [UnknownTool] is the text for a
//     tool the server does not have. [Text2] and [UnknownTool2] are the 2.x SDK's wording.
//   - [Hints] turns the issues into one error, a -32602 *wire.RPCError whose data.code is
//     unknown_parameter or invalid_parameter. [Schema.Hint] validates, then runs the server's own
//     checks (see [Schema.Hint]), which answer with their own codes, built with [Unknown] or [Invalid]. Each
//     returns a nil error when the arguments pass.
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
// github.com/mcperr/mcperr/ecmaregexp and compiling with [WithPatterns] runs such patterns on a
// full ECMAScript engine, with a match timeout.
//
// # Bad input
//
// A schema bounds the arguments by the [Bounds] it is compiled with ([WithBounds]; a [Set]
// compiles with its own). Arguments larger than MaxBytes (1 MiB), nested deeper than MaxDepth
// (64), or with more than MaxElements array elements and object members (no bound unless set)
// are refused with one issue, worded as the TypeScript SDK words its maxToolInputElements
// refusal:
//
//	MCP error -32602: Invalid arguments for tool t: arguments contain more than the maximum of 5 elements
//
// The decoder is strict JSON and allocates nothing on the path of valid arguments.
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
// At the 1 MiB bound the costliest arguments found (a uniqueItems array of 150,000 integers or of
// two objects of 50,000 members, 100,000 keys refused by propertyNames or by a strict object, a
// pattern on a 1 MiB string, unions nested 60 deep) take 45 to 225 ms of CPU each on a 2-core
// machine, idle or loaded, except the nested unions, which would take about a second. TestWorkLinear
// checks that the time per byte does not grow with the size; TestWorstCase logs these figures.
//
// Above the keywords, one deadline bounds a call: validation that runs past Bounds.MaxTime
// (250 ms) stops, and the call is refused with one issue, [CodeTooSlow]:
//
//	MCP error -32602: Invalid arguments for tool t: arguments take longer to validate than the maximum of 250 ms
//
// The clock is read between steps, so a step that does not stop on its own finishes first: one
// RE2 match on one long string, or one match on the ECMAScript engine, which its own timeout
// ends. A call therefore costs at most MaxTime plus one such step, about 250 to 450 ms at the
// defaults, whatever the schema and the arguments: on the machine above, every shape ended within
// 70 to 400 ms, and 40 values under a catastrophically backtracking pattern on the ECMAScript
// engine were refused after 300 to 450 ms. MaxTime is wall-clock time: on a machine short of CPU,
// large arguments meet it sooner.
//
// # The hint dialect
//
// [Hints] writes one sentence per issue, unknown parameters first:
//
//	Unknown parameter 'langauge'. Did you mean 'language'?    (data.code unknown_parameter)
//	Unknown parameter 'xyz'.                                   (no declared name is close)
//	Missing required parameter 'query'.                        (invalid_parameter)
//	Invalid value for 'limit': must be between 1 and 50.       (invalid_parameter)
//
// The did-you-mean names a declared property within a small edit distance ([Suggest]).
package schemaerr
