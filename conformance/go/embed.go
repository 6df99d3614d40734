package conformance

import (
	"embed"
	"io/fs"
)

// The suite, embedded: fixtures/ is written by `mantyx-wire gen
// --fixtures-copy` in the repository (byte for byte generated/fixtures, kept
// honest by `gen --check`), so this module carries its own copy and an SDK
// needs no files beside `go get`.
//
//go:embed all:fixtures
var embedded embed.FS

// Embedded is the suite that ships with this module version.
func Embedded() fs.FS {
	sub, err := fs.Sub(embedded, "fixtures")
	if err != nil {
		// fs.Sub fails only for an invalid path; "fixtures" is valid.
		panic(err)
	}
	return sub
}
