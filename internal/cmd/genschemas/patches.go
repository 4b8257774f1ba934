package main

// The patch tables: every deliberate deviation of a generated schema from
// its official description, with the reason. Sources named in reasons:
// REQUEST-SHAPES.md and the provider folders of ../shared/reference/providers,
// the official SDKs named in its SOURCES.md, and the providers' own error
// messages (quoted).

// conversions are the deviations every generated schema gets from its
// description (gen.go applies them while converting).
var conversions = []struct{ what, why string }{
	{"oneOf becomes anyOf (a discriminator, if any, is dropped)",
		"the providers pick the alternative by its discriminator, or try them in order; none rejects a value " +
			"for matching two alternatives, which is all oneOf adds, and OpenAI's EasyInputMessage and " +
			"InputMessage both match a message without type (REQUEST-SHAPES.md §9)"},
	{"OpenAPI 3.0 nullable: true becomes a type list (or an anyOf) with null",
		"draft 2020-12 has no nullable keyword; the OpenAI and Gemini descriptions use it"},
	{`$recursiveRef "#" becomes a $ref to the schema that holds it; $recursiveAnchor is dropped`,
		"draft 2019-09 keywords in OpenAI's CompoundFilter, which the 2020-12 metaschema rejects (REQUEST-SHAPES.md §9)"},
	{"OpenAPI 3.0 boolean exclusiveMinimum/exclusiveMaximum become the 2020-12 numbers",
		"draft 2020-12 spells them as the bound itself"},
	{"descriptions, titles, examples, defaults, formats, deprecation marks, discriminators and x-* extensions are dropped",
		"they do not validate (format is an annotation in 2020-12); the facts stay, the specs' sentences do not"},
	{`an anyOf of "any string" and listed strings becomes "any string"`,
		"Anthropic's Model is any string or one of its known names: the list allows nothing more"},
	{"an integer without a stated bound gets the signed 64-bit range as its minimum and maximum",
		"JSON Schema's integer is unbounded; the providers parse integer fields into 32- or 64-bit integers " +
			"and answer a larger value with HTTP 400, so the bound the API enforces is written in the schema"},
	{`Gemini: a property whose description starts with "Required." is required`,
		"Google's discovery format has no required list and says it there (then converted to OpenAPI)"},
}

// closeAll closes every object schema of the definitions that lists its
// properties and does not say whether others are allowed. It runs as the
// last patch of a shape.
func closeAll(g *gen) error {
	closeObjects(g.defs)
	return nil
}

// cacheControl is Anthropic's cache_control value as the spec writes it.
var cacheControl = obj{"anyOf": []any{obj{"$ref": "#/$defs/CacheControlEphemeral"}, obj{"type": "null"}}}

