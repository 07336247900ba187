// The echo actor from C#: a resident kernel served through message queues, the smallest
// complete "GPU actor". The actor (dc_echo_cursor of tests/queue/echo_kernel.cuh, compiled with
// NVRTC together with include/dccuda_device.h, both given as in-memory headers) is launched once
// with LaunchFlags.Persistent on a non-blocking stream and answers every message of a ToDevice
// queue on a ToHost queue until its control block asks it to stop. The host sends numbered
// messages with EnqueueAsync, awaits each answer with DequeueAsync (no thread held while it
// waits), checks every byte, reads the heartbeat, stops the kernel with WaitStoppedAsync and
// prints the round trip's median. Every wait has a time limit.
//   mcs -unsafe -r:Dccuda.dll EchoActor.cs QueueKernelSources.cs && mono EchoActor.exe [messages]
// QueueKernelSources.cs is generated from the two kernel files (cmake/queue_kernel_sources.cmake).
// Exit status: 0 every answer right, 1 a wrong answer or an error, 2 no usable driver, 3 no
// device, 4 no NVRTC to compile the actor.
using System;
using System.Diagnostics;
using System.Threading.Tasks;
using Dccuda;

internal static class EchoActor
{
    private const int SlotSize = 256, Capacity = 64;
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(20);

    private static int Main(string[] args)
    {
        int count = args.Length > 0 ? int.Parse(args[0]) : 10000;
        try
        {
            return Run(Math.Max(count, 1)).GetAwaiter().GetResult();
        }
        catch (DcException e)
        {
            Console.WriteLine("echo-actor: {0}: {1}", e.StatusName, e.Message);
            if (e.Detail.Length > 0)
                Console.WriteLine(e.Detail);
            return e.Status == DcStatus.NoDriver ? 2 : e.Status == DcStatus.NoDevice ? 3 : 1;
        }
    }

    private static async Task<int> Run(int count)
    {
        if (Device.Count == 0)
        {
            Console.WriteLine("echo-actor: the driver reports no CUDA device");
            return 3;
        }
        using (Device device = Device.Open(0))
        {
            Console.WriteLine("echo-actor on {0}", device.Info);
            var options = new CompileOptions()
                .Header("dccuda_device.h", QueueKernelSources.DeviceHeader)
                .Header("echo_kernel.cuh", QueueKernelSources.EchoKernel);
            DcModule module;
            try
            {
                module = device.CompileAndLoad("#include \"echo_kernel.cuh\"\n", options, "echo_actor.cu");
            }
            catch (DcException e) when (e.Status == DcStatus.NoCompiler)
            {
                Console.WriteLine("echo-actor: NVRTC is not available ({0}); the actor cannot be compiled", e.Message);
                return 4;
            }
            using (module)
            using (Function actor = module.GetFunction("dc_echo_cursor"))
            using (DcStream stream = device.CreateStream())
            using (MessageQueue requests = MessageQueue.Create(device, QueueDirection.ToDevice, SlotSize, Capacity))
            using (MessageQueue answers = MessageQueue.Create(device, QueueDirection.ToHost, SlotSize, Capacity))
            using (Control control = Control.Create(device))
            using (DeviceBuffer inRing = requests.GetBuffer())
            using (DeviceBuffer outRing = answers.GetBuffer())
            using (DeviceBuffer block = control.GetBuffer())
            {
                var config = new LaunchConfig(1, 1) { Flags = LaunchFlags.Persistent };
                actor.Launch(config, stream, new KernelArgs().Buffer(inRing).Buffer(outRing).Buffer(block));
                int wrong = await Exchange(requests, answers, count);
                ControlInfo status = control.Status;
                control.RequestStop();
                await control.WaitStoppedAsync(Limit);
                stream.Synchronize();
                Console.WriteLine("{0} messages answered; heartbeat {1}, kernel errors {2}", count, status.Heartbeat,
                                  control.Status.Errors);
                bool ok = wrong == 0 && control.Status.Errors == 0;
                Console.WriteLine("echo-actor: {0}", ok ? "OK" : "FAILED");
                return ok ? 0 : 1;
            }
        }
    }

    // Sends `count` messages, one at a time: a sequence number and 8 to 56 more bytes; the actor
    // answers with the same number and every further byte plus one. How many answers were wrong.
    private static async Task<int> Exchange(MessageQueue requests, MessageQueue answers, int count)
    {
        var message = new byte[64];
        var answer = new byte[SlotSize];
        var times = new double[count];
        int wrong = 0;
        for (int i = 0; i < count; ++i)
        {
            int n = 16 + i % 49;
            BitConverter.GetBytes((ulong)i).CopyTo(message, 0);
            for (int k = 8; k < n; ++k)
                message[k] = (byte)(i + k);
            var watch = Stopwatch.StartNew();
            await requests.EnqueueAsync(new ReadOnlyMemory<byte>(message, 0, n), Limit);
            int got = await answers.DequeueAsync(answer, Limit);
            times[i] = watch.Elapsed.TotalMilliseconds * 1000;
            bool right = got == n && BitConverter.ToUInt64(answer, 0) == (ulong)i;
            for (int k = 8; right && k < n; ++k)
                right = answer[k] == (byte)(i + k + 1);
            if (!right && wrong++ < 5)
                Console.WriteLine("  answer {0} is wrong ({1} bytes)", i, got);
        }
        Array.Sort(times);
        Console.WriteLine("round trip median {0:F2} us, p99 {1:F2} us (awaited: the thread is given back while it waits)",
                          times[count / 2], times[Math.Min(count - 1, (int)(count * 0.99))]);
        return wrong;
    }
}
