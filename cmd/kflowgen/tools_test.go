package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/templates"
)

// kflowgen new writes a folder that builds as it is, into a page with
// its figure, and refuses a folder that already holds something.
func TestNewThenBuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	code, stdout, stderr := kflowgen(t, "new", dir)
	if code != 0 {
		t.Fatalf("new: exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "kflowgen build --content "+filepath.ToSlash(dir)) {
		t.Errorf("new's output does not say how to build: %q", stdout)
	}
	page, err := os.ReadFile(filepath.Join(dir, starterPage))
	if err != nil {
		t.Fatal(err)
	}
	// A comment on every key line of the fence.
	inFence := false
	for i, line := range strings.Split(string(page), "\n") {
		switch {
		case line == "```kflow":
			inFence = true
		case line == "```":
			inFence = false
		case inFence && strings.Contains(line, ":") && !strings.HasPrefix(strings.TrimSpace(line), "- ") && !strings.Contains(line, "# "):
			t.Errorf("%s:%d: key without a comment: %q", starterPage, i+1, line)
		}
	}

	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr = kflowgen(t, "build", "--content", dir, "--out", out)
	if code != 0 {
		t.Fatalf("build of the new folder: exit %d, stderr:\n%s", code, stderr)
	}
	if want := "built the home page and 1 page with 1 figure (17 frames) into " + out + "\n"; stdout != want {
		t.Errorf("build said %q, want %q", stdout, want)
	}
	html, err := os.ReadFile(filepath.Join(out, "first-figure.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `id="first-figure--first-loss"`) {
		t.Error("first-figure.html has no figure first-figure--first-loss")
	}

	code, _, stderr = kflowgen(t, "new", dir)
	if code != 1 || !strings.Contains(stderr, "is not empty") {
		t.Errorf("new into a folder with a page: exit %d, stderr %q; want a refusal", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, starterPage)); string(b) != string(page) {
		t.Error("the refused new changed the page")
	}
	// No folder, a file, a path through a file: each says what it is
	// (try12 T9a: they printed "mkdir : no such file or directory" and
	// "open afile: not a directory").
	file := filepath.Join(dir, starterPage)
	for arg, want := range map[string]string{
		"":                           "kflowgen: kflowgen new needs the name of a folder to write the starter into, such as docs\n",
		file:                         "kflowgen: " + file + " is a file, not a folder: kflowgen new writes only into a new or empty folder\n",
		filepath.Join(file, "inner"): "kflowgen: cannot use " + filepath.Join(file, "inner") + " as the starter's folder: not a directory\n",
	} {
		if code, _, stderr := kflowgen(t, "new", arg); code != 1 || stderr != want {
			t.Errorf("new %q: exit %d, stderr %q; want 1, %q", arg, code, stderr, want)
		}
	}
}

// --version names the engine's version and the module's.
func TestVersion(t *testing.T) {
	code, stdout, stderr := kflowgen(t, "--version")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "kflowgen ") || !strings.HasSuffix(stdout, " (engine "+sim.EngineVersion+")\n") {
		t.Errorf("--version printed %q", stdout)
	}
}

// moduleVersion names the commit of a "(devel)" build from its vcs
// settings, and says so when the build stamped none, rather than a bare
// "(devel)" that reads as if it named a build.
func TestModuleVersion(t *testing.T) {
	rev := "9a6a31aa3cf1e37f4e9454070fcc649bc1412c08"
	set := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		name    string
		bi      *debug.BuildInfo
		want    string
		wantSub string
	}{
		{"tag from go install @version", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0", ""},
		{"pseudo-version from go build in a clone", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202070642-9a6a31aa3cf1"},
			Settings: set("vcs", "git", "vcs.revision", rev, "vcs.modified", "false")}, "v0.0.0-20261202070642-9a6a31aa3cf1", ""},
		{"dirty pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202070642-9a6a31aa3cf1+dirty"},
			Settings: set("vcs.revision", rev, "vcs.modified", "true")}, "v0.0.0-20261202070642-9a6a31aa3cf1+dirty", ""},
		{"(devel) with vcs settings", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: set("vcs.revision", rev, "vcs.modified", "true")}, "(devel) commit " + rev + " (modified)", ""},
		{"(devel) without vcs settings", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: set("-buildmode", "exe")}, "", "no commit stamped"},
		{"no build info", nil, "", "no build info"},
	} {
		got := moduleVersion(c.bi)
		if c.want != "" && got != c.want || c.wantSub != "" && !strings.Contains(got, c.wantSub) {
			t.Errorf("%s: %q, want %q%q", c.name, got, c.want, c.wantSub)
		}
		if got == "(devel)" {
			t.Errorf("%s: a bare (devel)", c.name)
		}
	}
}

