// A dc_program: the result of an NVRTC compile (through the kernel cache): the image, the
// log and the lowered names. A compile error is DcException(DC_ERROR_COMPILE) with the first
// error line in Message and the whole log in Detail.
using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>The result of an NVRTC compile (dc_program), through the kernel cache: the image, the log and the lowered names.</summary>
    public sealed unsafe class DcProgram : IDisposable
    {
        internal DcProgram(DcProgramHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_program (for NativeMethods calls).</summary>
        public DcProgramHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "DcProgram"); }

        /// <summary>Compile CUDA C++ `source`. `name` names it in diagnostics; `device`
        /// (optional) supplies the architecture when options.Arch is 0.</summary>
        public static DcProgram Compile(string source, [AllowNull] CompileOptions options = null, [AllowNull] string name = null, [AllowNull] Device device = null)
        {
            // A possible first call: find the library before CompileCore is compiled (see Dc).
            NativeLibraryResolver.Register();
            return CompileCore(source, options, name, device);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static DcProgram CompileCore(string source, CompileOptions options, string name, Device device)
        {
            if (source == null)
                throw new ArgumentNullException("source");
            var h = new DcProgramHandle();
            IntPtr raw;
            using (var arena = new Utf8Arena())
            using (var d = new Pin(device == null ? null : device.Handle, "device", optional: true))
            {
                byte[] src = Utf8.Encode(source);
                byte[] nm = Utf8.Encode(name);
                DcCompileOptions o = options == null ? default(DcCompileOptions) : options.Marshal(arena);
                fixed (byte* s = src)
                fixed (byte* n = nm)
                    DcException.Check(NativeMethods.dc_compile(s, n, options == null ? null : &o, d.Raw, &raw));
            }
            h.Adopt(raw);
            return new DcProgram(h);
        }

        /// <summary>What the program holds: CUBIN, PTX or LTO-IR.</summary>
        public OutputKind OutputKind
        {
            get
            {
                int kind;
                using (var p = Use())
                    DcException.Check(NativeMethods.dc_program_output(p.Raw, &kind, null, null));
                return (OutputKind)kind;
            }
        }

        /// <summary>A copy of the compiled image (PTX includes its terminating NUL).</summary>
        public byte[] GetImage()
        {
            IntPtr data;
            ulong size;
            using (var p = Use())
            {
                DcException.Check(NativeMethods.dc_program_output(p.Raw, null, &data, &size));
                var copy = new byte[checked((int)size)];
                if (size > 0)
                    System.Runtime.InteropServices.Marshal.Copy(data, copy, 0, copy.Length);
                return copy;
            }
        }

        /// <summary>The PTX text (OutputKind.Ptx only).</summary>
        public string Ptx
        {
            get
            {
                if (OutputKind != OutputKind.Ptx)
                    throw new InvalidOperationException("DcProgram.Ptx: the program holds " + OutputKind + ", not PTX; compile with OutputKind.Ptx");
                byte[] image = GetImage();
                int n = Array.IndexOf(image, (byte)0);
                fixed (byte* b = image)
                    return Utf8.Decode(b, n < 0 ? image.Length : n);
            }
        }

        /// <summary>The compiler log (warnings), "" if empty.</summary>
        public string Log
        {
            get
            {
                IntPtr log;
                using (var p = Use())
                {
                    DcException.Check(NativeMethods.dc_program_log(p.Raw, &log));
                    return Utf8.Decode(log);
                }
            }
        }

        /// <summary>The lowered (mangled) name of a name expression given at compile time.</summary>
        public string LoweredName(string nameExpression)
        {
            IntPtr lowered;
            byte[] expr = Utf8.Encode(nameExpression);
            using (var p = Use())
            fixed (byte* e = expr)
            {
                DcException.Check(NativeMethods.dc_program_lowered_name(p.Raw, e, &lowered));
                return Utf8.Decode(lowered);
            }
        }

        /// <summary>Where the output came from: compiled now, the in-process cache, the disk cache.</summary>
        public CacheSource CacheSource
        {
            get
            {
                int s;
                using (var p = Use())
                    DcException.Check(NativeMethods.dc_program_cache_source(p.Raw, &s));
                return (CacheSource)s;
            }
        }

        /// <summary>True once Dispose released the handle.</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the program (modules loaded from it are independent of it).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
