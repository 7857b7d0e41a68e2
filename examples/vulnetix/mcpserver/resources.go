package mcpserver

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

//go:embed skills/*.md
var skillFiles embed.FS

// VulnTemplate is the resource template of a vulnerability record.
const VulnTemplate = "vulnetix://vuln/{id}"

const vulnPrefix = "vulnetix://vuln/"

// Skill files, served as skill://vulnetix/<file>.
var skills = []struct{ file, title string }{
	{"SKILL.md", "Using the Vulnetix tools"},
	{"errors.md", "Vulnetix errors: what to do next"},
}

func (s *Server) addResources() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "vuln",
		Title:       "Vulnerability record",
		Description: "The Vulnetix VDB record of a CVE or GHSA id, such as vulnetix://vuln/CVE-2021-44228.",
		MIMEType:    "application/json",
		URITemplate: VulnTemplate,
	}, s.readVuln)
	for _, sk := range skills {
		uri := "skill://vulnetix/" + sk.file
		s.mcp.AddResource(&mcp.Resource{
			Name:     sk.file,
			Title:    sk.title,
			URI:      uri,
			MIMEType: "text/markdown",
		}, readSkill)
	}
}

func readSkill(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	file, ok := strings.CutPrefix(uri, "skill://vulnetix/")
	if !ok || strings.Contains(file, "/") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	b, err := skillFiles.ReadFile("skills/" + file)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{
		Contents:  []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(b)}},
		Cacheable: mcp.Cacheable{TTLMs: int(time.Hour / time.Millisecond), CacheScope: "public"}, // embedded: changes only with the binary
	}, nil
}

var idRE = regexp.MustCompile(idPattern)

// vulnID returns the decoded id of a vulnetix://vuln/{id} URI, or why the
// URI variable is missing, badly percent-encoded or not an id.
func vulnID(uri string) (id, problem string) {
	raw, ok := strings.CutPrefix(uri, vulnPrefix)
	if !ok {
		return "", "not a " + VulnTemplate + " URI"
	}
	if raw == "" {
		return "", fmt.Sprintf("Missing URI variable id in %s: expected %s.", quote(uri), VulnTemplate)
	}
	id, err := url.PathUnescape(raw)
	if err != nil {
		return "", fmt.Sprintf("Badly percent-encoded URI variable id in %s.", quote(uri))
	}
	if !idRE.MatchString(id) {
		return "", fmt.Sprintf("URI variable id %s in %s is not a CVE or GHSA id.", quote(id), quote(uri))
	}
	return id, ""
}

func invalidParams(msg, uri string) error {
	data, _ := json.Marshal(map[string]string{"uri": wire.Printable(uri)})
	return &jsonrpc.Error{Code: int64(errkind.InvalidParams), Message: msg, Data: data}
}

func (s *Server) readVuln(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, problem := vulnID(uri)
	if problem != "" {
		return nil, invalidParams(problem, uri)
	}
	key := ""
	if req.Extra != nil {
		key, _ = bearer(req.Extra.Header)
	}
	if key == "" {
		return nil, &jsonrpc.Error{Code: int64(errkind.InternalError), Message: fail(NoCredential).Message}
	}
	body, f := s.vdb.get(ctx, key, "/v1/vulns/"+url.PathEscape(id), nil, nil)
	if f != nil {
		if f.Kind == NotFound {
			return nil, invalidParams(f.Message, uri)
		}
		return nil, &jsonrpc.Error{Code: int64(errkind.InternalError), Message: f.Message}
	}
	return &mcp.ReadResourceResult{
		Contents:  []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(body)}},
		Cacheable: mcp.Cacheable{CacheScope: "private"}, // read with the caller's credential
	}, nil
}
