// Package content is Kafka Flow's concept guide: one Markdown page per
// concept, each with YAML front matter (title, weight, optional summary)
// and ```kflow fences whose scenarios become animated figures. It is
// embedded so that `kflowgen build` run outside the repository (no
// ./content folder) still builds the guide.
package content

import "embed"

// FS holds every page of the guide (*.md at the top of this folder).
//
//go:embed *.md
var FS embed.FS
