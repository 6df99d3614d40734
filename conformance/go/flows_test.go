package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mantyx/wire-types/conformance/go/sse"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

type flowMessage struct {
	Method     string            `json:"method"`
	Path       string            `json:"path"`
	Status     int               `json:"status"`
	Headers    map[string]string `json:"headers"`
	Body       json.RawMessage   `json:"body"`
	BodySchema string            `json:"bodySchema"`
}

type flow struct {
	Description string `json:"description"`
	Tier        string `json:"tier"`
	Steps       []struct {
		Kind     string            `json:"kind"`
		Stream   string            `json:"stream"`
		RunID    string            `json:"runId"`
		Request  flowMessage       `json:"request"`
		Response flowMessage       `json:"response"`
		Events   []json.RawMessage `json:"events"`
		SSE      string            `json:"sse"`
		Reason   string            `json:"reason"`
	} `json:"steps"`
	Runs []struct {
		RunID  string            `json:"runId"`
		Events []json.RawMessage `json:"events"`
	} `json:"runs"`
}

// TestFlows checks that every flow is well formed: bodies valid against
// their bodySchema, SSE text decoding to the events, events valid, and each
// run's transcript what its streams delivered, keeping the sequence rules.
func TestFlows(t *testing.T) {
	v, err := NewValidators(dir)
	if err != nil {
		t.Fatal(err)
	}
	rules := loadRules(t)
	var counts tally
	for _, file := range manifest.FilesUnder("flows/") {
		var f flow
		if err := ReadJSON(dir, file, &f); err != nil {
			t.Fatal(err)
		}
		if !tiers.take(f.Tier, &counts) {
			continue
		}
		counts.run()
		expect(t, CaseID(file, f.Description), checkFlow(f, v, rules))
	}
	counts.report(t, "flows")
}

func instance(raw []byte) (any, error) { return jsonschema.UnmarshalJSON(bytes.NewReader(raw)) }

func validBody(v *Validators, m flowMessage) string {
	if len(m.Body) == 0 {
		return ""
	}
	if m.BodySchema == "" {
		return "a body without bodySchema"
	}
	inst, err := instance(m.Body)
	if err != nil {
		return err.Error()
	}
	if ok, err := v.Validate(m.BodySchema, inst); err != nil || !ok {
		return fmt.Sprintf("body is not a valid %s", m.BodySchema)
	}
	return ""
}

func checkFlow(f flow, v *Validators, rules *TranscriptRules) string {
	streams := map[string]string{}
	delivered := map[string][]json.RawMessage{}
	for i, s := range f.Steps {
		at := fmt.Sprintf("step %d (%s)", i, s.Kind)
		switch s.Kind {
		case "http", "open-stream":
			if m := s.Request.Method; (m != "GET" && m != "POST" && m != "DELETE") || !strings.HasPrefix(s.Request.Path, "/api/") {
				return at + ": a request is GET, POST or DELETE of an /api/ path"
			}
			if p := validBody(v, s.Request); p != "" {
				return at + " request: " + p
			}
			if p := validBody(v, s.Response); p != "" {
				return at + " response: " + p
			}
			if s.Kind == "open-stream" {
				if s.Response.Status != 200 || s.Request.Headers["accept"] != "text/event-stream" {
					return at + ": a stream opens with Accept: text/event-stream and answers 200"
				}
				streams[s.Stream] = s.RunID
			}
		case "receive":
			runID, ok := streams[s.Stream]
			if !ok {
				return at + ": stream " + s.Stream + " is not open"
			}
			msgs := sse.Decode([][]byte{[]byte(s.SSE)})
			if len(msgs) != len(s.Events) {
				return fmt.Sprintf("%s: the SSE text holds %d messages for %d events", at, len(msgs), len(s.Events))
			}
			for j, e := range s.Events {
				var data any
				if err := json.Unmarshal([]byte(msgs[j].Data), &data); err != nil {
					return fmt.Sprintf("%s: message %d is not JSON", at, j)
				}
				typed, _ := TypedEvent(data, msgs[j].Event)
				asJSON, _ := json.Marshal(typed)
				if !sameJSON(asJSON, e) {
					return fmt.Sprintf("%s: message %d decodes to %s, not %s", at, j, msgs[j].Data, e)
				}
				inst, _ := instance(e)
				if ok, err := v.Validate("#/components/schemas/AgentRunEvent", inst); err != nil || !ok {
					return fmt.Sprintf("%s: event %s is not an AgentRunEvent", at, e)
				}
				if !containsSeq(delivered[runID], e) {
					delivered[runID] = append(delivered[runID], e)
				}
			}
		case "stream-end":
			if _, ok := streams[s.Stream]; !ok {
				return at + ": stream " + s.Stream + " is not open"
			}
			delete(streams, s.Stream)
			if s.Reason != "closed-after-terminal" && s.Reason != "connection-dropped" {
				return at + ": unknown stream-end reason " + s.Reason
			}
		default:
			return at + ": unknown step kind"
		}
	}
	for _, r := range f.Runs {
		got := delivered[r.RunID]
		if len(got) != len(r.Events) {
			return "run " + r.RunID + ": transcript differs from what the streams delivered"
		}
		events := make([]any, 0, len(r.Events))
		for j, e := range r.Events {
			if !sameJSON(got[j], e) {
				return "run " + r.RunID + ": transcript differs from what the streams delivered"
			}
			x, _ := decodeGeneric(e)
			events = append(events, x)
		}
		if issues := rules.Check(map[string]any{"events": events}); len(issues) > 0 {
			return fmt.Sprintf("run %s: %v", r.RunID, issues)
		}
	}
	return ""
}

func sameJSON(a, b []byte) bool {
	x, err1 := decodeGeneric(a)
	y, err2 := decodeGeneric(b)
	if err1 != nil || err2 != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

func containsSeq(events []json.RawMessage, e json.RawMessage) bool {
	var s struct{ Seq json.Number }
	_ = json.Unmarshal(e, &s)
	for _, x := range events {
		var o struct{ Seq json.Number }
		_ = json.Unmarshal(x, &o)
		if o.Seq == s.Seq {
			return true
		}
	}
	return false
}
