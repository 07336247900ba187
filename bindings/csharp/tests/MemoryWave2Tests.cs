// Pools you control, growable buffers and IPC refusals through the safe layer.
using System;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class MemoryWave2Tests
    {
        private const ulong MiB = 1UL << 20;

        [Fact]
        public void PoolStatisticsMoveWithAllocations()
        {
            using (Device d = TestEnv.OpenDevice())
            using (MemoryPool pool = MemoryPool.Create(d))
            {
                pool.SetAttribute(PoolAttribute.ReleaseThreshold, ulong.MaxValue);
                Expect.Equal(ulong.MaxValue, pool.GetAttribute(PoolAttribute.ReleaseThreshold), "release threshold");
                Expect.Equal(0UL, pool.Statistics.UsedCurrent, "nothing used yet");
                DeviceBuffer<byte> a = pool.Allocate<byte>((long)(3 * MiB));
                DeviceBuffer<byte> b = pool.Allocate<byte>((long)(5 * MiB));
                PoolStats both = pool.Statistics;
                Expect.True(both.UsedCurrent >= 8 * MiB, "used " + both.UsedCurrent);
                Expect.True(both.ReservedCurrent >= both.UsedCurrent, "reserved " + both.ReservedCurrent);
                b.Dispose();
                d.Synchronize();
                PoolStats after = pool.Statistics;
                Expect.True(after.UsedCurrent < both.UsedCurrent, "used after a release " + after.UsedCurrent);
                Expect.Equal(both.UsedCurrent, after.UsedHigh, "the high-water mark stays until reset");
                pool.ResetHighWater();
                PoolStats reset = pool.Statistics;
                Expect.Equal(reset.UsedCurrent, reset.UsedHigh, "reset high-water mark");
                Expect.Throws(DcStatus.InvalidArgument, () => pool.SetAttribute(PoolAttribute.ReuseAllowOpportunistic, 2),
                              "a reuse value of 2", "is not 0 or 1");
                a.Dispose();
                Expect.True(d.PoolStatistics.DeviceOrdinal == 0, "dccuda's own pool's statistics");
            }
        }

        [Fact]
        public void AGrowableBufferKeepsItsAddressAndData()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                ulong g = d.AllocationGranularity();
                long elements = (long)(g / 4);
                using (DeviceBuffer<int> buffer = d.AllocateGrowable<int>(8 * elements, 1))
                {
                    Expect.Equal(elements, buffer.Length, "one granule");
                    Expect.Equal(8 * g, buffer.ReservedSizeInBytes, "reserved");
                    ulong address = buffer.DevicePointer;
                    var data = new int[elements];
                    for (int i = 0; i < data.Length; ++i) data[i] = i * 3 + 1;
                    buffer.CopyFrom(data);
                    buffer.Grow(3 * elements + 1);
                    Expect.Equal(4 * elements, buffer.Length, "grown to whole granules");
                    Expect.Equal(address, buffer.DevicePointer, "the address never changes");
                    var back = new int[4 * elements];
                    buffer.CopyTo(back);
                    for (int i = 0; i < data.Length; ++i)
                        if (back[i] != data[i]) Expect.Equal(data[i], back[i], "element " + i);
                    Expect.Throws(DcStatus.OutOfRange, () => buffer.Grow(8 * elements + 1), "past the reservation",
                                  "reserved for the buffer");
                }
            }
        }

        [Fact]
        public void VirtualMemoryPiecesMakeOneRange()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                ulong g = d.AllocationGranularity();
                ulong b = d.VmmReserve(2 * g);
                ulong first = d.VmmCreate(g), second = d.VmmCreate(g);
                d.VmmMap(b, g, first);
                d.VmmMap(b + g, g, second);
                d.VmmSetAccess(b, 2 * g, d, Dccuda.Interop.NativeConstants.DC_VMM_ACCESS_READWRITE);
                Expect.Throws(DcStatus.InvalidArgument, () => d.VmmMap(b, g, second), "a map over a mapping", "overlaps");
                Expect.Throws(DcStatus.InvalidState, () => d.VmmFree(b, 2 * g), "a free with mappings", "dc_vmm_unmap");
                d.VmmUnmap(b, 2 * g);
                d.VmmRelease(first);
                d.VmmRelease(second);
                d.VmmFree(b, 2 * g);
            }
        }

        [Fact]
        public void OnlyShareableMemoryIsExported()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DeviceBuffer<byte> pooled = d.Allocate<byte>(4096))
            using (DeviceBuffer<byte> plain = d.Allocate<byte>(4096, AllocFlags.NoPool))
            using (Event shared = d.CreateEvent(EventFlags.Interprocess | EventFlags.DisableTiming))
            {
                Expect.Throws(DcStatus.NotSupported, () => pooled.ExportIpc(), "pool memory", "DC_ALLOC_NO_POOL");
                Expect.Equal(128, plain.ExportIpc().Length, "exported bytes");
                Expect.Equal(128, shared.ExportIpc().Length, "exported event bytes");
                Expect.Throws(DcStatus.InvalidArgument, () => d.ImportIpcBuffer<byte>(new byte[128]), "junk bytes",
                              "not the bytes of an exported buffer");
                Expect.Throws(DcStatus.InvalidArgument, () => d.ImportIpcEvent(new byte[128]), "junk event bytes",
                              "not the bytes of an exported event");
            }
        }
    
        // The fake models both sides in one process (its imports are the exporter's own memory);
        // two real processes are the C++ GPU suite's.
        [Fact]
        public void APoolAndItsBufferRoundTripInOneProcessOnTheFake()
        {
            if (!TestEnv.OnFakeDriver)
                throw Skip.Because("one-process pool sharing is the fake driver's model");
            if (Environment.OSVersion.Platform != PlatformID.Unix)
                throw Skip.Because("pools are shared on Linux only");
            using (Device d = TestEnv.OpenDevice())
            using (MemoryPool pool = MemoryPool.Create(d, 0, exportable: true))
            using (MemoryPool plain = MemoryPool.Create(d))
            using (DeviceBuffer<int> owner = pool.Allocate<int>(256))
            {
                int[] data = new int[256];
                for (int i = 0; i < data.Length; i++)
                    data[i] = i * 7;
                owner.CopyFrom(data);
                byte[] poolBytes = pool.ExportIpc();
                byte[] bufferBytes = owner.ExportIpc();
                using (MemoryPool imported = MemoryPool.ImportIpc(d, poolBytes))
                {
                    using (DeviceBuffer<int> shared = imported.ImportBuffer<int>(bufferBytes))
                    {
                        int[] back = new int[256];
                        shared.CopyTo(back);
                        Expect.SequenceEqual(data, back, "read through the import");
                    }
                    Expect.Throws(DcStatus.InvalidArgument, () => imported.Allocate<int>(16), "allocate from an import",
                                  "dc_buffer_import_ipc_from_pool");
                }
                Expect.Throws(DcStatus.InvalidArgument, () => d.ImportIpcBuffer<int>(bufferBytes), "pool memory bytes",
                              "dc_buffer_import_ipc_from_pool");
                int fd = pool.ExportFd();
                using (MemoryPool byFd = MemoryPool.ImportFd(d, fd))
                    Expect.Equal(fd, pool.ExportFd(), "the pool keeps its one descriptor");
                Expect.Throws(DcStatus.NotSupported, () => plain.ExportIpc(), "not exportable", "DC_POOL_EXPORTABLE");
            }
        }
    }
}
