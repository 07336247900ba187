// The C# binding's tests: run under mono against the built libdccuda, in CI through the fake
// driver (DCCUDA_DRIVER_LIBRARY) and on a GPU machine against the real driver. Tests that
// need the fake's counters skip elsewhere; every other check holds on a real GPU too.
using System;

namespace Dccuda.Tests
{
    internal static class Kernels
    {
        /// <summary>saxpy as the library's own tests write it (the fake driver emulates it by
        /// name), a module global and a template for name expressions.</summary>
        public const string Source = @"
__device__ int answer = 42;

extern ""C"" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void scale(T* p, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
}
";
    }

    internal static class TestMain
    {
        private static int Main(string[] args)
        {
            try
            {
                Console.WriteLine("dccuda C# binding tests: library {0}, driver {1}", Dc.LibraryVersion,
                                  TestEnv.OnFakeDriver ? "FAKE (a test double, not a GPU)" : "real (or none)");
            }
            catch (Exception e)
            {
                // The library could not be loaded: say why (the innermost message names it).
                while (e.InnerException != null)
                    e = e.InnerException;
                Console.WriteLine("cannot load dccuda: " + e.GetType().Name + ": " + e.Message);
                return 2;
            }
            if (Array.IndexOf(args, "--version") >= 0)
                return 0;
            return TestRunner.Run(new[]
            {
                typeof(CoreTests), typeof(DeviceTests), typeof(BufferTests), typeof(StreamTests),
                typeof(CompileTests), typeof(LaunchTests), typeof(LifetimeTests), typeof(RegressionTests),
                // Last: on a real GPU a kernel fault is kept for the whole process.
                typeof(FaultTests),
            }, args);
        }
    }
}
