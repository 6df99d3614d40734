package reference

import (
	"strings"
	"testing"

	"github.com/mantyx/wire-types/conformance/go"
)

// TestSuite runs the whole suite through the reference adapters: every case
// of every tier passes (the known-failures list stays empty), so each tier's
// passed count is the manifest's. MANTYX_TIERS selects tiers,
// MANTYX_FIXTURES_DIR another copy of the suite.
func TestSuite(t *testing.T) {
	suite, err := conformance.LoadDefault()
	if err != nil {
		t.Fatal(err)
	}
	a, err := Adapters(suite)
	if err != nil {
		t.Fatal(err)
	}
	report := conformance.Run(t, a, conformance.Options{Suite: suite, KnownFailuresFile: "../known_failures.txt"})
	known, _ := conformance.ReadKnownFailures("../known_failures.txt")
	if len(known) != 0 {
		t.Errorf("the reference adapters' known_failures.txt must stay empty, has %d ids", len(known))
	}
	for _, tier := range report.Tiers {
		if tier.Selected && (tier.Passed != tier.Manifest || tier.KnownFailures != 0) {
			t.Errorf("tier %s: passed %d of the manifest's %d", tier.Tier, tier.Passed, tier.Manifest)
		}
	}
}

// TestVendorKeywordsBite: without one vendor keyword the reference validator
// fails exactly the strict cases tagged with it (an SDK lacking it lists them).
func TestVendorKeywordsBite(t *testing.T) {
	suite, err := conformance.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	check, err := NewTranscriptChecker(suite)
	if err != nil {
		t.Fatal(err)
	}
	for _, keyword := range VendorKeywords {
		validate, err := NewValidator(suite, keyword)
		if err != nil {
			t.Fatal(err)
		}
		report, err := conformance.Check(suite, conformance.Adapters{DecodeSSE: DecodeSSE, DecodeEvent: DecodeEvent, Validate: validate, CheckTranscript: check}, []string{"strict"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		tagged := taggedWith(t, suite, keyword)
		var failed []string
		for _, f := range report.Failures {
			failed = append(failed, f.ID)
		}
		if strings.Join(failed, "\n") != strings.Join(tagged, "\n") {
			t.Errorf("without %s: failed %v, the cases tagged with it are %v", keyword, failed, tagged)
		}
	}
}

func TestFrameShapes(t *testing.T) {
	envelope := `{"data":{"text":"Hi"},"seq":7,"type":"assistant_delta"}`
	for _, c := range []struct{ data, eventLine, want, shape string }{
		{envelope, "assistant_delta", envelope, "envelope"},
		{`{"seq":7,"type":"assistant_delta","text":"Hi"}`, "message", envelope, "flat"},
		{`{"seq":7,"text":"Hi"}`, "assistant_delta", envelope, "flat"},
		{`{"seq":7,"type":"assistant_delta","text":"Hi"}`, "update", envelope, "flat"},
		// The SSE default event type names no MANTYX type: the event stays untyped.
		{`{"seq":7,"text":"Hi"}`, "message", `{"data":{"text":"Hi"},"seq":7}`, "flat"},
	} {
		got, shape, err := DecodeEvent([]byte(c.data), c.eventLine)
		if err != nil || string(got) != c.want || shape != c.shape {
			t.Errorf("%s with event: %s -> %s (%s, %v), want %s (%s)", c.data, c.eventLine, got, shape, err, c.want, c.shape)
		}
	}
}

func TestJSNumber(t *testing.T) {
	for f, want := range map[float64]string{1: "1", -0.5: "-0.5", 1e21: "1e+21", 1e20: "100000000000000000000", 1.5e-7: "1.5e-7", 0.000001: "0.000001", 123.456: "123.456", 2e-300: "2e-300"} {
		if got := jsNumber(f); got != want {
			t.Errorf("jsNumber(%v) = %s, want %s", f, got, want)
		}
	}
}
