package output

import (
	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// FileMemory is the memory of every conversation of f (see
// ConversationMemory), with the limits configured in set.
func FileMemory(f *capture.File, k archive.Keeper, set *rules.Set) []Memory {
	maxEntries, maxBytes := MemoryLimits(set)
	var ms []Memory
	for _, c := range f.Captures {
		ms = append(ms, ConversationMemory(c, k, maxEntries, maxBytes))
	}
	return ms
}
