package mcpserver

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
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
