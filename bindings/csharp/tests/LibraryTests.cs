// Context-independent libraries through the binding: one image loaded once, saxpy got on every
// device and launched there, checked against the CPU; a missing kernel is NotFound.
using System;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class LibraryTests
    {
        [Fact]
        public void OneLibraryServesEveryDevice()
        {
            TestEnv.RequireNvrtc();
            byte[] ptx;
            using (DcProgram p = DcProgram.Compile(Kernels.Source, new CompileOptions().WithOutput(OutputKind.Ptx), "kernels.cu"))
                ptx = p.GetImage();
            using (DcLibrary lib = DcLibrary.Load(ptx))
            {
                Expect.True(lib.FunctionNames.Contains("saxpy"), "saxpy is listed");
                int devices = Device.Count;
                for (int ordinal = 0; ordinal < devices; ordinal++)
                {
                    using (Device d = TestEnv.OpenDevice(ordinal))
                    using (Function f = lib.GetFunction(d, "saxpy"))
                    using (DcStream s = d.CreateStream())
                    {
                        const int n = 1001;
                        float[] x = new float[n], y = new float[n];
                        for (int i = 0; i < n; i++)
                        {
                            x[i] = i;
                            y[i] = 1 + i % 5;
                        }
                        float a = 2 + ordinal;
                        using (DeviceBuffer<float> dx = d.Allocate<float>(n))
                        using (DeviceBuffer<float> dy = d.Allocate<float>(n))
                        {
                            dx.CopyFrom(x);
                            dy.CopyFrom(y);
                            f.Launch(LaunchConfig.Cover(n, 128), s, new KernelArgs().Value(a).Buffer(dx).Buffer(dy).Value(n));
                            s.Synchronize();
                            float[] got = dy.ToArray();
                            for (int i = 0; i < n; i++)
                                Expect.Equal(a * x[i] + y[i], got[i], "device " + ordinal + ", y[" + i + "]");
                        }
                    }
                }
                using (Device d = TestEnv.OpenDevice())
                    Expect.Throws(DcStatus.NotFound, () => lib.GetFunction(d, "no_such_kernel"), "a missing kernel",
                                  "dc_library_get_function", "no_such_kernel");
            }
        }
    }
}
