package mcpserver

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// HandleTTL is how long a login handle stays valid.
const HandleTTL = 5 * time.Minute

// handleAD binds sealed handles to their purpose, so no other ciphertext
// under the same key opens as a handle.
var handleAD = []byte("vulnetix-mcp login handle v1")

// ParseAEADKey decodes MCP_AEAD_KEY: 32 bytes written as 64 hex digits. The
// error never repeats the value.
func ParseAEADKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	k, err := hex.DecodeString(s)
	if err != nil {
		return nil, errors.New("MCP_AEAD_KEY is not hex")
	}
	if len(k) != 32 {
		return nil, fmt.Errorf("MCP_AEAD_KEY is %d bytes; it must be 32 (64 hex digits)", len(k))
	}
	return k, nil
}

// sealer seals and opens login handles with AES-256-GCM.
type sealer struct{ aead cipher.AEAD }

func newSealer(key []byte) (*sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("AEAD key is %d bytes; it must be 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &sealer{aead}, nil
}

// seal returns a handle for a device code issued at t: base64url of
// nonce || AES-GCM(issued unix seconds (8 bytes) || device code).
func (s *sealer) seal(deviceCode string, t time.Time) string {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+8+len(deviceCode)+s.aead.Overhead())
	rand.Read(nonce)
	plain := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(deviceCode)), uint64(t.Unix()))
	plain = append(plain, deviceCode...)
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, handleAD))
}

var errBadHandle = errors.New("login handle does not open")

// open returns the device code and issue time sealed in handle, or
// errBadHandle for anything this server did not seal or that was altered.
func (s *sealer) open(handle string) (string, time.Time, error) {
	if len(handle) > 1024 {
		return "", time.Time{}, errBadHandle
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimSpace(handle))
	n := s.aead.NonceSize()
	if err != nil || len(b) < n+8+s.aead.Overhead() {
		return "", time.Time{}, errBadHandle
	}
	plain, err := s.aead.Open(nil, b[:n], b[n:], handleAD)
	if err != nil || len(plain) < 8 {
		return "", time.Time{}, errBadHandle
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(plain[:8])), 0).UTC()
	return string(plain[8:]), issued, nil
}

// maxSpent bounds the approved logins remembered at once. An entry needs a
// person to approve a login upstream, and lives five minutes at most.
const maxSpent = 1 << 16

// spentLogins remembers the device logins whose approval was handed over,
// until their handles expire, so that a login handle is single use once
// approved. It holds a digest of each device code, so an entry costs the
// same whatever the code's length. The zero value is ready to use. It is
// process memory: replicas behind a load balancer each keep their own.
type spentLogins struct {
	mu    sync.Mutex
	until map[[sha256.Size]byte]time.Time
}

// used reports whether the approval of code was already handed over.
func (s *spentLogins) used(code string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.until[sha256.Sum256([]byte(code))]
	return ok
}

// spend records that the approval of code is handed over, to be forgotten
// at expires. It reports false when it already was (another poll got it
// first), or when the record is full: then nobody gets it, rather than
// anybody twice.
func (s *spentLogins) spend(code string, expires, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := sha256.Sum256([]byte(code))
	if _, ok := s.until[k]; ok {
		return false
	}
	if s.until == nil {
		s.until = make(map[[sha256.Size]byte]time.Time)
	}
	if len(s.until) >= maxSpent {
		for k, t := range s.until {
			if !t.After(now) {
				delete(s.until, k)
			}
		}
		if len(s.until) >= maxSpent {
			return false
		}
	}
	s.until[k] = expires
	return true
}
