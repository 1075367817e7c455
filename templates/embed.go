// Package templates holds the site's page layouts and shared assets,
// embedded so that kflowgen works from any folder:
//
//   - layout.html renders one guide page, and each folder section's index
//     page (html/template; data: the site package's layoutData — title,
//     rendered content, table of contents, the sections and the current
//     section's pages, prev/next links, relative asset prefix);
//   - index.html renders the home page listing the root section's pages
//     and the other sections;
//   - site.css styles the pages; figure.css styles the animated figures
//     (owned by the renderer, package svganim, which also holds the
//     stepper script that drives them: svganim.StepperJS);
//   - favicon.svg is the pages' icon.
//
// Every *.css, *.js and *.svg file here (and in a folder that overrides
// this one) is copied into the built site's assets/ folder; a stepper.js
// there replaces svganim's. Links in the templates are relative, so a built site works from
// any sub-path and from file://.
package templates

import "embed"

// FS holds layout.html, index.html and the assets (*.css, *.svg).
//
//go:embed *.html *.css *.svg
var FS embed.FS
