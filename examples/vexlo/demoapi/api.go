package demoapi

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcperr/mcperr/ratelimit"
)

// Roles a token can carry. Only RoleRead may call the read routes; every role
// may ask /v1/tokens/self who it is.
const (
	RoleRead  = "read"
	RoleWrite = "write"
	RoleAdmin = "admin"
)

// DefaultReadLimit is the per-token read limit, in requests per second.
const DefaultReadLimit = 20

// Token is an API credential: a secret sent as a bearer token, a role, and
// the team-set whose services' traces it may see. Tokens carry no expiry;
// they stop working only when revoked.
type Token struct {
	ID      string   // public id, shown by /v1/tokens/self
	Secret  string   // the bearer value; never echoed by the API
	Role    string   // RoleRead, RoleWrite or RoleAdmin
	Teams   []string // team-set; a trace of another team's service is not found
	Revoked bool
}

// API is the embedded Vexlo API: sample traces, steps, functions, tags,
// services and teams behind the routes of the contract, with bearer tokens,
// a per-token read limit and a disk-pressure switch. Create it with [New];
// it is an [http.Handler] safe for concurrent use.
type API struct {
	// NoAuth turns authentication off: no Authorization header is needed,
	// every team is visible, and there is no read limit. Set it before
	// serving.
	NoAuth bool

	mu           sync.Mutex
	tokens       map[string]*Token // by secret
	nextID       int
	diskPressure bool
	limiter      *ratelimit.Limiter
	adminKey     string
	demo         Token

	data *dataset
	mux  *http.ServeMux
	now  func() time.Time
}

// New returns an API with the sample data and one demo read token (see
// [API.DemoToken]) covering the teams web and billing but not ops. now is the
// API's clock for the read limit; nil means time.Now.
func New(now func() time.Time) *API {
	if now == nil {
		now = time.Now
	}
	a := &API{
		tokens:   make(map[string]*Token),
		limiter:  ratelimit.NewLimiter(DefaultReadLimit, DefaultReadLimit),
		adminKey: randomSecret("vxa_"),
		data:     newDataset(),
		now:      now,
	}
	a.demo = a.AddToken(RoleRead, "web", "billing")
	a.mux = a.routes()
	return a
}

// DemoToken returns the read token New created.
func (a *API) DemoToken() Token { return a.demo }

// AdminKey returns the key the /_demo/ admin routes require in the
// X-Demo-Admin header.
func (a *API) AdminKey() string { return a.adminKey }

// AddToken creates a token with a fresh random secret and returns it.
func (a *API) AddToken(role string, teams ...string) Token {
	return a.AddTokenSecret(randomSecret("vxl_"), role, teams...)
}

// AddTokenSecret creates a token with the given secret (tests use it to
// know the secret in advance) and returns it.
func (a *API) AddTokenSecret(secret, role string, teams ...string) Token {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.nextID++
	t := &Token{ID: "tok_" + strconv.Itoa(a.nextID), Secret: secret, Role: role, Teams: append([]string(nil), teams...)}
	a.tokens[secret] = t
	return *t
}

// Revoke revokes the token with the given id or secret. It reports whether
// such a token existed. A revoked token is answered 401 "token revoked".
func (a *API) Revoke(idOrSecret string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, t := range a.tokens {
		if t.ID == idOrSecret || t.Secret == idOrSecret {
			t.Revoked = true
			return true
		}
	}
	return false
}

// SetDiskPressure switches the disk-pressure state /v1/health reports.
func (a *API) SetDiskPressure(on bool) {
	a.mu.Lock()
	a.diskPressure = on
	a.mu.Unlock()
}

func (a *API) pressure() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.diskPressure
}

// ServeHTTP answers the routes of the contract.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && oddSegment(r.URL.Path) {
		// An empty, "." or ".." id segment, which ServeMux would redirect
		// away: answer it as the route's own error for such an id.
		a.emptySegment(w, r)
		return
	}
	a.mux.ServeHTTP(w, r)
}

