#include "platform/thread_exit.h"

#include <pthread.h>

namespace dc::platform {

static_assert(sizeof(pthread_key_t) <= sizeof(unsigned), "pthread_key_t fits the slot's key");

ThreadExitSlot::ThreadExitSlot(void (*destroy)(void*)) noexcept {
  pthread_key_t key;
  made_ = ::pthread_key_create(&key, destroy) == 0;
  key_ = static_cast<unsigned>(key);
}

bool ThreadExitSlot::arm(void* object) const noexcept {
  return made_ && ::pthread_setspecific(static_cast<pthread_key_t>(key_), object) == 0;
}

}  // namespace dc::platform
