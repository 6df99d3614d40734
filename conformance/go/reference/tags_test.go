package reference

import (
	"encoding/json"
	"testing"

	"github.com/mantyx/wire-types/conformance/go"
)

// taggedWith lists the ids of the message cases tagged with keyword, in the runner's order.
func taggedWith(t *testing.T, s *conformance.Suite, keyword string) []string {
	t.Helper()
	var ids []string
	for _, file := range s.FilesUnder("messages/") {
		raw, err := s.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var groups []struct {
			Tests []struct {
				Description string   `json:"description"`
				Tags        []string `json:"tags"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(raw, &groups); err != nil {
			t.Fatal(err)
		}
		for _, g := range groups {
			for _, c := range g.Tests {
				for _, tag := range c.Tags {
					if tag == keyword {
						ids = append(ids, file+"::"+c.Description)
					}
				}
			}
		}
	}
	return ids
}
