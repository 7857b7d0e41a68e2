// Package vdbdemo is an embedded Vulnetix vdb-api: a small, deterministic
// stand-in for the real vulnerability database that the Vulnetix MCP server
// calls, with every failure that server has to turn into a message.
//
// It serves the routes of the contract (GET only, JSON, Authorization:
// Bearer <key>):
//
//	/v1/vulns/{id}               the record for a CVE or GHSA id; aliases lists the other ids
//	/v1/vulns/{id}/raw           the raw upstream record (CVE-2021-44228's is over 524,288 bytes)
//	/v1/vulns/{id}/exploits      exploit intelligence for a record
//	/v1/purl?purl=               vulnerabilities affecting a package
//	/v1/vendors/{vendor}/trends  vendor trend figures ("tukaani" always fails with 500)
//	/v1/auth/device              start a device login (no key needed)
//	/v1/auth/device/{code}       poll it: pending once, then approved
//
// Which failure a request meets is chosen by its key, so one running API
// shows them all: [KeyCommunity] and [KeyPro] work, [KeyQuota] has a daily
// quota of [QuotaPerDay] requests and then gets 429 with X-RateLimit-Reset
// (epoch seconds of the next UTC midnight), [KeyInactive] belongs to an
// inactive organisation (403), [KeyMaintenance] meets maintenance mode (503
// with X-Maintenance-Mode: true, also switched on for everyone by
// [API.SetMaintenance]), and any other key, or none, gets 401. The record
// [FlakyID] fails once with 502 and then answers, so a client's GET retry
// can be seen at work. Error bodies are {"error":{"code":"...","message":"..."}}.
package vdbdemo

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The demo keys. They are not secrets; each selects one behaviour.
const (
	KeyCommunity   = "vdb-demo-community"   // works; plan "community"
	KeyPro         = "vdb-demo-pro"         // works; plan "pro"
	KeyQuota       = "vdb-demo-quota"       // works QuotaPerDay times a day, then 429
	KeyInactive    = "vdb-demo-inactive"    // organisation inactive: 403
	KeyMaintenance = "vdb-demo-maintenance" // meets maintenance mode: 503
)

// QuotaPerDay is the daily request quota of [KeyQuota].
const QuotaPerDay = 3

// Sample ids.
const (
	// HugeRawID is the record whose raw form exceeds 524,288 bytes.
	HugeRawID = "CVE-2021-44228"
	// FlakyID is the record whose first request fails with 502.
	FlakyID = "CVE-2023-44487"
	// DegradedID is the record whose vendor's trends always fail with 500.
	DegradedID = "CVE-2024-3094"
	// GHSAOnlyID is indexed under its GHSA id only: its CVE alias
	// (UnindexedAliasID) is not found, so a client must try the alias.
	GHSAOnlyID = "GHSA-9wx4-h78v-vm56"
	// UnindexedAliasID is GHSAOnlyID's CVE alias, which the VDB does not index.
	UnindexedAliasID = "CVE-2024-35195"
)

// HeaderPlan is the response header carrying the caller's plan.
const HeaderPlan = "X-Vulnetix-Plan"

// API is the embedded vdb-api. Create it with [New]; it is an [http.Handler]
// safe for concurrent use.
type API struct {
	mu          sync.Mutex
	now         func() time.Time
	used        map[string]int // requests today, by key and day: key + "|" + yyyy-mm-dd
	flakyFailed bool
	maintenance bool
	devices     map[string]int // device code -> polls so far

	data *dataset
	mux  *http.ServeMux
}

// New returns an API with the sample records. now is its clock (for the
// daily quota); nil means time.Now.
func New(now func() time.Time) *API {
	if now == nil {
		now = time.Now
	}
	a := &API{
		now:     now,
		used:    make(map[string]int),
		devices: make(map[string]int),
		data:    newDataset(),
		mux:     http.NewServeMux(),
	}
	a.mux.HandleFunc("GET /v1/vulns/{id}", a.authed(a.vuln))
	a.mux.HandleFunc("GET /v1/vulns/{id}/raw", a.authed(a.raw))
	a.mux.HandleFunc("GET /v1/vulns/{id}/exploits", a.authed(a.exploits))
	a.mux.HandleFunc("GET /v1/purl", a.authed(a.purl))
	a.mux.HandleFunc("GET /v1/vendors/{vendor}/trends", a.authed(a.trends))
	a.mux.HandleFunc("GET /v1/auth/device", a.deviceStart)
	a.mux.HandleFunc("GET /v1/auth/device/{code}", a.devicePoll)
	a.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET")
			writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "vdb-api answers GET only.")
			return
		}
		writeError(w, http.StatusNotFound, "route_not_found", "No such route.")
	})
	return a
}

// ServeHTTP serves the vdb-api routes.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

// SetMaintenance switches maintenance mode on or off for every key: while
// on, every authenticated route answers 503 with X-Maintenance-Mode: true.
func (a *API) SetMaintenance(on bool) {
	a.mu.Lock()
	a.maintenance = on
	a.mu.Unlock()
}

// Plan returns the plan of a demo key, or "" for a key the API refuses
// with 401.
func Plan(key string) string {
	switch key {
	case KeyCommunity, KeyQuota, KeyInactive, KeyMaintenance:
		return "community"
	case KeyPro:
		return "pro"
	}
	return ""
}

