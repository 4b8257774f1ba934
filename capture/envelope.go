package capture

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// An envelope is redacted by its shape: the fields its format defines are
// walked as what they hold, and every other member, at any depth, is
// secret (walked in modeSecret: each string and number becomes REDACTED).
type shapeKind uint8

const (
	shapeText     shapeKind = iota // a scalar (strings through the text redactor), or a list of them
	shapeURL                       // a URL string, or a URL object (Postman, WHATWG)
	shapeHeaders                   // headers or parameters, in any container shape; values kept by name
	shapeCookies                   // cookies: every value secret
	shapeObject                    // an object with known fields
	shapeList                      // a list of elem
	shapePostData                  // HAR request postData
	shapeContent                   // HAR response content
	shapeData                      // data: members judged by name, strings through the text redactor
)

type shape struct {
	kind   shapeKind
	fields map[string]*shape // shapeObject
	elem   *shape            // shapeList
}

var (
	shText    = &shape{kind: shapeText}
	shURL     = &shape{kind: shapeURL}
	shHeaders = &shape{kind: shapeHeaders}
	shCookies = &shape{kind: shapeCookies}
	shData    = &shape{kind: shapeData}
)

func shObject(fields map[string]*shape) *shape { return &shape{kind: shapeObject, fields: fields} }
func shList(elem *shape) *shape                { return &shape{kind: shapeList, elem: elem} }

// Envelope shapes. The body (and Code Assist's request) is left to the
// walker's skip function.
var (
	// responseShape is the response beside a request: a recording's
	// (status, headers, the usage the provider reported, timings, the
	// stream or body when kept) or a claude-trace log's (status_code,
	// headers, body, body_raw).
	responseShape = shObject(map[string]*shape{
		"status": shText, "status_code": shText, "headers": shHeaders, "usage": shData,
		"body": shData, "body_raw": shText, "stream": shText, "timestamp": shText, "error": shText,
		"first_byte_ms": shText, "duration_ms": shText, "bytes": shText, "truncated": shText,
	})
	// requestShape is a request record {url, method, headers, body} (with
	// the response of a recording beside it) and a NAME.meta.json sidecar
	// (Pi writes path, bytes and receivedAt).
	requestShape = shObject(map[string]*shape{
		"url": shURL, "uri": shURL, "path": shURL, "method": shText, "headers": shHeaders,
		"bytes": shText, "receivedAt": shText, "comment": shText, "timestamp": shText,
		"recorded_at": shText, "response": responseShape,
	})
	// exchangeShape is a {request, response} pair (claude-trace logs);
	// the request is a record.
	exchangeShape = shObject(map[string]*shape{"request": requestShape, "response": responseShape, "logged_at": shText})
	// codeAssistShape is the Gemini Code Assist wrapper around "request".
	codeAssistShape = shObject(map[string]*shape{"model": shText, "project": shText, "user_prompt_id": shText})
	// urlObject is a URL split into parts (Postman's url, a WHATWG URL).
	urlObject = shObject(map[string]*shape{
		"raw": shURL, "href": shURL, "url": shURL, "search": shURL, "hash": shURL,
		"protocol": shText, "host": shText, "hostname": shText, "port": shText, "path": shText, "pathname": shText, "origin": shText,
		"query": shHeaders, "searchParams": shHeaders,
	})
	// harShape follows HAR 1.2; fields it does not define (custom "_…"
	// fields among them) are secret.
	harShape = func() *shape {
		comment := map[string]*shape{"comment": shText}
		with := func(fields map[string]*shape) *shape {
			for k, v := range comment {
				fields[k] = v
			}
			return shObject(fields)
		}
		creator := with(map[string]*shape{"name": shText, "version": shText})
		cacheEntry := with(map[string]*shape{"expires": shText, "lastAccess": shText, "eTag": shText, "hitCount": shText})
		request := with(map[string]*shape{
			"method": shText, "url": shURL, "httpVersion": shText, "cookies": shCookies, "headers": shHeaders,
			"queryString": shHeaders, "postData": {kind: shapePostData}, "headersSize": shText, "bodySize": shText,
		})
		response := with(map[string]*shape{
			"status": shText, "statusText": shText, "httpVersion": shText, "cookies": shCookies, "headers": shHeaders,
			"content": {kind: shapeContent}, "redirectURL": shURL, "headersSize": shText, "bodySize": shText,
		})
		entry := with(map[string]*shape{
			"pageref": shText, "startedDateTime": shText, "time": shText, "request": request, "response": response,
			"cache":           with(map[string]*shape{"beforeRequest": cacheEntry, "afterRequest": cacheEntry}),
			"timings":         with(map[string]*shape{"blocked": shText, "dns": shText, "connect": shText, "send": shText, "wait": shText, "receive": shText, "ssl": shText}),
			"serverIPAddress": shText, "connection": shText,
		})
		page := with(map[string]*shape{
			"startedDateTime": shText, "id": shText, "title": shText,
			"pageTimings": with(map[string]*shape{"onContentLoad": shText, "onLoad": shText}),
		})
		log := with(map[string]*shape{"version": shText, "creator": creator, "browser": creator, "pages": shList(page), "entries": shList(entry)})
		return shObject(map[string]*shape{"log": log})
	}()
	// entryFields are the members of a {name|key, value} entry besides
	// those two: HAR's parameter fields and Postman's.
	entryFields = map[string]bool{"comment": true, "fileName": true, "contentType": true, "description": true, "disabled": true, "enabled": true, "type": true}
	// cookieFields are the members of a HAR cookie besides its value.
	cookieFields = map[string]bool{"name": true, "path": true, "domain": true, "expires": true, "httpOnly": true, "secure": true, "sameSite": true, "comment": true}
	// headerGroups name the nested header groups of an axios config.
	headerGroups = map[string]bool{"common": true, "get": true, "post": true, "put": true, "patch": true, "delete": true, "head": true, "options": true}
)

