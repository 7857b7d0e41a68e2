package envelope

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"time"
)

// maxXMLTokens bounds the work of reading an XML body: an error document
// names its code and message within its first few dozen tokens.
const maxXMLTokens = 512

// The children of an XML error element that hold its code and its
// message, in lower case: S3's and Azure's <Code> and <Message>, SOAP
// 1.1's <faultcode> and <faultstring>, SOAP 1.2's <Code><Value> and
// <Reason><Text>, and a <Detail> that holds text (Azure Service Bus's
// <Error><Code>401</Code><Detail>...</Detail>).
var (
	xmlCodeNames    = []string{"code", "faultcode", "errorcode"}
	xmlMessageNames = []string{"message", "faultstring", "reason", "errormessage", "detail", "description"}
)

// readXML reads an XML error document: the first element named Error or
// Fault (in any case and namespace, at any depth: S3's and Azure
// Storage's <Error>, AWS's <ErrorResponse><Error> and
// <Response><Errors><Error>, OData's <m:error>, a SOAP <Fault>, an
// XML-RPC <fault>) and the text of its code and message children (see
// xmlCodeNames; in an XML-RPC fault, the values named faultCode and
// faultString). The text of a child is its text up to the first element
// that opens after some text (SOAP 1.2's <Code><Value>env:Sender</Value>
// <Subcode>...). root says the document must be nothing but a fault: a
// SOAP envelope's or an XML-RPC methodResponse's, which a 200 may carry
// (an <Error> on a 200 stays a body the Reader cannot read). ok is false when the body is no such
// document (an HTML page, XML without an error element, or one with
// neither child) within maxXMLTokens tokens. A document with no error
// element whose root element holds a code or a message child (an SMS
// API's <response><message>..</message><code>1</code></response>) is
// read as that error, when root is false. An element whose attribute
// named for a status, a class or a result says the answer failed
// (<response status="error">, <ApiResponse Status="ERROR">, a SOAP body's
// <...ResponseMessage ResponseClass="Error">) is the error element at any
// status and any depth of a SOAP body (see failedAttr): its code and
// message are then found at any depth within it, by name (xmlCodeName,
// xmlMessageName), as an attribute named as a code or a number, or as an
// inner <Error>'s own text. A <Detail> is the message only when it holds
// text of its own. Text is kept up to maxPlainMessage bytes.
func readXML(body []byte, root bool) (code, message string, ok bool) {
	d := xml.NewDecoder(bytes.NewReader(body))
	depth, errDepth := 0, 0
	var cur *string // the child whose text is being read
	curDepth := 0
	var named *string // an XML-RPC member named faultCode or faultString: its value is next
	inName := false
	var text strings.Builder
	// The code and message children of the root element, for a document
	// with no error element whose root is the error ({"<response>
	// <message>..</message><code>1</code></response>"}).
	var rootCode, rootMessage string
	// flagged says the error element is one whose attribute says the
	// answer failed (<response status="error">, ResponseClass="Error"):
	// its code and message are found at any depth within it, and an inner
	// element whose own text is the message may hold the code as an
	// attribute (<Error Number="7">..</Error>). own marks cur as such an
	// element's own text, given up when a child opens before any text.
	flagged, own := false, false
	inBody := false // within a SOAP envelope's body, when root
	// deep says a document that must be nothing but a fault (root) went
	// past where one sits: only a status child that says failed may still
	// make it an error. inStatus marks a child named for a status
	// (<status>error</status>), whose text is being read.
	deep, inStatus := false, false
	// success marks the status child being read as a success flag
	// (<success>false</success>), which says failed when it is false.
	success := false
	// inErrCode marks a child named for an error code (<errorCode>), whose
	// text is being read: a code other than 0 says the answer failed.
	inErrCode := false
	// detailDepth is the depth of a fault's <detail> being read, whose
	// elements may hold an error of their own: dCode and dMessage.
	detailDepth := 0
	var dCode, dMessage string
	for range maxXMLTokens {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF && !root && !deep && errDepth == 0 && (rootCode != "" || rootMessage != "") {
				return rootCode, rootMessage, true
			}
			return "", "", false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			name := strings.ToLower(t.Name.Local)
			// A status or result that holds elements is no flag: its
			// children are read as they come.
			inStatus = false
			if cur != nil && strings.TrimSpace(text.String()) != "" {
				// A child that opens after text ends it: SOAP 1.2's
				// <Code><Value>env:Sender</Value><Subcode>...
				*cur = strings.ToValidUTF8(strings.TrimSpace(text.String()), "")
				cur = nil
			} else if cur == &rootMessage && own && errDepth == 0 {
				// A message child of the root that holds elements, not
				// text, is the error element (<messages><message>
				// <code>..</code><description>..</description>).
				cur, own, errDepth = nil, false, depth-1
			} else if cur != nil && own {
				cur = nil // an element with children, not text of its own
			}
			switch {
			case depth == 1 && name == "html":
				return "", "", false
			case errDepth == 0 && failedAttr(t.Attr):
				errDepth, flagged = depth, true
				code = codeAttr(t.Attr)
			case flagged && cur == nil:
				own = false
				switch {
				case code == "" && (xmlCodeName(name) || name == "number"):
					// An element named for a code, or an error's
					// number (<ERROR><Number>20080</Number>), as an
					// attribute named so is (see codeAttr).
					cur, curDepth = &code, depth
				case message == "" && xmlMessageName(name):
					cur, curDepth = &message, depth
				case message == "" && (name == "error" || name == "fault"):
					if code == "" {
						code = codeAttr(t.Attr)
					}
					if m := messageAttr(t.Attr); m != "" {
						message = m // <error code="40" message="Wrong password"/>
						break
					}
					cur, curDepth, own = &message, depth, true
				}
				text.Reset()
			case errDepth == 0 && (name == "error" || name == "fault"):
				if root && (name == "error" || depth > 3) || deep {
					return "", "", false
				}
				errDepth = depth
			case errDepth == 0 && depth > 1 && cur == nil && (strings.Contains(name, "status") || strings.HasSuffix(name, "result") || name == "success"):
				inStatus, success = true, name == "success"
				text.Reset()
			case errDepth == 0 && depth > 1 && cur == nil && strings.HasPrefix(name, "err") && strings.HasSuffix(name, "code"):
				inErrCode = true
				text.Reset()
			case errDepth == 0:
				if root && depth > 2 && name != "body" && !inBody {
					deep = true
				}
				if root && depth == 2 && name == "body" {
					inBody = true // a SOAP body: an element below may be flagged as failed
				}
				if !root && depth == 2 && cur == nil {
					switch {
					case in(name, xmlCodeNames) && rootCode == "":
						cur, curDepth = &rootCode, depth
					case in(name, xmlMessageNames) && rootMessage == "":
						cur, curDepth, own = &rootMessage, depth, true
					}
					text.Reset()
				}
			case cur == nil && named != nil && name == "value":
				cur, curDepth, named = named, depth, nil
				text.Reset()
			case cur == nil && name == "name":
				inName = true
				text.Reset()
			case cur == nil && detailDepth > 0 && depth > detailDepth:
				switch {
				case dCode == "" && xmlCodeName(name):
					cur, curDepth = &dCode, depth
				case dMessage == "" && xmlMessageName(name):
					cur, curDepth = &dMessage, depth
				}
				text.Reset()
			case cur == nil && depth == errDepth+1:
				if name == "detail" {
					detailDepth = depth
				}
				switch {
				case in(name, xmlCodeNames) && code == "":
					cur, curDepth = &code, depth
				case in(name, xmlMessageNames) && message == "":
					// A detail is the message only when it holds text,
					// not elements (a SOAP fault's <detail>).
					cur, curDepth, own = &message, depth, name == "detail"
				}
				text.Reset()
			}
		case xml.CharData:
			if (cur != nil || inName || inStatus || inErrCode) && text.Len() < maxPlainMessage {
				text.Write(t[:min(len(t), maxPlainMessage-text.Len())])
			}
		case xml.EndElement:
			switch {
			case inStatus:
				// A status child that says failed makes its parent the
				// error element (<result><status>error</status>
				// <errcode>1013</errcode>...), whose members follow it;
				// so does a result child that says so (Wirecard's
				// <FunctionResult>NOK</FunctionResult>) and a success
				// flag that is false (IXOPAY's <success>false</success>,
				// as {"success": false} is in JSON).
				inStatus = false
				if failedWord(text.String()) || success && falseWord(text.String()) {
					errDepth, flagged = depth-1, true
				}
			case inErrCode:
				// An error code child other than 0 makes its parent the
				// error element (<return><errorCode>3</errorCode>
				// <errorMessage>...), whose members follow it.
				inErrCode = false
				if c := strings.TrimSpace(text.String()); c != "" && strings.Trim(c, "0") != "" {
					errDepth, flagged = depth-1, true
					code = strings.ToValidUTF8(c, "")
				}
			case inName:
				inName = false
				switch strings.TrimSpace(text.String()) {
				case "faultCode":
					named = &code
				case "faultString":
					named = &message
				}
			case cur != nil && depth == curDepth:
				*cur = strings.ToValidUTF8(strings.TrimSpace(text.String()), "")
				cur, own = nil, false
			}
			if depth == detailDepth {
				detailDepth = 0
			}
			if errDepth > 0 && depth == errDepth {
				if dCode != "" && sideOnly(code) {
					// The detail's own error says what failed; the
					// fault's code only which side did.
					code = dCode
					if dMessage != "" {
						message = dMessage
					}
				}
				return code, message, code != "" || message != ""
			}
			depth--
		}
	}
	return "", "", false
}

