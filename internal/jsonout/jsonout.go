// Package jsonout writes the JSON output of the commands: indented,
// without HTML escaping, with a last top-level field "config" naming the
// configuration file in use, and with the runes a terminal would act on
// escaped (see escape.JSON).
package jsonout

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/skillopt/skillopt/internal/escape"
)

// Encode encodes v, which must encode as a JSON object, indented and
// without HTML escaping, with a last top-level field "config" naming the
// configuration file at configPath ("" for the built-in defaults: null).
func Encode(v any, configPath string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return WithConfig(b.Bytes(), configPath), nil
}

// WithConfig adds the "config" field to an indented JSON object, and
// escapes the runes a terminal would act on that JSON leaves raw (see
// escape.JSON). What is not an object is only escaped.
func WithConfig(obj []byte, configPath string) []byte {
	return escape.JSON(addConfig(obj, configPath))
}

// ConfigField is the "config" member that JSON output ends with.
func ConfigField(configPath string) string {
	var path any
	if configPath != "" {
		path = configPath
	}
	var v bytes.Buffer
	enc := json.NewEncoder(&v)
	enc.SetEscapeHTML(false)
	enc.Encode(path)
	return `"config": ` + strings.TrimSuffix(v.String(), "\n")
}

func addConfig(obj []byte, configPath string) []byte {
	field := ConfigField(configPath)
	t := bytes.TrimRight(obj, "\n")
	switch {
	case bytes.Equal(t, []byte("{}")):
		return []byte("{\n  " + field + "\n}\n")
	case bytes.HasPrefix(t, []byte("{")) && bytes.HasSuffix(t, []byte("\n}")):
		out := append([]byte{}, t[:len(t)-2]...)
		return append(out, ",\n  "+field+"\n}\n"...)
	}
	return obj
}
