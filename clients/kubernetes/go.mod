module github.com/mcperr/mcperr/clients/kubernetes

go 1.26.0

require github.com/mcperr/mcperr v0.0.0

require (
	k8s.io/apimachinery v0.37.2 // indirect
	k8s.io/client-go v0.37.2 // indirect
)

replace github.com/mcperr/mcperr => ../..
