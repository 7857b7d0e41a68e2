// Package validator benchmarks schemaerr against github.com/google/jsonschema-go v0.4.3, the
// validator go-sdk v1.8.0 runs on tool arguments, on the same schema and the same arguments.
//
//	cd bench/validator && go test -run '^$' -bench . -benchmem
package validator
