// Handles under the misuse managed runtimes produce: released twice,
// released on another thread (finalizers), released while other threads still
// use them. The defined behaviour (include/dccuda.h, "Handles"): releasing a
// released handle does nothing; a call that races with the release of one of
// its handles either completes normally (it got the object first) or returns
// DC_ERROR_INVALID_HANDLE; the object is destroyed once the last such call
// ends; nothing crashes and nothing leaks. Runs on the fake driver and on a
// real GPU (the same binary), and under ThreadSanitizer in CI.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "reliability/device_fixture.h"
#include "support/fake.h"

namespace {

uint64_t count_of(int32_t type) {
  uint64_t n = 0;
  EXPECT_EQ(dc_handle_count(type, &n), DC_SUCCESS);
  return n;
}

class HandleLifetime : public dctest::DeviceFixture {
 protected:
  dc_module load_kernels() { return DeviceFixture::load_kernels("lifetime.cu"); }
};

// One object of each type, made and released by the given functions.
struct Kind {
  const char* name;
  int32_t type;
  std::function<void*()> make;
  std::function<void(void*)> release;
};

std::vector<Kind> kinds(dc_device device, dc_module module, dc_function saxpy) {
  std::vector<Kind> k = {
      {"device", DC_HANDLE_DEVICE,
       [] { dc_device d = nullptr; EXPECT_DC_OK(dc_device_open(0, &d)); return static_cast<void*>(d); },
       [](void* h) { dc_device_release(static_cast<dc_device>(h)); }},
      {"buffer", DC_HANDLE_BUFFER,
       [=] { dc_buffer b = nullptr; EXPECT_DC_OK(dc_buffer_alloc(device, 4096, 0, &b)); return static_cast<void*>(b); },
       [](void* h) { dc_buffer_release(static_cast<dc_buffer>(h)); }},
      {"stream", DC_HANDLE_STREAM,
       [=] { dc_stream s = nullptr; EXPECT_DC_OK(dc_stream_create(device, 0, 0, &s)); return static_cast<void*>(s); },
       [](void* h) { dc_stream_release(static_cast<dc_stream>(h)); }},
      {"event", DC_HANDLE_EVENT,
       [=] { dc_event e = nullptr; EXPECT_DC_OK(dc_event_create(device, 0, &e)); return static_cast<void*>(e); },
       [](void* h) { dc_event_release(static_cast<dc_event>(h)); }},
  };
  if (module) {
    k.push_back({"module", DC_HANDLE_MODULE,
                 [=] {
                   // A second handle to a module: load the same image again.
                   dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
                   o.std = "c++17";
                   dc_module m = nullptr;
                   EXPECT_DC_OK(dc_module_compile_and_load(device, dctest::kKernels, "lifetime.cu", &o, &m));
                   return static_cast<void*>(m);
                 },
                 [](void* h) { dc_module_release(static_cast<dc_module>(h)); }});
    k.push_back({"function", DC_HANDLE_FUNCTION,
                 [=] { dc_function f = nullptr; EXPECT_DC_OK(dc_module_get_function(module, "saxpy", &f));
                       return static_cast<void*>(f); },
                 [](void* h) { dc_function_release(static_cast<dc_function>(h)); }});
    k.push_back({"launch", DC_HANDLE_LAUNCH,
                 [=] {
                   dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
                   dc_launch l = nullptr;
                   EXPECT_DC_OK(dc_launch_create(saxpy, &c, &l));
                   return static_cast<void*>(l);
                 },
                 [](void* h) { dc_launch_release(static_cast<dc_launch>(h)); }});
    k.push_back({"program", DC_HANDLE_PROGRAM,
                 [=] {
                   dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
                   o.std = "c++17";
                   dc_program p = nullptr;
                   EXPECT_DC_OK(dc_compile(dctest::kKernels, "lifetime.cu", &o, device, &p));
                   return static_cast<void*>(p);
                 },
                 [](void* h) { dc_program_release(static_cast<dc_program>(h)); }});
    k.push_back({"graph", DC_HANDLE_GRAPH,
                 [=] {
                   dc_stream s = nullptr;
                   dc_graph g = nullptr;
                   EXPECT_DC_OK(dc_stream_create(device, 0, 0, &s));
                   EXPECT_DC_OK(dc_stream_begin_capture(s, DC_CAPTURE_THREAD_LOCAL));
                   EXPECT_DC_OK(dc_stream_end_capture(s, &g));
                   dc_stream_release(s);
                   return static_cast<void*>(g);
                 },
                 [](void* h) { dc_graph_release(static_cast<dc_graph>(h)); }});
  }
  return k;
}

TEST_F(HandleLifetime, DoubleReleaseOfEveryTypeIsHarmless) {
  dc_module module = have_nvrtc_ ? load_kernels() : nullptr;
  dc_function saxpy = nullptr;
  if (module) ASSERT_DC_OK(dc_module_get_function(module, "saxpy", &saxpy));
  for (const Kind& k : kinds(device_, module, saxpy)) {
    SCOPED_TRACE(k.name);
    uint64_t before = count_of(k.type);
    void* h = k.make();
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(count_of(k.type), before + 1);
    // Keep a failure as the last error: releases must not touch it.
    dc_buffer_size(nullptr, nullptr);
    k.release(h);
    k.release(h);
    k.release(h);
    EXPECT_EQ(dc_last_error_status(), DC_ERROR_INVALID_HANDLE) << "a release touched the last error";
    EXPECT_EQ(count_of(k.type), before) << "a second release released something else";
  }
  dc_function_release(saxpy);
  dc_module_release(module);
}

TEST_F(HandleLifetime, ReleaseOnAnotherThreadThanTheOneThatMadeIt) {
  dc_module module = have_nvrtc_ ? load_kernels() : nullptr;
  dc_function saxpy = nullptr;
  if (module) ASSERT_DC_OK(dc_module_get_function(module, "saxpy", &saxpy));
  for (const Kind& k : kinds(device_, module, saxpy)) {
    SCOPED_TRACE(k.name);
    uint64_t before = count_of(k.type);
    void* h = nullptr;
    std::thread maker([&] { h = k.make(); });
    maker.join();
    ASSERT_NE(h, nullptr);
    // A finalizer thread: the handle crosses threads, and so does its release.
    std::thread finalizer([&] { k.release(h); });
    finalizer.join();
    EXPECT_EQ(count_of(k.type), before);
  }
  dc_function_release(saxpy);
  dc_module_release(module);
}

TEST_F(HandleLifetime, ConcurrentReleasesOfOneHandleReleaseItOnce) {
  constexpr int kThreads = 8;
  for (int round = 0; round < 50; ++round) {
    dc_buffer keep = nullptr, b = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc(device_, 256, 0, &keep));
    ASSERT_DC_OK(dc_buffer_alloc(device_, 256, 0, &b));
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&] {
        ready.fetch_add(1);
        while (ready.load() < kThreads) std::this_thread::yield();
        dc_buffer_release(b);
      });
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(count_of(DC_HANDLE_BUFFER), 1u) << "round " << round;
    uint64_t size = 0;
    EXPECT_DC_OK(dc_buffer_size(keep, &size));  // the other buffer is unharmed
    dc_buffer_release(keep);
  }
}

