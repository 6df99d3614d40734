// Package reference holds the project's own adapters for the conformance
// runner: the Go SSE decoder (../sse), the frame-shape rule (frames.go), and
// github.com/santhosh-tekuri/jsonschema/v6 with the suite's vendor keywords
// (vendor.go) and the transcript rules (transcript.go) as validator. They
// pass every case. An SDK replaces them with its own code, or starts from a
// copy.
package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mantyx/wire-types/conformance/go"
	"github.com/mantyx/wire-types/conformance/go/sse"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Adapters are the reference adapters for suite s (whose schema documents they judge by).
func Adapters(s *conformance.Suite) (conformance.Adapters, error) {
	validate, err := NewValidator(s)
	if err != nil {
		return conformance.Adapters{}, err
	}
	check, err := NewTranscriptChecker(s)
	if err != nil {
		return conformance.Adapters{}, err
	}
	return conformance.Adapters{DecodeSSE: DecodeSSE, DecodeEvent: DecodeEvent, Validate: validate, CheckTranscript: check}, nil
}

// NewTranscriptChecker interprets the x-transcript-rules of RunTranscript in the suite's schema.json (transcript.go).
func NewTranscriptChecker(s *conformance.Suite) (func(json.RawMessage) ([]string, error), error) {
	var doc map[string]any
	raw, err := s.ReadFile("schema.json")
	if err == nil {
		err = json.Unmarshal(raw, &doc)
	}
	if err != nil {
		return nil, fmt.Errorf("schema.json: %w", err)
	}
	rules, err := NewTranscriptRules(doc)
	if err != nil {
		return nil, err
	}
	return func(transcript json.RawMessage) ([]string, error) {
		var value any
		if err := json.Unmarshal(transcript, &value); err != nil {
			return nil, fmt.Errorf("transcript is not JSON: %w", err)
		}
		broken := []string{}
		for _, issue := range rules.Check(value) {
			broken = append(broken, issue.Rule)
		}
		return broken, nil
	}, nil
}

// DecodeSSE is the reference decoder (../sse) in the runner's message shape.
func DecodeSSE(chunks [][]byte) ([]conformance.Message, error) {
	decoded := sse.Decode(chunks)
	out := make([]conformance.Message, 0, len(decoded))
	for _, m := range decoded {
		msg := conformance.Message{Event: m.Event, Data: m.Data, ID: m.ID}
		if m.Retry != nil {
			r := int64(*m.Retry)
			msg.Retry = &r
		}
		out = append(out, msg)
	}
	return out, nil
}

// DecodeEvent reads one message's data by the frame-shape rule (frames.go).
func DecodeEvent(data json.RawMessage, eventLine string) (json.RawMessage, string, error) {
	var value any
	if err := json.Unmarshal(data, &value); err != nil {
		return nil, "", fmt.Errorf("data is not JSON: %w", err)
	}
	event, shape := TypedEvent(value, eventLine)
	out, err := json.Marshal(event)
	return out, shape, err
}

// NewValidator judges by the suite's schema.json (strict) and
// schema.receive.json (receive), with the vendor keywords except those in
// without (to measure an SDK that lacks some).
func NewValidator(s *conformance.Suite, without ...string) (func(conformance.Level, string, json.RawMessage) (conformance.Verdict, error), error) {
	disabled := map[string]bool{}
	for _, k := range without {
		disabled[k] = true
	}
	compilers := map[conformance.Level]*compiled{}
	for level, file := range map[conformance.Level]string{conformance.Strict: "schema.json", conformance.Receive: "schema.receive.json"} {
		c, err := compile(s, file, disabled)
		if err != nil {
			return nil, err
		}
		compilers[level] = c
	}
	return func(level conformance.Level, component string, instance json.RawMessage) (conformance.Verdict, error) {
		c := compilers[level]
		if c == nil {
			return conformance.Verdict{}, fmt.Errorf("unknown level %q", level)
		}
		sch, err := c.schema(component)
		if err != nil {
			return conformance.Verdict{}, err
		}
		value, err := jsonschema.UnmarshalJSON(bytes.NewReader(instance))
		if err != nil {
			return conformance.Verdict{}, fmt.Errorf("instance is not JSON: %w", err)
		}
		verdict := conformance.Verdict{Valid: sch.Validate(value) == nil}
		return verdict, nil
	}, nil
}

// compiled is one schema document's compiler, each component compiled once.
type compiled struct {
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	id       string
	cache    map[string]*jsonschema.Schema
}

func compile(s *conformance.Suite, file string, disabled map[string]bool) (*compiled, error) {
	raw, err := s.ReadFile(file)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	id, _ := doc.(map[string]any)["$id"].(string)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.RegisterVocabulary(vendorVocabulary(disabled))
	c.AssertVocabs()
	if err := c.AddResource(id, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &compiled{compiler: c, id: id, cache: map[string]*jsonschema.Schema{}}, nil
}

func (c *compiled) schema(component string) (*jsonschema.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sch, ok := c.cache[component]; ok {
		return sch, nil
	}
	sch, err := c.compiler.Compile(c.id + "#/components/schemas/" + component)
	if err != nil {
		return nil, fmt.Errorf("no schema for component %s: %w", component, err)
	}
	c.cache[component] = sch
	return sch, nil
}
