package site

import (
	"bytes"
	"fmt"

	"github.com/tdewolff/minify/v2/css"
)

// minifyCSS returns a stylesheet of the templates folder as the site
// serves it: minified by tdewolff/minify's CSS minifier, which drops the
// comments and the whitespace the browser does not need and keeps every
// rule. Every page that draws a figure loads site.css and figure.css
// before it paints, and their comments, written for the people who edit
// them, were more than a third of those bytes (site.css with figure.css,
// gzip: 7,183 B as written, 4,521 B minified). The files in templates/
// stay as written. A stylesheet the minifier cannot read is an error
// naming the file.
func minifyCSS(name string, b []byte) ([]byte, error) { return MinifyCSS(name, b) }

// MinifyCSS is the stylesheet b, named name in errors, as the site serves
// it (minifyCSS), for the files that inline it (kflowgen figure).
func MinifyCSS(name string, b []byte) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(len(b))
	if err := css.Minify(nil, &out, bytes.NewReader(b), nil); err != nil {
		return nil, fmt.Errorf("templates: %s: %w", name, err)
	}
	return out.Bytes(), nil
}
