// Kernel arguments: the validation matrix of dc_launch_kernel and
// dc_launch_kernel_packed (count, each size, kinds, buffers dead, mistyped,
// offsets, host memory, packed block sizes) and that good arguments arrive
// intact (results checked against the CPU).
#include <atomic>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class ArgsTest : public LaunchTest {};

// y = a * x + y on the CPU (the GPU may fuse the multiply-add: compare with a
// tolerance).
std::vector<float> saxpy_reference(float a, const std::vector<float>& x, std::vector<float> y, size_t n) {
  for (size_t i = 0; i < n && i < y.size(); ++i) y[i] = a * x[i] + y[i];
  return y;
}

void expect_near_all(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-5f * std::max(1.0f, std::fabs(want[i])) && bad++ < 5)
      ADD_FAILURE() << "element " << i << ": got " << got[i] << ", want " << want[i];
  EXPECT_EQ(bad, 0u);
}

TEST_F(ArgsTest, SaxpyMatchesTheCpuReference) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  const int n = 100003;  // not a multiple of the block
  std::vector<float> x = random_floats(n, 1), y = random_floats(n, 2);
  dc_buffer bx = upload(x), by = upload(y);
  float a = 1.75f;
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(by), value_of(n)};
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  ASSERT_DC_OK(dc_launch_config_1d(f, n, 0, &c));
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
  expect_near_all(download<float>(by, n), saxpy_reference(a, x, y, n));
}

TEST_F(ArgsTest, ArgumentCountIsChecked) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  dc_buffer b = alloc(64);
  float a = 1;
  int n = 16;
  dc_arg args[] = {value_of(a), buffer_arg(b), buffer_arg(b), value_of(n), value_of(n)};
  dc_launch_config c = config_1d(1, 16);
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 3, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "saxpy takes 4 parameters, 3 arguments were given");
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 5, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "saxpy takes 4 parameters, 5 arguments were given");
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 0, stream_), DC_ERROR_INVALID_ARGUMENT, "0 arguments were given");
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, nullptr, 4, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "args is NULL but num_args is 4");
  EXPECT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  EXPECT_STREQ(dc_last_error_message(), "");
  sync();
}

TEST_F(ArgsTest, EachSizeIsCheckedAgainstTheLayout) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  dc_buffer b = alloc(64);
  float a = 1;
  int n = 16;
  double wide = 1;
  int32_t narrow = 0;
  dc_launch_config c = config_1d(1, 16);
  {
    dc_arg args[] = {value_of(a), buffer_arg(b), buffer_arg(b), value_of(wide)};
    EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_ARGUMENT,
                    "dc_launch_kernel: saxpy: parameter 3 is 4 bytes, argument is 8 bytes");
  }
  {
    dc_arg args[] = {value_of(a), value_of(narrow), buffer_arg(b), value_of(n)};
    EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_ARGUMENT,
                    "saxpy: parameter 1 is 8 bytes, argument is 4 bytes");
  }
  {
    dc_arg args[] = {buffer_arg(b), buffer_arg(b), buffer_arg(b), value_of(n)};
    EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_ARGUMENT,
                    "saxpy: parameter 0 is 4 bytes, argument is a buffer");
  }
  // A device pointer passed as an 8-byte value is a valid argument.
  uint64_t address = 0;
  ASSERT_DC_OK(dc_buffer_device_pointer(b, &address));
  dc_arg args[] = {value_of(a), value_of(address), buffer_arg(b), value_of(n)};
  EXPECT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
}

