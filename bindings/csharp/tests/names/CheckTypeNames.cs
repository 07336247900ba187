// Checks that no public type of an assembly (Dccuda.dll) has the name of a type that a
// default `dotnet new console` project imports: its implicit usings are System, System.IO,
// System.Collections.Generic, System.Linq, System.Net.Http, System.Threading and
// System.Threading.Tasks, and with `using Dccuda;` beside them a type named like one of theirs
// is an ambiguous reference (CS0104), as Dccuda.Stream was with System.IO.Stream. Also checked:
// no two namespaces of the assembly share a type name, and no type is named Program (the class
// top-level statements generate).
//
// The BCL's names come from the assemblies Mono has (mscorlib, System, System.Core,
// System.Net.Http: what .NET Framework 4.8 has, and more), plus the names .NET 5 to 9 added to
// those namespaces, which Mono lacks (the list below).
//   mono CheckTypeNames.exe Dccuda.dll      exit 0: no clash; 1: clashes, listed
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net.Http;
using System.Reflection;

internal static class CheckTypeNames
{
    private static readonly string[] ImplicitUsings =
    {
        "System", "System.IO", "System.Collections.Generic", "System.Linq", "System.Net.Http",
        "System.Threading", "System.Threading.Tasks",
    };

    // Public types .NET 5-9 added to those namespaces (name`arity where generic): not in Mono 6.
    private static readonly string[] NewerDotNet =
    {
        "System.Half", "System.Index", "System.Range", "System.HashCode", "System.DateOnly", "System.TimeOnly",
        "System.TimeProvider", "System.Int128", "System.UInt128", "System.GCMemoryInfo", "System.GCKind",
        "System.GCGenerationInfo", "System.ISpanFormattable", "System.IUtf8SpanFormattable", "System.IParsable`1",
        "System.ISpanParsable`1", "System.IUtf8SpanParsable`1", "System.IAsyncDisposable", "System.SequencePosition",
        "System.MemoryExtensions", "System.ArgumentOutOfRangeException", "System.OperatingSystem",
        "System.Threading.Lock", "System.Threading.PeriodicTimer", "System.Threading.ITimer",
        "System.Threading.IThreadPoolWorkItem", "System.Threading.PreAllocatedOverlapped",
        "System.Threading.ThreadPoolBoundHandle",
        "System.Threading.Tasks.ConfigureAwaitOptions", "System.Threading.Tasks.TaskToAsyncResult",
        "System.Threading.Tasks.TaskAsyncEnumerableExtensions",
        "System.IO.UnixFileMode", "System.IO.FileStreamOptions", "System.IO.RandomAccess", "System.IO.MatchCasing",
        "System.IO.MatchType", "System.IO.EnumerationOptions", "System.IO.UnmanagedMemoryStream",
        "System.Collections.Generic.PriorityQueue`2", "System.Collections.Generic.OrderedDictionary`2",
        "System.Collections.Generic.ReferenceEqualityComparer", "System.Collections.Generic.CollectionExtensions",
        "System.Collections.Generic.KeyValuePair", "System.Collections.Generic.IAsyncEnumerable`1",
        "System.Collections.Generic.IAsyncEnumerator`1",
        "System.Linq.AsyncEnumerable",
        "System.Net.Http.HttpVersionPolicy", "System.Net.Http.SocketsHttpHandler", "System.Net.Http.HttpProtocolException",
        "System.Net.Http.HttpIOException", "System.Net.Http.HttpRequestError", "System.Net.Http.HttpRequestOptions",
        "System.Net.Http.HttpRequestOptionsKey`1", "System.Net.Http.ReadOnlyMemoryContent",
        "System.Net.Http.HttpKeepAlivePingPolicy", "System.Net.Http.SocketsHttpConnectionContext",
        "System.Net.Http.SocketsHttpPlaintextStreamFilterContext",
    };

    private static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: CheckTypeNames.exe ASSEMBLY");
            return 2;
        }
        Assembly checkedAssembly = Assembly.LoadFrom(Path.GetFullPath(args[0]));
        var bcl = new Dictionary<string, string>();   // name`arity -> full name
        foreach (Assembly a in new[] { typeof(object).Assembly, typeof(Uri).Assembly, typeof(Enumerable).Assembly, typeof(HttpClient).Assembly })
            foreach (Type t in a.GetExportedTypes())
                if (!t.IsNested && ImplicitUsings.Contains(t.Namespace))
                    bcl[t.Name] = t.FullName;
        foreach (string full in NewerDotNet)
            bcl[full.Substring(full.LastIndexOf('.') + 1)] = full + " (.NET 5-9)";

        var problems = new List<string>();
        var ours = checkedAssembly.GetExportedTypes().Where(t => !t.IsNested).ToList();
        foreach (Type t in ours)
        {
            string clash;
            if (bcl.TryGetValue(t.Name, out clash))
                problems.Add(t.FullName + " has the name of " + clash + " (CS0104 under ImplicitUsings)");
            if (t.Name == "Program")
                problems.Add(t.FullName + " is named Program, as the class top-level statements generate");
        }
        foreach (var same in ours.GroupBy(t => t.Name).Where(g => g.Select(t => t.Namespace).Distinct().Count() > 1))
            problems.Add("one name in two namespaces: " + string.Join(", ", same.Select(t => t.FullName)));
        foreach (string p in problems)
            Console.WriteLine("CLASH: " + p);
        Console.WriteLine("{0}: {1} public types checked against {2} type names of the default usings: {3}",
                          Path.GetFileName(args[0]), ours.Count, bcl.Count, problems.Count == 0 ? "no clash" : problems.Count + " clash(es)");
        return problems.Count == 0 ? 0 : 1;
    }
}
