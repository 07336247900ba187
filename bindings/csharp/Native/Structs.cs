// The public structs of include/dccuda.h, field for field. Sequential layout with the C
// types' sizes gives the C layout (fixed buffers for the C arrays); bindings/csharp/tests/
// Layout.cs prints it and abi/check_abi.py compares it with the C compiler's.
// Each growable struct has Init(), the C# DC_*_INIT: struct_size set, the macro's defaults.
using System;
using System.Runtime.InteropServices;

namespace Dccuda.Interop
{
    /// <summary>dc_init_options.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DcInitOptions
    {
        public uint StructSize;
        public uint Flags;
        /// <summary>const char*: UTF-8, NUL-terminated, or zero.</summary>
        public IntPtr DriverLibrary;
        public IntPtr NvrtcLibrary;
        public IntPtr CacheDir;
        public ulong CacheMaxBytes;

        /// <summary>DC_INIT_OPTIONS_INIT.</summary>
        public static unsafe DcInitOptions Init()
        {
            return new DcInitOptions { StructSize = (uint)sizeof(DcInitOptions) };
        }
    }

    /// <summary>dc_device_info.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct DcDeviceInfo
    {
        public uint StructSize;
        public int Ordinal;
        /// <summary>char[256]: UTF-8, NUL-terminated.</summary>
        public fixed byte Name[256];
        public fixed byte Uuid[16];
        public int PciDomainId;
        public int PciBusId;
        public int PciDeviceId;
        public int ComputeCapabilityMajor;
        public int ComputeCapabilityMinor;
        public int MultiprocessorCount;
        public ulong TotalMemory;
        public ulong FreeMemory;
        public int ClockRateKhz;
        public int MemoryClockRateKhz;
        public int MemoryBusWidthBits;
        public int WarpSize;
        public int MaxThreadsPerBlock;
        public int MaxThreadsPerMultiprocessor;
        public fixed int MaxBlockDim[3];
        public fixed int MaxGridDim[3];
        public int MaxSharedMemoryPerBlock;
        public int MaxSharedMemoryPerBlockOptin;
        public int MaxSharedMemoryPerMultiprocessor;
        public int MaxRegistersPerBlock;
        public int L2CacheSize;
        public int AsyncEngineCount;
        public int UnifiedAddressing;
        public int ManagedMemory;
        public int ConcurrentManagedAccess;
        public int PageableMemoryAccess;
        public int CooperativeLaunch;
        public int ClusterLaunch;
        public int MemoryPoolsSupported;
        public int HostNativeAtomics;
        public int EccEnabled;
        public int KernelExecTimeout;
        public int Integrated;
        public int TccDriver;

        /// <summary>DC_DEVICE_INFO_INIT.</summary>
        public static DcDeviceInfo Init()
        {
            return new DcDeviceInfo { StructSize = (uint)sizeof(DcDeviceInfo) };
        }
    }

    /// <summary>dc_compile_options. The string and string-array fields point to UTF-8,
    /// NUL-terminated memory that must stay valid during the call (Dccuda.CompileOptions
    /// builds them).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DcCompileOptions
    {
        public uint StructSize;
        public int Output;
        public int Arch;
        public uint Flags;
        public int MaxRegisters;
        public uint NumOptions;
        public uint NumDefines;
        public uint NumIncludePaths;
        public uint NumHeaders;
        public uint NumNameExpressions;
        /// <summary>const char*</summary>
        public IntPtr Std;
        /// <summary>const char* const*</summary>
        public IntPtr Options;
        public IntPtr Defines;
        public IntPtr IncludePaths;
        public IntPtr HeaderNames;
        public IntPtr HeaderSources;
        public IntPtr NameExpressions;

        /// <summary>DC_COMPILE_OPTIONS_INIT.</summary>
        public static unsafe DcCompileOptions Init()
        {
            return new DcCompileOptions { StructSize = (uint)sizeof(DcCompileOptions), Output = NativeConstants.DC_OUTPUT_CUBIN };
        }
    }

    /// <summary>dc_module_options.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DcModuleOptions
    {
        public uint StructSize;
        public uint Flags;
        public int OptimizationLevel;
        public int MaxRegisters;
        public uint LogSize;
        public uint Reserved;

        /// <summary>DC_MODULE_OPTIONS_INIT (optimization level -1: the driver's default).</summary>
        public static unsafe DcModuleOptions Init()
        {
            return new DcModuleOptions { StructSize = (uint)sizeof(DcModuleOptions), OptimizationLevel = -1 };
        }
    }

    /// <summary>dc_function_info.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DcFunctionInfo
    {
        public uint StructSize;
        public int NumRegisters;
        public int MaxThreadsPerBlock;
        public int StaticSharedBytes;
        public int MaxDynamicSharedBytes;
        public int LocalBytes;
        public int ConstBytes;
        public int PtxVersion;
        public int BinaryVersion;
        public int NumParams;
        public uint ParamsBytes;

        /// <summary>DC_FUNCTION_INFO_INIT.</summary>
        public static unsafe DcFunctionInfo Init()
        {
            return new DcFunctionInfo { StructSize = (uint)sizeof(DcFunctionInfo) };
        }
    }

    /// <summary>dc_launch_config. Grid counts blocks, not clusters.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct DcLaunchConfig
    {
        public uint StructSize;
        public fixed uint Grid[3];
        public fixed uint Block[3];
        public uint SharedMemoryBytes;
        public uint Flags;
        public fixed uint Cluster[3];
        public int Priority;

        /// <summary>DC_LAUNCH_CONFIG_INIT: one block of one thread.</summary>
        public static DcLaunchConfig Init()
        {
            var c = new DcLaunchConfig { StructSize = (uint)sizeof(DcLaunchConfig) };
            for (int i = 0; i < 3; i++)
            {
                c.Grid[i] = 1;
                c.Block[i] = 1;
            }
            return c;
        }
    }

    /// <summary>dc_arg: one kernel argument (DC_ARG_VALUE or DC_ARG_BUFFER).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DcArg
    {
        public uint Kind;
        public uint Size;
        /// <summary>const void*: DC_ARG_VALUE's bytes, read during the call.</summary>
        public IntPtr Value;
        /// <summary>dc_buffer: DC_ARG_BUFFER's handle.</summary>
        public IntPtr Buffer;
        public ulong Offset;
    }
}
