// Package catalog discovers skills on disk and in captures, parses SKILL.md
// files and agent definitions, resolves agent loadouts, and builds immutable
// catalog snapshots with BM25F search and tag browsing. The lint rules over
// skills and agent definitions live in catalog/lint.
package catalog
