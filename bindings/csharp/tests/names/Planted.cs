// A planted mistake for CheckTypeNames: public types named as System.IO.Stream,
// System.Threading.Lock (.NET 9) and the top-level statements' Program. The check must fail.
namespace Dccuda
{
    public sealed class Stream { }
    public sealed class Lock { }
    public static class Program { }
    public sealed class Fine { }
}
