// The nullability attributes the public API carries ([AllowNull] on parameters that take
// null, [MaybeNull] where null comes back), for the netstandard2.0 build, which lacks them
// (Mono's mscorlib and .NET Core 3+ have them). Written as attributes rather than `string?`
// so that the same sources compile with Mono's C# 7 compiler; the .NET builds compile with
// <Nullable>annotations</Nullable>, so every other reference type in the API is non-null.
#if NETSTANDARD2_0
namespace System.Diagnostics.CodeAnalysis
{
    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Parameter | AttributeTargets.Property, Inherited = false)]
    internal sealed class AllowNullAttribute : Attribute { }

    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Parameter | AttributeTargets.Property | AttributeTargets.ReturnValue, Inherited = false)]
    internal sealed class MaybeNullAttribute : Attribute { }
}
#endif
