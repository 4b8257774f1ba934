package capture

import (
	"bytes"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Redacted replaces every secret skillopt finds in a capture.
const Redacted = "REDACTED"

// Secret names. A header, query parameter, cookie or member name is a
// credential when its name, normalised by normName, is one of
// credentialNames or ends with one of credentialSuffixes, and is not one of
// notSecretNames; in free text (and JSON text in an envelope string) the
// names of textSecretNames and textSecretSuffixes are secret too. Request
// bodies are judged by credential names only (isBodyCredential).
var (
	credentialNames = map[string]bool{
		"key": true, "apikey": true, "api-key": true, "token": true, "secret": true,
		"password": true, "passwd": true, "auth": true, "authorization": true,
		"proxy-authorization": true, "cookie": true, "set-cookie": true,
		"sig": true, "signature": true, "credential": true, "jwt": true,
		"jsessionid": true, "phpsessid": true,
	}
	credentialSuffixes = []string{
		"-key", "-apikey", "-token", "-secret", "-password", "-passwd",
		"-signature", "-credential", "-authorization", "-cookie",
	}
	// notSecretNames end like secrets but name request parameters that
	// carry no credential.
	notSecretNames = map[string]bool{
		"idempotency-key": true, "x-idempotency-key": true, "prompt-cache-key": true,
	}
	textSecretNames = map[string]bool{
		"passphrase": true, "session": true, "sid": true, "api-keys": true, "apikeys": true,
		"access-key-id": true, "private-key-id": true, "credentials": true,
	}
	textSecretSuffixes = []string{
		"-passphrase", "-session", "-sid", "-auth", "-api-keys", "-access-key-id", "-private-key-id", "-credentials",
	}
	// urlSecretNames are secret as URL query and fragment parameters:
	// OAuth and SAML flows hand over codes, states and assertions there.
	urlSecretNames = map[string]bool{
		"code": true, "state": true, "session-state": true, "code-verifier": true, "nonce": true,
		"assertion": true, "client-assertion": true, "ticket": true, "otp": true,
		"saml-response": true, "samlresponse": true, "relay-state": true, "relaystate": true, "oauth-verifier": true,
	}
)

// normName folds a header, parameter or member name into one spelling:
// percent-decoded, lower-case, with '_', '.' and spaces turned into '-' and
// camelCase split at its humps (apiKey and API_KEY both become api-key).
func normName(name string) string {
	plain := true
	for i := 0; i < len(name) && plain; i++ {
		c := name[i]
		plain = !(c >= 'A' && c <= 'Z' || c == '_' || c == '.' || c == ' ' || c == '\t' || c == '%')
	}
	if plain {
		return strings.Trim(name, "-")
	}
	if strings.IndexByte(name, '%') >= 0 {
		if u, err := url.PathUnescape(name); err == nil {
			name = u
		}
	}
	b := make([]byte, 0, len(name)+4)
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if i > 0 && isLowerDigit(name[i-1]) {
				b = append(b, '-')
			}
			b = append(b, c+'a'-'A')
		case c == '_' || c == '.' || c == ' ' || c == '\t':
			b = append(b, '-')
		default:
			b = append(b, c)
		}
	}
	return strings.Trim(string(b), "-")
}

