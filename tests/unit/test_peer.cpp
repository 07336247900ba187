// Peer access between devices. Needs two devices: two fake ones in CI (and a
// run with DCFAKE_NO_PEER=1 where the topology allows no peer access), two
// real GPUs on a multi-GPU machine.
#include <gtest/gtest.h>

#include <cstdlib>

#include "dccuda.h"
#include "support/fake.h"

namespace {

bool peer_forbidden() {
  const char* v = std::getenv("DCFAKE_NO_PEER");
  return v && *v == '1';
}

class PeerTest : public testing::Test {
 protected:
  void SetUp() override {
    if (dctest::device_count() < 2) GTEST_SKIP() << "needs two devices";
    ASSERT_DC_OK(dc_device_open(0, &a_));
    ASSERT_DC_OK(dc_device_open(1, &b_));
  }
  void TearDown() override {
    dc_device_release(a_);
    dc_device_release(b_);
    EXPECT_EQ(dctest::live_handles(), 0u);
  }
  dc_device a_ = nullptr, b_ = nullptr;
};

TEST_F(PeerTest, SelfAccessIsAlwaysThere) {
  int32_t can = 0;
  ASSERT_DC_OK(dc_device_can_access_peer(a_, a_, &can));
  EXPECT_EQ(can, 1);
  EXPECT_DC_OK(dc_device_enable_peer_access(a_, a_));
  EXPECT_DC_OK(dc_device_disable_peer_access(a_, a_));
  int32_t v = 9;
  EXPECT_DC_ERROR(dc_device_peer_attribute(a_, a_, DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED, &v), DC_ERROR_INVALID_ARGUMENT,
                  "both device 0");
  EXPECT_EQ(v, 0);
}

TEST_F(PeerTest, EnableAndDisableAreIdempotent) {
  int32_t can = -1;
  ASSERT_DC_OK(dc_device_can_access_peer(a_, b_, &can));
  if (!can) GTEST_SKIP() << "these devices have no peer-to-peer path";
  ASSERT_DC_OK(dc_device_enable_peer_access(a_, b_));
  EXPECT_DC_OK(dc_device_enable_peer_access(a_, b_));
  ASSERT_DC_OK(dc_device_enable_peer_access(b_, a_));
  EXPECT_DC_OK(dc_device_disable_peer_access(a_, b_));
  EXPECT_DC_OK(dc_device_disable_peer_access(a_, b_));
  EXPECT_DC_OK(dc_device_disable_peer_access(b_, a_));
}

TEST_F(PeerTest, Attributes) {
  int32_t supported = -1, rank = -1, atomics = -1, can = -1;
  ASSERT_DC_OK(dc_device_can_access_peer(a_, b_, &can));
  ASSERT_DC_OK(dc_device_peer_attribute(a_, b_, DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED, &supported));
  ASSERT_DC_OK(dc_device_peer_attribute(a_, b_, DC_PEER_ATTRIBUTE_PERFORMANCE_RANK, &rank));
  ASSERT_DC_OK(dc_device_peer_attribute(a_, b_, DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, &atomics));
  EXPECT_EQ(supported, can);
  EXPECT_GE(rank, 0);
  EXPECT_TRUE(atomics == 0 || atomics == 1);
  int32_t v = 5;
  EXPECT_DC_ERROR(dc_device_peer_attribute(a_, b_, 77, &v), DC_ERROR_INVALID_ARGUMENT, "attribute 77");
  EXPECT_DC_ERROR(dc_device_peer_attribute(a_, b_, 1, nullptr), DC_ERROR_INVALID_ARGUMENT, "value is NULL");
}

TEST_F(PeerTest, PoolMemoryIsSharedWithThePeer) {
  REQUIRE_FAKE_DRIVER();
  if (peer_forbidden()) GTEST_SKIP() << "needs peer access";
  auto* fake = dctest::fake_driver();
  fake->reset();
  ASSERT_DC_OK(dc_device_enable_peer_access(a_, b_));
  // b's stream-ordered pool grants a access (memory from pools does not follow
  // the contexts' peer access by itself).
  EXPECT_EQ(fake->call_count("cuMemPoolSetAccess"), 1);
  ASSERT_DC_OK(dc_device_disable_peer_access(a_, b_));
  EXPECT_EQ(fake->call_count("cuMemPoolSetAccess"), 2);
}

TEST_F(PeerTest, NoPeerPathIsNotSupportedWithAnExplanation) {
  if (!peer_forbidden()) GTEST_SKIP() << "runs with DCFAKE_NO_PEER=1";
  int32_t can = -1;
  ASSERT_DC_OK(dc_device_can_access_peer(a_, b_, &can));
  EXPECT_EQ(can, 0);
  EXPECT_DC_ERROR(dc_device_enable_peer_access(a_, b_), DC_ERROR_NOT_SUPPORTED, "staged through host memory");
}

// A pool of the caller's own grants another device access (cuMemPoolSetAccess)
// where the devices can reach each other, and says why not where they cannot.
TEST_F(PeerTest, APoolGrantsAnotherDeviceAccess) {
  dc_pool pool = nullptr;
  ASSERT_DC_OK(dc_pool_create(a_, 0, 0, &pool));
  dc_stream other = nullptr;
  ASSERT_DC_OK(dc_stream_create(b_, 0, 0, &other));
  dc_buffer buffer = nullptr;
  EXPECT_DC_ERROR(dc_buffer_alloc_from_pool(pool, other, 64, &buffer), DC_ERROR_INVALID_ARGUMENT,
                  "stream belongs to device 1, the pool to device 0");
  if (peer_forbidden()) {
    EXPECT_DC_ERROR(dc_pool_set_access(pool, b_, 1), DC_ERROR_NOT_SUPPORTED,
                    "device 1 cannot access device 0's memory");
  } else {
    // b reaches the pool's memory: a kernel on b may use it once b's context has peer access too.
    ASSERT_DC_OK(dc_pool_set_access(pool, b_, 1));
    ASSERT_DC_OK(dc_buffer_alloc_from_pool(pool, nullptr, 4096, &buffer));
    ASSERT_DC_OK(dc_device_enable_peer_access(b_, a_));
    dc_buffer on_b = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc(b_, 4096, 0, &on_b));
    ASSERT_DC_OK(dc_buffer_fill(buffer, 0, 4096, 0x5a, 1));
    ASSERT_DC_OK(dc_buffer_copy_async(on_b, 0, buffer, 0, 4096, other));
    ASSERT_DC_OK(dc_stream_synchronize(other));
    uint8_t back[4096] = {};
    ASSERT_DC_OK(dc_buffer_read(on_b, 0, back, sizeof back));
    EXPECT_EQ(back[0], 0x5a);
    EXPECT_EQ(back[4095], 0x5a);
    ASSERT_DC_OK(dc_device_disable_peer_access(b_, a_));
    ASSERT_DC_OK(dc_pool_set_access(pool, b_, 0));
    dc_buffer_release(on_b);
    dc_buffer_release(buffer);
  }
  dc_stream_release(other);
  dc_pool_release(pool);
}

