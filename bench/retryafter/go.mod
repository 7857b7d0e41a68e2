module github.com/mcperr/mcperr/bench/retryafter

go 1.25.0

require (
	github.com/hashicorp/go-retryablehttp v0.7.8
	github.com/mcperr/mcperr v0.0.0
)

require github.com/hashicorp/go-cleanhttp v0.5.2 // indirect

replace github.com/mcperr/mcperr => ../..