// Uses of a handle racing with its release: every call either works fully or
// says DC_ERROR_INVALID_HANDLE; a write that worked wrote everything.
TEST_F(HandleLifetime, ConcurrentUseAndReleaseOfABuffer) {
  constexpr int kUsers = 6;
  constexpr uint64_t kBytes = 64 * 1024;
  int invalid_total = 0, ok_total = 0;
  for (int round = 0; round < 40; ++round) {
    dc_buffer b = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc(device_, kBytes, 0, &b));
    std::atomic<bool> released{false};
    std::atomic<int> ok{0}, invalid{0}, wrong{0};
    std::vector<std::thread> users;
    for (int t = 0; t < kUsers; ++t)
      users.emplace_back([&, t] {
        std::vector<uint8_t> data(kBytes, static_cast<uint8_t>(t + 1)), back(kBytes);
        for (int i = 0; i < 200; ++i) {
          bool after_release = released.load();
          dc_status s = (i % 3 == 0)   ? dc_buffer_write(b, 0, data.data(), kBytes)
                        : (i % 3 == 1) ? dc_buffer_read(b, 0, back.data(), kBytes)
                                       : dc_buffer_fill(b, 0, kBytes, 7, 1);
          if (s == DC_SUCCESS) {
            ok.fetch_add(1);
            if (after_release) wrong.fetch_add(1);  // began after the release returned: must be refused
          } else if (s == DC_ERROR_INVALID_HANDLE) {
            invalid.fetch_add(1);
            if (!strstr(dc_last_error_message(), "released")) wrong.fetch_add(1);
            if (released.load()) break;  // after the release every call must say so
          } else {
            wrong.fetch_add(1);
          }
        }
      });
    std::thread releaser([&] {
      std::this_thread::sleep_for(std::chrono::microseconds(50 * (round % 8)));
      dc_buffer_release(b);
      released.store(true);
    });
    for (std::thread& t : users) t.join();
    releaser.join();
    EXPECT_EQ(wrong.load(), 0) << "a racing call failed with something other than DC_ERROR_INVALID_HANDLE";
    uint64_t size = 0;
    EXPECT_EQ(dc_buffer_size(b, &size), DC_ERROR_INVALID_HANDLE) << "the handle outlived its release";
    invalid_total += invalid.load();
    ok_total += ok.load();
  }
  EXPECT_EQ(count_of(DC_HANDLE_BUFFER), 0u);
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->live("allocations"), 0) << "the memory was not freed";
  }
  std::printf("[ dccuda   ] racing calls: %d completed, %d refused as released\n", ok_total, invalid_total);
}

