// dc_link: relocatable device code and LTO-IR of two programs linked with
// nvJitLink (real, a CPU library) and with the driver's cuLink, dynamic
// parallelism against the toolkit's device runtime, the kernel cache, the
// logs, and every refusal. The fake driver loads the linked CUBIN and
// emulates saxpy by name; on a GPU the linked code itself runs.
#include <chrono>
#include <cstdio>
#include <fstream>

#include "link/link_test.h"

namespace {

using namespace linktest;
using launchtest::buffer_arg;
using launchtest::config_1d;

TEST_F(LinkTest, LtoIrOfTwoProgramsLinksLoadsAndRuns) {
  REQUIRE_NVJITLINK();
  dc_program caller = compile(kCaller, DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  dc_program callee = compile(kCallee, DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  ASSERT_TRUE(caller && callee);
  dc_program linked = link({program_input(caller), program_input(callee)}, options(), device_);
  run_saxpy(linked);
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->call_count("cuLinkCreate"), 0) << "nvJitLink, not cuLink";
  }
}

TEST_F(LinkTest, RelocatableCubinsLinkWithNvJitLink) {
  REQUIRE_NVJITLINK();
  dc_program caller = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  dc_program callee = compile(kCallee, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  ASSERT_TRUE(caller && callee);
  run_saxpy(link({program_input(caller), program_input(callee)}, options(), device_));
}

TEST_F(LinkTest, RelocatableCubinsLinkWithTheDriver) {
  dc_program caller = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  dc_program callee = compile(kCallee, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  ASSERT_TRUE(caller && callee);
  dc_program linked =
      link({program_input(caller), program_input(callee)}, options(DC_LINK_NO_CACHE | DC_LINK_USE_DRIVER), device_);
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->call_count("cuLinkComplete"), 1);
    EXPECT_EQ(f->last_link_input(0), CU_JIT_INPUT_CUBIN);
    EXPECT_EQ(f->last_link_input(1), CU_JIT_INPUT_CUBIN);
    EXPECT_EQ(f->last_link_input(2), -1);
  }
  run_saxpy(linked);
}

TEST_F(LinkTest, PtxOfRelocatableProgramsLinksWithTheDriver) {
  dc_program caller = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  dc_program callee = compile(kCallee, DC_OUTPUT_PTX, DC_COMPILE_RELOCATABLE);
  ASSERT_TRUE(caller && callee);
  dc_program linked =
      link({program_input(caller), program_input(callee)}, options(DC_LINK_NO_CACHE | DC_LINK_USE_DRIVER), device_);
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->last_link_input(1), CU_JIT_INPUT_PTX);
  }
  run_saxpy(linked);
}

TEST_F(LinkTest, DynamicParallelismLinksAgainstTheToolkitsDeviceRuntime) {
  REQUIRE_NVJITLINK();
  run_dynamic_parallelism(DC_LINK_NO_CACHE);
}

TEST_F(LinkTest, DynamicParallelismLinksWithTheDriver) {
  run_dynamic_parallelism(DC_LINK_NO_CACHE | DC_LINK_USE_DRIVER);
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->last_link_input(1), CU_JIT_INPUT_LIBRARY) << "the archive went to cuLink as a library";
  }
}

TEST_F(LinkTest, TheDeviceRuntimeAtAPathThatDoesNotExistIsNamed) {
  dc_program dp = compile(kDynamicParallelism, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  ASSERT_NE(dp, nullptr);
  dc_link_input in[] = {program_input(dp),
                        {DC_LINK_INPUT_DEVICE_RUNTIME, 0u, nullptr, nullptr, 0, "/nonexistent/libcudadevrt.a", nullptr}};
  dc_link_options o = options();
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_link(in, 2, &o, device_, &p), DC_ERROR_NOT_FOUND, "inputs[1].path: the file /nonexistent");
  EXPECT_EQ(p, nullptr);
}

