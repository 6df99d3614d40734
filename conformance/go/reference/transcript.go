package reference

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// TranscriptRules interprets the x-transcript-rules of RunTranscript in
// schema.json; nothing about the rules is hard-coded (the vocabulary is in
// RunTranscript's description). Terminal types are the KnownAgentRunEvent
// variants with x-terminal: true.
type TranscriptRules struct {
	Rules    []map[string]any
	terminal map[string]bool
}

// Issue is one broken rule.
type Issue struct {
	Rule    string
	Index   int
	Message string
}

// NewTranscriptRules reads the rules from a decoded schema.json (encoding/json values).
func NewTranscriptRules(schemaDoc map[string]any) (*TranscriptRules, error) {
	schemas, _ := schemaDoc["components"].(map[string]any)["schemas"].(map[string]any)
	rt, _ := schemas["RunTranscript"].(map[string]any)
	raw, ok := rt["x-transcript-rules"].([]any)
	if !ok {
		return nil, fmt.Errorf("schema.json: RunTranscript has no x-transcript-rules")
	}
	r := &TranscriptRules{terminal: map[string]bool{}}
	for _, x := range raw {
		r.Rules = append(r.Rules, x.(map[string]any))
	}
	known, _ := schemas["KnownAgentRunEvent"].(map[string]any)
	for _, b := range known["oneOf"].([]any) {
		ref := b.(map[string]any)["$ref"].(string)
		variant := schemas[ref[strings.LastIndex(ref, "/")+1:]].(map[string]any)
		if variant["x-terminal"] == true {
			t := variant["properties"].(map[string]any)["type"].(map[string]any)["const"].(string)
			r.terminal[t] = true
		}
	}
	return r, nil
}

type missing struct{}

func get(v any, pointer string) any {
	for _, seg := range strings.Split(pointer[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[seg]
			if !ok {
				return missing{}
			}
			v = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) || (len(seg) > 1 && seg[0] == '0') {
				return missing{}
			}
			v = x[i]
		default:
			return missing{}
		}
	}
	return v
}