// failedAttr reports whether attrs hold one whose name says a status, a
// class or a result (status, Status, ResponseClass) and whose value says
// the answer failed ("error", "ERROR", "fail", "failed", "failure").
func failedAttr(attrs []xml.Attr) bool {
	for _, a := range attrs {
		n := strings.ToLower(a.Name.Local)
		if !strings.Contains(n, "status") && !strings.HasSuffix(n, "class") && !strings.HasSuffix(n, "result") {
			continue
		}
		if failedWord(a.Value) {
			return true
		}
	}
	return false
}

// failedWord reports whether a status's value says the answer failed:
// "error", "fail", "failed", "failure" or "NOK" (not OK), in any case.
func failedWord(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "error", "fail", "failed", "failure", "nok", "notok":
		return true
	}
	return false
}

// falseWord reports whether a flag's text says no: "false" in any case,
// or 0.
func falseWord(v string) bool {
	v = strings.TrimSpace(v)
	return strings.EqualFold(v, "false") || v == "0"
}

// codeAttr returns the value of an attribute named as a code or a number
// (code="7", Number="1011102", errorCode), or "".
func codeAttr(attrs []xml.Attr) string {
	for _, a := range attrs {
		n := strings.ToLower(a.Name.Local)
		if n == "number" || xmlCodeName(n) {
			return strings.TrimSpace(a.Value)
		}
	}
	return ""
}

