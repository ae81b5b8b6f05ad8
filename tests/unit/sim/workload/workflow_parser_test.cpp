#include "sim/workload/dax_parser.hpp"
#include "sim/workload/wfcommons_parser.hpp"
#include "sim/workload/workflow_loader.hpp"

#include <dirent.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

const char* const kWfV15 = R"({
  "name": "diamond",
  "schemaVersion": "1.5",
  "workflow": {
    "specification": {
      "tasks": [
        {"name": "split", "id": "a", "parents": [], "children": ["b", "c"]},
        {"name": "work", "id": "b", "parents": ["a"]},
        {"name": "work", "id": "c", "parents": ["a"]},
        {"name": "join", "id": "d", "parents": ["b", "c"]}
      ]
    },
    "execution": {
      "tasks": [
        {"id": "a", "runtimeInSeconds": 1.5},
        {"id": "b", "runtimeInSeconds": 10, "coreCount": 4},
        {"id": "c", "runtimeInSeconds": 20},
        {"id": "d", "runtimeInSeconds": 2}
      ]
    }
  }
})";

const char* const kDax = R"(<?xml version="1.0" encoding="UTF-8"?>
<adag xmlns="http://pegasus.isi.edu/schema/DAX" version="2.1" name="chain">
  <job id="ID0" namespace="x" name="first" runtime="3.5"/>
  <job id="ID1" namespace="x" name="second">
    <profile namespace="pegasus" key="runtime">7</profile>
    <profile namespace="pegasus" key="cores">2</profile>
  </job>
  <child ref="ID1">
    <parent ref="ID0"/>
  </child>
</adag>
)";

std::string error_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const WorkflowError& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_GROUP(WorkflowParser){};

TEST(WorkflowParser, ReadsWfCommons15TasksRuntimesCoresAndEdges)
{
    Workflow w = parse_wfcommons(kWfV15, "d.json");
    STRCMP_EQUAL("diamond", w.name.c_str());
    LONGS_EQUAL(4, w.tasks.size());
    STRCMP_EQUAL("split", w.tasks[0].name.c_str());
    DOUBLES_EQUAL(1.5, w.tasks[0].runtime, 0);
    LONGS_EQUAL(4, w.tasks[1].cores);
    LONGS_EQUAL(1, w.tasks[2].cores); // coreCount defaults to 1
    LONGS_EQUAL(1, w.tasks[1].parents.size());
    LONGS_EQUAL(0, w.tasks[1].parents[0]);
    LONGS_EQUAL(2, w.tasks[3].parents.size());
    // a (1.5) → c (20) → d (2)
    DOUBLES_EQUAL(23.5, critical_path(w), 1e-9);
}

TEST(WorkflowParser, ReadsOlderWfCommonsLayoutByTaskName)
{
    Workflow w = parse_wfcommons(R"({"name": "old", "workflow": {"tasks": [
        {"name": "a", "runtime": 5, "cores": 2, "parents": []},
        {"name": "b", "runtimeInSeconds": 6, "parents": ["a"]}]}})",
                                 "old.json");
    LONGS_EQUAL(2, w.tasks.size());
    LONGS_EQUAL(2, w.tasks[0].cores);
    DOUBLES_EQUAL(6, w.tasks[1].runtime, 0);
    LONGS_EQUAL(0, w.tasks[1].parents.at(0));
}