TEST_F(LinkTest, InputsFromFilesAndMemoryLinkAlike) {
  REQUIRE_NVJITLINK();
  dc_program caller = compile(kCaller, DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  dc_program callee = compile(kCallee, DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  ASSERT_TRUE(caller && callee);
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(callee, nullptr, &data, &size));
  std::string path = testing::TempDir() + "dccuda_link_callee.ltoir";
  {
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  dc_link_input from_file = {DC_LINK_INPUT_LTOIR, 0u, nullptr, nullptr, 0, path.c_str(), nullptr};
  dc_link_input from_memory = {DC_LINK_INPUT_LTOIR, 0u, nullptr, data, size, nullptr, "callee"};
  dc_program a = link({program_input(caller), from_file}, options(), device_);
  dc_program b = link({program_input(caller), from_memory}, options(), device_);
  std::remove(path.c_str());
  ASSERT_TRUE(a && b);
  const void* da = nullptr;
  const void* db = nullptr;
  uint64_t sa = 0, sb = 0;
  ASSERT_DC_OK(dc_program_output(a, nullptr, &da, &sa));
  ASSERT_DC_OK(dc_program_output(b, nullptr, &db, &sb));
  ASSERT_EQ(sa, sb);
  EXPECT_EQ(std::memcmp(da, db, sa), 0) << "the same bytes link to the same CUBIN";
  run_saxpy(a);
}

TEST_F(LinkTest, WithoutADeviceTheArchitectureIsGiven) {
  REQUIRE_NVJITLINK();
  dc_program caller = compile(kCaller, DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  dc_program callee = compile(kCallee, DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  ASSERT_TRUE(caller && callee);
  dc_link_input in[] = {program_input(caller), program_input(callee)};
  dc_link_options o = options();
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_link(in, 2, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "needs a target architecture");
  o.arch = arch_;
  ASSERT_DC_OK(dc_link(in, 2, &o, nullptr, &p));
  keep(p);
  run_saxpy(p);
}

TEST_F(LinkTest, LinkedResultsAreCachedByEveryInputAndOption) {
  REQUIRE_NVJITLINK();
  dc_program caller = compile(kCaller, DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  // A callee of this run's own (a variable named by the time), so that the
  // first link misses without clearing the disk cache other tests share.
  std::string nonce = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  std::string own_callee = std::string(kCallee) + "__device__ int dctest_run_" + nonce + " = 1;\n";
  dc_program callee = compile(own_callee.c_str(), DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  ASSERT_TRUE(caller && callee);
  auto source_of = [&](dc_program p) {
    int32_t s = -1;
    EXPECT_DC_OK(dc_program_cache_source(p, &s));
    return s;
  };
  dc_link_options o = options(0);
  std::vector<dc_link_input> both = {program_input(caller), program_input(callee)};
  EXPECT_EQ(source_of(link(both, o, device_)), DC_CACHE_MISS);
  EXPECT_EQ(source_of(link(both, o, device_)), DC_CACHE_MEMORY);
  const char* dir = "";
  ASSERT_DC_OK(dc_cache_directory(&dir));
  if (*dir) {
    ASSERT_DC_OK(dc_cache_clear(DC_CACHE_CLEAR_MEMORY));
    EXPECT_EQ(source_of(link(both, o, device_)), DC_CACHE_DISK) << "a new process finds it on disk";
  }
  // Every option is in the key...
  dc_link_options o1 = o;
  o1.optimization_level = 0;
  EXPECT_EQ(source_of(link(both, o1, device_)), DC_CACHE_MISS);
  dc_link_options o2 = o;
  o2.flags |= DC_LINK_LINE_INFO;
  EXPECT_EQ(source_of(link(both, o2, device_)), DC_CACHE_MISS);
  // ...and every input's bytes (the order too), not its name.
  std::vector<dc_link_input> swapped = {program_input(callee), program_input(caller)};
  EXPECT_EQ(source_of(link(swapped, o, device_)), DC_CACHE_MISS);
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(callee, nullptr, &data, &size));
  dc_link_input named = {DC_LINK_INPUT_LTOIR, 0u, nullptr, data, size, nullptr, "another name"};
  EXPECT_EQ(source_of(link({program_input(caller), named}, o, device_)), DC_CACHE_MEMORY);
  std::string other_callee = "extern \"C\" __device__ float axpy_one(float a, float x, float y) { return a * x - y; }\n"
                             "__device__ int dctest_run_" + nonce + " = 1;\n";
  dc_program other = compile(other_callee.c_str(), DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  EXPECT_EQ(source_of(link({program_input(caller), program_input(other)}, o, device_)), DC_CACHE_MISS);
  // DC_LINK_NO_CACHE neither reads nor writes it.
  EXPECT_EQ(source_of(link(both, options(DC_LINK_NO_CACHE), device_)), DC_CACHE_MISS);
}

TEST_F(LinkTest, AnUndefinedSymbolFailsWithTheLinkersLog) {
  REQUIRE_NVJITLINK();
  dc_program caller = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  ASSERT_NE(caller, nullptr);
  dc_link_input in[] = {program_input(caller)};
  dc_link_options o = options();
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_link(in, 1, &o, device_, &p), DC_ERROR_COMPILE, "dc_link: the link failed");
  EXPECT_NE(std::string(dc_last_error_detail()).find("axpy_one"), std::string::npos) << dc_last_error_detail();
  EXPECT_EQ(p, nullptr);
}

TEST_F(LinkTest, TheDriverCannotLinkLtoIr) {
  dc_program caller = compile(kCaller, DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  ASSERT_NE(caller, nullptr);
  dc_link_input in[] = {program_input(caller)};
  dc_link_options o = options(DC_LINK_USE_DRIVER);
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_link(in, 1, &o, device_, &p), DC_ERROR_NOT_SUPPORTED,
                  "DC_LINK_USE_DRIVER was given, and the driver's cuLink cannot link LTO-IR");
  o.flags = DC_LINK_USE_DRIVER | DC_LINK_LTO;
  dc_program cubin = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  in[0] = program_input(cubin);
  EXPECT_DC_ERROR(dc_link(in, 1, &o, device_, &p), DC_ERROR_NOT_SUPPORTED, "link-time optimisation");
  o.flags = DC_LINK_USE_DRIVER;
  o.arch = arch_ == 80 ? 90 : 80;
  EXPECT_DC_ERROR(dc_link(in, 1, &o, device_, &p), DC_ERROR_INVALID_ARGUMENT, "the device's own architecture");
  o.arch = 0;
  const char* raw[] = {"-ftz=true"};
  o.num_options = 1;
  o.options = raw;
  EXPECT_DC_ERROR(dc_link(in, 1, &o, device_, &p), DC_ERROR_NOT_SUPPORTED, "no raw nvJitLink options");
  EXPECT_DC_ERROR(dc_link(in, 1, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "needs a target architecture");
}

TEST_F(LinkTest, BadArgumentsAreNamed) {
  dc_program cubin = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  ASSERT_NE(cubin, nullptr);
  dc_program p = reinterpret_cast<dc_program>(1);
  dc_link_options o = options();
  dc_link_input good = program_input(cubin);
  EXPECT_DC_ERROR(dc_link(nullptr, 1, &o, device_, &p), DC_ERROR_INVALID_ARGUMENT, "inputs is NULL");
  EXPECT_EQ(p, nullptr);
  EXPECT_DC_ERROR(dc_link(&good, 0, &o, device_, &p), DC_ERROR_INVALID_ARGUMENT, "count is 0");
  EXPECT_DC_ERROR(dc_link(&good, 1, &o, device_, nullptr), DC_ERROR_INVALID_ARGUMENT, "linked is NULL");
  dc_link_input bad = good;
  bad.kind = 8;
  EXPECT_DC_ERROR(dc_link(&bad, 1, &o, device_, &p), DC_ERROR_INVALID_ARGUMENT, "inputs[0].kind is 8");
  bad = good;
  bad.reserved = 1;
  EXPECT_DC_ERROR(dc_link(&bad, 1, &o, device_, &p), DC_ERROR_INVALID_ARGUMENT, "inputs[0].reserved is 1");
  bad = good;
  bad.path = "x.cubin";
  EXPECT_DC_ERROR(dc_link(&bad, 1, &o, device_, &p), DC_ERROR_INVALID_ARGUMENT, "inputs[0] gives 2 sources");
  bad = {DC_LINK_INPUT_CUBIN, 0u, nullptr, nullptr, 0, nullptr, nullptr};
  EXPECT_DC_ERROR(dc_link(&bad, 1, &o, device_, &p), DC_ERROR_INVALID_ARGUMENT, "inputs[0] gives 0 sources");
  const char ptx[] = ".version 8.0\n.target sm_90\n";
  bad = {DC_LINK_INPUT_CUBIN, 0u, nullptr, ptx, sizeof ptx, nullptr, nullptr};
  EXPECT_DC_ERROR(dc_link(&bad, 1, &o, device_, &p), DC_ERROR_INVALID_IMAGE, "inputs[0] (CUBIN) is not an ELF image");
  bad.kind = DC_LINK_INPUT_LTOIR;
  EXPECT_DC_ERROR(dc_link(&bad, 1, &o, device_, &p), DC_ERROR_INVALID_IMAGE, "is not LTO-IR");
  bad.kind = DC_LINK_INPUT_LIBRARY;
  EXPECT_DC_ERROR(dc_link(&bad, 1, &o, device_, &p), DC_ERROR_INVALID_IMAGE, "is not an archive");
  bad = {DC_LINK_INPUT_PROGRAM, 0u, reinterpret_cast<dc_program>(uintptr_t{0x12345}), nullptr, 0, nullptr, nullptr};
  EXPECT_DC_ERROR(dc_link(&bad, 1, &o, device_, &p), DC_ERROR_INVALID_HANDLE, "inputs[0].program");
  dc_link_options wrong = o;
  wrong.optimization_level = 4;
  EXPECT_DC_ERROR(dc_link(&good, 1, &wrong, device_, &p), DC_ERROR_INVALID_ARGUMENT, "optimization_level is 4");
  wrong = o;
  wrong.flags = 0x100;
  EXPECT_DC_ERROR(dc_link(&good, 1, &wrong, device_, &p), DC_ERROR_INVALID_ARGUMENT, "unknown bits 0x100");
  wrong = o;
  wrong.struct_size = 4;
  EXPECT_DC_ERROR(dc_link(&good, 1, &wrong, device_, &p), DC_ERROR_INVALID_ARGUMENT, "struct_size is 4");
  EXPECT_EQ(p, nullptr);
}

TEST_F(LinkTest, NvJitLinkRefusesAnUnknownOptionWithItsWords) {
  REQUIRE_NVJITLINK();
  dc_program cubin = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  dc_link_input in[] = {program_input(cubin)};
  dc_link_options o = options();
  const char* raw[] = {"-no-such-option"};
  o.num_options = 1;
  o.options = raw;
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_link(in, 1, &o, device_, &p), DC_ERROR_INVALID_ARGUMENT, "nvJitLink rejected the options");
}

TEST_F(LinkTest, DriverLinkFailuresReleaseTheLinkState) {
  REQUIRE_FAKE_DRIVER();
  dc_program caller = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  dc_program callee = compile(kCallee, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  ASSERT_TRUE(caller && callee);
  dc_link_input in[] = {program_input(caller), program_input(callee)};
  dc_link_options o = options(DC_LINK_NO_CACHE | DC_LINK_USE_DRIVER);
  auto* fake = dctest::fake_driver();
  dc_program p = nullptr;
  fake->inject("cuLinkCreate", 1, CUDA_ERROR_OUT_OF_MEMORY, 1);
  EXPECT_DC_ERROR(dc_link(in, 2, &o, device_, &p), DC_ERROR_OUT_OF_MEMORY, "cuLinkCreate");
  fake->inject("cuLinkAddData", 2, CUDA_ERROR_INVALID_IMAGE, 1);
  EXPECT_DC_ERROR(dc_link(in, 2, &o, device_, &p), DC_ERROR_INVALID_IMAGE, "cuLinkAddData refused the input input 1");
  EXPECT_EQ(dc_last_error_cuda(), CUDA_ERROR_INVALID_IMAGE);
  fake->inject("cuLinkComplete", 1, CUDA_ERROR_INVALID_PTX, 1);
  EXPECT_DC_ERROR(dc_link(in, 2, &o, device_, &p), DC_ERROR_COMPILE, "the link failed: cuLinkComplete returned");
  EXPECT_EQ(fake->live("link_states"), 0);
  EXPECT_EQ(p, nullptr);
  ASSERT_DC_OK(dc_link(in, 2, &o, device_, &p));
  keep(p);
}

}  // namespace
