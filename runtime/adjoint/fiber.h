// Fibers of the CPU execution (adjoint/cuda_cpu.h): a block's threads each run on a stack of their
// own and switch to the scheduler where they wait. glibc's swapcontext saves and restores the
// signal mask with a system call at every switch, three or more for every thread of every block,
// which made the CPU execution of a training loop spend most of its time in the kernel. On x86-64
// a switch here is six pushes, a change of stack and six pops (the callee-saved registers of the
// System V ABI; the fibers never change the signal mask, MXCSR or the x87 control word);
// elsewhere, or with ADJOINT_UCONTEXT defined, it is ucontext's. AddressSanitizer needs no word of
// it: each fiber's frames return in order on its own stack, and the fake frames of
// stack-use-after-return are taken and given back per call wherever the call runs (the kernel
// suite passes under it this way). Its fiber annotations would give every fiber a fake stack of
// its own, made and unmade per thread per block, which measured slower than the system calls.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && !defined(ADJOINT_UCONTEXT)
#define ADJOINT_FIBER_SWITCH 1
#else
#include <ucontext.h>
#endif

#ifdef ADJOINT_FIBER_SWITCH
// adjoint_fiber_switch(&from, to): pushes the callee-saved registers, saves the stack pointer in
// *from, continues on the stack `to` where its own switch pushed them (or prepare() laid them
// out) and returns there. Weak: every translation unit of a program that includes this defines it.
extern "C" void adjoint_fiber_switch(void** from, void* to);
asm(R"(
  .text
  .weak adjoint_fiber_switch
  .type adjoint_fiber_switch, @function
adjoint_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size adjoint_fiber_switch, .-adjoint_fiber_switch
)");
#endif

namespace adjoint::cpu {

// Where a fiber (or the scheduler, on the thread's own stack) stopped.
struct FiberContext {
#ifdef ADJOINT_FIBER_SWITCH
  void* stackPointer = nullptr;
#else
  ucontext_t context;
#endif
};

// Lays out `stack` so that the first switch to `fiber` calls entry(), which must never return
// (it switches away for the last time instead).
inline void prepare(FiberContext& fiber, char* stack, size_t bytes, void (*entry)()) {
#ifdef ADJOINT_FIBER_SWITCH
  // From the top, 16-byte aligned: a return address no one uses, entry (the switch's `ret` goes
  // there, leaving the stack as a call would), then the six registers the switch pops.
  auto* top = reinterpret_cast<uintptr_t*>((reinterpret_cast<uintptr_t>(stack) + bytes) & ~uintptr_t{15});
  top[-1] = 0;
  top[-2] = reinterpret_cast<uintptr_t>(entry);
  for (int r = 3; r <= 8; ++r) top[-r] = 0;
  fiber.stackPointer = top - 8;
#else
  getcontext(&fiber.context);
  fiber.context.uc_stack.ss_sp = stack;
  fiber.context.uc_stack.ss_size = bytes;
  fiber.context.uc_link = nullptr;
  makecontext(&fiber.context, entry, 0);
#endif
}

// Leaves `from` for `to`; returns when something switches back to `from`.
inline void switchFiber(FiberContext& from, FiberContext& to) {
#ifdef ADJOINT_FIBER_SWITCH
  adjoint_fiber_switch(&from.stackPointer, to.stackPointer);
#else
  swapcontext(&from.context, &to.context);
#endif
}

}  // namespace adjoint::cpu
