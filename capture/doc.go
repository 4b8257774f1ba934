// Package capture reads captured LLM provider requests and indexes their
// bodies without losing a byte.
//
// A capture file holds one or more request bodies in an envelope: a bare
// body, a body encoded as a JSON string (also twice, or base64), a request
// record {url, method, headers, body}, a HAR log, JSON Lines, or a Pi
// session file. ReadFile and Read unwrap the envelope, redact it (every
// header and parameter value off the list of Keep, every field its format
// does not define, every credential in the text of the rest; see README,
// Captures) and the credentials at the body's top level, detect the
// provider shape
// (Anthropic Messages, OpenAI Chat Completions and Responses, Gemini,
// Mistral, Pi messages) and index each body with Parse.
//
// The index (Doc) keeps the byte span of every value, so key order,
// whitespace, number spellings and escapes survive: rules edit a body by
// replacing spans, and File.Rebuild writes the file back in its envelope
// with only those spans changed. Values are addressed by RFC 6901 JSON
// Pointers. Segments classify a body's bytes by section (system, skill
// catalog, tools, human text, tool results, …) and by who wrote them.
//
// Input is untrusted: reads are bounded and refuse non-regular files,
// nesting is limited, and every error names the file and the position.
package capture
