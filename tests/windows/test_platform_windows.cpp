// White-box tests of dccuda's Windows platform files (src/platform/*_windows.cpp,
// src/loader/shared_library_windows.cpp), run under Wine by
// tests/scripts/run_windows.sh. Without NVRTC there the kernel cache is never
// written by the other tests, so its file operations are exercised here
// directly: UTF-8 names outside ASCII, the atomic replace under a reader, the
// lock, a pipe refused without blocking, the directory held against renames,
// the access-list check (and its refusal of a directory Everyone may write),
// and the library search that never looks in the current directory.
#include <gtest/gtest.h>
#include <windows.h>
#include <sddl.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "loader/shared_library.h"
#include "platform/atomic_file.h"
#include "platform/directory_entries.h"
#include "platform/environment.h"
#include "platform/file_lock.h"
#include "platform/path_facts.h"
#include "platform/physical_memory.h"
#include "platform/private_files.h"
#include "platform/regular_file.h"
#include "platform/utf16.h"

namespace {

using namespace dc::platform;

// A fresh directory's path under %TEMP% whose name is not ASCII.
std::string scratch(const char* tag) {
  wchar_t temp[MAX_PATH];
  DWORD n = GetTempPathW(MAX_PATH, temp);
  std::string base = narrow(std::wstring(temp, n));
  if (!base.empty() && base.back() != '\\') base += '\\';
  // Unique to this run (Wine reuses process ids between runs).
  return base + "dccuda-" + tag + "-ünï-路径-" + std::to_string(GetCurrentProcessId()) + "-" +
         std::to_string(GetTickCount64());
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  for (const std::string& x : v)
    if (x == s) return true;
  return false;
}

std::string read_all(int dir_fd, const char* name) {
  RegularFile f;
  if (open_regular_file(dir_fd, name, false, &f, nullptr) != OpenResult::kOk) return "<cannot open>";
  std::string s(static_cast<size_t>(f.file_size()), '\0');
  if (!read_exactly(f.fd.get(), s.data(), s.size())) return "<cannot read>";
  return s;
}

TEST(WindowsFiles, PrivateDirectoryAtomicFilesAndListing) {
  std::string dir = scratch("files");
  ASSERT_EQ(make_private_directories(dir + "\\kernels"), "");
  UniqueFd d = open_directory(dir + "\\kernels");
  ASSERT_TRUE(d) << dir;
  EXPECT_EQ(open_directory_problem(d.get(), DirectoryRule::kPrivate), "");

  const std::string name = "entry-é-キャッシュ.bin";
  ASSERT_TRUE(write_file_atomically(d.get(), name, name + ".tmp.1", "first", 5, true, 0600));
  std::vector<std::string> names = directory_names(d.get());
  EXPECT_TRUE(contains(names, name));
  EXPECT_FALSE(contains(names, name + ".tmp.1")) << "the temporary file was left behind";
  EXPECT_EQ(read_all(d.get(), name.c_str()), "first");

  // A reader holds the file open: a writer replaces it whole or (where the
  // system refuses to replace an open file) not at all, never leaving a
  // partial file or its temporary; the reader reads what it opened.
  RegularFile reader;
  ASSERT_EQ(open_regular_file(d.get(), name.c_str(), false, &reader, nullptr), OpenResult::kOk);
  bool replaced = write_file_atomically(d.get(), name, name + ".tmp.2", "second!", 7, false, 0600);
  EXPECT_EQ(read_all(d.get(), name.c_str()), replaced ? "second!" : "first");
  EXPECT_FALSE(contains(directory_names(d.get()), name + ".tmp.2")) << "the temporary file was left behind";
  char old[5];
  ASSERT_TRUE(read_exactly(reader.fd.get(), old, 5));
  EXPECT_EQ(std::string(old, 5), "first");
  reader = RegularFile();
  std::printf("[ dccuda   ] replacing a file open elsewhere: %s\n", replaced ? "done" : "refused by the system");
  // Closed, it is replaced.
  ASSERT_TRUE(write_file_atomically(d.get(), name, name + ".tmp.3", "second!", 7, false, 0600));
  EXPECT_EQ(read_all(d.get(), name.c_str()), "second!");

  struct stat st;
  ASSERT_TRUE(stat_no_follow(d.get(), name, &st));
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_size, 7);
  PathFacts facts;
  ASSERT_TRUE(path_facts(dir + "\\kernels\\" + name, &facts));
  EXPECT_TRUE(facts.regular);
  EXPECT_EQ(facts.size, 7u);
  touch(open_regular_file(d.get(), name.c_str(), false, &reader, nullptr) == OpenResult::kOk ? reader.fd.get() : -1);
  reader = RegularFile();

