// White-box tests of the compile layer's pieces: SHA-256, the cache entry
// format (every damaged byte is caught), log parsing, version tables and the
// include scan of the cache key.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "compile/arch.h"
#include "compile/compile_request.h"
#include "core/error.h"
#include "loader/nvrtc.h"
#include "compile/cache_entry.h"
#include "compile/cache_key.h"
#include "compile/include_scan.h"
#include "compile/nvrtc_compile.h"
#include "compile/sha256.h"
#include "compile/sha256_blocks.h"
#include "platform/file_lock.h"

namespace {

std::string hex_of(const std::string& s) { return dc::to_hex(dc::sha256(s.data(), s.size())); }

TEST(Sha256, KnownVectors) {
  // FIPS 180-4 examples.
  EXPECT_EQ(hex_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex_of(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data += static_cast<char>(i * 31 + 7);
  for (size_t split : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 127u, 500u, 1000u}) {
    dc::Sha256 h;
    h.update(data.data(), split);
    h.update(data.data() + split, data.size() - split);
    EXPECT_EQ(dc::to_hex(h.finish()), hex_of(data)) << split;
  }
}

// The SHA extensions' compression against the portable one: the same state
// for the same blocks, from several starting states and block counts.
TEST(Sha256, HardwareBlocksEqualPortable) {
  dc::sha256_blocks::Compress hardware = dc::sha256_blocks::hardware();
  if (!hardware) GTEST_SKIP() << "this CPU has no SHA extensions: only the portable compression runs here";
  std::vector<uint8_t> data(64 * 40);
  uint32_t x = 0x12345678;
  for (uint8_t& b : data) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(x >> 24);
  }
  for (size_t count : {1u, 2u, 3u, 17u, 40u}) {
    for (uint32_t seed : {0u, 7u, 0xffffffffu}) {
      uint32_t a[8], b[8];
      for (int i = 0; i < 8; ++i) a[i] = b[i] = seed * 2654435761u + static_cast<uint32_t>(i) * 0x9e3779b9u;
      dc::sha256_blocks::portable(a, data.data(), count);
      hardware(b, data.data(), count);
      EXPECT_EQ(std::vector<uint32_t>(a, a + 8), std::vector<uint32_t>(b, b + 8)) << count << " blocks, seed " << seed;
    }
  }
  EXPECT_EQ(dc::sha256_blocks::chosen(), hardware);
}

// glibc's record of CPUID, read through its layout as dccuda declares it,
// says what CPUID itself says.
TEST(Sha256, GlibcRecordAgreesWithCpuid) {
  int glibc = dc::sha256_blocks::glibc_says_sha();
  if (glibc < 0) GTEST_SKIP() << "no glibc record of CPUID here (glibc older than 2.33, or not x86)";
  EXPECT_EQ(glibc == 1, dc::sha256_blocks::cpuid_says_sha());
}

TEST(Sha256, FieldsAreLengthPrefixed) {
  dc::Sha256 a, b;
  a.field("ab");
  a.field("c");
  b.field("a");
  b.field("bc");
  EXPECT_NE(a.finish(), b.finish());
}

dc::CompiledOutput sample_output() {
  dc::CompiledOutput o;
  o.kind = DC_OUTPUT_PTX;
  o.arch = 90;
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n";
  o.image.assign(ptx.begin(), ptx.end());
  o.image.push_back(0);
  o.log = "a warning";
  o.lowered_names = {{"f<int>", "_Z1fIiEvv"}, {"g", "g"}};
  return o;
}

TEST(CacheEntry, RoundTrip) {
  dc::Digest key = dc::sha256("key", 3);
  dc::CompiledOutput o = sample_output();
  std::vector<uint8_t> bytes = dc::encode_cache_entry(key, o);
  std::string why;
  auto back = dc::decode_cache_entry(bytes.data(), bytes.size(), key, &why);
  ASSERT_NE(back, nullptr) << why;
  EXPECT_EQ(back->kind, o.kind);
  EXPECT_EQ(back->arch, o.arch);
  EXPECT_EQ(back->image, o.image);
  EXPECT_EQ(back->log, o.log);
  EXPECT_EQ(back->lowered_names, o.lowered_names);
}

TEST(CacheEntry, EveryFlippedByteAndEveryTruncationIsDetected) {
  dc::Digest key = dc::sha256("key", 3);
  std::vector<uint8_t> good = dc::encode_cache_entry(key, sample_output());
  for (size_t i = 0; i < good.size(); ++i) {
    if (i >= 88 && i < 96) continue;  // the reserved header bytes carry nothing
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0x01;
    EXPECT_EQ(dc::decode_cache_entry(bad.data(), bad.size(), key, nullptr), nullptr) << "flipped byte " << i;
  }
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_EQ(dc::decode_cache_entry(good.data(), n, key, nullptr), nullptr) << "truncated to " << n;
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_EQ(dc::decode_cache_entry(longer.data(), longer.size(), key, nullptr), nullptr);
  dc::Digest other = dc::sha256("other", 5);
  std::string why;
  EXPECT_EQ(dc::decode_cache_entry(good.data(), good.size(), other, &why), nullptr);
  EXPECT_NE(why.find("another key"), std::string::npos) << why;
}

// RFC 4231, test cases 1, 2 and 6 (a key longer than the block is hashed first).
TEST(Sha256, HmacKnownVectors) {
  EXPECT_EQ(dc::to_hex(dc::hmac_sha256(std::string(20, '\x0b'), {"Hi There"})),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(dc::to_hex(dc::hmac_sha256("Jefe", {"what do ya want ", "for nothing?"})),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(dc::to_hex(dc::hmac_sha256(std::string(131, '\xaa'),
                                       {"Test Using Larger Than Block-Size Key - Hash Key First"})),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

// A shared cache's entries: authenticated over header and payload, so any
// change, another key, or a private entry is refused.
TEST(CacheEntry, AuthenticatedEntriesNeedTheirKey) {
  const std::string mac(32, 'k');
  dc::Digest key = dc::sha256("key", 3);
  std::vector<uint8_t> good = dc::encode_cache_entry(key, sample_output(), mac);
  std::string why;
  ASSERT_NE(dc::decode_cache_entry(good.data(), good.size(), key, &why, mac), nullptr) << why;
  EXPECT_TRUE(dc::cache_entry_header_fits(good.data(), good.size(), key, UINT64_MAX, &why, mac)) << why;
  for (size_t i = 0; i < good.size(); ++i) {
    if (i >= 88 && i < 96) continue;
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0x01;
    EXPECT_EQ(dc::decode_cache_entry(bad.data(), bad.size(), key, nullptr, mac), nullptr) << "flipped byte " << i;
  }
  EXPECT_EQ(dc::decode_cache_entry(good.data(), good.size(), key, &why, std::string(32, 'x')), nullptr);
  EXPECT_NE(why.find("authentication failed"), std::string::npos) << why;
  EXPECT_EQ(dc::decode_cache_entry(good.data(), good.size(), key, &why), nullptr) << "read as a private entry";
  std::vector<uint8_t> plain = dc::encode_cache_entry(key, sample_output());
  EXPECT_EQ(dc::decode_cache_entry(plain.data(), plain.size(), key, &why, mac), nullptr);
  EXPECT_NE(why.find("not authenticated"), std::string::npos) << why;
  // A header rewritten to another key, with the payload's own SHA-256 put
  // back: the MAC still holds the first key.
  std::vector<uint8_t> rekeyed = good;
  dc::Digest other = dc::sha256("other", 5);
  std::copy(other.begin(), other.end(), rekeyed.begin() + 16);
  EXPECT_EQ(dc::decode_cache_entry(rekeyed.data(), rekeyed.size(), other, &why, mac), nullptr);
}

// The entry lock of the disk cache: a waiter gives a live holder no more
// than its limit, and gets the lock once the holder lets go.
TEST(FileLock, AWaiterGivesUpAtItsLimitAndGetsTheLockOnceFree) {
  char dir[] = "/tmp/dccuda-lock-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dir_fd, 0);
  using Outcome = dc::platform::FileLock::Outcome;
  Outcome outcome;
  // The holder: another open file description (flock conflicts between them,
  // as between processes).
  dc::platform::FileLock holder =
      dc::platform::FileLock::acquire(dir_fd, "k.lock", 0600, std::chrono::milliseconds(0), &outcome);
  ASSERT_TRUE(holder.held());
  EXPECT_EQ(outcome, Outcome::kAcquired);
  dc::platform::FileLock waiter =
      dc::platform::FileLock::acquire(dir_fd, "k.lock", 0600, std::chrono::milliseconds(50), &outcome);
  EXPECT_FALSE(waiter.held());
  EXPECT_EQ(outcome, Outcome::kTimedOut);
  holder.remove_and_release(dir_fd, "k.lock");
  waiter = dc::platform::FileLock::acquire(dir_fd, "k.lock", 0600, std::chrono::milliseconds(50), &outcome);
  EXPECT_TRUE(waiter.held());
  EXPECT_EQ(outcome, Outcome::kAcquired);
  // Never through a link, never a FIFO.
  symlinkat("/etc/passwd", dir_fd, "link.lock");
  mkfifoat(dir_fd, "fifo.lock", 0600);
  for (const char* name : {"link.lock", "fifo.lock"}) {
    dc::platform::FileLock bad =
        dc::platform::FileLock::acquire(dir_fd, name, 0600, std::chrono::milliseconds(0), &outcome);
    EXPECT_FALSE(bad.held()) << name;
    EXPECT_EQ(outcome, Outcome::kFailed) << name;
  }
  waiter.remove_and_release(dir_fd, "k.lock");
  for (const char* name : {"link.lock", "fifo.lock"}) unlinkat(dir_fd, name, 0);
  close(dir_fd);
  EXPECT_EQ(rmdir(dir), 0) << "something was left in the directory";
}

TEST(CompileLog, FirstErrorLine) {
  EXPECT_EQ(dc::first_error_line("a.cu(3): warning #1: w\n  code\na.cu(7): error: bad thing\n  code\n1 error"),
            "a.cu(7): error: bad thing");
  EXPECT_EQ(dc::first_error_line("\n\nnvrtc: something odd\n"), "nvrtc: something odd");
  EXPECT_EQ(dc::first_error_line(""), "");
  std::string longline = "error: " + std::string(1000, 'x');
  EXPECT_LT(dc::first_error_line(longline).size(), 500u);
}

TEST(Versions, PtxIsaOfText) {
  const char* ptx = "//\n// Generated\n//\n\n.version 8.4\n.target sm_90\n";
  EXPECT_EQ(dc::ptx_isa_version(ptx, std::strlen(ptx)), 84);
  const char* none = ".target sm_90\n";
  EXPECT_EQ(dc::ptx_isa_version(none, std::strlen(none)), 0);
  const char* cut = ".version 9.";
  EXPECT_EQ(dc::ptx_isa_version(cut, std::strlen(cut)), 0);
}

TEST(Versions, DriverPtxTable) {
  EXPECT_EQ(dc::driver_max_ptx_isa(12000), 80);
  EXPECT_EQ(dc::driver_max_ptx_isa(12040), 84);
  EXPECT_EQ(dc::driver_max_ptx_isa(12060), 85);
  EXPECT_EQ(dc::driver_max_ptx_isa(12080), 87);
  EXPECT_EQ(dc::driver_max_ptx_isa(13000), 90);
  EXPECT_EQ(dc::driver_max_ptx_isa(0), 0) << "no driver: no limit claimed";
  EXPECT_EQ(dc::driver_max_ptx_isa(99000), 0) << "a driver newer than the table: no limit claimed";
}

TEST(CacheKey, IncludeScanFollowsIncludesAndIgnoresInMemoryHeaders) {
  char dir[] = "/tmp/dccuda-scan-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string d = dir;
  mkdir((d + "/sub").c_str(), 0700);
  std::ofstream(d + "/a.h") << "#include \"sub/b.h\"\n#include <memory_only.h>\n";
  std::ofstream(d + "/sub/b.h") << "#pragma once\n  #  include \"c.h\"\n";  // c.h relative to sub/
  std::ofstream(d + "/sub/c.h") << "#define C 1\n";
  std::ofstream(d + "/unused.h") << "#define U 1\n";
  dc::CompileRequest r;
  r.source = "#include <a.h>\n#include <missing.h>\n";
  r.include_paths = {d};
  r.header_names = {"memory_only.h"};
  r.header_sources = {"#include \"sub/c.h\"\n"};  // resolved through the include path
  std::vector<dc::IncludedFile> files = dc::scan_includes(r);
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.path);
  EXPECT_EQ(paths, (std::vector<std::string>{d + "/a.h", d + "/sub/b.h", d + "/sub/c.h"}));
  dc::CacheKey k1 = dc::make_cache_key(r, 13, 0, 13000);
  dc::CacheKey same = dc::make_cache_key(r, 13, 0, 13000);
  EXPECT_EQ(k1.hex, same.hex);
  EXPECT_EQ(k1.hex.size(), 64u);
  std::ofstream(d + "/sub/c.h") << "#define C 2\n";
  EXPECT_NE(dc::make_cache_key(r, 13, 0, 13000).hex, k1.hex) << "a nested header's content is in the key";
  std::ofstream(d + "/unused.h") << "#define U 2\n";
  dc::CacheKey k2 = dc::make_cache_key(r, 13, 0, 13000);
  std::ofstream(d + "/unused.h") << "#define U 3\n";
  EXPECT_EQ(dc::make_cache_key(r, 13, 0, 13000).hex, k2.hex) << "files that are not included do not matter";
  EXPECT_NE(dc::make_cache_key(r, 13, 0, 12080).hex, k2.hex) << "the driver version is in the key";
  EXPECT_NE(dc::make_cache_key(r, 12, 9, 13000).hex, k2.hex) << "the NVRTC version is in the key";
  for (const char* f : {"/a.h", "/sub/b.h", "/sub/c.h", "/unused.h"}) std::remove((d + f).c_str());
  rmdir((d + "/sub").c_str());
  rmdir(dir);
}

TEST(CacheKey, AnOldHeaderIsRememberedUntilItChanges) {
  char dir[] = "/tmp/dccuda-scan-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string header = std::string(dir) + "/old.h";
  std::ofstream(header) << "#define OLD 1\n";
  // Modified an hour ago: its digest is remembered after the first read.
  struct timespec times[2] = {{time(nullptr) - 3600, 0}, {time(nullptr) - 3600, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, header.c_str(), times, 0), 0);
  dc::CompileRequest r;
  r.source = "#include \"old.h\"\n";
  r.include_paths = {dir};
  std::string first = dc::make_cache_key(r, 13, 0, 0).hex;
  EXPECT_EQ(dc::make_cache_key(r, 13, 0, 0).hex, first);
  std::ofstream(header) << "#define OLD 2\n";  // a write moves the modification time
  EXPECT_NE(dc::make_cache_key(r, 13, 0, 0).hex, first) << "a remembered digest outlived its file";
  std::remove(header.c_str());
  EXPECT_NE(dc::make_cache_key(r, 13, 0, 0).hex, first) << "a deleted header still counted";
  rmdir(dir);
}

TEST(Architecture, ADeviceNewerThanNvrtcGetsTheNewestCodeItRuns) {
  if (dc::nvrtc_state().status != DC_SUCCESS)
    GTEST_SKIP() << "needs NVRTC, not found: " << dc::nvrtc_state().message;
  const std::vector<int32_t>& supported = dc::nvrtc_supported_archs();
  if (supported.empty()) GTEST_SKIP() << "this NVRTC cannot list its targets";
  int32_t newest = supported.back();
  int32_t next_major = (newest / 10 + 1) * 10;  // a device no NVRTC here knows
  dc::CompileRequest r;
  r.device_ordinal = 0;
  r.output = DC_OUTPUT_PTX;
  r.arch = next_major + 5;
  EXPECT_TRUE(dc::settle_arch(r));
  EXPECT_EQ(r.arch, newest) << "PTX of the newest architecture; the driver JIT-compiles it";
  r.output = DC_OUTPUT_CUBIN;
  r.arch = next_major + 5;
  EXPECT_THROW(dc::settle_arch(r), dc::Failure) << "no CUBIN of another major version runs on the device";
  EXPECT_NE(dc::thread_error().message.find("DC_OUTPUT_PTX"), std::string::npos) << dc::thread_error().message;
  r.arch = newest + 1;  // a newer minor of a known major: the CUBIN of that major runs
  if (newest % 10 != 9 && !std::binary_search(supported.begin(), supported.end(), r.arch)) {
    EXPECT_TRUE(dc::settle_arch(r));
    EXPECT_EQ(r.arch, newest);
  }
  r.arch = newest;
  EXPECT_FALSE(dc::settle_arch(r)) << "a supported architecture is kept";
  r.device_ordinal = -1;  // asked for explicitly: never replaced
  r.arch = next_major + 5;
  EXPECT_THROW(dc::settle_arch(r), dc::Failure);
  EXPECT_EQ(dc::thread_error().status, DC_ERROR_NOT_SUPPORTED);
}

}  // namespace
