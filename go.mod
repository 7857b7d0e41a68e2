module github.com/mcperr/mcperr

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/time v0.15.0
)

require golang.org/x/text v0.14.0 // indirect
