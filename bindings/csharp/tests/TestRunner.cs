// A small self-contained test runner (no NUnit/xunit offline): static methods marked [Test]
// run in declaration order, each reported as PASS, FAIL or SKIP; the last line is
// "N passed, N failed, N skipped" and the exit status is 1 when anything failed.
//   mono DccudaTests.exe            every test
//   mono DccudaTests.exe Name...    the tests whose names contain one of the arguments
//   mono DccudaTests.exe --list     the names
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;

namespace Dccuda.Tests
{
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class TestAttribute : Attribute
    {
        public TestAttribute([System.Runtime.CompilerServices.CallerLineNumber] int line = 0) { Line = line; }
        public int Line { get; private set; }
    }

    /// <summary>Thrown to skip a test (no device, no NVRTC, not the fake driver...).</summary>
    internal sealed class SkipException : Exception
    {
        public SkipException(string reason) : base(reason) { }
    }

    internal sealed class AssertionException : Exception
    {
        public AssertionException(string message) : base(message) { }
    }

    internal static class Assert
    {
        public static void True(bool condition, string what)
        {
            if (!condition)
                throw new AssertionException("expected true: " + what);
        }

        public static void False(bool condition, string what)
        {
            if (condition)
                throw new AssertionException("expected false: " + what);
        }

        public static void Equal<T>(T expected, T actual, string what)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
                throw new AssertionException(what + ": expected <" + expected + ">, got <" + actual + ">");
        }

        public static void NotEqual<T>(T unexpected, T actual, string what)
        {
            if (EqualityComparer<T>.Default.Equals(unexpected, actual))
                throw new AssertionException(what + ": expected anything but <" + unexpected + ">");
        }

        public static void Contains(string expected, string actual, string what)
        {
            if (actual == null || actual.IndexOf(expected, StringComparison.Ordinal) < 0)
                throw new AssertionException(what + ": expected to contain \"" + expected + "\", got \"" + actual + "\"");
        }

        public static void SequenceEqual<T>(IList<T> expected, IList<T> actual, string what)
        {
            Equal(expected.Count, actual.Count, what + " (length)");
            for (int i = 0; i < expected.Count; i++)
            {
                if (!EqualityComparer<T>.Default.Equals(expected[i], actual[i]))
                    throw new AssertionException(what + ": element " + i + ": expected <" + expected[i] + ">, got <" + actual[i] + ">");
            }
        }

        /// <summary>`action` must throw DcException with `status`; its message must contain
        /// every `fragment`. Returns the exception.</summary>
        public static DcException Throws(DcStatus status, Action action, string what, params string[] fragments)
        {
            try
            {
                action();
            }
            catch (DcException e)
            {
                Equal(status, e.Status, what + ": status (message: " + e.Message + ")");
                foreach (string f in fragments)
                    Contains(f, e.Message, what + ": message");
                return e;
            }
            throw new AssertionException(what + ": expected DcException " + status + ", nothing was thrown");
        }

        public static TException Throws<TException>(Action action, string what) where TException : Exception
        {
            try
            {
                action();
            }
            catch (TException e)
            {
                return e;
            }
            catch (Exception e)
            {
                throw new AssertionException(what + ": expected " + typeof(TException).Name + ", got " + e.GetType().Name + ": " + e.Message);
            }
            throw new AssertionException(what + ": expected " + typeof(TException).Name + ", nothing was thrown");
        }
    }

    internal static class TestRunner
    {
        public static int Run(Type[] fixtures, string[] args)
        {
            var tests = fixtures
                .SelectMany(t => t.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic)
                                  .Where(m => m.GetCustomAttributes(typeof(TestAttribute), false).Length > 0)
                                  .OrderBy(m => ((TestAttribute)m.GetCustomAttributes(typeof(TestAttribute), false)[0]).Line)
                                  .Select(m => new { Name = t.Name + "." + m.Name, Method = m }))
                .ToList();
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
                try
                {
                    t.Method.Invoke(null, null);
                    passed++;
                    Console.WriteLine("PASS  {0} ({1} ms)", t.Name, clock.ElapsedMilliseconds);
                }
                catch (TargetInvocationException wrapped)
                {
                    Exception e = wrapped.InnerException;
                    if (e is SkipException)
                    {
                        skipped++;
                        Console.WriteLine("SKIP  {0}: {1}", t.Name, e.Message);
                        continue;
                    }
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

        private static string Describe(Exception e)
        {
            if (e is AssertionException)
                return e.Message + Environment.NewLine + e.StackTrace;
            var dc = e as DcException;
            if (dc != null)
                return "unexpected DcException " + dc.StatusName + ": " + dc.Message + Environment.NewLine + dc.StackTrace;
            return "unexpected " + e;
        }
    }
}
