// The part of xunit's API the tests use, for the Mono runner (mcs has no NuGet here): [Fact]
// marks a test (it records where, so that the runner keeps a file's order), and Skip.Because
// makes the exception that skips one. The xunit project (../xunit) compiles the same test
// sources against the real xunit.v3 instead of this file.
using System;
using System.Runtime.CompilerServices;

namespace Xunit
{
    /// <summary>A test: a public method of a public class, void or Task, no parameters.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class FactAttribute : Attribute
    {
        public FactAttribute([CallerFilePath] string sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        {
            SourceFilePath = sourceFilePath;
            SourceLineNumber = sourceLineNumber;
        }

        public string SourceFilePath { get; private set; }

        public int SourceLineNumber { get; private set; }
    }
}

namespace Dccuda.Tests
{
    /// <summary>Thrown to skip a test (no device, no NVRTC, not the fake driver...).</summary>
    internal sealed class SkipException : Exception
    {
        public SkipException(string reason) : base(reason) { }
    }

    internal static class Skip
    {
        /// <summary>The exception that skips the running test: throw Skip.Because("...").</summary>
        public static Exception Because(string reason)
        {
            return new SkipException(reason);
        }
    }
}
