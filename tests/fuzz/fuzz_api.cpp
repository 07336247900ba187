// libFuzzer target: the public API's argument handling. The input is a
// program: each operation byte picks a dc_ call, the bytes after it its
// arguments: handles from a pool that holds every handle made so far (any
// type, released ones, made-up values), sizes and offsets (small, at the
// edges, or huge), flags, enumeration values, launch configurations and
// kernel arguments, module images. It runs against the fake driver (two
// devices), kernels included (an out-of-bounds saxpy breaks the context;
// a reset recovers it).
//
// What the caller must get right is kept right: host memory passed in is the
// fuzzer's own scratch and never shorter than the size given; CUstreams passed
// to dc_stream_wrap are real ones. Everything else is fair game.
//
// Invariants checked after every call (abort = a bug): the status is one
// dccuda defines; a failure leaves a message "dc_<call>: ..." and the same
// status in dc_last_error_status(); out-pointers read 0 on failure. After
// each input everything is released: no handle and no driver object may be
// left (driver objects are counted by the fake).
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "dccuda.h"
#include "support/driver_objects.h"

namespace {

constexpr size_t kScratch = 1 << 20;   // host memory every host pointer points into
constexpr uint64_t kMaxAlloc = 1 << 16; // allocations the fuzzer asks for (and the huge ones below)

uint8_t* scratch() {
  static uint8_t* s = static_cast<uint8_t*>(std::calloc(kScratch + 4096, 1));
  return s;
}
uint8_t* scratch_aligned() {  // page aligned, for registration
  uintptr_t p = reinterpret_cast<uintptr_t>(scratch());
  return reinterpret_cast<uint8_t*>((p + 4095) & ~uintptr_t(4095));
}

// A kernel the fake emulates (saxpy), as PTX: the fake and dccuda's PTX reader
// both get its parameter layout from it.
const char kSaxpyPtx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry saxpy(.param .f32 a, .param .u64 x, .param .u64 y, .param .u32 n) { ret; }\n"
    ".visible .entry empty() { ret; }\n"
    ".visible .global .align 4 .u32 answer = 42;\n";

// The fake driver's controls.
struct Fake {
  long (*live)(const char*) = nullptr;
  void (*reset)() = nullptr;
};
Fake& fake() {
  static Fake f = [] {
    Fake x;
    const char* path = std::getenv("DCCUDA_DRIVER_LIBRARY");
    void* lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : nullptr;
    if (lib) {
      x.live = reinterpret_cast<long (*)(const char*)>(dlsym(lib, "dcfake_live"));
      x.reset = reinterpret_cast<void (*)()>(dlsym(lib, "dcfake_reset"));
    }
    return x;
  }();
  return f;
}

void fatal(const char* what, const char* call) {
  std::fprintf(stderr, "fuzz_api: %s (%s): status %d, message \"%s\"\n", what, call, dc_last_error_status(),
               dc_last_error_message());
  std::abort();
}

// The bytes of one input, read as a program.
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  bool done() const { return at_ >= n_; }
  uint8_t u8() { return at_ < n_ ? p_[at_++] : 0; }
  uint32_t u32() { return u8() | (uint32_t(u8()) << 8) | (uint32_t(u8()) << 16) | (uint32_t(u8()) << 24); }
  uint64_t u64() { return u32() | (uint64_t(u32()) << 32); }
  // A size or offset: mostly small, sometimes at an edge, sometimes anything.
  uint64_t amount(uint64_t typical) {
    uint8_t k = u8();
    switch (k % 8) {
      case 0: return 0;
      case 1: return 1;
      case 2: return typical;
      case 3: return typical + 1;
      case 4: return UINT64_MAX - (k >> 3);
      case 5: return u64();
      default: return u32() % (typical + 1);
    }
  }
  // Up to `max` bytes of the input itself.
  std::pair<const uint8_t*, size_t> bytes(size_t max) {
    size_t want = u32() % (max + 1);
    size_t have = n_ - (at_ < n_ ? at_ : n_);
    size_t take = want < have ? want : have;
    const uint8_t* start = p_ + (at_ < n_ ? at_ : n_);
    at_ += take;
    return {start, take};
  }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t at_ = 0;
};

