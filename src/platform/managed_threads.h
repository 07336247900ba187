// The driver calls host functions on a thread of its own that lives as long as
// its context, and a context another library retained (the CUDA runtime under
// cuBLAS) lives until the process exits. A managed runtime attaches such a
// thread the first time it runs managed code (a C# callback). Mono, at exit,
// waits for every attached thread to end, background or not, and this one
// never does: the process hangs after Main has returned. A scope around each
// host function detaches the thread again if the function attached it, so the
// runtime has nothing to wait for. CoreCLR (.NET) does not wait for such
// threads and exports no Mono functions: the scope then does nothing.
#pragma once

namespace dc::platform {

class ManagedThreadScope {
 public:
  // Notes whether the calling thread is attached to a Mono runtime in this
  // process (none: nothing to do).
  ManagedThreadScope() noexcept;
  // Detaches the thread if the code run inside the scope attached it.
  ~ManagedThreadScope();
  ManagedThreadScope(const ManagedThreadScope&) = delete;
  ManagedThreadScope& operator=(const ManagedThreadScope&) = delete;

 private:
  bool watch_ = false;  // Mono is here and the thread was not attached before
};

}  // namespace dc::platform