// oddSegment reports whether a /v1/ path has an empty, "." or ".." segment
// after the route name.
func oddSegment(path string) bool {
	if path == "/v1/traces/" {
		return true
	}
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if i > 0 && (p == "" && i < len(parts)-1 || p == "." || p == "..") {
			return true
		}
	}
	return false
}

// emptySegment answers a route with an empty, "." or ".." segment.
func (a *API) emptySegment(w http.ResponseWriter, r *http.Request) {
	c, ok := a.authenticate(w, r, true)
	if !ok {
		return
	}
	parts := strings.Split(r.URL.Path, "/") // "", "v1", route, ...
	if len(parts) >= 4 && parts[1] == "v1" && parts[2] == "traces" {
		if e := checkTraceID(parts[3]); e != nil {
			writeError(w, e)
			return
		}
	}
	if len(parts) >= 5 && parts[1] == "v1" && parts[2] == "functions" {
		svc, ok := a.data.service(parts[3])
		if !ok || !c.sees(svc.Team) {
			writeError(w, &apiError{status: 404, code: "service_not_found", message: "no service named " + parts[3],
				details: map[string]any{"service": parts[3]}})
			return
		}
		if !slices.Contains(svc.Functions, parts[4]) {
			writeError(w, &apiError{status: 404, code: "function_not_found",
				message: "no function " + parts[4] + " in service " + parts[3],
				details: map[string]any{"service": parts[3], "name": parts[4]}})
			return
		}
	}
	writeError(w, &apiError{status: 404, code: "not_found", message: "no route " + r.Method + " " + r.URL.Path})
}

func randomSecret(prefix string) string {
	return prefix + strings.ToLower(rand.Text())
}

// caller is the authenticated side of a request.
type caller struct {
	token *Token // nil in no-auth mode
}

// sees reports whether the caller's team-set covers team.
func (c caller) sees(team string) bool {
	if c.token == nil {
		return true
	}
	for _, t := range c.token.Teams {
		if t == team {
			return true
		}
	}
	return false
}

// apiError is an error answer in the API's envelope.
type apiError struct {
	status  int
	code    string
	message string
	details map[string]any
}

func writeError(w http.ResponseWriter, e *apiError) {
	body := struct {
		Error struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details,omitempty"`
		} `json:"error"`
	}{}
	body.Error.Code, body.Error.Message, body.Error.Details = e.code, e.message, e.details
	writeJSON(w, e.status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, `{"error":{"code":"internal_error","message":"encoding failed"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// authenticate finds the request's token. read says whether the route is a
// read route, which needs the read role and counts against the read limit.
func (a *API) authenticate(w http.ResponseWriter, r *http.Request, read bool) (caller, bool) {
	if a.NoAuth {
		return caller{}, true
	}
	secret, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || secret == "" {
		writeError(w, &apiError{status: 401, code: "unauthenticated", message: "missing bearer token"})
		return caller{}, false
	}
	a.mu.Lock()
	var tok *Token
	for s, t := range a.tokens {
		if subtle.ConstantTimeCompare([]byte(s), []byte(secret)) == 1 {
			tok = t
		}
	}
	var snapshot Token
	if tok != nil {
		snapshot = *tok
	}
	a.mu.Unlock()
	switch {
	case tok == nil:
		writeError(w, &apiError{status: 401, code: "unauthenticated", message: "unknown token"})
		return caller{}, false
	case snapshot.Revoked:
		writeError(w, &apiError{status: 401, code: "unauthenticated", message: "token revoked"})
		return caller{}, false
	}
	if read {
		if snapshot.Role != RoleRead {
			writeError(w, &apiError{status: 403, code: "forbidden_role",
				message: "token role " + strconv.Quote(snapshot.Role) + " cannot call read routes"})
			return caller{}, false
		}
		d := a.limiter.AllowAt(snapshot.ID, a.now())
		d.SetHeaders(w.Header())
		if !d.OK {
			writeError(w, &apiError{status: 429, code: "rate_limited",
				message: "read limit of " + strconv.Itoa(DefaultReadLimit) + " requests per second exceeded"})
			return caller{}, false
		}
	}
	return caller{token: &snapshot}, true
}
