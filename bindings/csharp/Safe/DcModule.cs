// A dc_module: a loaded PTX / CUBIN / fatbin image, its kernels and its globals.
using System;
using System.Diagnostics.CodeAnalysis;
using System.Collections.Generic;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>Options for loading a module (dc_module_options).</summary>
    public sealed class ModuleOptions
    {
        /// <summary>Default options: the driver's optimisation level, no register limit, 16 KiB of log.</summary>
        public ModuleOptions()
        {
            OptimizationLevel = -1;
        }

        /// <summary>DC_JIT_* flags for the PTX JIT.</summary>
        public JitFlags Flags { get; set; }

        /// <summary>PTX JIT: 0..4; -1 = the driver's default.</summary>
        public int OptimizationLevel { get; set; }

        /// <summary>PTX JIT: 0 = no limit.</summary>
        public int MaxRegisters { get; set; }

        /// <summary>Bytes of JIT log kept; 0 = 16 KiB.</summary>
        public uint LogSize { get; set; }

        internal DcModuleOptions ToNative()
        {
            DcModuleOptions o = DcModuleOptions.Init();
            o.Flags = (uint)Flags;
            o.OptimizationLevel = OptimizationLevel;
            o.MaxRegisters = MaxRegisters;
            o.LogSize = LogSize;
            return o;
        }
    }

    /// <summary>A loaded module (dc_module): a PTX, CUBIN or fatbin image on a device, its kernels and its globals. Disposing it is safe while functions taken from it live: they keep it loaded.</summary>
    public sealed unsafe class DcModule : IDisposable
    {
        internal DcModule(DcModuleHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_module (for NativeMethods calls).</summary>
        public DcModuleHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "DcModule"); }

        private static DcModule Adopt(DcModuleHandle h, IntPtr raw)
        {
            h.Adopt(raw);
            return new DcModule(h);
        }

        /// <summary>Load an image in memory (PTX, CUBIN, fatbin; the image is copied). An
        /// invalid image is DC_ERROR_INVALID_IMAGE with the JIT log in Detail.</summary>
        public static DcModule Load(Device device, ReadOnlySpan<byte> image, [AllowNull] ModuleOptions options = null)
        {
            if (device == null)
                throw new ArgumentNullException("device");
            var h = new DcModuleHandle();
            IntPtr raw;
            DcModuleOptions o = options == null ? default(DcModuleOptions) : options.ToNative();
            fixed (byte* img = &System.Runtime.InteropServices.MemoryMarshal.GetReference(image))
            using (var d = device.Use())
                DcException.Check(NativeMethods.dc_module_load(d.Raw, img, (ulong)image.Length, options == null ? null : &o, &raw));
            return Adopt(h, raw);
        }

        /// <summary>Load an image in a byte array (PTX, CUBIN, fatbin; copied).</summary>
        public static DcModule Load(Device device, byte[] image, [AllowNull] ModuleOptions options = null)
        {
            if (image == null)
                throw new ArgumentNullException("image");
            return Load(device, new ReadOnlySpan<byte>(image), options);
        }

        /// <summary>Load a compiled program's output.</summary>
        public static DcModule Load(Device device, DcProgram program, [AllowNull] ModuleOptions options = null)
        {
            if (device == null)
                throw new ArgumentNullException("device");
            var h = new DcModuleHandle();
            IntPtr raw;
            DcModuleOptions o = options == null ? default(DcModuleOptions) : options.ToNative();
            using (var d = device.Use())
            using (var p = new Pin(program == null ? null : program.Handle, "program"))
                DcException.Check(NativeMethods.dc_module_load_program(d.Raw, p.Raw, options == null ? null : &o, &raw));
            return Adopt(h, raw);
        }

        /// <summary>Load a PTX, CUBIN or fatbin file.</summary>
        public static DcModule LoadFile(Device device, string path, [AllowNull] ModuleOptions options = null)
        {
            if (device == null)
                throw new ArgumentNullException("device");
            if (path == null)
                throw new ArgumentNullException("path");
            var h = new DcModuleHandle();
            IntPtr raw;
            DcModuleOptions o = options == null ? default(DcModuleOptions) : options.ToNative();
            byte[] p8 = Utf8.Encode(path);
            fixed (byte* p = p8)
            using (var d = device.Use())
                DcException.Check(NativeMethods.dc_module_load_file(d.Raw, p, options == null ? null : &o, &raw));
            return Adopt(h, raw);
        }

        /// <summary>Compile CUDA C++ for `device` (through the kernel cache) and load it.</summary>
        public static DcModule CompileAndLoad(Device device, string source, [AllowNull] CompileOptions options = null, [AllowNull] string name = null)
        {
            if (device == null)
                throw new ArgumentNullException("device");
            if (source == null)
                throw new ArgumentNullException("source");
            var h = new DcModuleHandle();
            IntPtr raw;
            using (var arena = new Utf8Arena())
            using (var d = device.Use())
            {
                DcCompileOptions o = options == null ? default(DcCompileOptions) : options.Marshal(arena);
                byte[] src = Utf8.Encode(source);
                byte[] nm = Utf8.Encode(name);
                fixed (byte* s = src)
                fixed (byte* n = nm)
                    DcException.Check(NativeMethods.dc_module_compile_and_load(d.Raw, s, n, options == null ? null : &o, &raw));
            }
            return Adopt(h, raw);
        }

        /// <summary>The JIT info log of the load ("" for CUBIN).</summary>
        public string JitLog
        {
            get
            {
                IntPtr log;
                using (var m = Use())
                {
                    DcException.Check(NativeMethods.dc_module_jit_log(m.Raw, &log));
                    return Utf8.Decode(log);
                }
            }
        }

        /// <summary>A kernel by its (mangled, for C++) name; a missing name is
        /// DC_ERROR_NOT_FOUND listing the kernels the module has.</summary>
        public Function GetFunction(string name)
        {
            var h = new DcFunctionHandle();
            IntPtr raw;
            byte[] n8 = Utf8.Encode(name);
            fixed (byte* n = n8)
            using (var m = Use())
                DcException.Check(NativeMethods.dc_module_get_function(m.Raw, n, &raw));
            h.Adopt(raw);
            return new Function(h);
        }

        /// <summary>The number of kernels in the module.</summary>
        public int FunctionCount
        {
            get
            {
                uint n;
                using (var m = Use())
                    DcException.Check(NativeMethods.dc_module_function_count(m.Raw, &n));
                return (int)n;
            }
        }

        /// <summary>The name of kernel `index` (0 .. FunctionCount - 1).</summary>
        public string GetFunctionName(int index)
        {
            if (index < 0)
                throw new ArgumentOutOfRangeException("index", index, "a kernel index is 0 or more");
            IntPtr name;
            using (var m = Use())
            {
                DcException.Check(NativeMethods.dc_module_function_name(m.Raw, (uint)index, &name));
                return Utf8.Decode(name);
            }
        }

        /// <summary>Every kernel's name.</summary>
        public IList<string> FunctionNames
        {
            get
            {
                int n = FunctionCount;
                var list = new List<string>(n);
                for (int i = 0; i < n; i++)
                    list.Add(GetFunctionName(i));
                return list;
            }
        }

        /// <summary>A __device__ / __constant__ variable as a buffer (it keeps the module loaded).</summary>
        public DeviceBuffer GetGlobal(string name)
        {
            return new DeviceBuffer(GlobalHandle(name));
        }

        /// <summary>A __device__ / __constant__ variable as a buffer of T.</summary>
        public DeviceBuffer<T> GetGlobal<T>(string name)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            var b = new DeviceBuffer<T>(GlobalHandle(name));
            if (b.SizeInBytes % (ulong)DeviceBuffer<T>.ElementSize != 0)
            {
                ulong size = b.SizeInBytes;
                b.Dispose();
                throw new ArgumentException("DcModule.GetGlobal<" + typeof(T).Name + ">: " + name + " is " + size +
                                            " bytes, not a whole number of " + DeviceBuffer<T>.ElementSize + "-byte elements");
            }
            return b;
        }

        private DcBufferHandle GlobalHandle(string name)
        {
            var h = new DcBufferHandle();
            IntPtr raw;
            byte[] n8 = Utf8.Encode(name);
            fixed (byte* n = n8)
            using (var m = Use())
                DcException.Check(NativeMethods.dc_module_get_global(m.Raw, n, &raw));
            h.Adopt(raw);
            return h;
        }

        /// <summary>True once Dispose released the handle.</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the module; functions taken from it keep it loaded until they go.</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
