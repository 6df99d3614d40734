// Package conformance runs the MANTYX fixture suite (the fixtures/ folder this
// module embeds) against an SDK's own code. The SDK passes its SSE decoder,
// its event decoding and its validators as Adapters; Run checks every case of
// the selected tiers, expects the cases of a known-failures file to fail, and
// reports per tier how many passed:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, myAdapters, conformance.Options{KnownFailuresFile: "known_failures.txt"})
//	}
//
// The reference adapters (the project's own Go decoder and a JSON Schema
// validator with the suite's vendor keywords) are in package reference.
package conformance

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

// Manifest is manifest.json: versions, counts, and every other file's sha256.
type Manifest struct {
	SuiteVersion    string `json:"suiteVersion"`
	ProtocolVersion string `json:"protocolVersion"`
	Counts          struct {
		Messages    int            `json:"messages"`
		SSE         int            `json:"sse"`
		Flows       int            `json:"flows"`
		Transcripts int            `json:"transcripts"`
		Tiers       map[string]int `json:"tiers"`
	} `json:"counts"`
	Files map[string]struct {
		Cases  int    `json:"cases"`
		SHA256 string `json:"sha256"`
	} `json:"files"`
}

// Suite is a fixture suite whose files matched its manifest when it was loaded.
type Suite struct {
	// Where it came from, for messages ("embedded" or a folder).
	Origin   string
	Manifest Manifest
	files    fs.FS
}

// IntegrityError is a suite whose files do not match manifest.json: a file
// changed, missing, or not listed. Nothing of such a suite is run.
type IntegrityError struct {
	Origin   string
	Problems []string
}

func (e *IntegrityError) Error() string {
	return fmt.Sprintf("the fixture suite at %s does not match its manifest.json (copy the suite again, unedited):\n  %s", e.Origin, strings.Join(e.Problems, "\n  "))
}

// Load reads and verifies the suite in fsys (its root holds manifest.json).
func Load(fsys fs.FS, origin string) (*Suite, error) {
	raw, err := fs.ReadFile(fsys, "manifest.json")
	if err != nil {
		return nil, fmt.Errorf("no fixture suite at %s (no manifest.json): %w", origin, err)
	}
	s := &Suite{Origin: origin, files: fsys}
	if err := json.Unmarshal(raw, &s.Manifest); err != nil {
		return nil, fmt.Errorf("%s/manifest.json: %w", origin, err)
	}
	var problems []string
	for _, rel := range sortedKeys(s.Manifest.Files) {
		content, err := fs.ReadFile(fsys, rel)
		if err != nil {
			problems = append(problems, rel+": missing")
			continue
		}
		sum := sha256.Sum256(content)
		if got, want := hex.EncodeToString(sum[:]), s.Manifest.Files[rel].SHA256; got != want {
			problems = append(problems, fmt.Sprintf("%s: sha256 %s, manifest says %s", rel, got, want))
		}
	}
	err = fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if _, listed := s.Manifest.Files[p]; !listed && p != "manifest.json" {
			problems = append(problems, p+": not in the manifest")
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot list the fixture suite at %s: %w", origin, err)
	}
	if len(problems) > 0 {
		return nil, &IntegrityError{Origin: origin, Problems: problems}
	}
	return s, nil
}

// LoadDir reads and verifies the suite in a folder.
func LoadDir(dir string) (*Suite, error) { return Load(os.DirFS(dir), dir) }

// LoadEmbedded reads and verifies the suite this module embeds.
func LoadEmbedded() (*Suite, error) {
	return Load(Embedded(), "embedded fixtures of github.com/mantyx/wire-types/conformance/go")
}

// LoadDefault is the suite of the folder $MANTYX_FIXTURES_DIR when set, else the embedded suite.
func LoadDefault() (*Suite, error) {
	if dir := os.Getenv("MANTYX_FIXTURES_DIR"); dir != "" {
		return LoadDir(dir)
	}
	return LoadEmbedded()
}

// ReadFile returns one of the suite's files (a path from the manifest).
func (s *Suite) ReadFile(rel string) ([]byte, error) { return fs.ReadFile(s.files, rel) }

// FilesUnder lists the manifest's files under prefix, sorted.
func (s *Suite) FilesUnder(prefix string) []string {
	var out []string
	for _, p := range sortedKeys(s.Manifest.Files) {
		if strings.HasPrefix(p, prefix) && path.Ext(p) == ".json" {
			out = append(out, p)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
