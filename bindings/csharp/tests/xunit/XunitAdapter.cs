// What the shared test sources need from xunit beyond [Fact] (the Mono runner's counterpart
// is ../mono/Xunit.cs): skipping a test at run time (xunit v3's dynamic skip), and running the
// tests one at a time, because they count the library's live handles and the fake driver's
// live objects, which are process-wide.
using System;
using Xunit;

[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace Dccuda.Tests
{
    internal static class Skip
    {
        /// <summary>The exception that skips the running test: throw Skip.Because("...").</summary>
        public static Exception Because(string reason)
        {
            return Xunit.Sdk.SkipException.ForSkip(reason);
        }
    }
}
