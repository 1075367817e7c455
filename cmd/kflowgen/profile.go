package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile starts Go's CPU profiler writing to path, for the
// --cpuprofile flag of build and bench. An empty path profiles nothing. The
// returned stop ends the profile and closes the file; its error, or the
// create's, is prefixed "cpu profile:".
func startCPUProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		return nil
	}, nil
}