// Every parameter of `mixed` has another size and alignment; each wrong size
// is named, and the right ones arrive where the kernel reads them.
TEST_F(ArgsTest, StructAndVectorArgumentsArriveIntact) {
  REQUIRE_KERNELS();
  dc_function f = kernel("mixed");
  ASSERT_NE(f, nullptr);
  dc_buffer table = nullptr;
  ASSERT_DC_OK(dc_module_get_global(base_module_, "table", &table));
  buffers_.push_back(table);
  float values[16] = {};
  values[3] = 7.5f;
  ASSERT_DC_OK(dc_buffer_write(table, 0, values, sizeof values));
  dc_buffer out = upload(std::vector<int32_t>{-1});

  char ch = 3;
  dctest::S s{};
  s.a = 1.5;
  s.b = 1000;
  s.c[4] = 20;
  short h = 300;
  double d = 40000.9;
  dctest::F4 v{1, 2, 3, 500000.0f};
  std::vector<dc_arg> args = {value_of(ch), value_of(s), value_of(h), value_of(d), value_of(v), buffer_arg(out)};
  dc_launch_config c = config_1d(1, 1);
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    std::vector<dc_arg> wrong = args;
    wrong[i].size += 1;
    std::string text = "mixed: parameter " + std::to_string(i) + " is " + std::to_string(args[i].size) +
                       " bytes, argument is " + std::to_string(args[i].size + 1) + " bytes";
    EXPECT_DC_ERROR(dc_launch_kernel(f, &c, wrong.data(), 6, stream_), DC_ERROR_INVALID_ARGUMENT, text);
  }
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args.data(), 6, stream_));
  sync();
  int32_t want = ch + s.b + s.c[4] + h + static_cast<int>(d) + static_cast<int>(v.w) + 42 + 7;
  EXPECT_EQ(download<int32_t>(out, 1)[0], want);
}

TEST_F(ArgsTest, KindAndValuePointerAreChecked) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  dc_buffer b = alloc(64);
  float a = 1;
  int n = 16;
  dc_launch_config c = config_1d(1, 16);
  dc_arg args[] = {value_of(a), buffer_arg(b), buffer_arg(b), value_of(n)};
  args[1].kind = 7;
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "args[1].kind is 7; use DC_ARG_VALUE (1) or DC_ARG_BUFFER (2)");
  args[1] = buffer_arg(b);
  args[0].value = nullptr;
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_ARGUMENT, "args[0].value is NULL");
}

TEST_F(ArgsTest, DeadAndMistypedBuffersAreRefused) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  dc_buffer live = alloc(64);
  dc_buffer dead = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 64, 0, &dead));
  dc_buffer_release(dead);
  float a = 1;
  int n = 16;
  dc_launch_config c = config_1d(1, 16);
  dc_arg args[] = {value_of(a), buffer_arg(live), buffer_arg(dead), value_of(n)};
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_HANDLE,
                  "args[2].buffer");
  args[2].buffer = reinterpret_cast<dc_buffer>(stream_);
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_HANDLE, "is a dc_stream handle");
  args[2].buffer = nullptr;
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_HANDLE, "args[2].buffer is NULL");
}

TEST_F(ArgsTest, OffsetsMoveThePointerAndAreBoundsChecked) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  const int n = 64;
  std::vector<float> x = random_floats(n, 3), y = random_floats(2 * n, 4);
  dc_buffer bx = upload(x), by = upload(y);
  float a = -2.5f;
  dc_launch_config c = config_1d(1, 64);
  // y + 64 floats: only the second half changes.
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(by, n * sizeof(float)), value_of(n)};
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
  std::vector<float> want = y;
  for (int i = 0; i < n; ++i) want[n + i] = a * x[i] + y[n + i];
  expect_near_all(download<float>(by, 2 * n), want);

  args[2].offset = 2 * n * sizeof(float);
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_OUT_OF_RANGE,
                  "args[2].offset 512 is not inside the buffer (512 bytes)");
  args[2].offset = UINT64_MAX;
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_OUT_OF_RANGE, "args[2].offset");
}

