package measure

// SkillTags exposes skillTags to the external tests.
var SkillTags = skillTags
