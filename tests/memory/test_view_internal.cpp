// White-box: a view hands the stream it last used to its root buffer when it
// dies, so that the root's memory is freed in order on that stream (work the
// view enqueued finishes first), even when the root's own handle went first.
#include "core/handle_table.h"
#include "memory/buffer.h"
#include "memory/memory_test.h"
#include "stream/stream.h"

namespace {

using namespace memtest;

class ViewInternalTest : public MemoryTest {};

TEST_F(ViewInternalTest, TheRootFreesOnTheStreamItsLastViewUsed) {
  dc_buffer parent = alloc(4096), v = nullptr;
  dc_stream s = stream();
  ASSERT_DC_OK(dc_buffer_view(parent, 1024, 1024, &v));
  dc::Pinned<dc::Buffer> root = dc::pin<dc::Buffer>(parent, "parent");
  dc::Pinned<dc::Stream> st = dc::pin<dc::Stream>(s, "s");
  EXPECT_EQ(root->last_stream(), nullptr);
  ASSERT_DC_OK(dc_buffer_fill_async(v, 0, 1024, 7, 4, s));
  // The view noted the stream; the root learns it when the view dies.
  EXPECT_EQ(root->last_stream(), nullptr);
  dc_buffer_release(v);
  EXPECT_EQ(root->last_stream(), st.get());
  ASSERT_DC_OK(dc_stream_synchronize(s));
  st = dc::Pinned<dc::Stream>();
  root = dc::Pinned<dc::Buffer>();
  dc_stream_release(s);
  dc_buffer_release(parent);
}

}  // namespace
