package adapter

// UnknownTool is the hint dialect's data.code for a call to a tool the
// server does not have, the code schemaerr.Hint.RefuseTool answers with.
const UnknownTool = "unknown_tool"