// A stream synchronised and used for copies on some threads while another
// releases it; work already enqueued completes.
TEST_F(HandleLifetime, ConcurrentUseAndReleaseOfAStreamAndAnEvent) {
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, 0, &b));
  for (int round = 0; round < 40; ++round) {
    dc_stream s = nullptr;
    dc_event e = nullptr;
    ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
    ASSERT_DC_OK(dc_event_create(device_, 0, &e));
    std::atomic<int> wrong{0};
    auto allowed = [&](dc_status st) {
      if (st != DC_SUCCESS && st != DC_ERROR_INVALID_HANDLE) wrong.fetch_add(1);
    };
    std::vector<std::thread> users;
    for (int t = 0; t < 4; ++t)
      users.emplace_back([&] {
        for (int i = 0; i < 100; ++i) {
          allowed(dc_buffer_fill_async(b, 0, 4096, static_cast<uint32_t>(i), 4, s));
          allowed(dc_event_record(e, s));
          allowed(dc_stream_wait_event(s, e));
          dc_status q = dc_event_query(e);
          allowed(q == DC_NOT_READY ? DC_SUCCESS : q);
          allowed(dc_stream_synchronize(s));
        }
      });
    std::thread releaser([&] {
      std::this_thread::sleep_for(std::chrono::microseconds(30 * (round % 8)));
      dc_event_release(e);
      dc_stream_release(s);
    });
    for (std::thread& t : users) t.join();
    releaser.join();
    EXPECT_EQ(wrong.load(), 0);
  }
  EXPECT_DC_OK(dc_device_synchronize(device_));
  dc_buffer_release(b);
  EXPECT_EQ(count_of(DC_HANDLE_STREAM), 0u);
  EXPECT_EQ(count_of(DC_HANDLE_EVENT), 0u);
}

// Graph launches from several threads while the graph and the stream are
// released (dc_graph_launch pins both with hazard pins, core/hazard_pins.h):
// each launch succeeds or is refused as released, and the last user
// destroys each object once.
TEST_F(HandleLifetime, ConcurrentGraphLaunchesWhileTheGraphAndStreamAreReleased) {
  auto* fake = dctest::fake_driver();
  long streams_after_first_round = -1;  // the device makes a stream of its own at first need
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, 0, &b));
  for (int round = 0; round < 40; ++round) {
    dc_stream s = nullptr, capture = nullptr;
    ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
    ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &capture));
    dc_graph g = nullptr;
    ASSERT_DC_OK(dc_stream_begin_capture(capture, DC_CAPTURE_THREAD_LOCAL));
    ASSERT_DC_OK(dc_buffer_fill_async(b, 0, 4096, static_cast<uint32_t>(round), 4, capture));
    ASSERT_DC_OK(dc_stream_end_capture(capture, &g));
    dc_stream_release(capture);
    std::atomic<int> wrong{0};
    std::vector<std::thread> users;
    for (int t = 0; t < 4; ++t)
      users.emplace_back([&] {
        for (int i = 0; i < 100; ++i) {
          dc_status st = dc_graph_launch(g, s);
          if (st != DC_SUCCESS && st != DC_ERROR_INVALID_HANDLE) wrong.fetch_add(1);
        }
      });
    std::thread releaser([&] {
      std::this_thread::sleep_for(std::chrono::microseconds(30 * (round % 8)));
      if (round % 2) {
        dc_graph_release(g);
        dc_stream_release(s);
      } else {
        dc_stream_release(s);
        dc_graph_release(g);
      }
    });
    for (std::thread& t : users) t.join();
    releaser.join();
    EXPECT_EQ(wrong.load(), 0) << "round " << round;
    EXPECT_EQ(count_of(DC_HANDLE_GRAPH), 0u);
    EXPECT_EQ(count_of(DC_HANDLE_STREAM), 0u);
    if (fake) {
      // b keeps the stream of its last use (the last round's) until it goes.
      if (round == 0) streams_after_first_round = fake->live("streams");
      EXPECT_EQ(fake->live("streams"), streams_after_first_round) << "streams pile up, round " << round;
    }
  }
  EXPECT_DC_OK(dc_device_synchronize(device_));
  dc_buffer_release(b);
  if (fake) {
    EXPECT_EQ(fake->live("graphs"), 0) << "a graph outlived its last user";
    EXPECT_EQ(fake->live("graph_execs"), 0) << "an executable graph outlived its last user";
    EXPECT_EQ(fake->live("streams"), streams_after_first_round - 1) << "the last round's stream outlived its last user";
  }
}

