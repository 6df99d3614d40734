package conformance_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mantyx/wire-types/conformance/go"
	"github.com/mantyx/wire-types/conformance/go/reference"
)

// copyEmbedded writes the embedded suite into a temporary folder.
func copyEmbedded(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := fs.WalkDir(conformance.Embedded(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(conformance.Embedded(), p)
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, raw, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestEmbeddedSuiteMeetsTheBars(t *testing.T) {
	s, err := conformance.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	c := s.Manifest.Counts
	if c.Messages < 400 || c.SSE < 40 {
		t.Errorf("counts below the bars: %+v", c)
	}
	if total := c.Tiers["behaviour"] + c.Tiers["receive"] + c.Tiers["strict"]; total != c.Messages+c.SSE+c.Flows+c.Transcripts || len(c.Tiers) != 3 {
		t.Errorf("the per-tier counts %v do not add up to the cases", c.Tiers)
	}
}

// A changed, a missing and an unlisted file each stop the load, named.
func TestTamperedSuiteIsRefused(t *testing.T) {
	dir := copyEmbedded(t)
	if err := os.WriteFile(filepath.Join(dir, "sse", "framing.json"), []byte("[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "transcripts.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "messages", "Extra.json"), []byte("[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := conformance.LoadDir(dir)
	var integrity *conformance.IntegrityError
	if !errors.As(err, &integrity) {
		t.Fatalf("want an IntegrityError, got %v", err)
	}
	for _, want := range []string{"sse/framing.json: sha256 ", "transcripts.json: missing", "messages/Extra.json: not in the manifest", "does not match its manifest.json"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	if _, err := conformance.LoadDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no manifest.json") {
		t.Errorf("an empty folder: %v", err)
	}
}

// Known failures: a listed case that fails counts as known, a listed case
// that passes and an id that is no case are errors; unselected tiers count nothing.
func TestKnownFailures(t *testing.T) {
	s, err := conformance.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	a, err := reference.Adapters(s)
	if err != nil {
		t.Fatal(err)
	}
	const broken = "sse/"
	decode := a.DecodeSSE
	var first string
	// An SDK whose decoder ignores the retry field.
	a.DecodeSSE = func(chunks [][]byte) ([]conformance.Message, error) {
		got, err := decode(chunks)
		for i := range got {
			got[i].Retry = nil
		}
		return got, err
	}
	report, err := conformance.Check(s, a, []string{"behaviour"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Failures) == 0 {
		t.Fatal("the decoder without retry fails no case")
	}
	for _, f := range report.Failures {
		if !strings.HasPrefix(f.ID, broken) {
			t.Fatalf("the decoder without retry fails %s", f.ID)
		}
	}
	first = report.Failures[0].ID
	failing := len(report.Failures)
	var ids []string
	for _, f := range report.Failures {
		ids = append(ids, f.ID)
	}
	passing := "flows/" // any flow passes with this decoder
	for _, f := range s.FilesUnder("flows/") {
		var flow struct{ Description string }
		raw, _ := s.ReadFile(f)
		_ = json.Unmarshal(raw, &flow)
		passing = f + "::" + flow.Description
		break
	}
	report, err = conformance.Check(s, a, []string{"behaviour"}, append(ids, passing, "messages/Nope.json::nothing", "messages/ToolRef.json::example 0"))
	if err != nil {
		t.Fatal(err)
	}
	tier := report.Tiers[0]
	if tier.KnownFailures != failing || tier.Failed != 1 || tier.Passed != tier.Manifest-failing-1 {
		t.Errorf("behaviour: %+v (failing %d, first %s)", tier, failing, first)
	}
	if len(report.Failures) != 1 || report.Failures[0].ID != passing || !strings.Contains(report.Failures[0].Problem, "yet passes") {
		t.Errorf("the listed case that passes: %+v", report.Failures)
	}
	if len(report.Problems) != 1 || !strings.Contains(report.Problems[0], `"messages/Nope.json::nothing" is no case`) {
		t.Errorf("the stale id (the receive case of an unselected tier is not stale): %v", report.Problems)
	}
	if report.Tiers[1].Selected || report.Tiers[1].Passed != 0 || !strings.Contains(report.Lines()[1], "tier receive: not selected (manifest ") {
		t.Errorf("receive was not selected: %+v %v", report.Tiers[1], report.Lines())
	}
}

func TestParseTiersAndKnownFailures(t *testing.T) {
	if all, err := conformance.ParseTiers(""); err != nil || len(all) != 3 {
		t.Errorf("no MANTYX_TIERS selects all three tiers: %v %v", all, err)
	}
	if two, err := conformance.ParseTiers(" receive, strict "); err != nil || strings.Join(two, ",") != "receive,strict" {
		t.Errorf("receive,strict: %v %v", two, err)
	}
	if _, err := conformance.ParseTiers("recieve"); err == nil || !strings.Contains(err.Error(), `"recieve"`) {
		t.Errorf("an unknown tier name is an error naming it: %v", err)
	}
	ids := conformance.ParseKnownFailures("# our decoder keeps the BOM\nsse/framing.json::a BOM\n\n  messages/ToolRef.json::example 0  \n")
	if strings.Join(ids, "|") != "sse/framing.json::a BOM|messages/ToolRef.json::example 0" {
		t.Errorf("parsed %q", ids)
	}
	if _, err := conformance.ReadKnownFailures(filepath.Join(t.TempDir(), "none.txt")); err == nil {
		t.Error("a named known-failures file that does not exist is an error")
	}
}
