package site

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b in one step (renamex_np(2) with
// RENAME_SWAP). It returns errNoExchange when the file system cannot.
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}
