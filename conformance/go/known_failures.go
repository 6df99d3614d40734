package conformance

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// ParseKnownFailures reads a known-failures list: one case id
// (`<file>::<description>`) per line; blank lines and lines starting with #
// (the reasons, written above the ids they explain) are ignored.
func ParseKnownFailures(text string) []string {
	var ids []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			ids = append(ids, line)
		}
	}
	return ids
}

// ReadKnownFailures reads a known-failures file. A file that is named must exist.
func ReadKnownFailures(file string) ([]string, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("known-failures file: %w", err)
	}
	return ParseKnownFailures(string(raw)), nil
}
