package main

import "strings"

// shape is one generated request-body schema.
type shape struct {
	name string // file name without .schema.json; schemas.Providers
	spec string // the official description, relative to the -ref folder
	root string // the request body's schema in #/components/schemas
	// extraRoots are definitions (added by patches) that the schemas
	// package uses as entry points besides the root.
	extraRoots []string
	// rename gives a spec schema its definition name.
	rename func(string) string
	// requiredFromDescriptions requires the properties whose description
	// starts with "Required." (Google's discovery documents say it only
	// there).
	requiredFromDescriptions bool
	patches                  []patch
}

func same(s string) string { return s }

// Unknown members and unknown types, per provider (what the official
// endpoint does; compatible endpoints may accept more, which is why an
// unknown member is marked as such by the schemas package):
//
//   - Anthropic closes nearly every object in its spec
//     (additionalProperties: false) and answers extra keys with 400
//     "…: Extra inputs are not permitted" (anthropics/anthropic-sdk-typescript
//     #553, cg-dot/vertexai-cf-workers#21); the spec is kept as it is. Block
//     and tool types are the spec's lists (plus the patches below): the
//     API answers others with 400.
//   - OpenAI Chat Completions answers an unknown top-level argument with
//     400 "Unrecognized request argument supplied: …", but has accepted
//     unknown members of messages (microsoft/agent-framework#2344: "the Chat
//     Completion API did not complain while Responses did"): only the top
//     level is closed; nested objects are as the spec has them.
//   - OpenAI Responses answers unknown members at any depth with 400
//     "Unknown parameter: 'input[1].metadata'" (microsoft/agent-framework
//     #2203; BerriAI/litellm#37474 quotes "Unknown parameter:
//     'input[0].content[0].cache_control'"): every object is closed.
//   - Mistral's spec closes its objects; it is kept as it is.
//   - Gemini answers unknown fields at any depth with 400 "Invalid JSON
//     payload received. Unknown name …" (REQUEST-SHAPES.md §4, §9), and the
//     converted description closes nothing: every object is closed.
//
// For all of them a type (content block, item, tool, chunk) outside the
// spec's lists is an error: each API validates it against its list.
var shapes = []*shape{
	{
		// BetaCreateMessageParams is what every SDK's client.beta sends
		// (and real clients use it for plain requests too); it is a strict
		// superset of CreateMessageParams: every non-beta schema in the
		// closure has a Beta twin with the same or more properties and
		// values (checked by TestAnthropicBetaSuperset). Definitions drop
		// the Beta prefix.
		name:    "anthropic",
		spec:    "anthropic/openapi.json",
		root:    "BetaCreateMessageParams",
		rename:  func(s string) string { return strings.TrimPrefix(s, "Beta") },
		patches: anthropicPatches,
	},
	{
		// The top level is closed by a patch; nested objects stay as the
		// spec has them (see above).
		name:    "openai-chat",
		spec:    "openai/openapi.json",
		root:    "CreateChatCompletionRequest",
		rename:  same,
		patches: openaiChatPatches,
	},
	{
		name:    "openai-responses",
		spec:    "openai/openapi.json",
		root:    "CreateResponse",
		rename:  same,
		patches: openaiResponsesPatches,
	},
	{
		name:    "mistral",
		spec:    "mistral/openapi.json",
		root:    "ChatCompletionRequest",
		rename:  same,
		patches: mistralPatches,
	},
	{
		name:                     "gemini",
		spec:                     "gemini/generativelanguage-v1beta.openapi.json",
		root:                     "GenerateContentRequest",
		rename:                   same,
		requiredFromDescriptions: true,
		extraRoots:               []string{"CodeAssistGenerateContentRequest"},
		patches:                  geminiPatches,
	},
}
