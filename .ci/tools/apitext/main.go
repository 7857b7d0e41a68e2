// Command apitext prints the exported API of a Go module as text, one
// declaration a line, so that a diff of two listings shows every API change:
//
//	apitext [DIR]
//
// DIR is the module's directory (default "."). The module is loaded on its own
// (GOWORK=off), as a user's build sees it. Every package of the module is
// listed but commands (package main) and internal packages; in each, every
// exported constant (with its value), variable, function, type, method and
// struct field or interface method, sorted by name, a type's members after it
// (embedded interfaces, then fields, then methods).
// Other packages are named by their package name, as in go doc.
package main

import (
	"fmt"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	dir := "."
	switch len(os.Args) {
	case 1:
	case 2:
		dir = os.Args[1]
	default:
		fmt.Fprintln(os.Stderr, "usage: apitext [DIR]")
		os.Exit(2)
	}
	out, err := listing(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apitext:", err)
		os.Exit(1)
	}
	os.Stdout.WriteString(out)
}

// listing loads the module in dir and returns its API as text.
func listing(dir string) (string, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return "", err
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		return "", fmt.Errorf("%d errors loading %s", n, dir)
	}
	slices.SortFunc(pkgs, func(a, b *packages.Package) int { return strings.Compare(a.PkgPath, b.PkgPath) })
	var b strings.Builder
	for _, p := range pkgs {
		if p.Name == "main" || internal(p.PkgPath) {
			continue
		}
		fmt.Fprintf(&b, "package %s\n", p.PkgPath)
		for _, l := range decls(p.Types) {
			fmt.Fprintf(&b, "%s\n", l)
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

// internal reports whether path is an internal package, which no other module
// can import.
func internal(path string) bool {
	return slices.Contains(strings.Split(path, "/"), "internal")
}

// decls lists the exported declarations of pkg, sorted.
func decls(pkg *types.Package) []string {
	type line struct{ key, text string }
	var lines []line
	q := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		tn, ok := obj.(*types.TypeName)
		if !ok {
			text := types.ObjectString(obj, q)
			if c, ok := obj.(*types.Const); ok {
				text += " = " + c.Val().ExactString()
			}
			lines = append(lines, line{name, text})
			continue
		}
		if tn.IsAlias() {
			lines = append(lines, line{name, "type " + name + " = " + types.TypeString(types.Unalias(tn.Type()), q)})
			continue
		}
		named := tn.Type().(*types.Named)
		head := "type " + name
		if tp := named.TypeParams(); tp.Len() > 0 {
			var ps []string
			for i := range tp.Len() {
				ps = append(ps, tp.At(i).Obj().Name()+" "+types.TypeString(tp.At(i).Constraint(), q))
			}
			head += "[" + strings.Join(ps, ", ") + "]"
		}
		switch u := named.Underlying().(type) {
		case *types.Struct:
			lines = append(lines, line{name, head + " struct"})
			for i := range u.NumFields() {
				f := u.Field(i)
				if !f.Exported() {
					continue
				}
				text := "field " + name + "." + f.Name() + " " + types.TypeString(f.Type(), q)
				if f.Embedded() {
					text += " (embedded)"
				}
				lines = append(lines, line{name + ".1" + f.Name(), text})
			}
		case *types.Interface:
			lines = append(lines, line{name, head + " interface"})
			for i := range u.NumExplicitMethods() {
				m := u.ExplicitMethod(i)
				if m.Exported() {
					lines = append(lines, line{name + ".2" + m.Name(), "method (" + name + ") " + m.Name() + strings.TrimPrefix(types.TypeString(m.Type(), q), "func")})
				}
			}
			for i := range u.NumEmbeddeds() {
				lines = append(lines, line{name + ".0", "embeds " + name + " " + types.TypeString(u.EmbeddedType(i), q)})
			}
		default:
			lines = append(lines, line{name, head + " " + types.TypeString(u, q)})
		}
		for i := range named.NumMethods() {
			m := named.Method(i)
			if m.Exported() {
				lines = append(lines, line{name + ".3" + m.Name(), types.ObjectString(m, q)})
			}
		}
	}
	// A member's key is its type's name, a dot, and a digit that puts the
	// embedded interfaces first, then the fields, then the methods.
	slices.SortStableFunc(lines, func(a, b line) int { return strings.Compare(a.key, b.key) })
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.text
	}
	return texts
}
