// Command jsonbaseline reads the file named by its argument and decodes it
// with encoding/json into an empty interface. It prints nothing on success;
// it serves as the lower bound for whole-process benchmarks.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: jsonbaseline FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsonbaseline:", err)
		os.Exit(1)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		fmt.Fprintln(os.Stderr, "jsonbaseline:", err)
		os.Exit(1)
	}
}