TEST_F(PeerTest, HandleMisuse) {
  int32_t can = 0;
  EXPECT_DC_ERROR(dc_device_can_access_peer(a_, nullptr, &can), DC_ERROR_INVALID_HANDLE, "peer is NULL");
  EXPECT_DC_ERROR(dc_device_can_access_peer(a_, b_, nullptr), DC_ERROR_INVALID_ARGUMENT, "can_access is NULL");
  dc_device gone = nullptr;
  ASSERT_DC_OK(dc_device_open(1, &gone));
  dc_device_release(gone);
  EXPECT_DC_ERROR(dc_device_enable_peer_access(a_, gone), DC_ERROR_INVALID_HANDLE, "peer");
  EXPECT_DC_ERROR(dc_device_disable_peer_access(gone, a_), DC_ERROR_INVALID_HANDLE, "device");
}

TEST_F(PeerTest, InjectedDriverFailureIsReported) {
  REQUIRE_FAKE_DRIVER();
  if (peer_forbidden()) GTEST_SKIP() << "needs peer access";
  dctest::fake_driver()->inject("cuCtxEnablePeerAccess", 1, 2 /* out of memory */, 1);
  EXPECT_DC_ERROR(dc_device_enable_peer_access(a_, b_), DC_ERROR_OUT_OF_MEMORY, "cuCtxEnablePeerAccess");
  EXPECT_DC_OK(dc_device_enable_peer_access(a_, b_));
  EXPECT_DC_OK(dc_device_disable_peer_access(a_, b_));
}

}  // namespace