// isHeaderGroup reports member m of a header object that is a group of
// headers itself (axios' common, post, …).
func isHeaderGroup(d *Doc, m Node, depth int) bool {
	return depth < 2 && d.Kind(m) == Object && d.Get(m, "value") == NoNode && headerGroups[strings.ToLower(d.Key(m))]
}

// shaped walks node i of an envelope as sh.
func (w *walker) shaped(i Node, sh *shape) {
	if i == NoNode || w.skip != nil && w.skip(i) {
		return
	}
	d := w.d
	switch sh.kind {
	case shapeText:
		w.scalar(i)
	case shapeURL:
		w.urlNode(i)
	case shapeHeaders:
		w.headerNode(i, 0)
	case shapeCookies:
		w.cookieNode(i)
	case shapePostData, shapeContent:
		w.bodyHolder(i, sh.kind)
	case shapeData:
		w.walk(i, modePlain)
	case shapeObject:
		if d.Kind(i) != Object {
			w.scalar(i)
			return
		}
		for m := range d.Children(i) {
			if w.skip != nil && w.skip(m) {
				continue
			}
			k := d.Key(m)
			w.key(m, k)
			if sub := sh.fields[k]; sub != nil {
				w.shaped(m, sub)
			} else {
				w.walk(m, modeSecret)
			}
		}
	case shapeList:
		if d.Kind(i) != Array {
			w.scalar(i)
			return
		}
		for e := range d.Children(i) {
			w.shaped(e, sh.elem)
		}
	}
}

// scalar keeps a number, boolean or null, runs a string through the text
// redactor, walks a list element by element, and treats an object (which
// no scalar field should hold) as secret.
func (w *walker) scalar(i Node) {
	d := w.d
	switch d.Kind(i) {
	case String:
		if t, ok := redactText(d.Str(i), w.depth, w.keep); ok {
			w.set(i, t)
		}
	case Array:
		for e := range d.Children(i) {
			w.scalar(e)
		}
	case Object:
		w.walk(i, modeSecret)
	}
}

// urlNode redacts a URL string or a URL object.
func (w *walker) urlNode(i Node) {
	switch w.d.Kind(i) {
	case String:
		if t, ok := redactURL(w.d.Str(i), w.keep); ok {
			w.set(i, t)
		}
	case Object:
		w.shaped(i, urlObject)
	default:
		w.scalar(i)
	}
}

// value walks the value node v of the header or parameter name: kept as
// text when keep keeps the name, secret otherwise.
func (w *walker) value(name string, v Node) {
	if w.keep.Keeps(name) {
		w.scalar(v)
	} else {
		w.walk(v, modeSecret)
	}
}

// headerNode walks headers or parameters held by node h in any of the
// shapes captures use: an object of values or of nested groups (axios'
// common, post); a list of {name|key, value} objects, of [name, value]
// pairs or of "Name: value" lines; or one string of such lines.
func (w *walker) headerNode(h Node, depth int) {
	d := w.d
	switch d.Kind(h) {
	case Object:
		for m := range d.Children(h) {
			k := d.Key(m)
			w.key(m, k)
			if isHeaderGroup(d, m, depth) {
				w.headerNode(m, depth+1)
				continue
			}
			w.value(k, m)
		}
	case Array:
		for e := range d.Children(h) {
			switch d.Kind(e) {
			case Object:
				w.entry(e, false)
			case Array:
				w.pair(e)
			case String:
				w.headerLines(e)
			default:
				w.walk(e, modeSecret)
			}
		}
	case String:
		w.headerLines(h)
	default:
		w.walk(h, modeSecret)
	}
}

