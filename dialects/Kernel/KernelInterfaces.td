//===- KernelInterfaces.td - interfaces of kernel ops ------*- tablegen -*-===//
//
// What the memory planner asks of a kernel op without knowing the op.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_KERNEL_INTERFACES
#define ONNXCC_KERNEL_INTERFACES

include "mlir/IR/OpBase.td"

def Kernel_ScratchOpInterface : OpInterface<"ScratchOpInterface"> {
  let cppNamespace = "::onnxcc::kernel";
  let description = [{
    A kernel that needs temporary memory for the duration of its call
    (im2col columns, a recurrent layer's state and gate buffers). The
    planner reserves the bytes in the arena, live only at the op, refuses
    more than the 4 GiB tensor limit, and records the place as
    `kernel.scratch_offset`; the printer passes it as the scratch pointer.
  }];
  let methods = [
    InterfaceMethod<[{
        Bytes of scratch the kernel needs (0: none). A size that overflows
        int64_t is reported as INT64_MAX, which the planner refuses.
      }], "int64_t", "getScratchBytes">,
  ];
}

#endif // ONNXCC_KERNEL_INTERFACES
