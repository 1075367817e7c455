package playground_test

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/playground/internal/wasmbuild"
	"github.com/kafkaflow/kflowgen/site"
)

// TestEmbeddedModuleIsCurrent rebuilds the playground's WebAssembly from
// the current source with the pinned flags and wants the embedded module
// byte for byte; and wants the embedded wasm_exec.js to be this
// toolchain's. Either fails after a change to the engine, parser or
// renderer until the module is regenerated.
func TestEmbeddedModuleIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly module (-short)")
	}
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := wasmbuild.Build(root)
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := playground.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, embedded) {
		t.Errorf("%s holds a module of %d bytes (sha256 %x) but the current source builds %d bytes (sha256 %x): "+
			"run `%s` from the module root and commit %[1]s",
			wasmbuild.ScriptFile, len(embedded), sha256.Sum256(embedded), len(fresh), sha256.Sum256(fresh), wasmbuild.Command)
	}
	// The committed script is the one a build writes, framed as Script
	// frames it: base64 in one line, as Gzip's decoder would also take
	// it wrapped or with its padding stripped.
	gz, err := playground.WasmGz()
	if err != nil {
		t.Fatal(err)
	}
	if a := playground.Assets()[1]; a.Name != "kflow-wasm.js" || !bytes.Equal(a.Data, wasmbuild.Script(gz)) {
		t.Errorf("%s is not what `%s` writes for its own module: run it", wasmbuild.ScriptFile, wasmbuild.Command)
	}
	exec, err := wasmbuild.WasmExecJS()
	if err != nil {
		t.Fatal(err)
	}
	if a := playground.Assets()[0]; a.Name != "wasm-exec.js" || !bytes.Equal(a.Data, exec) {
		t.Errorf("playground/wasm_exec.js is not this toolchain's $(go env GOROOT)/lib/wasm/wasm_exec.js: run `%s` from the module root", wasmbuild.Command)
	}
}

// guideFences returns every ```kflow fence of the guide with its page slug.
func guideFences(t testing.TB) (bodies [][]byte, slugs []string) {
	err := fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := fs.ReadFile(content.FS, p)
		for _, f := range site.FindFences(src) {
			bodies, slugs = append(bodies, f.Body), append(slugs, site.Slug(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return bodies, slugs
}

// TestFragmentRoundTrip: every guide fence comes back from its fragment
// unchanged, and the fragment is shorter than the fence's base64.
func TestFragmentRoundTrip(t *testing.T) {
	bodies, _ := guideFences(t)
	if len(bodies) < 20 {
		t.Fatalf("%d guide fences", len(bodies))
	}
	for _, b := range bodies {
		f := playground.Fragment(b)
		if strings.ContainsAny(f, "+/=") {
			t.Errorf("fragment %q is not base64url without padding", f)
		}
		got, err := playground.DecodeFragment(f)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("round trip of %.40q: %v, %.40q", b, err, got)
		}
		if len(f) >= len(b)*4/3 {
			t.Errorf("fragment of a %d-byte fence is %d characters: not compressed", len(b), len(f))
		}
	}
	if _, err := playground.DecodeFragment("not base64!"); err == nil {
		t.Error("a fragment that is not base64url was read")
	}
	if _, err := playground.DecodeFragment("aGVsbG8"); err == nil {
		t.Error("a fragment that is not DEFLATE was read")
	}
	if _, err := playground.DecodeFragment(playground.Fragment(bytes.Repeat([]byte("a"), playground.MaxFenceBytes+1))); err == nil {
		t.Error("a fragment past MaxFenceBytes was read")
	}
}

// TestSampleRuns: the playground's default fence runs cleanly.
func TestSampleRuns(t *testing.T) {
	r := fence.Play([]byte(playground.Sample), playground.PageSlug)
	if len(r.Errors) > 0 || len(r.HTML) == 0 {
		t.Errorf("sample: %v, %d bytes", r.Errors, len(r.HTML))
	}
}

// TestWarmFence: the fence playground.js runs once at start-up, to warm
// the engine before the reader's first Run, still draws cleanly, with a
// consumer group, a share group, a compare, expect: entries and a note
// in it, every claim holding (a warm-up the parser refused would warm
// nothing, silently).
func TestWarmFence(t *testing.T) {
	var js []byte
	for _, a := range playground.Assets() {
		if a.Name == "playground.js" {
			js = a.Data
		}
	}
	_, rest, ok := bytes.Cut(js, []byte("const WARM = `"))
	warm, _, ok2 := bytes.Cut(rest, []byte("`;"))
	if !ok || !ok2 {
		t.Fatal("playground.js has no WARM fence")
	}
	r := fence.Play(warm, "playground-warm")
	if len(r.Errors) > 0 || len(r.HTML) == 0 {
		t.Fatalf("the warm-up fence draws %d bytes with problems %v", len(r.HTML), r.Errors)
	}
	if len(r.Variants) != 2 || len(r.Knobs) != 1 {
		t.Errorf("the warm-up fence has %d combinations of %d knobs, want two of one", len(r.Variants), len(r.Knobs))
	} else if v, err := fence.PlayVariant(r, "playground-warm", 1-r.Default); err != nil || len(v) == 0 {
		t.Errorf("the warm-up fence's other combination draws %d bytes (%v)", len(v), err)
	}
	for _, key := range []string{"consumer.groups:", "share.groups:", "compare:", "crash:", "expect:", "notes:", "outcome:", "owner:", "state:", "knobs:", "when:"} {
		if !bytes.Contains(warm, []byte(key)) {
			t.Errorf("the warm-up fence has no %s", key)
		}
	}
}
