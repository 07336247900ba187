// The kernel cache: memory and disk hits, keys, corrupt and foreign files,
// several processes writing one entry, eviction, disabling. Its own main()
// gives the process a fresh cache directory (the configuration is fixed at
// the first dccuda call), and runs this binary again as a child process
// ("--child ...") where a test needs a fresh process.
#include <dirent.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"
#include "support/files.h"

extern char** environ;

namespace {

std::string g_self;  // this executable

// The file helpers every test shares (tests/support/files.h).
using dctest::files_in;
using dctest::make_temp_dir;
using dctest::read_file;
using dctest::remove_tree;
using dctest::write_file;

std::string cache_dir() {
  const char* dir = nullptr;
  EXPECT_DC_OK(dc_cache_directory(&dir));
  return dir ? dir : "";
}

struct ChildResult {
  int exit_code = -1;
  std::string out;
};

// Starts this binary as "--child args..." with `env` added to the environment.
pid_t spawn_child(const std::vector<std::string>& args, const std::vector<std::string>& env, int* out_fd) {
  std::vector<std::string> argv_s = {g_self, "--child"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) {
    std::string item = *e;
    bool replaced = false;
    for (const std::string& o : env)
      if (item.substr(0, item.find('=') + 1) == o.substr(0, o.find('=') + 1)) replaced = true;
    if (!replaced) env_s.push_back(item);
  }
  env_s.insert(env_s.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  int fds[2];
  if (pipe(fds) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  pid_t pid = -1;
  if (posix_spawn(&pid, g_self.c_str(), &actions, nullptr, argv.data(), envp.data()) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  *out_fd = fds[0];
  return pid;
}

ChildResult wait_child(pid_t pid, int fd) {
  ChildResult r;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) r.out.append(buf, static_cast<size_t>(n));
  close(fd);
  int status = 0;
  if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

ChildResult run_child(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  int fd = -1;
  pid_t pid = spawn_child(args, env, &fd);
  return wait_child(pid, fd);
}

// A small kernel with a name of its own (the name is in the CUBIN, so an
// entry can be recognised by its bytes).
std::string kernel_named(const std::string& name) {
  return dctest::unique_source("extern \"C\" __global__ void " + name + "(float* p, int n) {\n"
                               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "  if (i < n) p[i] = p[i] * 2.0f + 1.0f;\n}\n");
}

struct Compiled {
  dc_status status = DC_ERROR_INTERNAL;
  int32_t source = -1;
  std::string bytes;
};

Compiled compile(const std::string& source, dc_compile_options o) {
  Compiled c;
  dc_program p = nullptr;
  c.status = dc_compile(source.c_str(), "cached.cu", &o, nullptr, &p);
  if (c.status != DC_SUCCESS) {
    ADD_FAILURE() << dc_last_error_message() << "\n" << dc_last_error_detail();
    return c;
  }
  dc_program_cache_source(p, &c.source);
  const void* data = nullptr;
  uint64_t size = 0;
  dc_program_output(p, nullptr, &data, &size);
  c.bytes.assign(static_cast<const char*>(data), size);
  dc_program_release(p);
  return c;
}

dc_compile_options cubin90() {
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.arch = 90;
  return o;
}

class CacheTest : public testing::Test {
 protected:
  void SetUp() override {
    int32_t major = 0, minor = 0;
    if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS) GTEST_SKIP() << "no NVRTC";
    dir_ = cache_dir();
    ASSERT_FALSE(dir_.empty()) << "the disk cache should be enabled in this test";
    scratch_ = make_temp_dir("cache-scratch");
  }
  void TearDown() override {
    remove_tree(scratch_);
    EXPECT_EQ(dctest::live_handles(), 0u);
  }
  // The entry files that appeared in the cache directory while `fn` ran.
  template <class Fn>
  std::set<std::string> new_entries(Fn fn) {
    std::set<std::string> before = files_in(dir_, ".dcc");
    fn();
    std::set<std::string> out;
    for (const std::string& f : files_in(dir_, ".dcc"))
      if (!before.count(f)) out.insert(f);
    return out;
  }
  std::string source_file(const std::string& source) {
    std::string path = scratch_ + "/src" + std::to_string(counter_++) + ".cu";
    write_file(path, source);
    return path;
  }
  std::string dir_;
  std::string scratch_;
  int counter_ = 0;
};

TEST_F(CacheTest, TheDirectoryIsTheConfiguredOne) { EXPECT_EQ(dir_, std::getenv("DCCUDA_CACHE_DIR")); }

TEST_F(CacheTest, MissThenMemoryHitThenDiskHitInANewProcess) {
  std::string src = kernel_named("first_kernel");
  Compiled a;
  std::set<std::string> created = new_entries([&] { a = compile(src, cubin90()); });
  ASSERT_EQ(a.status, DC_SUCCESS);
  EXPECT_EQ(a.source, DC_CACHE_MISS);
  EXPECT_EQ(created.size(), 1u) << "one entry file per compile";
  Compiled b = compile(src, cubin90());
  EXPECT_EQ(b.source, DC_CACHE_MEMORY);
  EXPECT_EQ(b.bytes, a.bytes);
  // A fresh process finds it on disk.
  ChildResult child = run_child({"compile", source_file(src), "2"});
  ASSERT_EQ(child.exit_code, 0) << child.out;
  std::istringstream lines(child.out);
  std::string first, second, digest;
  lines >> first >> second >> digest;
  EXPECT_EQ(first, "2") << "DC_CACHE_DISK in the new process: " << child.out;
  EXPECT_EQ(second, "1") << "then DC_CACHE_MEMORY: " << child.out;
  EXPECT_EQ(digest, std::to_string(std::hash<std::string>()(a.bytes)));
}

TEST_F(CacheTest, ClearingMemoryFallsBackToDiskAndClearingBothRecompiles) {
  std::string src = kernel_named("clear_kernel");
  EXPECT_EQ(compile(src, cubin90()).source, DC_CACHE_MISS);
  ASSERT_DC_OK(dc_cache_clear(DC_CACHE_CLEAR_MEMORY));
  EXPECT_EQ(compile(src, cubin90()).source, DC_CACHE_DISK);
  EXPECT_EQ(compile(src, cubin90()).source, DC_CACHE_MEMORY);
  write_file(dir_ + "/not-ours.txt", "a file the cache does not own");
  ASSERT_DC_OK(dc_cache_clear(DC_CACHE_CLEAR_MEMORY | DC_CACHE_CLEAR_DISK));
  EXPECT_TRUE(files_in(dir_, ".dcc").empty());
  EXPECT_EQ(read_file(dir_ + "/not-ours.txt"), "a file the cache does not own") << "only cache entries are deleted";
  unlink((dir_ + "/not-ours.txt").c_str());
  EXPECT_EQ(compile(src, cubin90()).source, DC_CACHE_MISS);
}

TEST_F(CacheTest, EveryPartOfTheRequestIsInTheKey) {
  std::string src = dctest::unique_source(dctest::kKernels);
  dc_compile_options base = cubin90();
  ASSERT_EQ(compile(src, base).source, DC_CACHE_MISS);
  ASSERT_EQ(compile(src, base).source, DC_CACHE_MEMORY);

  std::vector<std::pair<const char*, dc_compile_options>> variants;
  const char* define[] = {"SOMETHING=1"};
  const char* raw[] = {"-DOTHER"};
  const char* expr[] = {"scale<float>"};
  const char* inc[] = {"/nonexistent-include-dir"};
  const char* hname[] = {"unused.h"};
  const char* hsrc[] = {"#define UNUSED 1\n"};
  const char* hsrc2[] = {"#define UNUSED 2\n"};
  dc_compile_options o;
  o = base; o.num_defines = 1; o.defines = define; variants.push_back({"a define", o});
  o = base; o.num_options = 1; o.options = raw; variants.push_back({"a raw option", o});
  o = base; o.std = "c++20"; variants.push_back({"-std", o});
  o = base; o.flags |= DC_COMPILE_FAST_MATH; variants.push_back({"fast math", o});
  o = base; o.flags |= DC_COMPILE_LINE_INFO; variants.push_back({"line info", o});
  o = base; o.max_registers = 32; variants.push_back({"max registers", o});
  o = base; o.arch = 80; variants.push_back({"the architecture", o});
  o = base; o.output = DC_OUTPUT_PTX; variants.push_back({"the output kind", o});
  o = base; o.num_name_expressions = 1; o.name_expressions = expr; variants.push_back({"a name expression", o});
  o = base; o.num_include_paths = 1; o.include_paths = inc; variants.push_back({"an include path", o});
  o = base; o.num_headers = 1; o.header_names = hname; o.header_sources = hsrc; variants.push_back({"a header", o});
  o = base; o.num_headers = 1; o.header_names = hname; o.header_sources = hsrc2; variants.push_back({"a header's text", o});
  for (auto& [what, options] : variants) EXPECT_EQ(compile(src, options).source, DC_CACHE_MISS) << what;
  // The source and the program name too.
  EXPECT_EQ(compile(src + "\n", base).source, DC_CACHE_MISS) << "the source";
  dc_program p = nullptr;
  ASSERT_DC_OK(dc_compile(src.c_str(), "another-name.cu", &base, nullptr, &p));
  int32_t source = -1;
  dc_program_cache_source(p, &source);
  EXPECT_EQ(source, DC_CACHE_MISS) << "the program name";
  dc_program_release(p);
  // And every variant is now a hit.
  for (auto& [what, options] : variants) EXPECT_EQ(compile(src, options).source, DC_CACHE_MEMORY) << what;
}

TEST_F(CacheTest, EditingAnIncludedFileInvalidatesTheEntry) {
  std::string inc = scratch_ + "/inc";
  ASSERT_EQ(mkdir(inc.c_str(), 0700), 0);
  write_file(inc + "/value.h", "#define VALUE 1111\n");
  write_file(inc + "/outer.h", "#include \"value.h\"\n");
  std::string src = dctest::unique_source("#include <outer.h>\n"
                                          "extern \"C\" __global__ void k(int* p) { p[0] = VALUE; }\n");
  dc_compile_options o = cubin90();
  o.output = DC_OUTPUT_PTX;
  const char* paths[] = {inc.c_str()};
  o.num_include_paths = 1;
  o.include_paths = paths;
  Compiled first = compile(src, o);
  EXPECT_EQ(first.source, DC_CACHE_MISS);
  EXPECT_NE(first.bytes.find("1111"), std::string::npos);
  EXPECT_EQ(compile(src, o).source, DC_CACHE_MEMORY);
  write_file(inc + "/value.h", "#define VALUE 2222\n");  // two levels down
  Compiled second = compile(src, o);
  EXPECT_EQ(second.source, DC_CACHE_MISS) << "a stale kernel was served after its header changed";
  EXPECT_NE(second.bytes.find("2222"), std::string::npos);
  write_file(inc + "/value.h", "#define VALUE 1111\n");
  EXPECT_EQ(compile(src, o).source, DC_CACHE_MEMORY) << "the first version's entry is still valid";
}

// Damages the entry file in different ways; each time the entry must be
// ignored (a recompile, never the damaged bytes) and replaced by a good one.
TEST_F(CacheTest, CorruptTruncatedAndForeignFilesAreIgnoredAndReplaced) {
  std::string other_entry;
  {
    std::string other = kernel_named("other_kernel");
    std::set<std::string> made = new_entries([&] { compile(other, cubin90()); });
    ASSERT_EQ(made.size(), 1u);
    other_entry = read_file(dir_ + "/" + *made.begin());
  }
  struct Damage {
    const char* what;
    std::string (*apply)(const std::string& good, const std::string& other);
  };
  const Damage damages[] = {
      {"a flipped payload byte", [](const std::string& g, const std::string&) { std::string s = g; s[s.size() / 2] ^= 0x40; return s; }},
      {"a flipped last byte", [](const std::string& g, const std::string&) { std::string s = g; s.back() ^= 1; return s; }},
      {"a flipped key byte", [](const std::string& g, const std::string&) { std::string s = g; s[20] ^= 1; return s; }},
      {"a flipped format byte", [](const std::string& g, const std::string&) { std::string s = g; s[8] ^= 1; return s; }},
      {"truncated to half", [](const std::string& g, const std::string&) { return g.substr(0, g.size() / 2); }},
      {"truncated by one byte", [](const std::string& g, const std::string&) { return g.substr(0, g.size() - 1); }},
      {"truncated inside the header", [](const std::string& g, const std::string&) { return g.substr(0, 40); }},
      {"empty", [](const std::string&, const std::string&) { return std::string(); }},
      {"a byte appended", [](const std::string& g, const std::string&) { return g + "x"; }},
      {"foreign text", [](const std::string&, const std::string&) { return std::string("this is not a cache entry\n"); }},
      {"another key's valid entry", [](const std::string&, const std::string& o) { return o; }},
  };
  for (const Damage& d : damages) {
    SCOPED_TRACE(d.what);
    std::string src = kernel_named("damaged_kernel");
    Compiled good;
    std::set<std::string> made = new_entries([&] { good = compile(src, cubin90()); });
    ASSERT_EQ(made.size(), 1u);
    std::string path = dir_ + "/" + *made.begin();
    std::string original = read_file(path);
    write_file(path, d.apply(original, other_entry));
    ASSERT_DC_OK(dc_cache_clear(DC_CACHE_CLEAR_MEMORY));
    Compiled again = compile(src, cubin90());
    EXPECT_EQ(again.source, DC_CACHE_MISS) << "a damaged entry was used";
    EXPECT_EQ(again.bytes, good.bytes);
    EXPECT_EQ(read_file(path), original) << "the damaged file was not replaced by a good entry";
    ASSERT_DC_OK(dc_cache_clear(DC_CACHE_CLEAR_MEMORY));
    EXPECT_EQ(compile(src, cubin90()).source, DC_CACHE_DISK);
  }
}

TEST_F(CacheTest, SeveralProcessesWritingTheSameEntry) {
  std::string src = kernel_named("raced_kernel");
  std::string file = source_file(src);
  constexpr int kWriters = 8;
  std::set<std::string> made = new_entries([&] {
    std::vector<std::pair<pid_t, int>> children;
    for (int i = 0; i < kWriters; ++i) {
      int fd = -1;
      pid_t pid = spawn_child({"compile", file, "1"}, {}, &fd);
      ASSERT_GT(pid, 0);
      children.emplace_back(pid, fd);
    }
    std::set<std::string> digests;
    for (auto& [pid, fd] : children) {
      ChildResult r = wait_child(pid, fd);
      EXPECT_EQ(r.exit_code, 0) << r.out;
      std::istringstream lines(r.out);
      std::string source, digest;
      lines >> source >> digest;
      digests.insert(digest);
    }
    EXPECT_EQ(digests.size(), 1u) << "every writer saw the same output";
  });
  EXPECT_EQ(made.size(), 1u) << "one entry, whoever wrote it last";
  EXPECT_TRUE(files_in(dir_, "", ".tmp.").empty()) << "no temporary file is left behind";
  ChildResult reader = run_child({"compile", file, "1"});
  EXPECT_EQ(reader.out.substr(0, 1), "2") << "a later process reads the entry from disk: " << reader.out;
}

TEST_F(CacheTest, NoCacheFlagNeitherReadsNorWrites) {
  std::string src = kernel_named("uncached_kernel");
  dc_compile_options o = cubin90();
  o.flags = DC_COMPILE_NO_CACHE;
  std::set<std::string> made = new_entries([&] {
    EXPECT_EQ(compile(src, o).source, DC_CACHE_MISS);
    EXPECT_EQ(compile(src, o).source, DC_CACHE_MISS);
  });
  EXPECT_TRUE(made.empty());
  EXPECT_EQ(compile(src, cubin90()).source, DC_CACHE_MISS) << "nothing was stored under the normal key either";
}

TEST_F(CacheTest, DisabledByTheEnvironment) {
  std::string file = source_file(kernel_named("disabled_kernel"));
  std::set<std::string> made = new_entries([&] {
    ChildResult r = run_child({"compile", file, "2", "--print-dir"}, {"DCCUDA_CACHE_DISABLE=1"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "dir=") << "no cache directory when disabled";
    std::istringstream lines(r.out.substr(r.out.find('\n') + 1));
    std::string a, b;
    lines >> a >> b;
    EXPECT_EQ(a, "0");
    EXPECT_EQ(b, "0") << "DCCUDA_CACHE_DISABLE turns off the memory cache as well";
  });
  EXPECT_TRUE(made.empty()) << "DCCUDA_CACHE_DISABLE wrote to disk";
}

TEST_F(CacheTest, DiskCacheDisabledByInit) {
  std::string src = kernel_named("init_kernel");
  std::string file = source_file(src);
  std::set<std::string> made = new_entries([&] {
    ChildResult r = run_child({"compile", file, "2", "--print-dir", "--init-no-disk"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "dir=");
    std::istringstream lines(r.out.substr(r.out.find('\n') + 1));
    std::string a, b;
    lines >> a >> b;
    EXPECT_EQ(a, "0");
    EXPECT_EQ(b, "1") << "the memory cache still works";
  });
  EXPECT_TRUE(made.empty()) << "DC_INIT_NO_DISK_CACHE wrote to disk";
}

TEST_F(CacheTest, AnUnusableDirectoryNeverFailsACompile) {
  std::string file = source_file(kernel_named("nowhere_kernel"));
  ChildResult r = run_child({"compile", file, "2"}, {"DCCUDA_CACHE_DIR=/proc/self/cannot/create/this"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::istringstream lines(r.out);
  std::string a, b;
  lines >> a >> b;
  EXPECT_EQ(a, "0");
  EXPECT_EQ(b, "1");
}

TEST_F(CacheTest, SizeLimitEvictsTheLeastRecentlyUsed) {
  std::string dir = make_temp_dir("cache-evict");
  ASSERT_FALSE(dir.empty());
  // The size of one entry, to set a limit that holds two.
  std::string probe = source_file(kernel_named("kprobe"));
  ASSERT_EQ(run_child({"compile", probe, "1"}, {"DCCUDA_CACHE_DIR=" + dir}).exit_code, 0);
  std::set<std::string> entries = files_in(dir, ".dcc");
  ASSERT_EQ(entries.size(), 1u);
  size_t entry_size = read_file(dir + "/" + *entries.begin()).size();
  ASSERT_GT(entry_size, 0u);
  remove_tree(dir);
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  std::string limit = "DCCUDA_CACHE_MAX_BYTES=" + std::to_string(entry_size * 5 / 2);

  // Same-size kernels whose names tell the entries apart.
  std::string a = source_file(kernel_named("kaaaa")), b = source_file(kernel_named("kbbbb")),
              c = source_file(kernel_named("kcccc"));
  auto holds = [&](const char* kernel) {
    for (const std::string& f : files_in(dir, ".dcc"))
      if (read_file(dir + "/" + f).find(kernel) != std::string::npos) return true;
    return false;
  };
  auto step = [&](const std::string& file) {
    ASSERT_EQ(run_child({"compile", file, "1"}, {"DCCUDA_CACHE_DIR=" + dir, limit}).exit_code, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // distinct modification times
  };
  step(a);
  step(b);
  EXPECT_TRUE(holds("kaaaa") && holds("kbbbb"));
  step(a);  // a disk hit: a is now the most recently used
  step(c);  // over the limit: b, the least recently used, goes
  EXPECT_TRUE(holds("kaaaa")) << "the recently used entry was evicted";
  EXPECT_FALSE(holds("kbbbb")) << "the least recently used entry was kept";
  EXPECT_TRUE(holds("kcccc")) << "the new entry was evicted";
  size_t total = 0;
  for (const std::string& f : files_in(dir, ".dcc")) total += read_file(dir + "/" + f).size();
  EXPECT_LE(total, entry_size * 5 / 2);
  remove_tree(dir);
}

// Loading NVRTC costs ~10 ms: a process that finds its kernel on disk must not
// need it. The first process records which NVRTC it loaded (nvrtc-*.id); a
// record that no longer matches is never trusted.
TEST_F(CacheTest, ADiskHitInANewProcessDoesNotLoadNvrtc) {
  std::string src = kernel_named("memo_kernel");
  std::string file = source_file(src);
  ASSERT_EQ(compile(src, cubin90()).source, DC_CACHE_MISS);  // this process loads NVRTC and records it
  std::set<std::string> memos = files_in(dir_, ".id");
  ASSERT_EQ(memos.size(), 1u);
  std::string memo_path = dir_ + "/" + *memos.begin();
  std::string memo = read_file(memo_path);
  auto run = [&](std::vector<std::string> env = {}) {
    ChildResult r = run_child({"compile", file, "1"}, env);
    EXPECT_EQ(r.exit_code, 0) << r.out;
    return r.out;
  };
  std::string out = run();
  EXPECT_EQ(out.substr(0, 1), "2") << out;
  EXPECT_NE(out.find("nvrtc=0"), std::string::npos) << "NVRTC was loaded for a disk hit: " << out;

  // A record claiming another NVRTC version: the lookup misses, NVRTC is
  // loaded, and the entry under the real version is found after all.
  std::string wrong = memo;
  wrong.replace(wrong.find(' ') + 1, 2, "77");
  write_file(memo_path, wrong);
  out = run();
  EXPECT_EQ(out.substr(0, 1), "2") << out;
  EXPECT_NE(out.find("nvrtc=1"), std::string::npos) << out;
  EXPECT_EQ(read_file(memo_path), memo) << "the wrong record was not corrected";

  // A record whose library file changed (here: its recorded size) is ignored.
  std::istringstream fields(memo);
  std::string magic, major, minor, ino, size;
  fields >> magic >> major >> minor >> ino >> size;
  std::string changed = memo;
  changed.replace(changed.find(" " + size + " ") + 1, size.size(), size + "1");
  write_file(memo_path, changed);
  out = run();
  EXPECT_NE(out.find("nvrtc=1"), std::string::npos) << out;
  EXPECT_EQ(read_file(memo_path), memo);
  write_file(memo_path, "garbage");
  out = run();
  EXPECT_NE(out.find("nvrtc=1"), std::string::npos) << out;
  EXPECT_EQ(read_file(memo_path), memo);
  // Cut short (the numbers without the library's path; a number cut in
  // half): ignored as well.
  for (size_t cut : {memo.find('\n') + 1, memo.find(" " + size + " ") + 2}) {
    write_file(memo_path, memo.substr(0, cut));
    out = run();
    EXPECT_NE(out.find("nvrtc=1"), std::string::npos) << "cut at " << cut << ": " << out;
    EXPECT_EQ(read_file(memo_path), memo);
  }

  // Another NVRTC setting is another context: no record applies, and without
  // NVRTC there is no compiler, cached entry or not.
  ChildResult none = run_child({"compile", file, "1"}, {"DCCUDA_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  EXPECT_EQ(none.exit_code, 2) << none.out;
  ASSERT_DC_OK(dc_cache_clear(DC_CACHE_CLEAR_DISK));
  EXPECT_TRUE(files_in(dir_, ".id").empty()) << "clearing the disk cache clears the records too";
}

// --- The child process ------------------------------------------------------

// --child compile <source file> <times> [--print-dir] [--init-no-disk]
// Prints "dir=<cache dir>" first when asked, then the cache source of each
// compile, then a digest of the output.
int child_main(int argc, char** argv) {
  if (argc < 5 || std::string(argv[2]) != "compile") return 64;
  std::string source = read_file(argv[3]);
  int times = std::atoi(argv[4]);
  bool print_dir = false;
  for (int i = 5; i < argc; ++i) {
    if (std::string(argv[i]) == "--print-dir") print_dir = true;
    if (std::string(argv[i]) == "--init-no-disk") {
      dc_init_options init = DC_INIT_OPTIONS_INIT;
      init.flags = DC_INIT_NO_DISK_CACHE;
      dc_status s = dc_init(&init);
      if (s != DC_SUCCESS && s != DC_ERROR_NO_DRIVER) {
        std::fprintf(stderr, "dc_init: %s\n", dc_last_error_message());
        return 3;
      }
    }
  }
  if (print_dir) {
    const char* dir = nullptr;
    dc_cache_directory(&dir);
    std::printf("dir=%s\n", dir ? dir : "(null)");
  }
  std::string bytes;
  for (int i = 0; i < times; ++i) {
    dc_compile_options o = cubin90();
    dc_program p = nullptr;
    if (dc_compile(source.c_str(), "cached.cu", &o, nullptr, &p) != DC_SUCCESS) {
      std::fprintf(stderr, "%s\n", dc_last_error_message());
      return 2;
    }
    int32_t from = -1;
    dc_program_cache_source(p, &from);
    const void* data = nullptr;
    uint64_t size = 0;
    dc_program_output(p, nullptr, &data, &size);
    bytes.assign(static_cast<const char*>(data), size);
    dc_program_release(p);
    std::printf("%d\n", from);
  }
  std::printf("%zu\n", std::hash<std::string>()(bytes));
  // Whether this process loaded NVRTC (a disk hit should not need to).
  std::ifstream maps("/proc/self/maps");
  std::string line;
  bool nvrtc = false;
  while (std::getline(maps, line)) nvrtc = nvrtc || line.find("libnvrtc") != std::string::npos;
  std::printf("nvrtc=%d\n", nvrtc ? 1 : 0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return 70;
  self[n] = '\0';
  g_self = self;
  if (argc >= 2 && std::string(argv[1]) == "--child") return child_main(argc, argv);
  // A directory of this process's own: no other test's entries interfere.
  std::string dir = make_temp_dir("cache-test");
  if (dir.empty()) return 71;
  setenv("DCCUDA_CACHE_DIR", dir.c_str(), 1);
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] %s\n", dctest::driver_description());
  int result = RUN_ALL_TESTS();
  remove_tree(dir);
  return result;
}
