module github.com/mcperr/mcperr/adapter

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/mcperr/mcperr v0.0.0-00010101000000-000000000000
)

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

replace github.com/mcperr/mcperr => ../
