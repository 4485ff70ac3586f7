// RUN: onnxcc-opt %s --split-input-file --verify-diagnostics

// Tests that a string table needs i64 indices.
func.func @table_f32(%i: tensor<3xf32>) -> tensor<3x!onnx.string> {
  // expected-error @+1 {{expects i64 indices, got 'tensor<3xf32>'}}
  %l = onnx.ml_string_table %i {labels = ["a"]} : (tensor<3xf32>) -> tensor<3x!onnx.string>
  return %l : tensor<3x!onnx.string>
}

// -----

// Tests that a string table gives strings of the indices' shape.
func.func @table_shape(%i: tensor<3xi64>) -> tensor<2x!onnx.string> {
  // expected-error @+1 {{expects strings of the indices' shape, got 'tensor<2x!onnx.string>'}}
  %l = kernel.ml_string_table %i {labels = ["a"]} : (tensor<3xi64>) -> tensor<2x!onnx.string>
  return %l : tensor<2x!onnx.string>
}

// -----

// Tests that an empty table is refused.
func.func @table_empty(%i: tensor<3xi64>) -> tensor<3x!onnx.string> {
  // expected-error @+1 {{labels: the table is empty}}
  %l = kernel.ml_string_table %i {labels = []} : (tensor<3xi64>) -> tensor<3x!onnx.string>
  return %l : tensor<3x!onnx.string>
}

// -----

// Tests that a label with a NUL byte is refused: a const char * cannot
// carry it.
func.func @table_nul(%i: tensor<3xi64>) -> tensor<3x!onnx.string> {
  // expected-error @+1 {{labels: string 1 'b\x00c' contains a NUL byte}}
  %l = onnx.ml_string_table %i {labels = ["a", "b\00c"]} : (tensor<3xi64>) -> tensor<3x!onnx.string>
  return %l : tensor<3x!onnx.string>
}

// -----

// Tests that lookup keys must be distinct.
func.func @lookup_twice(%x: tensor<2x!onnx.string>) -> tensor<2xi64> {
  // expected-error @+1 {{keys: string 'a' is listed twice}}
  %i = kernel.ml_string_lookup %x {keys = ["a", "b", "a"]} : (tensor<2x!onnx.string>) -> tensor<2xi64>
  return %i : tensor<2xi64>
}

// -----

// Tests that a lookup reads strings.
func.func @lookup_numbers(%x: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{expects a string input, got 'tensor<2xi64>'}}
  %i = onnx.ml_string_lookup %x {keys = ["a"]} : (tensor<2xi64>) -> tensor<2xi64>
  return %i : tensor<2xi64>
}
