// Kafka Flow's change to go.yaml.in/yaml/v3 v3.0.6 (see README.md): the
// two package-level regular expressions upstream compiles at init,
// yamlStyleFloat in resolve.go and base60float in encode.go, are replaced
// by the hand-written matchers below, which accept exactly the same
// strings. With no regexp left, a program that imports this package does
// not link regexp, regexp/syntax and the Unicode tables they pull in,
// which is what keeps the playground's WebAssembly module in its size
// budget. matchers_test.go checks each matcher against its regexp.

package yaml

// isDigit reports whether c is an ASCII digit, [0-9].
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skipDigits returns the index of the first byte at or after i in s that
// is not an ASCII digit, or len(s).
func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// skipDigitsUnderscores is skipDigits for [0-9_].
func skipDigitsUnderscores(s string, i int) int {
	for i < len(s) && (isDigit(s[i]) || s[i] == '_') {
		i++
	}
	return i
}

// isYAMLStyleFloat reports whether s matches upstream's yamlStyleFloat,
//
//	^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
//
// The two alternatives of the mantissa differ in their first byte, and
// every repetition is followed by a byte it cannot take, so reading
// greedily from left to right never has to back up.
func isYAMLStyleFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		j := skipDigits(s, i+1)
		if j == i+1 {
			return false // \.[0-9]+ wants a digit
		}
		i = j
	} else {
		j := skipDigits(s, i)
		if j == i {
			return false // [0-9]+ wants a digit
		}
		i = j
		if i < len(s) && s[i] == '.' {
			i = skipDigits(s, i+1)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return false // the exponent wants a digit
		}
		i = j
	}
	return i == len(s)
}

// matchBase60Float reports whether s matches upstream's base60float,
//
//	^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
//
// which upstream took from http://yaml.org/type/float.html, noting that
// in practice parsers do not enforce the "\.[0-9_]*" suffix. After each
// ':' the group [0-5]?[0-9] takes one digit or two, the first of two at
// most 5; what may follow a group (':', '.', the end) is never a digit, so
// the run of digits after a ':' must be exactly that long.
func matchBase60Float(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i >= len(s) || !isDigit(s[i]) {
		return false
	}
	i = skipDigitsUnderscores(s, i+1)
	groups := 0
	for i < len(s) && s[i] == ':' {
		j := skipDigits(s, i+1)
		switch n := j - (i + 1); {
		case n == 1:
		case n == 2 && s[i+1] <= '5':
		default:
			return false
		}
		groups++
		i = j
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i = skipDigitsUnderscores(s, i+1)
	}
	return i == len(s)
}
