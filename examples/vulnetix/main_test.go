package main

import (
	"strings"
	"testing"
)

func TestRunRefusesBadConfiguration(t *testing.T) {
	tests := []struct {
		name string
		args []string
		key  string
		want string
	}{
		{"unknown flag", []string{"-nope"}, "", "flag provided but not defined"},
		{"extra arguments", []string{"serve"}, "", "unexpected arguments"},
		{"MCP_AEAD_KEY not hex", []string{"-addr", "127.0.0.1:0"}, "zz-secret-zz", "MCP_AEAD_KEY is not hex"},
		{"MCP_AEAD_KEY too short", []string{"-addr", "127.0.0.1:0"}, "abcd", "MCP_AEAD_KEY is 2 bytes"},
		{"-redis not a Redis URL", []string{"-addr", "127.0.0.1:0", "-redis", "http://user:s3cret@127.0.0.1:6379/0"}, "", "-redis: redisstore: connect: scheme \"http\""},
		{"-redis without a port", []string{"-addr", "127.0.0.1:0", "-redis", "redis://127.0.0.1/0"}, "", "-redis: redisstore: connect: want host:port"},
		{"-redis where nothing listens", []string{"-addr", "127.0.0.1:0", "-redis", "redis://127.0.0.1:1/0"}, "", "-redis: redisstore: connect:"},
	}
	for _, tt := range tests {
		t.Setenv("MCP_AEAD_KEY", tt.key)
		t.Setenv("VULNETIX_API_URL", "http://127.0.0.1:1")
		err := run(tt.args)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error containing %q", tt.name, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: the error repeats the password: %v", tt.name, err)
		}
		if tt.key != "" && strings.Contains(err.Error(), tt.key) {
			t.Errorf("%s: the error repeats the key: %v", tt.name, err)
		}
	}
}