TEST(WorkflowParser, WfCommonsErrorsNameTheLineOrElement)
{
    std::string e = error_of([] { parse_wfcommons("{\n  \"workflow\": {\n  ]\n}", "bad.json"); });
    CHECK_TEXT(contains(e, "bad.json:3:"), e.c_str());
    e = error_of([] {
        parse_wfcommons(R"({"workflow": {"specification": {"tasks": [{"id": "a"}]},
                            "execution": {"tasks": [{"id": "a", "runtimeInSeconds": -1}]}}})",
                        "neg.json");
    });
    CHECK_TEXT(contains(e, "neg.json: workflow.execution.tasks[0].runtimeInSeconds: expected seconds in [0, 10 years]"),
               e.c_str());
    // A runaway runtime would keep the simulator stepping forever.
    e = error_of([] {
        parse_wfcommons(R"({"workflow": {"specification": {"tasks": [{"id": "a"}]},
                            "execution": {"tasks": [{"id": "a", "runtimeInSeconds": 1e300}]}}})",
                        "huge.json");
    });
    CHECK_TEXT(contains(e, "huge.json: workflow.execution.tasks[0].runtimeInSeconds: expected seconds"), e.c_str());
    e = error_of([] {
        parse_wfcommons(R"({"workflow": {"specification": {"tasks": [{"id": "a"}, {"id": "b", "parents": ["z"]}]},
                            "execution": {"tasks": [{"id": "a", "runtimeInSeconds": 1},
                                                    {"id": "b", "runtimeInSeconds": 1}]}}})",
                        "p.json");
    });
    CHECK_TEXT(contains(e, "workflow.specification.tasks[1].parents") && contains(e, "'z'"), e.c_str());
    e = error_of([] {
        parse_wfcommons(R"({"workflow": {"specification": {"tasks": [{"id": "a"}, {"id": "b"}]},
                            "execution": {"tasks": [{"id": "a", "runtimeInSeconds": 1}]}}})",
                        "t.json");
    });
    CHECK_TEXT(contains(e, "tasks[1]") && contains(e, "no record"), e.c_str());
    e = error_of([] {
        parse_wfcommons(R"({"workflow": {"specification": {"tasks": [{"id": "a", "parents": ["b"]},
                                                                      {"id": "b", "parents": ["a"]}]},
                            "execution": {"tasks": [{"id": "a", "runtimeInSeconds": 1},
                                                    {"id": "b", "runtimeInSeconds": 1}]}}})",
                        "cyc.json");
    });
    CHECK_TEXT(contains(e, "cyc.json") && contains(e, "cycle"), e.c_str());
    e = error_of([] {
        parse_wfcommons(R"({"workflow": {"specification": {"tasks": [{"id": "a"}]},
                            "execution": {"tasks": [{"id": "a", "runtimeInSeconds": 1, "coreCount": 0}]}}})",
                        "c.json");
    });
    CHECK_TEXT(contains(e, "coreCount"), e.c_str());
}

TEST(WorkflowParser, ReadsDaxJobsRuntimeProfilesAndEdges)
{
    Workflow w = parse_dax(kDax, "c.xml");
    STRCMP_EQUAL("chain", w.name.c_str());
    LONGS_EQUAL(2, w.tasks.size());
    DOUBLES_EQUAL(3.5, w.tasks[0].runtime, 0);
    DOUBLES_EQUAL(7, w.tasks[1].runtime, 0);
    LONGS_EQUAL(2, w.tasks[1].cores);
    LONGS_EQUAL(0, w.tasks[1].parents.at(0));
    DOUBLES_EQUAL(10.5, critical_path(w), 1e-9);
}

TEST(WorkflowParser, DaxErrorsNameTheLineAndElement)
{
    std::string e = error_of([] { parse_dax("<adag>\n<job id='a' runtime='1'>\n</adag>", "x.xml"); });
    CHECK_TEXT(contains(e, "x.xml:3: invalid XML"), e.c_str());
    e = error_of([] { parse_dax("<adag>\n<job id='a'/>\n</adag>", "r.xml"); });
    CHECK_TEXT(contains(e, "r.xml:2: <job>: job a has no runtime"), e.c_str());
    e = error_of([] { parse_dax("<adag>\n<job id='a' runtime='x'/>\n</adag>", "n.xml"); });
    CHECK_TEXT(contains(e, "n.xml:2: <job>: runtime 'x'"), e.c_str());
    e = error_of([] { parse_dax("<adag>\n<job id='a' runtime='1e12'/>\n</adag>", "h.xml"); });
    CHECK_TEXT(contains(e, "h.xml:2: <job>: runtime '1e12': expected seconds in [0, 10 years]"), e.c_str());
    e = error_of([] {
        parse_dax("<adag>\n<job id='a' runtime='1'/>\n<child ref='a'>\n<parent ref='q'/>\n</child>\n</adag>", "e.xml");
    });
    CHECK_TEXT(contains(e, "e.xml:4: <parent>: ref q names no <job>"), e.c_str());
    e = error_of([] { parse_dax("<dag/>", "root.xml"); });
    CHECK_TEXT(contains(e, "root.xml:1: expected a DAX document"), e.c_str());
}

TEST(WorkflowParser, LoaderPicksTheFormatByNameAndRejectsOthers)
{
    std::string e = error_of([] { load_workflow("/nonexistent/w.json"); });
    CHECK_TEXT(contains(e, "/nonexistent/w.json: cannot open"), e.c_str());
    e = error_of([] { load_workflow("w.yaml"); });
    CHECK_TEXT(contains(e, "unknown workflow format"), e.c_str());
}

