// The Mono test runner: runs the [Fact] methods of the test classes in the order below (and,
// within a class, in source order), each reported as PASS, FAIL or SKIP; the last line is
// "N passed, N failed, N skipped" and the exit status is 1 when anything failed.
//   mono DccudaTests.exe            every test
//   mono DccudaTests.exe Name...    the tests whose names contain one of the arguments
//   mono DccudaTests.exe --list     the names
// The same test sources run under xunit where the .NET SDK exists (../xunit).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;
using Xunit;

namespace Dccuda.Tests
{
    internal static class TestRunner
    {
        /// <summary>Every test class, in the order they run. Last: on a real GPU a kernel fault
        /// is kept for the whole process.</summary>
        private static readonly Type[] Order =
        {
            typeof(CoreTests), typeof(DeviceTests), typeof(BufferTests), typeof(StreamTests),
            typeof(CompileTests), typeof(LinkTests), typeof(LaunchTests), typeof(GraphBuildTests), typeof(QueueTests), typeof(Copies2D3DTests), typeof(AsyncTests), typeof(LifetimeTests), typeof(RegressionTests), typeof(DiagnosticsTests),
            typeof(MemoryWave2Tests), typeof(LibraryTests), typeof(BlasTests), typeof(FftTests), typeof(CommunicatorTests),
            typeof(FaultTests),
        };

        private static int Main(string[] args)
        {
            // Classes added after FaultTests ran on a poisoned context on the GPU (every one failed
            // with CONTEXT_LOST there, passing on the fake driver): refuse such an order here.
            if (Order[Order.Length - 1] != typeof(FaultTests))
            {
                Console.WriteLine("TestRunner.Order must end with FaultTests: a kernel fault on a GPU is kept for the whole process");
                return 2;
            }
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
            return Run(args);
        }

        private static int Run(string[] args)
        {
            // A class with tests that is not in Order would silently never run.
            var missing = typeof(TestRunner).Assembly.GetTypes()
                .Where(t => Tests(t).Any() && Array.IndexOf(Order, t) < 0).Select(t => t.Name).ToList();
            if (missing.Count > 0)
            {
                Console.WriteLine("FAIL  test classes missing from TestRunner.Order: " + string.Join(", ", missing));
                return 1;
            }
            var tests = Order.SelectMany(t => Tests(t).Select(m => new { Name = t.Name + "." + m.Name, Class = t, Method = m })).ToList();
            if (args.Contains("--list"))
            {
                foreach (var t in tests)
                    Console.WriteLine(t.Name);
                return 0;
            }
            var filters = args.Where(a => !a.StartsWith("--")).ToArray();
            int passed = 0, failed = 0, skipped = 0;
            var failures = new List<string>();
            foreach (var t in tests)
            {
                if (filters.Length > 0 && !filters.Any(f => t.Name.IndexOf(f, StringComparison.Ordinal) >= 0))
                    continue;
                var clock = Stopwatch.StartNew();
                Exception e = RunOne(t.Class, t.Method);
                if (e == null)
                {
                    passed++;
                    Console.WriteLine("PASS  {0} ({1} ms)", t.Name, clock.ElapsedMilliseconds);
                }
                else if (e is SkipException)
                {
                    skipped++;
                    Console.WriteLine("SKIP  {0}: {1}", t.Name, e.Message);
                }
                else
                {
                    failed++;
                    failures.Add(t.Name);
                    Console.WriteLine("FAIL  {0}: {1}", t.Name, Describe(e));
                }
            }
            if (failures.Count > 0)
                Console.WriteLine("failed: " + string.Join(", ", failures));
            Console.WriteLine("{0} passed, {1} failed, {2} skipped", passed, failed, skipped);
            return failed > 0 ? 1 : 0;
        }

        private static IEnumerable<MethodInfo> Tests(Type t)
        {
            return t.GetMethods(BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic)
                    .Select(m => new { Method = m, Fact = (FactAttribute)m.GetCustomAttributes(typeof(FactAttribute), false).FirstOrDefault() })
                    .Where(x => x.Fact != null)
                    .OrderBy(x => x.Fact.SourceLineNumber)
                    .Select(x => x.Method);
        }

        /// <summary>Runs one test as xunit would (a new instance per test, a Task awaited) and
        /// returns what it threw, or null.</summary>
        private static Exception RunOne(Type fixture, MethodInfo method)
        {
            try
            {
                if (!fixture.IsPublic || !method.IsPublic || method.GetParameters().Length != 0)
                    throw new ExpectationException(fixture.Name + "." + method.Name + ": a test is a public method without " +
                                                   "parameters of a public class (as xunit needs)");
                object instance = method.IsStatic ? null : Activator.CreateInstance(fixture);
                object result = method.Invoke(instance, null);
                var task = result as Task;
                if (task != null)
                    task.GetAwaiter().GetResult();
                var disposable = instance as IDisposable;
                if (disposable != null)
                    disposable.Dispose();
                return null;
            }
            catch (TargetInvocationException wrapped)
            {
                return wrapped.InnerException;
            }
            catch (Exception e)
            {
                return e;
            }
        }

        private static string Describe(Exception e)
        {
            if (e is ExpectationException)
                return e.Message + Environment.NewLine + e.StackTrace;
            var dc = e as DcException;
            if (dc != null)
                return "unexpected DcException " + dc.StatusName + ": " + dc.Message + Environment.NewLine + dc.StackTrace;
            return "unexpected " + e;
        }
    }
}
