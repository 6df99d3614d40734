package conformance

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mantyx/wire-types/conformance/go/sse"
)

// TestSSE decodes every SSE case with ./sse, whole, in the case's chunks and
// one byte at a time; for MANTYX streams, each message's data read by the
// frame-shape rule (frames.go: nested or flattened, the type from the frame
// else from the event: line) is the typed event, in the shape the case
// records, and validates as an AgentRunEvent at the receive level.
func TestSSE(t *testing.T) {
	v, err := NewValidatorsOf(dir, SchemaDocument("receive"))
	if err != nil {
		t.Fatal(err)
	}
	var counts tally
	total := 0
	for _, file := range manifest.FilesUnder("sse/") {
		var cases []SSECase
		if err := ReadJSON(dir, file, &cases); err != nil {
			t.Fatal(err)
		}
		total += len(cases)
		for _, c := range cases {
			if !tiers.take(c.Tier, &counts) {
				continue
			}
			counts.run()
			expect(t, CaseID(file, c.Description), checkSSE(c, v))
		}
	}
	if total < 40 {
		t.Errorf("%d SSE cases, fewer than 40", total)
	}
	counts.report(t, "sse (conformance/go/sse)")
}

func checkSSE(c SSECase, v *Validators) string {
	ways, err := c.Chunkings()
	if err != nil {
		return err.Error()
	}
	want, _ := json.Marshal(c.Messages)
	for _, how := range []string{"whole", "given chunks", "one byte per chunk"} {
		chunks, ok := ways[how]
		if !ok {
			continue
		}
		got := sse.Decode(chunks)
		type msg struct {
			Event string `json:"event"`
			Data  string `json:"data"`
			ID    string `json:"id"`
			Retry *int   `json:"retry"`
		}
		out := make([]msg, 0, len(got))
		for _, m := range got {
			out = append(out, msg{m.Event, m.Data, m.ID, m.Retry})
		}
		gotJSON, _ := json.Marshal(out)
		if string(gotJSON) != string(want) {
			return fmt.Sprintf("%s: got %s, want %s", how, gotJSON, want)
		}
	}
	if c.Events != nil && len(c.Events) != len(c.Messages) {
		return fmt.Sprintf("%d typed events for %d messages", len(c.Events), len(c.Messages))
	}
	for i, raw := range c.Events {
		var fromData, expected any
		if err := json.Unmarshal([]byte(c.Messages[i].Data), &fromData); err != nil {
			return fmt.Sprintf("message %d: data is not JSON: %v", i, err)
		}
		typed, shape := TypedEvent(fromData, c.Messages[i].Event)
		wantShape := "envelope"
		if c.Shapes != nil {
			wantShape = c.Shapes[i]
		}
		if shape != wantShape {
			return fmt.Sprintf("message %d: a %s frame, the case says %s", i, shape, wantShape)
		}
		_ = json.Unmarshal(raw, &expected)
		a, _ := json.Marshal(typed)
		b, _ := json.Marshal(expected)
		if string(a) != string(b) {
			return fmt.Sprintf("message %d: typed event %s, want %s", i, a, b)
		}
		inst, err := instance(raw)
		if err != nil {
			return err.Error()
		}
		if ok, err := v.Validate("#/components/schemas/AgentRunEvent", inst); err != nil || !ok {
			return fmt.Sprintf("event %d is not an AgentRunEvent: %s", i, raw)
		}
	}
	return ""
}
