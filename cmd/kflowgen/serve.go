package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/kafkaflow/kflowgen/serve"
	"github.com/spf13/cobra"
)

// serveOptions are the flags of `kflowgen serve`.
type serveOptions struct {
	// contentDir is the folder of pages; "" means ./content when it exists,
	// else the embedded guide (which cannot be watched).
	contentDir string
	// templatesDir is the folder of templates; "" means ./templates when it
	// holds layout.html, else the embedded templates.
	templatesDir string
	// outDir, when set, also receives every good build.
	outDir string
	// bind and port form the listening address; port 0 picks a free one.
	bind string
	port int
}

// defaultTemplatesDir is the templates folder used when --templates is not
// given and it holds layout.html (as in a checkout of this repository).
const defaultTemplatesDir = "templates"

func newServeCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the guide, rebuild on every save and reload open pages",
		Long: "serve builds the guide in memory, serves it over HTTP on\n" +
			"127.0.0.1 and watches the content (and templates) folders. Every save rebuilds the\n" +
			"site, reusing the results of unchanged scenarios, and reloads the open pages whose\n" +
			"output changed, keeping each figure's beat and the scroll position. A save that does\n" +
			"not build keeps the last good site and shows the errors (file:line:col, the lines\n" +
			"around them, the message) over every page until the next good save.\n" +
			"public/ is never touched unless --out names it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd, o, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.contentDir, "content", "", "folder of Markdown pages (default ./content if it exists, else the built-in guide)")
	f.StringVar(&o.templatesDir, "templates", "", "folder of layouts and assets (default ./templates if it holds layout.html, else the built-in ones)")
	f.StringVar(&o.outDir, "out", "", "also write every good build to this folder (replaced like build's --out)")
	f.StringVar(&o.bind, "bind", "127.0.0.1", "address to listen on; anything but loopback makes the site reachable from other machines")
	f.IntVar(&o.port, "port", 1313, "port to listen on (0 picks a free one)")
	return cmd
}

// runServe serves until the command's context is cancelled or the process
// gets Ctrl-C (SIGINT) or SIGTERM.
func runServe(cmd *cobra.Command, o *serveOptions, stdout, stderr io.Writer) error {
	if o.port < 0 || o.port > 65535 {
		return fmt.Errorf("--port %d is not a port (0 to 65535; 0 picks a free one)", o.port)
	}
	loopback, err := isLoopback(o.bind)
	if err != nil {
		return err
	}
	src, dir, err := contentSource(o.contentDir)
	if err != nil {
		return err
	}
	tdir, err := templatesSource(o.templatesDir)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", net.JoinHostPort(o.bind, strconv.Itoa(o.port)))
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("cannot listen on %s: the port is in use (is another kflowgen serve running? --port 0 picks a free port)", net.JoinHostPort(o.bind, strconv.Itoa(o.port)))
		}
		if errors.Is(err, syscall.EADDRNOTAVAIL) {
			return fmt.Errorf("cannot listen on %s: %s is not an address of this machine (--bind takes one of its own addresses, such as 127.0.0.1, or 0.0.0.0 for all of them)", net.JoinHostPort(o.bind, strconv.Itoa(o.port)), o.bind)
		}
		if errors.Is(err, syscall.EACCES) {
			return fmt.Errorf("cannot listen on %s: permission denied (ports below 1024 need privileges; use --port 1313, or --port 0 for a free one)", net.JoinHostPort(o.bind, strconv.Itoa(o.port)))
		}
		return fmt.Errorf("cannot listen on %s: %w", net.JoinHostPort(o.bind, strconv.Itoa(o.port)), err)
	}
	s, err := serve.New(serve.Options{ContentDir: dir, Content: src, ContentName: contentName(o.contentDir),
		TemplatesDir: tdir, OutDir: o.outDir, LocalOnly: loopback, Log: stdout, Errors: stderr})
	if err != nil {
		ln.Close()
		return err
	}
	defer s.Close()

	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(stdout, "serving %s at %s\n", describeSource(dir), url)
	if !s.Built() {
		fmt.Fprintln(stdout, "the site does not build yet: pages show the errors until a save fixes them")
	}
	switch {
	case !s.Watching():
		fmt.Fprintln(stdout, "this is the guide built into kflowgen, which cannot change: nothing is watched (pass --content DIR to edit pages)")
	case dir == "":
		fmt.Fprintf(stdout, "watching %s for changes (the pages are the guide built into kflowgen, which cannot change; pass --content DIR to edit pages)\n", slashDir(tdir))
	case tdir != "":
		fmt.Fprintf(stdout, "watching %s and %s for changes\n", slashDir(dir), slashDir(tdir))
	default:
		fmt.Fprintf(stdout, "watching %s for changes (the templates are the built-in ones)\n", slashDir(dir))
	}
	if !loopback {
		fmt.Fprintf(stdout, "note: --bind %s makes the site reachable from other machines\n", o.bind)
	}
	fmt.Fprintln(stdout, "press Ctrl-C to stop")

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := s.Run(ctx, ln); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "stopped")
	return nil
}

// isLoopback checks the --bind address: a host name or IP address, and
// whether it is loopback.
func isLoopback(bind string) (bool, error) {
	if bind == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(bind)
	if ip == nil {
		return false, fmt.Errorf("--bind %q is not an IP address (use 127.0.0.1, ::1, or 0.0.0.0 for every interface)", bind)
	}
	return ip.IsLoopback(), nil
}

// templatesSource returns the templates folder to read and watch: the one
// given, ./templates when it holds layout.html, or "" for the embedded
// templates.
func templatesSource(flag string) (string, error) {
	if flag == "" {
		if st, err := os.Stat(filepath.Join(defaultTemplatesDir, "layout.html")); err == nil && st.Mode().IsRegular() {
			return defaultTemplatesDir, nil
		}
		return "", nil
	}
	st, err := os.Stat(flag)
	if err != nil {
		return "", fmt.Errorf("templates folder %s: %w", slashDir(flag), errors.Unwrap(err))
	}
	if !st.IsDir() {
		return "", fmt.Errorf("templates folder %s is not a folder", flag)
	}
	// Both templates are needed (site.Generate parses them together);
	// saying which is missing beats text/template's "pattern matches no
	// files".
	for _, name := range []string{"layout.html", "index.html"} {
		if st, err := os.Stat(filepath.Join(flag, name)); err != nil || !st.Mode().IsRegular() {
			return "", fmt.Errorf("templates folder %s has no %s: a templates folder must hold layout.html (every page), index.html (the home page) and the assets they load, as kflowgen's own templates/ folder does", slashDir(flag), name)
		}
	}
	return flag, nil
}

// describeSource names what is served, for the first line of output.
func describeSource(contentDir string) string {
	if contentDir == "" {
		return "the built-in guide"
	}
	return slashDir(contentDir)
}

// slashDir prints a folder as the user typed it, with a trailing slash.
func slashDir(dir string) string {
	return filepath.ToSlash(filepath.Clean(dir)) + "/"
}
