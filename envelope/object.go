package envelope

// AppendKindObject appends e's JSON kind object to b, as MarshalJSON writes
// it; it makes *Error a wire.KindError, so wire.ErrorResult renders it. A
// nil *Error writes the object of the zero Error.
//
// This is the one place where envelope hands its kind object to package
// wire: when the kind object becomes a type of its own, this method is what
// re-points to it.
func (e *Error) AppendKindObject(b []byte) []byte {
	if e == nil {
		e = &Error{}
	}
	return e.appendJSON(b)
}
