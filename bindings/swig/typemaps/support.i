/*
 * support.i - C# types the generated code and its users need beside the wrapped API:
 * DcException, the two callback delegate types, and internal helpers for UTF-8 strings
 * and fixed-size arrays. They are emitted into the generated module file (Dc.cs), in the
 * binding's namespace.
 */

%pragma(csharp) moduleimports=%{
using System;
using System.Runtime.InteropServices;
using System.Text;

/// <summary>
/// A dccuda call failed. <see cref="Status"/> is the dc_status (a DC_ERROR_* value),
/// <see cref="Exception.Message"/> the library's message ("dc_buffer_write: ..."),
/// <see cref="CudaError"/> and <see cref="NvrtcError"/> the raw CUresult / nvrtcResult
/// behind the failure (0 if none), <see cref="Detail"/> the long log where there is one
/// (the whole compiler log after DC_ERROR_COMPILE), else "".
/// </summary>
public class DcException : Exception {
  internal DcException(int status, int cudaError, int nvrtcError, string message, string detail)
      : base(string.IsNullOrEmpty(message) ? "dccuda call failed with status " + status : message) {
    Status = status;
    CudaError = cudaError;
    NvrtcError = nvrtcError;
    Detail = detail ?? "";
  }

  /// <summary>The dc_status of the failed call (negative).</summary>
  public int Status { get; private set; }
  /// <summary>The raw CUresult behind the failure, 0 if it did not come from the driver.</summary>
  public int CudaError { get; private set; }
  /// <summary>The raw nvrtcResult behind the failure, 0 if it did not come from NVRTC.</summary>
  public int NvrtcError { get; private set; }
  /// <summary>The compiler or JIT log that belongs to the failure, "" if none.</summary>
  public string Detail { get; private set; }
  /// <summary>The status's name, such as "DC_ERROR_OUT_OF_RANGE".</summary>
  public string StatusName { get { return Dc.dc_status_name(Status); } }

  public override string ToString() {
    string s = StatusName + ": " + base.ToString();
    return Detail.Length == 0 ? s : s + Environment.NewLine + "Detail:" + Environment.NewLine + Detail;
  }
}

/// <summary>A host function for dc_stream_add_callback's native form.</summary>
[UnmanagedFunctionPointer(CallingConvention.Cdecl)]
public delegate void DcHostFn(IntPtr userData);

/// <summary>Dynamic shared memory for a block size, for the occupancy calculator's native form.</summary>
[UnmanagedFunctionPointer(CallingConvention.Cdecl)]
public delegate ulong DcBlockSharedMemoryFn(int blockSize, IntPtr userData);

/// <summary>UTF-8 in and out, whatever the platform's ANSI code page is.</summary>
internal static class DcUtf8 {
  // A NUL-terminated UTF-8 copy of s (null stays null, so that optional strings can be NULL).
  internal static byte[] Encode(string s, string name) {
    if (s == null) return null;
    if (s.IndexOf('\0') >= 0)
      throw new ArgumentException(name + " contains a NUL character, which would cut the C string short", name);
    byte[] bytes = new byte[Encoding.UTF8.GetByteCount(s) + 1];
    Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
    return bytes;
  }

  // A string the library owns, copied now (its lifetime ends with the next dc_ call).
  internal static string Decode(IntPtr p) { return Decode(p, int.MaxValue); }

  internal static string Decode(IntPtr p, int maxBytes) {
    if (p == IntPtr.Zero) return null;
    int n = 0;
    while (n < maxBytes && Marshal.ReadByte(p, n) != 0) n++;
    byte[] bytes = new byte[n];
    Marshal.Copy(p, bytes, 0, n);
    return Encoding.UTF8.GetString(bytes);
  }

  // A string list as one block: uint32 count, uint32 byte count, then each string
  // NUL-terminated (see dcswig_set_list in structs.i). null and empty both mean none.
  internal static byte[] EncodeList(string[] items, string name) {
    if (items == null) items = new string[0];
    byte[][] parts = new byte[items.Length][];
    int total = 0;
    for (int i = 0; i < items.Length; i++) {
      if (items[i] == null) throw new ArgumentNullException(name, name + "[" + i + "] is null");
      parts[i] = Encode(items[i], name + "[" + i + "]");
      total += parts[i].Length;
    }
    byte[] block = new byte[8 + total];
    BitConverter.GetBytes((uint)items.Length).CopyTo(block, 0);
    BitConverter.GetBytes((uint)total).CopyTo(block, 4);
    int at = 8;
    foreach (byte[] part in parts) {
      part.CopyTo(block, at);
      at += part.Length;
    }
    return block;
  }

  // count strings from a C array of pointers.
  internal static string[] DecodeList(IntPtr array, int count) {
    string[] items = new string[array == IntPtr.Zero ? 0 : count];
    for (int i = 0; i < items.Length; i++)
      items[i] = Decode(Marshal.ReadIntPtr(array, i * IntPtr.Size));
    return items;
  }
}

/// <summary>Fixed-size C arrays (grid[3], uuid[16]) as C# arrays.</summary>
internal static class DcArrays {
  internal static T[] Exactly<T>(T[] values, int length, string name) {
    if (values == null) throw new ArgumentNullException(name);
    if (values.Length != length)
      throw new ArgumentException(name + " needs exactly " + length + " elements, not " + values.Length, name);
    return values;
  }

  internal static int[] ReadInt32(IntPtr p, int length) {
    int[] values = new int[length];
    Marshal.Copy(p, values, 0, length);
    return values;
  }

  internal static uint[] ReadUInt32(IntPtr p, int length) {
    int[] raw = ReadInt32(p, length);
    uint[] values = new uint[length];
    for (int i = 0; i < length; i++) values[i] = unchecked((uint)raw[i]);
    return values;
  }

  internal static ulong[] ReadUInt64(IntPtr p, int length) {
    long[] raw = new long[length];
    Marshal.Copy(p, raw, 0, length);
    ulong[] values = new ulong[length];
    for (int i = 0; i < length; i++) values[i] = unchecked((ulong)raw[i]);
    return values;
  }

  internal static byte[] ReadByte(IntPtr p, int length) {
    byte[] values = new byte[length];
    Marshal.Copy(p, values, 0, length);
    return values;
  }
}
%}
