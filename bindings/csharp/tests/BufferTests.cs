// Buffers: Span<T> round trips, offsets, buffer-to-buffer copies, fills, pinned, managed and
// registered memory, stream-ordered copies, and the bounds errors.
using System;
using System.Runtime.InteropServices;
using Xunit;

namespace Dccuda.Tests
{
    [StructLayout(LayoutKind.Sequential)]
    internal struct Particle
    {
        public float X, Y, Z;
        public int Id;
    }

    internal struct HoldsAReference
    {
        public string Name;
    }

    public sealed class BufferTests
    {
        private static float[] Ramp(int n, float scale)
        {
            var a = new float[n];
            for (int i = 0; i < n; i++)
                a[i] = (i - n / 3) * scale;
            return a;
        }

        [Fact]
        public void CopiesEnqueuedInOneBatch()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream stream = d.CreateStream())
            using (DeviceBuffer<float> a = d.Allocate<float>(1000))
            using (DeviceBuffer<float> b = d.Allocate<float>(1000))
            {
                float[] data = Ramp(1000, 0.5f);
                a.CopyFrom(data);
                b.CopyFrom(new float[1000]);
                DeviceBuffer.EnqueueCopyBatch(new[] { new BufferCopy(b, 0, a, 400, 400), new BufferCopy(b, 2000, a, 0, 400) }, stream);
                stream.Synchronize();
                float[] got = b.ToArray();
                for (int i = 0; i < 100; i++)
                {
                    Expect.Equal(data[100 + i], got[i], "copy 0, element " + i);
                    Expect.Equal(data[i], got[500 + i], "copy 1, element " + i);
                }
                // Copies that depend on each other are refused, naming both; nothing runs.
                Expect.Throws(DcStatus.InvalidArgument,
                              () => DeviceBuffer.EnqueueCopyBatch(new[] { new BufferCopy(b, 0, a, 0, 100), new BufferCopy(a, 2000, b, 40, 100) }, stream),
                              "dependent copies", "ops[0] and ops[1] overlap");
                DeviceBuffer.EnqueueCopyBatch(ReadOnlySpan<BufferCopy>.Empty, stream);
                Expect.SequenceEqual(data, a.ToArray(), "a refused batch wrote nothing");
            }
        }

        [Fact]
        public void SpanRoundTrip()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DeviceBuffer<float> b = d.Allocate<float>(1000))
            {
                Expect.Equal(1000L, b.Length, "length");
                Expect.Equal(4000UL, b.SizeInBytes, "size in bytes");
                Expect.Equal(BufferKind.Device, b.Kind, "kind");
                Expect.NotEqual(0UL, b.DevicePointer, "device pointer");
                float[] data = Ramp(1000, 0.25f);
                b.CopyFrom(data);
                Expect.SequenceEqual(data, b.ToArray(), "round trip");
                // A part, at an element offset, through spans over part of an array.
                var part = new float[] { -1, -2, -3 };
                b.CopyFrom(new ReadOnlySpan<float>(part), 500);
                var back = new float[5];
                b.CopyTo(new Span<float>(back), 499);
                Expect.SequenceEqual(new[] { data[499], -1f, -2f, -3f, data[503] }, back, "partial copies at offsets");
                using (Device owner = b.GetDevice())
                    Expect.Equal(0, owner.Info.Ordinal, "the buffer's device");
            }
        }

        [Fact]
        public void SlicesAreViewsOfTheSameMemory()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DeviceBuffer<float> b = d.Allocate<float>(100))
            {
                float[] data = Ramp(100, 0.5f);
                b.CopyFrom(data);
                using (DeviceBuffer<float> s = b.Slice(10, 20))
                {
                    Expect.Equal(20L, s.Length, "slice length");
                    Expect.Equal(b.DevicePointer + 40, s.DevicePointer, "slice address");
                    var part = new float[20];
                    Array.Copy(data, 10, part, 0, 20);
                    Expect.SequenceEqual(part, s.ToArray(), "slice contents");
                    s.CopyFrom(new[] { -7f }, 19);
                    var one = new float[1];
                    b.CopyTo(new Span<float>(one), 29);
                    Expect.Equal(-7f, one[0], "a write through the slice lands in the parent");
                    Expect.Throws(DcStatus.OutOfRange, () => s.CopyFrom(new float[2], 19), "past the slice's end",
                                  "dc_buffer_write", "76 + size 8", "80");
                    Expect.Throws(DcStatus.OutOfRange, () => b.Slice(90, 11), "a slice past the end", "dc_buffer_view");
                    using (DeviceBuffer<float> inner = s.Slice(5, 5))
                        Expect.Equal(b.DevicePointer + 60, inner.DevicePointer, "a slice of a slice");
                }
            }
        }

        [Fact]
        public void TilesCopyIn2D()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                long pitch;
                using (DeviceBuffer<int> m = d.AllocatePitched<int>(13, 7, out pitch))
                using (DeviceBuffer<int> other = d.Allocate<int>(11 * 9))
                {
                    Expect.True(pitch >= 13, "pitch at least the width");
                    // A 5 x 3 host block (rows 6 apart) into m at row 2, column 4.
                    var host = new int[6 * 3];
                    for (int i = 0; i < host.Length; i++)
                        host[i] = i * 7 + 1;
                    m.CopyFrom2D(new ReadOnlySpan<int>(host), 6, 2 * pitch + 4, pitch, 5, 3);
                    // The tile on to `other` (pitch 11) at row 1, column 2, then back to the host.
                    other.Fill(0);
                    other.CopyFrom2D(m, 2 * pitch + 4, pitch, 11 + 2, 11, 5, 3);
                    var back = new int[5 * 3];
                    other.CopyTo2D(new Span<int>(back), 5, 11 + 2, 11, 5, 3);
                    for (int r = 0; r < 3; r++)
                        for (int c = 0; c < 5; c++)
                            Expect.Equal(host[r * 6 + c], back[r * 5 + c], "element " + r + "," + c);
                    int[] all = other.ToArray();
                    Expect.Equal(0, all[11 + 1], "left of the tile untouched");
                    Expect.Equal(0, all[4 * 11 + 2], "below the tile untouched");
                    Expect.Throws(DcStatus.OutOfRange, () => other.CopyFrom2D(m, 0, pitch, 8 * 11, 11, 5, 2),
                                  "a tile past the end", "dc_buffer_copy_2d", "row 1");
                }
            }
        }

        [Fact]
        public void StructElements()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DeviceBuffer<Particle> b = d.Allocate<Particle>(64))
            {
                Expect.Equal(16, DeviceBuffer<Particle>.ElementSize, "element size");
                var ps = new Particle[64];
                for (int i = 0; i < ps.Length; i++)
                    ps[i] = new Particle { X = i, Y = -i, Z = i * 0.5f, Id = 1000 + i };
                b.CopyFrom(ps);
                Particle[] back = b.ToArray();
                for (int i = 0; i < ps.Length; i++)
                {
                    Expect.Equal(ps[i].Id, back[i].Id, "particle " + i + " id");
                    Expect.Equal(ps[i].Z, back[i].Z, "particle " + i + " z");
                }
            }
        }

        [Fact]
        public void BufferToBufferAndFill()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DeviceBuffer<int> a = d.Allocate<int>(300))
            using (DeviceBuffer<int> b = d.Allocate<int>(300, AllocFlags.NoPool))
            {
                a.Fill(0x01020304);
                int[] filled = a.ToArray();
                Expect.True(Array.TrueForAll(filled, v => v == 0x01020304), "fill with a 4-byte pattern");
                var data = new int[300];
                for (int i = 0; i < data.Length; i++)
                    data[i] = i * i;
                a.CopyFrom(data);
                b.Fill(-1);
                b.CopyFrom(a, 100, 50, 10);   // a[50..150) -> b[10..110)
                int[] got = b.ToArray();
                for (int i = 0; i < 300; i++)
                    Expect.Equal(i >= 10 && i < 110 ? data[i + 40] : -1, got[i], "b[" + i + "]");
                Expect.Equal(CopyPath.SameDevice, b.CopyPathFrom(a), "copy path on one device");
            }
        }

        [Fact]
        public void OutOfRangeIsAnErrorNotAFault()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DeviceBuffer<float> b = d.Allocate<float>(16))
            {
                var big = new float[17];
                DcException e = Expect.Throws(DcStatus.OutOfRange, () => b.CopyFrom(big), "writing 17 floats into 16", "dc_buffer_write", "68", "64");
                Expect.Equal(0, e.CudaError, "no CUresult behind a bounds error");
                Expect.Throws(DcStatus.OutOfRange, () => b.CopyTo(new float[4], 13), "reading past the end", "dc_buffer_read");
                Expect.Throws<ArgumentOutOfRangeException>(() => b.CopyTo(new float[1], -1), "a negative index");
                Expect.Throws(DcStatus.InvalidArgument, () => b.FillBytes(1, 4, 0, 4), "a misaligned fill", "dc_buffer_fill");
                Expect.Throws(DcStatus.InvalidArgument, () => d.Allocate<float>(0), "a zero-sized allocation", "dc_buffer_alloc");
            }
        }

        [Fact]
        public void ElementsWithReferencesAreRefused()
        {
#if NET7_0_OR_GREATER
            throw Skip.Because("on .NET the `unmanaged` constraint refuses a type holding references at compile time");
#else
            using (Device d = TestEnv.OpenDevice())
            {
                var e = Expect.Throws<ArgumentException>(() => d.Allocate<HoldsAReference>(1), "a struct holding a string");
                Expect.Contains("holds references", e.Message, "message");
                Expect.Throws<ArgumentException>(() => new KernelArgs().Value(new HoldsAReference()), "as a kernel argument");
            }
#endif
        }

        [Fact]
        public void PinnedMemoryHasAHostView()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DeviceBuffer<double> pinned = d.AllocatePinned<double>(128))
            using (DeviceBuffer<double> dev = d.Allocate<double>(128))
            {
                Expect.Equal(BufferKind.Pinned, pinned.Kind, "kind");
                Span<double> host = pinned.AsSpan();
                for (int i = 0; i < host.Length; i++)
                    host[i] = Math.Sqrt(i);
                dev.CopyFrom(pinned, 128);
                var back = dev.ToArray();
                Expect.Equal(Math.Sqrt(127), back[127], "pinned -> device");
                Expect.Equal(CopyPath.Host, dev.CopyPathFrom(pinned), "copy path from host memory");
                Expect.Throws(DcStatus.NotSupported, () => dev.AsSpan(), "device memory has no host view", "dc_buffer_host_pointer");
            }
        }

        [Fact]
        public void ManagedMemory()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                if (!d.Info.ManagedMemory)
                    throw Skip.Because("the device has no managed memory");
                using (DeviceBuffer<int> m = d.AllocateManaged<int>(64))
                using (DcStream s = d.CreateStream())
                {
                    Expect.Equal(BufferKind.Managed, m.Kind, "kind");
                    m.CopyFrom(new int[64]);
                    Span<int> view = m.AsSpan();
                    view[3] = 33;
                    Expect.Equal(33, m.ToArray()[3], "a host write seen by a copy");
                    if (d.Info.ConcurrentManagedAccess)
                    {
                        m.EnqueuePrefetch(0, m.SizeInBytes, 0, s);
                        m.Advise(0, m.SizeInBytes, MemoryAdvice.SetReadMostly, 0);
                        s.Synchronize();
                    }
                }
            }
        }

        [Fact]
        public void RegisteredArrayRoundTrip()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DeviceBuffer<float> dev = d.Allocate<float>(2048))
            {
                var host = Ramp(2048, 2f);
                using (DeviceBuffer<float> registered = d.RegisterHost(host))
                {
                    Expect.Equal(BufferKind.RegisteredHost, registered.Kind, "kind");
                    dev.CopyFrom(registered, 2048);
                    Array.Clear(host, 0, host.Length);
                    registered.CopyFrom(dev, 2048);   // device -> the registered array itself
                }
                Expect.SequenceEqual(Ramp(2048, 2f), host, "the array after device -> registered copy");
            }
        }

        [Fact]
        public void StreamOrderedCopies()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<int> b = s.EnqueueAllocate<int>(4096))
            using (DeviceBuffer<int> pinned = d.AllocatePinned<int>(4096))
            {
                var data = new int[4096];
                for (int i = 0; i < data.Length; i++)
                    data[i] = i ^ 0x5a5a;
                b.EnqueueCopyFrom(data, s);   // pageable: read before the call returns
                b.EnqueueFillBytes(0, 16, 0x7, 4, s);
                pinned.EnqueueCopyFrom(b, 4096, s);
                s.Synchronize();
                Span<int> got = pinned.AsSpan();
                for (int i = 0; i < 4; i++)
                    Expect.Equal(7, got[i], "filled element " + i);
                for (int i = 4; i < data.Length; i++)
                    Expect.Equal(data[i], got[i], "element " + i);
                var back = new int[4096];
                b.EnqueueCopyTo(back, s);
                s.Synchronize();
                Expect.Equal(data[4095], back[4095], "async read into managed memory");
            }
        }
    }
}