  // A temporary name already taken (by anything) is never written through.
  ASSERT_TRUE(write_file_atomically(d.get(), "taken", "taken.tmp", "x", 1, false, 0600));
  EXPECT_FALSE(write_file_atomically(d.get(), name, "taken", "y", 1, false, 0600));
  EXPECT_EQ(read_all(d.get(), "taken"), "x");

  // Not found, a directory, and removal.
  RegularFile f;
  EXPECT_EQ(open_regular_file(d.get(), "missing", false, &f, nullptr), OpenResult::kNotFound);
  ASSERT_TRUE(CreateDirectoryW((widen(dir) + L"\\kernels\\sub").c_str(), nullptr));
  EXPECT_EQ(open_regular_file(d.get(), "sub", false, &f, nullptr), OpenResult::kDirectory);
  EXPECT_TRUE(remove_file_at(d.get(), name));
  EXPECT_FALSE(stat_no_follow(d.get(), name, &st));
  EXPECT_FALSE(contains(directory_names(d.get()), name));
}

TEST(WindowsFiles, OpenDirectoryCannotBeRenamed) {
  std::string dir = scratch("held");
  ASSERT_EQ(make_private_directories(dir), "");
  std::wstring moved = widen(dir + "-moved");
  {
    UniqueFd d = open_directory(dir);
    ASSERT_TRUE(d);
    EXPECT_FALSE(MoveFileW(widen(dir).c_str(), moved.c_str())) << "the open directory was renamed under dccuda";
  }
  EXPECT_TRUE(MoveFileW(widen(dir).c_str(), moved.c_str())) << "closed, it can be renamed";
}

TEST(WindowsFiles, PipeIsRefusedWithoutBlocking) {
  std::string pipe = "\\\\.\\pipe\\dccuda-test-" + std::to_string(GetCurrentProcessId());
  HANDLE server = CreateNamedPipeW(widen(pipe).c_str(), PIPE_ACCESS_DUPLEX, PIPE_TYPE_BYTE, 1, 64, 64, 0, nullptr);
  ASSERT_NE(server, INVALID_HANDLE_VALUE);
  RegularFile f;
  EXPECT_EQ(open_regular_file(kWorkingDirectory, pipe.c_str(), true, &f, nullptr), OpenResult::kNotRegular);
  CloseHandle(server);
}

TEST(WindowsFiles, LockIsExclusiveAndRemovable) {
  std::string dir = scratch("lock");
  ASSERT_EQ(make_private_directories(dir), "");
  UniqueFd d = open_directory(dir);
  ASSERT_TRUE(d);
  FileLock::Outcome o;
  FileLock held = FileLock::acquire(d.get(), "entry.lock", 0600, std::chrono::milliseconds(0), &o);
  ASSERT_TRUE(held.held());
  EXPECT_EQ(o, FileLock::Outcome::kAcquired);
  FileLock second = FileLock::acquire(d.get(), "entry.lock", 0600, std::chrono::milliseconds(50), &o);
  EXPECT_FALSE(second.held());
  EXPECT_EQ(o, FileLock::Outcome::kTimedOut);
  held.remove_and_release(d.get(), "entry.lock");
  struct stat st;
  EXPECT_FALSE(stat_no_follow(d.get(), "entry.lock", &st)) << "the lock file was not removed";
  FileLock again = FileLock::acquire(d.get(), "entry.lock", 0600, std::chrono::milliseconds(0), &o);
  EXPECT_TRUE(again.held());
}

