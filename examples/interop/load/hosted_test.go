package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSSEData checks that an answer on an SSE stream is read as the data of
// its last event, and a body with no data line as nothing.
func TestSSEData(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"one event", "event: message\ndata: {\"id\":1}\n\n", `{"id":1}`},
		{"CRLF and an id", "id: 7\r\nevent: message\r\ndata: {\"id\":2}\r\n\r\n", `{"id":2}`},
		{"the last event", "data: {\"a\":1}\n\ndata: {\"b\":2}\n\n", `{"b":2}`},
		{"no data", ": ping\n\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, string(sseData([]byte(tt.in)))); diff != "" {
				t.Errorf("sseData (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRedisCounters checks that INFO's text gives a round trip per script
// call (EVALSHA and EVAL), the commands the scripts ran among all the
// commands, and the CPU time of both kinds; and that the per-call figures
// leave out the INFO that read the first counters.
func TestRedisCounters(t *testing.T) {
	before := "# Stats\r\ntotal_commands_processed:10\r\n# CPU\r\nused_cpu_sys:1.5\r\nused_cpu_user:2.0\r\n" +
		"# Commandstats\r\ncmdstat_evalsha:calls=4,usec=200,usec_per_call=50.00,rejected_calls=0,failed_calls=1\r\ncmdstat_get:calls=4,usec=8\r\n"
	after := "# Stats\r\ntotal_commands_processed:51\r\n# CPU\r\nused_cpu_sys:1.6\r\nused_cpu_user:2.1\r\n" +
		"# Commandstats\r\ncmdstat_eval:calls=1,usec=230\r\ncmdstat_evalsha:calls=13,usec=600\r\ncmdstat_get:calls=14,usec=8\r\n"
	r0, err := parseRedisInfo(before)
	if err != nil {
		t.Fatal(err)
	}
	r1, err := parseRedisInfo(after)
	if err != nil {
		t.Fatal(err)
	}
	got := r1.perCall(r0, 10)
	got.cpu = got.cpu.Round(time.Microsecond) // 0.2 s of floats
	want := redisCounters{scripts: 1, commands: 4, cpu: 20 * time.Millisecond}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(redisCounters{})); diff != "" {
		t.Errorf("per call (-want +got):\n%s", diff)
	}
	if _, err := parseRedisInfo("# Stats\r\ntotal_commands_processed:10\r\n"); err == nil {
		t.Error("INFO without the CPU lines: want an error")
	}
}
