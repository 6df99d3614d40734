// Package conformance runs the MANTYX fixture suite (generated/fixtures) with
// Go tools: github.com/santhosh-tekuri/jsonschema/v6 for the message cases,
// the reference decoder in ./sse for the SSE cases, and an interpreter of the
// schema's x-transcript-rules for the transcripts. An SDK copies this
// package, points it at its vendored copy of the suite and swaps in its own
// decoder and validators (conformance/README.md).
package conformance

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FixturesDir is generated/fixtures by relative path from this folder, or
// $MANTYX_FIXTURES_DIR. `go test` runs in the package's folder, not where
// the command was typed, so a relative $MANTYX_FIXTURES_DIR is looked up
// from the package's folder and then from each folder above it (the module
// root, typically): `MANTYX_FIXTURES_DIR=testdata/mantyx-fixtures go test
// ./internal/conformance/` works from the repository root.
func FixturesDir() string {
	dir := os.Getenv("MANTYX_FIXTURES_DIR")
	if dir == "" {
		return filepath.Join("..", "..", "generated", "fixtures")
	}
	if filepath.IsAbs(dir) {
		return dir
	}
	if from, err := os.Getwd(); err == nil {
		for {
			if _, err := os.Stat(filepath.Join(from, dir, "manifest.json")); err == nil {
				return filepath.Join(from, dir)
			}
			parent := filepath.Dir(from)
			if parent == from {
				break
			}
			from = parent
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	return abs
}

// Manifest is fixtures/manifest.json (the fields the runner reads).
type Manifest struct {
	SuiteVersion    string         `json:"suiteVersion"`
	ProtocolVersion string         `json:"protocolVersion"`
	Counts          map[string]int `json:"-"`
	// Tiers is counts.tiers: cases per tier (behaviour, receive, strict).
	Tiers    map[string]int             `json:"-"`
	RawCount map[string]json.RawMessage `json:"counts"`
	Files    map[string]ManifestFile    `json:"files"`
	Coverage struct {
		WithoutValid   []string `json:"componentsWithoutValidCases"`
		WithoutInvalid []string `json:"componentsWithoutInvalidCases"`
	} `json:"coverage"`
}

// ManifestFile is one file's entry.
type ManifestFile struct {
	Cases  int    `json:"cases"`
	SHA256 string `json:"sha256"`
}

// ReadManifest reads the manifest of the suite in dir.
func ReadManifest(dir string) (*Manifest, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("no fixture suite at %s (run `npm run gen` in the repository, or set MANTYX_FIXTURES_DIR): %w", dir, err)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("manifest.json: %w", err)
	}
	// counts holds numbers, and the per-tier numbers under "tiers".
	m.Counts = map[string]int{}
	for k, v := range m.RawCount {
		if k == "tiers" {
			if err := json.Unmarshal(v, &m.Tiers); err != nil {
				return nil, fmt.Errorf("manifest.json counts.tiers: %w", err)
			}
			continue
		}
		var n int
		if err := json.Unmarshal(v, &n); err != nil {
			return nil, fmt.Errorf("manifest.json counts.%s: %w", k, err)
		}
		m.Counts[k] = n
	}
	return &m, nil
}

// VerifyManifest lists files whose sha256 differs from the manifest, missing
// files and files the manifest does not list; empty when the suite is intact.
func VerifyManifest(dir string, m *Manifest) []string {
	var problems []string
	for _, rel := range sortedKeys(m.Files) {
		raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			problems = append(problems, rel+": missing")
			continue
		}
		sum := sha256.Sum256(raw)
		if got := hex.EncodeToString(sum[:]); got != m.Files[rel].SHA256 {
			problems = append(problems, fmt.Sprintf("%s: sha256 %s, manifest says %s", rel, got, m.Files[rel].SHA256))
		}
	}
	_ = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if _, ok := m.Files[rel]; !ok && rel != "manifest.json" {
			problems = append(problems, rel+": not in the manifest")
		}
		return nil
	})
	return problems
}

// FilesUnder lists the manifest's files under prefix, sorted.
func (m *Manifest) FilesUnder(prefix string) []string {
	var out []string
	for _, p := range sortedKeys(m.Files) {
		if strings.HasPrefix(p, prefix) {
			out = append(out, p)
		}
	}
	return out
}

