package trace

import (
	"regexp"
	"strings"
)

// Credentials that can turn up in tool arguments and model output, by
// shape: provider API keys, access tokens, JWTs, and the value after a
// secret-sounding name.
var secretShapes = []*regexp.Regexp{
	regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{16,}`),
	regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`),
	regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{20,}`),
	regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9\-]{10,}`),
	regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`),
	regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}`),
	regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`),
	regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+[A-Za-z0-9._~+/\-]{12,}=*`),
}

var secretAssignment = regexp.MustCompile(`(?i)\b([A-Za-z0-9_\-]*(?:api[_\-]?key|token|secret|password|passwd|credential)s?["']?\s*[:=]\s*["']?)([^\s"',;&]{4,})`)

// Redacted replaces a credential.
const Redacted = "[REDACTED]"

// Redact replaces the credentials Redact recognises in s.
func Redact(s string) string {
	for _, re := range secretShapes {
		s = re.ReplaceAllString(s, Redacted)
	}
	return secretAssignment.ReplaceAllStringFunc(s, func(m string) string {
		sub := secretAssignment.FindStringSubmatch(m)
		if strings.Trim(sub[2], "0123456789.") == "" || sub[2] == Redacted {
			return m // a number (max_tokens: 1000), or already redacted
		}
		return sub[1] + Redacted
	})
}
