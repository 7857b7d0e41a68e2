package main

import (
	"cmp"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"strings"
)

// readReport reads an earlier -json report.
func readReport(name string) (*report, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s is not a -json report: %w", name, err)
	}
	return &r, nil
}

// checkKey names a check across runs: its tool and its probe.
func checkKey(c check) string {
	return strings.TrimSpace(c.Tool + " " + c.Probe)
}

// regressions lists the checks that were ok in the baseline and are not ok
// now, and a check of the baseline that is gone; a check that was failing
// already, or that is new, is not one.
func regressions(base, now *report) []string {
	cur := map[string]check{}
	for _, c := range now.Checks {
		cur[checkKey(c)] = c
	}
	var out []string
	for _, b := range base.Checks {
		if !b.OK {
			continue
		}
		c, ok := cur[checkKey(b)]
		switch {
		case !ok:
			out = append(out, checkKey(b)+": ok in the baseline, not run now")
		case !c.OK:
			out = append(out, checkKey(b)+": ok in the baseline, now: "+c.Why)
		}
	}
	return out
}

// The JUnit XML schema CI systems read: a suite of cases, a failure per
// case not ok.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Time     string      `xml:"time,attr"`
	Props    []junitProp `xml:"properties>property"`
	Cases    []junitCase `xml:"testcase"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Class   string        `xml:"classname,attr"`
	Name    string        `xml:"name,attr"`
	Failure *junitFailure `xml:"failure"`
	Out     string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes the report as JUnit XML: one suite, a case per check
// (its tool, or "protocol", as the class), failed when not ok.
func writeJUnit(name string, r *report) error {
	s := junitSuite{
		Name:  "mcperr audit " + strings.TrimSpace(r.Server+" "+r.Version),
		Tests: len(r.Checks),
		Time:  fmt.Sprintf("%.3f", r.Seconds),
		Props: []junitProp{{"grade", r.Grade}, {"score", fmt.Sprint(r.Score)}, {"transport", r.Transport}, {"protocol", r.Protocol}},
	}
	for _, c := range r.Checks {
		jc := junitCase{Class: cmp.Or(c.Tool, c.group), Name: c.Probe}
		var out []string
		if len(c.Arguments) > 0 {
			out = append(out, "arguments: "+string(c.Arguments))
		}
		if c.Text != "" {
			out = append(out, "text: "+xmlSafe(c.Text))
		}
		jc.Out = strings.Join(out, "\n")
		if !c.OK {
			s.Failures++
			jc.Failure = &junitFailure{Message: xmlSafe(c.Why), Type: c.Answer, Text: xmlSafe(c.Why)}
		}
		s.Cases = append(s.Cases, jc)
	}
	b, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{s}}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append([]byte(xml.Header), append(b, '\n')...), 0o644)
}

// xmlSafe drops the characters XML 1.0 cannot carry.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			return r
		}
		return -1
	}, s)
}
