package vdbdemo

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Record is one vulnerability as the VDB serves it.
type Record struct {
	ID        string     `json:"id"`
	Aliases   []string   `json:"aliases"`
	Summary   string     `json:"summary"`
	Severity  string     `json:"severity"`
	CVSS      float64    `json:"cvss"`
	Published string     `json:"published"`
	Vendor    string     `json:"vendor"`
	Product   string     `json:"product"`
	Affected  []Affected `json:"affected"`

	KEV      bool      `json:"-"`
	Exploits []Exploit `json:"-"`
	rawPad   int       // bytes of history in the raw record
	indexed  []string  // ids the VDB finds it under
}

// Affected is a vulnerable package range.
type Affected struct {
	PURL       string `json:"purl"`
	Introduced string `json:"introduced"`
	Fixed      string `json:"fixed,omitempty"`
}

// Exploit is one piece of exploit intelligence.
type Exploit struct {
	Source   string `json:"source"`
	URL      string `json:"url"`
	Maturity string `json:"maturity"`
}

// Trends is a vendor's trend figures.
type Trends struct {
	Vendor        string  `json:"vendor"`
	Year          int     `json:"year"`
	CVEsByQuarter []int   `json:"cves_by_quarter"`
	CriticalShare float64 `json:"critical_share"`
}

const brokenVendor = "tukaani"

type dataset struct {
	byID   map[string]*Record
	all    []*Record
	trends map[string]Trends
}

func newDataset() *dataset {
	recs := []*Record{
		{
			ID: "CVE-2021-44228", Aliases: []string{"GHSA-jfh8-c2jp-5v3q"},
			Summary:  "Apache Log4j2 JNDI features do not protect against attacker-controlled LDAP and other JNDI endpoints (Log4Shell).",
			Severity: "CRITICAL", CVSS: 10.0, Published: "2021-12-10T10:15:09Z", Vendor: "apache", Product: "log4j",
			Affected: []Affected{{PURL: "pkg:maven/org.apache.logging.log4j/log4j-core", Introduced: "2.0-beta9", Fixed: "2.15.0"}},
			KEV:      true,
			Exploits: []Exploit{{Source: "exploit-db", URL: "https://www.exploit-db.com/exploits/50592", Maturity: "weaponized"}},
			rawPad:   600 << 10,
		},
		{
			ID: "CVE-2022-22965", Aliases: []string{"GHSA-36p3-wjmg-h94x"},
			Summary:  "Spring Framework RCE via data binding on JDK 9+ (Spring4Shell).",
			Severity: "CRITICAL", CVSS: 9.8, Published: "2022-04-01T23:15:13Z", Vendor: "vmware", Product: "spring_framework",
			Affected: []Affected{{PURL: "pkg:maven/org.springframework/spring-beans", Introduced: "5.3.0", Fixed: "5.3.18"}},
			KEV:      true,
			Exploits: []Exploit{{Source: "github", URL: "https://github.com/example/spring4shell-poc", Maturity: "poc"}},
			rawPad:   4 << 10,
		},
		{
			ID: FlakyID, Aliases: []string{"GHSA-qppj-fm5r-hxr3"},
			Summary:  "HTTP/2 Rapid Reset: request cancellation can reset many streams quickly, causing denial of service.",
			Severity: "HIGH", CVSS: 7.5, Published: "2023-10-10T14:15:10Z", Vendor: "ietf", Product: "http2",
			Affected: []Affected{{PURL: "pkg:golang/golang.org/x/net", Introduced: "0", Fixed: "0.17.0"}},
			KEV:      true,
			rawPad:   2 << 10,
		},
		{
			ID: DegradedID, Aliases: []string{"GHSA-rxwq-x6h5-x525"},
			Summary:  "Malicious code in xz-utils 5.6.0 and 5.6.1 tarballs (liblzma backdoor).",
			Severity: "CRITICAL", CVSS: 10.0, Published: "2024-03-29T17:15:21Z", Vendor: brokenVendor, Product: "xz",
			Affected: []Affected{{PURL: "pkg:generic/xz-utils", Introduced: "5.6.0", Fixed: "5.6.2"}},
			Exploits: []Exploit{{Source: "openwall", URL: "https://www.openwall.com/lists/oss-security/2024/03/29/4", Maturity: "in_the_wild"}},
			rawPad:   2 << 10,
		},
		{
			ID: GHSAOnlyID, Aliases: []string{UnindexedAliasID},
			Summary:  "Requests Session object does not verify requests after making first request with verify=False.",
			Severity: "MEDIUM", CVSS: 5.6, Published: "2024-05-20T20:15:00Z", Vendor: "python", Product: "requests",
			Affected: []Affected{{PURL: "pkg:pypi/requests", Introduced: "0", Fixed: "2.32.0"}},
			rawPad:   1 << 10,
			indexed:  []string{GHSAOnlyID},
		},
	}
	d := &dataset{byID: make(map[string]*Record), all: recs, trends: map[string]Trends{
		"apache": {Vendor: "apache", Year: 2026, CVEsByQuarter: []int{41, 37, 52, 44}, CriticalShare: 0.12},
		"vmware": {Vendor: "vmware", Year: 2026, CVEsByQuarter: []int{18, 22, 15, 19}, CriticalShare: 0.21},
		"ietf":   {Vendor: "ietf", Year: 2026, CVEsByQuarter: []int{1, 0, 2, 1}, CriticalShare: 0.0},
		"python": {Vendor: "python", Year: 2026, CVEsByQuarter: []int{7, 9, 6, 8}, CriticalShare: 0.05},
	}}
	for _, r := range recs {
		ids := r.indexed
		if ids == nil {
			ids = append([]string{r.ID}, r.Aliases...)
		}
		for _, id := range ids {
			d.byID[strings.ToUpper(id)] = r
		}
	}
	return d
}

// lookup finds a record by any id it is indexed under, case-insensitively.
func (d *dataset) lookup(id string) (*Record, bool) {
	r, ok := d.byID[strings.ToUpper(id)]
	return r, ok
}

// affecting returns the ids of the records with a package range whose purl
// is a prefix of p (version and qualifiers ignored).
func (d *dataset) affecting(p string) []string {
	base, _, _ := strings.Cut(p, "?")
	base, _, _ = strings.Cut(base, "#")
	if i := strings.LastIndex(base, "@"); i > strings.LastIndex(base, "/") {
		base = base[:i]
	}
	ids := []string{}
	for _, r := range d.all {
		for _, a := range r.Affected {
			if strings.EqualFold(a.PURL, base) {
				ids = append(ids, r.ID)
				break
			}
		}
	}
	return ids
}

// rawJSON is the raw upstream record: the record with a long change history,
// the way an upstream feed keeps every revision.
func (r *Record) rawJSON() []byte {
	var b strings.Builder
	b.Grow(r.rawPad + 1024)
	rec, _ := json.Marshal(r)
	b.WriteString(`{"schema":"vulnetix-raw/1","record":`)
	b.Write(rec)
	b.WriteString(`,"history":[`)
	for i := 0; b.Len() < r.rawPad; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"revision":%d,"source":"nvd","note":"revision %d of %s imported from the upstream feed"}`, i+1, i+1, r.ID)
	}
	b.WriteString("]}")
	return []byte(b.String())
}
