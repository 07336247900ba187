// NVRTC through the binding (compile errors with their log, options, name expressions, the
// cache), and modules: functions, parameter layouts, globals, bad images.
using System;
using System.Linq;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class CompileTests
    {
        private static CompileOptions Sm80() { return new CompileOptions().WithArch(80); }

        /// <summary>An error is surfaced with its message and the compiler's whole log.</summary>
        [Fact]
        public void CompileErrorCarriesTheLog()
        {
            TestEnv.RequireNvrtc();
            const string broken = "extern \"C\" __global__ void broken(int* p) {\n  p[0] = undeclared_thing;\n}\n";
            DcException e = Expect.Throws(DcStatus.Compile, () => DcProgram.Compile(broken, Sm80(), "brökén.cu"),
                                          "compiling broken source", "dc_compile", "brökén.cu", "undeclared_thing");
            Expect.Contains("error", e.Detail, "the log in Detail");
            Expect.Contains("brökén.cu(2)", e.Detail, "the log names the file and line (UTF-8 name)");
            Expect.NotEqual(0, e.NvrtcError, "the raw nvrtcResult");
            Expect.Equal(0, e.CudaError, "no CUresult");
            Expect.Contains("DC_ERROR_COMPILE", e.ToString(), "ToString names the status");
        }

        [Fact]
        public void SupportedArchitecturesAreAscendingAndHoldSm90()
        {
            TestEnv.RequireNvrtc();
            int[] archs = Dc.NvrtcSupportedArchs;
            Expect.True(archs.Length > 0, "some architectures");
            for (int i = 1; i < archs.Length; i++)
                Expect.True(archs[i - 1] < archs[i], "ascending");
            Expect.True(Array.IndexOf(archs, 90) >= 0, "sm_90 is there");
        }

        [Fact]
        public void PtxWithNameExpressionsAndTheCache()
        {
            TestEnv.RequireNvrtc();
            CompileOptions o = Sm80().WithOutput(OutputKind.Ptx).NameExpression("scale<float>").NameExpression("&scale<double>");
            using (DcProgram p = DcProgram.Compile(Kernels.Source, o, "kernels.cu"))
            using (DcProgram again = DcProgram.Compile(Kernels.Source, o, "kernels.cu"))
            {
                Expect.Equal(OutputKind.Ptx, p.OutputKind, "output kind");
                Expect.Contains(".entry saxpy", p.Ptx, "the PTX has saxpy");
                Expect.Equal("_Z5scaleIfEvPT_S0_i", p.LoweredName("scale<float>"), "lowered scale<float>");
                Expect.Equal("_Z5scaleIdEvPT_S0_i", p.LoweredName("&scale<double>"), "lowered &scale<double>");
                Expect.Contains(".entry _Z5scaleIfEvPT_S0_i", p.Ptx, "the PTX has scale<float>");
                Expect.Throws(DcStatus.NotFound, () => p.LoweredName("scale<int>"), "an expression not given", "scale<int>");
                Expect.Equal(CacheSource.Memory, again.CacheSource, "an identical compile comes from memory");
                Expect.SequenceEqual(p.GetImage(), again.GetImage(), "the cached image");
                Expect.True(p.Log != null, "the log is a string");
            }
        }

        [Fact]
        public void OptionsDefinesAndHeaders()
        {
            TestEnv.RequireNvrtc();
            const string src = "#include \"sizes.h\"\n" +
                               "extern \"C\" __global__ void fill(int* p) { p[threadIdx.x] = VALUE * SIZE_FROM_HEADER; }\n";
            CompileOptions o = Sm80().WithOutput(OutputKind.Ptx).WithStd("c++17")
                                     .Define("VALUE", "3").Header("sizes.h", "#define SIZE_FROM_HEADER 14\n")
                                     .WithFlags(CompileFlags.LineInfo | CompileFlags.NoCache).Option("--extra-device-vectorization");
            using (DcProgram p = DcProgram.Compile(src, o))
            {
                Expect.Contains("42", p.Ptx, "VALUE * SIZE_FROM_HEADER folded to 42");
                Expect.Equal(CacheSource.Miss, p.CacheSource, "NoCache compiles");
            }
            Expect.Throws(DcStatus.InvalidArgument, () => DcProgram.Compile(src, Sm80().Option("--no-such-option")),
                          "an option NVRTC rejects", "dc_compile");
        }

        [Fact]
        public void ModuleFunctionsAndParameterLayout()
        {
            TestEnv.RequireNvrtc();
            using (Device d = TestEnv.OpenDevice())
            using (DcProgram p = d.Compile(Kernels.Source, new CompileOptions().NameExpression("scale<float>")))
            using (DcModule m = d.LoadModule(p))
            {
                Expect.Equal(OutputKind.Cubin, p.OutputKind, "a device's own architecture gives CUBIN");
                byte[] image = p.GetImage();
                Expect.SequenceEqual(new byte[] { 0x7f, (byte)'E', (byte)'L', (byte)'F' }, image.Take(4).ToArray(), "ELF magic");
                Expect.True(m.FunctionNames.Contains("saxpy"), "saxpy among " + string.Join(", ", m.FunctionNames));
                Expect.Equal(m.FunctionNames.Count, m.FunctionCount, "function count");
                Expect.Equal("", m.JitLog, "no JIT log for CUBIN");
                using (Function saxpy = m.GetFunction("saxpy"))
                using (Function scale = m.GetFunction(p.LoweredName("scale<float>")))
                {
                    Expect.Equal("saxpy", saxpy.Name, "name");
                    Expect.Equal(4, saxpy.ParamCount, "saxpy has 4 parameters");
                    ulong[][] expected = { new ulong[] { 0, 4 }, new ulong[] { 8, 8 }, new ulong[] { 16, 8 }, new ulong[] { 24, 4 } };
                    for (int i = 0; i < 4; i++)
                    {
                        ParamInfo pi = saxpy.GetParamInfo(i);
                        Expect.Equal(expected[i][0], pi.Offset, "parameter " + i + " offset");
                        Expect.Equal(expected[i][1], pi.Size, "parameter " + i + " size");
                    }
                    Expect.Throws(DcStatus.OutOfRange, () => saxpy.GetParamInfo(4), "parameter 4", "dc_function_param_info");
                    Interop.DcFunctionInfo info = saxpy.Info;
                    Expect.Equal(4, info.NumParams, "info.num_params");
                    Expect.Equal(28U, info.ParamsBytes, "info.params_bytes");
                    Expect.True(info.MaxThreadsPerBlock > 0, "max threads per block");
                    Expect.Equal(3, scale.ParamCount, "scale<float> has 3 parameters");
                    saxpy.SetCachePreference(CachePreference.L1);
                    Expect.NotEqual(IntPtr.Zero, saxpy.Native, "CUfunction");
                }
                Expect.Throws(DcStatus.NotFound, () => m.GetFunction("no_such_kernel"), "a missing kernel", "no_such_kernel", "saxpy");
                using (DeviceBuffer<int> answer = m.GetGlobal<int>("answer"))
                {
                    Expect.Equal(BufferKind.ModuleGlobal, answer.Kind, "kind");
                    Expect.Equal(42, answer.ToArray()[0], "the global's initial value");
                    answer.CopyFrom(new[] { 7 });
                    Expect.Equal(7, answer.ToArray()[0], "the global after a write");
                }
                using (DcModule fromBytes = d.LoadModule(image))
                using (Function f = fromBytes.GetFunction("saxpy"))
                    Expect.Equal("saxpy", f.Name, "a module loaded from the image's bytes");
            }
        }

        [Fact]
        public void BadImagesAreInvalidImage()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                byte[] junk = { 0x7f, (byte)'E', (byte)'L', (byte)'F', 2, 1, 1, 0 };
                Expect.Throws(DcStatus.InvalidImage, () => d.LoadModule(junk), "a truncated ELF image", "dc_module_load");
                Expect.Throws(DcStatus.InvalidArgument, () => d.LoadModule(new byte[0]), "an empty image", "dc_module_load");
            }
        }
    }
}
