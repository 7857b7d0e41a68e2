module github.com/mcperr/mcperr/clients/github

go 1.25.5

require (
	github.com/google/go-cmp v0.7.0
	github.com/mcperr/mcperr v0.0.0
)

require (
	github.com/google/go-github/v84 v84.0.0
	github.com/google/go-querystring v1.2.0 // indirect
)

replace github.com/mcperr/mcperr => ../..
