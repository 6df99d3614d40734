package sse

import "testing"

// The fixture suite (../sse_test.go) is the real test; these pin the UTF-8
// replacement behaviour that Go's own decoder would get wrong.
func TestDecodeUTF8(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{[]byte("a€👋"), "a€👋"},
		{[]byte{0xe2, 0x82}, "\uFFFD"},
		{[]byte{0xc0, 0x80}, "\uFFFD\uFFFD"},
		{[]byte{0xed, 0xa0, 0x80}, "\uFFFD\uFFFD\uFFFD"},
		{[]byte{0xf0, 0x9f, 'a'}, "\uFFFDa"},
		{[]byte{0xf4, 0x90, 0x80, 0x80}, "\uFFFD\uFFFD\uFFFD\uFFFD"},
	} {
		if got := DecodeUTF8(c.in); got != c.want {
			t.Errorf("DecodeUTF8(% x) = %q, want %q", c.in, got, c.want)
		}
	}
}
