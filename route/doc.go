// Package route holds the model decisions of a /skill sub-agent router, as
// pure functions over values the caller reads: the router's settings (the
// auggieRouter block of .pi/settings.json), the translation of a SKILL.md
// model: to a gateway model ID, the adaptive choice of a tier from a
// cheap / balanced / frontier pool, the context budget of the run, and the
// sub-agent system prompt whose bytes a provider's prompt cache keys on.
//
// Nothing here reads a file, a clock or the environment; the same inputs
// give the same decision.
package route
