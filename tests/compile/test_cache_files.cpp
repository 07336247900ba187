// The kernel cache against files that are not what their names say: a FIFO
// (or a symbolic link to one) in place of an entry or of the NVRTC memo made
// dc_compile hang for ever; a 2 GiB sparse entry was read whole before its
// 96-byte header was checked; eviction and dc_cache_clear deleted every *.dcc
// in the directory, also through a symbolic link to another directory. Every
// cache file is now opened without blocking and without following links,
// must be a regular file, is judged by its header before its payload is read,
// and only files with an entry's exact name and magic are ever deleted.
//
// Its own main gives the process a fresh cache directory; compiles that could
// hang run in a child process (this binary with --child) with a time limit.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
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

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/child_process.h"
#include "support/fake.h"
#include "support/files.h"

namespace {

using dctest::files_in;
using dctest::read_file;
using dctest::write_file;

dc_compile_options cubin90() {
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.arch = 90;
  return o;
}

std::string kernel_named(const std::string& name) {
  return dctest::unique_source("extern \"C\" __global__ void " + name + "(float* p, int n) {\n"
                               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "  if (i < n) p[i] = p[i] * 3.0f;\n}\n");
}

int32_t compile_here(const std::string& source) {
  dc_compile_options o = cubin90();
  dc_program p = nullptr;
  if (dc_compile(source.c_str(), "files.cu", &o, nullptr, &p) != DC_SUCCESS) {
    ADD_FAILURE() << dc_last_error_message();
    return -1;
  }
  int32_t from = -1;
  dc_program_cache_source(p, &from);
  dc_program_release(p);
  return from;
}

struct ChildCompile {
  dctest::ChildResult child;
  int32_t source = -1;     // DC_CACHE_*
  uint64_t read = 0;       // bytes the process read during the compile (rchar)
};

// Compiles `source` in a fresh process, with a time limit.
ChildCompile compile_in_child(const std::string& source_file, std::vector<std::string> env = {}) {
  dctest::ChildOptions o;
  o.timeout_seconds = 30;
  o.set_env = std::move(env);
  ChildCompile c;
  c.child = dctest::run_program({dctest::self_executable(), "--child", source_file}, o);
  std::istringstream out(c.child.output);
  std::string key;
  while (out >> key) {
    if (key.rfind("source=", 0) == 0) c.source = std::atoi(key.c_str() + 7);
    if (key.rfind("read=", 0) == 0) c.read = std::strtoull(key.c_str() + 5, nullptr, 10);
  }
  return c;
}

class CacheFiles : public testing::Test {
 protected:
  void SetUp() override {
    int32_t major = 0, minor = 0;
    if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS) GTEST_SKIP() << "no NVRTC";
    const char* d = nullptr;
    ASSERT_DC_OK(dc_cache_directory(&d));
    dir_ = d;
    ASSERT_FALSE(dir_.empty());
    scratch_ = dctest::make_temp_dir("cache-files-scratch");
  }
  void TearDown() override {
    dctest::remove_tree(scratch_);
    EXPECT_EQ(dctest::live_handles(), 0u);
  }
  // Compiles `source` here and returns its entry's file name.
  std::string entry_of(const std::string& source) {
    std::set<std::string> before = files_in(dir_, ".dcc");
    EXPECT_EQ(compile_here(source), DC_CACHE_MISS);
    for (const std::string& f : files_in(dir_, ".dcc"))
      if (!before.count(f)) return f;
    ADD_FAILURE() << "no entry was written";
    return "";
  }
  std::string source_file(const std::string& source) {
    std::string path = scratch_ + "/src" + std::to_string(counter_++) + ".cu";
    write_file(path, source);
    return path;
  }
  std::string dir_, scratch_;
  int counter_ = 0;
};

// --- item: a FIFO where a cache file should be ------------------------------

