// Package validity holds the request-validity rules (SO5xx): what a
// provider checks beyond the shape of a request and answers with HTTP 400 —
// tool names, the pairing of tool calls with their results, the order of a
// conversation's turns, prompt-cache breakpoints and deferred tools.
//
// The rules are checks. `skillopt validate` runs them after the provider's
// JSON Schema, and the engine runs them after every transform as a guard:
// a transform whose output a provider would reject is dropped, as one that
// does not shrink the request is.
package validity
