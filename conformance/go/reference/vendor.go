package reference

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/message"
)

// The suite's vendor keywords (schema/CONVENTIONS.md, "Vendor keywords"), as
// a jsonschema vocabulary, so the reference validator gives the tagged cases
// their verdicts instead of skipping them. Each follows the generated
// TypeScript validators (generator/keywords/): a keyword applies to the JSON
// types it names and ignores others.

// VendorKeywords are the assertions this vocabulary implements.
var VendorKeywords = []string{
	"x-max-utf8-bytes", "x-max-json-bytes", "x-max-base64-bytes-total", "x-base64",
	"x-greater-than", "x-not-greater-than", "x-equal-properties",
	"x-last-non-system-role", "x-property-only-on-last-role",
}

// vendorVocabulary is the vocabulary without the keywords in disabled.
func vendorVocabulary(disabled map[string]bool) *jsonschema.Vocabulary {
	return &jsonschema.Vocabulary{
		URL: "https://mantyx.invalid/wire-types/vocab/vendor-keywords",
		Compile: func(_ *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
			var checks vendorChecks
			for _, k := range VendorKeywords {
				if v, ok := obj[k]; ok && !disabled[k] {
					checks = append(checks, vendorCheck{k, v})
				}
			}
			if len(checks) == 0 {
				return nil, nil
			}
			return checks, nil
		},
	}
}

type vendorCheck struct {
	keyword string
	value   any
}

type vendorChecks []vendorCheck

// vendorError is a broken vendor keyword.
type vendorError struct{ keyword, message string }

func (e *vendorError) KeywordPath() []string                   { return []string{e.keyword} }
func (e *vendorError) LocalizedString(*message.Printer) string { return e.message }

func (cs vendorChecks) Validate(ctx *jsonschema.ValidatorContext, v any) {
	for _, c := range cs {
		if msg := c.check(v); msg != "" {
			ctx.AddError(&vendorError{c.keyword, msg})
		}
	}
}

func (c vendorCheck) check(v any) string {
	switch c.keyword {
	case "x-max-utf8-bytes":
		if s, ok := v.(string); ok && len(s) > intOf(c.value) {
			return fmt.Sprintf("must be at most %d bytes as UTF-8 (is %d)", intOf(c.value), len(s))
		}
	case "x-max-json-bytes":
		if n := jsonBytes(v); n > intOf(c.value) {
			return fmt.Sprintf("must be at most %d bytes as JSON (is %d)", intOf(c.value), n)
		}
	case "x-max-base64-bytes-total":
		spec, _ := c.value.(map[string]any)
		var path []string
		for _, seg := range asList(spec["path"]) {
			path = append(path, fmt.Sprint(seg))
		}
		if total := base64Total(v, path); total > intOf(spec["max"]) {
			return fmt.Sprintf("must have at most %d base64-decoded bytes in total (is %d)", intOf(spec["max"]), total)
		}
	case "x-base64":
		spec, _ := c.value.(map[string]any)
		if s, ok := v.(string); ok {
			if problem := base64Problem(s, spec["alphabet"] == "url", fmt.Sprint(spec["padding"])); problem != "" {
				return "must be base64 (RFC 4648): " + problem
			}
		}
	case "x-greater-than", "x-not-greater-than":
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		for _, pair := range asList(c.value) {
			p, _ := pair.(map[string]any)
			a, aok := number(obj[fmt.Sprint(p["property"])])
			b, bok := number(obj[fmt.Sprint(p["than"])])
			if aok && bok && (c.keyword == "x-greater-than") != (a > b) {
				return fmt.Sprintf("%s (%v) against %s (%v) breaks %s", p["property"], a, p["than"], b, c.keyword)
			}
		}
	case "x-equal-properties":
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		for _, pair := range asList(c.value) {
			p, _ := pair.(map[string]any)
			a, aok := obj[fmt.Sprint(p["property"])]
			b, bok := obj[fmt.Sprint(p["equals"])]
			if aok && bok && scalar(a) && scalar(b) && !sameScalar(a, b) {
				return fmt.Sprintf("must have %s equal to %s", p["property"], p["equals"])
			}
		}
	case "x-last-non-system-role":
		items, ok := v.([]any)
		if !ok {
			return ""
		}
		var last any
		for i := len(items) - 1; i >= 0; i-- {
			obj, _ := items[i].(map[string]any)
			if role := obj["role"]; role != "system" {
				last = role
				break
			}
		}
		if last != c.value {
			return fmt.Sprintf("must have role %v on the last non-system item (is %v)", c.value, last)
		}
	case "x-property-only-on-last-role":
		items, ok := v.([]any)
		spec, _ := c.value.(map[string]any)
		if !ok {
			return ""
		}
		seenLast := false
		for i := len(items) - 1; i >= 0; i-- {
			obj, isObj := items[i].(map[string]any)
			if !isObj {
				continue
			}
			isLast := !seenLast && obj["role"] == spec["role"]
			if _, has := obj[fmt.Sprint(spec["property"])]; has && !isLast {
				return fmt.Sprintf("must carry %v only on the last item with role %v (item %d has it)", spec["property"], spec["role"], i)
			}
			if isLast {
				seenLast = true
			}
		}
	}
	return ""
}

