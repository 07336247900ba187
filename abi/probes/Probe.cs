// What the compiled C# binding says about the ABI, measured by the runtime (abi/check_abi.py
// compiles this with the binding's Native/*.cs, without NET7_0_OR_GREATER, and runs it with mono):
//
//   mono Probe.exe layout      every public struct of Dccuda.Interop: size, alignment, fields
//   mono Probe.exe constants   every constant of NativeConstants: `constant NAME VALUE`
//
// Reflection finds the structs and constants, so nothing here names one: the check compares the
// output with the C compiler's, which makes a struct or constant the binding lacks a failure.
// The line format is abi/README.md's.
using System;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;

internal static class Probe
{
    // The alignment of T is the offset of T after one byte.
    [StructLayout(LayoutKind.Sequential)] private struct Align<T> where T : struct { public byte B; public T T0; }

    private static int AlignOf(Type t)
    {
        Type a = typeof(Align<>).MakeGenericType(t);
        return (int)Marshal.OffsetOf(a, "T0");
    }

    private static void Layout(Assembly asm)
    {
        var structs = asm.GetTypes()
                         .Where(t => t.IsValueType && !t.IsEnum && t.IsPublic && t.Namespace == "Dccuda.Interop"
                                     && t.IsLayoutSequential)
                         .OrderBy(t => t.Name, StringComparer.Ordinal);
        foreach (Type t in structs)
        {
            Console.WriteLine("struct {0} size {1} align {2}", t.Name, Marshal.SizeOf(t), AlignOf(t));
            var fields = t.GetFields(BindingFlags.Public | BindingFlags.Instance)
                          .Select(f => new { f.Name, Offset = (int)Marshal.OffsetOf(t, f.Name), Size = FieldSize(f) })
                          .OrderBy(f => f.Offset);
            foreach (var f in fields)
                Console.WriteLine("field {0}.{1} offset {2} size {3}", t.Name, f.Name, f.Offset, f.Size);
        }
    }

    // A fixed buffer's field type is a compiler-made struct holding one element; its real size
    // comes from the FixedBuffer attribute.
    private static int FieldSize(FieldInfo f)
    {
        var fixedBuffer = (System.Runtime.CompilerServices.FixedBufferAttribute)
            Attribute.GetCustomAttribute(f, typeof(System.Runtime.CompilerServices.FixedBufferAttribute));
        if (fixedBuffer != null)
            return fixedBuffer.Length * Marshal.SizeOf(fixedBuffer.ElementType);
        return Marshal.SizeOf(f.FieldType);
    }

    private static void Constants(Assembly asm)
    {
        Type c = asm.GetType("Dccuda.Interop.NativeConstants");
        if (c == null)
        {
            Console.Error.WriteLine("no class Dccuda.Interop.NativeConstants");
            Environment.Exit(1);
        }
        foreach (FieldInfo f in c.GetFields(BindingFlags.Public | BindingFlags.Static).Where(f => f.IsLiteral))
            Console.WriteLine("constant {0} {1}", f.Name, Convert.ToInt64(f.GetRawConstantValue()));
    }

    private static int Main(string[] args)
    {
        Assembly asm = typeof(Probe).Assembly;
        string what = args.Length > 0 ? args[0] : "layout";
        if (what == "layout")
            Layout(asm);
        else if (what == "constants")
            Constants(asm);
        else
        {
            Console.Error.WriteLine("usage: Probe.exe layout|constants");
            return 2;
        }
        return 0;
    }
}