// cobra's completion command writes a script for each shell the README
// lists.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		code, stdout, stderr := kflowgen(t, "completion", sh)
		if code != 0 || stderr != "" {
			t.Errorf("completion %s: exit %d, stderr %q", sh, code, stderr)
		}
		if len(stdout) < 1000 || !strings.Contains(stdout, "kflowgen") {
			t.Errorf("completion %s: %d bytes, not a script for kflowgen", sh, len(stdout))
		}
	}
	// A shell cobra has no script for is an error naming those it has, not
	// the help and exit 0.
	code, stdout, stderr := kflowgen(t, "completion", "tcsh")
	if code != 1 || stdout != "" || !strings.Contains(stderr, `"tcsh"`) || !strings.Contains(stderr, "bash, fish, powershell, zsh") {
		t.Errorf("completion tcsh: exit %d, stdout %.80q, stderr %q; want exit 1 naming the shells", code, stdout, stderr)
	}
	if code, stdout, _ := kflowgen(t, "completion"); code != 0 || !strings.Contains(stdout, "bash") {
		t.Errorf("completion alone: exit %d, %.80q; want its help", code, stdout)
	}
}

// Completion of sim's and figure's FILE and --scenario, through cobra's
// hidden __complete command that the shell scripts call: --scenario lists
// the ids of the page given, built-in guide pages included, with their
// titles; FILE lists local pages, scenarios and folders, then the guide's
// pages.
func TestCompleteScenario(t *testing.T) {
	complete := func(args ...string) []string {
		t.Helper()
		code, stdout, _ := kflowgen(t, append([]string{"__complete"}, args...)...)
		if code != 0 {
			t.Fatalf("__complete %q: exit %d", args, code)
		}
		return strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	}
	ids := func(lines []string) string {
		var out []string
		for _, l := range lines {
			id, _, _ := strings.Cut(l, "\t")
			out = append(out, id)
		}
		return strings.Join(out, " ")
	}
	// This folder has no acks.md: the built-in guide's page.
	if got, want := ids(complete("sim", "acks.md", "--scenario", "")), "acks-one-loss acks-zero acks-one acks-all :4"; got != want {
		t.Errorf("sim acks.md --scenario: got %q, want %q", got, want)
	}
	if got, want := ids(complete("figure", "acks.md", "--scenario", "acks-z")), "acks-zero :4"; got != want {
		t.Errorf("figure acks.md --scenario acks-z: got %q, want %q", got, want)
	}
	if got := complete("sim", "acks.md", "--scenario", "acks-all"); !strings.HasPrefix(got[0], "acks-all\tacks=all, min.insync.replicas=2") {
		t.Errorf("no title with the id: %q", got)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "mine.md"), "---\ntitle: Mine\n---\n\n```kflow\nid: first\n```\n\n```kflow\nid: broken\nbrokers: x\n```\n\n```kflow\nid: second\ntitle: Second one\n```\n")
	write(t, filepath.Join(dir, "one.yaml"), "id: bare\n")
	write(t, filepath.Join(dir, "sub", "x.md"), "")
	write(t, filepath.Join(dir, "notes.txt"), "")
	if got, want := ids(complete("sim", filepath.Join(dir, "mine.md"), "--scenario", "")), "first second :4"; got != want {
		t.Errorf("a local page: got %q, want %q (a fence that does not parse is left out)", got, want)
	}
	if got, want := ids(complete("sim", filepath.Join(dir, "one.yaml"), "--scenario", "")), "bare :4"; got != want {
		t.Errorf("a bare scenario: got %q, want %q", got, want)
	}
	d := filepath.ToSlash(dir) + "/"
	if got, want := ids(complete("sim", d)), d+"mine.md "+d+"one.yaml "+d+"sub/ :6"; got != want {
		t.Errorf("FILE in a folder: got %q, want %q (no .txt; a folder without a space after it)", got, want)
	}
	got := complete("figure", "share")
	if ids(got) != "share-group.md :4" || !strings.Contains(got[0], "\tShare group (built-in guide)") {
		t.Errorf("FILE naming a guide page: got %q", got)
	}
}

// This package's folder has no acks.md, so sim reads the guide's own,
// and says so; a name the guide does not have is still an error, and
// names the pages it could have read.
func TestSimGuidePage(t *testing.T) {
	code, stdout, stderr := kflowgen(t, "sim", "acks.md", "--scenario", "acks-one-loss")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "there is no file acks.md here: reading the page of the guide built into kflowgen") {
		t.Errorf("stderr %q does not say the page is the built-in guide's", stderr)
	}
	if !strings.Contains(stdout, `"id": "acks-one-loss"`) {
		t.Errorf("stdout is not the trace of acks-one-loss: %.200s", stdout)
	}
	// The error for a name the guide lacks lists the pages it has.
	if code, _, stderr := kflowgen(t, "sim", "no-such-page.md"); code != 1 || !strings.Contains(stderr, "no such file") ||
		!strings.Contains(stderr, "whose pages are ") || !strings.Contains(stderr, "acks.md, ") {
		t.Errorf("sim no-such-page.md: exit %d, stderr %q", code, stderr)
	}
}

