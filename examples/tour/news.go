package main

import (
	"context"

	"github.com/mcperr/mcperr/examples/news/mcpserver"
)

// The news section registers itself, after the sections listed in
// sections.go, so this file is the only one it needs.
var newsSection = section{
	name:  "news",
	title: "the news index: HTTP statuses where no session can open, JSON-RPC errors for calls that never ran, JSON tool errors with credit figures, results that say they are incomplete",
	run:   newsTour,
}

func newsTour(ctx context.Context) ([]Line, error) {
	tls, err := mcpserver.Tour(ctx)
	if err != nil {
		return nil, err
	}
	lines := make([]Line, 0, len(tls))
	for _, l := range tls {
		text := l.Raw
		if l.Code == mcpserver.Partial && len(text) > maxText {
			text = text[:maxText] + "…"
		}
		lines = append(lines, Line{Shape: l.Call + " (" + l.Shape + ")", Kind: string(l.Code), Move: string(l.Move), Text: text})
	}
	return lines, nil
}
