package main

// sections are the tour's parts, in order. Each server adds one line here
// and its section in a file of its own.
var sections = []section{
	vexloSection,
	vulnetixSection,
	newsSection,
}
