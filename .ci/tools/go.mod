module mcperr.invalid/ci

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/mod v0.38.0
	golang.org/x/tools v0.48.0
)

require (
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/telemetry v0.0.0-20260708182218-49f421fb7959 // indirect
)

tool golang.org/x/tools/cmd/goimports
