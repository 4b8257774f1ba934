package validity

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	_ "image/gif"  // registers GIF for image.DecodeConfig
	_ "image/jpeg" // registers JPEG
	_ "image/png"  // registers PNG
	"io"
	"strings"

	"github.com/skillopt/skillopt/capture"
)

// imageSize reads the pixel size of the base64 image in string node data,
// decoding only as much as its header needs. ok is false for data that is
// not a PNG, JPEG, GIF or WebP image.
func imageSize(d *capture.Doc, data capture.Node) (w, h int, ok bool) {
	if d.Kind(data) != capture.String {
		return 0, 0, false
	}
	var src io.Reader
	if raw := d.Raw(data); len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
		src = bytes.NewReader(raw[1 : len(raw)-1])
	} else {
		src = strings.NewReader(d.Str(data))
	}
	r := bufio.NewReader(base64.NewDecoder(base64.StdEncoding, src))
	if head, err := r.Peek(30); err == nil && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP" {
		return webpSize(head)
	}
	cfg, _, err := image.DecodeConfig(r)
	if err != nil {
		return 0, 0, false
	}
	return cfg.Width, cfg.Height, true
}

// webpSize reads the canvas size from the first 30 bytes of a WebP file.
func webpSize(b []byte) (w, h int, ok bool) {
	switch string(b[12:16]) {
	case "VP8 ": // lossy: 14-bit sizes after the frame tag and start code
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, false
		}
		return int(binary.LittleEndian.Uint16(b[26:]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:]) & 0x3fff), true
	case "VP8L": // lossless: signature 0x2f, then 14-bit width-1 and height-1
		if b[20] != 0x2f {
			return 0, 0, false
		}
		v := binary.LittleEndian.Uint32(b[21:])
		return int(v&0x3fff) + 1, int(v>>14&0x3fff) + 1, true
	case "VP8X": // extended: 24-bit canvas width-1 and height-1
		w := int(b[24]) | int(b[25])<<8 | int(b[26])<<16
		h := int(b[27]) | int(b[28])<<8 | int(b[29])<<16
		return w + 1, h + 1, true
	}
	return 0, 0, false
}