// Every workflow shipped in tests/data/traces/workflows loads, with the task
// counts tests/data/SOURCES.md states and no task without a runtime.
TEST(WorkflowParser, LoadsEverySharedWorkflow)
{
    const std::string dir = std::string(TEST_SRCDIR) + "/tests/data/traces/workflows";
    const std::vector<std::pair<std::string, std::size_t>> expected = {
        {"/montage-chameleon-2mass-005d-001.json", 58}, {"/montage-chameleon-dss-05d-001.json", 58},
        {"/epigenomics-chameleon-hep-1seq-100k-001.json", 41}, {"/dax/Montage_25.xml", 25},
        {"/dax/Inspiral_30.xml", 30}, {"/dax/Sipht_30.xml", 29}, {"/dax/CyberShake_30.xml", 30},
        {"/dax/Epigenomics_24.xml", 24}};
    // Nothing in the folders goes untested.
    std::size_t files = 0;
    for (const std::string sub : {"", "/dax"}) {
        DIR* d = opendir((dir + sub).c_str());
        CHECK_TEXT(d != nullptr, (dir + sub).c_str());
        while (dirent* ent = readdir(d)) {
            const std::string n = ent->d_name;
            if (n.size() > 5 && (n.compare(n.size() - 5, 5, ".json") == 0 || n.compare(n.size() - 4, 4, ".xml") == 0))
                ++files;
        }
        closedir(d);
    }
    LONGS_EQUAL(expected.size(), files);
    for (const auto& [file, tasks] : expected) {
        Workflow w = load_workflow(dir + file);
        LONGS_EQUAL_TEXT(tasks, w.tasks.size(), file.c_str());
        std::size_t edges = 0;
        for (const auto& t : w.tasks) {
            CHECK_TEXT(t.runtime >= 0, file.c_str());
            edges += t.parents.size();
        }
        CHECK_TEXT(edges > 0, file.c_str());
        CHECK_TEXT(critical_path(w) > 0, file.c_str());
    }
    // SOURCES.md: Montage_25 has 45 edges.
    std::size_t edges = 0;
    for (const auto& t : load_workflow(dir + "/dax/Montage_25.xml").tasks)
        edges += t.parents.size();
    LONGS_EQUAL(45, edges);
}

TEST(WorkflowParser, CycleErrorsNameTheTasksOnTheCycle)
{
    // c waits for b, b for a, a for b: the cycle is a -> b -> a, and c (only
    // downstream of it) is not on it.
    std::string e = error_of([] {
        parse_wfcommons(R"({"workflow": {"specification": {"tasks": [{"id": "c", "parents": ["b"]},
                                                                      {"id": "a", "parents": ["b"]},
                                                                      {"id": "b", "parents": ["a"]}]},
                            "execution": {"tasks": [{"id": "a", "runtimeInSeconds": 1},
                                                    {"id": "b", "runtimeInSeconds": 1},
                                                    {"id": "c", "runtimeInSeconds": 1}]}}})",
                        "cyc.json");
    });
    CHECK_TEXT(e == "cyc.json: the task dependencies form a cycle (parent -> child): "
                    "a (workflow.specification.tasks[1]) -> b (workflow.specification.tasks[2]) -> a",
               e.c_str());
    e = error_of([] {
        parse_wfcommons(R"({"workflow": {"tasks": [{"name": "x", "runtime": 1, "parents": ["x"]}]}})", "self.json");
    });
    CHECK_TEXT(e == "self.json: the task dependencies form a cycle (parent -> child): x (workflow.tasks[0]) -> x",
               e.c_str());
    e = error_of([] {
        parse_dax("<adag>\n<job id='a' runtime='1'/>\n<job id='b' runtime='1'/>\n<job id='c' runtime='1'/>\n"
                  "<child ref='b'><parent ref='a'/></child>\n<child ref='c'><parent ref='b'/></child>\n"
                  "<child ref='a'><parent ref='c'/></child>\n</adag>",
                  "cyc.xml");
    });
    CHECK_TEXT(e == "cyc.xml: the task dependencies form a cycle (parent -> child): "
                    "a (line 2) -> b (line 3) -> c (line 4) -> a",
               e.c_str());
}

TEST(WorkflowParser, WfCommons15DuplicateIdPointsAtTheSpecification)
{
    std::string e = error_of([] {
        parse_wfcommons(R"({"workflow": {"specification": {"tasks": [{"id": "a"}, {"id": "a"}]},
                            "execution": {"tasks": [{"id": "a", "runtimeInSeconds": 1},
                                                    {"id": "a", "runtimeInSeconds": 1}]}}})",
                        "dup.json");
    });
    CHECK_TEXT(e == "dup.json: workflow.specification.tasks[1].id: task id 'a' is already used by "
                    "workflow.specification.tasks[0]",
               e.c_str());
    e = error_of([] {
        parse_wfcommons(R"({"workflow": {"tasks": [{"name": "a", "runtime": 1}, {"name": "a", "runtime": 2}]}})",
                        "old.json");
    });
    CHECK_TEXT(e == "old.json: workflow.tasks[1]: task id 'a' is already used by workflow.tasks[0]", e.c_str());
}
