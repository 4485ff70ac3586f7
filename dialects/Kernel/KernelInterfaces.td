//===- KernelInterfaces.td - interfaces of kernel ops ------*- tablegen -*-===//
//
// What the planner, the thread chooser and the emitter ask of a kernel op
// without knowing the op.
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

def Kernel_ThreadedOpInterface : OpInterface<"ThreadedOpInterface"> {
  let cppNamespace = "::onnxcc::kernel";
  let description = [{
    A kernel that can split its work across the thread pool. Its `threads`
    attribute, set by onnxcc-choose-threads, is how many threads take part
    (1: the calling thread alone; more only for f32, the one type the
    threaded kernels take). The printer passes the pool to a kernel with
    more than one, and predict() starts the most any kernel was given.
  }];
  let methods = [
    InterfaceMethod<"Threads that split the kernel's work.", "int64_t",
      "getThreadCount", (ins), [{}],
      [{ return static_cast<int64_t>($_op.getThreads()); }]>,
    InterfaceMethod<"Sets the threads that split the kernel's work.", "void",
      "setThreadCount", (ins "int64_t":$threads), [{}],
      [{ $_op.setThreads(threads); }]>,
  ];
  let verify = [{ return ::onnxcc::kernel::verifyThreadCount($_op); }];
}

#endif // ONNXCC_KERNEL_INTERFACES
