// Reference-counted library objects. A handle given to the caller owns one
// reference; children own references to their parents (a buffer to its
// device, a function to its module), so a parent lives as long as anything
// still needs it (the header's "Lifetimes" convention).
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace dc {

enum class HandleType : uint8_t {
  Device = 1,
  Buffer = 2,
  Stream = 3,
  Event = 4,
  Program = 5,
  Module = 6,
  Function = 7,
  Launch = 8,
  Graph = 9,
  Queue = 10,
  Control = 11,
  Pool = 12,
  Library = 13,
  Blas = 14,
  FftPlan = 15,
  Comm = 16,
};
constexpr int kHandleTypeCount = 17;  // index 0 unused

const char* handle_type_name(HandleType type) noexcept;

// What the live-handle report (dc_handle_report) says about an object beyond
// its handle's record: filled by the object's describe().
struct ObjectDescription {
  int32_t device_ordinal = -1;  // the device it lives on; -1 for none
  uint64_t size = 0;            // buffers: bytes
  int32_t buffer_kind = 0;      // buffers: DC_BUFFER_*
  bool view = false;            // buffers: a view of another buffer
};

class Object {
 public:
  explicit Object(HandleType type) noexcept : type_(type) {}
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;

  HandleType type() const noexcept { return type_; }

  // For the live-handle report only (never on a hot path): what this object
  // can tell about itself. Must not fail, lock or call the driver.
  virtual void describe(ObjectDescription&) const noexcept {}

  void retain() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  void unref() noexcept {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  // Retains only if the object is not already being destroyed (for registries
  // that hold plain pointers to objects they do not own).
  bool try_retain() noexcept {
    uint32_t n = refs_.load(std::memory_order_relaxed);
    while (n != 0) {
      if (refs_.compare_exchange_weak(n, n + 1, std::memory_order_acq_rel, std::memory_order_relaxed)) return true;
    }
    return false;
  }

 private:
  std::atomic<uint32_t> refs_{1};
  HandleType type_;
};

// An owning pointer to an Object (intrusive reference count).
template <class T>
class Ref {
 public:
  Ref() noexcept = default;
  // Adopts a reference the caller already owns (a fresh `new T`).
  static Ref adopt(T* p) noexcept {
    Ref r;
    r.p_ = p;
    return r;
  }
  // Takes a new reference to an object someone else owns.
  static Ref share(T* p) noexcept {
    if (p) p->retain();
    return adopt(p);
  }
  Ref(const Ref& o) noexcept : p_(o.p_) {
    if (p_) p_->retain();
  }
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <class U>
  Ref(Ref<U>&& o) noexcept : p_(o.release()) {}
  Ref& operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_) p_->unref();
  }

  T* get() const noexcept { return p_; }
  T* operator->() const noexcept { return p_; }
  T& operator*() const noexcept { return *p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  // Gives up ownership without dropping the reference.
  T* release() noexcept { return std::exchange(p_, nullptr); }

 private:
  T* p_ = nullptr;
};

template <class T, class... Args>
Ref<T> make_ref(Args&&... args) {
  return Ref<T>::adopt(new T(std::forward<Args>(args)...));
}

}  // namespace dc
