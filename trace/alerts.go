package trace

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/skillopt/skillopt/capture"
)

// AlertOptions tune degradation alerts.
type AlertOptions struct {
	// Consecutive is how many newest runs must all be non-successes.
	Consecutive int
	// Window is how many runs before the newest one are searched for a
	// success.
	Window int
}

// Alert reports a skill that degraded: its newest Count runs are not
// successes, while a success lies within the window before them.
type Alert struct {
	Skill string
	// Count is the number of consecutive newest runs that are not
	// successes (at least Consecutive).
	Count int
	// Signals aggregates the signals of those runs.
	Signals []SignalCount
	// Newest is the newest run; LastSuccess the newest successful one.
	Newest, LastSuccess Summary
}

// Alerts returns an alert for each skill of hs that degraded.
func Alerts(hs []History, o AlertOptions) []Alert {
	var out []Alert
	for _, h := range hs {
		runs := h.Runs
		n := 0
		for n < len(runs) && runs[n].Verdict.Outcome != Success {
			n++
		}
		if n == 0 || n < o.Consecutive {
			continue
		}
		// A success among the window runs before the newest: the streak
		// of non-successes ends at it, so it is runs[n].
		window := o.Window
		if window <= 0 {
			window = DefaultWindow
		}
		if n >= len(runs) || n > window {
			continue
		}
		vs := make([]Verdict, n)
		for i := range n {
			vs[i] = runs[i].Verdict
		}
		out = append(out, Alert{Skill: h.Skill, Count: n, Signals: CountSignals(vs), Newest: runs[0], LastSuccess: runs[n]})
	}
	return out
}

// State remembers when an alert last fired for each skill, so that a
// scheduled job honours the cooldown between runs.
type State struct {
	LastAlert map[string]time.Time
}

// Suppressed is an alert held back by the cooldown.
type Suppressed struct {
	Alert
	LastAlert, Until time.Time
}

// Cooldown splits alerts into those that fire now and those still within
// cooldown of their skill's last alert (an alert exactly cooldown after the
// last one fires), and returns the state with now recorded for the ones
// that fire.
func Cooldown(alerts []Alert, st State, cooldown time.Duration, now time.Time) (fire []Alert, held []Suppressed, next State) {
	next = State{LastAlert: map[string]time.Time{}}
	for k, v := range st.LastAlert {
		next.LastAlert[k] = v
	}
	for _, a := range alerts {
		if last, ok := st.LastAlert[a.Skill]; ok && now.Sub(last) < cooldown {
			held = append(held, Suppressed{a, last, last.Add(cooldown)})
			continue
		}
		fire = append(fire, a)
		next.LastAlert[a.Skill] = now
	}
	return fire, held, next
}

// ReadState reads an alert state file written by State.Marshal:
// {"version":1,"last_alert":{"SKILL":"RFC 3339 time",…}}.
func ReadState(name string, data []byte) (State, error) {
	st := State{LastAlert: map[string]time.Time{}}
	d, err := capture.Parse(data)
	if err != nil {
		return st, syntaxErr(name, data, 1, err)
	}
	o := &obj{file: name, src: data, line: 1, d: d}
	if k := d.Nodes[0].Kind; k != capture.Object {
		o.fail(0, "alert state is %s, not an object", phrase(k))
		return st, o.err
	}
	const what = "alert state"
	if v := o.member(0, "version", capture.Number, true, what); v != capture.NoNode && string(d.Raw(v)) != "1" {
		o.fail(v, "alert state version %s is not supported (want 1)", d.Raw(v))
	}
	m := o.member(0, "last_alert", capture.Object, true, what)
	if o.err != nil {
		return st, o.err
	}
	for c := range d.Children(m) {
		if d.Nodes[c].Kind != capture.String {
			o.fail(c, "last alert of %q is %s, want a time string", d.Key(c), phrase(d.Nodes[c].Kind))
			return st, o.err
		}
		t, err := time.Parse(time.RFC3339Nano, d.Str(c))
		if err != nil {
			o.fail(c, "last alert of %q is not an RFC 3339 time: %q", d.Key(c), d.Str(c))
			return st, o.err
		}
		st.LastAlert[d.Key(c)] = t
	}
	return st, nil
}

// Marshal encodes the state, skills sorted, times in UTC.
func (s State) Marshal() []byte {
	type file struct {
		Version   int               `json:"version"`
		LastAlert map[string]string `json:"last_alert"`
	}
	f := file{Version: 1, LastAlert: map[string]string{}}
	keys := make([]string, 0, len(s.LastAlert))
	for k := range s.LastAlert {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f.LastAlert[k] = s.LastAlert[k].UTC().Format(time.RFC3339Nano)
	}
	data, _ := json.MarshalIndent(f, "", "  ")
	return append(data, '\n')
}
