// Package site is Kafka Flow's build pipeline: it turns a folder of
// Markdown pages with ```kflow scenario fences into a static site whose
// figures are animations computed at build time.
//
// # Pipeline
//
// Generate runs these steps, each in a fixed order so that the output never
// depends on timing:
//
//  1. walk the content fs.FS for *.md files in lexical order (names starting
//     with "." or "_" are skipped, but for _index.md) and sort them into
//     sections (Section): the content folder's own pages, and one section
//     per folder directly under it, each with its index page (index.md or
//     _index.md, the top of the section's index page instead of a page of
//     its own; the root's is the home page);
//  2. parse each page with goldmark: YAML front matter (title required,
//     weight, summary; anything else is an error with a "did you mean"
//     hint) through go.abhg.dev/goldmark/frontmatter, and the
//     FenceExtension, whose transformer swaps every ```kflow fenced block
//     for a figure node and remembers where the fence body sits in the file;
//  3. because goldmark transformers cannot return errors, a pass of our own
//     then sends every fence through package fence, the pure path from
//     fence text to figure shared with serve, bench and kflowgen sim: each
//     fence is looked up in the cache or parsed once (fence.Parse), the
//     site's limits are checked on those parses, and each fence within
//     them is run, checked against its expect: entries and the engine's
//     invariants on every beat, and drawn (Parsed.Run, Result.Draw),
//     spread over GOMAXPROCS workers; each result is attached to its
//     fence's node;
//  4. if anything went wrong anywhere, Generate returns every problem as a
//     sim.ErrorList sorted by file, line and column — nothing is written;
//  5. otherwise each page is rendered (the figure node's renderer writes the
//     precomputed <figure>; headings get ids and "#" anchors) into
//     templates' layout.html, with the list of sections (when there are
//     several), its own section's pages and prev/next links within the
//     section; each folder section's index page lists its pages;
//     index.html, the home page, lists the root section's pages and the
//     sections; the *.css and *.js assets are copied into assets/, and
//     every other file of the content folder (an image beside its page)
//     to its own path (staticFiles).
//
// Links between pages may name the source file ("acks.md", "../ops/isr.md",
// relative to the linking page), the output page ("acks.html", relative
// to the linking page's output file) or a section's folder ("ops/",
// written as a link to its index page); the build rewrites the first and
// the last kind. Every other relative link and image source must name a
// file the site publishes: the build fails, at the link, on any relative
// link that names nothing (resolveLinks). Links with a scheme
// ("https:", "mailto:") and "//host" links are not checked.
//
// Pages are ordered within their section by (front matter weight, title,
// path), and sections by their index page's (weight, title), then folder,
// the root section first. A page's output file is its name in lower case
// with every run of characters other than letters and digits (of any
// script: "Café.md" → "café.html") one '-', plus ".html", inside its
// section's folder likewise named (index.html, NAME.html,
// SECTION/index.html, SECTION/NAME.html, assets/); its slug, the prefix of
// its figures' DOM ids, is its whole path reduced to [a-z0-9-]
// ("ops/isr.md" → "ops-isr"; ids need only be unique within a page), and a figure's DOM id is the slug,
// "--", and the scenario's id (FigureID). All links are relative, so a
// site works from any sub-path and from file://.
//
// # Positions
//
// The scenario parser reports positions relative to the fence body; the
// pipeline adds the fence's place in the file (front matter included) and,
// for a fence indented inside a list or quote, the indentation, giving
// go/scanner-style "content/acks.md:14:9: message" errors.
//
// # Writing
//
// Site.WriteDir writes a generated site atomically: into a fresh folder next
// to the output folder, then swapped in by two renames, so a failed build
// leaves the previous output untouched. It refuses output folders that
// would destroy work (the content folder, the current folder, a module root,
// any parent of those, a folder holding go.mod or .git) and replaces an
// existing folder only when it is empty or holds exactly the files that the
// previous build listed in its Marker file.
//
// # Reuse
//
// Generate works on any fs.FS and keeps the site in memory (Site.Files), so
// a watch-mode server can rebuild, compare pages and serve without touching
// the disk. Options.Cache keeps each fence's result, keyed by CacheKey
// (engine version, page slug and fence text), so unchanged fences are not
// simulated again; a hit yields exactly the bytes of a miss.
package site
