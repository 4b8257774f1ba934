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
	// closeObjects closes every object schema that lists its properties
	// and does not say whether others are allowed (after the patches, which
	// may keep some open).
	closeObjects bool
	// requiredFromDescriptions requires the properties whose description
	// starts with "Required." (Google's discovery documents say it only
	// there).
	requiredFromDescriptions bool
	patches                  []patch
}

func same(s string) string { return s }

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
		name:    "openai-chat",
		spec:    "openai/openapi.json",
		root:    "CreateChatCompletionRequest",
		rename:  same,
		patches: openaiChatPatches,
	},
	{
		name:         "openai-responses",
		spec:         "openai/openapi.json",
		root:         "CreateResponse",
		rename:       same,
		closeObjects: true,
		patches:      openaiResponsesPatches,
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
		closeObjects:             true,
		requiredFromDescriptions: true,
		extraRoots:               []string{"CodeAssistGenerateContentRequest"},
		patches:                  geminiPatches,
	},
}