class Program {
 public:
  explicit Program(Reader& r) : r_(r) {}

  void run() {
    int steps = 0;
    while (!r_.done() && steps++ < 256) step();
  }

  // Releases everything, then checks that nothing is left.
  void finish() {
    // Newest first: wrappers go before what they wrap.
    for (auto it = pool_.rbegin(); it != pool_.rend(); ++it) release_any(*it);
    pool_.clear();
    protected_.clear();
    // Work in flight (a stream-ordered free) completes, and a broken context is reset.
    for (int32_t i = 0; i < 2; ++i) {
      dc_device d = nullptr;
      if (dc_device_open(i, &d) != DC_SUCCESS) continue;
      if (dc_device_synchronize(d) == DC_ERROR_CONTEXT_LOST) lost_ = true;
      if (lost_) dc_device_reset(d);
      dc_device_release(d);
    }
    for (int32_t t = DC_HANDLE_DEVICE; t <= DC_HANDLE_GRAPH; ++t) {
      uint64_t n = 0;
      dc_handle_count(t, &n);
      if (n) fatal("handles left after releasing everything", "dc_handle_count");
    }
    if (fake().live) {
      for (const char* k : dctest::kDriverObjectKinds) {
        if (fake().live(k) != 0) {
          std::fprintf(stderr, "fuzz_api: %ld driver objects of kind %s left after releasing everything\n",
                       fake().live(k), k);
          std::abort();
        }
      }
    }
  }

 private:
  // -- handles ---------------------------------------------------------------------------
  void* any() { return pool_.empty() ? nullptr : pool_[r_.u8() % (pool_.size() + 1) % pool_.size()]; }
  template <class H>
  H pick() {
    uint8_t k = r_.u8();
    if (k == 0xFF) return nullptr;
    if (k == 0xFE) return reinterpret_cast<H>(static_cast<uintptr_t>(r_.u64()));  // made up
    return static_cast<H>(any());
  }
  void keep(void* h) {
    if (h) pool_.push_back(h);
  }
  // Releases `h` with every release function: only the right one does anything.
  static void release_any(void* h) {
    dc_graph_release(static_cast<dc_graph>(h));
    dc_launch_release(static_cast<dc_launch>(h));
    dc_function_release(static_cast<dc_function>(h));
    dc_module_release(static_cast<dc_module>(h));
    dc_program_release(static_cast<dc_program>(h));
    dc_event_release(static_cast<dc_event>(h));
    dc_buffer_release(static_cast<dc_buffer>(h));
    dc_stream_release(static_cast<dc_stream>(h));
    dc_device_release(static_cast<dc_device>(h));
  }

  // -- the invariants of every fallible call ---------------------------------------------
  template <class... Outs>
  dc_status check(const char* call, dc_status st, const Outs*... outs) {
    if (!(st == DC_SUCCESS || st == DC_NOT_READY || (st <= DC_ERROR_INVALID_ARGUMENT && st >= DC_ERROR_IO)))
      fatal("a status dccuda does not define", call);
    if (st < 0) {
      if (dc_last_error_status() != st) fatal("dc_last_error_status differs from the status", call);
      std::string m = dc_last_error_message();
      if (m.rfind(std::string(call) + ": ", 0) != 0) fatal("the message does not name the call", call);
      bool cleared = ((is_zero(*outs)) && ...);
      if (!cleared) fatal("an out-pointer was not cleared on failure", call);
      if (st == DC_ERROR_CONTEXT_LOST) lost_ = true;
      if (st == DC_ERROR_INTERNAL) fatal("DC_ERROR_INTERNAL (a dccuda bug)", call);
    } else if (*dc_last_error_message()) {
      fatal("a successful call left a message", call);
    }
    return st;
  }
  template <class T>
  static bool is_zero(const T& v) {
    T zero{};
    return std::memcmp(&v, &zero, sizeof v) == 0;
  }

