// managed_threads.h: Mono's embedding functions, looked up in the process
// (the mono executable, or a libmono loaded globally by an embedding host).
// POSIX only: Mono on Windows is left as it is.
#include "platform/managed_threads.h"

#if !defined(_WIN32)
#include <dlfcn.h>
#endif

namespace dc::platform {
namespace {

struct MonoEmbedding {
  void* (*internal_current)() = nullptr;  // the thread's runtime record; NULL on a thread not attached
  void* (*root_domain)() = nullptr;
  void* (*attach_coop)(void*, void**) = nullptr;  // as a call from native code into managed code begins
  void* (*thread_current)() = nullptr;
  void (*thread_detach)(void*) = nullptr;
  void (*info_detach)() = nullptr;  // the thread's record in the runtime's thread registry
};

const MonoEmbedding* mono() noexcept {
#if defined(_WIN32)
  return nullptr;
#else
  static const MonoEmbedding* found = [] () -> const MonoEmbedding* {
    static MonoEmbedding m;
    m.internal_current = reinterpret_cast<void* (*)()>(::dlsym(RTLD_DEFAULT, "mono_thread_internal_current"));
    m.root_domain = reinterpret_cast<void* (*)()>(::dlsym(RTLD_DEFAULT, "mono_get_root_domain"));
    m.attach_coop = reinterpret_cast<void* (*)(void*, void**)>(::dlsym(RTLD_DEFAULT, "mono_threads_attach_coop"));
    m.thread_current = reinterpret_cast<void* (*)()>(::dlsym(RTLD_DEFAULT, "mono_thread_current"));
    m.thread_detach = reinterpret_cast<void (*)(void*)>(::dlsym(RTLD_DEFAULT, "mono_thread_detach"));
    m.info_detach = reinterpret_cast<void (*)()>(::dlsym(RTLD_DEFAULT, "mono_thread_info_detach"));
    return m.info_detach && m.internal_current && m.root_domain && m.attach_coop && m.thread_current && m.thread_detach ? &m : nullptr;
  }();
  return found;
#endif
}

}  // namespace

ManagedThreadScope::ManagedThreadScope() noexcept {
  const MonoEmbedding* m = mono();
  // A thread that was attached before (a managed thread that enqueued the
  // work and ran it itself, as some drivers do) is the runtime's to keep.
  watch_ = m && m->internal_current() == nullptr;
}

ManagedThreadScope::~ManagedThreadScope() {
  if (!watch_) return;
  const MonoEmbedding* m = mono();
  if (m->internal_current() == nullptr) return;  // the function ran no managed code
  // No managed frame is on this thread's stack here: the function returned.
  // The runtime left the thread attached, in its "blocking" (native code)
  // state and without a current domain. Entering it again as a call from
  // native code does (domain set, thread running) makes mono_thread_current
  // and mono_thread_detach legal, and the detach ends that entry with the rest.
  void* domain = m->root_domain();
  if (!domain) return;
  void* stack_marker = nullptr;
  m->attach_coop(domain, &stack_marker);
  if (void* thread = m->thread_current()) m->thread_detach(thread);
  m->info_detach();
}

}  // namespace dc::platform