// entry walks a {name|key, value} object; with cookie set its value is
// secret whatever the name.
func (w *walker) entry(e Node, cookie bool) {
	d := w.d
	name := d.GetAny(e, "name", "key")
	fields := entryFields
	if cookie {
		fields = cookieFields
	}
	for m := range d.Children(e) {
		k := d.Key(m)
		w.key(m, k)
		switch {
		case m == name:
			w.scalar(m)
		case k == "value":
			if !cookie && d.Kind(name) == String {
				w.value(d.Str(name), m)
			} else {
				w.walk(m, modeSecret)
			}
		case fields[k]:
			w.scalar(m)
		default:
			w.walk(m, modeSecret)
		}
	}
}

// pair walks a [name, value] pair: the value by the name, anything after
// it as secret.
func (w *walker) pair(p Node) {
	d := w.d
	name := ""
	k := 0
	for x := range d.Children(p) {
		switch {
		case k == 0 && d.Kind(x) == String:
			name = d.Str(x)
			w.scalar(x)
		case k == 1 && name != "":
			w.value(name, x)
		default:
			w.walk(x, modeSecret)
		}
		k++
	}
}

// cookieNode walks HAR cookies: a list of cookie objects, or any other
// container of cookie values, all secret.
func (w *walker) cookieNode(c Node) {
	d := w.d
	if d.Kind(c) != Array {
		w.walk(c, modeSecret)
		return
	}
	for e := range d.Children(c) {
		if d.Kind(e) == Object {
			w.entry(e, true)
		} else {
			w.walk(e, modeSecret)
		}
	}
}

// headerLines redacts string node i holding "Name: value" lines: the values
// of names keep does not keep; the target of a request line as a URL;
// other lines as text.
func (w *walker) headerLines(i Node) {
	s := w.d.Str(i)
	var b strings.Builder
	changed := false
	for line := range strings.Lines(s) {
		l := strings.TrimRight(line, "\r\n")
		r := w.headerLine(l)
		changed = changed || r != l
		b.WriteString(r)
		b.WriteString(line[len(l):])
	}
	if changed {
		w.set(i, b.String())
	}
}

func (w *walker) headerLine(l string) string {
	name, value, ok := strings.Cut(l, ":")
	// Only ASCII blanks are trimmed: a name with any other space is no
	// kept name.
	if n := strings.Trim(name, " \t"); ok && n != "" && !strings.ContainsAny(n, " \t") {
		if w.keep.Keeps(n) {
			t, _ := redactText(value, w.depth, w.keep)
			return name + ":" + t
		}
		v := strings.TrimLeft(value, " \t")
		if strings.Trim(v, " \t") == "" || v == Redacted {
			return l
		}
		return name + ":" + value[:len(value)-len(v)] + Redacted
	}
	// A request line: METHOD TARGET HTTP/1.1.
	if f := strings.Fields(l); len(f) == 3 && strings.HasPrefix(f[2], "HTTP/") {
		if t, ok := redactURL(f[1], w.keep); ok {
			j := strings.Index(l, f[1])
			return l[:j] + t + l[j+len(f[1]):]
		}
		return l
	}
	t, _ := redactText(l, w.depth, w.keep)
	return t
}

// bodyHolder walks a HAR postData or response content object. Its text
// is the request body (left to skip), or envelope text: form parameters
// by name when the MIME type says form, free text otherwise; base64 text
// ("encoding": "base64") is decoded for that and encoded back, and is
// secret when it does not decode to UTF-8 text.
func (w *walker) bodyHolder(i Node, kind shapeKind) {
	d := w.d
	if d.Kind(i) != Object {
		w.scalar(i)
		return
	}
	for m := range d.Children(i) {
		if w.skip != nil && w.skip(m) {
			continue
		}
		k := d.Key(m)
		w.key(m, k)
		switch {
		case k == "text":
			w.holdText(i, m)
		case k == "params" && kind == shapePostData:
			w.headerNode(m, 0)
		case k == "mimeType" || k == "encoding" || k == "comment" || kind == shapeContent && (k == "size" || k == "compression"):
			w.scalar(m)
		default:
			w.walk(m, modeSecret)
		}
	}
}

// holdText redacts the text member t of postData or content object i.
func (w *walker) holdText(i Node, t Node) {
	d := w.d
	if d.Kind(t) != String {
		w.scalar(t)
		return
	}
	s := d.Str(t)
	b64 := false
	if enc := d.Get(i, "encoding"); d.Kind(enc) == String && strings.EqualFold(d.Str(enc), "base64") {
		dec, err := base64.StdEncoding.DecodeString(s)
		if err != nil || !utf8.Valid(dec) {
			w.walk(t, modeSecret)
			return
		}
		s, b64 = string(dec), true
	}
	var out string
	var changed bool
	if mime := d.Get(i, "mimeType"); d.Kind(mime) == String && strings.Contains(strings.ToLower(d.Str(mime)), "x-www-form-urlencoded") {
		out, changed = redactForm(s, w.keep)
	} else {
		out, changed = redactText(s, w.depth, w.keep)
	}
	if !changed {
		return
	}
	if b64 {
		out = base64.StdEncoding.EncodeToString([]byte(out))
	}
	w.set(t, out)
}
