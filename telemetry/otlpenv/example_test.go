package otlpenv_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/mcperr/mcperr/telemetry/otlpenv"
)

// A program starts the SDK first thing, and stops it on the way out so that
// what is buffered is sent. With no OTLP endpoint in its environment it
// exports nothing, and the instrumentation records through OpenTelemetry's
// no-op providers.
func ExampleStart() {
	os.Unsetenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	stop, ok, err := otlpenv.Start(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	defer stop(context.Background())
	fmt.Println("exporting:", ok)
	// Output: exporting: false
}
