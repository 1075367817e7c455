package site

import "errors"

// errLocked says another writer held the output lock for the whole wait.
var errLocked = errors.New("locked by another writer")

// errNoExchange says the system or file system cannot exchange two
// folders in one step; WriteDir then renames twice.
var errNoExchange = errors.New("no atomic exchange of folders here")