var anthropicPatches = []patch{
	{
		what: "model is optional when the body carries anthropic_version (then it must be a string)",
		why: "Bedrock InvokeModel and Vertex rawPredict bodies name the model in the URL and carry " +
			"anthropic_version (bedrock-2023-05-31, vertex-2023-10-16) instead (REQUEST-SHAPES.md §1)",
		apply: all(
			addProperties("CreateMessageParams", obj{"anthropic_version": obj{"type": "string"}}),
			unrequire("CreateMessageParams", "model"),
			setKeys("CreateMessageParams", obj{
				"if":   obj{"required": []any{"anthropic_version"}},
				"else": obj{"required": []any{"model"}},
			}),
		),
	},
	{
		what: `messages may have role "system"`,
		why: "newer than the May 2026 spec: the Go SDK (July 2026) has MessageParamRoleSystem and " +
			"claude-opus-4-8 traffic carries it (REQUEST-SHAPES.md §1)",
		apply: addEnum("InputMessage/properties/role", "system"),
	},
	{
		what: "content blocks mid_conv_system, tool_addition and tool_removal",
		why: "newer than the spec: the SDKs' BetaMidConversationSystemBlockParam (content: text, " +
			"tool_addition or tool_removal blocks; cache_control) and BetaRequestToolAdditionBlock / " +
			"BetaRequestToolRemovalBlock (tool: a tool_reference, mcp_tool_reference or " +
			"mcp_toolset_reference; cache_control), seen in role: system messages of real traffic " +
			"(REQUEST-SHAPES.md §1, §8.1)",
		apply: all(
			addDefs(obj{
				"MidConversationSystemBlock": obj{
					"type": "object", "additionalProperties": false, "required": []any{"type", "content"},
					"properties": obj{
						"type":          obj{"const": "mid_conv_system", "type": "string"},
						"cache_control": cacheControl,
						"content": obj{"type": "array", "items": obj{"anyOf": []any{
							obj{"$ref": "#/$defs/RequestTextBlock"},
							obj{"$ref": "#/$defs/RequestToolAdditionBlock"},
							obj{"$ref": "#/$defs/RequestToolRemovalBlock"},
						}}},
					},
				},
				"RequestToolAdditionBlock": toolChangeBlock("tool_addition"),
				"RequestToolRemovalBlock":  toolChangeBlock("tool_removal"),
				"ToolChangeReference": obj{"anyOf": []any{
					obj{
						"type": "object", "additionalProperties": false, "required": []any{"type", "name"},
						"properties": obj{
							"type": obj{"const": "tool_reference", "type": "string"},
							"name": obj{"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,128}$"},
						},
					},
					obj{
						"type": "object", "additionalProperties": false, "required": []any{"type", "server_name", "name"},
						"properties": obj{
							"type":        obj{"const": "mcp_tool_reference", "type": "string"},
							"server_name": obj{"type": "string"},
							"name":        obj{"type": "string"},
						},
					},
					obj{
						"type": "object", "additionalProperties": false, "required": []any{"type", "server_name"},
						"properties": obj{
							"type":        obj{"const": "mcp_toolset_reference", "type": "string"},
							"server_name": obj{"type": "string"},
						},
					},
				}},
			}),
			addBranches("InputContentBlock",
				obj{"$ref": "#/$defs/MidConversationSystemBlock"},
				obj{"$ref": "#/$defs/RequestToolAdditionBlock"},
				obj{"$ref": "#/$defs/RequestToolRemovalBlock"},
			),
		),
	},
	{
		what: "tool versions code_execution_20260521, web_search_20260318 and web_fetch_20260318",
		why: "newer than the spec: added by the Go SDK of July 2026 (REQUEST-SHAPES.md §1); shaped " +
			"like the latest version the spec has of each",
		apply: all(
			copyDef("CodeExecutionTool_20260120", "CodeExecutionTool_20260521",
				map[string]obj{"properties/type": {"const": "code_execution_20260521"}}),
			copyDef("WebSearchTool_20260209", "WebSearchTool_20260318",
				map[string]obj{"properties/type": {"const": "web_search_20260318"}}),
			copyDef("WebFetchTool_20260309", "WebFetchTool_20260318",
				map[string]obj{"properties/type": {"const": "web_fetch_20260318"}}),
			addBranches("CreateMessageParams/properties/tools/items",
				obj{"$ref": "#/$defs/CodeExecutionTool_20260521"},
				obj{"$ref": "#/$defs/WebSearchTool_20260318"},
				obj{"$ref": "#/$defs/WebFetchTool_20260318"},
			),
		),
	},
	{
		what: "a text block's text must contain a non-whitespace character",
		why: `the API answers 400 "messages: text content blocks must be non-empty" and ` +
			`"text content blocks must contain non-whitespace text" (reported in ` +
			"anthropics/claude-code#59812 and #23369, home-assistant/core#175637)",
		apply: setKeys("RequestTextBlock/properties/text", obj{"pattern": `\S`}),
	},
}

func toolChangeBlock(typ string) obj {
	return obj{
		"type": "object", "additionalProperties": false, "required": []any{"type", "tool"},
		"properties": obj{
			"type":          obj{"const": typ, "type": "string"},
			"tool":          obj{"$ref": "#/$defs/ToolChangeReference"},
			"cache_control": cacheControl,
		},
	}
}

