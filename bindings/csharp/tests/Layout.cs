// Prints the C# layout of every public struct of dccuda.h in the ABI check's line format
// (abi/README.md, "Struct layouts"): abi/check_abi.py compiles it with the binding's sources
// (mcs, without NET7_0_OR_GREATER) and compares the output with the C compiler's.
using System;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using Dccuda.Interop;

internal static class Layout
{
    // The alignment of T is the offset of T after one byte.
    [StructLayout(LayoutKind.Sequential)] private struct Align<T> where T : struct { public byte B; public T T0; }

    private static void Print<T>() where T : struct
    {
        Type t = typeof(T);
        Console.WriteLine("struct {0} size {1} align {2}", t.Name, Marshal.SizeOf(t), (int)Marshal.OffsetOf(typeof(Align<T>), "T0"));
        var fields = t.GetFields(BindingFlags.Public | BindingFlags.Instance)
                      .Select(f => new { f.Name, Offset = (int)Marshal.OffsetOf(t, f.Name), Size = Marshal.SizeOf(f.FieldType) })
                      .OrderBy(f => f.Offset);
        foreach (var f in fields)
            Console.WriteLine("field {0}.{1} offset {2} size {3}", t.Name, f.Name, f.Offset, f.Size);
    }

    private static void Main()
    {
        Print<DcInitOptions>();
        Print<DcDeviceInfo>();
        Print<DcCompileOptions>();
        Print<DcModuleOptions>();
        Print<DcFunctionInfo>();
        Print<DcLaunchConfig>();
        Print<DcArg>();
    }
}
