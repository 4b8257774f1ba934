package main

// The patch tables: every deliberate deviation of a generated schema from
// its official description, with the reason. Sources named in reasons:
// REQUEST-SHAPES.md and the provider folders of ../shared/reference/providers,
// the official SDKs named in its SOURCES.md, and the providers' own error
// messages (quoted).

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
		why:   "the rule FunctionObject.name states in its description",
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
		what: "the request's allOf of shared property sets becomes one object",
		why: "so that it can be closed like every object of this API: Responses answers unknown " +
			`members at any depth with 400 "Unknown parameter: 'input[1].metadata'" ` +
			"(microsoft/agent-framework#2203, BerriAI/litellm#37474)",
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
		why:   `required-but-nullable in the spec; OpenAI's own "Functions" example omits strict (REQUEST-SHAPES.md §9)`,
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
		why:   "the rule the spec states for function names (FunctionObject.name); the same server checks both APIs",
		apply: setKeys("FunctionTool/properties/name", openAIName),
	},
	{
		what:  `function parameters, when they give a type, are of type "object"`,
		why:   "parameters is a JSON Schema object; the API rejects other root types",
		apply: setKeys("FunctionTool/properties/parameters/anyOf/0", objectSchema),
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
		why:   `what Content.role's description requires; the API answers others with 400 "Please use a valid role: user, model."`,
		apply: setKeys("Content/properties/role", obj{"enum": []any{"user", "model"}}),
	},
	{
		what:  "a content has parts",
		why:   `the API answers 400 "contents.parts must not be empty"`,
		apply: require("Content", "parts"),
	},
	{
		what:  "function names: pattern ^[a-zA-Z0-9_:.-]{1,128}$",
		why:   "the rule FunctionDeclaration.name states in its description",
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
}
