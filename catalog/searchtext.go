package catalog

import (
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/rank"
)

// How skill text becomes search terms, the same for the index and the
// query: words as rank.AppendTokens cuts them from lower-cased prose (so
// "GeoJSON" and "LaTeX" stay one word, as people type them), letters with
// diacritics folded to their base letter ("conférence" meets
// "conference"), then rank.Stem ("conversion" meets "convert").

// searchQuery is a query as the catalog searches it.
type searchQuery struct {
	rank.Query
	// words holds, by term, the word as typed (folded, not stemmed), for
	// typo recovery.
	words []string
}

// parseQuery tokenizes a query into distinct terms, dropping English
// function words and those of a few other languages people write queries
// in (German, French, Spanish), which would otherwise match words such as
// "de" in "de novo".
func parseQuery(text string) searchQuery {
	var q searchQuery
	seen := map[string]bool{}
	rank.AppendTokens(text, false, nil, func(tok []byte) {
		word := fold(tok)
		if rank.IsStopWord(word) || foreignStopWord(word) {
			return
		}
		t := rank.Stem(word)
		if !seen[t] {
			seen[t] = true
			q.Terms = append(q.Terms, t)
			q.words = append(q.words, word)
		}
	})
	return q
}

// fold returns tok with the Latin letters that carry diacritics replaced
// by their base letter, and ß by ss.
func fold(tok []byte) string {
	ascii := true
	for _, c := range tok {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return string(tok)
	}
	out := make([]byte, 0, len(tok))
	for i := 0; i < len(tok); {
		r, n := utf8.DecodeRune(tok[i:])
		i += n
		switch b := baseLetter(r); {
		case b == 'ß':
			out = append(out, 's', 's')
		case b != 0:
			out = append(out, byte(b))
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return string(out)
}

// baseLetter maps a lower-case Latin letter with a diacritic to its ASCII
// base letter (ß to itself, spelt out by fold); 0 for any other rune.
func baseLetter(r rune) rune {
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å', 'ā', 'ă', 'ą':
		return 'a'
	case 'ç', 'ć', 'č':
		return 'c'
	case 'ď':
		return 'd'
	case 'è', 'é', 'ê', 'ë', 'ē', 'ė', 'ę', 'ě':
		return 'e'
	case 'ì', 'í', 'î', 'ï', 'ī', 'į':
		return 'i'
	case 'ł', 'ľ':
		return 'l'
	case 'ñ', 'ń', 'ň':
		return 'n'
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø', 'ō', 'ő':
		return 'o'
	case 'ř':
		return 'r'
	case 'ś', 'š', 'ş':
		return 's'
	case 'ť', 'ţ':
		return 't'
	case 'ù', 'ú', 'û', 'ü', 'ū', 'ů', 'ű', 'ų':
		return 'u'
	case 'ý', 'ÿ':
		return 'y'
	case 'ź', 'ż', 'ž':
		return 'z'
	case 'ß':
		return 'ß'
	}
	return 0
}

// foreignStopWord reports whether a folded lower-case word is a German,
// French or Spanish function word: articles, prepositions, pronouns and
// conjunctions, which carry no routing signal.
func foreignStopWord(w string) bool {
	switch w {
	// German
	case "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "und", "oder", "mit", "fur", "von", "zu", "zum", "zur", "im", "ist", "ich", "wie", "auf", "aus", "bei", "nach", "nicht", "mein", "meine", "bitte":
		return true
	// French
	case "de", "le", "la", "les", "un", "une", "du", "au", "aux", "et", "ou", "pour", "avec", "dans", "sur", "par", "je", "mon", "ma", "mes", "ce", "cette", "qui", "que", "en":
		return true
	// Spanish
	case "el", "los", "las", "una", "unos", "unas", "del", "al", "y", "o", "para", "con", "por", "mi", "mis", "lo", "como":
		return true
	}
	return false
}

// indexTerms calls fn with the term of each word of a skill field, as
// parseQuery makes terms of a query's words (function words included:
// BM25F weighs them by their frequency). norm memoises the normalised
// form of each word seen, so a catalog folds and stems each distinct word
// once.
func indexTerms(text string, buf []byte, norm map[string]string, fn func(term string)) []byte {
	return rank.AppendTokens(text, false, buf[:0], func(tok []byte) {
		t, ok := norm[string(tok)] // no allocation for the lookup
		if !ok {
			t = rank.Stem(fold(tok))
			norm[string(tok)] = t
		}
		fn(t)
	})
}
