package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/spf13/cobra"
)

// starterPage is the file `kflowgen new` writes into the new folder.
const starterPage = "first-figure.md"

// starterText is a page with one figure, every key it uses explained on
// its line: enough to build at once and to start editing from. The full
// list of keys is the guide's reference page (content/reference.md).
const starterText = "---\n" +
	"title: My first figure     # the page's one level-1 heading, at most 120 characters\n" +
	"weight: 10                 # orders the pages: lower comes first\n" +
	"summary: A leader fails after answering acks=1.   # shown under the title on the home page\n" +
	"---\n" +
	"\n" +
	"A fenced block whose info string is `kflow` is one scenario, simulated when\n" +
	"the site is built and drawn as an animated figure. Every key has a default,\n" +
	"so a scenario can be a few lines; time settings count beats and drop\n" +
	"Kafka's `.ms` suffix. Link to a beat of the figure like\n" +
	"[this](#first-loss@5).\n" +
	"\n" +
	"```kflow\n" +
	"id: first-loss                     # unique on the page; links name it (#first-loss@5)\n" +
	"title: acks=1, then the leader fails   # shown above the figure\n" +
	"brokers: 3                         # brokers at beat 0, numbered 1, 2, 3 (at most 9)\n" +
	"topic:                             # the one topic every scenario has\n" +
	"  partitions: 1                    # partitions of the one topic (1-12)\n" +
	"  replication.factor: 3            # copies of each partition, the leader's included\n" +
	"  min.insync.replicas: 1           # the ISR size below which acks=all writes are refused\n" +
	"producer:                          # the one producer\n" +
	"  acks: 1                          # answer once the leader has appended (0, 1 or all)\n" +
	"  max.in.flight.requests.per.connection: 5   # produce requests awaiting an answer at once\n" +
	"  records: 6                       # how many records the producer creates (1-500)\n" +
	"  keys: [blue, green]              # record keys, used in turn; the key picks the partition\n" +
	"timeline:                          # scheduled events, each at a beat\n" +
	"  - {at: 5, crash: 1}              # broker 1, the leader, stops: no follower has records 2, 3\n" +
	"  - {at: 10, restart: 1}           # and comes back with the log it had\n" +
	"beats: 16                          # how long to simulate; beat 0 is the start\n" +
	"expect:                            # claims checked at build time: a wrong one fails the build\n" +
	"  - {at: 5, partition: 0, leader: 2}\n" +
	"  - {record: 2, outcome: L}        # acknowledged by broker 1, then lost: broker 2 never had it\n" +
	"```\n"

func newNewCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "new DIR",
		Short: "Write a starter content folder: one page with one figure",
		Long: "new creates DIR holding one Markdown page with one ```kflow figure, a comment on\n" +
			"every key it uses, that builds as it is: kflowgen build --content DIR, or\n" +
			"kflowgen serve --content DIR to edit it with live reload. DIR must not exist or be empty.",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runNew(args[0], stdout)
		},
	}
}

// runNew writes the starter folder. It refuses a DIR that holds anything,
// so that it never overwrites a page.
func runNew(dir string, stdout io.Writer) error {
	if dir == "" {
		return errors.New("kflowgen new needs the name of a folder to write the starter into, such as docs")
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("%s is a file, not a folder: kflowgen new writes only into a new or empty folder", sim.EscapeName(dir))
	}
	entries, err := os.ReadDir(dir)
	switch {
	case err == nil && len(entries) > 0:
		return fmt.Errorf("%s is not empty: kflowgen new writes only into a new or empty folder", sim.EscapeName(dir))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot use %s as the starter's folder: %w", sim.EscapeName(dir), unwrapPath(err))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot make the folder %s: %w", sim.EscapeName(dir), unwrapPath(err))
	}
	page := filepath.Join(dir, starterPage)
	// O_EXCL: a page that appeared since the check is not overwritten.
	f, err := os.OpenFile(page, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, starterText); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	arg := shellQuote(filepath.ToSlash(dir))
	fmt.Fprintf(stdout, "wrote %s\nbuild it with: kflowgen build --content %s\nedit it with live reload: kflowgen serve --content %s\n",
		filepath.ToSlash(page), arg, arg)
	return nil
}

// shellQuote writes s so that a POSIX shell reads it back as one word: as
// it is when it holds only letters, digits and "_./-+:,=@%", else in single
// quotes (a quote inside as '\”), so the commands new prints can be pasted
// for a folder named with spaces or other shell characters.
func shellQuote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./-+:,=@%", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// unwrapPath drops the *fs.PathError around an error ("open x: not a
// directory" is "not a directory"), whose operation and path the message
// around it says better.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
