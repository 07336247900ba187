// dc_device_info as read-only properties: names decoded, capabilities as bool.
using System;
using System.Text;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>A device's properties (dc_device_info) as read when asked: Device.Info.</summary>
    public sealed unsafe class DeviceInfo
    {
        private readonly DcDeviceInfo raw;

        internal DeviceInfo(DcDeviceInfo info)
        {
            raw = info;
        }

        /// <summary>The raw struct, as the library filled it.</summary>
        public DcDeviceInfo Raw { get { return raw; } }

        /// <summary>The device ordinal (0-based), as Device.Open takes it.</summary>
        public int Ordinal { get { return raw.Ordinal; } }

        /// <summary>The device's name ("NVIDIA H200").</summary>
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

        /// <summary>The PCI domain of the device.</summary>
        public int PciDomainId { get { return raw.PciDomainId; } }
        /// <summary>The PCI bus of the device.</summary>
        public int PciBusId { get { return raw.PciBusId; } }
        /// <summary>The PCI device (slot) of the device.</summary>
        public int PciDeviceId { get { return raw.PciDeviceId; } }
        /// <summary>The compute capability's major number (9 on Hopper).</summary>
        public int ComputeCapabilityMajor { get { return raw.ComputeCapabilityMajor; } }
        /// <summary>The compute capability's minor number.</summary>
        public int ComputeCapabilityMinor { get { return raw.ComputeCapabilityMinor; } }
        /// <summary>10 * major + minor: 90 for sm_90, the form CompileOptions.Arch takes.</summary>
        public int Arch { get { return raw.ComputeCapabilityMajor * 10 + raw.ComputeCapabilityMinor; } }
        /// <summary>The number of streaming multiprocessors.</summary>
        public int MultiprocessorCount { get { return raw.MultiprocessorCount; } }
        /// <summary>Device memory in bytes.</summary>
        public ulong TotalMemory { get { return raw.TotalMemory; } }
        /// <summary>Free memory when the info was taken.</summary>
        public ulong FreeMemory { get { return raw.FreeMemory; } }
        /// <summary>The SM clock in kHz.</summary>
        public int ClockRateKhz { get { return raw.ClockRateKhz; } }
        /// <summary>The memory clock in kHz.</summary>
        public int MemoryClockRateKhz { get { return raw.MemoryClockRateKhz; } }
        /// <summary>The memory bus width in bits.</summary>
        public int MemoryBusWidthBits { get { return raw.MemoryBusWidthBits; } }
        /// <summary>Threads per warp (32).</summary>
        public int WarpSize { get { return raw.WarpSize; } }
        /// <summary>The most threads a block may have.</summary>
        public int MaxThreadsPerBlock { get { return raw.MaxThreadsPerBlock; } }
        /// <summary>The most threads resident on one multiprocessor.</summary>
        public int MaxThreadsPerMultiprocessor { get { return raw.MaxThreadsPerMultiprocessor; } }

        /// <summary>The largest block in each dimension.</summary>
        public Dim3 MaxBlockDim
        {
            get
            {
                DcDeviceInfo copy = raw;
                return new Dim3((uint)copy.MaxBlockDim[0], (uint)copy.MaxBlockDim[1], (uint)copy.MaxBlockDim[2]);
            }
        }

        /// <summary>The largest grid in each dimension (in blocks).</summary>
        public Dim3 MaxGridDim
        {
            get
            {
                DcDeviceInfo copy = raw;
                return new Dim3((uint)copy.MaxGridDim[0], (uint)copy.MaxGridDim[1], (uint)copy.MaxGridDim[2]);
            }
        }

        /// <summary>Shared memory per block in bytes without opt-in.</summary>
        public int MaxSharedMemoryPerBlock { get { return raw.MaxSharedMemoryPerBlock; } }
        /// <summary>Shared memory per block in bytes with opt-in (Function.SetAttribute).</summary>
        public int MaxSharedMemoryPerBlockOptin { get { return raw.MaxSharedMemoryPerBlockOptin; } }
        /// <summary>Shared memory per multiprocessor in bytes.</summary>
        public int MaxSharedMemoryPerMultiprocessor { get { return raw.MaxSharedMemoryPerMultiprocessor; } }
        /// <summary>32-bit registers available to a block.</summary>
        public int MaxRegistersPerBlock { get { return raw.MaxRegistersPerBlock; } }
        /// <summary>The L2 cache in bytes.</summary>
        public int L2CacheSize { get { return raw.L2CacheSize; } }
        /// <summary>Copy engines that run beside kernels.</summary>
        public int AsyncEngineCount { get { return raw.AsyncEngineCount; } }
        /// <summary>Host and device share one address space.</summary>
        public bool UnifiedAddressing { get { return raw.UnifiedAddressing != 0; } }
        /// <summary>Managed (unified) memory can be allocated.</summary>
        public bool ManagedMemory { get { return raw.ManagedMemory != 0; } }
        /// <summary>Managed memory may be used by the CPU and GPU at once (needed for EnqueuePrefetch).</summary>
        public bool ConcurrentManagedAccess { get { return raw.ConcurrentManagedAccess != 0; } }
        /// <summary>The GPU can access pageable host memory directly.</summary>
        public bool PageableMemoryAccess { get { return raw.PageableMemoryAccess != 0; } }
        /// <summary>Cooperative (grid-synchronising) launches are supported.</summary>
        public bool CooperativeLaunch { get { return raw.CooperativeLaunch != 0; } }
        /// <summary>Thread-block clusters are supported (compute capability 9.0+).</summary>
        public bool ClusterLaunch { get { return raw.ClusterLaunch != 0; } }
        /// <summary>Stream-ordered memory pools are supported.</summary>
        public bool MemoryPoolsSupported { get { return raw.MemoryPoolsSupported != 0; } }
        /// <summary>Atomics between host and device are native.</summary>
        public bool HostNativeAtomics { get { return raw.HostNativeAtomics != 0; } }
        /// <summary>ECC is on.</summary>
        public bool EccEnabled { get { return raw.EccEnabled != 0; } }
        /// <summary>A watchdog limits kernel run time (a display is attached).</summary>
        public bool KernelExecTimeout { get { return raw.KernelExecTimeout != 0; } }
        /// <summary>An integrated GPU (sharing memory with the CPU).</summary>
        public bool Integrated { get { return raw.Integrated != 0; } }
        /// <summary>The Windows TCC driver model.</summary>
        public bool TccDriver { get { return raw.TccDriver != 0; } }

        /// <summary>Name, compute capability, multiprocessors and memory in one line.</summary>
        public override string ToString()
        {
            return string.Format("{0} (device {1}, sm_{2}{3}, {4} SMs, {5} MiB)", Name, Ordinal,
                                 ComputeCapabilityMajor, ComputeCapabilityMinor, MultiprocessorCount, TotalMemory >> 20);
        }
    }
}
