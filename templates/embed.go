// Package templates holds the site's page layouts and shared assets,
// embedded so that kflowgen works from any folder:
//
//   - layout.html renders one guide page (html/template; data: the site
//     package's layoutData — title, rendered content, table of contents,
//     prev/next links, relative asset prefix);
//   - index.html renders the home page listing every page in order;
//   - site.css styles the pages; figure.css and stepper.js style and drive
//     the animated figures (owned by the renderer, package svganim);
//   - favicon.svg is the pages' icon.
//
// Every *.css, *.js and *.svg file here is copied into the built site's
// assets/ folder. Links in the templates are relative, so a built site works from
// any sub-path and from file://.
package templates

import "embed"

// FS holds layout.html, index.html and the assets (*.css, *.js, *.svg).
//
//go:embed *.html *.css *.js *.svg
var FS embed.FS
