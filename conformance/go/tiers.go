package conformance

import (
	"fmt"
	"strings"
)

// Tiers of the suite, in report order: behaviour (what every SDK must do:
// SSE in both frame shapes, flows), receive (messages every SDK must accept
// or reject at the receive level), strict (the strict level: what a
// validating SDK or a server must reject).
var Tiers = []string{"behaviour", "receive", "strict"}

// ParseTiers reads a comma-separated list (MANTYX_TIERS); all tiers when
// empty. An unknown name is an error, never a silently empty run.
func ParseTiers(value string) ([]string, error) {
	var names []string
	for _, name := range strings.Split(value, ",") {
		if name = strings.TrimSpace(name); name != "" {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return Tiers, nil
	}
	return checkTiers(names)
}

func checkTiers(names []string) ([]string, error) {
	for _, name := range names {
		known := false
		for _, t := range Tiers {
			known = known || t == name
		}
		if !known {
			return nil, fmt.Errorf("unknown tier %q; the tiers are %s", name, strings.Join(Tiers, ", "))
		}
	}
	return names, nil
}
