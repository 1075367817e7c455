package sim

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// EscapeName returns a file name fit to print in an error line: every
// character that is not printable (strconv.IsPrint: control characters
// such as a newline or an escape, line and paragraph separators, format
// characters such as bidirectional overrides and zero-width spaces, spaces
// other than ' ') is written as its Go escape ("\n", "\x1b", "\u202e"), and
// every byte that is not UTF-8 as "\xNN". So a name cannot start a line of
// its own or forge another file's error, and a name that prints the same
// as another is told apart. A name with none of these is returned as is.
func EscapeName(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&15, 16))
		case strconv.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// BidiControl reports whether r is one of Unicode's explicit
// bidirectional formatting characters (U+202A–U+202E embeddings and
// overrides, U+2066–U+2069 isolates): in a title or a label they make
// text display in another order than it is written (the "Trojan Source"
// trick, CVE-2021-42574), and right-to-left scripts need none of them.
func BidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
