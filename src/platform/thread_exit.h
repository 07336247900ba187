// A destructor for a thread's object that runs when the thread ends, after
// the thread's C++ thread_local objects are gone (so the object can serve
// calls made from their destructors, atexit handlers and the like). POSIX
// thread-specific data here (pthread_key_create); a Windows branch (FlsAlloc
// with a callback) goes beside it.
#pragma once

namespace dc::platform {

class ThreadExitSlot {
 public:
  // One per kind of object, made once (a process has at most
  // PTHREAD_KEYS_MAX of them).
  explicit ThreadExitSlot(void (*destroy)(void*)) noexcept;
  ThreadExitSlot(const ThreadExitSlot&) = delete;
  ThreadExitSlot& operator=(const ThreadExitSlot&) = delete;

  // destroy(object) will run when the calling thread ends (again after each
  // arm, if the object was remade meanwhile). False if the slot could not
  // be made: the object is then never destroyed.
  bool arm(void* object) const noexcept;

 private:
  unsigned key_ = 0;
  bool made_ = false;
};

}  // namespace dc::platform
