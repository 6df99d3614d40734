package conformance

import (
	"fmt"
	"testing"
)

// TestTranscripts checks every transcript case with the interpreter of the
// schema's x-transcript-rules (transcript.go).
func TestTranscripts(t *testing.T) {
	rules := loadRules(t)
	var groups []struct {
		Tests []struct {
			Description string `json:"description"`
			Tier        string `json:"tier"`
			Data        any    `json:"data"`
			Valid       bool   `json:"valid"`
			Rule        string `json:"rule"`
		} `json:"tests"`
	}
	if err := ReadJSON(dir, "transcripts.json", &groups); err != nil {
		t.Fatal(err)
	}
	var counts tally
	for _, g := range groups {
		for _, c := range g.Tests {
			if !tiers.take(c.Tier, &counts) {
				continue
			}
			counts.run()
			issues := rules.Check(c.Data)
			problem := ""
			if (len(issues) == 0) != c.Valid {
				problem = fmt.Sprintf("expected valid=%v, issues %v", c.Valid, issues)
			} else if c.Rule != "" && !hasRule(issues, c.Rule) {
				problem = fmt.Sprintf("expected rule %s among %v", c.Rule, issues)
			}
			expect(t, CaseID("transcripts.json", c.Description), problem)
		}
	}
	counts.report(t, "transcripts (transcript.go)")
}

func loadRules(t *testing.T) *TranscriptRules {
	t.Helper()
	var doc map[string]any
	if err := ReadJSON(dir, "schema.json", &doc); err != nil {
		t.Fatal(err)
	}
	rules, err := NewTranscriptRules(doc)
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

func hasRule(issues []Issue, rule string) bool {
	for _, i := range issues {
		if i.Rule == rule {
			return true
		}
	}
	return false
}

// TestTierSummary is the package's last test: it prints the per-tier counts of the run.
func TestTierSummary(t *testing.T) { reportTiers(t) }
