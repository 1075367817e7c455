package site

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b in one step (renameat2(2) with
// RENAME_EXCHANGE): at every instant each name holds one of the two. It
// returns errNoExchange when the kernel or the file system cannot.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}
