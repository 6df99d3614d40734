package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Shared state: the suite is verified against its manifest before any test runs.
var (
	dir      = FixturesDir()
	manifest *Manifest
	known    map[string]bool
)

func TestMain(m *testing.M) {
	var err error
	manifest, err = ReadManifest(dir)
	if err == nil {
		if problems := VerifyManifest(dir, manifest); len(problems) > 0 {
			err = fmt.Errorf("the fixture suite does not match its manifest.json:\n  %s", strings.Join(problems, "\n  "))
		}
	}
	if err == nil {
		known, err = KnownFailures("known_failures.txt")
	}
	if err == nil {
		err = readSelectedTiers()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// tally counts what ran and what was skipped per area, for the closing lines.
type tally struct {
	mu      sync.Mutex
	ran     int
	skipped map[string]int
}

func (t *tally) run() { t.mu.Lock(); t.ran++; t.mu.Unlock() }
func (t *tally) skip(reason string) {
	t.mu.Lock()
	if t.skipped == nil {
		t.skipped = map[string]int{}
	}
	t.skipped[reason]++
	t.mu.Unlock()
}

func (t *tally) report(tb testing.TB, area string) {
	total := 0
	var reasons []string
	for r, n := range t.skipped {
		total += n
		reasons = append(reasons, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(reasons)
	line := fmt.Sprintf("[fixtures] %s: ran %d, skipped %d", area, t.ran, total)
	if total > 0 {
		line += " (" + strings.Join(reasons, ", ") + ")"
	}
	tb.Log(line)
}

// expect records a case's outcome against the known-failures list: a
// failure not listed, or a listed case that passes, is an error naming the case.
func expect(t *testing.T, id string, problem string) {
	t.Helper()
	switch {
	case problem != "" && !known[id]:
		t.Errorf("%s: %s", id, problem)
	case problem == "" && known[id]:
		t.Errorf("%s: listed in known_failures.txt, yet passes; remove it", id)
	}
}

func TestSuiteBars(t *testing.T) {
	if manifest.Counts["messages"] < 400 || manifest.Counts["sse"] < 40 {
		t.Errorf("counts below the bars: %v", manifest.Counts)
	}
	if len(manifest.Coverage.WithoutValid)+len(manifest.Coverage.WithoutInvalid) > 0 {
		t.Errorf("components without valid or invalid cases: %v %v", manifest.Coverage.WithoutValid, manifest.Coverage.WithoutInvalid)
	}
	if len(known) != 0 {
		t.Errorf("known_failures.txt must be empty for this runner, has %d ids", len(known))
	}
	total := 0
	for _, tier := range Tiers {
		total += manifest.Tiers[tier]
	}
	if want := manifest.Counts["messages"] + manifest.Counts["sse"] + manifest.Counts["flows"] + manifest.Counts["transcripts"]; total != want || len(manifest.Tiers) != len(Tiers) {
		t.Errorf("the manifest's per-tier counts %v do not add up to the %d cases", manifest.Tiers, want)
	}
}

func TestTierSelection(t *testing.T) {
	all, err := SelectedTiers("")
	if err != nil || len(all) != 3 {
		t.Errorf("no MANTYX_TIERS selects all three tiers: %v %v", all, err)
	}
	two, err := SelectedTiers(" receive, strict ")
	if err != nil || !two["receive"] || !two["strict"] || two["behaviour"] {
		t.Errorf("MANTYX_TIERS=receive,strict: %v %v", two, err)
	}
	if _, err := SelectedTiers("recieve"); err == nil || !strings.Contains(err.Error(), `"recieve"`) {
		t.Errorf("an unknown tier name is an error naming it: %v", err)
	}
}

func TestFrameShapes(t *testing.T) {
	envelope := `{"data":{"text":"Hi"},"seq":7,"type":"assistant_delta"}`
	cases := []struct {
		data, eventLine, want, shape string
	}{
		{envelope, "assistant_delta", envelope, "envelope"},
		{`{"seq":7,"type":"assistant_delta","text":"Hi"}`, "message", envelope, "flat"},
		{`{"seq":7,"text":"Hi"}`, "assistant_delta", envelope, "flat"},
		{`{"seq":7,"type":"assistant_delta","text":"Hi"}`, "update", envelope, "flat"},
		// The SSE default event type names no MANTYX type: the event stays untyped.
		{`{"seq":7,"text":"Hi"}`, "message", `{"data":{"text":"Hi"},"seq":7}`, "flat"},
	}
	for _, c := range cases {
		var value any
		_ = json.Unmarshal([]byte(c.data), &value)
		event, shape := TypedEvent(value, c.eventLine)
		got, _ := json.Marshal(event)
		if string(got) != c.want || shape != c.shape {
			t.Errorf("%s with event: %s -> %s (%s), want %s (%s)", c.data, c.eventLine, got, shape, c.want, c.shape)
		}
	}
}

// TestCaseFormat checks each case file against case-format.json, the suite's own format schema.
func TestCaseFormat(t *testing.T) {
	doc, err := ReadInstance(dir, "case-format.json")
	if err != nil {
		t.Fatal(err)
	}
	id := doc.(map[string]any)["$id"].(string)
	c := NewValidatorsFor(id, doc)
	defs := map[string]string{"messages/": "messageFile", "sse/": "sseFile", "flows/": "flow", "transcripts.json": "transcriptFile"}
	for _, rel := range manifest.FilesUnder("") {
		for prefix, def := range defs {
			if !strings.HasPrefix(rel, prefix) {
				continue
			}
			inst, err := ReadInstance(dir, rel)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := c.Validate("#/$defs/"+def, inst); err != nil || !ok {
				t.Errorf("%s does not follow case-format.json (%v)", rel, err)
			}
		}
	}
}
