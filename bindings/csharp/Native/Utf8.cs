// UTF-8 both ways, by hand, so that native signatures stay blittable: strings go in as
// NUL-terminated byte arrays the caller pins, and library-owned const char* come back as
// pointers decoded here (copied at once: the library's strings live only until the next
// dc_ call on the thread, or as long as their object).
using System;
using System.Diagnostics.CodeAnalysis;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;

namespace Dccuda.Interop
{
    /// <summary>UTF-8 conversions for the native calls: strings in as NUL-terminated bytes, library strings decoded at once.</summary>
    public static unsafe class Utf8
    {
        private static readonly UTF8Encoding Strict = new UTF8Encoding(false, true);

        /// <summary>The NUL-terminated UTF-8 bytes of s; null for null. A string holding NUL
        /// is refused: C would silently cut it there.</summary>
        [return: MaybeNull]
        public static byte[] Encode([AllowNull] string s)
        {
            if (s == null)
                return null;
            if (s.IndexOf('\0') >= 0)
                throw new ArgumentException("the string holds a NUL character, which would end it early in C: \"" +
                                            s.Replace("\0", "\\0") + "\"");
            int n = Strict.GetByteCount(s);
            var bytes = new byte[n + 1];
            Strict.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }

        /// <summary>The NUL-terminated UTF-8 string at p as a managed string; "" for zero.
        /// Invalid UTF-8 is decoded with replacement characters, never an exception.</summary>
        public static string Decode(IntPtr p)
        {
            if (p == IntPtr.Zero)
                return "";
            byte* s = (byte*)p;
            int n = 0;
            while (s[n] != 0)
                n++;
            return Decode(s, n);
        }

        /// <summary>n UTF-8 bytes at p as a managed string.</summary>
        public static string Decode(byte* p, int n)
        {
            return n == 0 ? "" : Encoding.UTF8.GetString(p, n);
        }
    }

    /// <summary>Unmanaged copies of strings and string arrays that live until Dispose: for
    /// the pointer fields of option structs (dc_compile_options, dc_init_options).</summary>
    public sealed class Utf8Arena : IDisposable
    {
        private readonly List<IntPtr> blocks = new List<IntPtr>();

        /// <summary>A NUL-terminated UTF-8 copy of s; zero for null.</summary>
        public IntPtr String([AllowNull] string s)
        {
            byte[] bytes = Utf8.Encode(s);
            if (bytes == null)
                return IntPtr.Zero;
            IntPtr p = Alloc(bytes.Length);
            Marshal.Copy(bytes, 0, p, bytes.Length);
            return p;
        }

        /// <summary>An array of pointers to UTF-8 copies of each string; zero for an empty list.</summary>
        public IntPtr Strings([AllowNull] IList<string> list)
        {
            if (list == null || list.Count == 0)
                return IntPtr.Zero;
            IntPtr array = Alloc(IntPtr.Size * list.Count);
            for (int i = 0; i < list.Count; i++)
            {
                if (list[i] == null)
                    throw new ArgumentNullException("list", "element " + i + " of a string list is null");
                Marshal.WriteIntPtr(array, i * IntPtr.Size, String(list[i]));
            }
            return array;
        }

        private IntPtr Alloc(int bytes)
        {
            IntPtr p = Marshal.AllocHGlobal(bytes);
            blocks.Add(p);
            return p;
        }

        /// <summary>Free every copy made by this arena.</summary>
        public void Dispose()
        {
            foreach (IntPtr p in blocks)
                Marshal.FreeHGlobal(p);
            blocks.Clear();
        }
    }
}
