/*
 * copies.i - managed arrays for copies, module images and packed parameters.
 *
 * The generated functions take host memory as IntPtr + size (pointers.i). These
 * overloads take a managed array of any blittable element type (byte[], float[], int[],
 * a [StructLayout] struct[]) and optionally a range of it: the size in bytes is worked
 * out from the array, so it can never run past the array. The array is pinned for the
 * call only, which is all the library needs: managed arrays are pageable memory, and
 * dccuda has read (or filled) pageable memory by the time an asynchronous copy returns.
 * An array whose element type is not blittable (bool[], char[]) is refused by the
 * runtime (ArgumentException from GCHandle).
 */


%pragma(csharp) modulecode=%{
  // A pinned range of a managed array, as an address and a size in bytes.
  private struct DcPinnedRange : global::System.IDisposable {
    private global::System.Runtime.InteropServices.GCHandle handle;
    internal global::System.IntPtr Address;
    internal ulong Bytes;

    internal static DcPinnedRange Of<T>(T[] array, int index, int count, string name) where T : struct {
      if (array == null) throw new global::System.ArgumentNullException(name);
      if (index < 0 || count < 0 || index > array.Length - count)
        throw new global::System.ArgumentOutOfRangeException(name, "index " + index + " + count " + count +
                                                             " lies outside " + name + " (" + array.Length + " elements)");
      DcPinnedRange r = new DcPinnedRange();
      r.handle = global::System.Runtime.InteropServices.GCHandle.Alloc(array, global::System.Runtime.InteropServices.GCHandleType.Pinned);
      ulong element = (ulong)global::System.Runtime.InteropServices.Marshal.SizeOf(typeof(T));
      r.Address = new global::System.IntPtr(r.handle.AddrOfPinnedObject().ToInt64() + (long)((ulong)index * element));
      r.Bytes = (ulong)count * element;
      return r;
    }

    public void Dispose() {
      if (handle.IsAllocated) handle.Free();
    }
  }

  private static int CountOf<T>(T[] array) { return array == null ? 0 : array.Length; }

  /// <summary>dc_buffer_write from a managed array (all of it).</summary>
  public static int dc_buffer_write<T>(DcBuffer dst, ulong dst_offset, T[] src) where T : struct {
    return dc_buffer_write(dst, dst_offset, src, 0, CountOf(src));
  }

  /// <summary>dc_buffer_write from src[index .. index + count).</summary>
  public static int dc_buffer_write<T>(DcBuffer dst, ulong dst_offset, T[] src, int index, int count) where T : struct {
    using (DcPinnedRange r = DcPinnedRange.Of(src, index, count, "src"))
      return dc_buffer_write(dst, dst_offset, r.Address, r.Bytes);
  }

  /// <summary>dc_buffer_read into a managed array (all of it).</summary>
  public static int dc_buffer_read<T>(DcBuffer src, ulong src_offset, T[] dst) where T : struct {
    return dc_buffer_read(src, src_offset, dst, 0, CountOf(dst));
  }

  /// <summary>dc_buffer_read into dst[index .. index + count).</summary>
  public static int dc_buffer_read<T>(DcBuffer src, ulong src_offset, T[] dst, int index, int count) where T : struct {
    using (DcPinnedRange r = DcPinnedRange.Of(dst, index, count, "dst"))
      return dc_buffer_read(src, src_offset, r.Address, r.Bytes);
  }

  /// <summary>dc_buffer_write_async from a managed array: src may be reused when the call returns.</summary>
  public static int dc_buffer_write_async<T>(DcBuffer dst, ulong dst_offset, T[] src, DcStream stream) where T : struct {
    return dc_buffer_write_async(dst, dst_offset, src, 0, CountOf(src), stream);
  }

  public static int dc_buffer_write_async<T>(DcBuffer dst, ulong dst_offset, T[] src, int index, int count, DcStream stream) where T : struct {
    using (DcPinnedRange r = DcPinnedRange.Of(src, index, count, "src"))
      return dc_buffer_write_async(dst, dst_offset, r.Address, r.Bytes, stream);
  }

  /// <summary>dc_buffer_read_async into a managed array: the data is there when the call returns.</summary>
  public static int dc_buffer_read_async<T>(DcBuffer src, ulong src_offset, T[] dst, DcStream stream) where T : struct {
    return dc_buffer_read_async(src, src_offset, dst, 0, CountOf(dst), stream);
  }

  public static int dc_buffer_read_async<T>(DcBuffer src, ulong src_offset, T[] dst, int index, int count, DcStream stream) where T : struct {
    using (DcPinnedRange r = DcPinnedRange.Of(dst, index, count, "dst"))
      return dc_buffer_read_async(src, src_offset, r.Address, r.Bytes, stream);
  }

  /// <summary>dc_module_load from an image in a byte array (PTX, CUBIN or fatbin).</summary>
  public static int dc_module_load(DcDevice device, byte[] image, DcModuleOptions options, out DcModule module) {
    using (DcPinnedRange r = DcPinnedRange.Of(image, 0, CountOf(image), "image"))
      return dc_module_load(device, r.Address, r.Bytes, options, out module);
  }

  /// <summary>dc_launch_kernel_packed with the parameter block in a byte array.</summary>
  public static int dc_launch_kernel_packed(DcFunction function, DcLaunchConfig config, byte[] parameters, DcStream stream) {
    using (DcPinnedRange r = DcPinnedRange.Of(parameters, 0, CountOf(parameters), "parameters"))
      return dc_launch_kernel_packed(function, config, r.Address, r.Bytes, stream);
  }

  /// <summary>dc_program_output as a copy in a new byte array.</summary>
  public static int dc_program_output(DcProgram program, out int kind, out byte[] data) {
    global::System.IntPtr bytes;
    ulong size;
    int status = dc_program_output(program, out kind, out bytes, out size);
    data = new byte[size];
    if (size > 0) global::System.Runtime.InteropServices.Marshal.Copy(bytes, data, 0, checked((int)size));
    global::System.GC.KeepAlive(program);
    return status;
  }
%}
