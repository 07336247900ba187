// The tests' checks, shared by both runners (the Mono runner here and xunit where the .NET
// SDK exists): each failure throws ExpectationException with what was checked, the values and
// the library's message, which both runners report as a failed test. (Xunit's own Assert is
// not used so that the same sources compile under Mono without xunit.)
using System;
using System.Collections.Generic;

namespace Dccuda.Tests
{
    /// <summary>A failed check.</summary>
    internal sealed class ExpectationException : Exception
    {
        public ExpectationException(string message) : base(message) { }
    }

    internal static class Expect
    {
        public static void True(bool condition, string what)
        {
            if (!condition)
                throw new ExpectationException("expected true: " + what);
        }

        public static void False(bool condition, string what)
        {
            if (condition)
                throw new ExpectationException("expected false: " + what);
        }

        public static void Equal<T>(T expected, T actual, string what)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
                throw new ExpectationException(what + ": expected <" + expected + ">, got <" + actual + ">");
        }

        public static void NotEqual<T>(T unexpected, T actual, string what)
        {
            if (EqualityComparer<T>.Default.Equals(unexpected, actual))
                throw new ExpectationException(what + ": expected anything but <" + unexpected + ">");
        }

        public static void Contains(string expected, string actual, string what)
        {
            if (actual == null || actual.IndexOf(expected, StringComparison.Ordinal) < 0)
                throw new ExpectationException(what + ": expected to contain \"" + expected + "\", got \"" + actual + "\"");
        }

        public static void SequenceEqual<T>(IList<T> expected, IList<T> actual, string what)
        {
            Equal(expected.Count, actual.Count, what + " (length)");
            for (int i = 0; i < expected.Count; i++)
            {
                if (!EqualityComparer<T>.Default.Equals(expected[i], actual[i]))
                    throw new ExpectationException(what + ": element " + i + ": expected <" + expected[i] + ">, got <" + actual[i] + ">");
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
            throw new ExpectationException(what + ": expected DcException " + status + ", nothing was thrown");
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
                throw new ExpectationException(what + ": expected " + typeof(TException).Name + ", got " + e.GetType().Name + ": " + e.Message);
            }
            throw new ExpectationException(what + ": expected " + typeof(TException).Name + ", nothing was thrown");
        }
    }
}