// authed wraps a route with the credential, maintenance and quota checks, in
// that order.
func (a *API) authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key, ok := bearer(r.Header.Get("Authorization"))
		plan := Plan(key)
		if !ok || plan == "" {
			writeError(w, http.StatusUnauthorized, "unauthenticated", "Missing or invalid API key.")
			return
		}
		w.Header().Set(HeaderPlan, plan)
		if constantEq(key, KeyInactive) {
			writeError(w, http.StatusForbidden, "organisation_inactive", "The organisation for this key is not active.")
			return
		}
		a.mu.Lock()
		maint := a.maintenance
		a.mu.Unlock()
		if maint || constantEq(key, KeyMaintenance) {
			w.Header().Set("X-Maintenance-Mode", "true")
			w.Header().Set("Retry-After", "600")
			writeError(w, http.StatusServiceUnavailable, "maintenance", "vdb-api is in maintenance mode.")
			return
		}
		if constantEq(key, KeyQuota) {
			now := a.now().UTC()
			day := now.Format(time.DateOnly)
			reset := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
			a.mu.Lock()
			n := a.used[key+"|"+day]
			if n < QuotaPerDay {
				a.used[key+"|"+day] = n + 1
			}
			a.mu.Unlock()
			h := w.Header()
			h.Set("X-RateLimit-Limit", strconv.Itoa(QuotaPerDay))
			h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
			if n >= QuotaPerDay {
				h.Set("X-RateLimit-Remaining", "0")
				writeError(w, http.StatusTooManyRequests, "daily_quota_exceeded", "Daily request quota exhausted for this organisation.")
				return
			}
			h.Set("X-RateLimit-Remaining", strconv.Itoa(QuotaPerDay-n-1))
		}
		h(w, r)
	}
}

func (a *API) vuln(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if id == FlakyID {
		a.mu.Lock()
		failed := a.flakyFailed
		a.flakyFailed = true
		a.mu.Unlock()
		if !failed {
			writeError(w, http.StatusBadGateway, "bad_gateway", "Upstream shard did not answer.")
			return
		}
	}
	rec, ok := a.data.lookup(id)
	if !ok {
		notFound(w, id)
		return
	}
	writeJSON(w, http.StatusOK, rec)
}

func (a *API) raw(w http.ResponseWriter, r *http.Request) {
	rec, ok := a.data.lookup(r.PathValue("id"))
	if !ok {
		notFound(w, r.PathValue("id"))
		return
	}
	body := rec.rawJSON()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

func (a *API) exploits(w http.ResponseWriter, r *http.Request) {
	rec, ok := a.data.lookup(r.PathValue("id"))
	if !ok {
		notFound(w, r.PathValue("id"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": rec.ID, "kev": rec.KEV, "exploits": rec.Exploits})
}

func (a *API) purl(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Query().Get("purl")
	if !strings.HasPrefix(p, "pkg:") {
		writeError(w, http.StatusBadRequest, "invalid_purl", "purl must be a Package URL.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"purl": p, "vulns": a.data.affecting(p)})
}

func (a *API) trends(w http.ResponseWriter, r *http.Request) {
	v := r.PathValue("vendor")
	t, ok := a.data.trends[v]
	if v == brokenVendor {
		writeError(w, http.StatusInternalServerError, "internal_error", "Trend store unavailable.")
		return
	}
	if !ok {
		writeError(w, http.StatusNotFound, "vendor_not_found", "No such vendor: "+v)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

func (a *API) deviceStart(w http.ResponseWriter, r *http.Request) {
	var b [8]byte
	rand.Read(b[:])
	code := "dc_" + hex.EncodeToString(b[:])
	a.mu.Lock()
	if len(a.devices) > 10000 { // bound memory: forget old logins
		clear(a.devices)
	}
	a.devices[code] = 0
	a.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"device_code":      code,
		"user_code":        strings.ToUpper(hex.EncodeToString(b[:2])) + "-" + strings.ToUpper(hex.EncodeToString(b[2:4])),
		"verification_uri": "https://vulnetix.example/device",
		"expires_in":       300,
		"interval":         5,
	})
}

func (a *API) devicePoll(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	a.mu.Lock()
	n, ok := a.devices[code]
	if ok {
		a.devices[code] = n + 1
	}
	a.mu.Unlock()
	switch {
	case !ok:
		writeError(w, http.StatusNotFound, "device_code_not_found", "No such device login.")
	case n == 0:
		writeJSON(w, http.StatusOK, map[string]any{"status": "authorization_pending"})
	default:
		writeJSON(w, http.StatusOK, map[string]any{"status": "approved", "organisation": "Demo Org", "plan": "community"})
	}
}

func notFound(w http.ResponseWriter, id string) {
	writeError(w, http.StatusNotFound, "vuln_not_found", "No record for "+id+".")
}

// bearer returns the key of an "Authorization: Bearer <key>" value.
func bearer(h string) (string, bool) {
	scheme, key, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	key = strings.TrimSpace(key)
	return key, key != ""
}

func constantEq(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func writeError(w http.ResponseWriter, status int, code, msg string) {
	type body struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	writeJSON(w, status, struct {
		Error body `json:"error"`
	}{body{code, msg}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"internal_error","message":"encoding failed"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}
