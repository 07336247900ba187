// Telemetry (dc_device_telemetry_get) in three settings, by the environment
// CTest gives: through the fake NVML (tests/fake_nvml: its devices in the
// reverse of CUDA's order, so a mapping by ordinal fails), without NVML
// (every field DC_TELEMETRY_NO_NVML with the reason), and on a real GPU with
// the driver's NVML (sane values that change under a busy kernel).
#include <gtest/gtest.h>

#include <chrono>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "dccuda.h"
#include "support/child_process.h"
#include "support/fake.h"

namespace {

const char* fake_nvml_path() { return std::getenv("DCTEST_FAKE_NVML_PATH"); }

dc_device_telemetry telemetry_of(dc_device device) {
  dc_device_telemetry t = DC_DEVICE_TELEMETRY_INIT;
  EXPECT_EQ(dc_device_telemetry_get(device, &t), DC_SUCCESS) << dc_last_error_message();
  return t;
}

std::string statuses(const dc_device_telemetry& t) {
  std::string out;
  for (int i = 0; i <= DC_TELEMETRY_FIELD_NVLINK_TRAFFIC; ++i)
    out += std::to_string(i) + ":" + std::to_string(t.field_status[i]) + "/" + std::to_string(t.field_nvml_result[i]) + " ";
  return out;
}

TEST(Telemetry, BadArguments) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  EXPECT_DC_ERROR(dc_device_telemetry_get(device, nullptr), DC_ERROR_INVALID_ARGUMENT, "telemetry");
  dc_device_telemetry t = DC_DEVICE_TELEMETRY_INIT;
  t.struct_size = 8;
  EXPECT_DC_ERROR(dc_device_telemetry_get(device, &t), DC_ERROR_INVALID_ARGUMENT, "struct_size is 8");
  dc_device_release(device);
  t.struct_size = sizeof t;
  EXPECT_DC_ERROR(dc_device_telemetry_get(device, &t), DC_ERROR_INVALID_HANDLE, "device");
}

// --- through the fake NVML ------------------------------------------------------------

TEST(FakeNvml, MapsDevicesByUuidNotByOrdinal) {
  if (!fake_nvml_path() || !dctest::fake_driver()) GTEST_SKIP() << "runs with the fake driver and the fake NVML";
  const char* path = nullptr;
  ASSERT_DC_OK(dc_telemetry_library(&path));
  EXPECT_STREQ(path, fake_nvml_path());
  for (int32_t ordinal : {0, 1}) {
    dc_device device = nullptr;
    ASSERT_DC_OK(dc_device_open(ordinal, &device));
    dc_device_telemetry t = telemetry_of(device);
    for (int i = 0; i <= DC_TELEMETRY_FIELD_NVLINK_TRAFFIC; ++i)
      EXPECT_EQ(t.field_status[i], DC_TELEMETRY_AVAILABLE) << "field " << i << ": " << statuses(t);
    // The fake NVML lists CUDA's devices in reverse: NVML index 1 - ordinal.
    EXPECT_EQ(t.nvml_index, 1 - ordinal);
    // Each value tells which CUDA device NVML answered for.
    EXPECT_EQ(t.temperature_c, 40 + ordinal);
    EXPECT_EQ(t.power_mw, 100000u + 1000u * ordinal);
    EXPECT_EQ(t.power_limit_mw, 700000u);
    EXPECT_EQ(t.sm_clock_mhz, 1980u - ordinal);
    EXPECT_EQ(t.memory_clock_mhz, 2619u);
    EXPECT_EQ(t.gpu_utilization_percent, 10u + ordinal);
    EXPECT_EQ(t.memory_utilization_percent, 5u + ordinal);
    EXPECT_EQ(t.memory_used_bytes, (1ull << 30) + ordinal);
    EXPECT_EQ(t.memory_total_bytes, 8ull << 30);
    EXPECT_EQ(t.pcie_tx_kib_per_s, 1000u + ordinal);
    EXPECT_EQ(t.pcie_rx_kib_per_s, 2000u + ordinal);
    EXPECT_EQ(t.nvlink_active_links, 4u + ordinal);
    EXPECT_EQ(t.throttle_reasons, 0x1u);
    EXPECT_EQ(t.ecc_corrected, 3u);
    EXPECT_EQ(t.ecc_uncorrected, 0u);
    EXPECT_EQ(t.running_processes, 1u + ordinal);
    EXPECT_EQ(t.fan_speed_percent, 30u + ordinal);
    EXPECT_EQ(t.nvlink_tx_kib, 5000u + ordinal);
    EXPECT_EQ(t.nvlink_rx_kib, 7000u + ordinal);
    EXPECT_GT(t.timestamp_us, 1700000000ull * 1000000ull);
    dc_device_release(device);
  }
}

