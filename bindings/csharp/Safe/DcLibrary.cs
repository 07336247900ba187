// A dc_library: an image loaded once for the process (the driver's cuLibrary),
// whose kernels become functions on any device.
using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>A context-independent library (dc_library): a PTX, CUBIN or fatbin image loaded once,
    /// whose kernels are got as functions on every device without loading per device (CUDA 12.0+
    /// drivers; older ones are DC_ERROR_NOT_SUPPORTED). Disposing it is safe while functions taken from
    /// it live: they keep it loaded.</summary>
    public sealed unsafe class DcLibrary : IDisposable
    {
        internal DcLibrary(DcLibraryHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_library (for NativeMethods calls).</summary>
        public DcLibraryHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "DcLibrary"); }

        /// <summary>Load an image in memory (PTX, CUBIN, fatbin; the image is copied).</summary>
        public static DcLibrary Load(ReadOnlySpan<byte> image, [AllowNull] ModuleOptions options = null)
        {
            var h = new DcLibraryHandle();
            IntPtr raw;
            DcModuleOptions o = options == null ? default(DcModuleOptions) : options.ToNative();
            fixed (byte* img = &System.Runtime.InteropServices.MemoryMarshal.GetReference(image))
                DcException.Check(NativeMethods.dc_library_load(img, (ulong)image.Length, options == null ? null : &o, &raw));
            h.Adopt(raw);
            return new DcLibrary(h);
        }

        /// <summary>Load an image in a byte array (PTX, CUBIN, fatbin; copied).</summary>
        public static DcLibrary Load(byte[] image, [AllowNull] ModuleOptions options = null)
        {
            if (image == null)
                throw new ArgumentNullException("image");
            return Load(new ReadOnlySpan<byte>(image), options);
        }

        /// <summary>Load a PTX, CUBIN or fatbin file.</summary>
        public static DcLibrary LoadFile(string path, [AllowNull] ModuleOptions options = null)
        {
            if (path == null)
                throw new ArgumentNullException("path");
            var h = new DcLibraryHandle();
            IntPtr raw;
            DcModuleOptions o = options == null ? default(DcModuleOptions) : options.ToNative();
            byte[] p8 = Utf8.Encode(path);
            fixed (byte* p = p8)
                DcException.Check(NativeMethods.dc_library_load_file(p, options == null ? null : &o, &raw));
            h.Adopt(raw);
            return new DcLibrary(h);
        }

        /// <summary>Kernel `name` (mangled, for C++) as a function on `device`; the driver loads the
        /// code there on first use. A missing name is DC_ERROR_NOT_FOUND listing the kernels.</summary>
        public Function GetFunction(Device device, string name)
        {
            if (device == null)
                throw new ArgumentNullException("device");
            var h = new DcFunctionHandle();
            IntPtr raw;
            byte[] n8 = Utf8.Encode(name);
            fixed (byte* n = n8)
            using (var l = Use())
            using (var d = device.Use())
                DcException.Check(NativeMethods.dc_library_get_function(l.Raw, d.Raw, n, &raw));
            h.Adopt(raw);
            return new Function(h);
        }

        /// <summary>The number of kernels in the library.</summary>
        public int FunctionCount
        {
            get
            {
                uint n;
                using (var l = Use())
                    DcException.Check(NativeMethods.dc_library_function_count(l.Raw, &n));
                return (int)n;
            }
        }

        /// <summary>The name of kernel `index` (0 .. FunctionCount - 1).</summary>
        public string GetFunctionName(int index)
        {
            if (index < 0)
                throw new ArgumentOutOfRangeException("index", index, "a kernel index is 0 or more");
            IntPtr name;
            using (var l = Use())
            {
                DcException.Check(NativeMethods.dc_library_function_name(l.Raw, (uint)index, &name));
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

        /// <summary>True once Dispose released the handle.</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the library; functions taken from it keep it loaded until they go.</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
