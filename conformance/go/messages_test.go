package conformance

import (
	"fmt"
	"strings"
	"testing"
)

// TestMessages runs every message case through santhosh-tekuri/jsonschema
// (a plain JSON Schema 2020-12 validator): a receive case against
// schema.receive.json, a strict case against schema.json. Cases tagged with
// a vendor keyword are skipped and counted; so are cases of a tier
// MANTYX_TIERS leaves out.
func TestMessages(t *testing.T) {
	byTier := map[string]*Validators{}
	for _, tier := range []string{"receive", "strict"} {
		v, err := NewValidatorsOf(dir, SchemaDocument(tier))
		if err != nil {
			t.Fatal(err)
		}
		byTier[tier] = v
	}
	var counts tally
	for _, file := range manifest.FilesUnder("messages/") {
		doc, err := ReadInstance(dir, file)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range doc.([]any) {
			group := g.(map[string]any)
			pointer := group["schema"].(string)
			for _, x := range group["tests"].([]any) {
				test := x.(map[string]any)
				id := CaseID(file, test["description"].(string))
				tier, _ := test["tier"].(string)
				v := byTier[tier]
				if v == nil {
					t.Errorf("%s: unknown tier %q", id, tier)
					continue
				}
				if !tiers.take(tier, &counts) {
					continue
				}
				var vendor []string
				tags, _ := test["tags"].([]any)
				for _, tag := range tags {
					if s := tag.(string); strings.HasPrefix(s, "x-") {
						vendor = append(vendor, s)
					}
				}
				if len(vendor) > 0 {
					counts.skip("vendor keyword " + strings.Join(vendor, "/"))
					continue
				}
				counts.run()
				got, err := v.Validate(pointer, test["data"])
				problem := ""
				if err != nil {
					problem = "cannot compile " + pointer + ": " + err.Error()
				} else if want := test["valid"].(bool); got != want {
					problem = fmt.Sprintf("expected valid=%v (rule %v), jsonschema says %v", want, test["rule"], got)
				}
				expect(t, id, problem)
			}
		}
	}
	counts.report(t, "messages (santhosh-tekuri/jsonschema/v6)")
}
