// dc_device_info as read-only properties: names decoded, capabilities as bool.
using System;
using System.Text;
using Dccuda.Interop;

namespace Dccuda
{
    public sealed unsafe class DeviceInfo
    {
        private readonly DcDeviceInfo raw;

        internal DeviceInfo(DcDeviceInfo info)
        {
            raw = info;
        }

        /// <summary>The raw struct, as the library filled it.</summary>
        public DcDeviceInfo Raw { get { return raw; } }

        public int Ordinal { get { return raw.Ordinal; } }

        public string Name
        {
            get
            {
                DcDeviceInfo copy = raw;
                int n = 0;
                while (n < 256 && copy.Name[n] != 0)
                    n++;
                return Utf8.Decode(copy.Name, n);
            }
        }

        /// <summary>The device's 16-byte UUID, as the driver gives it.</summary>
        public byte[] Uuid
        {
            get
            {
                DcDeviceInfo copy = raw;
                var b = new byte[16];
                for (int i = 0; i < 16; i++)
                    b[i] = copy.Uuid[i];
                return b;
            }
        }

        /// <summary>The UUID as nvidia-smi prints it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.</summary>
        public string UuidString
        {
            get
            {
                byte[] u = Uuid;
                var sb = new StringBuilder("GPU-");
                for (int i = 0; i < 16; i++)
                {
                    if (i == 4 || i == 6 || i == 8 || i == 10)
                        sb.Append('-');
                    sb.Append(u[i].ToString("x2"));
                }
                return sb.ToString();
            }
        }

        public int PciDomainId { get { return raw.PciDomainId; } }
        public int PciBusId { get { return raw.PciBusId; } }
        public int PciDeviceId { get { return raw.PciDeviceId; } }
        public int ComputeCapabilityMajor { get { return raw.ComputeCapabilityMajor; } }
        public int ComputeCapabilityMinor { get { return raw.ComputeCapabilityMinor; } }
        /// <summary>10 * major + minor: 90 for sm_90, the form CompileOptions.Arch takes.</summary>
        public int Arch { get { return raw.ComputeCapabilityMajor * 10 + raw.ComputeCapabilityMinor; } }
        public int MultiprocessorCount { get { return raw.MultiprocessorCount; } }
        public ulong TotalMemory { get { return raw.TotalMemory; } }
        /// <summary>Free memory when the info was taken.</summary>
        public ulong FreeMemory { get { return raw.FreeMemory; } }
        public int ClockRateKhz { get { return raw.ClockRateKhz; } }
        public int MemoryClockRateKhz { get { return raw.MemoryClockRateKhz; } }
        public int MemoryBusWidthBits { get { return raw.MemoryBusWidthBits; } }
        public int WarpSize { get { return raw.WarpSize; } }
        public int MaxThreadsPerBlock { get { return raw.MaxThreadsPerBlock; } }
        public int MaxThreadsPerMultiprocessor { get { return raw.MaxThreadsPerMultiprocessor; } }

        public Dim3 MaxBlockDim
        {
            get
            {
                DcDeviceInfo copy = raw;
                return new Dim3((uint)copy.MaxBlockDim[0], (uint)copy.MaxBlockDim[1], (uint)copy.MaxBlockDim[2]);
            }
        }

        public Dim3 MaxGridDim
        {
            get
            {
                DcDeviceInfo copy = raw;
                return new Dim3((uint)copy.MaxGridDim[0], (uint)copy.MaxGridDim[1], (uint)copy.MaxGridDim[2]);
            }
        }

        public int MaxSharedMemoryPerBlock { get { return raw.MaxSharedMemoryPerBlock; } }
        public int MaxSharedMemoryPerBlockOptin { get { return raw.MaxSharedMemoryPerBlockOptin; } }
        public int MaxSharedMemoryPerMultiprocessor { get { return raw.MaxSharedMemoryPerMultiprocessor; } }
        public int MaxRegistersPerBlock { get { return raw.MaxRegistersPerBlock; } }
        public int L2CacheSize { get { return raw.L2CacheSize; } }
        public int AsyncEngineCount { get { return raw.AsyncEngineCount; } }
        public bool UnifiedAddressing { get { return raw.UnifiedAddressing != 0; } }
        public bool ManagedMemory { get { return raw.ManagedMemory != 0; } }
        public bool ConcurrentManagedAccess { get { return raw.ConcurrentManagedAccess != 0; } }
        public bool PageableMemoryAccess { get { return raw.PageableMemoryAccess != 0; } }
        public bool CooperativeLaunch { get { return raw.CooperativeLaunch != 0; } }
        public bool ClusterLaunch { get { return raw.ClusterLaunch != 0; } }
        public bool MemoryPoolsSupported { get { return raw.MemoryPoolsSupported != 0; } }
        public bool HostNativeAtomics { get { return raw.HostNativeAtomics != 0; } }
        public bool EccEnabled { get { return raw.EccEnabled != 0; } }
        public bool KernelExecTimeout { get { return raw.KernelExecTimeout != 0; } }
        public bool Integrated { get { return raw.Integrated != 0; } }
        public bool TccDriver { get { return raw.TccDriver != 0; } }

        public override string ToString()
        {
            return string.Format("{0} (device {1}, sm_{2}{3}, {4} SMs, {5} MiB)", Name, Ordinal,
                                 ComputeCapabilityMajor, ComputeCapabilityMinor, MultiprocessorCount, TotalMemory >> 20);
        }
    }
}
