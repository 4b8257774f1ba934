package capture

// hostMarksEnd reports whether c was rebuilt from the session file of a
// host that puts a cache breakpoint at the end of every request it sends,
// where the file keeps the messages but not their cache_control. Pi marks
// the last message of each request; Claude Code marks the last two messages and the system prompt of each request
// (its recorded traffic shows it), so the prompt of a rebuilt request is
// read as ending in a breakpoint. A rebuilt request that carries
// breakpoints of its own is read as it is.
func (c *Capture) hostMarksEnd(p Prompt) bool {
	if c.Provider == PiMessages {
		return true
	}
	if c.Session == nil || c.Session.Host != HostClaudeCode || c.Provider != Anthropic {
		return false
	}
	for _, b := range p.Blocks {
		if b.TTL != "" {
			return false
		}
	}
	return true
}
