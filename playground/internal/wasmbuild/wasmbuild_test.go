package wasmbuild

import (
	"bytes"
	"strings"
	"testing"
)

// TestScriptCarriesGzip: Gzip reads back what Script wrote, for sizes
// around base64's padding, and refuses a script framed otherwise or
// whose payload is not standard base64, naming the file.
func TestScriptCarriesGzip(t *testing.T) {
	for n := range 7 {
		gz := bytes.Repeat([]byte{0x1f, 0x8b, 0xff}, n)[:n*2]
		js := Script(gz)
		if !bytes.HasPrefix(js, []byte("// Kafka Flow's engine")) || !bytes.HasSuffix(js, []byte("\";\n")) {
			t.Errorf("%d bytes: script %q", len(gz), js)
		}
		back, err := Gzip(js)
		if err != nil || !bytes.Equal(back, gz) {
			t.Errorf("%d bytes: read back %x, %v", len(gz), back, err)
		}
	}
	good := Script([]byte("kafka"))
	for _, bad := range [][]byte{
		nil,
		good[:len(good)-1],
		good[1:],
		bytes.Replace(good, []byte("a2Fma2E="), []byte("a2Fma2E*"), 1),
	} {
		if _, err := Gzip(bad); err == nil || !strings.Contains(err.Error(), ScriptFile) {
			t.Errorf("Gzip(%q) = %v, want an error naming %s", bad, err, ScriptFile)
		}
	}
}
