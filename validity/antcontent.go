package validity

import (
	"encoding/base64"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// AnthropicEmptyContent checks that messages have content.
var AnthropicEmptyContent = &rules.Rule{
	ID:       "SO515",
	Title:    "Anthropic messages have content",
	Why:      "Anthropic rejects an empty message other than the final assistant one, which a transform or host that empties a message produces.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-empty-content",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Every Anthropic message has content: an empty string or an empty block list is rejected " +
		"(\"all messages must have non-empty content except for the optional final assistant message\"), " +
		"the exception being a final assistant message, which may be empty. " +
		"A transform or host that empties a message (a tool result cleared, a turn stripped of its only block) produces it. " +
		"Source: the API's error text, as listed at https://portkey.ai/error-library/message-content-error-10492 and in public reports.",
	Run: runAnthropicEmptyContent,
}

func runAnthropicEmptyContent(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	d := p.Capture.Doc
	msgs := elems(d, d.Get(0, "messages"))
	for i, m := range msgs {
		c := d.Get(m, "content")
		empty := d.Kind(c) == capture.String && d.StrIs(c, "") || d.Kind(c) == capture.Array && d.Len(c) == 0
		if !empty || i == len(msgs)-1 && d.StrIs(d.Get(m, "role"), "assistant") {
			continue
		}
		p.Reportf(d.Pointer(c), "the message's content is empty; only a final assistant message may be")
	}
	return nil
}

// AnthropicImages checks the number and size of images.
var AnthropicImages = &rules.Rule{
	ID:       "SO516",
	Title:    "Images and PDF pages within Anthropic's limits",
	Why:      "Anthropic rejects images that are too large, or too many images in one request, so checking offline avoids a failed turn.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-images",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Anthropic limits the images of a request. An image larger than 8000×8000 px is rejected, " +
		"and when a request carries more than 20 images the limit is 2000×2000 px " +
		"(the size is read from the header of each base64 PNG, JPEG, GIF or WebP image). " +
		"A request holds at most 100 images on models with a 200k-token context window, 600 on the others " +
		"(by the model table; unknown models are not counted). " +
		"On the 200k-context models, the base64 PDF documents of a request hold at most 100 pages together; " +
		"a PDF's count is read from its page tree, and a PDF whose tree is in compressed object streams is not counted. " +
		"Sources: https://platform.claude.com/docs/en/build-with-claude/vision (general limits), " +
		"https://platform.claude.com/docs/en/build-with-claude/pdf-support (\"Maximum pages per request: 100\"); " +
		"the error \"A maximum of 100 PDF pages may be provided\" as reported in anthropics/claude-code#6231.",
	Run: runAnthropicImages,
}

// Image limits of the vision guide.
const (
	maxImageSide      = 8000
	maxManyImageSide  = 2000
	manyImages        = 20
	maxImagesLargeCtx = 600
	// maxPDFPages is the page limit of a request of the PDF guide, read
	// on the models with a 200k-token context window (those whose image
	// limit is the same 100).
	maxPDFPages = 100
)

// checkPDFPages reports a request whose base64 PDF documents declare more
// pages than the model takes, at the document that crosses the limit.
// PDFs whose page count cannot be read are not counted.
func checkPDFPages(p *rules.Pass, d *capture.Doc, m *antModel) {
	total := 0
	for _, doc := range documentsOf(d) {
		src := d.Get(doc, "source")
		if !d.StrIs(d.Get(src, "type"), "base64") || !d.StrIs(d.Get(src, "media_type"), "application/pdf") {
			continue
		}
		data := d.Get(src, "data")
		if d.Kind(data) != capture.String {
			continue
		}
		pdf, err := base64.StdEncoding.DecodeString(d.Str(data))
		if err != nil {
			continue
		}
		n, ok := pdfPageCount(pdf)
		if !ok {
			continue
		}
		before := total
		total += n
		if before <= maxPDFPages && total > maxPDFPages {
			p.Reportf(d.Pointer(doc), "the PDF documents of the request have %d pages up to this one; %s takes at most %d per request", total, m.name, maxPDFPages)
		}
	}
}

func runAnthropicImages(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	d := p.Capture.Doc
	// Image blocks of the messages and of their tool results.
	var images []capture.Node
	for _, m := range elems(d, d.Get(0, "messages")) {
		for b := range d.Children(d.Get(m, "content")) {
			switch d.GetStr(b, "type") {
			case "image":
				images = append(images, b)
			case "tool_result":
				images = append(images, blocksOf(d, d.Get(b, "content"), "image")...)
			}
		}
	}
	m := antModelOf(p.Capture)
	if m != nil && m.images == maxPDFPages {
		checkPDFPages(p, d, m)
	}
	if len(images) == 0 {
		return nil
	}
	if m != nil {
		limit := m.images
		if limit == 0 {
			limit = maxImagesLargeCtx
		}
		if len(images) > limit {
			p.Reportf(d.Pointer(images[limit]), "%d images in the request; %s takes at most %d", len(images), m.name, limit)
		}
	}
	side := maxImageSide
	if len(images) > manyImages {
		side = maxManyImageSide
	}
	for _, img := range images {
		src := d.Get(img, "source")
		if !d.StrIs(d.Get(src, "type"), "base64") {
			continue
		}
		data := d.Get(src, "data")
		w, h, ok := imageSize(d, data)
		if !ok || w <= side && h <= side {
			continue
		}
		if side == maxManyImageSide {
			p.Reportf(d.Pointer(data), "the image is %d×%d px; with more than %d images (%d here) a side may be at most %d px", w, h, manyImages, len(images), side)
		} else {
			p.Reportf(d.Pointer(data), "the image is %d×%d px; a side may be at most %d px", w, h, side)
		}
	}
	return nil
}

// AnthropicDeferredCache checks that deferred tools carry no cache
// breakpoint.
var AnthropicDeferredCache = &rules.Rule{
	ID:       "SO517",
	Title:    "Deferred tools carry no cache breakpoint",
	Why:      "Anthropic rejects a tool with both defer_loading and cache_control, a combination that deferring tools on a request with breakpoints creates.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-deferred-cache",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "A tool with defer_loading may not carry cache_control: deferred tools are not part of the cached prefix, " +
		"and Anthropic answers HTTP 400 (\"Tool '…' cannot have both defer_loading=true and cache_control set. Tools with defer_loading cannot use prompt caching.\"). " +
		"Put the tools' breakpoint on the last tool that is not deferred. " +
		"Sources: https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-use-with-prompt-caching (deferred tools are not in the prefix); " +
		"the error as reported in router-for-me/CLIProxyAPI#4561 and decolua/9router#3567.",
	Run: runAnthropicDeferredCache,
}

func runAnthropicDeferredCache(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	d := p.Capture.Doc
	for t := range d.Children(d.Get(0, "tools")) {
		if d.Kind(d.Get(t, "defer_loading")) != capture.True {
			continue
		}
		if cc := d.Get(t, "cache_control"); d.Kind(cc) == capture.Object {
			p.Reportf(d.Pointer(cc), "tool %s is deferred (defer_loading) and may not carry cache_control", d.GetStr(t, "name"))
		}
	}
	return nil
}
