// dc_link: device code of several programs, files and archives linked into one CUBIN
// (nvJitLink, else the driver's cuLink), through the kernel cache. The result is a DcProgram:
// load it with DcModule.Load(device, program). A failed link is DcException(DC_ERROR_COMPILE)
// with the linker's error log in Detail.
using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>One input of Linker.Link: a program's output, bytes in memory, or a file.</summary>
    public sealed class LinkInput
    {
        private LinkInput(LinkInputKind kind, DcProgram program, byte[] data, string path, string name)
        {
            Kind = kind;
            Program = program;
            Data = data;
            Path = path;
            Name = name;
        }

        /// <summary>What the bytes are.</summary>
        public LinkInputKind Kind { get; private set; }
        /// <summary>The program whose output is linked (Kind Program), else null.</summary>
        public DcProgram Program { get; private set; }
        /// <summary>The bytes, else null.</summary>
        public byte[] Data { get; private set; }
        /// <summary>The file, else null.</summary>
        public string Path { get; private set; }
        /// <summary>The name in the linker's logs, or null.</summary>
        public string Name { get; private set; }

        /// <summary>A compiled program's output (relocatable CUBIN, PTX or LTO-IR).</summary>
        public static LinkInput FromProgram(DcProgram program, [AllowNull] string name = null)
        {
            if (program == null)
                throw new ArgumentNullException("program");
            return new LinkInput(LinkInputKind.Program, program, null, null, name);
        }

        /// <summary>Bytes of `kind` (copied during the link).</summary>
        public static LinkInput FromBytes(LinkInputKind kind, byte[] data, [AllowNull] string name = null)
        {
            if (data == null)
                throw new ArgumentNullException("data");
            return new LinkInput(kind, null, data, null, name);
        }

        /// <summary>A file of `kind`, read during the link.</summary>
        public static LinkInput FromFile(LinkInputKind kind, string path, [AllowNull] string name = null)
        {
            if (path == null)
                throw new ArgumentNullException("path");
            return new LinkInput(kind, null, null, path, name);
        }

        /// <summary>The device runtime (libcudadevrt) for dynamic parallelism: found in the
        /// CUDA toolkit, or at `path`.</summary>
        public static LinkInput DeviceRuntime([AllowNull] string path = null)
        {
            return new LinkInput(LinkInputKind.DeviceRuntime, null, null, path, null);
        }
    }

    /// <summary>dc_link_options as a builder.</summary>
    public sealed class LinkOptions
    {
        private readonly List<string> options = new List<string>();

        /// <summary>10 * major + minor (90 = sm_90); 0: the device's own.</summary>
        public int Arch { get; set; }
        /// <summary>DC_LINK_* flags.</summary>
        public LinkFlags Flags { get; set; }
        /// <summary>-O: 0..3; -1: the linker's default.</summary>
        public int OptimizationLevel { get; set; } = -1;
        /// <summary>-maxrregcount; 0: no limit.</summary>
        public int MaxRegisters { get; set; }
        /// <summary>Raw nvJitLink options.</summary>
        public IList<string> RawOptions { get { return options; } }

        /// <summary>Sets Arch.</summary>
        public LinkOptions WithArch(int arch) { Arch = arch; return this; }
        /// <summary>Adds flags.</summary>
        public LinkOptions WithFlags(LinkFlags flags) { Flags |= flags; return this; }
        /// <summary>Sets OptimizationLevel.</summary>
        public LinkOptions WithOptimizationLevel(int level) { OptimizationLevel = level; return this; }
        /// <summary>Adds a raw nvJitLink option.</summary>
        public LinkOptions Option(string option) { options.Add(option); return this; }

        internal DcLinkOptions Marshal(Utf8Arena arena)
        {
            DcLinkOptions o = DcLinkOptions.Init();
            o.Arch = Arch;
            o.Flags = (uint)Flags;
            o.OptimizationLevel = OptimizationLevel;
            o.MaxRegisters = MaxRegisters;
            o.NumOptions = (uint)options.Count;
            o.Options = arena.Strings(options);
            return o;
        }
    }

    /// <summary>dc_link and dc_nvjitlink_version.</summary>
    public static unsafe class Linker
    {
        /// <summary>Link `inputs` into one CUBIN (a DcProgram, through the kernel cache).
        /// `device` supplies the architecture when options.Arch is 0, and the context the
        /// driver's cuLink links in (without nvJitLink, or with LinkFlags.UseDriver).</summary>
        public static DcProgram Link(IList<LinkInput> inputs, [AllowNull] LinkOptions options = null,
                                     [AllowNull] Device device = null)
        {
            NativeLibraryResolver.Register();
            if (inputs == null)
                throw new ArgumentNullException("inputs");
            var pins = new List<Pin>();
            var buffers = new List<GCHandle>();
            var h = new DcProgramHandle();
            IntPtr raw;
            try
            {
                using (var arena = new Utf8Arena())
                using (var d = new Pin(device == null ? null : device.Handle, "device", optional: true))
                {
                    var native = new DcLinkInput[inputs.Count];
                    for (int i = 0; i < inputs.Count; i++)
                    {
                        LinkInput input = inputs[i];
                        if (input == null)
                            throw new ArgumentNullException("inputs[" + i + "]");
                        native[i].Kind = (int)input.Kind;
                        if (input.Program != null)
                        {
                            Pin p = input.Program.Use();
                            pins.Add(p);
                            native[i].Program = p.Raw;
                        }
                        if (input.Data != null)
                        {
                            GCHandle g = GCHandle.Alloc(input.Data, GCHandleType.Pinned);
                            buffers.Add(g);
                            native[i].Data = g.AddrOfPinnedObject();
                            native[i].Size = (ulong)input.Data.Length;
                        }
                        native[i].Path = arena.String(input.Path);
                        native[i].Name = arena.String(input.Name);
                    }
                    DcLinkOptions o = options == null ? DcLinkOptions.Init() : options.Marshal(arena);
                    fixed (DcLinkInput* n = native)
                        DcException.Check(NativeMethods.dc_link(native.Length == 0 ? null : n, (uint)native.Length, &o,
                                                                d.Raw, &raw));
                }
            }
            finally
            {
                foreach (GCHandle g in buffers)
                    g.Free();
                foreach (Pin p in pins)
                    p.Dispose();
            }
            h.Adopt(raw);
            return new DcProgram(h);
        }

        /// <summary>The version of the nvJitLink dc_link uses (0.0 when it cannot say);
        /// DcException(DC_ERROR_NOT_SUPPORTED) when there is none.</summary>
        public static Version NvJitLinkVersion
        {
            get
            {
                NativeLibraryResolver.Register();
                int major, minor;
                DcException.Check(NativeMethods.dc_nvjitlink_version(&major, &minor));
                return new Version(major, minor);
            }
        }
    }
}