// openAIName is the function name rule of OpenAI's FunctionObject.name
// description: "Must be a-z, A-Z, 0-9, or contain underscores and dashes,
// with a maximum length of 64."
var openAIName = obj{"pattern": "^[a-zA-Z0-9_-]{1,64}$", "minLength": 1, "maxLength": 64}

// objectSchema is a function's parameters: "a JSON Schema object"; OpenAI
// answers another type with 400 "Invalid schema for function …: schema
// must be a JSON Schema of 'type: \"object\"'".
var objectSchema = obj{"properties": obj{"type": obj{"const": "object"}}}

var openaiChatPatches = []patch{
	{
		what:  "the request's allOf of shared property sets becomes one object, closed",
		why:   `OpenAI answers an unknown top-level key with 400 "Unrecognized request argument supplied: …"`,
		apply: all(mergeAllOf("CreateChatCompletionRequest"), setKeys("CreateChatCompletionRequest", obj{"additionalProperties": false})),
	},
	{
		what:  "function names: pattern ^[a-zA-Z0-9_-]{1,64}$",
		why:   "FunctionObject.name's description states the rule",
		apply: setKeys("FunctionObject/properties/name", openAIName),
	},
	{
		what:  `function parameters, when they give a type, are of type "object"`,
		why:   "FunctionParameters is a JSON Schema object; the API rejects other root types",
		apply: setKeys("FunctionParameters", objectSchema),
	},
}

var openaiResponsesPatches = []patch{
	{
		what:  "the request's allOf of shared property sets becomes one object",
		why:   "an object split over allOf cannot be closed, and this API's objects are (see the last patch)",
		apply: mergeAllOf("CreateResponse"),
	},
	{
		what:  "OutputMessage: type is optional",
		why:   "the API reads an input item without type as a message (REQUEST-SHAPES.md §9), so assistant history without type is accepted",
		apply: unrequire("OutputMessage", "type"),
	},
	{
		what:  "FunctionCallOutputItemParam: call_id is required",
		why:   "the spec makes it optional, but the API needs it to match the output to its call (REQUEST-SHAPES.md §9)",
		apply: require("FunctionCallOutputItemParam", "call_id"),
	},
	{
		what:  "FunctionTool: strict and parameters are optional",
		why:   `the spec requires them (nullable), but OpenAI's own "Functions" example omits strict (REQUEST-SHAPES.md §9)`,
		apply: unrequire("FunctionTool", "strict", "parameters"),
	},
	{
		what:  "InputImageContent: detail is optional",
		why:   `OpenAI's own "Image input" example omits it (REQUEST-SHAPES.md §9)`,
		apply: unrequire("InputImageContent", "detail"),
	},
	{
		what:  "OutputMessage: id and status are optional",
		why:   "clients replay assistant messages without them and the API accepts them (REQUEST-SHAPES.md §9)",
		apply: unrequire("OutputMessage", "id", "status"),
	},
	{
		what: "ReasoningItem: id is optional and content may be null",
		why: "Codex CLI replays reasoning items with store false: its item type never serializes the id and writes " +
			"content as null when there is none (its rollout files hold the items in the same serialization), and the " +
			"API accepts these requests",
		apply: all(unrequire("ReasoningItem", "id"), setKeys("ReasoningItem/properties/content", obj{"type": []any{"array", "null"}})),
	},
	{
		what: "WebSearchToolCall: id is optional; CustomToolCall: status is allowed",
		why: "Codex CLI replays web search calls without their id and custom tool calls with their status " +
			"(in_progress, completed or incomplete, as the API returned them), and the API accepts these requests",
		apply: all(unrequire("WebSearchToolCall", "id"),
			addProperties("CustomToolCall", obj{"status": obj{"type": "string", "enum": []any{"in_progress", "completed", "incomplete"}}})),
	},
	{
		what:  "OutputTextContent: annotations and logprobs are optional",
		why:   "replayed assistant text carries annotations at most (Pi, pydantic-ai recordings against the API)",
		apply: unrequire("OutputTextContent", "annotations", "logprobs"),
	},
	{
		what:  "FunctionToolCall: status may be null",
		why:   "clients send status: null and the API accepts it (REQUEST-SHAPES.md §9)",
		apply: setKeys("FunctionToolCall/properties/status", obj{"enum": []any{"in_progress", "completed", "incomplete", nil}, "type": []any{"string", "null"}}),
	},
	{
		what:  "function names: pattern ^[a-zA-Z0-9_-]{1,64}$",
		why:   "the spec states the rule for function names at FunctionObject.name; one server checks both APIs",
		apply: setKeys("FunctionTool/properties/name", openAIName),
	},
	{
		what:  `function parameters, when they give a type, are of type "object"`,
		why:   "parameters is a JSON Schema object; the API rejects other root types",
		apply: setKeys("FunctionTool/properties/parameters/anyOf/0", objectSchema),
	},
	{
		what: "every object that lists its properties is closed (additionalProperties: false)",
		why: "the API answers unknown members at any depth with 400 \"Unknown parameter: 'input[1].metadata'\" " +
			"(microsoft/agent-framework#2203; BerriAI/litellm#37474 quotes one for input[0].content[0].cache_control), " +
			"while the spec closes almost nothing",
		apply: closeAll,
	},
}

