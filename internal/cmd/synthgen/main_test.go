package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/internal/bench/synth"
)

func TestRecordEnvelope(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cap.json")
	var stdout, stderr bytes.Buffer
	code := run([]string{"-n", "40", "-provider", "gemini", "-seed", "3", "-turns", "2", "-envelope", "record", "-o", out}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		URL     string            `json:"url"`
		Method  string            `json:"method"`
		Headers map[string]string `json:"headers"`
		Body    json.RawMessage   `json:"body"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	want, _ := synth.Capture("gemini", synth.Skills(40, 3), 2)
	if rec.URL != "https://api.example.test/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse" ||
		rec.Method != "POST" || rec.Headers["content-type"] != "application/json" || !bytes.Equal(rec.Body, want) {
		t.Errorf("unexpected record: url %q method %q headers %v body equal %v", rec.URL, rec.Method, rec.Headers, bytes.Equal(rec.Body, want))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
}

func TestStdoutBareBody(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-n", "5", "-provider", "pi-messages"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want, _ := synth.Capture("pi-messages", synth.Skills(5, 1), 1)
	if !bytes.Equal(stdout.Bytes(), want) {
		t.Error("stdout differs from synth.Capture")
	}
}

func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-provider", "cohere"},
		{"-n", "-3"},
		{"-turns", "0"},
		{"-envelope", "har"},
		{"-provider", "pi-messages", "-envelope", "record"},
		{"-bogus"},
		{"extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

func TestDenseBody(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-dense", "5"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var body struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &body); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if len(body.Messages) != 3 || !bytes.Contains(body.Messages[1].Content, []byte(`"values":[0,0,0,0,0]`)) {
		t.Errorf("unexpected body %s", stdout.String())
	}
}