TEST_F(ArgsTest, MappedPinnedMemoryIsAValidArgument) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  const int n = 1000;
  std::vector<float> x = random_floats(n, 5), y = random_floats(n, 6);
  dc_buffer bx = upload(x);
  dc_buffer pinned = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, n * sizeof(float), DC_ALLOC_DEVICE_MAPPED, &pinned));
  buffers_.push_back(pinned);
  void* host = nullptr;
  ASSERT_DC_OK(dc_buffer_host_pointer(pinned, &host));
  std::memcpy(host, y.data(), n * sizeof(float));
  float a = 0.5f;
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(pinned), value_of(n)};
  dc_launch_config c = config_1d((n + 127) / 128, 128);
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
  std::vector<float> got(n);
  std::memcpy(got.data(), host, n * sizeof(float));
  expect_near_all(got, saxpy_reference(a, x, y, n));
}

// Views (dc_buffer_view) are kernel arguments like any buffer: the kernel gets
// the view's first byte (+ the argument's offset), checked against the view.
TEST_F(ArgsTest, ViewsAreKernelArguments) {
  REQUIRE_NVRTC();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  const int n = 1001, skip = 37;
  std::vector<float> x = random_floats(n + skip, 11), y = random_floats(n + 2 * skip, 12);
  dc_buffer bx = upload(x), by = upload(y);
  dc_buffer vx = nullptr, vy = nullptr;
  ASSERT_DC_OK(dc_buffer_view(bx, skip * sizeof(float), n * sizeof(float), &vx));
  buffers_.push_back(vx);
  ASSERT_DC_OK(dc_buffer_view(by, skip * sizeof(float), (n + skip) * sizeof(float), &vy));
  buffers_.push_back(vy);
  float a = -0.75f;
  dc_arg args[] = {value_of(a), buffer_arg(vx), buffer_arg(vy, skip * sizeof(float)), value_of(n)};
  dc_launch_config c = config_1d((n + 127) / 128, 128);
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
  std::vector<float> want = y;
  for (int i = 0; i < n; ++i) want[2 * skip + i] = a * x[skip + i] + y[2 * skip + i];
  expect_near_all(download<float>(by, n + 2 * skip), want);
  // The offset is checked against the view, not its parent.
  args[2].offset = (n + skip) * sizeof(float);
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_OUT_OF_RANGE, "args[2].offset 4152");
}

// A growable buffer is a kernel argument like any buffer, over its current
// size; the pointer a kernel got before a grow still addresses the same bytes
// after it (the address never changes), and the grown part is usable at once.
TEST_F(ArgsTest, GrowableBuffersAreKernelArguments) {
  REQUIRE_NVRTC();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  uint64_t g = 0;
  ASSERT_DC_OK(dc_device_allocation_granularity(device_, DC_GRANULARITY_MINIMUM, &g));
  const int n = static_cast<int>(g / sizeof(float)) + 1001;  // crosses into the second chunk
  std::vector<float> x = random_floats(n, 21), y = random_floats(n, 22);
  dc_buffer bx = upload(x);
  dc_buffer grow = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_growable(device_, 64 * g, 1, &grow));
  buffers_.push_back(grow);
  float a = 1.5f;
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(grow), value_of(n)};
  dc_launch_config c = config_1d((n + 127) / 128, 128);
  uint64_t before = 0, after = 0;
  ASSERT_DC_OK(dc_buffer_device_pointer(grow, &before));
  ASSERT_DC_OK(dc_buffer_grow(grow, n * sizeof(float)));
  ASSERT_DC_OK(dc_buffer_device_pointer(grow, &after));
  EXPECT_EQ(after, before);
  ASSERT_DC_OK(dc_buffer_write(grow, 0, y.data(), n * sizeof(float)));
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
  expect_near_all(download<float>(grow, n), saxpy_reference(a, x, y, n));
}