// A caller built against the first published size gets exactly that many bytes.
TEST(FakeNvml, WritesNoMoreThanStructSize) {
  if (!fake_nvml_path() || !dctest::fake_driver()) GTEST_SKIP() << "runs with the fake driver and the fake NVML";
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  struct {
    dc_device_telemetry t;
    uint8_t guard[16];
  } s;
  std::memset(&s, 0xab, sizeof s);
  s.t.struct_size = sizeof(dc_device_telemetry);
  ASSERT_DC_OK(dc_device_telemetry_get(device, &s.t));
  for (uint8_t g : s.guard) EXPECT_EQ(g, 0xab);
  dc_device_release(device);
}

// Children with fields the fake refuses: each refused field has its reason,
// the others their values.
dctest::ChildResult child(const std::vector<std::string>& env, const char* filter) {
  dctest::ChildOptions options;
  options.set_env = env;
  options.set_env.push_back("DCTEST_TELEMETRY_CHILD=1");
  options.timeout_seconds = 60;
  return dctest::run_program({dctest::self_executable(), std::string("--gtest_filter=") + filter}, options);
}

TEST(FakeNvmlChild, ReasonsPerField) {
  if (!std::getenv("DCTEST_TELEMETRY_CHILD")) GTEST_SKIP() << "a child of FakeNvml.UnavailableFieldsSayWhy";
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_device_telemetry t = telemetry_of(device);
  EXPECT_EQ(t.field_status[DC_TELEMETRY_FIELD_FAN_SPEED], DC_TELEMETRY_NOT_SUPPORTED) << statuses(t);
  EXPECT_EQ(t.field_nvml_result[DC_TELEMETRY_FIELD_FAN_SPEED], 3) << statuses(t);
  EXPECT_EQ(t.fan_speed_percent, 0u);
  // NVLink's counters come through nvmlDeviceGetFieldValues, whose fields carry their own results.
  EXPECT_EQ(t.field_status[DC_TELEMETRY_FIELD_NVLINK_TRAFFIC], DC_TELEMETRY_NOT_SUPPORTED) << statuses(t);
  EXPECT_EQ(t.nvlink_tx_kib, 0u);
  EXPECT_EQ(t.field_status[DC_TELEMETRY_FIELD_ECC_ERRORS], DC_TELEMETRY_NOT_SUPPORTED) << statuses(t);
  EXPECT_EQ(t.field_status[DC_TELEMETRY_FIELD_POWER], DC_TELEMETRY_NO_PERMISSION) << statuses(t);
  EXPECT_EQ(t.power_mw, 0u);
  EXPECT_EQ(t.field_status[DC_TELEMETRY_FIELD_TEMPERATURE], DC_TELEMETRY_AVAILABLE) << statuses(t);
  EXPECT_EQ(t.temperature_c, 40);
  dc_device_release(device);
}

TEST(FakeNvml, UnavailableFieldsSayWhy) {
  if (!fake_nvml_path() || !dctest::fake_driver()) GTEST_SKIP() << "runs with the fake driver and the fake NVML";
  dctest::ChildResult r = child({"DCFAKE_NVML_UNSUPPORTED=fan,ecc,nvlink_traffic", "DCFAKE_NVML_NO_PERMISSION=power"},
                                "FakeNvmlChild.ReasonsPerField");
  EXPECT_EQ(r.exit_code, 0) << r.how() << "\n" << r.output;
  EXPECT_NE(r.output.find("[       OK ] FakeNvmlChild.ReasonsPerField"), std::string::npos) << r.output;
}

TEST(FakeNvmlChild, NotMapped) {
  if (!std::getenv("DCTEST_TELEMETRY_CHILD")) GTEST_SKIP() << "a child of FakeNvml.ADeviceNvmlLacksIsNotMapped";
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(1, &device));
  dc_device_telemetry t = telemetry_of(device);
  EXPECT_EQ(t.nvml_index, -1);
  for (int i = 0; i <= DC_TELEMETRY_FIELD_NVLINK_TRAFFIC; ++i)
    EXPECT_EQ(t.field_status[i], DC_TELEMETRY_NOT_MAPPED) << statuses(t);
  dc_device_release(device);
}

TEST(FakeNvml, ADeviceNvmlLacksIsNotMapped) {
  if (!fake_nvml_path() || !dctest::fake_driver()) GTEST_SKIP() << "runs with the fake driver and the fake NVML";
  dctest::ChildResult r = child({"DCFAKE_NVML_ORDER=0"}, "FakeNvmlChild.NotMapped");
  EXPECT_EQ(r.exit_code, 0) << r.how() << "\n" << r.output;
  EXPECT_NE(r.output.find("[       OK ] FakeNvmlChild.NotMapped"), std::string::npos) << r.output;
}