var mistralPatches = []patch{}

var geminiPatches = []patch{
	{
		what:  "model is optional",
		why:   "the description says Required, but it is part of the URL and real bodies omit it (REQUEST-SHAPES.md §4)",
		apply: unrequire("GenerateContentRequest", "model"),
	},
	{
		what: "FunctionDeclaration.description and Schema.type are optional",
		why: "the Gemini API's descriptions say Required, Vertex AI's for the same body say Optional " +
			"(gemini/aiplatform-v1.discovery.json); a body without a URL may be either",
		apply: all(unrequire("FunctionDeclaration", "description"), unrequire("Schema", "type")),
	},
	{
		what:  "labels: a map of strings",
		why:   "Vertex AI's GenerateContentRequest is the same body plus labels (gemini/aiplatform-v1.discovery.json)",
		apply: addProperties("GenerateContentRequest", obj{"labels": obj{"type": "object", "additionalProperties": obj{"type": "string"}}}),
	},
	{
		what:  `a content's role is "user" or "model"`,
		why:   `Content.role's description says so; the API answers others with 400 "Please use a valid role: user, model."`,
		apply: setKeys("Content/properties/role", obj{"enum": []any{"user", "model"}}),
	},
	{
		what:  "a content has parts",
		why:   `the API answers 400 "contents.parts must not be empty"`,
		apply: require("Content", "parts"),
	},
	{
		what:  "function names: pattern ^[a-zA-Z0-9_:.-]{1,128}$",
		why:   "FunctionDeclaration.name's description states the rule",
		apply: setKeys("FunctionDeclaration/properties/name", obj{"pattern": "^[a-zA-Z0-9_:.-]{1,128}$", "minLength": 1, "maxLength": 128}),
	},
	{
		what: "CodeAssistGenerateContentRequest: the request object of the Code Assist wrapper, " +
			"a GenerateContentRequest that may also carry session_id",
		why: "Gemini CLI and Cloud Code Assist post {model, project, request} to cloudcode-pa, " +
			"whose request holds a session id besides the generateContent fields (REQUEST-SHAPES.md §4)",
		apply: all(
			copyDef("GenerateContentRequest", "CodeAssistGenerateContentRequest", nil),
			addProperties("CodeAssistGenerateContentRequest", obj{"sessionId": obj{"type": "string"}}),
		),
	},
	{
		what: "every object that lists its properties is closed (additionalProperties: false)",
		why: `the API answers unknown fields at any depth with 400 "Invalid JSON payload received. Unknown name …" ` +
			"(REQUEST-SHAPES.md §4, §9), while the converted description closes nothing",
		apply: closeAll,
	},
}