  // The caller's part: host memory at least `size` bytes long.
  uint8_t* host(uint64_t offset_hint) { return scratch() + offset_hint % 4096; }
  // A size for a copy with host memory: never longer than the scratch (a
  // longer one is the caller's error, which no library can see).
  uint64_t host_amount() {
    uint64_t n = r_.amount(kMaxAlloc);
    return n <= kScratch - 4096 ? n : n % (kScratch - 4096);
  }

  dc_launch_config config() {
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    uint8_t shape = r_.u8();
    if (shape & 1) c.struct_size = r_.u32();
    c.grid[0] = 1 + r_.u8() % 64;
    c.block[0] = 1 + r_.u32() % 1100;
    if (shape & 2) {
      c.grid[1] = r_.u32();
      c.grid[2] = r_.u8();
      c.block[1] = r_.u8();
    }
    if (shape & 4) c.shared_memory_bytes = r_.u32() % 70000;
    if (shape & 8) c.flags = r_.u8();
    if (shape & 16) {
      c.cluster[0] = r_.u8() % 5;
      c.cluster[1] = r_.u8() % 3;
      c.cluster[2] = r_.u8() % 3;
    }
    if (shape & 32) c.priority = static_cast<int32_t>(r_.u32());
    return c;
  }
  // Kernel arguments: value arguments point into the scratch, never past it.
  std::vector<dc_arg> args(std::vector<float>& values) {
    uint32_t n = r_.u8() % 7;
    std::vector<dc_arg> a(n);
    values.assign(8, 0.0f);
    for (uint32_t i = 0; i < n; ++i) {
      uint8_t k = r_.u8();
      a[i].kind = (k & 3) == 3 ? r_.u8() : (k & 1) + 1;
      a[i].size = (k & 4) ? r_.u32() % 64 : (a[i].kind == DC_ARG_BUFFER ? 8 : 4);
      a[i].value = (k & 8) ? nullptr : static_cast<const void*>(scratch() + r_.u8() * 16);
      a[i].buffer = pick<dc_buffer>();
      a[i].offset = r_.amount(kMaxAlloc);
    }
    return a;
  }

