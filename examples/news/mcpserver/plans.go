package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Plan is what an API key may do: its monthly credits, whether it stops
// there, its per-minute rates and its watch cap.
type Plan struct {
	// Name is the plan's name, for people ("pro", "free").
	Name string `json:"plan"`
	// MonthlyCredits is the allocation for a calendar month (UTC).
	MonthlyCredits int64 `json:"monthly_credits"`
	// StopsAtAllocation refuses a call whose worst case costs more than the
	// credits left this month (insufficient_credits). A key that does not
	// stop runs into overage instead.
	StopsAtAllocation bool `json:"stops_at_allocation"`
	// MessagesPerMinute bounds the HTTP messages the key may send (the MCP
	// handshake included); over it is an HTTP 429 message_rate_limited.
	MessagesPerMinute int `json:"messages_per_minute"`
	// CreditsPerMinute bounds the credits the key may spend a minute: they
	// refill continuously, a minute's worth at most, and a call whose worst
	// case is not there is refused with the tool error credit_rate_limited,
	// retry_after_secs being the time until it is. A call whose worst case
	// exceeds CreditsPerMinute can never fit, and is refused with
	// credit_budget_exceeded, which is not retried.
	CreditsPerMinute int64 `json:"credits_per_minute"`
	// WatchCap is the number of watches the key may keep (watch_limit).
	WatchCap int `json:"watch_cap"`
	// Suspended refuses every priced call with the tool error suspended.
	Suspended bool `json:"suspended"`
	// Admin allows the admin REST routes (POST /v1/admin/shards).
	Admin bool `json:"admin,omitempty"`
}

// Key is an API key and its plan.
type Key struct {
	Key string `json:"key"`
	Plan
}

// DemoKeys returns the keys the hosted server serves when no keys file is
// given. Every demo key allows 60 messages a minute.
//
//	demo-pro        pro: 100000 credits a month, does not stop there (overage), 600 credits a minute, 25 watches
//	demo-free       free: 1000 credits a month, stops there, 30 credits a minute, 3 watches
//	demo-suspended  pro plan, suspended: every priced call is refused with suspended
//	demo-admin      pro plan that may also use POST /v1/admin/shards
func DemoKeys() []Key {
	pro := Plan{Name: "pro", MonthlyCredits: 100000, MessagesPerMinute: 60, CreditsPerMinute: 600, WatchCap: 25}
	free := Plan{Name: "free", MonthlyCredits: 1000, StopsAtAllocation: true, MessagesPerMinute: 60, CreditsPerMinute: 30, WatchCap: 3}
	suspended := pro
	suspended.Suspended = true
	admin := pro
	admin.Admin = true
	return []Key{
		{Key: "demo-pro", Plan: pro},
		{Key: "demo-free", Plan: free},
		{Key: "demo-suspended", Plan: suspended},
		{Key: "demo-admin", Plan: admin},
	}
}

// ReadKeys reads a keys file: a JSON array of keys, each an object with
// "key" and the plan's fields, or an object {"keys": [...]}.
//
//	[{"key":"team-a","plan":"pro","monthly_credits":50000,"stops_at_allocation":false,
//	  "messages_per_minute":120,"credits_per_minute":600,"watch_cap":10,"suspended":false}]
func ReadKeys(r io.Reader) ([]Key, error) {
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("reading keys: %w", err)
	}
	var keys []Key
	if err := json.Unmarshal(data, &keys); err != nil {
		var wrapped struct {
			Keys []Key `json:"keys"`
		}
		if err2 := json.Unmarshal(data, &wrapped); err2 != nil {
			return nil, fmt.Errorf("reading keys: %w", err)
		}
		keys = wrapped.Keys
	}
	seen := map[string]bool{}
	for i, k := range keys {
		switch {
		case k.Key == "":
			return nil, fmt.Errorf("reading keys: key %d has no \"key\"", i)
		case seen[k.Key]:
			return nil, fmt.Errorf("reading keys: key %d repeats an earlier key", i)
		case k.MessagesPerMinute <= 0 || k.CreditsPerMinute <= 0 || k.MonthlyCredits < 0 || k.WatchCap < 0:
			return nil, fmt.Errorf("reading keys: key %d: messages_per_minute and credits_per_minute must be positive, monthly_credits and watch_cap not negative", i)
		}
		seen[k.Key] = true
	}
	if len(keys) == 0 {
		return nil, errors.New("reading keys: no keys")
	}
	return keys, nil
}
