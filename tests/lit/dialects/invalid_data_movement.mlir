// RUN: onnxcc-opt %s --split-input-file --verify-diagnostics

// Tests that a copy reading past its input is refused: the runtime
// kernel does no bounds tests, the verifier is what makes it safe.
func.func @copy_reads_past_end(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{reads outside its 6-element input}}
  %0 = kernel.copy %x {shape = array<i64: 3, 2>, strides = array<i64: 1, 3>, offset = 1 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @copy_reads_before_start(%x: tensor<6xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{reads outside its 6-element input}}
  %0 = kernel.copy %x {shape = array<i64: 3>, strides = array<i64: -2>, offset = 3 : i64} : (tensor<6xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @copy_count(%x: tensor<6xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{copies fewer elements than its 4-element result holds}}
  %0 = kernel.copy %x {shape = array<i64: 3>, strides = array<i64: 1>, offset = 0 : i64} : (tensor<6xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @copy_huge_strides(%x: tensor<6xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{reads outside its 6-element input}}
  %0 = kernel.copy %x {shape = array<i64: 2, 2>, strides = array<i64: 9223372036854775807, 9223372036854775807>, offset = 0 : i64} : (tensor<6xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @pad_shape(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{dimension 0: 2 padded by 1 and 0 is not 4}}
  %0 = kernel.pad %x {mode = "constant", pads = array<i64: 1, 0, 0, 0>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @gather_empty_axis(%d: tensor<0x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{gathers from an empty axis}}
  %0 = kernel.gather %d, %i {axis = 0 : i64} : (tensor<0x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_float_indices(%d: tensor<4xf32>, %i: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{indices must be integers, got 'f32'}}
  %0 = kernel.gather %d, %i {axis = 0 : i64} : (tensor<4xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_elements_wider(%d: tensor<2x3xf32>, %i: tensor<3x3xi64>) -> tensor<3x3xf32> {
  // expected-error @+1 {{indices exceed data along dimension 0}}
  %0 = kernel.gather_elements %d, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3x3xi64>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @scatter_reduction(%d: tensor<4xf32>, %i: tensor<2x1xi64>, %u: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown reduction 'avg'}}
  %0 = kernel.scatter_nd %d, %i, %u {reduction = "avg"} : (tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @top_k_result(%x: tensor<3x4xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{result dimension 1 (5) does not fit the input}}
  %v, %i = kernel.top_k %x {axis = 1 : i64, largest = true} : (tensor<3x4xf32>) -> (tensor<3x5xf32>, tensor<3x5xi64>)
  return %v : tensor<3x5xf32>
}

// -----

func.func @cumsum_axis_twice(%x: tensor<3x4xf32>, %a: tensor<i64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{needs either an axis attribute or an axis input}}
  %0 = kernel.cumsum %x axis %a {axis = 1 : i64, exclusive = false, reverse = false} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Tests that kernel.tensor_scatter refuses an update that does not fit
// the cache: the runtime kernel writes update rows without bounds tests.
func.func @tensor_scatter_update_too_wide(%c: tensor<2x4x3xf32>, %u: tensor<2x1x4xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{update does not fit the cache along dimension 2}}
  %0 = kernel.tensor_scatter %c, %u {axis = 1 : i64, circular = false} : (tensor<2x4x3xf32>, tensor<2x1x4xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @tensor_scatter_batch_axis(%c: tensor<2x4xf32>, %u: tensor<1x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{needs cache, update and result of one rank >= 2 and a non-batch axis}}
  %0 = kernel.tensor_scatter %c, %u {axis = 0 : i64, circular = true} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @tensor_scatter_indices_per_batch(%c: tensor<2x4xf32>, %u: tensor<2x1xf32>, %p: tensor<1xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{indices must be one integer per batch}}
  %0 = kernel.tensor_scatter %c, %u, %p {axis = 1 : i64, circular = false} : (tensor<2x4xf32>, tensor<2x1xf32>, tensor<1xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @tensor_scatter_float_indices(%c: tensor<2x4xf32>, %u: tensor<2x1xf32>, %p: tensor<2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{indices must be one integer per batch}}
  %0 = kernel.tensor_scatter %c, %u, %p {axis = 1 : i64, circular = false} : (tensor<2x4xf32>, tensor<2x1xf32>, tensor<2xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @tensor_scatter_element_type(%c: tensor<2x4xf32>, %u: tensor<2x1xf16>) -> tensor<2x4xf32> {
  // expected-error @+1 {{update element type 'f16' differs from 'f32'}}
  %0 = kernel.tensor_scatter %c, %u {axis = 1 : i64, circular = false} : (tensor<2x4xf32>, tensor<2x1xf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