bool under_wine() { return GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "wine_get_version") != nullptr; }

// The access-list check refuses a directory Everyone may write (its planted
// mistake), given by an access list at creation.
TEST(WindowsFiles, DirectoryEveryoneMayWriteIsRefused) {
  if (under_wine())
    GTEST_SKIP() << "Wine makes access lists from Unix modes and keeps none given at creation; run_windows.sh "
                    "plants a directory of mode 0777 (and one of another owner) instead";
  std::string dir = scratch("open");
  PSECURITY_DESCRIPTOR sd = nullptr;
  ASSERT_TRUE(ConvertStringSecurityDescriptorToSecurityDescriptorW(L"D:(A;OICI;FA;;;WD)", SDDL_REVISION_1, &sd, nullptr));
  SECURITY_ATTRIBUTES sa{sizeof sa, sd, FALSE};
  ASSERT_TRUE(CreateDirectoryW(widen(dir).c_str(), &sa));
  LocalFree(sd);
  UniqueFd d = open_directory(dir);
  ASSERT_TRUE(d);
  std::string problem = open_directory_problem(d.get(), DirectoryRule::kPrivate);
  EXPECT_NE(problem.find("writable by"), std::string::npos) << "\"" << problem << "\"";
  EXPECT_NE(open_directory_problem(d.get(), DirectoryRule::kShared), "") << "Everyone may not write a shared cache";
}

TEST(WindowsEnvironment, ValuesAreUtf8AndNoProcessIsPrivileged) {
  ASSERT_EQ(_wputenv(L"DCCUDA_TEST_VALUE=välue-路径"), 0);
  const char* v = environment_value("DCCUDA_TEST_VALUE");
  ASSERT_NE(v, nullptr);
  EXPECT_STREQ(v, "välue-路径");
  EXPECT_EQ(environment_value("DCCUDA_TEST_UNSET_VARIABLE"), nullptr);
  EXPECT_FALSE(process_is_privileged());
  EXPECT_GT(physical_memory_bytes(), 0u);
}

TEST(WindowsLoader, CurrentDirectoryIsNeverSearched) {
  // This program's folder holds the fake driver; a copy under another name
  // goes into a folder that becomes the working directory.
  std::string folder = dc::dccuda_library_folder();
  ASSERT_FALSE(folder.empty());
  std::string dir = scratch("cwd");
  ASSERT_EQ(make_private_directories(dir), "");
  std::string planted = dc::path_in_folder(dir, "planted_in_cwd.dll");
  ASSERT_TRUE(CopyFileW(widen(dc::path_in_folder(folder, "dcfake_nvcuda.dll")).c_str(), widen(planted).c_str(), FALSE));
  wchar_t old[MAX_PATH];
  GetCurrentDirectoryW(MAX_PATH, old);
  ASSERT_TRUE(SetCurrentDirectoryW(widen(dir).c_str()));
  std::string why;
  EXPECT_EQ(dc::open_shared_library("planted_in_cwd.dll", &why), nullptr) << "a bare name was found in the working directory";
  EXPECT_FALSE(why.empty());
  void* explicit_path = dc::open_shared_library(".\\planted_in_cwd.dll", &why);
  EXPECT_NE(explicit_path, nullptr) << "a relative path names the file itself: " << why;
  void* utf8_path = dc::open_shared_library(planted, &why);
  EXPECT_EQ(utf8_path, explicit_path) << why;
  if (utf8_path) {
    EXPECT_NE(dc::find_shared_library_symbol(utf8_path, "cuGetProcAddress_v2"), nullptr);
    std::string file = dc::loaded_library_file(dc::find_shared_library_symbol(utf8_path, "cuGetProcAddress_v2"));
    EXPECT_NE(file.find("planted_in_cwd.dll"), std::string::npos) << file;
    EXPECT_NE(file.find("ünï-路径"), std::string::npos) << file;
  }
  SetCurrentDirectoryW(old);
  EXPECT_STREQ(dc::default_driver_library(), "nvcuda.dll");
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
