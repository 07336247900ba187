// NVRTC options as a builder; Marshal turns them into dc_compile_options whose strings live
// in a Utf8Arena for the length of the call.
using System;
using System.Diagnostics.CodeAnalysis;
using System.Collections.Generic;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>Options for an NVRTC compile (dc_compile_options), as a builder: each With… and adder returns the same object.</summary>
    public sealed class CompileOptions
    {
        private readonly List<string> options = new List<string>();
        private readonly List<string> defines = new List<string>();
        private readonly List<string> includePaths = new List<string>();
        private readonly List<string> headerNames = new List<string>();
        private readonly List<string> headerSources = new List<string>();
        private readonly List<string> nameExpressions = new List<string>();

        /// <summary>What the compile produces: CUBIN (the default), PTX or LTO-IR.</summary>
        public OutputKind Output { get; set; }

        /// <summary>10 * major + minor (90 = sm_90); 0: the device's own when a device is
        /// given, else an error for CUBIN and NVRTC's default for PTX.</summary>
        public int Arch { get; set; }

        /// <summary>DC_COMPILE_* flags (fast math, line info, device debug, relocatable, architecture-specific).</summary>
        public CompileFlags Flags { get; set; }

        /// <summary>--maxrregcount; 0 = no limit.</summary>
        public int MaxRegisters { get; set; }

        /// <summary>"c++17", "c++20"...; null: NVRTC's default.</summary>
        [AllowNull, MaybeNull]
        public string Std { get; set; }

        /// <summary>NVRTC options passed as they are.</summary>
        public IList<string> RawOptions { get { return options; } }
        /// <summary>-D definitions: "NAME" or "NAME=VALUE".</summary>
        public IList<string> Defines { get { return defines; } }
        /// <summary>Folders searched for #include.</summary>
        public IList<string> IncludePaths { get { return includePaths; } }
        /// <summary>Expressions whose lowered (mangled) names DcProgram.LoweredName gives.</summary>
        public IList<string> NameExpressions { get { return nameExpressions; } }

        /// <summary>Set Output.</summary>
        public CompileOptions WithOutput(OutputKind kind) { Output = kind; return this; }
        /// <summary>Set Arch (10 * major + minor).</summary>
        public CompileOptions WithArch(int arch) { Arch = arch; return this; }
        /// <summary>Set Std ("c++17"...; null: NVRTC's default).</summary>
        public CompileOptions WithStd([AllowNull] string std) { Std = std; return this; }
        /// <summary>Add flags to Flags.</summary>
        public CompileOptions WithFlags(CompileFlags flags) { Flags |= flags; return this; }
        /// <summary>Set MaxRegisters (0: no limit).</summary>
        public CompileOptions WithMaxRegisters(int count) { MaxRegisters = count; return this; }

        /// <summary>A raw NVRTC option, passed as it is ("--extra-device-vectorization").</summary>
        public CompileOptions Option(string option) { options.Add(option); return this; }

        /// <summary>-D name or -D name=value.</summary>
        public CompileOptions Define(string name, [AllowNull] string value = null)
        {
            defines.Add(value == null ? name : name + "=" + value);
            return this;
        }

        /// <summary>Add a folder searched for #include.</summary>
        public CompileOptions IncludePath(string path) { includePaths.Add(path); return this; }

        /// <summary>An in-memory header: `#include "name"` finds `source`.</summary>
        public CompileOptions Header(string name, string source)
        {
            if (name == null || source == null)
                throw new ArgumentNullException(name == null ? "name" : "source");
            headerNames.Add(name);
            headerSources.Add(source);
            return this;
        }

        /// <summary>An expression whose lowered (mangled) name DcProgram.LoweredName gives, such
        /// as "scale&lt;float&gt;".</summary>
        public CompileOptions NameExpression(string expression) { nameExpressions.Add(expression); return this; }

        /// <summary>The native struct, its strings allocated in `arena` (valid until it is disposed).</summary>
        public DcCompileOptions Marshal(Utf8Arena arena)
        {
            DcCompileOptions o = DcCompileOptions.Init();
            o.Output = (int)Output;
            o.Arch = Arch;
            o.Flags = (uint)Flags;
            o.MaxRegisters = MaxRegisters;
            o.Std = arena.String(Std);
            o.NumOptions = (uint)options.Count;
            o.Options = arena.Strings(options);
            o.NumDefines = (uint)defines.Count;
            o.Defines = arena.Strings(defines);
            o.NumIncludePaths = (uint)includePaths.Count;
            o.IncludePaths = arena.Strings(includePaths);
            o.NumHeaders = (uint)headerNames.Count;
            o.HeaderNames = arena.Strings(headerNames);
            o.HeaderSources = arena.Strings(headerSources);
            o.NumNameExpressions = (uint)nameExpressions.Count;
            o.NameExpressions = arena.Strings(nameExpressions);
            return o;
        }
    }
}
