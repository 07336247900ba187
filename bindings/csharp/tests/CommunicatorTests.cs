// NCCL through the binding, on the fake NCCL (two fake GPUs): InitAll, a grouped all-reduce
// of both ranks checked against the CPU, a send/recv exchange, split, a unique id's size,
// and a bad count refused before NCCL sees it.
using System;
using Dccuda.Interop;
using Xunit;
using C = Dccuda.Interop.NativeConstants;

namespace Dccuda.Tests
{
    public sealed class CommunicatorTests
    {
        [Fact]
        public void AllReduceOverTwoRanks()
        {
            Expect.True(Communicator.LibraryVersion >= 20000, "an NCCL 2 version");
            if (Dc.DeviceCount < 2)
                throw Skip.Because("needs two devices (the fake driver gives two; this machine has " + Dc.DeviceCount + ")");
            Communicator[] comms = Communicator.InitAll(0, 1);
            try
            {
                Expect.Equal(2, comms.Length, "two ranks");
                Expect.Equal(1, comms[1].Rank, "rank of the second");
                Expect.Equal(2, comms[0].Count, "rank count");
                Expect.Equal(1, comms[1].DeviceOrdinal, "the second's device");
                const int n = 100;
                using (Device d0 = TestEnv.OpenDevice(0))
                using (Device d1 = TestEnv.OpenDevice(1))
                using (DcStream s0 = d0.CreateStream())
                using (DcStream s1 = d1.CreateStream())
                using (DeviceBuffer<float> b0 = d0.Allocate<float>(n))
                using (DeviceBuffer<float> b1 = d1.Allocate<float>(n))
                using (DeviceBuffer<int> i0 = d0.Allocate<int>(n))
                using (DeviceBuffer<int> i1 = d1.Allocate<int>(n))
                {
                    float[] x = new float[n], y = new float[n];
                    int[] ix = new int[n];
                    for (int i = 0; i < n; i++) { x[i] = i; y[i] = 2 * i + 1; ix[i] = 7 * i; }
                    b0.CopyFrom(x);
                    b1.CopyFrom(y);
                    Communicator.Group(() =>
                    {
                        comms[0].AllReduce(b0, b0, n, NcclOp.Sum, s0);
                        comms[1].AllReduce(b1, b1, n, NcclOp.Sum, s1);
                    });
                    s0.Synchronize();
                    s1.Synchronize();
                    float[] r0 = b0.ToArray(), r1 = b1.ToArray();
                    for (int i = 0; i < n; i++)
                    {
                        Expect.Equal(x[i] + y[i], r0[i], "rank 0 element " + i);
                        Expect.Equal(x[i] + y[i], r1[i], "rank 1 element " + i);
                    }
                    // An exchange: rank 0's ints to rank 1.
                    i0.CopyFrom(ix);
                    Communicator.Group(() =>
                    {
                        comms[0].Send(i0, n, 1, s0);
                        comms[1].Recv(i1, n, 0, s1);
                    });
                    s1.Synchronize();
                    int[] got = i1.ToArray();
                    for (int i = 0; i < n; i++) Expect.Equal(ix[i], got[i], "received element " + i);
                    // Past the end of the buffer: refused by dccuda, naming the count.
                    Expect.Throws(DcStatus.OutOfRange, () => comms[0].AllReduce(b0, b0, n + 1, NcclOp.Sum, s0),
                                  "one element too many", "dc_comm_all_reduce", "count 101");
                }
                // Split: each rank alone (colors differ).
                Communicator[] single = new Communicator[2];
                Communicator.Group(() =>
                {
                    single[0] = comms[0].Split(0, 0);
                    single[1] = comms[1].Split(1, 0);
                });
                Expect.Equal(1, single[0].Count, "a split of one rank");
                single[0].Dispose();
                single[1].Dispose();
            }
            finally
            {
                foreach (Communicator c in comms) c.Dispose();
            }
            Expect.Equal(C.DC_NCCL_UNIQUE_ID_BYTES, Communicator.UniqueId().Length, "a unique id's size");
        }
    }
}