func isLowerDigit(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// IsSecretName reports whether values under the header, query parameter,
// cookie or member name are secret in free text: authorization, cookies,
// API keys, tokens, secrets, passwords, passphrases, sessions, signatures
// and credentials in any common spelling (x-api-key, X_API_KEY, apiKey,
// X-Amz-Security-Token, sig, x-sid, …). Names such as max_tokens,
// x-ratelimit-remaining-tokens, anthropic-version or content-type are not
// secret. (Envelope headers and parameters are kept by the allow-list of
// Keep instead.)
func IsSecretName(name string) bool { return isSecretNorm(normName(name)) }

func isSecretNorm(n string) bool {
	if isCredentialNorm(n) || textSecretNames[n] {
		return true
	}
	if n == "" || notSecretNames[n] {
		return false
	}
	for _, s := range textSecretSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// isCredentialNorm reports a normalised name of credentialNames or
// credentialSuffixes.
func isCredentialNorm(n string) bool {
	if n == "" || notSecretNames[n] {
		return false
	}
	if credentialNames[n] {
		return true
	}
	for _, s := range credentialSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// secretEnds holds the last two letters of every credential name and
// suffix: a name ending otherwise cannot be a credential (see mayBeSecret).
var secretEnds = func() map[[2]byte]bool {
	m := map[[2]byte]bool{}
	add := func(s string) { m[[2]byte{s[len(s)-2], s[len(s)-1]}] = true }
	for n := range credentialNames {
		add(n)
	}
	for _, s := range credentialSuffixes {
		add(s)
	}
	return m
}()

// mayBeSecret is a quick test on a raw member key, before decoding it: false
// means the name is not a credential.
func mayBeSecret(raw []byte) bool {
	for len(raw) > 0 && strings.IndexByte("-_. \t", raw[len(raw)-1]) >= 0 {
		raw = raw[:len(raw)-1]
	}
	if len(raw) < 2 || bytes.IndexByte(raw, '%') >= 0 || bytes.IndexByte(raw, '\\') >= 0 {
		return true
	}
	lower := func(c byte) byte {
		if c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	return secretEnds[[2]byte{lower(raw[len(raw)-2]), lower(raw[len(raw)-1])}]
}

// bodyKeySuffixes end the *-key names that hold a credential when they appear
// at the top level of a request body; other *-key members (cache and
// idempotency keys, for instance) are request parameters.
var bodyKeySuffixes = []string{"api-key", "apikey", "secret-key", "access-key", "private-key", "subscription-key", "master-key", "admin-key"}

// isBodyCredential reports whether a top-level member of a request body
// named name carries a credential (LiteLLM's api_key, apiKey, a client
// secret or access token). It is narrower than IsSecretName: a body member
// is a request parameter unless its name plainly says credential.
func isBodyCredential(name string) bool {
	n := normName(name)
	if !isCredentialNorm(n) {
		return false
	}
	switch {
	case n == "key" || strings.HasSuffix(n, "-key"):
		for _, s := range bodyKeySuffixes {
			if n == s || strings.HasSuffix(n, "-"+s) {
				return true
			}
		}
		return false
	case n == "sig" || n == "signature" || strings.HasSuffix(n, "-signature"):
		return false
	case n == "page-token" || strings.HasSuffix(n, "-page-token") || n == "continuation-token":
		return false
	}
	return true
}

// RedactText returns s with every credential it can recognise replaced by
// REDACTED: values after a secret name (IsSecretName) in "Name: value"
// header lines, name=value parameters (URL queries, fragments, ';'
// parameters, "&amp;" separators, command-line flags) and "name": value
// pairs; OAuth and SAML codes, states and assertions in URL queries and
// fragments; Bearer, Basic and Token credentials; passwords in URL
// user-info and curl -u; private key blocks; and well-known key shapes
// (sk-…, AIza…, ya29.…, 1//…, ghp_…, github_pat_…, xox?-…, AKIA…, JWTs).
// Text holding a JSON object or array is redacted member by member as an
// envelope is.
func RedactText(s string) string {
	out, _ := redactText(s, 0, nil)
	return out
}

// maxTextDepth bounds how deep JSON text nested in strings is redacted
// structurally; deeper text is scanned as plain text.
const maxTextDepth = 4

// redactText redacts s and reports whether anything changed. With keep
// set, s is envelope text: the values of every URL's query, fragment and
// ';' parameters are redacted unless keep keeps their names.
func redactText(s string, depth int, keep *Keep) (string, bool) {
	if len(s) < 4 {
		return s, false
	}
	if t := strings.TrimSpace(s); depth < maxTextDepth && len(t) > 1 && (t[0] == '{' || t[0] == '[') {
		if d, err := Parse([]byte(s)); err == nil {
			w := newWalker(d, depth+1, keep)
			w.walk(0, modePlain)
			if len(w.fixes) == 0 {
				return s, false
			}
			return string(applyFixes(d.Src, w.fixes)), true
		}
	}
	spans := textSecrets(s, keep)
	if len(spans) == 0 {
		return s, false
	}
	return spliceRedacted(s, spans), true
}

// spliceRedacted returns s with each of the sorted, disjoint spans
// replaced by REDACTED.
func spliceRedacted(s string, spans [][2]int) string {
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for _, sp := range spans {
		b.WriteString(s[prev:sp[0]])
		b.WriteString(Redacted)
		prev = sp[1]
	}
	b.WriteString(s[prev:])
	return b.String()
}

// textSecrets returns the sorted, disjoint spans of s that hold secrets
// (keep: see redactText).
func textSecrets(s string, keep *Keep) [][2]int {
	var spans [][2]int
	add := func(a, b int) {
		if b > a && s[a:b] != Redacted {
			spans = append(spans, [2]int{a, b})
		}
	}
	marks := scanMarks(s)
	if marks&markNamed != 0 {
		namedValues(s, add)
	}
	if marks&markScheme != 0 {
		schemeTokens(s, add)
	}
	if marks&markShape != 0 {
		for _, m := range reKeyShapes().FindAllStringIndex(s, -1) {
			if m[0] == 0 || !isWordByte(s[m[0]-1]) {
				add(m[0], m[1])
			}
		}
	}
	if marks&markURL != 0 {
		userInfo(s, add)
		if keep == nil {
			urlParams(s, add, isURLSecretParam, false)
		} else {
			urlParams(s, add, func(name string) bool { return !keep.keepsParam(name) }, true)
		}
	}
	if marks&markCurl != 0 {
		for _, m := range reCurlUser().FindAllStringSubmatchIndex(s, -1) {
			add(m[2], m[3])
		}
	}
	return mergeSpans(spans)
}

// mergeSpans sorts spans and joins those that overlap.
func mergeSpans(spans [][2]int) [][2]int {
	if len(spans) == 0 {
		return nil
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp[0] <= last[1] {
			last[1] = max(last[1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}

// Marks tell textSecrets which of its scanners can find anything in a text.
const (
	markNamed  = 1 << iota // a ':' or '=' separator
	markScheme             // Bearer, Basic or Token
	markShape              // the start of a well-known key shape
	markURL                // "://"
	markCurl               // "-u" or "--user"
)

// scanMarks looks for the marks in one pass over s.
func scanMarks(s string) int {
	m := 0
	for i := 0; i < len(s); i++ {
		switch rest := s[i:]; s[i] {
		case ':':
			m |= markNamed
			if strings.HasPrefix(rest, "://") {
				m |= markURL
			}
		case '=':
			m |= markNamed
		case 'B', 'b':
			if len(rest) >= 5 && (strings.EqualFold(rest[:5], "basic") || len(rest) >= 6 && strings.EqualFold(rest[:6], "bearer")) {
				m |= markScheme
			}
		case 'T', 't':
			if len(rest) >= 5 && strings.EqualFold(rest[:5], "token") {
				m |= markScheme
			}
		case '-':
			if strings.HasPrefix(rest, "-u") || strings.HasPrefix(rest, "--user") {
				m |= markCurl
			}
			if strings.HasPrefix(rest, "-----BEGIN") {
				m |= markShape
			}
		default:
			for _, p := range shapeStarts[s[i]] {
				if strings.HasPrefix(rest, p) {
					m |= markShape
					break
				}
			}
		}
	}
	return m
}

// keyShapePrefixes start every match of reKeyShapes (with -----BEGIN).
var keyShapePrefixes = []string{"sk-", "sk_", "rk_", "AIza", "ya29.", "1//", "AKIA", "ASIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gsk_", "xox", "xai-", "hf_", "npm_", "eyJ"}

// shapeStarts indexes keyShapePrefixes by their first byte.
var shapeStarts = func() (t [256][]string) {
	for _, p := range keyShapePrefixes {
		t[p[0]] = append(t[p[0]], p)
	}
	return t
}()

var (
	// Key shapes issued by well-known services, matched where a word starts.
	reKeyShapes = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`sk-[A-Za-z0-9_-]{8,}|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{8,}|AIza[0-9A-Za-z_-]{20,}|ya29\.[0-9A-Za-z_.-]{20,}|1//0[0-9A-Za-z_-]{20,}|npm_[A-Za-z0-9]{30,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposre]-[A-Za-z0-9-]{8,}|(?:AKIA|ASIA)[0-9A-Z]{16}|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{30,}|gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*|-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z ]*PRIVATE KEY-----|$)`)
	})
	// curl -u user:password, --user user:password
	reCurlUser = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|\s)(?:-u|--user)(?:\s+|=)['"]?[^\s:'"]*:([^\s'"]+)`)
	})
)

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// isNameByte reports bytes of a header or parameter name as it appears in
// text (percent escapes included).
func isNameByte(c byte) bool { return isWordByte(c) || c == '-' || c == '%' }

// namedValues finds "NAME: value", "NAME=value" and "NAME": "value" where
// NAME is secret and reports the value's span.
func namedValues(s string, add func(a, b int)) {
	query := strings.IndexByte(s, '?')
	if query < 0 {
		query = len(s)
	}
	for i := 0; i < len(s); {
		if !isNameByte(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		start, end := i, j
		i = j
		// A quote around the name: "api_key": …, 'x-api-key: …', \"token\": ….
		var quote string
		if start > 0 && (s[start-1] == '"' || s[start-1] == '\'') {
			quote = s[start-1 : start]
			if start > 1 && s[start-2] == '\\' {
				quote = s[start-2 : start]
			}
		}
		k := end
		if quote != "" && strings.HasPrefix(s[k:], quote) {
			k += len(quote)
		}
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k >= len(s) || (s[k] != ':' && s[k] != '=') {
			continue
		}
		sep := s[k]
		k++
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k >= len(s) || !isSecretNorm(normName(s[start:end])) {
			continue
		}
		a, b := valueSpan(s, k, sep, quote, k <= query)
		if v := s[a:b]; b == a || v == "null" || v == "true" || v == "false" {
			continue
		}
		add(a, b)
		i = b // the value is redacted whole; names inside it add nothing
	}
}

// valueSpan returns the span of the value starting at k after separator sep;
// quote is the quote that opened before the name, if any, and inPath says
// no '?' comes before the value.
func valueSpan(s string, k int, sep byte, quote string, inPath bool) (int, int) {
	for _, q := range []string{`\"`, `"`, `'`} {
		if strings.HasPrefix(s[k:], q) {
			a := k + len(q)
			b := a
			for b < len(s) && s[b] != '\n' && s[b] != '\r' && !strings.HasPrefix(s[b:], q) {
				if q == `"` && s[b] == '\\' && b+1 < len(s) {
					b++ // an escaped character inside JSON-like text
				}
				b++
			}
			return a, min(b, len(s))
		}
	}
	switch s[k] {
	case '{':
		return k, k // the members are scanned on their own
	case '[':
		// A list of values: up to the closing bracket on this line.
		b := k + 1
		for b < len(s) && s[b] != ']' && s[b] != '\n' && s[b] != '\r' {
			b++
		}
		return k + 1, b
	}
	b := k
	if sep == '=' {
		// A parameter value: up to the next separator, or to the query
		// when the parameter sits in a URL's path (;jsessionid=…?q=1).
		for b < len(s) && !strings.ContainsRune("&;# \t\r\n\"'\\<>,)]}", rune(s[b])) && !(inPath && s[b] == '?') {
			b++
		}
		return k, b
	}
	// A header value: to the end of the line, or to the quote that
	// opened before the name (-H "x-api-key: …").
	for b < len(s) && s[b] != '\n' && s[b] != '\r' && (quote == "" || !strings.HasPrefix(s[b:], quote)) {
		b++
	}
	for b > k && (s[b-1] == ' ' || s[b-1] == '\t' || s[b-1] == ',') {
		b--
	}
	return k, b
}

// redactURL returns the URL s (absolute, or a path with its query) with
// the values of its query, fragment and ';' parameters redacted unless
// keep keeps their names, a user-info password redacted, and whatever
// free text holds (a key in the path).
func redactURL(s string, keep *Keep) (string, bool) {
	spans := textSecrets(s, keep)
	add := func(a, b int) {
		if b > a && s[a:b] != Redacted {
			spans = append(spans, [2]int{a, b})
		}
	}
	start := 0
	if i := strings.Index(s, "://"); i >= 0 {
		start = i + 3
	}
	if j := strings.IndexAny(s[start:], "?#;"); j >= 0 {
		params(s, start+j, len(s), add, func(name string) bool { return !keep.keepsParam(name) }, true)
	}
	spans = mergeSpans(spans)
	if len(spans) == 0 {
		return s, false
	}
	return spliceRedacted(s, spans), true
}

// redactForm returns form-encoded text (a=1&b=2) with the values of
// parameters keep does not keep redacted, and whatever free text holds.
func redactForm(s string, keep *Keep) (string, bool) {
	q := "?" + s
	var spans [][2]int
	for _, sp := range textSecrets(s, keep) {
		spans = append(spans, [2]int{sp[0] + 1, sp[1] + 1})
	}
	params(q, 0, len(q), func(a, b int) {
		if b > a && q[a:b] != Redacted {
			spans = append(spans, [2]int{a, b})
		}
	}, func(name string) bool { return !keep.keepsParam(name) }, true)
	spans = mergeSpans(spans)
	if len(spans) == 0 {
		return s, false
	}
	return spliceRedacted(q, spans)[1:], true
}

// userInfo finds the password in scheme://user:password@host.
func userInfo(s string, add func(a, b int)) {
	for off := 0; ; {
		i := strings.Index(s[off:], "://")
		if i < 0 {
			return
		}
		a := off + i + 3
		b := a
		for b < len(s) && strings.IndexByte("/?#@ \t\r\n\"'<>\\", s[b]) < 0 {
			b++
		}
		off = b
		if b < len(s) && s[b] == '@' {
			if c := strings.IndexByte(s[a:b], ':'); c >= 0 {
				add(a+c+1, b)
			}
		}
	}
}

// schemeTokens finds credentials after the HTTP authentication schemes
// Bearer, Basic and Token (GitHub's and Django's "token …"; a longer
// credential is wanted after that common word).
func schemeTokens(s string, add func(a, b int)) {
	for _, scheme := range []string{"Bearer", "bearer", "BEARER", "Basic", "basic", "BASIC", "Token", "token", "TOKEN"} {
		for off := 0; ; {
			i := strings.Index(s[off:], scheme)
			if i < 0 {
				break
			}
			i += off
			off = i + len(scheme)
			if i > 0 && isWordByte(s[i-1]) {
				continue
			}
			k := off
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
			if k == off {
				continue
			}
			b := k
			for b < len(s) && (isWordByte(s[b]) || strings.IndexByte("-._~+/=", s[b]) >= 0) {
				b++
			}
			if credentialLike(s[k:b]) && (scheme[0] != 'T' && scheme[0] != 't' || b-k >= 20) {
				add(k, b)
			}
		}
	}
}

// isURLSecretParam reports the query and fragment parameters of a URL in
// free text whose values are secret: secret names and the OAuth and SAML
// parameters of urlSecretNames.
func isURLSecretParam(name string) bool {
	n := normName(name)
	return urlSecretNames[n] || isSecretNorm(n)
}

// urlParams finds the parameters of every URL in s (scheme://…): its query
// and fragment parameters, and ';' parameters of its path. It reports the
// value of each parameter named as secret reports; with bare set, a
// parameter without '=' counts as a value whose name is itself.
func urlParams(s string, add func(a, b int), secret func(name string) bool, bare bool) {
	for off := 0; ; {
		i := strings.Index(s[off:], "://")
		if i < 0 {
			return
		}
		a := off + i + 3
		b := a
		for b < len(s) && strings.IndexByte(" \t\r\n\"'<>\\`", s[b]) < 0 {
			b++
		}
		off = b
		j := strings.IndexAny(s[a:b], "?#;")
		if j < 0 {
			continue
		}
		params(s, a+j, b, add, secret, bare)
	}
}

// params reports the secret parameter values of s[from:to], the part of a
// URL from its first '?', '#' or ';' on: name=value parameters separated
// by '&' (or "&amp;"), ';', '?' or '#'.
func params(s string, from, to int, add func(a, b int), secret func(name string) bool, bare bool) {
	for k := from; k < to; {
		// s[k] is a separator; the parameter runs to the next one.
		k++
		for strings.HasPrefix(s[k:to], "amp;") && s[k-1] == '&' {
			k += len("amp;")
		}
		e := k
		for e < to && strings.IndexByte("&;?#", s[e]) < 0 {
			e++
		}
		name, _, hasValue := strings.Cut(s[k:e], "=")
		switch {
		case hasValue:
			v := k + len(name) + 1
			end := v
			for end < e && strings.IndexByte(",)]}", s[end]) < 0 {
				end++
			}
			if end > v && secret(name) {
				add(v, end)
			}
		case bare && e > k && secret(name):
			add(k, e)
		}
		k = e
	}
}

// credentialLike tells a token from a word: long enough, and carrying a
// digit, a symbol or a capital after its first letter.
func credentialLike(t string) bool {
	if len(t) < 8 || t == Redacted {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= '0' && c <= '9' || strings.IndexByte("-._~+/=", c) >= 0 || i > 0 && c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// RedactURL returns the URL s as an envelope keeps it when a capture is
// read: the values of its query, fragment and ';' parameters replaced by
// REDACTED unless keep keeps their names (nil keeps KeptNames), a
// user-info password and any credential its text holds replaced too.
func RedactURL(s string, keep *Keep) string {
	out, _ := redactURL(s, keepOf(Options{Keep: keep}))
	return out
}

// RedactHeader returns the value of the header name as an envelope keeps
// it when a capture is read: the value, with any credential its text
// holds replaced, when keep keeps the name (nil keeps KeptNames);
// REDACTED otherwise. An empty value stays empty.
func RedactHeader(name, value string, keep *Keep) string {
	keep = keepOf(Options{Keep: keep})
	if !keep.Keeps(name) {
		if value == "" {
			return ""
		}
		return Redacted
	}
	out, _ := redactText(value, 0, keep)
	return out
}

// RedactBody returns a request body with the credentials the reader
// replaces at its top level (api_key, client_secret, MCP authorization
// tokens; see the capture reader) replaced by REDACTED. A body that is not
// JSON, or holds no such member, comes back unchanged.
func RedactBody(body []byte) []byte {
	d, err := Parse(body)
	if err != nil {
		return body
	}
	return RedactDoc(d)
}

// RedactDoc is RedactBody for a body already indexed: its bytes, with
// the credentials at its top level redacted.
func RedactDoc(d *Doc) []byte {
	fixes := bodyCredentials(d)
	if len(fixes) == 0 {
		return d.Src
	}
	return applyFixes(d.Src, fixes)
}
