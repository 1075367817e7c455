//go:build !unix

package site

import "time"

// lockFolder does nothing where flock(2) does not exist: two writers into
// one folder are not kept apart there.
func lockFolder(dir string, wait time.Duration) (func(), error) {
	return func() {}, nil
}