// Host memory without DC_ALLOC_DEVICE_MAPPED has no device address as far as
// dccuda's contract goes (dc_buffer_device_pointer refuses it), so a kernel
// must not get one either: the one-shot launch and a prepared launch's binding
// refuse it, whatever the driver would map under unified addressing.
TEST_F(ArgsTest, HostMemoryWithoutADeviceMappingIsRefusedAsAnArgument) {
  REQUIRE_NVRTC();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  const int n = 64;
  dc_buffer bx = alloc(n * sizeof(float));
  dc_buffer pinned = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, n * sizeof(float), 0, &pinned));
  buffers_.push_back(pinned);
  std::vector<float> host(n);
  dc_buffer registered = nullptr;
  ASSERT_DC_OK(dc_buffer_register_host(device_, host.data(), n * sizeof(float), DC_ALLOC_PORTABLE, &registered));
  uint64_t address = 1;
  EXPECT_DC_ERROR(dc_buffer_device_pointer(pinned, &address), DC_ERROR_NOT_SUPPORTED, "DC_ALLOC_DEVICE_MAPPED");
  EXPECT_DC_ERROR(dc_buffer_device_pointer(registered, &address), DC_ERROR_NOT_SUPPORTED, "DC_ALLOC_DEVICE_MAPPED");
  float a = 2.0f;
  dc_launch_config c = config_1d(1, n);
  for (dc_buffer host_buffer : {pinned, registered}) {
    dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(host_buffer), value_of(n)};
    EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_ARGUMENT,
                    "args[2].buffer is host memory without a device mapping");
    dc_launch l = nullptr;
    ASSERT_DC_OK(dc_launch_create(f, &c, &l));
    dc_arg one = buffer_arg(host_buffer);
    EXPECT_DC_ERROR(dc_launch_set_arg(l, 2, &one), DC_ERROR_INVALID_ARGUMENT,
                    "arg.buffer is host memory without a device mapping");
    EXPECT_DC_ERROR(dc_launch_set_args(l, args, 4), DC_ERROR_INVALID_ARGUMENT,
                    "args[2].buffer is host memory without a device mapping");
    dc_launch_release(l);
  }
  dc_buffer_release(registered);  // before `host` goes
}

