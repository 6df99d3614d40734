// Package sse is a small reference decoder for text/event-stream bodies: the
// WHATWG "Interpreting an event stream" rules
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation)
// and nothing else, with no knowledge of what the data means.
//
// Two layers: bytes -> lines (CR, LF, CRLF, also a CRLF split across chunks;
// WHATWG UTF-8 decoding with U+FFFD per maximal invalid subpart; a BOM
// dropped at the very start of the stream only), then lines -> messages.
// Copy it, or plug your SDK's decoder into the conformance tests instead.
package sse

import "strings"

// Message is one dispatched event. Retry is the stream's reconnection time
// at dispatch, nil until a valid retry field has been seen.
type Message struct {
	Event string
	Data  string
	ID    string
	Retry *int
}

// MaxRetry is the largest reconnection time kept (2^53 - 1, the largest
// integer JSON numbers and JavaScript hold exactly): a longer run of digits
// is kept as MaxRetry, so decoders in every language agree.
const MaxRetry = 1<<53 - 1

// Decoder decodes one stream; Feed chunks in order, then End.
type Decoder struct {
	pending []byte
	skipLF  bool
	atStart bool
	data    []string
	hasData bool
	event   string
	lastID  string
	retry   *int
	out     []Message
}

// NewDecoder returns a decoder at the start of a stream.
func NewDecoder() *Decoder { return &Decoder{atStart: true} }

// Feed decodes the next chunk and returns the messages it completed.
func (d *Decoder) Feed(chunk []byte) []Message {
	if len(chunk) == 0 {
		// An empty read: a CR ending the previous chunk may still pair with an LF.
		return nil
	}
	start := 0
	if d.skipLF && chunk[0] == '\n' {
		start = 1
	}
	d.skipLF = false
	for i := start; i < len(chunk); i++ {
		b := chunk[i]
		if b != '\r' && b != '\n' {
			continue
		}
		d.pending = append(d.pending, chunk[start:i]...)
		d.line(d.pending)
		d.pending = d.pending[:0]
		if b == '\r' {
			if i+1 < len(chunk) && chunk[i+1] == '\n' {
				i++
			} else if i+1 == len(chunk) {
				d.skipLF = true
			}
		}
		start = i + 1
	}
	d.pending = append(d.pending, chunk[start:]...)
	out := d.out
	d.out = nil
	return out
}

// End ends the stream: an unterminated line and an incomplete event are
// discarded, and the decoder is ready for a new stream.
func (d *Decoder) End() []Message {
	out := d.out
	*d = Decoder{atStart: true}
	return out
}

// Decode decodes a whole stream given as chunks.
func Decode(chunks [][]byte) []Message {
	d := NewDecoder()
	var out []Message
	for _, c := range chunks {
		out = append(out, d.Feed(c)...)
	}
	return append(out, d.End()...)
}

func (d *Decoder) line(raw []byte) {
	text := DecodeUTF8(raw)
	if d.atStart {
		d.atStart = false
		text = strings.TrimPrefix(text, "\uFEFF")
	}
	if text == "" {
		d.dispatch()
		return
	}
	if text[0] == ':' {
		return
	}
	field, value, found := strings.Cut(text, ":")
	if found {
		value = strings.TrimPrefix(value, " ")
	}
	switch field {
	case "data":
		d.data = append(d.data, value)
		d.hasData = true
	case "event":
		d.event = value
	case "id":
		if !strings.ContainsRune(value, 0) {
			d.lastID = value
		}
	case "retry":
		if value != "" && strings.Trim(value, "0123456789") == "" {
			// Saturates at MaxRetry instead of overflowing.
			n := 0
			for _, c := range value {
				if n = n*10 + int(c-'0'); n > MaxRetry {
					n = MaxRetry
				}
			}
			d.retry = &n
		}
	}
}

func (d *Decoder) dispatch() {
	if !d.hasData {
		d.event = ""
		return
	}
	m := Message{Event: d.event, Data: strings.Join(d.data, "\n"), ID: d.lastID}
	if m.Event == "" {
		m.Event = "message"
	}
	if d.retry != nil {
		r := *d.retry
		m.Retry = &r
	}
	d.data, d.hasData, d.event = nil, false, ""
	d.out = append(d.out, m)
}

// DecodeUTF8 is the WHATWG "UTF-8 decode without BOM" with replacement: one
// U+FFFD per maximal invalid subpart, as TextDecoder and Python's "replace"
// do. (Go's utf8.DecodeRune yields one U+FFFD per byte of a truncated
// sequence, which disagrees with them.)
func DecodeUTF8(b []byte) string {
	var sb strings.Builder
	needed, seen := 0, 0
	cp := rune(0)
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if needed == 0 {
			switch {
			case c <= 0x7F:
				sb.WriteByte(c)
			case c >= 0xC2 && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				} else if c == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(c&0x0F)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				} else if c == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(c&0x07)
			default:
				sb.WriteRune('\uFFFD')
			}
			continue
		}
		if c < lower || c > upper {
			needed, seen, cp = 0, 0, 0
			lower, upper = 0x80, 0xBF
			sb.WriteRune('\uFFFD')
			i-- // the byte starts over
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		seen++
		if seen == needed {
			sb.WriteRune(cp)
			needed, seen, cp = 0, 0, 0
		}
	}
	if needed != 0 {
		sb.WriteRune('\uFFFD')
	}
	return sb.String()
}
