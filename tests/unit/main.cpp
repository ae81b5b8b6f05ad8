#include <CppUTest/CommandLineTestRunner.h>
#include <CppUTest/MemoryLeakWarningPlugin.h>
#include <CppUTest/TestRegistry.h>

int main(int argc, char** argv)
{
    // Leaks are checked with sanitizers, not with CppUTest's leak detector,
    // which would count jansson's, OpenSSL's and libstdc++'s one-time
    // allocations.  Turning its new/delete overloads off is not enough: what
    // static initialisers allocated before main is still in its table, with
    // the table's node inside the block, and a later plain free() of such a
    // block (a static container that grows) leaves the table pointing into
    // freed memory.  So the runner is built without the plugin that walks
    // that table after every test (RunAllTests would install it).
    MemoryLeakWarningPlugin::turnOffNewDeleteOverloads();
    CommandLineTestRunner runner(argc, argv, TestRegistry::getCurrentRegistry());
    return runner.runAllTestsMain();
}