TEST_F(ArgsTest, PackedParametersAreCheckedAgainstTheBlock) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  const int n = 500;
  std::vector<float> x = random_floats(n, 7), y = random_floats(n, 8);
  dc_buffer bx = upload(x), by = upload(y);
  struct SaxpyParams {
    float a;
    uint64_t x, y;
    int n;
  } p{3.0f, 0, 0, n};  // sizeof 32: 28 bytes of parameters and 4 of padding
  ASSERT_DC_OK(dc_buffer_device_pointer(bx, &p.x));
  ASSERT_DC_OK(dc_buffer_device_pointer(by, &p.y));
  dc_launch_config c = config_1d((n + 255) / 256, 256);
  ASSERT_DC_OK(dc_launch_kernel_packed(f, &c, &p, sizeof p, stream_));
  ASSERT_DC_OK(dc_launch_kernel_packed(f, &c, &p, 28, stream_));
  sync();
  std::vector<float> want = saxpy_reference(p.a, x, saxpy_reference(p.a, x, y, n), n);
  expect_near_all(download<float>(by, n), want);

  EXPECT_DC_ERROR(dc_launch_kernel_packed(f, &c, &p, 24, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "saxpy: size is 24 bytes; the kernel's parameter block is 28 bytes (4 parameters)");
  EXPECT_DC_ERROR(dc_launch_kernel_packed(f, &c, &p, 48, stream_), DC_ERROR_INVALID_ARGUMENT, "size is 48 bytes");
  EXPECT_DC_ERROR(dc_launch_kernel_packed(f, &c, nullptr, 28, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "params is NULL but size is 28");

  // A kernel without parameters takes an empty block.
  dc_function empty = kernel("empty");
  ASSERT_NE(empty, nullptr);
  dc_launch_config one = config_1d(1, 1);
  EXPECT_DC_OK(dc_launch_kernel_packed(empty, &one, nullptr, 0, stream_));
  EXPECT_DC_OK(dc_launch_kernel(empty, &one, nullptr, 0, stream_));
  EXPECT_DC_ERROR(dc_launch_kernel_packed(empty, &one, &p, 8, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "parameter block is 0 bytes");
  sync();
}

TEST_F(ArgsTest, HandlesAreChecked) {
  REQUIRE_KERNELS();
  dc_function f = kernel("empty");
  ASSERT_NE(f, nullptr);
  dc_launch_config c = config_1d(1, 1);
  EXPECT_DC_ERROR(dc_launch_kernel(nullptr, &c, nullptr, 0, stream_), DC_ERROR_INVALID_HANDLE, "function is NULL");
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, nullptr, 0, nullptr), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  EXPECT_DC_ERROR(dc_launch_kernel(reinterpret_cast<dc_function>(stream_), &c, nullptr, 0, stream_),
                  DC_ERROR_INVALID_HANDLE, "is a dc_stream handle");
  EXPECT_DC_ERROR(dc_launch_kernel_packed(f, &c, nullptr, 0, reinterpret_cast<dc_stream>(f)), DC_ERROR_INVALID_HANDLE,
                  "is a dc_function handle");
  // The default streams take launches too.
  dc_stream legacy = nullptr;
  ASSERT_DC_OK(dc_stream_get_default(device_, DC_STREAM_LEGACY, &legacy));
  streams_.push_back(legacy);
  EXPECT_DC_OK(dc_launch_kernel(f, &c, nullptr, 0, legacy));
  EXPECT_DC_OK(dc_stream_synchronize(legacy));
}

struct CallbackLaunch {
  dc_function function;
  dc_stream stream;
  std::atomic<dc_status> status{DC_SUCCESS};
  std::atomic<int> calls{0};
};

TEST_F(ArgsTest, LaunchFromAHostCallbackIsRefused) {
  REQUIRE_NVRTC();
  CallbackLaunch ctx;
  ctx.function = kernel("empty");
  ctx.stream = stream_;
  ASSERT_NE(ctx.function, nullptr);
  ASSERT_DC_OK(dc_stream_add_callback(
      stream_,
      [](void* p) {
        auto* c = static_cast<CallbackLaunch*>(p);
        dc_launch_config one = DC_LAUNCH_CONFIG_INIT;
        c->status = dc_launch_kernel(c->function, &one, nullptr, 0, c->stream);
        ++c->calls;
      },
      &ctx));
  sync();
  EXPECT_EQ(ctx.calls.load(), 1);
  EXPECT_EQ(ctx.status.load(), DC_ERROR_INVALID_STATE);
}

// More arguments than the one-shot launch keeps on the stack.
TEST_F(ArgsTest, ManyArguments) {
  REQUIRE_NVRTC();
  std::string params, sum;
  for (int i = 0; i < 24; ++i) {
    params += "int a" + std::to_string(i) + ", ";
    sum += (i ? " + a" : "a") + std::to_string(i);
  }
  std::string source = "extern \"C\" __global__ void many(" + params + "int* out) { out[0] = " + sum + "; }";
  dc_module m = load(source);
  ASSERT_NE(m, nullptr);
  dc_function f = function(m, "many");
  dc_buffer out = upload(std::vector<int32_t>{0});
  std::vector<int32_t> values(24);
  std::vector<dc_arg> args;
  int32_t want = 0;
  for (int i = 0; i < 24; ++i) {
    values[i] = (i + 1) * 3;
    want += values[i];
    args.push_back(value_of(values[i]));
  }
  args.push_back(buffer_arg(out));
  dc_launch_config c = config_1d(1, 1);
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args.data(), 25, stream_));
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args.data(), 24, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "many takes 25 parameters, 24 arguments were given");
  sync();
  // The fake does not emulate `many`: the result is checked where it ran.
  if (!dctest::fake_driver()) {
    EXPECT_EQ(download<int32_t>(out, 1)[0], want);
  }
}

}  // namespace
