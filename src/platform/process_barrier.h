// A memory barrier run on every thread of this process at once, paid for by
// the one thread that asks (Linux: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
// Windows: FlushProcessWriteBuffers). With it, a hot path can order its own
// store before its own later load with a compiler-only fence, and the rare
// path that must see that store pays the system call instead: an asymmetric
// fence (core/hazard_pins.h uses it so that a call pins a handle without an
// atomic read-modify-write).
#pragma once

namespace dc::platform {

// True if process_barrier() can be used in this process. Decided at the first
// call (registering with the kernel where it asks for that) and never changes.
// False on kernels without the expedited command, under thread sanitizers
// (they do not see it) and where a sandbox refuses the system call.
bool process_barrier_available() noexcept;

// Runs the barrier: when it returns true, every other thread of the process
// has passed a full memory barrier since the call began. False if it could
// not be run (the caller must then not rely on it).
bool process_barrier() noexcept;

}  // namespace dc::platform
