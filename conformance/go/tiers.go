package conformance

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Tiers of the suite: behaviour (what every SDK must do), receive (messages
// every SDK must accept or reject at the receive level, judged against
// schema.receive.json), strict (the strict level, schema.json).
var Tiers = []string{"behaviour", "receive", "strict"}

// SelectedTiers parses MANTYX_TIERS (comma-separated); all tiers when empty.
// An unknown name is an error, not a silently empty run.
func SelectedTiers(value string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, name := range strings.Split(value, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		known := false
		for _, t := range Tiers {
			known = known || t == name
		}
		if !known {
			return nil, fmt.Errorf("MANTYX_TIERS names %q; the tiers are %s", name, strings.Join(Tiers, ", "))
		}
		out[name] = true
	}
	if len(out) == 0 {
		for _, t := range Tiers {
			out[t] = true
		}
	}
	return out, nil
}

// SchemaDocument is the schema file a message case of tier is judged against.
func SchemaDocument(tier string) string {
	if tier == "receive" {
		return "schema.receive.json"
	}
	return "schema.json"
}

// tierTally counts the cases selected and left out per tier, over the whole run.
type tierTally struct {
	mu       sync.Mutex
	selected map[string]int
	left     map[string]int
}

var tiers = &tierTally{selected: map[string]int{}, left: map[string]int{}}

// take counts a case of tier and reports whether it is selected; a case left
// out is also counted as skipped in its area.
func (t *tierTally) take(tier string, area *tally) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if selectedTiers[tier] {
		t.selected[tier]++
		return true
	}
	t.left[tier]++
	area.skip("tier " + tier + " not selected")
	return false
}

func (t *tierTally) line() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	parts := make([]string, 0, len(Tiers))
	for _, name := range Tiers {
		part := fmt.Sprintf("%s %d", name, t.selected[name])
		if n := t.left[name]; n > 0 {
			part += fmt.Sprintf(" (not selected: %d)", n)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

var selectedTiers map[string]bool

func readSelectedTiers() error {
	var err error
	selectedTiers, err = SelectedTiers(os.Getenv("MANTYX_TIERS"))
	return err
}

// reportTiers logs the per-tier line; TestTierSummary, the last test of the
// package (go test runs files in name order, tests in source order), calls it.
func reportTiers(tb testing.TB) {
	names := make([]string, 0, len(selectedTiers))
	for n := range selectedTiers {
		names = append(names, n)
	}
	sort.Strings(names)
	tb.Logf("[fixtures] per tier (cases selected; MANTYX_TIERS=%s): %s", strings.Join(names, ","), tiers.line())
}
