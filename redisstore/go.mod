module github.com/mcperr/mcperr/redisstore

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/mcperr/mcperr v0.0.0-00010101000000-000000000000
	github.com/redis/rueidis v1.0.79
	golang.org/x/time v0.15.0
)

require golang.org/x/sys v0.47.0 // indirect

replace github.com/mcperr/mcperr => ../
