package plan

import (
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// appendf appends to b what fmt.Sprintf(format, args...) gives for the
// sentences of reasons, events and errors: the same text for the verbs they
// use (%s, %q and %v of a string, %d, %+d and %v of an integer, %%) and for
// fmt's missing-argument, extra-argument and wrong-type (%d of a string, %s
// of an integer) forms, without fmt's per-call state and without making its
// arguments escape, so the caller boxes them on its stack. Arguments of
// kind string or of a signed integer kind are supported, named types
// included. Anything else (another verb, a flag other than + on %d, another
// argument kind) is written as "%!<verb>(unsupported)", which no sentence
// of the planner produces (a test checks every format the package passes
// here). A sync writes the result to its plan's text memory (see
// planMemory.sprintf).
func appendf(b []byte, format string, args ...any) []byte {
	next := 0
	for i := 0; i < len(format); i++ {
		if j := strings.IndexByte(format[i:], '%'); j != 0 {
			if j < 0 {
				return appendExtra(append(b, format[i:]...), args[next:])
			}
			b = append(b, format[i:i+j]...)
			i += j
		}
		i++
		if i == len(format) {
			return append(b, "%!(NOVERB)"...)
		}
		plus := false
		if format[i] == '+' {
			plus = true
			i++
			if i == len(format) {
				return append(b, "%!(NOVERB)"...)
			}
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size - 1
		switch {
		case verb == '%': // as fmt: no operand, flags ignored
			b = append(b, '%')
			continue
		case next >= len(args):
			b = append(b, '%', '!')
			b = utf8.AppendRune(b, verb)
			b = append(b, "(MISSING)"...)
			continue
		case !(verb == 's' || verb == 'q' || verb == 'd' || verb == 'v') || plus && verb != 'd':
			b = append(b, '%', '!')
			b = utf8.AppendRune(b, verb)
			b = append(b, "(unsupported)"...)
			next++
			continue
		}
		b = appendArg(b, byte(verb), plus, args[next])
		next++
	}
	return appendExtra(b, args[next:])
}

// appendExtra writes fmt's form for arguments no verb used.
func appendExtra(b []byte, extra []any) []byte {
	if len(extra) == 0 {
		return b
	}
	b = append(b, "%!(EXTRA "...)
	for i, a := range extra {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendTyped(b, a)
	}
	return append(b, ')')
}

// appendArg writes one argument for a supported verb.
func appendArg(b []byte, verb byte, plus bool, a any) []byte {
	s, n, kind := argValue(a)
	switch {
	case kind == argString && (verb == 's' || verb == 'v'):
		return append(b, s...)
	case kind == argString && verb == 'q':
		return strconv.AppendQuote(b, s)
	case kind == argInt && (verb == 'd' || verb == 'v'):
		if plus && n >= 0 {
			b = append(b, '+')
		}
		return strconv.AppendInt(b, n, 10)
	case kind != argOther && verb != 'q':
		// fmt's wrong-type form, e.g. %!d(string=web).
		b = append(b, '%', '!', verb, '(')
		return append(appendTyped(b, a), ')')
	}
	b = append(b, '%', '!', verb)
	return append(b, "(unsupported)"...)
}

// appendTyped writes "type=value", as fmt does inside its error forms.
func appendTyped(b []byte, a any) []byte {
	s, n, kind := argValue(a)
	if kind == argOther {
		return append(b, "unsupported"...)
	}
	b = append(b, reflect.TypeOf(a).String()...)
	b = append(b, '=')
	if kind == argString {
		return append(b, s...)
	}
	return strconv.AppendInt(b, n, 10)
}

type argKind int

const (
	argOther argKind = iota
	argString
	argInt
)

// argValue reads a string or signed integer argument; reflect.ValueOf does
// not make a escape.
func argValue(a any) (string, int64, argKind) {
	switch x := a.(type) {
	case string:
		return x, 0, argString
	case int:
		return "", int64(x), argInt
	case int32:
		return "", int64(x), argInt
	case int64:
		return "", x, argInt
	}
	v := reflect.ValueOf(a)
	switch v.Kind() {
	case reflect.String:
		return v.String(), 0, argString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "", v.Int(), argInt
	}
	return "", 0, argOther
}
