"""PTC-Lisp: reader -> analyzer -> compiler -> runtime, with its core library and printer."""
