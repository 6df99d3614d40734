package conformance

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

// Options select what Run runs.
type Options struct {
	// Tiers to run; nil: $MANTYX_TIERS (comma-separated), else all three.
	Tiers []string
	// KnownFailuresFile lists cases the SDK is known to fail (one id per
	// line, # comments for the reasons); "" for none. Each listed case must
	// fail: one that passes is an error, so the list only shrinks.
	KnownFailuresFile string
	// Suite to run; nil: the folder $MANTYX_FIXTURES_DIR, else the embedded suite.
	Suite *Suite
}

// TierResult counts one tier's cases.
type TierResult struct {
	Tier     string
	Selected bool
	// Manifest is the manifest's count for the tier (counts.tiers).
	Manifest int
	// Passed: cases with the expected result, not listed as known failures.
	Passed int
	// KnownFailures: listed cases that failed, as expected.
	KnownFailures int
	// Failed: unlisted cases that failed, plus listed cases that passed.
	Failed int
}

// Failure is one case that did not go as expected.
type Failure struct {
	ID, Tier, Problem string
}

// Report is the outcome of a run.
type Report struct {
	Tiers    []TierResult
	Failures []Failure
	// Problems with the run itself: stale known-failure ids, counts that disagree with the manifest.
	Problems []string
}

// OK is true when every selected case went as expected.
func (r *Report) OK() bool { return len(r.Failures) == 0 && len(r.Problems) == 0 }

// Lines are the per-tier summary, one line a tier, the same in every language's runner.
func (r *Report) Lines() []string {
	var out []string
	for _, t := range r.Tiers {
		if !t.Selected {
			out = append(out, fmt.Sprintf("[mantyx-conformance] tier %s: not selected (manifest %d)", t.Tier, t.Manifest))
			continue
		}
		out = append(out, fmt.Sprintf("[mantyx-conformance] tier %s: passed %d, known failures %d, failed %d (manifest %d)", t.Tier, t.Passed, t.KnownFailures, t.Failed, t.Manifest))
	}
	return out
}

// Check runs the suite's cases of the given tiers through the adapters.
func Check(s *Suite, a Adapters, tiers []string, knownFailures []string) (*Report, error) {
	if a.DecodeSSE == nil || a.DecodeEvent == nil || a.Validate == nil {
		return nil, fmt.Errorf("conformance: Adapters needs DecodeSSE, DecodeEvent and Validate")
	}
	tiers, err := checkTiers(tiers)
	if err != nil {
		return nil, err
	}
	cases, err := s.cases()
	if err != nil {
		return nil, fmt.Errorf("reading the fixture suite at %s: %w", s.Origin, err)
	}
	selected := map[string]bool{}
	for _, t := range tiers {
		selected[t] = true
	}
	known := map[string]bool{}
	for _, id := range knownFailures {
		known[id] = true
	}
	results := map[string]*TierResult{}
	report := &Report{}
	for _, name := range Tiers {
		results[name] = &TierResult{Tier: name, Selected: selected[name], Manifest: s.Manifest.Counts.Tiers[name]}
	}
	seen := map[string]int{}
	for _, c := range cases {
		res := results[c.tier]
		if res == nil {
			report.Problems = append(report.Problems, fmt.Sprintf("%s: unknown tier %q", c.id, c.tier))
			continue
		}
		seen[c.tier]++
		if !res.Selected {
			delete(known, c.id)
			continue
		}
		problem := safely(c.check, a)
		switch {
		case problem != "" && known[c.id]:
			res.KnownFailures++
		case problem != "":
			res.Failed++
			report.Failures = append(report.Failures, Failure{c.id, c.tier, problem})
		case known[c.id]:
			res.Failed++
			report.Failures = append(report.Failures, Failure{c.id, c.tier, "listed as a known failure, yet passes: remove it from the list"})
		default:
			res.Passed++
		}
		delete(known, c.id)
	}
	for _, name := range Tiers {
		report.Tiers = append(report.Tiers, *results[name])
		if seen[name] != results[name].Manifest {
			report.Problems = append(report.Problems, fmt.Sprintf("tier %s: the suite holds %d cases, its manifest counts %d", name, seen[name], results[name].Manifest))
		}
	}
	stale := make([]string, 0, len(known))
	for id := range known {
		stale = append(stale, id)
	}
	sort.Strings(stale)
	for _, id := range stale {
		report.Problems = append(report.Problems, fmt.Sprintf("known failure %q is no case of the suite (a typo, or a case the suite no longer has): remove it", id))
	}
	return report, nil
}

// safely runs a check; an adapter that panics fails its case instead of the run.
func safely(check func(Adapters) string, a Adapters) (problem string) {
	defer func() {
		if r := recover(); r != nil {
			problem = fmt.Sprintf("an adapter panicked: %v", r)
		}
	}()
	return check(a)
}

// Run loads the suite (verifying its manifest), runs it through the
// adapters, logs the per-tier lines, and fails t for every case that did not
// go as expected, named <file>::<description>.
func Run(t testing.TB, a Adapters, o Options) *Report {
	t.Helper()
	suite := o.Suite
	var err error
	if suite == nil {
		if suite, err = LoadDefault(); err != nil {
			t.Fatal(err)
		}
	}
	tiers := o.Tiers
	if tiers == nil {
		if tiers, err = ParseTiers(os.Getenv("MANTYX_TIERS")); err != nil {
			t.Fatalf("MANTYX_TIERS: %v", err)
		}
	}
	var known []string
	if o.KnownFailuresFile != "" {
		if known, err = ReadKnownFailures(o.KnownFailuresFile); err != nil {
			t.Fatal(err)
		}
	}
	report, err := Check(suite, a, tiers, known)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("[mantyx-conformance] suite %s (protocol %s) from %s", suite.Manifest.SuiteVersion, suite.Manifest.ProtocolVersion, suite.Origin)
	for _, line := range report.Lines() {
		t.Log(line)
	}
	for _, f := range report.Failures {
		t.Errorf("%s (%s): %s", f.ID, f.Tier, f.Problem)
	}
	for _, p := range report.Problems {
		t.Error(p)
	}
	return report
}
