package envelope

import (
	"bytes"
	"encoding/xml"
	"strings"
)

// maxXMLTokens bounds the work of reading an XML body: an error document
// names its code and message within its first few dozen tokens.
const maxXMLTokens = 512

// readXML reads an XML error document: the first element named Error (in
// any case and namespace, at any depth: S3's and Azure Storage's
// <Error>, AWS's <ErrorResponse><Error> and <Response><Errors><Error>,
// OData's <m:error>) and the text of its Code and Message children. ok is
// false when the body is no such document (an HTML page, XML without an
// Error element, or an Error with neither child) within maxXMLTokens
// tokens. Text is kept up to maxPlainMessage bytes.
func readXML(body []byte) (code, message string, ok bool) {
	d := xml.NewDecoder(bytes.NewReader(body))
	depth, errDepth := 0, 0
	var cur *string
	var text strings.Builder
	for range maxXMLTokens {
		tok, err := d.Token()
		if err != nil {
			return "", "", false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			name := t.Name.Local
			switch {
			case depth == 1 && strings.EqualFold(name, "html"):
				return "", "", false
			case errDepth == 0 && strings.EqualFold(name, "error"):
				errDepth = depth
			case errDepth > 0 && depth == errDepth+1 && cur == nil:
				if strings.EqualFold(name, "code") && code == "" {
					cur = &code
				} else if strings.EqualFold(name, "message") && message == "" {
					cur = &message
				}
				text.Reset()
			}
		case xml.CharData:
			if cur != nil && text.Len() < maxPlainMessage {
				text.Write(t[:min(len(t), maxPlainMessage-text.Len())])
			}
		case xml.EndElement:
			if cur != nil && depth == errDepth+1 {
				*cur = strings.ToValidUTF8(strings.TrimSpace(text.String()), "")
				cur = nil
			}
			if depth == errDepth {
				return code, message, code != "" || message != ""
			}
			depth--
		}
	}
	return "", "", false
}
