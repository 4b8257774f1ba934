package trace

import "github.com/skillopt/skillopt/capture"

// Redact replaces the credentials in s that skillopt recognises anywhere
// (see capture.RedactText): tool arguments and model output may carry keys
// and tokens that a timeline must not print.
func Redact(s string) string { return capture.RedactText(s) }
