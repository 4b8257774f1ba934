// Package catalog discovers skills on disk and in captures, parses SKILL.md
// files and agent definitions, builds immutable catalog snapshots with BM25F
// search and tag browsing, and holds the skill and agent lint rules.
package catalog
