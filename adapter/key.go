package adapter

import (
	"net"
	"net/http"
	"net/netip"
)

// SourceKey returns the key of r's client when the server trusts nothing
// but the connection: the address r came from (the host of r.RemoteAddr; no
// forwarding header is read), as AddrKey gives it. It is the default Key of
// HTTP and Limit.
func SourceKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return AddrKey(host)
}

// AddrKey returns the key of the client at address addr: an IPv4 address
// as it is ("192.0.2.7"), an IPv6 address by its /64 prefix
// ("2001:db8:1:2::/64"), since a network routinely gives each subscriber a
// whole /64 and a client can send from any of its 2^64 addresses; an
// IPv4-mapped IPv6 address ("::ffff:192.0.2.7") is its IPv4 address, and a
// zone is dropped. A string that is not an IP address is returned as it is,
// so "" stays "" (a key that is neither limited nor bounded).
//
// A server behind a proxy it trusts keys on the address the proxy reports,
// with the same rule:
//
//	Key: func(r *http.Request) string {
//		if ip := r.Header.Get("X-Real-IP"); ip != "" { // set by the proxy, never by a client
//			return adapter.AddrKey(ip)
//		}
//		return adapter.SourceKey(r)
//	}
func AddrKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64) // an IPv6 address has a /64
	return p.String()
}
