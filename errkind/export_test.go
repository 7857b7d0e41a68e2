package errkind

// The test-only exports of package errkind: what the external tests check
// of unexported rules.

// NormalizeCode is normalizeCode, for its table test.
var NormalizeCode = normalizeCode

// Fields is allFields, for the tests that walk every member.
func Fields() []string { return allFields }

// Match is match, for the rule tests.
func (r Rule) Match(code string, status int) bool { return r.match(code, status) }

// Kinds is kinds, for the tests that walk the standard kinds.
var Kinds = kinds

// RPCCodes is rpcCodes, for the tests that walk the catalogue.
var RPCCodes = rpcCodes
