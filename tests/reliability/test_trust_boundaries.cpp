// The trust boundaries, tested with two real users and a set-user-ID program:
//
// - Whoever can write the kernel cache chooses the code a dc_compile returns
//   (a cache hit is loaded and run as it is). So dccuda refuses a cache
//   directory that is not owned by the effective user or that group or
//   others may write, creates its directories 0700 and entries 0600. Shown
//   before: another user planted a valid entry under the victim's key and
//   the victim's compile returned the attacker's image as a disk hit.
// - In a privileged process (set-user-ID, set-group-ID, file capabilities:
//   AT_SECURE) the environment belongs to the unprivileged caller, so it
//   must not choose which library dccuda loads or where the cache is. Shown
//   before: DCCUDA_DRIVER_LIBRARY's constructor ran with euid 0.
//
// The test creates two users (useradd) and deletes them at the end; it runs
// only as root, and skips with one line where that is impossible. The
// programs that run as those users (trust_helper, libdccuda) are copied to a
// directory they can reach.
#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "compile/cache_entry.h"
#include "compile/kernel_sources.h"
#include "compile/sha256.h"
#include "dccuda.h"
#include "support/child_process.h"
#include "support/files.h"

namespace {

struct User {
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;
};

// Runs a command, retrying while another process holds /etc/passwd's lock.
bool run_admin(const std::vector<std::string>& argv) {
  for (int attempt = 0; attempt < 40; ++attempt) {
    dctest::ChildResult r = dctest::run_program(argv);
    if (r.exit_code == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

std::string copy_file(const std::string& from, const std::string& to, mode_t mode) {
  std::string bytes = dctest::read_file(from);
  if (bytes.empty() || !dctest::write_file(to, bytes) || chmod(to.c_str(), mode) != 0) return "cannot copy " + from;
  return "";
}

// key=value lines of the helper's output.
std::map<std::string, std::string> parse(const std::string& out) {
  std::map<std::string, std::string> kv;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    size_t eq = line.find('=');
    if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return kv;
}

class TrustBoundaries : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (geteuid() != 0) {
      skip_ = "SKIPPED: needs root, to create two users (useradd) and a set-user-ID program";
      return;
    }
    if (access("/usr/sbin/useradd", X_OK) != 0 || access("/usr/sbin/userdel", X_OK) != 0) {
      skip_ = "SKIPPED: needs useradd and userdel (Debian: the passwd package) to create two users";
      return;
    }
    for (const char* path : {DCTEST_TRUST_HELPER, DCTEST_LIBDCCUDA, DCTEST_EVIL_LIBRARY}) {
      if (access(path, R_OK) != 0) {
        skip_ = std::string("SKIPPED: the test's programs are not here (") + path + "): a CI-only test";
        return;
      }
    }
    std::string tag = std::to_string(getpid());
    victim_.name = "dctv" + tag;
    attacker_.name = "dcta" + tag;
    for (User* u : {&victim_, &attacker_}) {
      if (!run_admin({"/usr/sbin/useradd", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin",
                      u->name})) {
        skip_ = "SKIPPED: useradd " + u->name + " failed";
        return;
      }
      struct passwd* pw = getpwnam(u->name.c_str());
      if (!pw) {
        skip_ = "SKIPPED: " + u->name + " was made but getpwnam does not find it";
        return;
      }
      u->uid = pw->pw_uid;
      u->gid = pw->pw_gid;
    }
    stage_ = dctest::make_temp_dir("trust");
    chmod(stage_.c_str(), 0755);
    std::string problem = copy_file(DCTEST_TRUST_HELPER, stage_ + "/trust_helper", 0755) +
                          copy_file(DCTEST_LIBDCCUDA, stage_ + "/libdccuda.so.1", 0755) +
                          copy_file(DCTEST_EVIL_LIBRARY, stage_ + "/evil.so", 0755);
    if (!problem.empty()) skip_ = "SKIPPED: " + problem;
  }
  static void TearDownTestSuite() {
    if (!stage_.empty()) dctest::remove_tree(stage_);
    for (User* u : {&victim_, &attacker_})
      if (!u->name.empty() && u->uid) run_admin({"/usr/sbin/userdel", u->name});
  }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
  }

  // A directory of the stage owned by `owner` with `mode`.
  static std::string make_dir(const std::string& name, const User& owner, gid_t group, mode_t mode) {
    std::string path = stage_ + "/" + name;
    mkdir(path.c_str(), 0700);
    EXPECT_EQ(chown(path.c_str(), owner.uid, group), 0);
    EXPECT_EQ(chmod(path.c_str(), mode), 0);
    return path;
  }
  // A file of the stage any user can read.
  static std::string make_source(const std::string& name, const std::string& text) {
    std::string path = stage_ + "/" + name;
    dctest::write_file(path, text);
    chmod(path.c_str(), 0644);
    return path;
  }

  // Runs the helper (`program`: a copy in the stage) as `user`, with a clean
  // dccuda environment plus `env`.
  static std::map<std::string, std::string> run_as(const User& user, const std::string& program,
                                                   std::vector<std::string> args, std::vector<std::string> env) {
    dctest::ChildOptions o;
    o.uid = user.uid;
    o.gid = user.gid;
    o.timeout_seconds = 120;
    o.unset_env = {"DCCUDA_CACHE_DIR", "DCCUDA_DRIVER_LIBRARY", "DCCUDA_NVRTC_LIBRARY", "XDG_CACHE_HOME",
                   "DCCUDA_CACHE_MAX_BYTES", "DCCUDA_CACHE_DISABLE", "CUDA_HOME", "CUDA_PATH"};
    o.set_env = std::move(env);
    o.set_env.push_back("HOME=/nonexistent");
    args.insert(args.begin(), program);
    dctest::ChildResult r = dctest::run_program(args, o);
    std::map<std::string, std::string> kv = parse(r.output);
    kv["how"] = r.how();
    kv["output"] = r.output;
    return kv;
  }
  static bool have_nvrtc(const std::map<std::string, std::string>& kv) {
    return kv.count("compile") && kv.at("compile") != "DC_ERROR_NO_COMPILER";
  }

  static inline std::string skip_;
  static inline std::string stage_;
  static inline User victim_, attacker_;
};

std::string kernel(const std::string& name, const char* op) {
  return dctest::unique_source("extern \"C\" __global__ void " + name + "(float* p) { p[threadIdx.x] " + op +
                               " 2.0f; }\n");
}

// The attacker stores its own image under the key of the victim's source,
// as a valid entry: magic, key, size and SHA-256 all right. Returns "" or
// what went wrong.
std::string plant_poison(const std::string& dir, const std::string& victim_entry, const std::string& evil_entry) {
  auto digest_of = [](const std::string& file_name) {
    dc::Digest d{};
    for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(std::stoi(file_name.substr(2 * i, 2), nullptr, 16));
    return d;
  };
  std::string evil = dctest::read_file(dir + "/" + evil_entry);
  std::string why;
  auto out = dc::decode_cache_entry(reinterpret_cast<const uint8_t*>(evil.data()), evil.size(), digest_of(evil_entry),
                                    &why);
  if (!out) return "the attacker's entry does not decode: " + why;
  std::vector<uint8_t> poison = dc::encode_cache_entry(digest_of(victim_entry), *out);
  std::string path = dir + "/" + victim_entry;
  unlink(path.c_str());
  if (!dctest::write_file(path, std::string(poison.begin(), poison.end()))) return "cannot write " + path;
  chmod(path.c_str(), 0644);
  return "";
}

std::string only_entry_other_than(const std::string& dir, const std::set<std::string>& known) {
  for (const std::string& f : dctest::files_in(dir, ".dcc"))
    if (!known.count(f)) return f;
  return "";
}

TEST_F(TrustBoundaries, ACacheDirectoryOfAnotherUserIsRefusedSoItsPlantedEntryNeverRuns) {
  std::string cache = make_dir("attacker-cache", attacker_, attacker_.gid, 0755);
  std::string victim_source = make_source("victim.cu", kernel("victim_kernel", "*="));
  std::string evil_source = make_source("evil.cu", kernel("evil_kernel", "+="));
  std::vector<std::string> env = {"DCCUDA_CACHE_DIR=" + cache, "DCCUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1"};
  std::string helper = stage_ + "/trust_helper";

  // The victim's own result, compiled with no cache at all.
  auto genuine = run_as(victim_, helper, {"compile", victim_source, "90"}, {"DCCUDA_CACHE_DISABLE=1"});
  if (!have_nvrtc(genuine)) GTEST_SKIP() << "SKIPPED: needs NVRTC to compile (" << genuine["output"] << ")";
  ASSERT_EQ(genuine["compile"], "DC_SUCCESS") << genuine["output"];

  // The attacker compiles both sources in its own directory, then stores its
  // image under the victim's key.
  auto a1 = run_as(attacker_, helper, {"compile", victim_source, "90"}, env);
  ASSERT_EQ(a1["compile"], "DC_SUCCESS") << a1["output"];
  std::string victim_entry = only_entry_other_than(cache, {});
  ASSERT_FALSE(victim_entry.empty()) << "the attacker's compile stored nothing in its own directory";
  auto a2 = run_as(attacker_, helper, {"compile", evil_source, "90"}, env);
  ASSERT_EQ(a2["compile"], "DC_SUCCESS") << a2["output"];
  std::string evil_entry = only_entry_other_than(cache, {victim_entry});
  ASSERT_FALSE(evil_entry.empty());
  ASSERT_EQ(plant_poison(cache, victim_entry, evil_entry), "");

  // The victim, pointed at the attacker's directory, gets its own code.
  auto v = run_as(victim_, helper, {"compile", victim_source, "90"}, env);
  ASSERT_EQ(v["compile"], "DC_SUCCESS") << v["output"];
  EXPECT_EQ(v["image"], genuine["image"]) << "the victim's compile returned the attacker's image (source "
                                          << v["source"] << ": 2 is a disk hit)";
  EXPECT_EQ(v["source"], "0") << "the cache of another user was used";
  EXPECT_EQ(v["cache_dir"], "") << "a directory owned by another user is in use";
  EXPECT_NE(v["warnings"].find("owned by"), std::string::npos) << v["output"];
}

TEST_F(TrustBoundaries, ADirectoryOthersMayWriteIsRefused) {
  std::string helper = stage_ + "/trust_helper";
  struct Case {
    const char* name;
    mode_t mode;
    const char* why;
  };
  for (const Case& c : {Case{"group-writable", 0775, "writable by its group"},
                        Case{"world-writable", 0777, "writable by other users"},
                        Case{"sticky-world-writable", 01777, "writable by other users"}}) {
    SCOPED_TRACE(c.name);
    // The victim's own directory, but the attacker's group may write it.
    std::string dir = make_dir(c.name, victim_, attacker_.gid, c.mode);
    auto v = run_as(victim_, helper, {"driver"}, {"DCCUDA_CACHE_DIR=" + dir, "DCCUDA_DRIVER_LIBRARY=/nonexistent"});
    EXPECT_EQ(v["cache_dir"], "") << "a directory others may write is in use: " << v["output"];
    EXPECT_NE(v["warnings"].find(c.why), std::string::npos) << v["output"];
  }
  // The same directory, private: in use, and no warning.
  std::string ok = make_dir("private", victim_, victim_.gid, 0700);
  auto v = run_as(victim_, helper, {"driver"}, {"DCCUDA_CACHE_DIR=" + ok, "DCCUDA_DRIVER_LIBRARY=/nonexistent"});
  EXPECT_EQ(v["cache_dir"], ok) << v["output"];
  EXPECT_EQ(v["warnings"], "") << v["output"];
}

TEST_F(TrustBoundaries, WhatDccudaCreatesIsPrivateToItsUser) {
  std::string home = make_dir("victim-home", victim_, victim_.gid, 0755);
  std::string cache = home + "/a/b/cache";
  std::string source = make_source("private.cu", kernel("private_kernel", "-="));
  auto v = run_as(victim_, stage_ + "/trust_helper", {"compile", source, "90"},
                  {"DCCUDA_CACHE_DIR=" + cache, "DCCUDA_DRIVER_LIBRARY=/nonexistent"});
  if (!have_nvrtc(v)) GTEST_SKIP() << "SKIPPED: needs NVRTC to compile";
  ASSERT_EQ(v["compile"], "DC_SUCCESS") << v["output"];
  for (const std::string& d : {home + "/a", home + "/a/b", cache}) {
    struct stat st;
    ASSERT_EQ(lstat(d.c_str(), &st), 0) << d;
    EXPECT_EQ(st.st_uid, victim_.uid) << d;
    EXPECT_EQ(st.st_mode & 07777, 0700u) << d << " is not private";
  }
  std::set<std::string> files = dctest::files_in(cache, ".dcc");
  ASSERT_EQ(files.size(), 1u);
  for (const std::string& f : dctest::files_in(cache, "", "")) {
    if (f == "." || f == "..") continue;
    struct stat st;
    ASSERT_EQ(lstat((cache + "/" + f).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << f << " is not private";
  }
}

// A cache shared on purpose by two users: a directory of the victim's that
// the other user's group may write (setgid, so files keep that group), and
// the same key in a 0600 file of each. An entry made by one is a hit for the
// other; an entry planted without the key, authenticated under another key,
// or moved to another key's name is refused.
TEST_F(TrustBoundaries, ASharedCacheAcceptsOnlyEntriesAuthenticatedWithItsKey) {
  std::string shared = make_dir("shared-cache", victim_, attacker_.gid, 02770);
  const std::string key_bytes(32, 'k');
  auto key_file = [&](const User& u, const std::string& name, mode_t mode) {
    std::string path = stage_ + "/" + name;
    dctest::write_file(path, key_bytes);
    EXPECT_EQ(chown(path.c_str(), u.uid, u.gid), 0);
    EXPECT_EQ(chmod(path.c_str(), mode), 0);
    return path;
  };
  std::string victim_key = key_file(victim_, "victim.key", 0600);
  std::string member_key = key_file(attacker_, "member.key", 0600);
  std::string helper = stage_ + "/trust_helper";
  std::string source = make_source("shared.cu", kernel("shared_kernel", "/="));
  std::string other = make_source("other.cu", kernel("other_kernel", "*="));
  auto env = [&](const std::string& key) {
    return std::vector<std::string>{"DCCUDA_CACHE_DIR=" + shared, "DCCUDA_CACHE_KEY_FILE=" + key,
                                    "DCCUDA_DRIVER_LIBRARY=/nonexistent"};
  };

  auto first = run_as(victim_, helper, {"compile", source, "90"}, env(victim_key));
  if (!have_nvrtc(first)) GTEST_SKIP() << "SKIPPED: needs NVRTC to compile";
  ASSERT_EQ(first["compile"], "DC_SUCCESS") << first["output"];
  EXPECT_EQ(first["cache_dir"], shared) << "a shared directory with a key is in use: " << first["output"];
  EXPECT_EQ(first["warnings"], "") << first["output"];
  std::string entry = only_entry_other_than(shared, {});
  ASSERT_FALSE(entry.empty());

  // The other member, holding the key, hits the victim's entry.
  auto member = run_as(attacker_, helper, {"compile", source, "90"}, env(member_key));
  EXPECT_EQ(member["source"], "2") << "the other member missed the shared entry: " << member["output"];
  EXPECT_EQ(member["image"], first["image"]);

  // Entries the victim must refuse: each replaces the real one in turn.
  auto digest_of = [](const std::string& file_name) {
    dc::Digest d{};
    for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(std::stoi(file_name.substr(2 * i, 2), nullptr, 16));
    return d;
  };
  std::string real = dctest::read_file(shared + "/" + entry);
  std::string why;
  auto genuine = dc::decode_cache_entry(reinterpret_cast<const uint8_t*>(real.data()), real.size(), digest_of(entry),
                                        &why, key_bytes);
  ASSERT_NE(genuine, nullptr) << "the stored entry is not authenticated under the key: " << why;
  dc::CompiledOutput evil = *genuine;
  const std::string ptx = ".version 9.0\n.target sm_90\n// the attacker's code\n";
  evil.image.assign(ptx.begin(), ptx.end());
  evil.image.push_back(0);
  evil.kind = DC_OUTPUT_PTX;
  auto bytes = [](const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); };
  // A valid entry of the other source, authenticated under the key, moved to this key's name.
  auto other_compile = run_as(victim_, helper, {"compile", other, "90"}, env(victim_key));
  ASSERT_EQ(other_compile["compile"], "DC_SUCCESS");
  std::string other_entry = only_entry_other_than(shared, {entry});
  ASSERT_FALSE(other_entry.empty());
  struct Planted {
    const char* what;
    std::string contents;
  };
  for (const Planted& p :
       {Planted{"a private (unauthenticated) entry", bytes(dc::encode_cache_entry(digest_of(entry), evil))},
        Planted{"an entry authenticated under another key",
                bytes(dc::encode_cache_entry(digest_of(entry), evil, std::string(32, 'x')))},
        Planted{"another key's authentic entry, renamed", dctest::read_file(shared + "/" + other_entry)}}) {
    SCOPED_TRACE(p.what);
    std::string path = shared + "/" + entry;
    unlink(path.c_str());
    ASSERT_TRUE(dctest::write_file(path, p.contents));
    ASSERT_EQ(chown(path.c_str(), attacker_.uid, attacker_.gid), 0);
    chmod(path.c_str(), 0660);
    auto v = run_as(victim_, helper, {"compile", source, "90"}, env(victim_key));
    EXPECT_EQ(v["source"], "0") << "the victim used " << p.what << ": " << v["output"];
    EXPECT_EQ(v["image"], first["image"]);
  }

  // A key file others may read is refused, and with it the shared directory.
  std::string loose = key_file(victim_, "loose.key", 0644);
  auto v = run_as(victim_, helper, {"driver"}, env(loose));
  EXPECT_EQ(v["cache_dir"], "") << v["output"];
  EXPECT_NE(v["warnings"].find("chmod 600"), std::string::npos) << v["output"];
}

// A set-user-ID program run by the attacker: the environment is the
// attacker's, so it must not choose a library to load or the cache.
TEST_F(TrustBoundaries, ASetUserIdProgramIgnoresLibraryPathsAndTheCacheFromTheEnvironment) {
  std::string setuid_helper = stage_ + "/trust_helper_setuid";
  ASSERT_EQ(copy_file(stage_ + "/trust_helper", setuid_helper, 0755), "");
  ASSERT_EQ(chown(setuid_helper.c_str(), 0, 0), 0);
  ASSERT_EQ(chmod(setuid_helper.c_str(), 04755), 0);
  std::string marks = make_dir("marks", attacker_, attacker_.gid, 0777);
  std::string cuda_home = make_dir("fake-cuda", attacker_, attacker_.gid, 0755);
  mkdir((cuda_home + "/lib64").c_str(), 0755);
  copy_file(stage_ + "/evil.so", cuda_home + "/lib64/libnvrtc.so.13", 0755);
  std::string attacker_cache = make_dir("attacker-cache-2", attacker_, attacker_.gid, 0777);
  auto env_with_mark = [&](const std::string& mark) {
    return std::vector<std::string>{"DCCUDA_DRIVER_LIBRARY=" + stage_ + "/evil.so",
                                    "DCCUDA_NVRTC_LIBRARY=" + stage_ + "/evil.so",
                                    "CUDA_HOME=" + cuda_home, "CUDA_PATH=" + cuda_home,
                                    "DCCUDA_CACHE_DIR=" + attacker_cache, "XDG_CACHE_HOME=" + attacker_cache,
                                    "DCTEST_EVIL_MARK=" + mark};
  };
  // Control: the plain program run by the attacker does load the attacker's
  // library (with the attacker's own rights), so the setup is right.
  std::string plain_mark = marks + "/plain";
  auto plain = run_as(attacker_, stage_ + "/trust_helper", {"driver"}, env_with_mark(plain_mark));
  ASSERT_EQ(dctest::read_file(plain_mark), "ran with euid " + std::to_string(attacker_.uid) + "\n")
      << "the unprivileged control did not load the attacker's library: " << plain["output"];

  std::string setuid_mark = marks + "/setuid";
  auto s = run_as(attacker_, setuid_helper, {"driver"}, env_with_mark(setuid_mark));
  if (s["euid"] != "0")
    GTEST_SKIP() << "SKIPPED: the set-user-ID bit had no effect here (a nosuid mount?): " << s["output"];
  EXPECT_EQ(s["uid"], std::to_string(attacker_.uid));
  EXPECT_EQ(dctest::read_file(setuid_mark), "") << "the attacker's library ran inside the set-user-ID program";
  EXPECT_EQ(s["cache_dir"], "") << "the attacker's environment chose the cache of a privileged process";
  for (const char* v : {"DCCUDA_DRIVER_LIBRARY", "DCCUDA_NVRTC_LIBRARY", "DCCUDA_CACHE_DIR", "CUDA_HOME"})
    EXPECT_NE(s["warnings"].find(v), std::string::npos) << "the warnings do not say that " << v << " is ignored: "
                                                         << s["output"];
}

}  // namespace
