package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// A case of the suite: its id (<file>::<description>), tier, and its check,
// which returns what is wrong ("" when the adapters give the expected result).
type suiteCase struct {
	id    string
	tier  string
	check func(a Adapters) string
}

const componentPrefix = "#/components/schemas/"

func (s *Suite) cases() ([]suiteCase, error) {
	var out []suiteCase
	read := func(rel string, v any) error {
		raw, err := s.ReadFile(rel)
		if err == nil {
			err = json.Unmarshal(raw, v)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	}
	for _, file := range s.FilesUnder("messages/") {
		var groups []messageGroup
		if err := read(file, &groups); err != nil {
			return nil, err
		}
		for _, g := range groups {
			for _, t := range g.Tests {
				g, t := g, t
				out = append(out, suiteCase{file + "::" + t.Description, t.Tier, func(a Adapters) string { return checkMessage(a, g.Schema, t) }})
			}
		}
	}
	for _, file := range s.FilesUnder("sse/") {
		var cases []sseCase
		if err := read(file, &cases); err != nil {
			return nil, err
		}
		for _, c := range cases {
			c := c
			out = append(out, suiteCase{file + "::" + c.Description, c.Tier, func(a Adapters) string { return checkSSE(a, c) }})
		}
	}
	for _, file := range s.FilesUnder("flows/") {
		var f flow
		if err := read(file, &f); err != nil {
			return nil, err
		}
		out = append(out, suiteCase{file + "::" + f.Description, f.Tier, func(a Adapters) string { return checkFlow(a, f) }})
	}
	var groups []messageGroup
	if err := read("transcripts.json", &groups); err != nil {
		return nil, err
	}
	for _, g := range groups {
		for _, t := range g.Tests {
			t := t
			out = append(out, suiteCase{"transcripts.json::" + t.Description, t.Tier, func(a Adapters) string { return checkTranscript(a, t) }})
		}
	}
	return out, nil
}

// messageGroup is a group of message (or transcript) cases, JSON-Schema-Test-Suite shape.
type messageGroup struct {
	Schema string        `json:"schema"`
	Tests  []messageTest `json:"tests"`
}

type messageTest struct {
	Description string          `json:"description"`
	Tier        string          `json:"tier"`
	Data        json.RawMessage `json:"data"`
	Valid       bool            `json:"valid"`
	Rule        string          `json:"rule"`
}

// judge asks the validator and compares its verdict (and, when both name one, the rule).
func judge(a Adapters, level Level, pointer string, data json.RawMessage, valid bool, rule string) string {
	if !strings.HasPrefix(pointer, componentPrefix) {
		return fmt.Sprintf("schema %q is not a component pointer", pointer)
	}
	component := strings.TrimPrefix(pointer, componentPrefix)
	verdict, err := a.Validate(level, component, data)
	switch {
	case err != nil:
		return fmt.Sprintf("the validator of %s (%s) failed: %v", component, level, err)
	case verdict.Valid != valid && valid:
		return fmt.Sprintf("expected valid (%s, %s), the validator rejects it (%v)", component, level, verdict.Rules)
	case verdict.Valid != valid:
		return fmt.Sprintf("expected invalid (%s, %s: rule %s), the validator accepts it", component, level, rule)
	case !valid && rule != "" && verdict.Rules != nil && !contains(verdict.Rules, rule):
		return fmt.Sprintf("expected rule %s among %v", rule, verdict.Rules)
	}
	return ""
}

func checkMessage(a Adapters, pointer string, t messageTest) string {
	return judge(a, Level(t.Tier), pointer, t.Data, t.Valid, t.Rule)
}

// checkTranscript: the sequence rules give the case's verdict, and an invalid transcript breaks the rule it names.
func checkTranscript(a Adapters, t messageTest) string {
	if a.CheckTranscript == nil {
		return "no CheckTranscript adapter: the SDK does not check the sequence rules"
	}
	broken, err := a.CheckTranscript(t.Data)
	switch {
	case err != nil:
		return fmt.Sprintf("the transcript checker failed: %v", err)
	case t.Valid && len(broken) > 0:
		return fmt.Sprintf("expected every rule kept, the checker reports %v", broken)
	case !t.Valid && !contains(broken, t.Rule):
		return fmt.Sprintf("expected rule %s broken, the checker reports %v", t.Rule, broken)
	}
	return ""
}

type sseCase struct {
	Description string `json:"description"`
	Tier        string `json:"tier"`
	Input       struct {
		Text   *string `json:"text"`
		Base64 *string `json:"base64"`
	} `json:"input"`
	Chunks   []string          `json:"chunks"`
	Messages []Message         `json:"messages"`
	Events   []json.RawMessage `json:"events"`
	Shapes   []string          `json:"shapes"`
}

// chunkings: whole, the case's own chunks, one byte at a time; the result must not depend on them.
func (c sseCase) chunkings() ([]string, [][][]byte, error) {
	var body []byte
	if c.Input.Text != nil {
		body = []byte(*c.Input.Text)
	} else if c.Input.Base64 != nil {
		var err error
		if body, err = base64.StdEncoding.DecodeString(*c.Input.Base64); err != nil {
			return nil, nil, err
		}
	}
	names := []string{"whole"}
	ways := [][][]byte{{body}}
	if c.Chunks != nil {
		var chunks [][]byte
		for _, b := range c.Chunks {
			raw, err := base64.StdEncoding.DecodeString(b)
			if err != nil {
				return nil, nil, err
			}
			chunks = append(chunks, raw)
		}
		names, ways = append(names, "given chunks"), append(ways, chunks)
	}
	bytewise := make([][]byte, 0, len(body))
	for i := range body {
		bytewise = append(bytewise, body[i:i+1])
	}
	return append(names, "one byte per chunk"), append(ways, bytewise), nil
}

func checkSSE(a Adapters, c sseCase) string {
	names, ways, err := c.chunkings()
	if err != nil {
		return "the case's input is not base64: " + err.Error()
	}
	for i, chunks := range ways {
		got, err := a.DecodeSSE(chunks)
		if err != nil {
			return fmt.Sprintf("%s: the decoder failed: %v", names[i], err)
		}
		if !sameMessages(got, c.Messages) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(c.Messages)
			return fmt.Sprintf("%s: decoded %s, want %s", names[i], g, w)
		}
	}
	if c.Events == nil {
		return ""
	}
	if len(c.Events) != len(c.Messages) {
		return fmt.Sprintf("the case has %d events for %d messages", len(c.Events), len(c.Messages))
	}
	for i, want := range c.Events {
		event, shape, err := a.DecodeEvent(json.RawMessage(c.Messages[i].Data), c.Messages[i].Event)
		if err != nil {
			return fmt.Sprintf("message %d: the event decoder failed: %v", i, err)
		}
		if !sameJSON(event, want) {
			return fmt.Sprintf("message %d: typed event %s, want %s", i, event, want)
		}
		wantShape := "envelope"
		if c.Shapes != nil {
			wantShape = c.Shapes[i]
		}
		if shape != wantShape {
			return fmt.Sprintf("message %d: read as a %s frame, the case says %s", i, shape, wantShape)
		}
		if p := judge(a, Receive, componentPrefix+"AgentRunEvent", event, true, ""); p != "" {
			return fmt.Sprintf("message %d: %s", i, p)
		}
	}
	return ""
}

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

