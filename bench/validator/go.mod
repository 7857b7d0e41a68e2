module github.com/mcperr/mcperr/bench/validator

go 1.25.0

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/mcperr/mcperr v0.0.0
)

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.14.0 // indirect
)

replace github.com/mcperr/mcperr => ../..
