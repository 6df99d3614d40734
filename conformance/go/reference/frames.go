package reference

// The two shapes a MANTYX event frame's data comes in, read into one event:
// the nested envelope the documents show ({"seq", "type", "data": {...}}), and
// the flattened frame the official SDKs and their mocks use ({"seq",
// "type"?, ...payload}, the type sometimes only on the SSE event: line).
//
// The rule (schema/CONVENTIONS.md, "Frame shapes"): an object whose "data"
// member is an object and that has no members but "seq", "type" and "data"
// is an envelope; any other object is flattened, its payload every member
// but "seq" and "type" (a payload that gained a "data" field stays flat). A missing type comes from the event:
// line, unless that is the SSE default "message" (no type named). An SDK
// replaces this with its own event decoding.

// ToEnvelope returns the envelope of value and "envelope" or "flat"; a
// non-object is returned as it is (and fails validation).
func ToEnvelope(value any) (any, string) {
	obj, ok := value.(map[string]any)
	if !ok {
		return value, "envelope"
	}
	if _, nested := obj["data"].(map[string]any); nested {
		for k := range obj {
			if k != "data" && k != "seq" && k != "type" {
				nested = false
			}
		}
		if nested {
			return obj, "envelope"
		}
	}
	event := map[string]any{}
	payload := map[string]any{}
	for k, v := range obj {
		if k == "seq" || k == "type" {
			event[k] = v
		} else {
			payload[k] = v
		}
	}
	event["data"] = payload
	return event, "flat"
}

// TypedEvent is the envelope of one message's parsed data, its type from the
// frame, else from the event: line.
func TypedEvent(value any, eventLine string) (any, string) {
	event, shape := ToEnvelope(value)
	if obj, ok := event.(map[string]any); ok {
		if _, typed := obj["type"]; !typed && eventLine != "message" {
			copied := map[string]any{"type": eventLine}
			for k, v := range obj {
				copied[k] = v
			}
			return copied, shape
		}
	}
	return event, shape
}
