// Package cputime reads the process's CPU time, for the tests that measure
// one piece of code against another on a machine shared with other work.
package cputime
