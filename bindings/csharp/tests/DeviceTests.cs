// Devices: info, attributes, memory, natives, peers, and the errors of bad ordinals.
using System;
using Dccuda.Interop;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class DeviceTests
    {
        // cuda.h: CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT.
        private const int AttributeMaxThreadsPerBlock = 1;
        private const int AttributeMultiprocessorCount = 16;

        [Fact]
        public void InfoIsConsistentWithAttributesAndMemory()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                DeviceInfo info = d.Info;
                Expect.Equal(0, info.Ordinal, "ordinal");
                Expect.True(info.Name.Length > 0 && info.Name.Length < 256, "name \"" + info.Name + "\"");
                Expect.True(info.ComputeCapabilityMajor >= 5, "compute capability " + info.ComputeCapabilityMajor + "." + info.ComputeCapabilityMinor);
                Expect.True(info.TotalMemory > 0, "total memory");
                Expect.True(info.MultiprocessorCount > 0, "multiprocessors");
                Expect.Equal(32, info.WarpSize, "warp size");
                Expect.Equal(info.MaxThreadsPerBlock, d.GetAttribute(AttributeMaxThreadsPerBlock), "max threads per block");
                Expect.Equal(info.MultiprocessorCount, d.GetAttribute(AttributeMultiprocessorCount), "multiprocessors");
                Expect.True(info.MaxBlockDim.X >= 1 && info.MaxGridDim.X >= 1, "block and grid limits");
                Expect.Equal(16, info.Uuid.Length, "uuid bytes");
                Expect.Equal(40, info.UuidString.Length, "uuid string " + info.UuidString);
                MemoryInfo m = d.MemoryInfo;
                // cuDeviceTotalMem and cuMemGetInfo agree on the total, within a rounding.
                ulong diff = info.TotalMemory > m.Total ? info.TotalMemory - m.Total : m.Total - info.TotalMemory;
                Expect.True(m.Total > 0 && diff <= info.TotalMemory / 100,
                            "total memory " + m.Total + " from dc_device_memory_info against " + info.TotalMemory + " in the info");
                Expect.True(m.Free <= m.Total, "free <= total");
                Expect.Equal(info.Raw.StructSize, (uint)System.Runtime.InteropServices.Marshal.SizeOf(typeof(DcDeviceInfo)), "struct_size");
                d.Synchronize();
                d.TrimMemory();
                Expect.NotEqual(IntPtr.Zero, d.NativeContext, "primary context");
                Expect.Equal(0, d.NativeDevice, "CUdevice of ordinal 0");
                StreamPriorityRange r = d.StreamPriorityRange;
                Expect.True(r.Greatest <= r.Least, "priority range " + r.Least + ".." + r.Greatest);
            }
        }

        [Fact]
        public void BadOrdinalsAreNoDevice()
        {
            int n = Dc.DeviceCount;
            Expect.Throws(DcStatus.NoDevice, () => Device.Open(n), "Device.Open(count)", "dc_device_open");
            Expect.Throws(DcStatus.NoDevice, () => Device.Open(-1), "Device.Open(-1)", "dc_device_open");
        }

        [Fact]
        public void EachOpenIsItsOwnHandle()
        {
            using (Device a = TestEnv.OpenDevice())
            using (Device b = Device.Open(0))
            {
                Expect.NotEqual(a.Handle.DangerousGetHandle(), b.Handle.DangerousGetHandle(), "two opens give two handles");
                a.Dispose();
                Expect.Equal(0, b.Info.Ordinal, "the other handle still works");
                Expect.True(a.IsDisposed, "a is disposed");
                a.Dispose();   // twice is harmless
            }
        }

        [Fact]
        public void PeersOfTwoDevices()
        {
            using (Device a = TestEnv.OpenDevice(0))
            using (Device b = TestEnv.OpenDevice(1))
            {
                Expect.True(a.CanAccessPeer(a), "a device accesses itself");
                if (!a.CanAccessPeer(b))
                    throw Skip.Because("devices 0 and 1 have no peer access");
                a.EnablePeerAccess(b);
                a.EnablePeerAccess(b);   // idempotent
                Expect.Equal(1, a.GetPeerAttribute(b, PeerAttribute.AccessSupported), "access supported");
                using (DeviceBuffer<int> onA = a.Allocate<int>(256))
                using (DeviceBuffer<int> onB = b.Allocate<int>(256))
                {
                    Expect.Equal(CopyPath.Peer, onB.CopyPathFrom(onA), "copy path with peer access");
                    var data = new int[256];
                    for (int i = 0; i < data.Length; i++)
                        data[i] = i * 7 - 3;
                    onA.CopyFrom(data);
                    onB.CopyFrom(onA, 256);
                    Expect.SequenceEqual(data, onB.ToArray(), "a peer copy");
                }
                a.DisablePeerAccess(b);
                Expect.Throws(DcStatus.InvalidArgument, () => a.GetPeerAttribute(a, PeerAttribute.AccessSupported), "a peer attribute of itself",
                              "dc_device_peer_attribute");
            }
        }
    }
}