  void step() {
    uint8_t op = r_.u8();
    switch (op % 32) {
      case 0: {
        dc_device d = nullptr;
        if (check("dc_device_open", dc_device_open(static_cast<int32_t>(r_.u8() % 3) - (r_.u8() == 7), &d), &d) == 0)
          keep(d);
        break;
      }
      case 1: {  // allocations of every kind
        dc_buffer b = nullptr;
        uint8_t kind = r_.u8();
        uint64_t size = r_.amount(kMaxAlloc);
        if (size > kMaxAlloc && size < (uint64_t(1) << 40)) size %= kMaxAlloc + 1;  // no gigabytes of host memory
        uint32_t flags = (kind & 0x80) ? r_.u32() : r_.u8() & 0x3F;
        const char* call = "dc_buffer_alloc";
        dc_status st;
        switch (kind % 5) {
          case 0: st = dc_buffer_alloc(pick<dc_device>(), size, flags, &b); break;
          case 1: call = "dc_buffer_alloc_async"; st = dc_buffer_alloc_async(pick<dc_stream>(), size, flags, &b); break;
          case 2: call = "dc_buffer_alloc_pinned"; st = dc_buffer_alloc_pinned(pick<dc_device>(), size, flags, &b); break;
          case 3: call = "dc_buffer_alloc_managed"; st = dc_buffer_alloc_managed(pick<dc_device>(), size, flags, &b); break;
          default: {
            call = "dc_buffer_register_host";
            uint64_t off = r_.u32() % 4096 & ~uint64_t(7);
            // The caller's part: the memory is really that long (sizes that run
            // past the address space are dccuda's to refuse).
            if (size < (uint64_t(1) << 62)) size %= kScratch - 8192;
            st = dc_buffer_register_host(pick<dc_device>(), scratch_aligned() + off, size, flags, &b);
          }
        }
        if (check(call, st, &b) == 0) keep(b);
        break;
      }
      case 2: {  // release anything, possibly again
        void* h = any();
        if (protected_.count(h)) break;  // something still wraps it (released last, in finish)
        switch (r_.u8() % 9) {
          case 0: dc_device_release(static_cast<dc_device>(h)); break;
          case 1: dc_buffer_release(static_cast<dc_buffer>(h)); break;
          case 2: dc_stream_release(static_cast<dc_stream>(h)); break;
          case 3: dc_event_release(static_cast<dc_event>(h)); break;
          case 4: dc_program_release(static_cast<dc_program>(h)); break;
          case 5: dc_module_release(static_cast<dc_module>(h)); break;
          case 6: dc_function_release(static_cast<dc_function>(h)); break;
          case 7: dc_launch_release(static_cast<dc_launch>(h)); break;
          default: dc_graph_release(static_cast<dc_graph>(h)); break;
        }
        break;
      }
      case 3: {
        uint64_t off = r_.amount(kMaxAlloc), n = host_amount();
        check("dc_buffer_write", dc_buffer_write(pick<dc_buffer>(), off, (r_.u8() == 1) ? nullptr : host(off), n));
        break;
      }
      case 4: {
        uint64_t off = r_.amount(kMaxAlloc), n = host_amount();
        check("dc_buffer_read", dc_buffer_read(pick<dc_buffer>(), off, host(off), n));
        break;
      }
      case 5: {
        dc_buffer d = pick<dc_buffer>(), s = pick<dc_buffer>();
        uint64_t a = r_.amount(kMaxAlloc), b = r_.amount(kMaxAlloc), n = r_.amount(kMaxAlloc);
        check("dc_buffer_copy", dc_buffer_copy(d, a, s, b, n));
        break;
      }
      case 6: {
        uint64_t off = r_.amount(kMaxAlloc), n = r_.amount(kMaxAlloc);
        uint32_t value = r_.u32() >> (r_.u8() % 32), elem = r_.u8() % 6;
        if (r_.u8() & 1)
          check("dc_buffer_fill", dc_buffer_fill(pick<dc_buffer>(), off, n, value, elem));
        else
          check("dc_buffer_fill_async", dc_buffer_fill_async(pick<dc_buffer>(), off, n, value, elem, pick<dc_stream>()));
        break;
      }
      case 7: {  // asynchronous copies
        uint64_t off = r_.amount(kMaxAlloc), n = host_amount();
        uint8_t k = r_.u8() % 3;
        if (k == 0) {
          check("dc_buffer_write_async", dc_buffer_write_async(pick<dc_buffer>(), off, host(off), n, pick<dc_stream>()));
        } else if (k == 1) {
          check("dc_buffer_read_async", dc_buffer_read_async(pick<dc_buffer>(), off, host(off), n, pick<dc_stream>()));
          // The read may land later (pinned destinations); the scratch stays valid.
        } else {
          dc_buffer d = pick<dc_buffer>(), s = pick<dc_buffer>();
          uint64_t b = r_.amount(kMaxAlloc);
          check("dc_buffer_copy_async", dc_buffer_copy_async(d, off, s, b, n, pick<dc_stream>()));
        }
        break;
      }
      case 8: {  // streams
        dc_stream s = nullptr;
        uint8_t k = r_.u8() % 3;
        if (k == 0) {
          if (check("dc_stream_create", dc_stream_create(pick<dc_device>(), r_.u8() % 3, static_cast<int32_t>(r_.u32()), &s), &s) == 0)
            keep(s);
        } else if (k == 1) {
          if (check("dc_stream_get_default", dc_stream_get_default(pick<dc_device>(), static_cast<int8_t>(r_.u8()) % 4, &s), &s) == 0)
            keep(s);
        } else {
          // Only real CUstreams are wrapped (the caller's contract): one of an existing stream.
          dc_stream from = pick<dc_stream>();
          void* native = nullptr;
          if (check("dc_stream_native", dc_stream_native(from, &native), &native) == 0) {
            dc_device d = nullptr;
            if (check("dc_stream_device", dc_stream_device(from, &d), &d) == 0) {
              if (check("dc_stream_wrap", dc_stream_wrap(d, native, &s), &s) == 0) {
                keep(s);
                protected_.insert(from);  // the CUstream must outlive its wrapper
              }
              dc_device_release(d);
            }
          }
        }
        break;
      }
      case 9: {  // events
        uint8_t k = r_.u8() % 5;
        if (k == 0) {
          dc_event e = nullptr;
          if (check("dc_event_create", dc_event_create(pick<dc_device>(), r_.u8() % 5, &e), &e) == 0) keep(e);
        } else if (k == 1) {
          check("dc_event_record", dc_event_record(pick<dc_event>(), pick<dc_stream>()));
        } else if (k == 2) {
          check("dc_event_synchronize", dc_event_synchronize(pick<dc_event>()));
        } else if (k == 3) {
          check("dc_event_query", dc_event_query(pick<dc_event>()));
        } else {
          float ms = 1;
          check("dc_event_elapsed_ms", dc_event_elapsed_ms(pick<dc_event>(), pick<dc_event>(), &ms), &ms);
        }
        break;
      }
      case 10: {
        uint8_t k = r_.u8() % 4;
        if (k == 0) check("dc_stream_synchronize", dc_stream_synchronize(pick<dc_stream>()));
        else if (k == 1) check("dc_stream_query", dc_stream_query(pick<dc_stream>()));
        else if (k == 2) check("dc_stream_wait_event", dc_stream_wait_event(pick<dc_stream>(), pick<dc_event>()));
        else check("dc_stream_add_callback", dc_stream_add_callback(pick<dc_stream>(), r_.u8() ? +[](void*) {} : nullptr, nullptr));
        break;
      }
      case 11: {  // a module from the input's own bytes
        auto [p, n] = r_.bytes(4096);
        dc_module m = nullptr;
        if (check("dc_module_load", dc_module_load(pick<dc_device>(), n ? p : nullptr, n, nullptr, &m), &m) == 0) keep(m);
        break;
      }
      case 12: {  // the saxpy module, with options
        dc_module_options o = DC_MODULE_OPTIONS_INIT;
        uint8_t k = r_.u8();
        if (k & 1) o.struct_size = r_.u8();
        if (k & 2) o.flags = r_.u8();
        if (k & 4) o.optimization_level = static_cast<int8_t>(r_.u8());
        if (k & 8) o.max_registers = static_cast<int8_t>(r_.u8());
        if (k & 16) o.log_size = r_.u32();
        if (k & 32) o.reserved = r_.u8();
        dc_module m = nullptr;
        uint64_t size = (k & 64) ? r_.u32() % sizeof kSaxpyPtx : sizeof kSaxpyPtx;
        if (check("dc_module_load", dc_module_load(pick<dc_device>(), kSaxpyPtx, size, (k & 128) ? nullptr : &o, &m), &m) == 0)
          keep(m);
        break;
      }
      case 13: {  // functions and globals
        dc_module m = pick<dc_module>();
        const char* names[] = {"saxpy", "empty", "", "answer", "nope"};
        const char* name = r_.u8() == 9 ? nullptr : names[r_.u8() % 5];
        if (r_.u8() & 1) {
          dc_function f = nullptr;
          if (check("dc_module_get_function", dc_module_get_function(m, name, &f), &f) == 0) keep(f);
        } else {
          dc_buffer b = nullptr;
          if (check("dc_module_get_global", dc_module_get_global(m, name, &b), &b) == 0) keep(b);
        }
        uint32_t count = 0;
        check("dc_module_function_count", dc_module_function_count(m, &count), &count);
        const char* fname = nullptr;
        check("dc_module_function_name", dc_module_function_name(m, r_.u32() % 8, &fname), &fname);
        break;
      }
      case 14: {  // one-shot launches
        dc_function f = pick<dc_function>();
        dc_launch_config c = config();
        std::vector<float> values;
        std::vector<dc_arg> a = args(values);
        const dc_arg* array = a.empty() ? nullptr : a.data();
        uint32_t n = static_cast<uint32_t>(a.size());
        if (r_.u8() == 3) {  // a count without an array (never a count longer than the array given)
          array = nullptr;
          n = r_.u32();
        }
        check("dc_launch_kernel", dc_launch_kernel(f, (r_.u8() == 5) ? nullptr : &c, array, n, pick<dc_stream>()));
        break;
      }
      case 15: {  // packed launches: the block lies in the scratch, sizes up to its end
        dc_launch_config c = config();
        uint64_t size = r_.u32() % 256;
        check("dc_launch_kernel_packed",
              dc_launch_kernel_packed(pick<dc_function>(), &c, (r_.u8() & 1) ? scratch() : nullptr, size, pick<dc_stream>()));
        break;
      }
      case 16: {  // prepared launches
        uint8_t k = r_.u8() % 5;
        if (k == 0) {
          dc_launch_config c = config();
          dc_launch l = nullptr;
          if (check("dc_launch_create", dc_launch_create(pick<dc_function>(), &c, &l), &l) == 0) keep(l);
        } else if (k == 1) {
          std::vector<float> values;
          std::vector<dc_arg> a = args(values);
          check("dc_launch_set_args", dc_launch_set_args(pick<dc_launch>(), a.empty() ? nullptr : a.data(), static_cast<uint32_t>(a.size())));
        } else if (k == 2) {
          std::vector<float> values;
          std::vector<dc_arg> a = args(values);
          check("dc_launch_set_arg", dc_launch_set_arg(pick<dc_launch>(), r_.u32() % 6, a.empty() ? nullptr : a.data()));
        } else if (k == 3) {
          dc_launch_config c = config();
          check("dc_launch_set_config", dc_launch_set_config(pick<dc_launch>(), &c));
        } else {
          check("dc_launch_enqueue", dc_launch_enqueue(pick<dc_launch>(), pick<dc_stream>()));
        }
        break;
      }
      case 17: {  // capture and graphs
        uint8_t k = r_.u8() % 6;
        if (k == 0) {
          check("dc_stream_begin_capture", dc_stream_begin_capture(pick<dc_stream>(), static_cast<int8_t>(r_.u8()) % 4));
        } else if (k == 1) {
          dc_graph g = nullptr;
          if (check("dc_stream_end_capture", dc_stream_end_capture(pick<dc_stream>(), &g), &g) == 0) keep(g);
        } else if (k == 2) {
          check("dc_graph_instantiate", dc_graph_instantiate(pick<dc_graph>()));
        } else if (k == 3) {
          check("dc_graph_launch", dc_graph_launch(pick<dc_graph>(), pick<dc_stream>()));
        } else if (k == 4) {
          check("dc_graph_update", dc_graph_update(pick<dc_graph>(), pick<dc_graph>()));
        } else {
          uint64_t n = 0;
          check("dc_graph_node_count", dc_graph_node_count(pick<dc_graph>(), &n), &n);
          int32_t capturing = 0;
          check("dc_stream_is_capturing", dc_stream_is_capturing(pick<dc_stream>(), &capturing), &capturing);
          check("dc_graph_upload", dc_graph_upload(pick<dc_graph>(), pick<dc_stream>()));
        }
        break;
      }
      case 18: {  // device-wide calls, the reset among them
        dc_device d = pick<dc_device>();
        uint8_t k = r_.u8() % 6;
        if (k == 0) {
          check("dc_device_reset", dc_device_reset(d));
        } else if (k == 1) {
          check("dc_device_synchronize", dc_device_synchronize(d));
        } else if (k == 2) {
          check("dc_device_trim_memory", dc_device_trim_memory(d, r_.amount(kMaxAlloc)));
        } else if (k == 3) {
          dc_device_info info = DC_DEVICE_INFO_INIT;
          if (r_.u8() & 1) info.struct_size = r_.u32() % 512;
          check("dc_device_get_info", dc_device_get_info(d, &info));
        } else if (k == 4) {
          int32_t v = 0;
          check("dc_device_attribute", dc_device_attribute(d, static_cast<int32_t>(r_.u32() % 200) - 10, &v), &v);
        } else {
          uint64_t f = 0, t = 0;
          check("dc_device_memory_info", dc_device_memory_info(d, &f, &t), &f, &t);
        }
        break;
      }
      case 19: {  // occupancy
        dc_function f = pick<dc_function>();
        uint8_t k = r_.u8() % 4;
        int32_t a = 0, b = 0;
        uint64_t bytes = 0;
        if (k == 0) {
          check("dc_occupancy_max_active_blocks", dc_occupancy_max_active_blocks(f, static_cast<int32_t>(r_.u32() % 2100) - 10, r_.amount(100000), &a), &a);
        } else if (k == 1) {
          check("dc_occupancy_max_potential_block_size",
                dc_occupancy_max_potential_block_size(f, nullptr, nullptr, r_.amount(100000), static_cast<int32_t>(r_.u32() % 2100) - 10, &a, &b), &a, &b);
        } else if (k == 2) {
          dc_launch_config c = config();
          check("dc_occupancy_max_active_clusters", dc_occupancy_max_active_clusters(f, &c, &a), &a);
        } else {
          check("dc_occupancy_available_dynamic_shared",
                dc_occupancy_available_dynamic_shared(f, static_cast<int32_t>(r_.u8()) - 2, static_cast<int32_t>(r_.u32() % 2100) - 10, &bytes), &bytes);
        }
        break;
      }
      case 20: {  // queries of anything
        void* h = any();
        uint64_t u = 0;
        int32_t i = 0;
        void* p = nullptr;
        const char* s = nullptr;
        dc_device d = nullptr;
        switch (r_.u8() % 10) {
          case 0: check("dc_buffer_size", dc_buffer_size(static_cast<dc_buffer>(h), &u), &u); break;
          case 1: check("dc_buffer_kind", dc_buffer_kind(static_cast<dc_buffer>(h), &i), &i); break;
          case 2: check("dc_buffer_device_pointer", dc_buffer_device_pointer(static_cast<dc_buffer>(h), &u), &u); break;
          case 3: check("dc_buffer_host_pointer", dc_buffer_host_pointer(static_cast<dc_buffer>(h), &p), &p); break;
          case 4:
            if (check("dc_buffer_device", dc_buffer_device(static_cast<dc_buffer>(h), &d), &d) == 0) keep(d);
            break;
          case 5: check("dc_function_name", dc_function_name(static_cast<dc_function>(h), &s), &s); break;
          case 6: {
            dc_function_info info = DC_FUNCTION_INFO_INIT;
            check("dc_function_get_info", dc_function_get_info(static_cast<dc_function>(h), &info));
            break;
          }
          case 7: check("dc_function_param_count", dc_function_param_count(static_cast<dc_function>(h), reinterpret_cast<uint32_t*>(&i)), &i); break;
          case 8: check("dc_event_native", dc_event_native(static_cast<dc_event>(h), &p), &p); break;
          default: check("dc_module_jit_log", dc_module_jit_log(static_cast<dc_module>(h), &s), &s); break;
        }
        break;
      }
      case 21: {  // wrapping device memory
        // The caller's part: the pointer is memory that is there, and stays
        // there while the wrapping buffer lives (its source is not released
        // before it). dccuda checks the size against the allocation the
        // driver knows, and refuses 0 and pointers that wrap around.
        dc_buffer of = pick<dc_buffer>();
        uint64_t base = 0, have = 0;
        check("dc_buffer_device_pointer", dc_buffer_device_pointer(of, &base), &base);
        check("dc_buffer_size", dc_buffer_size(of, &have), &have);
        uint64_t ptr = 0;
        if (base && have && (r_.u8() & 3)) ptr = base + r_.u64() % have;
        else if (r_.u8() & 1) ptr = UINT64_MAX - r_.u8();
        dc_buffer b = nullptr;
        if (check("dc_buffer_wrap_device", dc_buffer_wrap_device(pick<dc_device>(), ptr, r_.amount(kMaxAlloc), &b), &b) == 0) {
          keep(b);
          protected_.insert(of);
        }
        break;
      }
      case 22: {  // managed memory hints
        dc_buffer b = pick<dc_buffer>();
        uint64_t off = r_.amount(kMaxAlloc), n = r_.amount(kMaxAlloc);
        int32_t loc = static_cast<int32_t>(r_.u8() % 5) - 2;
        if (r_.u8() & 1)
          check("dc_buffer_prefetch", dc_buffer_prefetch(b, off, n, loc, pick<dc_stream>()));
        else
          check("dc_buffer_advise", dc_buffer_advise(b, off, n, static_cast<int32_t>(r_.u8() % 9) - 1, loc));
        break;
      }
      case 23: {  // peers
        dc_device a = pick<dc_device>(), b = pick<dc_device>();
        uint8_t k = r_.u8() % 4;
        int32_t v = 0;
        if (k == 0) check("dc_device_can_access_peer", dc_device_can_access_peer(a, b, &v), &v);
        else if (k == 1) check("dc_device_enable_peer_access", dc_device_enable_peer_access(a, b));
        else if (k == 2) check("dc_device_disable_peer_access", dc_device_disable_peer_access(a, b));
        else check("dc_device_peer_attribute", dc_device_peer_attribute(a, b, static_cast<int32_t>(r_.u8() % 6) - 1, &v), &v);
        break;
      }
      case 24: {  // function attributes
        dc_function f = pick<dc_function>();
        int32_t attr = static_cast<int32_t>(r_.u8() % 24) - 2;
        if (r_.u8() & 1)
          check("dc_function_set_attribute", dc_function_set_attribute(f, attr, static_cast<int32_t>(r_.u32() % 300000) - 2));
        else
          check("dc_function_set_cache_config", dc_function_set_cache_config(f, static_cast<int32_t>(r_.u8() % 6) - 1));
        uint64_t off = 0, size = 0;
        check("dc_function_param_info", dc_function_param_info(f, r_.u32() % 6, &off, &size), &off, &size);
        break;
      }
      case 25: {  // a 1-D configuration
        dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
        if (r_.u8() == 1) c.struct_size = r_.u8();
        check("dc_launch_config_1d", dc_launch_config_1d(pick<dc_function>(), r_.amount(1 << 20), r_.u32() % 100000, &c));
        break;
      }
      case 26: {  // a made-up handle joins the pool
        pool_.push_back(reinterpret_cast<void*>(static_cast<uintptr_t>(r_.u64())));
        break;
      }
      default: {  // a saxpy run over buffers from the pool, often out of bounds
        dc_function f = pick<dc_function>();
        float a = 2.0f;
        int32_t n = static_cast<int32_t>(r_.u32() % 20000);
        dc_arg av[] = {{DC_ARG_VALUE, 4, &a, nullptr, 0}, {DC_ARG_BUFFER, 8, nullptr, pick<dc_buffer>(), 0},
                       {DC_ARG_BUFFER, 8, nullptr, pick<dc_buffer>(), 0}, {DC_ARG_VALUE, 4, &n, nullptr, 0}};
        dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
        c.grid[0] = 1 + r_.u8() % 80;
        c.block[0] = 256;
        check("dc_launch_kernel", dc_launch_kernel(f, &c, av, 4, pick<dc_stream>()));
        break;
      }
    }
  }

  Reader& r_;
  std::vector<void*> pool_;
  std::set<void*> protected_;  // wrapped by another handle: not released before finish()
  bool lost_ = false;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The fake driver built beside this fuzzer, and a cache directory of its own.
  setenv("DCCUDA_DRIVER_LIBRARY", DCFUZZ_FAKE_DRIVER, 0);
  setenv("DCFAKE_DEVICES", "2", 0);
  setenv("DCCUDA_CACHE_DIR", "/tmp/dccuda-fuzz-cache", 0);
  int32_t n = 0;
  if (dc_device_count(&n) != DC_SUCCESS || n < 1) {
    std::fprintf(stderr, "fuzz_api: the fake driver did not load: %s\n", dc_last_error_message());
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r(data, size);
  Program p(r);
  p.run();
  p.finish();
  if (fake().reset) fake().reset();
  return 0;
}
