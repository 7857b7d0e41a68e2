module github.com/mcperr/mcperr/adapter

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/mcperr/mcperr v0.0.0-00010101000000-000000000000
)

replace github.com/mcperr/mcperr => ../
