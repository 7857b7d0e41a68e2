package ratelimit

import (
	"crypto/sha256"
	"encoding/hex"
)

// maxKeyLen is the longest key ShortKey returns as it is.
const maxKeyLen = 64

// ShortKey returns key when it is at most 64 bytes long, and otherwise
// "sha256:" followed by the hex SHA-256 digest of key: 71 bytes whatever
// key's length. A digest is longer than 64 bytes, so it is never the key
// of a short key too. A Limiter keys its buckets on what ShortKey
// returns, and so should other callers of a Store, so that keys an
// outsider controls (a header value, a token) cost the same memory at any
// length.
func ShortKey(key string) string {
	if len(key) <= maxKeyLen {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	var b [len("sha256:") + 2*sha256.Size]byte
	n := copy(b[:], "sha256:")
	hex.Encode(b[n:], sum[:])
	return string(b[:])
}