// checkFlow: bodies valid against their bodySchema, each stream's SSE text
// decoding to its events, every event an AgentRunEvent, each run's
// transcript what its streams delivered (each seq once) and a valid RunTranscript.
func checkFlow(a Adapters, f flow) string {
	streams := map[string]string{}
	delivered := map[string][]json.RawMessage{}
	seen := map[string]map[string]bool{}
	for i, s := range f.Steps {
		at := fmt.Sprintf("step %d (%s)", i, s.Kind)
		switch s.Kind {
		case "http", "open-stream":
			for side, m := range map[string]flowMessage{"request": s.Request, "response": s.Response} {
				if len(m.Body) > 0 {
					if p := judge(a, Strict, m.BodySchema, m.Body, true, ""); p != "" {
						return fmt.Sprintf("%s %s body: %s", at, side, p)
					}
				}
			}
			if s.Kind == "open-stream" {
				streams[s.Stream] = s.RunID
			}
		case "receive":
			runID, open := streams[s.Stream]
			if !open {
				return at + ": stream " + s.Stream + " is not open"
			}
			msgs, err := a.DecodeSSE([][]byte{[]byte(s.SSE)})
			if err != nil {
				return fmt.Sprintf("%s: the decoder failed: %v", at, err)
			}
			if len(msgs) != len(s.Events) {
				return fmt.Sprintf("%s: decoded %d messages for %d events", at, len(msgs), len(s.Events))
			}
			for j, want := range s.Events {
				event, _, err := a.DecodeEvent(json.RawMessage(msgs[j].Data), msgs[j].Event)
				if err != nil {
					return fmt.Sprintf("%s: message %d: the event decoder failed: %v", at, j, err)
				}
				if !sameJSON(event, want) {
					return fmt.Sprintf("%s: message %d decodes to %s, want %s", at, j, event, want)
				}
				if p := judge(a, Strict, componentPrefix+"AgentRunEvent", event, true, ""); p != "" {
					return fmt.Sprintf("%s: message %d: %s", at, j, p)
				}
				seq := seqOf(want)
				if seen[runID] == nil {
					seen[runID] = map[string]bool{}
				}
				if !seen[runID][seq] {
					seen[runID][seq] = true
					delivered[runID] = append(delivered[runID], want)
				}
			}
		case "stream-end":
			if _, open := streams[s.Stream]; !open {
				return at + ": stream " + s.Stream + " is not open"
			}
			delete(streams, s.Stream)
		default:
			return at + ": unknown step kind"
		}
	}
	for _, r := range f.Runs {
		got := delivered[r.RunID]
		same := len(got) == len(r.Events)
		for j := 0; same && j < len(got); j++ {
			same = sameJSON(got[j], r.Events[j])
		}
		if !same {
			return "run " + r.RunID + ": its transcript is not what the streams delivered, each seq once"
		}
		if a.CheckTranscript == nil {
			continue
		}
		transcript, _ := json.Marshal(map[string]any{"events": r.Events})
		if broken, err := a.CheckTranscript(transcript); err != nil || len(broken) > 0 {
			return fmt.Sprintf("run %s: its transcript breaks the sequence rules %v (%v)", r.RunID, broken, err)
		}
	}
	return ""
}

func seqOf(event json.RawMessage) string {
	var s struct{ Seq json.Number }
	_ = json.Unmarshal(event, &s)
	return s.Seq.String()
}

func sameMessages(got, want []Message) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Event != w.Event || g.Data != w.Data || g.ID != w.ID || (g.Retry == nil) != (w.Retry == nil) || (g.Retry != nil && *g.Retry != *w.Retry) {
			return false
		}
	}
	return true
}

// sameJSON compares two JSON texts as values (member order and spacing aside).
func sameJSON(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
