//go:build unix

package site

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockFolder takes an exclusive flock(2) on dir, waiting up to wait for
// another holder, and returns the function that releases it. The lock
// belongs to the open file: the system drops it when the process exits or
// is killed, so a dead writer never holds it. It returns errLocked when
// the wait ran out.
func lockFolder(dir string, wait time.Duration) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	// Counting tries rather than reading the clock keeps the wall clock
	// out of the site package (bench's determinism check).
	const every = 20 * time.Millisecond
	for try := 0; ; try++ {
		err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return func() {
				_ = unix.Flock(fd, unix.LOCK_UN)
				f.Close()
			}, nil
		case errors.Is(err, unix.EINTR):
			continue
		case !errors.Is(err, unix.EWOULDBLOCK):
			f.Close()
			return nil, err
		case time.Duration(try)*every >= wait:
			f.Close()
			return nil, errLocked
		}
		time.Sleep(every)
	}
}
