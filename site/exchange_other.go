//go:build !linux && !darwin

package site

// exchange is not available here: WriteDir renames twice.
func exchange(a, b string) error { return errNoExchange }
