// Package serve is the edge of Kafka Flow where goroutines, the clock, the
// file system watcher and the network live: it is what `kflowgen serve`
// runs. The build pipeline (package site) and the engine below it stay
// pure; this package drives them again on every save and pushes the result
// to open browser tabs.
//
// # The loop
//
// An author changes a key in a ```kflow fence, saves, and looks. New
// builds the site once; Run then serves it and watches the content folder
// (and the templates folder, when one is given) with fsnotify:
//
//  1. every folder is watched, and folders created later are added as they
//     appear (fsnotify is not recursive);
//  2. events are batched: a rebuild starts once no event has arrived for
//     Options.Quiet (10 ms by default; 50 ms, Options.Unsettled, while a
//     file the events name is missing or empty, as a save is halfway
//     through), or at the latest 500 ms after the first event of a burst; chmod-only events, hidden names and editor
//     temporary files (*.swp, *~, .#*, #*#, 4913, *.tmp, …) are ignored;
//  3. Rebuild runs site.Generate with a cache of scenario results (see
//     below) and swaps the result in as the served "generation": every
//     output file held in memory by path, nothing written to disk (a
//     file unchanged since the previous build is that build's bytes,
//     kept, not copied); the previous generation is dropped once no
//     request is still reading it;
//  4. each open page holds a server-sent event stream (/_kflow/events); it
//     receives "reload" only when the bytes of that very page, or of a
//     shared asset, changed. Before reloading, the page's client script
//     keeps each figure's beat and the scroll position in sessionStorage
//     and restores them after the reload. At most MaxStreams (100)
//     streams are open at once; a page opened past that is served without
//     live reload (its stream is answered 503), so no number of open
//     pages can use up the process's file descriptors.
//
// # Broken edits
//
// When a build fails, the last good generation stays in place. Every open
// page receives a "broken" event carrying an overlay: each error's
// file:line:col, the offending lines of the source with a caret under the
// column, and the message. Pages opened while the build is broken get the
// same overlay in their HTML. The next good build sends "fixed" (or
// "reload" to the pages it changed) and the overlay goes away by itself.
// The errors are printed in the terminal too, one a line, as `kflowgen
// build` prints them.
//
// # What is served
//
// Only files of the current generation, looked up by their output path,
// so no path (encoded ../ included) can reach a file of the disk; names
// with a hidden segment and folders are not served. Content types are set
// from the extension (.html, .css, .js, .svg, .json) with nosniff and
// no-store. The live-reload client (/_kflow/live.js) and the overlay are
// added to HTML responses as they are sent; the files held are byte for
// byte what `kflowgen build` writes.
// With Options.LocalOnly, requests whose Host is not a loopback name are
// refused, which stops DNS-rebinding pages from reading the server.
//
// # The cache
//
// A save usually touches one fence. Scenario results (parse, simulate,
// check, draw) are kept in a site.Cache keyed by site.CacheKey: the engine
// version (EngineVersion), the page slug and the fence's text. A hit
// returns exactly what a miss computed, so a warm build is byte for byte a
// cold one (tested). Results no build has used for a few builds are
// dropped, so a long session does not grow without bound.
//
// # Caller's duties
//
// Call Close when done: it stops the watcher. Run returns when its
// context is cancelled (Ctrl-C in the command), after shutting the HTTP
// server down and ending every event stream.
package serve