func asList(v any) []any { l, _ := v.([]any); return l }

func intOf(v any) int {
	f, _ := number(v)
	return int(f)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}

func scalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

// sameScalar is JavaScript's === on JSON scalars: numbers by value.
func sameScalar(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return a == b
}

// jsonBytes is the UTF-8 length of JSON.stringify(v) (no whitespace, JavaScript's number and string forms).
func jsonBytes(v any) int {
	switch x := v.(type) {
	case nil:
		return 4
	case bool:
		if x {
			return 4
		}
		return 5
	case json.Number, float64:
		f, _ := number(x)
		return len(jsNumber(f))
	case string:
		return quotedBytes(x)
	case []any:
		n := 2
		for i, item := range x {
			if i > 0 {
				n++
			}
			n += jsonBytes(item)
		}
		return n
	case map[string]any:
		n, i := 2, 0
		for k, item := range x {
			if i > 0 {
				n++
			}
			n += quotedBytes(k) + 1 + jsonBytes(item)
			i++
		}
		return n
	}
	return 0
}

func quotedBytes(s string) int {
	n := 2
	for _, r := range s {
		switch {
		case r == '"' || r == '\\' || r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t':
			n += 2
		case r < 0x20:
			n += 6
		default:
			n += utf8.RuneLen(r)
		}
	}
	return n
}

// jsNumber is JavaScript's Number#toString for a finite number (NaN and infinities are "null" in JSON).
func jsNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// Shortest round-trip digits and the decimal exponent: d.ddd e±x.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mantissa, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mantissa, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	out := digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	if n-1 >= 0 {
		return sign + out + "e+" + strconv.Itoa(n-1)
	}
	return sign + out + "e-" + strconv.Itoa(1-n)
}

// base64Total sums the decoded lengths of the strings reached by path ("*": every item or value).
// base64Problem: what makes s not base64 as x-base64 reads RFC 4648 (the
// alphabet, "=" only completing the last group, never 4n+1 characters, and
// padding required, optional or forbidden); "" when it is base64.
func base64Problem(s string, url bool, padding string) string {
	end := len(s)
	for i := 0; i < 2 && end > 0 && s[end-1] == '='; i++ {
		end--
	}
	c62, c63 := byte('+'), byte('/')
	if url {
		c62, c63 = '-', '_'
	}
	for i := 0; i < end; i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == c62 || c == c63) {
			return fmt.Sprintf("byte %d is outside the alphabet", i)
		}
	}
	switch {
	case end%4 == 1:
		return "a length no base64 string has"
	case end != len(s) && len(s)%4 != 0:
		return "padding that does not complete a group of 4"
	case padding == "required" && len(s)%4 != 0:
		return "no padding"
	case padding == "forbidden" && end != len(s):
		return "padding, which is forbidden here"
	}
	return ""
}

func base64Total(v any, path []string) int {
	if len(path) == 0 {
		s, ok := v.(string)
		if !ok {
			return 0
		}
		n := len(utf16.Encode([]rune(s)))
		total := n * 3 / 4
		if n%4 == 0 && n > 0 && s[len(s)-1] == '=' {
			if len(s) > 1 && s[len(s)-2] == '=' {
				total -= 2
			} else {
				total--
			}
		}
		return total
	}
	total := 0
	switch x := v.(type) {
	case []any:
		if path[0] == "*" {
			for _, item := range x {
				total += base64Total(item, path[1:])
			}
		}
	case map[string]any:
		if path[0] == "*" {
			for _, item := range x {
				total += base64Total(item, path[1:])
			}
		} else if next, ok := x[path[0]]; ok {
			total += base64Total(next, path[1:])
		}
	}
	return total
}
