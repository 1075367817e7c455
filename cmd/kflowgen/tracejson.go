package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// writeIndentedJSON writes v (a struct) exactly as json.MarshalIndent(v,
// "", "  ") would, followed by a newline, but one element of each
// top-level list at a time: the memory it needs is one element's JSON (a
// beat of a trace), not the whole document (a trace at the scenario limits
// is hundreds of megabytes of JSON). A struct that marshals itself, or a
// value that is not a struct, is marshalled whole.
func writeIndentedJSON(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if _, self := v.(json.Marshaler); self || rv.Kind() != reflect.Struct {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
		return bw.Flush()
	}
	rt := rv.Type()
	first := true
	bw.WriteByte('{')
	for i := range rt.NumField() {
		f := rt.Field(i)
		if !f.IsExported() || f.Anonymous {
			if f.Anonymous {
				return errors.New("writeIndentedJSON: embedded fields are not supported")
			}
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fv := rv.Field(i)
		if strings.Contains(","+opts+",", ",omitempty,") && emptyValue(fv) {
			continue
		}
		if !first {
			bw.WriteByte(',')
		}
		first = false
		key, _ := json.Marshal(name)
		fmt.Fprintf(bw, "\n  %s: ", key)
		if fv.Kind() == reflect.Slice && !fv.IsNil() && fv.Len() > 0 && fv.Type().Elem().Kind() != reflect.Uint8 {
			bw.WriteByte('[')
			for j := range fv.Len() {
				if j > 0 {
					bw.WriteByte(',')
				}
				b, err := json.MarshalIndent(fv.Index(j).Interface(), "    ", "  ")
				if err != nil {
					return err
				}
				bw.WriteString("\n    ")
				bw.Write(b)
			}
			bw.WriteString("\n  ]")
			continue
		}
		b, err := json.MarshalIndent(fv.Interface(), "  ", "  ")
		if err != nil {
			return err
		}
		bw.Write(b)
	}
	if !first {
		bw.WriteByte('\n')
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// emptyValue is encoding/json's test for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// errTooMuch stops a countingWriter.
var errTooMuch = errors.New("over the limit")

// countingWriter counts what passes, refusing to pass more than limit.
type countingWriter struct {
	n, limit int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	if c.n > c.limit {
		return 0, errTooMuch
	}
	return len(p), nil
}
