// Command genvocab writes the vocabularies that package tokens embeds, from
// github.com/tiktoken-go/tokenizer: for each encoding, a file holding the
// number of tokens and then every token in rank order, each as a uvarint
// length and its bytes.
//
//	go run ./genvocab -dir .
//
// package tokens runs it through go generate; its tests check the files
// against the library.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"

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
	cd, err := tokenizer.Get(enc)
	if err != nil {
		return err
	}
	var tokens []string
	ids := []uint{0}
	for id := uint(0); ; id++ {
		ids[0] = id
		s, err := cd.Decode(ids)
		if err != nil || s == "" {
			break
		}
		tokens = append(tokens, s)
	}
	if len(tokens) < 256 {
		return fmt.Errorf("%s: only %d tokens", enc, len(tokens))
	}
	out := binary.AppendUvarint(nil, uint64(len(tokens)))
	for _, t := range tokens {
		out = binary.AppendUvarint(out, uint64(len(t)))
		out = append(out, t...)
	}
	return os.WriteFile(filepath.Join(dir, string(enc)+".vocab"), out, 0o644)
}
