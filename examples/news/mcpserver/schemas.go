package mcpserver

// The tools' output schemas. Every success's structuredContent matches its
// tool's schema (a test checks each against it).

const (
	sCredits   = `{"type":"object","required":["min","max"],"properties":{"min":{"type":"integer","minimum":0},"max":{"type":"integer","minimum":0}},"additionalProperties":false}`
	sCharged   = `"credits_charged":{"type":"integer","minimum":0,"description":"Credits this call cost."}`
	sTime      = `{"type":"string","format":"date-time"}`
	sStrings   = `{"type":"array","items":{"type":"string"}}`
	sBrief     = `{"type":"object","required":["id","story_id","title","source","url","language","published"],"properties":{"id":{"type":"string"},"story_id":{"type":"string"},"title":{"type":"string"},"source":{"type":"string"},"url":{"type":"string"},"language":{"type":"string"},"published":` + sTime + `}}`
	sSignals   = `{"type":"object","properties":{"sentiment":{"type":"number","minimum":-1,"maximum":1},"entities":` + sStrings + `,"topics":` + sStrings + `,"velocity":{"type":"number","minimum":0},"languages":` + sStrings + `,"dates":` + sStrings + `},"additionalProperties":false}`
	sComplete  = `"total":{"type":"integer","minimum":0},"total_relation":{"enum":["exact","gte"]},"has_more":{"type":"boolean"},"partial":{"type":"boolean","description":"Some shards did not answer: an empty or short result is not evidence of absence."},"coverage":{"type":"string","description":"complete, or which shards answered."},"from_clamped":{"type":"boolean"},"shards":{"type":"object","required":["needed","answered"],"properties":{"needed":{"type":"integer"},"answered":{"type":"integer"}}}`
	sCompleteR = `"total","total_relation","has_more","partial","coverage","from_clamped","shards"`

	searchSchema = `{"type":"object","oneOf":[` +
		`{"required":[` + sCompleteR + `,"stories","credits_charged"],"properties":{` + sComplete + `,"stories":{"type":"array","items":{"type":"object","required":["id","headline","first_seen","last_seen","article_count","matched_articles","top_article"],"properties":{"id":{"type":"string"},"headline":{"type":"string"},"first_seen":` + sTime + `,"last_seen":` + sTime + `,"article_count":{"type":"integer"},"matched_articles":{"type":"integer"},"top_article":` + sBrief + `,"signals":` + sSignals + `}}},` + sCharged + `},"additionalProperties":false},` +
		`{"required":["estimate","credits","breakdown","credits_charged"],"properties":{"estimate":{"const":true},"credits":` + sCredits + `,"breakdown":{"type":"array","items":{"type":"object","required":["item","min","max"],"properties":{"item":{"type":"string"},"min":{"type":"integer"},"max":{"type":"integer"}}}},` + sCharged + `},"additionalProperties":false}` +
		`]}`

	articleSchema = `{"type":"object","required":["article","credits_charged"],"properties":{"article":{"type":"object","required":["id","story_id","title","source","url","language","published","summary","shard","signals"],"properties":{"id":{"type":"string"},"story_id":{"type":"string"},"title":{"type":"string"},"source":{"type":"string"},"url":{"type":"string"},"language":{"type":"string"},"published":` + sTime + `,"summary":{"type":"string"},"shard":{"type":"integer"},"signals":` + sSignals + `}},` + sCharged + `},"additionalProperties":false}`

	storySchema = `{"type":"object","required":["story","partial","coverage","credits_charged"],"properties":{"story":{"type":"object","required":["id","headline","first_seen","last_seen","article_count","signals","articles"],"properties":{"id":{"type":"string"},"headline":{"type":"string"},"first_seen":` + sTime + `,"last_seen":` + sTime + `,"article_count":{"type":"integer"},"signals":` + sSignals + `,"articles":{"type":"array","items":` + sBrief + `}}},"partial":{"type":"boolean"},"coverage":{"type":"string"},` + sCharged + `},"additionalProperties":false}`

	relatedSchema = `{"type":"object","required":["article_id",` + sCompleteR + `,"articles","credits_charged"],"properties":{"article_id":{"type":"string"},` + sComplete + `,"articles":{"type":"array","items":` + sBrief + `},` + sCharged + `},"additionalProperties":false}`

	sWatch      = `{"type":"object","required":["id","query","signals","created"],"properties":{"id":{"type":"string"},"query":{"type":"string"},"signals":` + sStrings + `,"created":` + sTime + `}}`
	watchSchema = `{"type":"object","required":["watch","credits_charged"],"properties":{"watch":` + sWatch + `,` + sCharged + `},"additionalProperties":false}`

	deletedSchema = `{"type":"object","required":["id","deleted","credits_charged"],"properties":{"id":{"type":"string"},"deleted":{"const":true},` + sCharged + `},"additionalProperties":false}`

	eventsSchema = `{"type":"object","required":["watch_id",` + sCompleteR + `,"events","credits_charged"],"properties":{"watch_id":{"type":"string"},` + sComplete + `,"events":{"type":"array","items":{"type":"object","required":["article"],"properties":{"article":` + sBrief + `,"signals":` + sSignals + `}}},` + sCharged + `},"additionalProperties":false}`
)
