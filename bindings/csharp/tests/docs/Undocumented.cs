// A planted mistake for check_xml_docs.py: a public type and member without XML comments,
// and a <param> that names no parameter. The check must fail on each.
namespace Dccuda
{
    public static class PlantedUndocumented
    {
        public static int Answer() { return 42; }

        /// <summary>Documented, but with a wrong parameter name.</summary>
        /// <param name="nothing">names no parameter</param>
        public static int Twice(int value) { return 2 * value; }
    }
}
