module github.com/mcperr/mcperr/ecmaregexp

go 1.25.0

require (
	github.com/dlclark/regexp2/v2 v2.13.0
	github.com/mcperr/mcperr v0.0.0-00010101000000-000000000000
)

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.14.0 // indirect
)

replace github.com/mcperr/mcperr => ../