TEST_F(CacheFiles, AFifoInPlaceOfAnEntryIsAMissNotAHang) {
  std::string src = kernel_named("fifo_entry");
  std::string entry = entry_of(src);
  ASSERT_EQ(unlink((dir_ + "/" + entry).c_str()), 0);
  ASSERT_EQ(mkfifo((dir_ + "/" + entry).c_str(), 0600), 0);
  ChildCompile c = compile_in_child(source_file(src));
  ASSERT_FALSE(c.child.timed_out) << "dc_compile blocked on a FIFO in place of the entry";
  EXPECT_EQ(c.source, DC_CACHE_MISS) << c.child.output;
  struct stat st;
  ASSERT_EQ(lstat((dir_ + "/" + entry).c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode)) << "the next store replaces the FIFO with the entry";
}

TEST_F(CacheFiles, ASymbolicLinkToAFifoInPlaceOfAnEntryIsAMissNotAHang) {
  std::string src = kernel_named("fifo_link");
  std::string entry = entry_of(src);
  std::string fifo = scratch_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(unlink((dir_ + "/" + entry).c_str()), 0);
  ASSERT_EQ(symlink(fifo.c_str(), (dir_ + "/" + entry).c_str()), 0);
  ChildCompile c = compile_in_child(source_file(src));
  ASSERT_FALSE(c.child.timed_out) << "dc_compile blocked on a link to a FIFO";
  EXPECT_EQ(c.source, DC_CACHE_MISS) << c.child.output;
}

TEST_F(CacheFiles, AFifoInPlaceOfTheNvrtcMemoIsIgnoredNotAHang) {
  std::string src = kernel_named("fifo_memo");
  entry_of(src);  // this process loaded NVRTC and wrote the memo
  std::set<std::string> memos = files_in(dir_, ".id");
  ASSERT_EQ(memos.size(), 1u);
  std::string memo = dir_ + "/" + *memos.begin();
  ASSERT_EQ(unlink(memo.c_str()), 0);
  ASSERT_EQ(mkfifo(memo.c_str(), 0600), 0);
  ChildCompile c = compile_in_child(source_file(src));
  ASSERT_FALSE(c.child.timed_out) << "dc_compile blocked on a FIFO in place of the NVRTC memo";
  EXPECT_EQ(c.source, DC_CACHE_DISK) << c.child.output;
  unlink(memo.c_str());
}

// --- item: a huge entry is judged by its header -----------------------------

TEST_F(CacheFiles, AHugeSparseEntryIsRejectedFromItsHeaderUnread) {
  std::string src = kernel_named("sparse_entry");
  std::string entry = entry_of(src);
  std::string path = dir_ + "/" + entry;
  std::string header = read_file(path).substr(0, 96);  // a real header: magic, format, the key
  ASSERT_EQ(header.size(), 96u);
  for (bool through_link : {false, true}) {
    SCOPED_TRACE(through_link ? "through a symbolic link" : "in place");
    std::string big = through_link ? scratch_ + "/big" : path;
    unlink(path.c_str());
    int fd = open(big.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, header.data(), header.size()), 96);
    ASSERT_EQ(ftruncate(fd, (off_t(2) << 30) - 4096), 0);  // just under 2 GiB, sparse
    close(fd);
    if (through_link) {
      ASSERT_EQ(symlink(big.c_str(), path.c_str()), 0);
    }
    ChildCompile c = compile_in_child(source_file(src));
    ASSERT_FALSE(c.child.timed_out);
    EXPECT_EQ(c.source, DC_CACHE_MISS) << c.child.output;
    EXPECT_LT(c.read, uint64_t(64) << 20) << "the 2 GiB entry was read before its header was checked";
    unlink(big.c_str());
  }
}

// --- item: only dccuda's own files are deleted ------------------------------

// Files a cache directory may share with others: names like an entry's
// without its magic, other *.dcc files, a memo-like name.
void plant_foreign_files(const std::string& dir) {
  write_file(dir + "/important.dcc", "not a kernel");
  write_file(dir + "/" + std::string(64, 'a') + ".dcc", std::string(4096, 'x'));
  write_file(dir + "/nvrtc-notes.id", "someone else's");
}
void expect_foreign_files(const std::string& dir) {
  EXPECT_TRUE(read_file(dir + "/important.dcc") == "not a kernel") << "important.dcc was deleted";
  EXPECT_TRUE(read_file(dir + "/" + std::string(64, 'a') + ".dcc") == std::string(4096, 'x'))
      << "a file with an entry's name but not its magic was deleted";
  EXPECT_TRUE(read_file(dir + "/nvrtc-notes.id") == "someone else's") << "nvrtc-notes.id was deleted";
}

