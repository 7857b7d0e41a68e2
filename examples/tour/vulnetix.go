package main

import (
	"context"

	"github.com/mcperr/mcperr/examples/vulnetix/mcpserver"
)

// The vulnetix section registers itself, after the sections listed in
// sections.go, so this file is the only one it needs.
var vulnetixSection = section{
	name:  "vulnetix",
	title: "the Vulnetix VDB over Streamable HTTP 2026-07-28: protocol errors as HTTP statuses with JSON-RPC bodies, the edge flood guard, tool errors as prose, a degraded result, resources/read errors",
	run:   vulnetixTour,
}

func vulnetixTour(ctx context.Context) ([]Line, error) {
	tls, err := mcpserver.Tour(ctx)
	if err != nil {
		return nil, err
	}
	lines := make([]Line, 0, len(tls))
	for _, l := range tls {
		text := l.Text
		if (l.Kind == "(data)" || l.Kind == "degraded") && len(text) > maxText {
			text = text[:maxText] + "…"
		}
		lines = append(lines, Line{Shape: l.Call, Kind: l.Kind, Move: l.Move, Text: text})
	}
	return lines, nil
}
