package svganim

import (
	"strings"
	"unicode/utf8"
)

// The figure's markup is written by hand rather than through html/template:
// the package is also the playground's renderer (compiled to WebAssembly),
// and html/template, with text/template's reflection behind it, was about a
// third of that module's bytes. The escapers below keep, byte for byte, the
// rules the template applied, which the tests check against html/template
// and encoding/json themselves.

// escapeText escapes s for an HTML text node or a quoted attribute the way
// html/template escapes a plain string in those contexts: NUL becomes
// U+FFFD; " & ' + < > become &#34; &amp; &#39; &#43; &lt; &gt;; every
// other byte, invalid UTF-8 included, is kept.
func escapeText(s string) string { return escapeWith(s, true) }

// escapeCaption escapes s as text/template's HTMLEscapeString does (what
// the captions and panel names have always used): as escapeText, except
// that '+' is kept.
func escapeCaption(s string) string { return escapeWith(s, false) }

func escapeWith(s string, plus bool) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case 0:
			r = "\uFFFD"
		case '"':
			r = "&#34;"
		case '&':
			r = "&amp;"
		case '\'':
			r = "&#39;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		case '+':
			if !plus {
				continue
			}
			r = "&#43;"
		default:
			continue
		}
		if last == 0 {
			b.Grow(len(s) + 8)
		}
		b.WriteString(s[last:i])
		b.WriteString(r)
		last = i + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// appendJSONString appends s as a JSON string the way encoding/json's
// Marshal writes one (HTML-safe): " and \ escaped, \b \f \n \r \t by their
// short forms and other bytes below 0x20 as \u00XX, < > & as \u003c \u003e
// \u0026, U+2028 and U+2029 as \u2028 and \u2029, and each byte of invalid
// UTF-8 as \ufffd. s may be a string or bytes (a variant's markup, which
// is not copied into a string first).
func appendJSONString[S ~string | ~[]byte](b []byte, s S) []byte {
	b = append(b, '"')
	b = appendJSONChars(b, s)
	return append(b, '"')
}

// appendJSONChars appends s escaped as appendJSONString escapes it, without
// the quotes: a JSON string written in pieces, each split from the next
// between two whole runes, is the pieces' chars between one pair of quotes.
func appendJSONChars[S ~string | ~[]byte](b []byte, s S) []byte {
	return appendEscaped(b, s, &jsonPlain)
}

// appendScriptChars appends s as appendJSONChars does but with < > & as
// they are: the chars of a JSON string in a script file of its own (a
// variant's, KnobAsset), where no HTML parser looks for "</script>", so
// that the markup's every tag is not six bytes longer (the varied
// 288-page site's variant scripts: 11.5 MB with them escaped).
func appendScriptChars[S ~string | ~[]byte](b []byte, s S) []byte {
	return appendEscaped(b, s, &scriptPlain)
}

// appendEscaped is appendJSONChars with plain saying which ASCII bytes
// are written as they are.
func appendEscaped[S ~string | ~[]byte](b []byte, s S, plain *[utf8.RuneSelf]bool) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		// A rune is at most utf8.UTFMax bytes: decoded from a copy of
		// them, so that bytes are not converted to a string.
		var rb [utf8.UTFMax]byte
		r, n := utf8.DecodeRune(rb[:copy(rb[:], s[i:])])
		if r == utf8.RuneError && n == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += n
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += n
			start = i
			continue
		}
		i += n
	}
	return append(b, s[start:]...)
}

// jsonPlain says which ASCII bytes appendJSONString writes as they are:
// every printable one but " \ < > &. A table, as the loop over a
// figure's markup (every variant's script is one JSON string of it) tests
// each byte.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// scriptPlain is jsonPlain with < > & plain (appendScriptChars).
var scriptPlain = func() (t [utf8.RuneSelf]bool) {
	t = jsonPlain
	t['<'], t['>'], t['&'] = true, true, true
	return t
}()
