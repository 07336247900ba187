#include "memory/host_copy.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <thread>

#include "core/config.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define DC_HAVE_STREAMING_STORES 1
#endif

namespace dc {
namespace {

// How long an idle worker spins for the next piece of work before sleeping:
// the chunks of one staged copy follow each other within microseconds, and a
// sleeping thread takes tens of microseconds to wake.
constexpr auto kSpin = std::chrono::microseconds(200);

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// One copy: `n` bytes in pieces of `piece` bytes, or (width != 0) `n` rows of
// `width` bytes at the two pitches, in pieces of `piece` rows.
struct Job {
  char* dst;
  const char* src;
  size_t n;
  size_t piece;
  size_t pieces;
  size_t width = 0;
  size_t dst_pitch = 0;
  size_t src_pitch = 0;
  bool streaming = false;
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
};

void run_pieces(Job& job) noexcept {
  for (;;) {
    size_t i = job.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= job.pieces) return;
    size_t begin = i * job.piece;
    size_t len = std::min(job.piece, job.n - begin);
    if (job.width == 0) {
      if (job.streaming) streaming_memcpy(job.dst + begin, job.src + begin, len);
      else std::memcpy(job.dst + begin, job.src + begin, len);
    } else {
      for (size_t r = begin; r < begin + len; ++r)
        std::memcpy(job.dst + r * job.dst_pitch, job.src + r * job.src_pitch, job.width);
    }
    job.done.fetch_add(1, std::memory_order_release);
  }
}

class CopyPool {
 public:
  // Starts up to `workers` threads; fewer if the system refuses more.
  explicit CopyPool(unsigned workers) {
    for (unsigned i = 0; i < workers; ++i) {
      try {
        std::thread([this] { worker(); }).detach();
      } catch (...) {
        break;
      }
      ++workers_;
    }
  }

  unsigned threads() const noexcept { return workers_ + 1; }

  // False if another copy holds the pool (the caller then copies alone).
  bool run(Job& job) noexcept {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy) return false;
    job_.store(&job, std::memory_order_seq_cst);
    {
      std::lock_guard<std::mutex> lock(wake_mutex_);
      epoch_.fetch_add(1, std::memory_order_seq_cst);
    }
    wake_.notify_all();
    run_pieces(job);
    while (job.done.load(std::memory_order_acquire) < job.pieces) cpu_relax();
    // No worker may still hold `job` (it lives on the caller's stack).
    job_.store(nullptr, std::memory_order_seq_cst);
    while (inside_.load(std::memory_order_seq_cst) != 0) cpu_relax();
    return true;
  }

 private:
  void worker() noexcept {
    uint64_t seen = epoch_.load(std::memory_order_acquire);
    for (;;) {
      auto until = std::chrono::steady_clock::now() + kSpin;
      while (epoch_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until) cpu_relax();
      if (epoch_.load(std::memory_order_acquire) == seen) {
        std::unique_lock<std::mutex> lock(wake_mutex_);
        wake_.wait(lock, [&] { return epoch_.load(std::memory_order_acquire) != seen; });
      }
      seen = epoch_.load(std::memory_order_acquire);
      inside_.fetch_add(1, std::memory_order_seq_cst);
      if (Job* job = job_.load(std::memory_order_seq_cst)) run_pieces(*job);
      inside_.fetch_sub(1, std::memory_order_seq_cst);
    }
  }

  unsigned workers_ = 0;
  std::mutex busy_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  std::atomic<uint64_t> epoch_{0};
  std::atomic<Job*> job_{nullptr};
  std::atomic<int> inside_{0};
};

CopyPool* pool() noexcept {
  // Never destroyed: detached workers may outlive static destruction.
  static CopyPool* p = [] () -> CopyPool* {
    unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    unsigned wanted = host_copy::kThreads;
    if (const Config* c = config_if_fixed(); c && c->copy_threads) wanted = c->copy_threads;
    unsigned threads = std::min(wanted, hw);
    if (threads <= 1) return nullptr;
    auto* made = new (std::nothrow) CopyPool(threads - 1);
    return made && made->threads() > 1 ? made : nullptr;
  }();
  return p;
}

}  // namespace

void streaming_memcpy(void* dst, const void* src, size_t n) noexcept {
#if defined(DC_HAVE_STREAMING_STORES)
  auto* to = static_cast<char*>(dst);
  const auto* from = static_cast<const char*>(src);
  // Streaming stores need a 16-byte aligned destination: the head up to it,
  // and anything too short to be worth it, go through memcpy.
  size_t head = (16 - (reinterpret_cast<uintptr_t>(to) & 15)) & 15;
  if (n < head + 256) {
    std::memcpy(dst, src, n);
    return;
  }
  std::memcpy(to, from, head);
  to += head;
  from += head;
  n -= head;
  size_t blocks = n / 64;
  for (size_t i = 0; i < blocks; ++i, to += 64, from += 64) {
    __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from));
    __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 16));
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 32));
    __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(to), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + 48), d);
  }
  std::memcpy(to, from, n % 64);
  // Streaming stores are weakly ordered: fence them before anyone (the
  // thread that hands the buffer to the DMA engine) is told the copy is done.
  _mm_sfence();
#else
  std::memcpy(dst, src, n);
#endif
}

void parallel_memcpy(void* dst, const void* src, size_t n, bool streaming) noexcept {
  auto alone = [&] {
    if (streaming) streaming_memcpy(dst, src, n);
    else std::memcpy(dst, src, n);
  };
  if (n < 2 * host_copy::kMinPieceBytes) {
    alone();
    return;
  }
  CopyPool* p = pool();
  size_t pieces = p ? std::min<size_t>(p->threads(), n / host_copy::kMinPieceBytes) : 1;
  if (pieces <= 1) {
    alone();
    return;
  }
  Job job;
  job.dst = static_cast<char*>(dst);
  job.src = static_cast<const char*>(src);
  job.n = n;
  // Pieces of whole cache lines, so that no two threads write one line.
  job.piece = ((n + pieces - 1) / pieces + 63) & ~size_t(63);
  job.pieces = (n + job.piece - 1) / job.piece;
  job.streaming = streaming;
  if (!p->run(job)) alone();
}

void parallel_copy_rows(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width,
                        size_t rows) noexcept {
  auto* to = static_cast<char*>(dst);
  const auto* from = static_cast<const char*>(src);
  size_t total = width * rows;
  CopyPool* p = total >= 2 * host_copy::kMinPieceBytes && rows > 1 ? pool() : nullptr;
  size_t pieces = p ? std::min<size_t>({size_t(p->threads()), total / host_copy::kMinPieceBytes, rows}) : 1;
  if (pieces <= 1) {
    for (size_t r = 0; r < rows; ++r) std::memcpy(to + r * dst_pitch, from + r * src_pitch, width);
    return;
  }
  Job job;
  job.dst = to;
  job.src = from;
  job.n = rows;
  job.piece = (rows + pieces - 1) / pieces;
  job.pieces = (rows + job.piece - 1) / job.piece;
  job.width = width;
  job.dst_pitch = dst_pitch;
  job.src_pitch = src_pitch;
  if (!p->run(job))
    for (size_t r = 0; r < rows; ++r) std::memcpy(to + r * dst_pitch, from + r * src_pitch, width);
}

}  // namespace dc
