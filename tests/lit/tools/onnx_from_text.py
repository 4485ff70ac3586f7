"""Turns ONNX's textual model syntax (onnx.parser) into a binary .onnx file,
so importer tests can keep their model next to the CHECK lines."""
import sys
import onnx
import onnx.parser

text = open(sys.argv[1]).read()
# Lines starting with '#' (RUN/CHECK lines) are not ONNX syntax.
body = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
onnx.save(onnx.parser.parse_model(body), sys.argv[2])
