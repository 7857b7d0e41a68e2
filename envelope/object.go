package envelope

// AppendKindObject appends e's JSON kind object to b, the bytes MarshalJSON
// returns; it makes *Error a wire.KindError, so wire.ErrorResult renders it
// with the same bytes. A nil *Error writes the object of the zero Error.
func (e *Error) AppendKindObject(b []byte) []byte {
	if e == nil {
		e = &Error{}
	}
	return e.appendJSON(b)
}