TEST(FakeNvmlChild, InitFails) {
  if (!std::getenv("DCTEST_TELEMETRY_CHILD")) GTEST_SKIP() << "a child of FakeNvml.InitFailureIsNoNvml";
  const char* path = nullptr;
  EXPECT_DC_ERROR(dc_telemetry_library(&path), DC_ERROR_NOT_SUPPORTED, "nvmlInit_v2");
  EXPECT_NE(std::string(dc_last_error_message()).find("NVML_ERROR_DRIVER_NOT_LOADED"), std::string::npos)
      << dc_last_error_message();
  EXPECT_EQ(path, nullptr);
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_device_telemetry t = telemetry_of(device);
  EXPECT_EQ(t.field_status[DC_TELEMETRY_FIELD_TEMPERATURE], DC_TELEMETRY_NO_NVML);
  EXPECT_EQ(t.field_nvml_result[DC_TELEMETRY_FIELD_TEMPERATURE], 9);
  dc_device_release(device);
}

TEST(FakeNvml, InitFailureIsNoNvml) {
  if (!fake_nvml_path() || !dctest::fake_driver()) GTEST_SKIP() << "runs with the fake driver and the fake NVML";
  dctest::ChildResult r = child({"DCFAKE_NVML_INIT_RESULT=9"}, "FakeNvmlChild.InitFails");
  EXPECT_EQ(r.exit_code, 0) << r.how() << "\n" << r.output;
  EXPECT_NE(r.output.find("[       OK ] FakeNvmlChild.InitFails"), std::string::npos) << r.output;
}

// --- without NVML -------------------------------------------------------------------

TEST(NoNvml, EveryFieldUnavailableWithTheReason) {
  const char* configured = std::getenv("DCCUDA_NVML_LIBRARY");
  if (!configured || std::string(configured).find("/nonexistent/") == std::string::npos)
    GTEST_SKIP() << "runs with DCCUDA_NVML_LIBRARY naming a library that does not exist";
  REQUIRE_DEVICE();
  const char* path = nullptr;
  EXPECT_DC_ERROR(dc_telemetry_library(&path), DC_ERROR_NOT_SUPPORTED, "NVML is not available: could not load "
                  "/nonexistent/libnvidia-ml.so.1");
  EXPECT_NE(std::string(dc_last_error_message()).find("DCCUDA_NVML_LIBRARY"), std::string::npos);
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_device_telemetry t = telemetry_of(device);
  EXPECT_EQ(t.nvml_index, -1);
  for (int i = 0; i <= DC_TELEMETRY_FIELD_NVLINK_TRAFFIC; ++i)
    EXPECT_EQ(t.field_status[i], DC_TELEMETRY_NO_NVML) << statuses(t);
  EXPECT_EQ(t.temperature_c, 0);
  EXPECT_EQ(t.memory_total_bytes, 0u);
  dc_device_release(device);
}

// --- on a real GPU -----------------------------------------------------------------

bool real_nvml() {
  const char* path = nullptr;
  return dctest::real_driver() && dc_telemetry_library(&path) == DC_SUCCESS;
}