func (r *TranscriptRules) selects(sel map[string]any, e any) bool {
	obj, _ := e.(map[string]any)
	t, isString := obj["type"].(string)
	if types, ok := sel["type"].([]any); ok {
		found := false
		for _, x := range types {
			if isString && x == t {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	if term, ok := sel["terminal"].(bool); ok && (isString && r.terminal[t]) != term {
		return false
	}
	if where, ok := sel["where"].([]any); ok {
		for _, w := range where {
			wm := w.(map[string]any)
			if get(e, wm["pointer"].(string)) != wm["equals"] {
				return false
			}
		}
	}
	return true
}

// Check returns the issues of a transcript ({ events: [...] }); none when every rule holds.
func (r *TranscriptRules) Check(transcript any) []Issue {
	obj, _ := transcript.(map[string]any)
	raw, ok := obj["events"].([]any)
	if !ok {
		return []Issue{{"shape", -1, "a transcript is an object with an events array"}}
	}
	// Either frame shape (frames.go): the rules' pointers are into the envelope.
	events := make([]any, len(raw))
	for i, e := range raw {
		events[i], _ = ToEnvelope(e)
	}
	var issues []Issue
	for _, rule := range r.Rules {
		id := rule["id"].(string)
		switch rule["check"] {
		case "increasing":
			issues = append(issues, r.increasing(id, rule, events)...)
		case "count":
			sel := rule["select"].(map[string]any)
			var hits []int
			for i, e := range events {
				if r.selects(sel, e) {
					hits = append(hits, i)
				}
			}
			if min, ok := rule["min"].(float64); ok && float64(len(hits)) < min {
				issues = append(issues, Issue{id, -1, fmt.Sprintf("%d selected events, fewer than %v", len(hits), min)})
			}
			if max, ok := rule["max"].(float64); ok && float64(len(hits)) > max {
				issues = append(issues, Issue{id, hits[int(max)], fmt.Sprintf("more than %v selected events", max)})
			}
		case "none-after":
			sel := rule["select"].(map[string]any)
			for i, e := range events {
				if r.selects(sel, e) {
					if i < len(events)-1 {
						issues = append(issues, Issue{id, i + 1, fmt.Sprintf("event %d follows the event at %d", i+1, i)})
					}
					break
				}
			}
		case "answers":
			issues = append(issues, r.answers(id, rule, events)...)
		case "precedes":
			issues = append(issues, r.precedes(id, rule, events)...)
		default:
			issues = append(issues, Issue{id, -1, fmt.Sprintf("unknown check %v", rule["check"])})
		}
	}
	return issues
}

func (r *TranscriptRules) answers(id string, rule map[string]any, events []any) []Issue {
	var issues []Issue
	call, answer := rule["call"].(map[string]any), rule["answer"].(map[string]any)
	key := rule["key"].(string)
	type entry struct{ index, answers int }
	calls := map[string]*entry{}
	var order []string
	for i, e := range events {
		if r.selects(call, e) {
			if k, ok := get(e, key).(string); ok && calls[k] == nil {
				calls[k] = &entry{i, 0}
				order = append(order, k)
			}
		}
		if r.selects(answer, e) {
			k, ok := get(e, key).(string)
			if !ok {
				continue
			}
			c := calls[k]
			if c == nil {
				if rule["requireCall"] == true {
					issues = append(issues, Issue{id, i, "answer for " + strconv.Quote(k) + " without an earlier call"})
				}
				continue
			}
			c.answers++
			if max, ok := rule["max"].(float64); ok && float64(c.answers) > max {
				issues = append(issues, Issue{id, i, fmt.Sprintf("call %q answered more than %v time(s)", k, max)})
			}
		}
	}
	min, ok := rule["min"].(float64)
	if !ok || r.liftedByTerminal(rule, events) {
		return issues
	}
	for _, k := range order {
		if float64(calls[k].answers) < min {
			issues = append(issues, Issue{id, calls[k].index, fmt.Sprintf("call %q answered %d time(s), fewer than %v", k, calls[k].answers, min)})
		}
	}
	return issues
}

// increasing: the numbers at pointer of the selected events strictly
// increase (strict: false, never decrease); with groupBy, one sequence per
// string at that pointer, events without one skipped.
func (r *TranscriptRules) increasing(id string, rule map[string]any, events []any) []Issue {
	var issues []Issue
	sel := rule["select"].(map[string]any)
	groupBy, grouped := rule["groupBy"].(string)
	strict := rule["strict"] != false
	prev := map[string]float64{}
	for i, e := range events {
		if !r.selects(sel, e) {
			continue
		}
		g := ""
		if grouped {
			s, ok := get(e, groupBy).(string)
			if !ok {
				continue
			}
			g = s
		}
		v, ok := get(e, rule["pointer"].(string)).(float64)
		if !ok {
			continue
		}
		if p, seen := prev[g]; seen && ((strict && !(v > p)) || (!strict && v < p)) {
			issues = append(issues, Issue{id, i, fmt.Sprintf("%v does not follow %v in order", v, p)})
		}
		prev[g] = v
	}
	return issues
}

// precedes: every selected event is followed later by a followedBy event
// with the same string at key, each later event pairing with one earlier one.
func (r *TranscriptRules) precedes(id string, rule map[string]any, events []any) []Issue {
	sel, later := rule["select"].(map[string]any), rule["followedBy"].(map[string]any)
	key := rule["key"].(string)
	waiting := map[string][]int{}
	for i, e := range events {
		// An event that is both is first a later event, then an earlier one.
		if r.selects(later, e) {
			if k, ok := get(e, key).(string); ok && len(waiting[k]) > 0 {
				waiting[k] = waiting[k][1:]
			}
		}
		if r.selects(sel, e) {
			if k, ok := get(e, key).(string); ok {
				waiting[k] = append(waiting[k], i)
			}
		}
	}
	if r.liftedByTerminal(rule, events) {
		return nil
	}
	// In event order (map iteration order is random).
	keyOf := map[int]string{}
	var left []int
	for k, list := range waiting {
		for _, index := range list {
			keyOf[index] = k
			left = append(left, index)
		}
	}
	sort.Ints(left)
	var issues []Issue
	for _, index := range left {
		issues = append(issues, Issue{id, index, fmt.Sprintf("event %d (%s %q) is not followed by a matching later event", index, key, keyOf[index])})
	}
	return issues
}

// liftedByTerminal: the run's first terminal event matches one of the rule's unlessTerminal selectors.
func (r *TranscriptRules) liftedByTerminal(rule map[string]any, events []any) bool {
	for _, e := range events {
		if r.selects(map[string]any{"terminal": true}, e) {
			unless, _ := rule["unlessTerminal"].([]any)
			for _, s := range unless {
				if r.selects(s.(map[string]any), e) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// decodeGeneric decodes JSON bytes into encoding/json values.
func decodeGeneric(raw []byte) (any, error) {
	var v any
	err := json.Unmarshal(raw, &v)
	return v, err
}
