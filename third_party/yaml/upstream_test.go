// Kafka Flow's check that its copy of go.yaml.in/yaml/v3 v3.0.6 differs
// from upstream only where README.md says: every file other than
// resolve.go, encode.go, decode.go and the files Kafka Flow added must hash as the
// upstream release's file does once its import of this package names
// upstream's path again (importPath), and upstream's go.mod is left out.

package yaml

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"sort"
	"testing"
)

// upstreamSHA256 holds the SHA-256 of each file of the v3.0.6 module zip
// that Kafka Flow keeps unchanged (upstream's README.md is not kept).
var upstreamSHA256 = map[string]string{
	"LICENSE":                  "d18f6323b71b0b768bb5e9616e36da390fbd39369a81807cca352de4e4e6aa0b",
	"NOTICE":                   "f6c2dd3a67b576eafb89b80200b8b1627230bf3821a0c14cb99a22ac19107d00",
	"apic.go":                  "0ba66e8a481340e9b9e1719efef7a2026736b53b07d369d6b140328f1d8f4b07",
	"decode_test.go":           "569aff510a30c6f60fc7d582eb705d5c5703376319c086ee0780a4d9b11f4ee4",
	"emitterc.go":              "806023afb6e3b567ab896d660d4f70610cbb9404f6e0cc4b27331ca6229de0b3",
	"encode_test.go":           "38f7b3316dca551360f1cd8ac3c7dc6a977fcf5e8bfe657567a38092ea6b3f4e",
	"example_embedded_test.go": "bcece6ac3493a8f5f134aea10a09eee65f87d199c963c8742379d236ef4c0ff2",
	"limit_test.go":            "2794e70e67ea039ba54caf1c2b61f886748590d1cb66633868852683fa32908a",
	"node_test.go":             "dc802deb3c23222c99aec4ca921d1236a67f7089f2d57f9467103f99f8ee1ba0",
	"parserc.go":               "28591b9b10ab4326bccb7f16a0d440d639514f90cd7fdea899ea9f66cdac347b",
	"readerc.go":               "ad43815c77785337e2f980aa8e28d1ac89a25d1642187039aa1f451328a58527",
	"scannerc.go":              "a850fdd79a89f1475c7db3b685af057001ad871390770bf1c90aa808955df084",
	"sorter.go":                "111f911a8095798fda2a7c708e20a931d2c228e637ff82de3ff44794d2d0ae92",
	"writerc.go":               "60fd0364b5b62b66a9f6a62bc56220b3ebc1de0b6a93901989b529e826e7e2af",
	"yaml.go":                  "a82503abcfb6f4c1200231d1affdba7f4fcaffed6448d59ea7ffcf189e764628",
	"yamlh.go":                 "26fd53137ef7a1365eb7ca405a9e3eec2fb0e845c7dfde94fe9f8c4f153fad49",
	"yamlprivateh.go":          "4e2195c00895d14965430b8326595e287ed23a7923ea3a7d43cfa95d0d359958",
}

// importPath is this copy's import path, a package of Kafka Flow's own
// module, and upstreamPath upstream's. Upstream's external tests import the
// package by path; here they name importPath, the one line of theirs that
// differs.
const (
	importPath   = `"github.com/kafkaflow/kflowgen/third_party/yaml"`
	upstreamPath = `"go.yaml.in/yaml/v3"`
)

// leftOut are upstream's files this copy does not keep, with their
// SHA-256 in the v3.0.6 module zip. go.mod would make the copy a nested
// module, which Kafka Flow's go.mod could only use through a replace
// directive, and a module with one cannot be installed with
// `go install …@version`.
var leftOut = map[string]string{
	"go.mod": "4bf9de8891d4d71507d92568022f8241fb828d8d0a6c9204c130bf030f3e3b2f",
}

// ours are the files Kafka Flow changed or added; see README.md.
var ours = map[string]bool{
	"README.md": true, "resolve.go": true, "encode.go": true, "decode.go": true,
	"matchers.go": true, "matchers_test.go": true, "upstream_test.go": true,
	"syntaxerror.go": true, "syntaxerror_test.go": true,
}

func TestUnchangedFromUpstream(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	seen := map[string]bool{}
	for _, name := range names {
		want, up := upstreamSHA256[name]
		if !up {
			if !ours[name] {
				t.Errorf("%s is neither upstream's nor listed as Kafka Flow's", name)
			}
			continue
		}
		seen[name] = true
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(bytes.ReplaceAll(b, []byte(importPath), []byte(upstreamPath)))
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s differs from upstream v3.0.6 (sha256 %s, upstream %s)", name, got, want)
		}
	}
	for name := range upstreamSHA256 {
		if !seen[name] {
			t.Errorf("upstream's %s is missing", name)
		}
	}
	for name := range leftOut {
		if _, err := os.Stat(name); err == nil {
			t.Errorf("upstream's %s is here but should be left out", name)
		}
	}
}