TEST_F(CacheFiles, ClearingDeletesOnlyEntries) {
  plant_foreign_files(dir_);
  entry_of(kernel_named("clear_only_entries"));
  ASSERT_DC_OK(dc_cache_clear(DC_CACHE_CLEAR_DISK | DC_CACHE_CLEAR_MEMORY));
  expect_foreign_files(dir_);
  EXPECT_EQ(files_in(dir_, ".dcc").size(), 2u) << "the real entry was not deleted, or a foreign file was";
  for (const char* f : {"/important.dcc", "/nvrtc-notes.id"}) unlink((dir_ + f).c_str());
  unlink((dir_ + "/" + std::string(64, 'a') + ".dcc").c_str());
}

TEST_F(CacheFiles, ClearingThroughALinkedDirectoryDeletesOnlyEntriesThere) {
  std::string target = scratch_ + "/elsewhere";
  ASSERT_EQ(mkdir(target.c_str(), 0700), 0);
  plant_foreign_files(target);
  std::string link = scratch_ + "/cache-link";
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  std::string file = source_file(kernel_named("linked_clear"));
  ChildCompile c = compile_in_child(file, {"DCCUDA_CACHE_DIR=" + link});
  ASSERT_EQ(c.child.exit_code, 0) << c.child.output;
  dctest::ChildOptions o;
  o.set_env = {"DCCUDA_CACHE_DIR=" + link};
  dctest::ChildResult cleared = dctest::run_program({dctest::self_executable(), "--child-clear"}, o);
  EXPECT_EQ(cleared.exit_code, 0) << cleared.output;
  expect_foreign_files(target);
  EXPECT_EQ(files_in(target, ".dcc").size(), 2u);
}

TEST_F(CacheFiles, EvictionDeletesOnlyEntries) {
  std::string dir = scratch_ + "/evict";
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  plant_foreign_files(dir);
  // The foreign files are the least recently used: older than any entry.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  // A limit that holds about one entry: every store evicts.
  std::vector<std::string> env = {"DCCUDA_CACHE_DIR=" + dir, "DCCUDA_CACHE_MAX_BYTES=12000"};
  for (const char* name : {"evict_a", "evict_b", "evict_c"}) {
    ChildCompile c = compile_in_child(source_file(kernel_named(name)), env);
    ASSERT_EQ(c.child.exit_code, 0) << c.child.output;
  }
  expect_foreign_files(dir);
}

// --- the child ----------------------------------------------------------------

uint64_t bytes_read_so_far() {
  std::ifstream io("/proc/self/io");
  std::string key;
  uint64_t value = 0;
  while (io >> key >> value)
    if (key == "rchar:") return value;
  return 0;
}

int child_compile(const char* source_file) {
  std::string source = read_file(source_file);
  int32_t major = 0, minor = 0;
  dc_nvrtc_version(&major, &minor);  // loads NVRTC first, so that its own reads are not counted
  uint64_t before = bytes_read_so_far();
  dc_compile_options o = cubin90();
  dc_program p = nullptr;
  if (dc_compile(source.c_str(), "files.cu", &o, nullptr, &p) != DC_SUCCESS) {
    std::printf("error %s\n", dc_last_error_message());
    return 2;
  }
  uint64_t read = bytes_read_so_far() - before;
  int32_t from = -1;
  dc_program_cache_source(p, &from);
  dc_program_release(p);
  std::printf("source=%d read=%llu\n", from, static_cast<unsigned long long>(read));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--child") return child_compile(argv[2]);
  if (argc >= 2 && std::string(argv[1]) == "--child-clear")
    return dc_cache_clear(DC_CACHE_CLEAR_DISK) == DC_SUCCESS ? 0 : (std::printf("%s\n", dc_last_error_message()), 3);
  std::string dir = dctest::make_temp_dir("cache-files");
  if (dir.empty()) return 71;
  setenv("DCCUDA_CACHE_DIR", dir.c_str(), 1);
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] %s\n", dctest::driver_description());
  int result = RUN_ALL_TESTS();
  dctest::remove_tree(dir);
  return result;
}
