package catalog

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// How frontmatter values are judged: by their YAML tags, as loaders that
// follow YAML 1.2 do ("true" in quotes is a string, yes is not a boolean).

// ResolveAlias follows an alias node to the node it names.
func ResolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; i < 8 && n != nil && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
}

// IsString reports whether a node is a string scalar by its YAML tag.
func IsString(n *yaml.Node) bool { return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!str" }

// IsBool reports whether a node is a YAML 1.2 boolean by its tag: true,
// True, TRUE, false … but not "true", yes, on or 1.
func IsBool(n *yaml.Node) bool { return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!bool" }

// IsNull reports whether a node is absent or a YAML null.
func IsNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// isTrue reports whether a node is the YAML boolean true.
func isTrue(n *yaml.Node) bool { return IsBool(n) && strings.EqualFold(n.Value, "true") }

// YAMLKind names the YAML type of a node for messages: "a string", "an
// integer (42)", "a list" …
func YAMLKind(n *yaml.Node) string {
	switch {
	case IsNull(n):
		return "null"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	}
	switch n.Tag {
	case "!!str":
		return "a string"
	case "!!int":
		return "an integer (" + n.Value + ")"
	case "!!float":
		return "a number (" + n.Value + ")"
	case "!!bool":
		return "a boolean (" + n.Value + ")"
	case "!!timestamp":
		return "a date (" + n.Value + ")"
	}
	return "a " + strings.TrimPrefix(n.Tag, "!") + " value"
}

// QuotedValue is the value of a string scalar, quoted and after a space,
// for messages that name a value's type ("a string \"true\""); "" for any
// other node.
func QuotedValue(n *yaml.Node) string {
	if n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return fmt.Sprintf(" %q", n.Value)
	}
	return ""
}
