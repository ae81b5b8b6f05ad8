#include <CppUTest/CommandLineTestRunner.h>
#include <CppUTest/MemoryLeakWarningPlugin.h>

int main(int argc, char** argv)
{
    // CppUTest's leak detector counts the one-time allocations of jansson,
    // OpenSSL and libstdc++ statics as leaks; leaks are checked with
    // sanitizers instead.
    MemoryLeakWarningPlugin::turnOffNewDeleteOverloads();
    return CommandLineTestRunner::RunAllTests(argc, argv);
}
