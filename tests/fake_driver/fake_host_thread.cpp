// Where the fake driver runs host functions (cuLaunchHostFunc, graph host
// nodes). By default on the thread that enqueued them, at once. With
// DCFAKE_HOST_FN_THREAD=1 on one thread of the fake's own that lives until the
// process ends, as the real driver's callback thread lives as long as its
// context (and a context another library retained, as the CUDA runtime does
// for cuBLAS, lives until exit). Managed runtimes attach such a thread the
// first time it calls into managed code; this mode lets the bindings' tests
// check that a thread like that never holds up the process's exit.
// The enqueuing thread still waits until the function has run, so the fake's
// ordering (all work complete when enqueued) holds in both modes.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "fake.h"

namespace fake {
namespace {

class HostFunctionThread {
 public:
  HostFunctionThread() { std::thread([this] { loop(); }).detach(); }

  void run(CUhostFn fn, void* data) {
    std::unique_lock<std::mutex> g(mutex_);
    uint64_t ticket = ++posted_;
    work_.push_back({fn, data});
    wake_.notify_all();
    done_cv_.wait(g, [&] { return finished_ >= ticket; });
  }

 private:
  struct Item {
    CUhostFn fn;
    void* data;
  };

  void loop() {
    std::unique_lock<std::mutex> g(mutex_);
    for (;;) {
      wake_.wait(g, [&] { return !work_.empty(); });
      Item item = work_.front();
      work_.pop_front();
      g.unlock();
      item.fn(item.data);
      g.lock();
      ++finished_;
      done_cv_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_cv_;
  std::deque<Item> work_;
  uint64_t posted_ = 0;
  uint64_t finished_ = 0;
};

}  // namespace

void run_host_function(CUhostFn fn, void* data) {
  if (!config().host_fn_thread) {
    fn(data);
    return;
  }
  // Never destroyed: its thread outlives static destruction, as a driver's does.
  static auto* thread = new HostFunctionThread;
  thread->run(fn, data);
}

}  // namespace fake
