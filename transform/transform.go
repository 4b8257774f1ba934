// Package transform is the machinery the transform rule families share:
// the tool declarations of a request read in each provider's shape, and the
// edits that rewrite them byte for byte. The families live in sub-packages:
// transform/catalogrules (skill catalog, SO1xx), transform/tools (tool deferral,
// SO2xx) and transform/output (tool output and history, SO3xx). Rules read
// a capture through their Pass and return edits; they never parse files or
// print.
package transform
