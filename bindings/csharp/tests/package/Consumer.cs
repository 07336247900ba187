// A program that uses the Dccuda package as a user would, written with the usings of a default
// `dotnet new console` project: it must find libdccuda in the package's runtimes folder without
// LD_LIBRARY_PATH (the resolver looks there, relative to Dccuda.dll), say which file it loaded,
// and use it (through whatever driver DCCUDA_DRIVER_LIBRARY names).
//   mono Consumer.exe RUNTIMES_DIR     exit 0 when libdccuda came from RUNTIMES_DIR and worked
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using Dccuda;

internal static class Consumer
{
    private static int Main(string[] args)
    {
        string expected = Path.GetFullPath(args[0]) + Path.DirectorySeparatorChar;
        Console.WriteLine("Dccuda.dll: " + typeof(Dc).Assembly.Location);
        Console.WriteLine("libdccuda " + Dc.LibraryVersion + ", driver " + Dc.DriverLibrary + ", " + Dc.DeviceCount + " device(s)");
        string loaded = LoadedLibdccuda();
        Console.WriteLine("libdccuda loaded from " + (loaded ?? "(nowhere?)"));
        if (loaded == null || !loaded.StartsWith(expected, StringComparison.Ordinal))
        {
            Console.WriteLine("FAIL: expected libdccuda from " + expected);
            return 1;
        }
        return Use().GetAwaiter().GetResult();
    }

    private static async Task<int> Use()
    {
        using (Device device = Device.Open(0))
        using (DcStream stream = device.CreateStream())
        using (DeviceBuffer<int> buffer = device.Allocate<int>(256))
        {
            buffer.EnqueueFill(7, stream);
            await stream.SynchronizeAsync(CancellationToken.None);
            int[] back = buffer.ToArray();
            if (back.Any(v => v != 7))
            {
                Console.WriteLine("FAIL: the fill did not arrive");
                return 1;
            }
        }
        Console.WriteLine("OK: a fill and an await through the packaged library");
        return 0;
    }

    /// <summary>The file libdccuda was mapped from (Linux: /proc/self/maps).</summary>
    private static string LoadedLibdccuda()
    {
        var files = new List<string>();
        foreach (string line in File.ReadAllLines("/proc/self/maps"))
        {
            int slash = line.IndexOf('/');
            if (slash >= 0 && Path.GetFileName(line.Substring(slash)).StartsWith("libdccuda", StringComparison.Ordinal))
                files.Add(line.Substring(slash));
        }
        return files.Distinct().SingleOrDefault();
    }
}