// Launches enqueued from several threads (one-shot, prepared, in batches) while the prepared launch, its
// function and its module are released: releasing a parent while children
// are in use is allowed; the last user frees everything.
TEST_F(HandleLifetime, ConcurrentLaunchesWhileTheirHandlesAreReleased) {
  if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  constexpr int n = 1024;
  dc_buffer x = nullptr, y = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, n * 4, 0, &x));
  ASSERT_DC_OK(dc_buffer_alloc(device_, n * 4, 0, &y));
  float a = 1.0f;
  int32_t count = n;
  dc_arg args[] = {{DC_ARG_VALUE, 4, &a, nullptr, 0}, {DC_ARG_BUFFER, 8, nullptr, x, 0},
                   {DC_ARG_BUFFER, 8, nullptr, y, 0}, {DC_ARG_VALUE, 4, &count, nullptr, 0}};
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.grid[0] = n / 256;
  c.block[0] = 256;
  for (int round = 0; round < 20; ++round) {
    dc_module m = load_kernels();
    ASSERT_NE(m, nullptr);
    dc_function f = nullptr;
    ASSERT_DC_OK(dc_module_get_function(m, "saxpy", &f));
    dc_launch l = nullptr;
    ASSERT_DC_OK(dc_launch_create(f, &c, &l));
    ASSERT_DC_OK(dc_launch_set_args(l, args, 4));
    dc_stream s = nullptr;
    ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
    std::atomic<int> wrong{0};
    std::vector<std::thread> users;
    // A batch holds the launch three times: released half way, it is refused whole.
    const dc_launch batch[] = {l, l, l};
    for (int t = 0; t < 6; ++t)
      users.emplace_back([&, t] {
        for (int i = 0; i < 50; ++i) {
          dc_status st = t % 3 == 1   ? dc_launch_enqueue(l, s)
                         : t % 3 == 2 ? dc_launch_enqueue_batch(batch, 3, s)
                                      : dc_launch_kernel(f, &c, args, 4, s);
          if (st != DC_SUCCESS && st != DC_ERROR_INVALID_HANDLE) wrong.fetch_add(1);
        }
      });
    std::thread releaser([&] {
      std::this_thread::sleep_for(std::chrono::microseconds(40 * (round % 5)));
      dc_module_release(m);
      dc_function_release(f);
      dc_launch_release(l);
    });
    for (std::thread& t : users) t.join();
    releaser.join();
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_DC_OK(dc_stream_synchronize(s));
    dc_stream_release(s);
    EXPECT_EQ(count_of(DC_HANDLE_MODULE), 0u);
    EXPECT_EQ(count_of(DC_HANDLE_FUNCTION), 0u);
    EXPECT_EQ(count_of(DC_HANDLE_LAUNCH), 0u);
  }
  dc_buffer_release(x);
  dc_buffer_release(y);
  if (auto* fk = dctest::fake_driver()) {
    EXPECT_EQ(fk->live("modules"), 0) << "the module outlived its last user";
  }
}

// The device handle released while its buffers are used on other threads:
// the buffers keep the device alive.
TEST_F(HandleLifetime, DeviceReleasedWhileItsObjectsAreInUse) {
  dc_device d = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &d));
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(d, 4096, 0, &b));
  std::atomic<int> wrong{0};
  std::thread user([&] {
    std::vector<uint8_t> data(4096, 3), back(4096);
    for (int i = 0; i < 300; ++i) {
      if (dc_buffer_write(b, 0, data.data(), 4096) != DC_SUCCESS) wrong.fetch_add(1);
      if (dc_buffer_read(b, 0, back.data(), 4096) != DC_SUCCESS || back != data) wrong.fetch_add(1);
    }
  });
  dc_device_release(d);
  user.join();
  EXPECT_EQ(wrong.load(), 0) << "the buffer stopped working when its device handle was released";
  dc_buffer_release(b);
}

}  // namespace
