package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/schemas"
)

// ProfileVersion is the version of the card profile file format.
const ProfileVersion = 1

// MaxCardChars bounds a card's text, in characters.
const MaxCardChars = 200

// Profile holds one card per skill: a distinguishing sentence, one to three
// vocabulary tags, and the hash of the description it was made from.
type Profile struct {
	Version    int                    `json:"version"`
	Vocabulary string                 `json:"vocabulary"`
	Cards      map[string]ProfileCard `json:"cards"`
	// Activation holds each carded skill's activation tag (see
	// DeriveActivation); catalog init writes it with the cards.
	Activation map[string]ProfileActivation `json:"activation,omitempty"`

	once  sync.Once
	valid map[string]validCard // cards that pass ValidateCard, tags in vocabulary order
}

type validCard struct {
	hash string
	card Card
}

// ProfileCard is one skill's entry of a profile.
type ProfileCard struct {
	Card         string   `json:"card"`
	Tags         []string `json:"tags"`
	SourceSHA256 string   `json:"source_sha256"`
}

// NewProfile returns an empty profile of the current version.
func NewProfile() *Profile {
	return &Profile{Version: ProfileVersion, Vocabulary: VocabularyVersion, Cards: map[string]ProfileCard{}}
}

// SourceHash is the hash a card records of the description it describes.
func SourceHash(description string) string {
	sum := sha256.Sum256([]byte(description))
	return hex.EncodeToString(sum[:])
}

// Current returns the skill's card when the profile has one made from the
// skill's present description, with valid tags.
func (p *Profile) Current(sk Skill) (Card, bool) {
	p.once.Do(func() {
		p.valid = make(map[string]validCard, len(p.Cards))
		for name, pc := range p.Cards {
			if ValidateCard(pc) == nil {
				p.valid[name] = validCard{hash: pc.SourceSHA256, card: Card{Text: pc.Card, Tags: sortedTags(pc.Tags)}}
			}
		}
	})
	vc, ok := p.valid[sk.Name]
	if !ok || vc.hash != SourceHash(sk.Description) {
		return Card{}, false
	}
	return vc.card, true
}

// ValidateCard checks a card's length and tags.
func ValidateCard(pc ProfileCard) error {
	if pc.Card == "" {
		return fmt.Errorf("empty card")
	}
	if n := utf8.RuneCountInString(pc.Card); n > MaxCardChars {
		return fmt.Errorf("card of %d characters exceeds %d", n, MaxCardChars)
	}
	if len(pc.Tags) < 1 || len(pc.Tags) > 3 {
		return fmt.Errorf("%d tags, want 1 to 3", len(pc.Tags))
	}
	seen := map[string]bool{}
	for _, t := range pc.Tags {
		if !IsTag(t) {
			return fmt.Errorf("tag %q is not in the %s vocabulary", t, VocabularyVersion)
		}
		if seen[t] {
			return fmt.Errorf("tag %q repeats", t)
		}
		seen[t] = true
	}
	return nil
}

// MaxProfileBytes bounds a card profile file (a 100,000-skill profile is
// about 30 MB).
const MaxProfileBytes = 64 << 20

// LoadProfile reads and validates a profile file against its schema.
func LoadProfile(path string) (*Profile, error) {
	data, err := untrusted.ReadFile(path, MaxProfileBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	errs, err := schemas.ValidateFile("card-profile", data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: %s", path, errs[0])
	}
	var p Profile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if p.Vocabulary != VocabularyVersion {
		return nil, fmt.Errorf("%s: vocabulary %q is not %q; run `skillopt catalog init` again", path, p.Vocabulary, VocabularyVersion)
	}
	if p.Cards == nil {
		p.Cards = map[string]ProfileCard{}
	}
	return &p, nil
}

// Save writes the profile atomically with sorted keys.
func (p *Profile) Save(path string) error {
	// encoding/json writes map keys sorted, so the file is stable.
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
