package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The listing names every exported declaration once, with its signature
// and a constant's value, sorted by name with a type's members after it
// (embedded interfaces, fields, methods), and nothing unexported.
func TestDecls(t *testing.T) {
	const src = `package p

const B, a = 2, 3

var V []string

type T struct {
	X    int
	y    int
	Z    func() error
	Base
}

type Base struct{}

func (T) M(n int) (ok bool) { return }
func (*T) N()                {}
func (T) m()                 {}

type I interface {
	Stringer
	Do(s string) error
}

type Stringer interface{ String() string }

type G[K comparable] struct{ Key K }

type A = T

func F(t *T) I { return nil }
func f()       {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"type A = T",
		"const B untyped int = 2",
		"type Base struct",
		"func F(t *T) I",
		"type G[K comparable] struct",
		"field G.Key K",
		"type I interface",
		"embeds I Stringer",
		"method (I) Do(s string) error",
		"type Stringer interface",
		"method (Stringer) String() string",
		"type T struct",
		"field T.Base Base (embedded)",
		"field T.X int",
		"field T.Z func() error",
		"func (T).M(n int) (ok bool)",
		"func (*T).N()",
		"var V []string",
	}
	if diff := cmp.Diff(want, decls(pkg)); diff != "" {
		t.Errorf("decls (-want +got):\n%s", diff)
	}
}
