// The test programs (the Mono runner, DccudaTests.exe, and the xunit project, DccudaTests.dll)
// check internal bookkeeping too: callbacks and pins that must be given back.
using System.Runtime.CompilerServices;

[assembly: InternalsVisibleTo("DccudaTests")]
