package ratelimit

import (
	"crypto/sha256"
	"encoding/hex"
)

// MaxKeyLen is the longest key a Limiter, a Guard or a Budget passes to
// its store as it is; a longer one is replaced by its digest (ShortKey).
const MaxKeyLen = 64

// ShortKey returns key when it is at most MaxKeyLen bytes long, and
// otherwise "sha256:" followed by the hex SHA-256 digest of key: 71 bytes
// whatever key's length. A digest is longer than MaxKeyLen, so it is never
// the key of a short key too. Stores key their state on what ShortKey
// returns, so that keys an outsider controls (a header value, a token)
// cost the same memory at any length.
func ShortKey(key string) string {
	if len(key) <= MaxKeyLen {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	var b [len("sha256:") + 2*sha256.Size]byte
	n := copy(b[:], "sha256:")
	hex.Encode(b[n:], sum[:])
	return string(b[:])
}
