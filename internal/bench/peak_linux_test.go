package bench

import "testing"

func TestParseVmHWM(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"Name:\tx\nVmPeak:\t  9000 kB\nVmHWM:\t    1612 kB\nVmRSS:\t 1500 kB\n", 1612, true},
		{"VmHWM: 0 kB", 0, true},
		{"VmRSS:\t 1500 kB\n", 0, false},
		{"VmHWM:\t 12 MB\n", 0, false},
		{"VmHWM:\t -3 kB\n", 0, false},
		{"VmHWM:\t kB\n", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseVmHWM([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseVmHWM(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzParseVmHWM(f *testing.F) {
	f.Add([]byte("VmHWM:\t    1612 kB\n"))
	f.Add([]byte("VmHWM: 99999999999999999999 kB"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, ok := parseVmHWM(data)
		if !ok && n != 0 {
			t.Fatalf("not ok but %d", n)
		}
		if n < 0 {
			t.Fatalf("negative %d", n)
		}
	})
}