// KnownFailures reads known_failures.txt: one case id (<file>::<description>)
// per line, # comments.
func KnownFailures(path string) (map[string]bool, error) {
	out := map[string]bool{}
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			out[line] = true
		}
	}
	return out, sc.Err()
}

// CaseID is the id a known-failures list uses.
func CaseID(file, description string) string { return file + "::" + description }

// ReadJSON decodes a suite file with encoding/json (numbers as float64).
func ReadJSON(dir, rel string, v any) error {
	raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// ReadInstance decodes a suite file as jsonschema instances (numbers as json.Number).
func ReadInstance(dir, rel string) (any, error) {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return jsonschema.UnmarshalJSON(f)
}

// Validators compiles pointers into fixtures/schema.json, once each.
type Validators struct {
	compiler *jsonschema.Compiler
	id       string
	cache    map[string]*jsonschema.Schema
}

// NewValidators loads schema.json (the strict level). Unknown keywords
// (OpenAPI's discriminator, the x- vendor keywords) are ignored, as a plain
// JSON Schema validator does.
func NewValidators(dir string) (*Validators, error) {
	return NewValidatorsOf(dir, "schema.json")
}

// NewValidatorsOf loads one of the suite's schema documents: schema.json
// (strict) or schema.receive.json (receive level, SchemaDocument).
func NewValidatorsOf(dir, file string) (*Validators, error) {
	doc, err := ReadInstance(dir, file)
	if err != nil {
		return nil, err
	}
	id, _ := doc.(map[string]any)["$id"].(string)
	return NewValidatorsFor(id, doc), nil
}

// NewValidatorsFor compiles pointers into any JSON Schema document with the given $id.
func NewValidatorsFor(id string, doc any) *Validators {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(id, doc); err != nil {
		// AddResource fails only for a duplicate URL; this compiler has none.
		panic(err)
	}
	return &Validators{compiler: c, id: id, cache: map[string]*jsonschema.Schema{}}
}

// Validate reports whether instance is valid against the schema at pointer
// (e.g. "#/components/schemas/ToolRef").
func (v *Validators) Validate(pointer string, instance any) (bool, error) {
	sch, ok := v.cache[pointer]
	if !ok {
		var err error
		sch, err = v.compiler.Compile(v.id + pointer)
		if err != nil {
			return false, err
		}
		v.cache[pointer] = sch
	}
	return sch.Validate(instance) == nil, nil
}

// SSE case input.
type SSECase struct {
	Description string   `json:"description"`
	Tier        string   `json:"tier"`
	Shapes      []string `json:"shapes"`
	Rule        string   `json:"rule"`
	Input       SSEInput `json:"input"`
	Chunks      []string `json:"chunks"`
	Messages    []struct {
		Event string `json:"event"`
		Data  string `json:"data"`
		ID    string `json:"id"`
		Retry *int   `json:"retry"`
	} `json:"messages"`
	Events []json.RawMessage `json:"events"`
}

// SSEInput is the body as text (UTF-8) or base64.
type SSEInput struct {
	Text   *string `json:"text"`
	Base64 *string `json:"base64"`
}

// Bytes returns the body.
func (c *SSECase) Bytes() ([]byte, error) {
	if c.Input.Text != nil {
		return []byte(*c.Input.Text), nil
	}
	return base64.StdEncoding.DecodeString(*c.Input.Base64)
}

// Chunkings returns the ways to feed the body: whole, the case's chunks, one byte at a time.
func (c *SSECase) Chunkings() (map[string][][]byte, error) {
	body, err := c.Bytes()
	if err != nil {
		return nil, err
	}
	out := map[string][][]byte{"whole": {body}}
	if c.Chunks != nil {
		var chunks [][]byte
		for _, b := range c.Chunks {
			raw, err := base64.StdEncoding.DecodeString(b)
			if err != nil {
				return nil, err
			}
			chunks = append(chunks, raw)
		}
		out["given chunks"] = chunks
	}
	var bytewise [][]byte
	for i := range body {
		bytewise = append(bytewise, body[i:i+1])
	}
	out["one byte per chunk"] = bytewise
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
