// Package ecmaregexp runs the JSON Schema patterns Go's RE2 cannot (lookahead, lookbehind,
// backreferences) for schemaerr, on a full ECMAScript regular-expression engine
// (github.com/dlclark/regexp2/v2 in ECMAScript mode).
//
// schemaerr alone refuses such a schema at Compile with a *schemaerr.PatternError naming this
// module. Importing it and passing the option enables them:
//
//	s, err := schemaerr.Compile(schema, &schemaerr.Options{Patterns: ecmaregexp.Engine{}})
//
// Patterns RE2 runs stay on RE2; only the others run here. Matching follows JavaScript: without
// the u flag a pattern sees UTF-16 code units ("." is half of an emoji), with it code points.
// A backtracking pattern can take exponential time on a hostile string, so every match has a
// timeout (Engine.Timeout, 100 ms by default); a match that times out refuses the value. The
// timeout bounds one match; schemaerr runs each pattern once per value and times the matches of
// a call, whose work it cannot count: together they may take 250 ms (or schemaerr's
// Bounds.MaxTime), past which the call is refused. These are wall-clock times: on a machine
// short of CPU, a call that needs these patterns meets them sooner.
//
// # Install
//
//	go get github.com/mcperr/mcperr/ecmaregexp
package ecmaregexp
