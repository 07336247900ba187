// Linking through the binding: LTO-IR of two programs (nvJitLink), relocatable CUBINs with
// the driver's cuLink, the result loaded as a module; a failed link with its log.
using System;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class LinkTests
    {
        private const string Callee = "extern \"C\" __device__ float axpy_one(float a, float x, float y) { return a * x + y; }\n";
        private const string Caller =
            "extern \"C\" __device__ float axpy_one(float a, float x, float y);\n" +
            "extern \"C\" __global__ void saxpy(float a, const float* x, float* y, int n) {\n" +
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" +
            "  if (i < n) y[i] = axpy_one(a, x[i], y[i]);\n" +
            "}\n";

        private static void RequireNvJitLink()
        {
            try
            {
                Version v = Linker.NvJitLinkVersion;
                Expect.True(v.Major >= 0, "a version");
            }
            catch (DcException e)
            {
                if (e.Status != DcStatus.NotSupported)
                    throw;
                throw Skip.Because("nvJitLink is not available: " + e.Message);
            }
        }

        [Fact]
        public void LtoIrOfTwoProgramsLinksAndLoads()
        {
            TestEnv.RequireNvrtc();
            RequireNvJitLink();
            using (Device d = TestEnv.OpenDevice())
            {
                CompileOptions o = new CompileOptions().WithOutput(OutputKind.LtoIr).WithFlags(CompileFlags.Relocatable);
                using (DcProgram caller = DcProgram.Compile(Caller, o, "caller.cu", d))
                using (DcProgram callee = DcProgram.Compile(Callee, o, "callee.cu", d))
                using (DcProgram linked = Linker.Link(new[] { LinkInput.FromProgram(caller), LinkInput.FromBytes(LinkInputKind.LtoIr, callee.GetImage(), "callee") },
                                                      new LinkOptions().WithFlags(LinkFlags.NoCache), d))
                using (DcModule m = DcModule.Load(d, linked))
                using (Function f = m.GetFunction("saxpy"))
                {
                    Expect.Equal(OutputKind.Cubin, linked.OutputKind, "a CUBIN");
                    Expect.Equal(CacheSource.Miss, linked.CacheSource, "NoCache links");
                }
            }
        }

        [Fact]
        public void RelocatableCubinsLinkWithTheDriver()
        {
            TestEnv.RequireNvrtc();
            using (Device d = TestEnv.OpenDevice())
            {
                CompileOptions o = new CompileOptions().WithFlags(CompileFlags.Relocatable);
                using (DcProgram caller = DcProgram.Compile(Caller, o, "caller.cu", d))
                using (DcProgram callee = DcProgram.Compile(Callee, o, "callee.cu", d))
                using (DcProgram linked = Linker.Link(new[] { LinkInput.FromProgram(caller), LinkInput.FromProgram(callee) },
                                                      new LinkOptions().WithFlags(LinkFlags.UseDriver | LinkFlags.NoCache), d))
                using (DcModule m = DcModule.Load(d, linked))
                using (Function f = m.GetFunction("saxpy"))
                    Expect.Equal(OutputKind.Cubin, linked.OutputKind, "a CUBIN");
            }
        }

        [Fact]
        public void AnUndefinedSymbolIsACompileErrorWithTheLog()
        {
            TestEnv.RequireNvrtc();
            RequireNvJitLink();
            using (Device d = TestEnv.OpenDevice())
            using (DcProgram caller = DcProgram.Compile(Caller, new CompileOptions().WithFlags(CompileFlags.Relocatable), "caller.cu", d))
            {
                DcException e = Expect.Throws(DcStatus.Compile, () => Linker.Link(new[] { LinkInput.FromProgram(caller) }, null, d),
                                              "a link with an undefined symbol", "dc_link", "the link failed");
                Expect.Contains("axpy_one", e.Detail, "the linker's log names the symbol");
                Expect.Throws(DcStatus.InvalidArgument, () => Linker.Link(new LinkInput[0], null, d), "no inputs", "count is 0");
            }
        }
    }
}