TEST(RealNvml, ValuesAreSane) {
  if (!real_nvml()) GTEST_SKIP() << "needs a real GPU and the driver's NVML";
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_device_telemetry t = telemetry_of(device);
  std::printf("[ dccuda   ] telemetry of device 0: %lld C, %llu/%llu mW, SM %llu MHz, memory %llu MHz, %llu%% busy, "
              "%llu of %llu bytes used, PCIe %llu/%llu KiB/s, %llu NVLink links, reasons 0x%llx, processes %llu; "
              "statuses %s\n",
              static_cast<long long>(t.temperature_c), (unsigned long long)t.power_mw,
              (unsigned long long)t.power_limit_mw, (unsigned long long)t.sm_clock_mhz,
              (unsigned long long)t.memory_clock_mhz, (unsigned long long)t.gpu_utilization_percent,
              (unsigned long long)t.memory_used_bytes, (unsigned long long)t.memory_total_bytes,
              (unsigned long long)t.pcie_tx_kib_per_s, (unsigned long long)t.pcie_rx_kib_per_s,
              (unsigned long long)t.nvlink_active_links, (unsigned long long)t.throttle_reasons,
              (unsigned long long)t.running_processes, statuses(t).c_str());
  EXPECT_GE(t.nvml_index, 0);
  // A data-centre GPU has every field but the fan; NVLink may be absent.
  for (int f : {DC_TELEMETRY_FIELD_TEMPERATURE, DC_TELEMETRY_FIELD_POWER, DC_TELEMETRY_FIELD_POWER_LIMIT,
                DC_TELEMETRY_FIELD_SM_CLOCK, DC_TELEMETRY_FIELD_MEMORY_CLOCK, DC_TELEMETRY_FIELD_UTILIZATION,
                DC_TELEMETRY_FIELD_MEMORY, DC_TELEMETRY_FIELD_PROCESSES})
    EXPECT_EQ(t.field_status[f], DC_TELEMETRY_AVAILABLE) << "field " << f << ": " << statuses(t);
  EXPECT_GT(t.temperature_c, 5);
  EXPECT_LT(t.temperature_c, 110);
  EXPECT_GT(t.power_mw, 1000u);
  EXPECT_GT(t.power_limit_mw, t.power_mw / 2);
  EXPECT_GT(t.sm_clock_mhz, 100u);
  EXPECT_LE(t.gpu_utilization_percent, 100u);
  uint64_t free_bytes = 0, total = 0;
  ASSERT_DC_OK(dc_device_memory_info(device, &free_bytes, &total));
  // NVML counts the memory the driver keeps for itself and CUDA does not (on an
  // H200: 150,754,820,096 against 150,109,880,320 bytes), so the totals agree
  // to within 2 %, NVML's the larger; a device of another size would not.
  EXPECT_GE(t.memory_total_bytes, total) << "NVML's device is not the CUDA device (mapped wrongly?)";
  EXPECT_LE(t.memory_total_bytes, total + total / 50) << "NVML's device is not the CUDA device (mapped wrongly?)";
  EXPECT_GE(t.running_processes, 1u) << "this process holds a context on the device";
  dc_device_release(device);
}

TEST(RealNvml, ABusyKernelRaisesUtilisationAndPower) {
  if (!real_nvml()) GTEST_SKIP() << "needs a real GPU and the driver's NVML";
  SKIP_WITHOUT_NVRTC();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_device_telemetry idle = telemetry_of(device);
  const char* source =
      "extern \"C\" __global__ void spin(unsigned long long cycles, float* sink) {\n"
      "  long long start = clock64(); float x = threadIdx.x;\n"
      "  while ((unsigned long long)(clock64() - start) < cycles) x = x * 1.000001f + 0.5f;\n"
      "  if (x == -1.0f) sink[0] = x;\n"
      "}\n";
  dc_program program = nullptr;
  ASSERT_DC_OK(dc_compile(source, "spin.cu", nullptr, device, &program));
  dc_module module = nullptr;
  ASSERT_DC_OK(dc_module_load_program(device, program, nullptr, &module));
  dc_program_release(program);
  dc_function spin = nullptr;
  ASSERT_DC_OK(dc_module_get_function(module, "spin", &spin));
  dc_buffer sink = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device, 4, 0, &sink));
  dc_stream stream = nullptr;
  ASSERT_DC_OK(dc_stream_create(device, 0, 0, &stream));
  dc_device_info info = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(device, &info));
  unsigned long long cycles = 4000000000ull;  // about 2 s at 2 GHz
  dc_arg args[] = {DC_ARG_VALUE_OF(&cycles), DC_ARG_BUFFER_OF(sink)};
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.grid[0] = static_cast<uint32_t>(info.multiprocessor_count) * 4;
  c.block[0] = 256;
  ASSERT_DC_OK(dc_launch_kernel(spin, &c, args, 2, stream));
  dc_device_telemetry busiest = DC_DEVICE_TELEMETRY_INIT;
  uint64_t max_util = 0, max_power = 0;
  for (int i = 0; i < 15; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    dc_device_telemetry t = telemetry_of(device);
    if (t.gpu_utilization_percent >= max_util) busiest = t;
    max_util = std::max<uint64_t>(max_util, t.gpu_utilization_percent);
    max_power = std::max<uint64_t>(max_power, t.power_mw);
  }
  ASSERT_DC_OK(dc_stream_synchronize(stream));
  std::printf("[ dccuda   ] idle: %llu%% busy, %llu mW; under the spinning kernel: up to %llu%% busy, %llu mW, "
              "SM %llu MHz, %lld C\n",
              (unsigned long long)idle.gpu_utilization_percent, (unsigned long long)idle.power_mw,
              (unsigned long long)max_util, (unsigned long long)max_power, (unsigned long long)busiest.sm_clock_mhz,
              static_cast<long long>(busiest.temperature_c));
  EXPECT_GE(max_util, 50u) << "a kernel on every SM for 2 s should show in utilisation";
  EXPECT_GT(max_util, idle.gpu_utilization_percent);
  EXPECT_GT(max_power, idle.power_mw) << "power did not rise under load";
  dc_stream_release(stream);
  dc_buffer_release(sink);
  dc_module_release(module);
  dc_device_release(device);
}

}  // namespace