// build --templates reads the layouts and assets from the folder, as
// serve --templates does.
func TestBuildTemplates(t *testing.T) {
	tdir := templatesFolder(t, func(name string, b []byte) []byte {
		if name == "site.css" {
			b = append(b, "\n.from-the-templates-folder { color: red }\n"...)
		}
		return b
	})
	dir := t.TempDir()
	write(t, filepath.Join(dir, "content", "a.md"), "---\ntitle: A\n---\n\nText.\n")
	out := filepath.Join(dir, "out")
	code, _, stderr := kflowgen(t, "build", "--content", filepath.Join(dir, "content"), "--templates", tdir, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	css, err := os.ReadFile(filepath.Join(out, "assets", "site.css"))
	if err != nil {
		t.Fatal(err)
	}
	// The rule arrives minified, as every stylesheet does.
	if !strings.HasSuffix(string(css), ".from-the-templates-folder{color:red}") {
		t.Error("assets/site.css is not the templates folder's")
	}
	if code, _, stderr := kflowgen(t, "build", "--content", filepath.Join(dir, "content"), "--templates", filepath.Join(dir, "none"), "--out", out); code != 1 || !strings.Contains(stderr, "templates folder") {
		t.Errorf("a missing templates folder: exit %d, stderr %q", code, stderr)
	}
	// A folder without layout.html is named with what it lacks, before
	// anything is built.
	if err := os.Remove(filepath.Join(tdir, "layout.html")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := kflowgen(t, "build", "--content", filepath.Join(dir, "content"), "--templates", tdir, "--out", out); code != 1 || !strings.Contains(stderr, "has no layout.html") || strings.Contains(stderr, "pattern matches") {
		t.Errorf("a templates folder without layout.html: exit %d, stderr %q", code, stderr)
	}
}

// TestBuildLayoutWithoutStepper: a layout that never loads stepper.js or
// kf-words.js builds a site whose figures stand still; build writes it,
// exits 0 and warns at the layout, naming the script to add. The same
// layout on a site without figures, and kflowgen's own, say nothing.
func TestBuildLayoutWithoutStepper(t *testing.T) {
	tdir := templatesFolder(t, func(name string, b []byte) []byte {
		if name != "layout.html" {
			return b
		}
		var kept []string
		for _, l := range strings.SplitAfter(string(b), "\n") {
			if !strings.Contains(l, "stepper.js") && !strings.Contains(l, "kf-words.js") {
				kept = append(kept, l)
			}
		}
		return []byte(strings.Join(kept, ""))
	})
	dir := t.TempDir()
	write(t, filepath.Join(dir, "figures", "a.md"), "---\ntitle: A\n---\n\n```kflow\nid: one\n```\n")
	write(t, filepath.Join(dir, "plain", "a.md"), "---\ntitle: A\n---\n\nText.\n")
	out := filepath.Join(dir, "out")
	code, _, stderr := kflowgen(t, "build", "--content", filepath.Join(dir, "figures"), "--templates", tdir, "--out", out)
	lay := filepath.ToSlash(tdir) + "/layout.html:1:1: "
	for _, script := range []string{"stepper.js", "kf-words.js"} {
		want := "kflowgen: warning: " + lay + "this layout never loads " + script + ", so the figures stand still at their poster beat"
		if code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr:\n%s\nwant a warning %q", code, stderr, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "a.html")); err != nil {
		t.Errorf("the site was not written: %v", err)
	}
	if code, _, stderr := kflowgen(t, "build", "--content", filepath.Join(dir, "plain"), "--templates", tdir, "--out", out); code != 0 || stderr != "" {
		t.Errorf("a site without figures: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := kflowgen(t, "build", "--content", filepath.Join(dir, "figures"), "--out", out); code != 0 || stderr != "" {
		t.Errorf("kflowgen's own layout: exit %d, stderr %q", code, stderr)
	}
}

// templatesFolder writes kflowgen's own templates into a fresh folder,
// each file as edit returns it, and returns the folder.
func templatesFolder(t *testing.T, edit func(name string, b []byte) []byte) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := fs.ReadDir(templates.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(templates.FS, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, e.Name()), string(edit(e.Name(), b)))
	}
	return dir
}

// TestShellQuote: the folder kflowgen new prints in its hints reads back,
// through a POSIX shell, as the folder it was given.
func TestShellQuote(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	for _, dir := range []string{"site", "/tmp/a b/ü", "it's", `$HOME "x" \y`, "a;rm -rf b", "-n", "~user"} {
		q := shellQuote(dir)
		out, err := exec.Command(sh, "-c", "printf %s "+q).Output()
		if err != nil || string(out) != dir {
			t.Errorf("shellQuote(%q) = %s, which sh reads as %q (%v)", dir, q, out, err)
		}
	}
	if q := shellQuote("content/ops"); q != "content/ops" {
		t.Errorf("a plain folder came back quoted: %s", q)
	}
}
