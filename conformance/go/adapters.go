package conformance

import "encoding/json"

// Message is one decoded SSE message, the suite's shape: Event is "message"
// when none was set, ID the last event ID at dispatch ("" when none), Retry
// the reconnection time once a valid retry field has been seen.
type Message struct {
	Event string `json:"event"`
	Data  string `json:"data"`
	ID    string `json:"id"`
	Retry *int64 `json:"retry,omitempty"`
}

// Level is the validation level a case is judged at.
type Level string

const (
	// Receive is the shape each type promises (schema.receive.json): what every SDK must accept or reject.
	Receive Level = "receive"
	// Strict is every rule the documents state (schema.json).
	Strict Level = "strict"
)

// Verdict is a validator's answer.
type Verdict struct {
	Valid bool
	// Rules the validator found broken, when it can name them (JSON Schema
	// keywords, or the transcript rule ids); nil when it cannot, and then
	// only Valid is compared.
	Rules []string
}

// Adapters are the SDK's own code the suite runs. DecodeSSE, DecodeEvent and
// Validate are required; CheckTranscript is optional.
type Adapters struct {
	// DecodeSSE decodes a text/event-stream body fed in these chunks, in order.
	DecodeSSE func(chunks [][]byte) ([]Message, error)
	// DecodeEvent turns one message's data (JSON text) and its event: line
	// into the typed event as the envelope {seq, type, data} (JSON), and
	// names the frame shape it read: "envelope" or "flat".
	DecodeEvent func(data json.RawMessage, eventLine string) (event json.RawMessage, shape string, err error)
	// Validate judges instance (JSON text) against a component schema
	// (components/schemas/<component>) at a level. Components the SDK has no
	// type for are the SDK's to decide: answer, or list those cases as
	// known failures.
	Validate func(level Level, component string, instance json.RawMessage) (Verdict, error)
	// CheckTranscript checks a whole run's transcript ({"events": [...]},
	// events in either frame shape) against the sequence rules
	// (x-transcript-rules of RunTranscript) and returns the ids of the rules
	// it breaks, none when it keeps them all. Optional: without it the
	// transcript cases (tier strict) fail, and flows check only that each
	// run's transcript is what its streams delivered.
	CheckTranscript func(transcript json.RawMessage) (brokenRules []string, err error)
}
