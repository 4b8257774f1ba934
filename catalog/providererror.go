package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxProviderRetries bounds how often one group's request is sent again
// after the provider answered with a transient error (rate limit, overload,
// server error) before card generation stops.
const MaxProviderRetries = 2

// ProviderError is an answer in which the provider reports a failure
// instead of answering: an HTTP error body (Anthropic, OpenAI, Gemini,
// Mistral shapes), an error page, a rate limit. It says nothing about the
// skills asked for, so it is not a content failure: the group is neither
// given feedback nor split. A transient one is retried with the same
// request; a terminal one (bad credentials, an invalid request, no quota)
// stops the run.
type ProviderError struct {
	Status  int    // HTTP status when the answer gives one, else 0
	Kind    string // the provider's error type or code ("rate_limit_error")
	Message string
	// Retry says the failure is transient: sending the same request
	// again later may succeed.
	Retry bool
}

func (e *ProviderError) Error() string {
	var parts []string
	if e.Status > 0 {
		parts = append(parts, strconv.Itoa(e.Status))
	}
	if e.Kind != "" {
		parts = append(parts, e.Kind)
	}
	s := "the provider answered with an error"
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, " ") + ")"
	}
	if e.Message != "" {
		s += ": " + clipText(e.Message, 200)
	}
	return s
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// ParseProviderError reports whether an answer is a provider's error
// rather than an answer, and reads it.
func ParseProviderError(data []byte) (*ProviderError, bool) {
	text := strings.TrimSpace(string(data))
	var raw map[string]any
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return textError(text)
	}
	for _, k := range []string{"cards", "content", "choices", "candidates", "output", "output_text"} {
		if _, ok := raw[k]; ok {
			return nil, false // an answer, whatever it says
		}
	}
	e := &ProviderError{}
	switch inner := raw["error"].(type) {
	case map[string]any: // Anthropic, OpenAI, Gemini
		var kinds []string
		for _, k := range []string{"type", "status", "code"} {
			if s := firstString(inner, k); s != "" && !slices.Contains(kinds, s) {
				kinds = append(kinds, s)
			}
		}
		e.Kind = strings.Join(kinds, " ")
		e.Message = firstString(inner, "message")
		e.Status = number(inner["code"])
	case string:
		e.Message = inner
	default:
		if raw["object"] != "error" && raw["type"] != "error" && raw["detail"] == nil && number(raw["status"]) < 400 && number(raw["status_code"]) < 400 {
			return nil, false
		}
		e.Kind = firstString(raw, "type", "code")
		e.Message = firstString(raw, "message", "detail")
	}
	if e.Status == 0 {
		e.Status = max(number(raw["status"]), number(raw["status_code"]))
	}
	if e.Kind == "" && e.Message == "" && e.Status == 0 {
		return nil, false
	}
	e.Retry = transient(e)
	return e, true
}

// textError reads an answer that is not JSON: an HTML error page or a
// status line from a proxy.
func textError(text string) (*ProviderError, bool) {
	lower := strings.ToLower(text)
	status := 0
	switch {
	case strings.HasPrefix(lower, "http/"):
		if f := strings.Fields(text); len(f) > 1 {
			status, _ = strconv.Atoi(f[1])
		}
	case strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html"):
		for _, code := range []int{429, 500, 502, 503, 504, 529, 400, 401, 403, 404} {
			if strings.Contains(lower, strconv.Itoa(code)) {
				status = code
				break
			}
		}
		if status == 0 {
			status = 502 // a page where JSON was due: a gateway's
		}
	default:
		return nil, false
	}
	e := &ProviderError{Status: status, Message: firstLine(text)}
	e.Retry = transient(e)
	return e, true
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// transient reports whether a provider error may go away by itself.
func transient(e *ProviderError) bool {
	k := strings.ToLower(e.Kind + " " + e.Message)
	for _, w := range []string{"insufficient_quota", "billing", "authentication", "unauthenticated", "permission", "invalid_request", "invalid_argument", "not_found", "request_too_large"} {
		if strings.Contains(k, w) {
			return false
		}
	}
	for _, w := range []string{"rate_limit", "rate limit", "overloaded", "server_error", "api_error", "timeout", "unavailable", "resource_exhausted", "internal", "deadline_exceeded", "too many requests"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	switch {
	case e.Status == 408 || e.Status == 409 || e.Status == 425 || e.Status == 429 || e.Status >= 500:
		return true
	}
	return false
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case float64:
			if k != "code" || v >= 600 {
				return fmt.Sprint(v)
			}
		}
	}
	return ""
}

func number(v any) int {
	if f, ok := v.(float64); ok && f >= 100 && f < 600 {
		return int(f)
	}
	return 0
}