// messageAttr returns the value of an attribute named as a message
// (message="...", errorMessage), or "".
func messageAttr(attrs []xml.Attr) string {
	for _, a := range attrs {
		if xmlMessageName(strings.ToLower(a.Name.Local)) {
			return strings.ToValidUTF8(strings.TrimSpace(a.Value), "")
		}
	}
	return ""
}

// xmlCodeName reports whether a lower-case element name names a code:
// one of xmlCodeNames or one that ends in "code" (ResponseCode).
func xmlCodeName(name string) bool {
	return in(name, xmlCodeNames) || strings.HasSuffix(name, "code")
}

// xmlMessageName reports whether a lower-case element name names a
// message: one of xmlMessageNames, or one that ends in "msg" ("errMsg"),
// "message" or "messagetext".
func xmlMessageName(name string) bool {
	return in(name, xmlMessageNames) || strings.HasSuffix(name, "msg") || strings.HasSuffix(name, "message") || strings.HasSuffix(name, "messagetext") ||
		strings.HasPrefix(name, "err") && strings.HasSuffix(name, "text")
}

// sideOnly reports whether a fault's code says only which side failed
// (SOAP 1.1's soap:Server and soap:Client, SOAP 1.2's env:Sender and
// env:Receiver), in any namespace and case.
func sideOnly(code string) bool {
	if i := strings.LastIndexByte(code, ':'); i >= 0 {
		code = code[i+1:]
	}
	switch strings.ToLower(code) {
	case "server", "client", "sender", "receiver":
		return true
	}
	return false
}

func in(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// xmlText is the text of an XML document whose root element holds text
// and no element (<xml>Client request rate is too high</xml>): the
// message, as a one-line text body's is; "" for any other document.
func xmlText(body []byte) string {
	d := xml.NewDecoder(bytes.NewReader(body))
	depth := 0
	var text strings.Builder
	for range maxXMLTokens {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > 1 {
				return ""
			}
		case xml.CharData:
			if depth == 1 && text.Len() < maxPlainMessage {
				text.Write(t[:min(len(t), maxPlainMessage-text.Len())])
			}
		case xml.EndElement:
			s := strings.TrimSpace(text.String())
			if strings.ContainsAny(s, "\n\r") {
				return "" // a page's text, not a message
			}
			return strings.ToValidUTF8(s, "")
		}
	}
	return ""
}

// xmlWait is the longest wait an XML error document asks for: the number
// in an element named for a wait with its unit (see waitUnit), or in one
// whose Name attribute is such a name (Exchange Web Services' <t:Value
// Name="BackOffMilliseconds">297749</t:Value> in a ServerBusy fault), read
// within maxXMLTokens tokens; 0 when there is none.
func xmlWait(body []byte) time.Duration {
	d := xml.NewDecoder(bytes.NewReader(body))
	var longest time.Duration
	per := 0 // the unit of the element being read, 0 when it is no wait
	var text strings.Builder
	for range maxXMLTokens {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			per = waitUnit(t.Name.Local)
			for _, a := range t.Attr {
				if per == 0 && strings.EqualFold(a.Name.Local, "name") {
					per = waitUnit(a.Value)
				}
			}
			text.Reset()
		case xml.CharData:
			if per != 0 && text.Len() < 32 {
				text.Write(t[:min(len(t), 32)])
			}
		case xml.EndElement:
			if per != 0 {
				if f, err := strconv.ParseFloat(strings.TrimSpace(text.String()), 64); err == nil && f > 0 {
					longest = max(longest, secondsToDuration(f/float64(per)))
				}
			}
			per = 0
		}
	}
	return longest
}
