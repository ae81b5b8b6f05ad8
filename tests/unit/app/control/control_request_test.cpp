#include "app/control/control_request.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(ControlRequest){};

TEST(ControlRequest, ParsesStatus)
{
    auto r = parse_control_request(R"({"cmd":"status"})");
    CHECK_TRUE(r.request.has_value());
    CHECK(r.request->command == ControlCommand::Status);
}

TEST(ControlRequest, ParsesResumeWithSlurmResumeFile)
{
    auto r = parse_control_request(
        R"({"cmd":"resume","nodes":"c[1-3]","resume_file":{"all_nodes_resume":"c[1-3]","jobs":[)"
        R"({"job_id":17,"nodes_resume":"c[1-2]","partition":"cloud"},{"job_id":18,"nodes_resume":"c3"}]}})");
    CHECK_TRUE_TEXT(r.request.has_value(), r.error.c_str());
    CHECK(r.request->command == ControlCommand::Resume);
    CHECK(r.request->nodes == (std::vector<std::string>{"c1", "c2", "c3"}));
    LONGS_EQUAL(2, r.request->jobs.size());
    CHECK(r.request->jobs.at(17) == (std::vector<std::string>{"c1", "c2"}));
}

// What slurmctld 22.05 actually writes (power_save.c): "all_nodes" and "nodes".
TEST(ControlRequest, ParsesSlurm2205ResumeFile)
{
    auto r = parse_control_request(
        R"({"cmd":"resume","nodes":"c1","resume_file":{"all_nodes":"c1","jobs":[)"
        R"({"job_id":4,"nodes":"c1","partition":"cloud","features":null}]}})");
    CHECK_TRUE_TEXT(r.request.has_value(), r.error.c_str());
    CHECK(r.request->jobs.at(4) == (std::vector<std::string>{"c1"}));
    STRCMP_EQUAL("resume_file.jobs[0].nodes: expected string",
                 parse_control_request(R"({"cmd":"resume","nodes":"c1","resume_file":{"jobs":[{"job_id":4}]}})")
                     .error.c_str());
}

TEST(ControlRequest, RejectsBadRequests)
{
    STRCMP_EQUAL("cmd: expected string", parse_control_request("{}").error.c_str());
    STRCMP_EQUAL("cmd: expected one of status, resume, suspend, resume-fail, reset-group, explain, got \"reboot\"",
                 parse_control_request(R"({"cmd":"reboot"})").error.c_str());
    STRCMP_EQUAL("nodes: expected a hostlist string", parse_control_request(R"({"cmd":"suspend"})").error.c_str());
    STRCMP_EQUAL("nodes: expected at least one node",
                 parse_control_request(R"({"cmd":"suspend","nodes":""})").error.c_str());
    CHECK_TRUE(parse_control_request(R"({"cmd":"suspend","nodes":"c[1-"})").error.rfind("nodes: unclosed", 0) == 0);
    STRCMP_EQUAL("resume_file.jobs[0].job_id: expected positive integer",
                 parse_control_request(R"({"cmd":"resume","nodes":"c1","resume_file":{"jobs":[{"job_id":"x"}]}})").error.c_str());
    CHECK_TRUE(parse_control_request("garbage").error.rfind("invalid JSON", 0) == 0);
}

TEST(ControlRequest, ParsesResetGroupAndRequiresTheGroup)
{
    auto r = parse_control_request(R"({"cmd":"reset-group","group":"aws-c5"})");
    CHECK(r.request.has_value());
    CHECK(r.request->command == ControlCommand::ResetGroup);
    STRCMP_EQUAL("aws-c5", r.request->group.c_str());
    auto missing = parse_control_request(R"({"cmd":"reset-group"})");
    CHECK_FALSE(missing.request.has_value());
    STRCMP_EQUAL("group: expected a node group name", missing.error.c_str());
    auto empty = parse_control_request(R"({"cmd":"reset-group","group":""})");
    CHECK_FALSE(empty.request.has_value());
}

TEST(ControlRequest, ExplainNamesOneJob)
{
    auto ok = parse_control_request(R"({"cmd":"explain","job":42})");
    CHECK(ok.request.has_value());
    LONGS_EQUAL(42, ok.request->job);
    CHECK(ok.request->command == ControlCommand::Explain);
    for (const char* bad : {R"({"cmd":"explain"})", R"({"cmd":"explain","job":0})", R"({"cmd":"explain","job":"42"})"})
        STRCMP_EQUAL("job: expected a job id (a positive integer)", parse_control_request(bad).error.c_str());
}
