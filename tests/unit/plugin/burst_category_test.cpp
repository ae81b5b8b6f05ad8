#include "../../../plugin/burst_category.h"

#include <string>

#include <CppUTest/TestHarness.h>

TEST_GROUP(BurstCategory){};

TEST(BurstCategory, CommandIsFirstLineThatIsNotACommentOrBlank)
{
    const char* script = "#!/bin/bash\n#SBATCH -n 4\n\n   # note\n  srun ./sim --in a.dat  \necho done\n";
    size_t len;
    const char* cmd = burst_script_command(script, &len);
    STRCMP_EQUAL("srun ./sim --in a.dat", std::string(cmd, len).c_str());
}

TEST(BurstCategory, NoCommandForNullOrCommentOnlyScripts)
{
    size_t len;
    POINTERS_EQUAL(nullptr, burst_script_command(nullptr, &len));
    POINTERS_EQUAL(nullptr, burst_script_command("#!/bin/sh\n#SBATCH -N1\n", &len));
    LONGS_EQUAL(0, len);
}

TEST(BurstCategory, SameInputsSameKeyAcrossDirectivesAndComments)
{
    uint64_t a = burst_category("physics", "sweep", "#!/bin/sh\n#SBATCH -n 2\n./run\n");
    uint64_t b = burst_category("physics", "sweep", "#!/bin/bash\n# other\n./run\n./post\n");
    CHECK(a == b);
}

TEST(BurstCategory, EachComponentMatters)
{
    uint64_t base = burst_category("physics", "sweep", "./run\n");
    CHECK(base != burst_category("chem", "sweep", "./run\n"));
    CHECK(base != burst_category("physics", "sweep2", "./run\n"));
    CHECK(base != burst_category("physics", "sweep", "./run2\n"));
    CHECK(burst_category("ab", "c", nullptr) != burst_category("a", "bc", nullptr));
}

TEST(BurstCategory, KeyIsStableFnv1a)
{
    // FNV-1a 64 of "\0\0" (empty account, name and command).
    CHECK(burst_category(nullptr, nullptr, nullptr) == 0x08328807b4eb6fedULL);
    char text[BURST_CATEGORY_TEXT_LEN];
    burst_category_text(0x1fULL, text);
    STRCMP_EQUAL("000000000000001f", text);
}
