// Command genvocab writes the vocabularies that package tokens embeds, from
// github.com/tiktoken-go/tokenizer: for each encoding, its tokens in rank
// order in the format of tokens.VocabFile (offsets, a lookup table and the
// token bytes).
//
//	go run ./genvocab -dir .
//
// Its test compares the embedded files with what it generates, and
// `go test ./internal/tokens/genvocab -update` rewrites them (package
// tokens also runs it through go generate).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillopt/skillopt/internal/tokens"
	"github.com/tiktoken-go/tokenizer"
)

func main() {
	dir := flag.String("dir", ".", "output folder")
	flag.Parse()
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		if err := write(*dir, enc); err != nil {
			fmt.Fprintln(os.Stderr, "genvocab:", err)
			os.Exit(1)
		}
	}
}

func write(dir string, enc tokenizer.Encoding) error {
	out, err := vocab(enc)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, string(enc)+".vocab"), out, 0o644)
}

// vocab is the content of the vocabulary file of one encoding.
func vocab(enc tokenizer.Encoding) ([]byte, error) {
	cd, err := tokenizer.Get(enc)
	if err != nil {
		return nil, err
	}
	var toks []string
	ids := []uint{0}
	for id := uint(0); ; id++ {
		ids[0] = id
		s, err := cd.Decode(ids)
		if err != nil || s == "" {
			break
		}
		toks = append(toks, s)
	}
	if len(toks) < 256 {
		return nil, fmt.Errorf("%s: only %d tokens", enc, len(toks))
	}
	out, err := tokens.VocabFile(toks)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", enc, err)
	}
	return out, nil
}
