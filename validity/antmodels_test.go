package validity

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strconv"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

func TestAntModelOf(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"claude-sonnet-4-5", "claude-sonnet-4-5"},
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4-5"},
		{"claude-sonnet-4-5@20250929", "claude-sonnet-4-5"},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"},
		{"anthropic.claude-opus-4-6-v1", "claude-opus-4-6"},
		{"global.anthropic.claude-opus-4-7", "claude-opus-4-7"},
		{"claude-opus-4-20250514", "claude-opus-4"},
		{"claude-sonnet-4-0", "claude-sonnet-4"},
		{"claude-opus-4-1", "claude-opus-4-1"},
		{"claude-3-7-sonnet-latest", "claude-3-7-sonnet"},
		{"claude-opus-5", "claude-opus-5"},
		{"claude-opus-5-5", "claude-opus-5-5"},
		{"claude-fable-5-1", "claude-fable-5-1"},
		{"CLAUDE-HAIKU-4-5", "claude-haiku-4-5"},
		{"claude-3-haiku-20240307", "claude-3-haiku"},
		{"claude-3-5-haiku-20241022", "claude-3-5-haiku"},
		{"anthropic.claude-3-opus-20240229-v1:0", "claude-3-opus"},
		// Unknown: no entry, so no model-dependent finding.
		{"claude-sonnet-4-5-thinking", ""},
		{"claude-opus-4-9", ""},
		{"claude-2.1", ""},
		{"anthropic/claude-sonnet-4.5", ""},
		{"gpt-4.1", ""},
		{"", ""},
	} {
		body, _ := capture.Parse([]byte(`{"model":` + strconv.Quote(tc.id) + `}`))
		got := ""
		if m := antModelOf(&capture.Capture{Doc: body}); m != nil {
			got = m.name
		}
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.id, got, tc.want)
		}
	}
}

// webp builds the first bytes of a WebP file with one chunk.
func webp(chunk string, payload []byte) []byte {
	b := append([]byte("RIFF\x00\x00\x00\x00WEBP"+chunk), 0, 0, 0, 0)
	b = append(b, payload...)
	return append(b, make([]byte, 16)...)
}

func TestImageSize(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 3001, 7))
	var pngB, gifB, jpgB bytes.Buffer
	if err := png.Encode(&pngB, img); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&gifB, img, nil); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpgB, img, nil); err != nil {
		t.Fatal(err)
	}
	lossy := []byte{0, 0, 0, 0x9d, 0x01, 0x2a}
	lossy = binary.LittleEndian.AppendUint16(lossy, 9000)
	lossy = binary.LittleEndian.AppendUint16(lossy, 12)
	lossless := []byte{0x2f}
	lossless = binary.LittleEndian.AppendUint32(lossless, uint32(8999)|uint32(11)<<14)
	ext := []byte{0, 0, 0, 0, 0x27, 0x23, 0, 0x0b, 0, 0} // 9000-1, 12-1 (24 bits each)
	for _, tc := range []struct {
		name string
		data []byte
		w, h int
		ok   bool
	}{
		{"png", pngB.Bytes(), 3001, 7, true},
		{"gif", gifB.Bytes(), 3001, 7, true},
		{"jpeg", jpgB.Bytes(), 3001, 7, true},
		{"webp lossy", webp("VP8 ", lossy), 9000, 12, true},
		{"webp lossless", webp("VP8L", lossless), 9000, 12, true},
		{"webp extended", webp("VP8X", ext), 9000, 12, true},
		{"not an image", []byte("plain text, long enough to peek at thirty bytes"), 0, 0, false},
	} {
		body, err := capture.Parse([]byte(`{"d":"` + base64.StdEncoding.EncodeToString(tc.data) + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		w, h, ok := imageSize(body, body.Get(0, "d"))
		if w != tc.w || h != tc.h || ok != tc.ok {
			t.Errorf("%s: got %d×%d %v, want %d×%d %v", tc.name, w, h, ok, tc.w, tc.h, tc.ok)
		}
	}
}
