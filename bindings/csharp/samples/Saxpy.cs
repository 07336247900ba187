// saxpy from C#: compile CUDA C++ with NVRTC for the device, copy in, launch, copy out, check
// against the CPU. Exit status: 0 checked, 1 wrong result or error, 2 no usable driver,
// 3 no device.
//   mcs -unsafe -r:Dccuda.dll Saxpy.cs && mono Saxpy.exe [n]
using System;
using Dccuda;

internal static class Saxpy
{
    private const string Source = @"
extern ""C"" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
";

    private static int Main(string[] args)
    {
        int n = args.Length > 0 ? int.Parse(args[0]) : 1 << 20;
        const float a = 2.5f;
        try
        {
            if (Device.Count == 0)
            {
                Console.WriteLine("saxpy: the driver reports no CUDA device");
                return 3;
            }
            using (Device device = Device.Open(0))
            using (DcModule module = device.CompileAndLoad(Source, null, "saxpy.cu"))
            using (Function saxpy = module.GetFunction("saxpy"))
            using (DcStream stream = device.CreateStream())
            using (DeviceBuffer<float> x = device.Allocate<float>(n))
            using (DeviceBuffer<float> y = device.Allocate<float>(n))
            {
                Console.WriteLine("saxpy on {0}, n = {1}", device.Info, n);
                var hx = new float[n];
                var hy = new float[n];
                for (int i = 0; i < n; i++)
                {
                    hx[i] = i % 1000 * 0.001f;
                    hy[i] = 1f - i % 7;
                }
                x.EnqueueCopyFrom(hx, stream);
                y.EnqueueCopyFrom(hy, stream);
                LaunchConfig config = saxpy.Config1D((ulong)n);
                saxpy.Launch(config, stream, new KernelArgs().Value(a).Buffer(x).Buffer(y).Value(n));
                var result = new float[n];
                y.EnqueueCopyTo(result, stream);
                stream.Synchronize();

                int wrong = 0;
                for (int i = 0; i < n; i++)
                {
                    float want = a * hx[i] + hy[i];
                    if (Math.Abs(result[i] - want) > 1e-5f * Math.Max(1f, Math.Abs(want)))
                    {
                        if (wrong++ < 5)
                            Console.WriteLine("  y[{0}] = {1}, expected {2}", i, result[i], want);
                    }
                }
                Console.WriteLine("launch: {0}", config);
                Console.WriteLine(wrong == 0 ? "saxpy: all {0} results correct" : "saxpy: {1} of {0} results WRONG", n, wrong);
                return wrong == 0 ? 0 : 1;
            }
        }
        catch (DcException e)
        {
            Console.WriteLine("saxpy: {0}: {1}", e.StatusName, e.Message);
            if (e.Detail.Length > 0)
                Console.WriteLine(e.Detail);
            return e.Status == DcStatus.NoDriver ? 2 : e.Status == DcStatus.NoDevice ? 3 : 1;
        }
    }
}
