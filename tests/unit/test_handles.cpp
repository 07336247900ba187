// The handle table (white-box): stale, forged and mistyped handles are
// refused without being dereferenced; release while in use is safe.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "core/handle_table.h"

namespace {

std::atomic<int> g_destroyed{0};

struct Thing : dc::Object {
  static constexpr dc::HandleType kHandleType = dc::HandleType::Buffer;
  Thing() : Object(kHandleType) {}
  ~Thing() override { g_destroyed.fetch_add(1); }
  int value = 42;
};

struct Other : dc::Object {
  static constexpr dc::HandleType kHandleType = dc::HandleType::Stream;
  Other() : Object(kHandleType) {}
};

uint64_t issue(dc::Object* o) {
  uint64_t h = dc::HandleTable::insert(o);
  o->unref();  // the table holds the only reference now
  return h;
}

TEST(HandleTable, PinUnpinAndClose) {
  int before = g_destroyed.load();
  uint64_t h = issue(new Thing);
  EXPECT_NE(h, 0u);
  auto p = dc::try_pin<Thing>(reinterpret_cast<void*>(h));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->value, 42);
  EXPECT_TRUE(dc::HandleTable::close(h, dc::HandleType::Buffer));
  EXPECT_EQ(g_destroyed.load(), before) << "still pinned: not destroyed yet";
  EXPECT_FALSE(dc::try_pin<Thing>(reinterpret_cast<void*>(h))) << "closed handles cannot be pinned again";
  p.reset();
  EXPECT_EQ(g_destroyed.load(), before + 1);
  EXPECT_FALSE(dc::HandleTable::close(h, dc::HandleType::Buffer)) << "double close is refused quietly";
}

TEST(HandleTable, StaleHandleDoesNotSeeTheSlotsNextObject) {
  uint64_t h1 = issue(new Thing);
  ASSERT_TRUE(dc::HandleTable::close(h1, dc::HandleType::Buffer));
  // Churn so the slot gets reused.
  std::vector<uint64_t> hs;
  for (int i = 0; i < 5000; ++i) hs.push_back(issue(new Thing));
  EXPECT_FALSE(dc::try_pin<Thing>(reinterpret_cast<void*>(h1)));
  for (uint64_t h : hs) EXPECT_TRUE(dc::HandleTable::close(h, dc::HandleType::Buffer));
}

// A handle carries 24 bits of its slot's generation. A slot released and
// reissued 2^24 times came back to the generation of its first handle: a
// stale handle then named the new object (a write through it overwrote the new
// buffer; releasing it released the new owner's). The slot is retired instead
// once every generation has been used. About a second in a release build.
TEST(HandleTable, AStaleHandleNeverComesBackAfterItsSlotIsReused2To24Times) {
  auto index_of = [](uint64_t h) { return static_cast<uint32_t>(h); };
  Thing* thing = new Thing;  // one object, handed out again and again (insert retains it)
  uint64_t stale = dc::HandleTable::insert(thing);
  ASSERT_TRUE(dc::HandleTable::close(stale, dc::HandleType::Buffer));
  // Take every other free slot, so that the stale handle's slot is the only
  // one the table reuses.
  std::vector<uint64_t> held;
  uint64_t h = dc::HandleTable::insert(thing);
  for (int i = 0; index_of(h) != index_of(stale) && i < 1000000; ++i) {
    held.push_back(h);
    h = dc::HandleTable::insert(thing);
  }
  ASSERT_EQ(index_of(h), index_of(stale)) << "the stale handle's slot was never reused";
  constexpr uint64_t kGenerations = uint64_t(1) << 24;
  uint64_t reused = 1;  // h is the slot's first reuse
  for (;;) {
    ASSERT_NE(h, stale) << "after " << reused << " reuses, a new handle equals the released one";
    ASSERT_TRUE(dc::HandleTable::close(h, dc::HandleType::Buffer));
    h = dc::HandleTable::insert(thing);
    if (index_of(h) != index_of(stale)) break;  // the slot was retired
    ++reused;
  }
  // Retired once it has used its 2^24 generations (fewer reuses after the
  // stale handle when the slot served other handles before it).
  EXPECT_LE(reused, kGenerations - 1);
  EXPECT_FALSE(dc::try_pin<Thing>(reinterpret_cast<void*>(stale))) << "the stale handle names an object";
  EXPECT_TRUE(dc::HandleTable::close(h, dc::HandleType::Buffer));
  for (uint64_t k : held) EXPECT_TRUE(dc::HandleTable::close(k, dc::HandleType::Buffer));
  thing->unref();
}

TEST(HandleTable, WrongTypeAndGarbageAreRefused) {
  uint64_t h = issue(new Thing);
  EXPECT_FALSE(dc::try_pin<Other>(reinterpret_cast<void*>(h)));
  EXPECT_FALSE(dc::HandleTable::close(h, dc::HandleType::Stream));
  // A handle whose type bits claim Stream but that names the Thing's slot.
  uint64_t forged = (h & ~(0xFFull << 56)) | (uint64_t(dc::HandleType::Stream) << 56);
  EXPECT_FALSE(dc::try_pin<Other>(reinterpret_cast<void*>(forged)));
  for (uint64_t garbage : {uint64_t(1), uint64_t(0xdeadbeef), uint64_t(0x0200000000000000), ~uint64_t(0),
                           uint64_t(0x02FFFFFF7FFFFFFF)}) {
    EXPECT_FALSE(dc::try_pin<Thing>(reinterpret_cast<void*>(garbage))) << std::hex << garbage;
  }
  EXPECT_FALSE(dc::try_pin<Thing>(nullptr));
  EXPECT_TRUE(dc::HandleTable::close(h, dc::HandleType::Buffer));
}

TEST(HandleTable, LiveCountFollowsOpenHandles) {
  uint64_t before = dc::HandleTable::live_count(dc::HandleType::Buffer);
  uint64_t a = issue(new Thing), b = issue(new Thing);
  EXPECT_EQ(dc::HandleTable::live_count(dc::HandleType::Buffer), before + 2);
  dc::HandleTable::close(a, dc::HandleType::Buffer);
  dc::HandleTable::close(a, dc::HandleType::Buffer);
  EXPECT_EQ(dc::HandleTable::live_count(dc::HandleType::Buffer), before + 1);
  dc::HandleTable::close(b, dc::HandleType::Buffer);
  EXPECT_EQ(dc::HandleTable::live_count(dc::HandleType::Buffer), before);
}

TEST(HandleTable, ConcurrentReleaseAndUse) {
  // Many threads pin a handle while one closes it: every pin either succeeds
  // and sees a live object, or fails; the object is destroyed exactly once.
  for (int round = 0; round < 200; ++round) {
    int before = g_destroyed.load();
    uint64_t h = issue(new Thing);
    std::atomic<bool> go{false};
    std::atomic<int> bad{0};
    std::vector<std::thread> users;
    for (int t = 0; t < 4; ++t) {
      users.emplace_back([&] {
        while (!go.load()) {
        }
        for (int i = 0; i < 200; ++i) {
          auto p = dc::try_pin<Thing>(reinterpret_cast<void*>(h));
          if (p && p->value != 42) bad.fetch_add(1);
        }
      });
    }
    std::thread closer([&] {
      while (!go.load()) {
      }
      dc::HandleTable::close(h, dc::HandleType::Buffer);
    });
    go.store(true);
    for (auto& u : users) u.join();
    closer.join();
    EXPECT_EQ(bad.load(), 0);
    EXPECT_EQ(g_destroyed.load(), before + 1);
  }
}

}  // namespace
