module github.com/mantyx/wire-types/conformance/go

go 1.22

require github.com/santhosh-tekuri/jsonschema/v6 v6.0.3

require golang.org/x/text v0.14.0
