package catalog

// Limits of the Agent Skills specification, in characters (code points).
const (
	MaxNameChars          = 64
	MaxDescriptionChars   = 1024
	MaxCompatibilityChars = 500
)
