package main

import (
	"path/filepath"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/skillopt/skillopt/internal/golden"
)

// TestVocabularies: the vocabularies package tokens embeds are what the
// generator makes of the library (-update rewrites them).
func TestVocabularies(t *testing.T) {
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		out, err := vocab(enc)
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("..", string(enc)+".vocab"), out)
	}
}
