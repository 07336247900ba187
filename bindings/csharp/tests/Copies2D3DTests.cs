// 2D fills, asynchronous 2D copies from and to host elements, and 3D copies between buffers
// of other pitches and plane heights, checked element by element against the host's arithmetic.
using System;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class Copies2D3DTests
    {
        [Fact]
        public void TwoDFillsAndAsynchronousTwoDCopies()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<uint> b = d.Allocate<uint>(32))
            {
                b.Fill(0xeeeeeeeeu);
                // 4 rows of 4 elements, 8 elements apart.
                b.Fill2D(7u, 0, 8, 4, 4);
                uint[] got = b.ToArray();
                for (int r = 0; r < 4; r++)
                    for (int i = 0; i < 8; i++)
                        Expect.Equal(i < 4 ? 7u : 0xeeeeeeeeu, got[r * 8 + i], "row " + r + " element " + i);
                b.EnqueueFill2D(9u, 4, 8, 4, 4, s);
                var host = new uint[16];
                for (int i = 0; i < 16; i++)
                    host[i] = (uint)i * 5;
                b.EnqueueCopyFrom2D(new ReadOnlySpan<uint>(host), 4, 0, 8, 4, 4, s);
                var back = new uint[16];
                b.EnqueueCopyTo2D(new Span<uint>(back), 4, 0, 8, 4, 4, s);
                s.Synchronize();
                Expect.SequenceEqual(host, back, "the block written and read back");
                got = b.ToArray();
                for (int r = 0; r < 4; r++)
                    for (int i = 4; i < 8; i++)
                        Expect.Equal(9u, got[r * 8 + i], "the asynchronous fill at row " + r);
                Expect.Throws(DcStatus.InvalidArgument, () => b.Fill2D(1u, 0, 2, 4, 4), "a pitch below the width");
            }
        }

        [Fact]
        public void ThreeDCopiesRepackPlanes()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<ushort> src = d.Allocate<ushort>(2 * 4 * 16))
            using (DeviceBuffer<ushort> dst = d.Allocate<ushort>(2 * 3 * 8))
            using (DeviceBuffer<ushort> again = d.Allocate<ushort>(2 * 3 * 8))
            {
                var host = new ushort[2 * 4 * 16];
                for (int i = 0; i < host.Length; i++)
                    host[i] = (ushort)(i * 3);
                src.CopyFrom(new ReadOnlySpan<ushort>(host));
                // A box 8 wide, 3 high, 2 deep: source rows 16 apart, 4 per plane; destination packed.
                dst.CopyFrom3D(src, 0, 16, 4, 0, 8, 3, 8, 3, 2);
                ushort[] got = dst.ToArray();
                for (int z = 0; z < 2; z++)
                    for (int y = 0; y < 3; y++)
                        for (int x = 0; x < 8; x++)
                            Expect.Equal(host[z * 64 + y * 16 + x], got[z * 24 + y * 8 + x], "(" + x + ", " + y + ", " + z + ")");
                again.EnqueueCopyFrom3D(src, 0, 16, 4, 0, 8, 3, 8, 3, 2, s);
                s.Synchronize();
                Expect.SequenceEqual(got, again.ToArray(), "the asynchronous copy");
                Expect.Throws(DcStatus.InvalidArgument, () => dst.CopyFrom3D(src, 0, 16, 4, 0, 8, 2, 8, 3, 2),
                              "rows per plane below the height");
            }
        }
    }
}
