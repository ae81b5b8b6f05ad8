#include "app/config/config_parser.hpp"
#include "app/cycle/policy_cycle.hpp"
#include "policy/policy_params.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

const char* kGood = R"(# a complete, valid configuration
ClusterName=lab   LogLevel=verbose
SocketPath=/run/burstd/snap.sock ControlSocket=/run/burstd/ctl.sock
StateDir=/var/lib/burstd MetricsPort=9464 CycleInterval=2m SlurmUser=slurm

Provider=aws-main Type=AWS Region=eu-west-1 CredentialsFile=/etc/burstd/aws.cred ImageId=ami-123 \
    SubnetId=subnet-9
Provider=box Type=local

NodeGroup=aws-c5 Provider=aws-main Nodes=c[1-16] Partition=cloud InstanceTypes=c5.2xlarge,c5a.2xlarge \
    Cpus=8 MemoryMB=15000 PricePerHour=0.34 BootTime=90 MaxCount=12 Billing=per-second Spot=no
nodegroup=dev provider=box nodes=dev[01-02] partition=devq cpus=2 priceperhour=0  # local: no types
Policy=boot-window LookAhead=300 maxHirePerCycle=4
Policy=budget-cap
Budget=bio Amount=500 Interval=week
Budget=* Amount="1000" Interval=30d
)";

bool has_error(const ConfigParseResult& r, const std::string& text)
{
    return std::any_of(r.errors.begin(), r.errors.end(),
                       [&](const std::string& e) { return e.find(text) != std::string::npos; });
}

std::string all_errors(const ConfigParseResult& r)
{
    std::string out;
    for (const auto& e : r.errors)
        out += e + "\n";
    return out;
}

} // namespace

TEST_GROUP(ConfigParser){};

TEST(ConfigParser, ParsesACompleteConfiguration)
{
    auto r = parse_config(kGood, "burstd.conf");
    CHECK_TRUE_TEXT(r.ok(), all_errors(r).c_str());
    const BurstdConfig& c = r.config;
    STRCMP_EQUAL("lab", c.cluster_name.c_str());
    CHECK(c.log_level == LogLevel::Verbose);
    STRCMP_EQUAL("/run/burstd/snap.sock", c.socket_path.c_str());
    STRCMP_EQUAL("/run/burstd/ctl.sock", c.control_socket.c_str());
    LONGS_EQUAL(9464, c.metrics_port);
    DOUBLES_EQUAL(120, c.cycle_interval, 0);
    STRCMP_EQUAL("lab", c.burstd_id.c_str());
    STRCMP_EQUAL("/var/lib/burstd/ledger.sqlite", c.ledger_path.c_str());

    LONGS_EQUAL(2, c.providers.size());
    STRCMP_EQUAL("aws", c.providers[0].type.c_str());
    STRCMP_EQUAL("eu-west-1", c.providers[0].region.c_str());
    STRCMP_EQUAL("/etc/burstd/aws.cred", c.providers[0].credentials_file.c_str());
    LONGS_EQUAL(2, c.providers[0].params.size());
    STRCMP_EQUAL("ami-123", c.providers[0].params.at("imageid").c_str());
    STRCMP_EQUAL("subnet-9", c.providers[0].params.at("SubnetId").c_str());
    STRCMP_EQUAL("burstd.conf:6", c.providers[0].origin.c_str());

    LONGS_EQUAL(2, c.node_groups.size());
    const NodeGroup& g = c.node_groups[0];
    STRCMP_EQUAL("aws-c5", g.name.c_str());
    LONGS_EQUAL(16, g.nodes.size());
    STRCMP_EQUAL("c16", g.nodes.back().c_str());
    STRCMP_EQUAL("cloud", g.partition.c_str());
    CHECK(g.instance_types == (std::vector<std::string>{"c5.2xlarge", "c5a.2xlarge"}));
    LONGS_EQUAL(8, g.cpus);
    LONGS_EQUAL(15000, g.memory_mb);
    DOUBLES_EQUAL(0.34, g.price_per_hour, 1e-12);
    DOUBLES_EQUAL(90, g.boot_time, 0);
    LONGS_EQUAL(12, g.capacity());
    CHECK(g.billing == Billing::PerSecond);
    CHECK_FALSE(g.spot);
    STRCMP_EQUAL("burstd.conf:10", c.node_group_origins[0].c_str());
    STRCMP_EQUAL("dev02", c.node_groups[1].nodes[1].c_str());
    CHECK_TRUE(c.node_groups[1].instance_types.empty());

    LONGS_EQUAL(2, c.policies.size());
    STRCMP_EQUAL("boot-window", c.policies[0].name.c_str());
    STRCMP_EQUAL("4", c.policies[0].params.at("MaxHirePerCycle").c_str());
    CHECK_TRUE(c.policies[1].params.empty());

    LONGS_EQUAL(2, c.budgets.size());
    DOUBLES_EQUAL(7 * 86400, c.budgets[0].interval, 0);
    STRCMP_EQUAL("*", c.budgets[1].account.c_str());
    DOUBLES_EQUAL(1000, c.budgets[1].amount, 0);
    DOUBLES_EQUAL(30 * 86400, c.budgets[1].interval, 0);
}

TEST(ConfigParser, ReportsBadValueWithFileLineSectionAndKey)
{
    auto r = parse_config("ClusterName=x\nProvider=p Type=local\n"
                          "NodeGroup=gpu Provider=p Nodes=g1 Partition=q Cpus=4 PricePerHour=abc\n",
                          "burstd.conf");
    LONGS_EQUAL(1, r.errors.size());
    STRCMP_EQUAL("burstd.conf:3: NodeGroup=gpu: PricePerHour: expected a non-negative number, got \"abc\"",
                 r.errors[0].c_str());
}

TEST(ConfigParser, CollectsEveryErrorNotJustTheFirst)
{
    auto r = parse_config("ClusterName=x LogLevel=loud\nCycleInterval=0\nMetricsPort=70000\n"
                          "Provider=p Type=vmware\n"
                          "NodeGroup=a Provider=p Nodes=a1 Partition=q Cpus=0 PricePerHour=-1 Spot=maybe Gres=gpu::2\n",
                          "f");
    CHECK_TRUE(has_error(r, "f:1: LogLevel: expected one of error, info, verbose, debug, got \"loud\""));
    CHECK_TRUE(has_error(r, "f:2: CycleInterval: expected a duration"));
    CHECK_TRUE(has_error(r, "f:3: MetricsPort: expected a port number"));
    CHECK_TRUE(has_error(r, "f:4: Provider=p: Type: expected one of local, aws, gcp, azure, openstack, got \"vmware\""));
    CHECK_TRUE(has_error(r, "f:5: NodeGroup=a: Cpus: expected a positive integer, got \"0\""));
    CHECK_TRUE(has_error(r, "f:5: NodeGroup=a: PricePerHour: expected a non-negative number, got \"-1\""));
    CHECK_TRUE(has_error(r, "f:5: NodeGroup=a: Spot: expected yes or no, got \"maybe\""));
    CHECK_TRUE(has_error(r, "f:5: NodeGroup=a: Gres: expected generic resources as slurm.conf writes them (e.g. "
                            "gpu:a100:4,mps:400), got \"gpu::2\""));
    LONGS_EQUAL(8, r.errors.size());
}

TEST(ConfigParser, RequiresClusterNameAndSectionKeys)
{
    auto r = parse_config("NodeGroup=a Provider=p\nBudget=bio\nProvider=p\n", "f");
    CHECK_TRUE(has_error(r, "f: ClusterName= is required"));
    CHECK_TRUE(has_error(r, "f:1: NodeGroup=a: Nodes= is required"));
    CHECK_TRUE(has_error(r, "f:1: NodeGroup=a: Partition= is required"));
    CHECK_TRUE(has_error(r, "f:1: NodeGroup=a: Cpus= is required"));
    CHECK_TRUE(has_error(r, "f:1: NodeGroup=a: PricePerHour= is required"));
    CHECK_TRUE(has_error(r, "f:2: Budget=bio: Amount= is required"));
    CHECK_TRUE(has_error(r, "f:2: Budget=bio: Interval= is required"));
    CHECK_TRUE(has_error(r, "f:3: Provider=p: Type= is required"));
}

TEST(ConfigParser, UnknownKeysSuggestTheClosestKnownOne)
{
    auto r = parse_config("ClusterName=x ClusterNmae=y Frobnicate=1\nProvider=p Type=local\n"
                          "NodeGroup=a Provider=p Nodes=a1 Partition=q Cpus=1 PricePerHour=1 InstanceType=t\n",
                          "f");
    CHECK_TRUE(has_error(r, "f:1: unknown key ClusterNmae (did you mean ClusterName?)"));
    CHECK_TRUE(has_error(r, "f:1: unknown key Frobnicate"));
    CHECK_FALSE(has_error(r, "Frobnicate (did you mean"));
    CHECK_TRUE(has_error(r, "f:3: NodeGroup=a: unknown key InstanceType (did you mean InstanceTypes?)"));
}

TEST(ConfigParser, NodeGroupMustNameADefinedProvider)
{
    auto r = parse_config("ClusterName=x\nProvider=aws-main Type=aws\n"
                          "NodeGroup=a Provider=aws-mian Nodes=a1 Partition=q Cpus=1 PricePerHour=1 InstanceTypes=t\n",
                          "f");
    LONGS_EQUAL(1, r.errors.size());
    STRCMP_EQUAL("f:3: NodeGroup=a: Provider: expected the name of a Provider= line, got \"aws-mian\" "
                 "(did you mean aws-main?); defined: aws-main",
                 r.errors[0].c_str());
}

TEST(ConfigParser, ProviderMayBeDefinedAfterItsNodeGroups)
{
    auto r = parse_config("ClusterName=x\n"
                          "NodeGroup=a Provider=p Nodes=a1 Partition=q Cpus=1 PricePerHour=1 InstanceTypes=t\n"
                          "Provider=p Type=gcp\n",
                          "f");
    CHECK_TRUE_TEXT(r.ok(), all_errors(r).c_str());
}

TEST(ConfigParser, CloudProvidersNeedInstanceTypes)
{
    auto r = parse_config("ClusterName=x\nProvider=p Type=aws\n"
                          "NodeGroup=a Provider=p Nodes=a1 Partition=q Cpus=1 PricePerHour=1\n",
                          "f");
    LONGS_EQUAL(1, r.errors.size());
    STRCMP_EQUAL("f:3: NodeGroup=a: InstanceTypes= is required for a aws provider", r.errors[0].c_str());
}

TEST(ConfigParser, RejectsOverlappingNodeRanges)
{
    auto r = parse_config("ClusterName=x\nProvider=p Type=local\n"
                          "NodeGroup=a Provider=p Nodes=c[1-8] Partition=q Cpus=1 PricePerHour=1\n"
                          "NodeGroup=b Provider=p Nodes=c[5-12] Partition=q Cpus=1 PricePerHour=1\n"
                          "NodeGroup=c Provider=p Nodes=d1,d1 Partition=q Cpus=1 PricePerHour=1\n",
                          "f");
    CHECK_TRUE(has_error(r, "f:4: NodeGroup=b: Nodes: c[5-8] also belong to NodeGroup=a (f:3)"));
    CHECK_TRUE(has_error(r, "f:5: NodeGroup=c: Nodes: lists d1 more than once"));
    LONGS_EQUAL(2, r.errors.size());
}

TEST(ConfigParser, RejectsDuplicateNamesAndKeys)
{
    auto r = parse_config("ClusterName=x\nClusterName=y\nProvider=p Type=local Type=aws\nProvider=p Type=local\n"
                          "Policy=a\nPolicy=a\nBudget=* Amount=1 Interval=day\nBudget=* Amount=2 Interval=day\n",
                          "f");
    CHECK_TRUE(has_error(r, "f:2: ClusterName: already set at f:1"));
    CHECK_TRUE(has_error(r, "f:3: Provider=p: Type: given twice"));
    CHECK_TRUE(has_error(r, "f:4: Provider=p: already defined at f:3"));
    CHECK_TRUE(has_error(r, "f:6: Policy=a: already defined at f:5"));
    CHECK_TRUE(has_error(r, "f:8: Budget=*: already defined at f:7"));
    LONGS_EQUAL(5, r.errors.size());
}

TEST(ConfigParser, RejectsBadHostlist)
{
    auto r = parse_config("ClusterName=x\nProvider=p Type=local\n"
                          "NodeGroup=a Provider=p Nodes=c[1-3 Partition=q Cpus=1 PricePerHour=1\n",
                          "f");
    LONGS_EQUAL(1, r.errors.size());
    CHECK_TRUE(has_error(r, "f:3: NodeGroup=a: Nodes: expected a hostlist like c[1-16]: unclosed '['"));
}

TEST(ConfigParser, MaxCountCannotExceedTheNodesListed)
{
    auto r = parse_config("ClusterName=x\nProvider=p Type=local\n"
                          "NodeGroup=a Provider=p Nodes=c[1-4] Partition=q Cpus=1 PricePerHour=1 MaxCount=5\n",
                          "f");
    LONGS_EQUAL(1, r.errors.size());
    CHECK_TRUE(has_error(r, "f:3: NodeGroup=a: MaxCount: expected at most the 4 nodes listed, got \"5\""));
}

TEST(ConfigParser, SyntaxErrors)
{
    auto r = parse_config("ClusterName=x\nthis is not a pair\nSocketPath=\"/tmp/unterminated\n=value\n", "f");
    CHECK_TRUE(has_error(r, "f:2: expected Key=Value, got \"this\""));
    CHECK_TRUE(has_error(r, "f:3: SocketPath: expected a closing '\"'"));
    CHECK_TRUE(has_error(r, "f:4: expected a key before '='"));
}

TEST(ConfigParser, QuotedValuesKeepSpacesAndHashes)
{
    auto r = parse_config("ClusterName=x\nPolicy=p Note=\"a # b \\\"c\\\"\" Other=1 # comment\n", "f");
    CHECK_TRUE_TEXT(r.ok(), all_errors(r).c_str());
    STRCMP_EQUAL("a # b \"c\"", r.config.policies[0].params.at("note").c_str());
    STRCMP_EQUAL("1", r.config.policies[0].params.at("other").c_str());
}

TEST(ConfigParser, PathsMustBeAbsoluteAndSocketsShort)
{
    std::string longpath = "/" + std::string(120, 'a');
    auto r = parse_config("ClusterName=x StateDir=relative/dir\nSocketPath=" + longpath + "\n", "f");
    CHECK_TRUE(has_error(r, "f:1: StateDir: expected an absolute path, got \"relative/dir\""));
    CHECK_TRUE(has_error(r, "f:2: SocketPath: expected a path shorter than 108 bytes"));
}

TEST(ConfigParser, SocketsMustDiffer)
{
    auto r = parse_config("ClusterName=x SocketPath=/run/a.sock ControlSocket=/run/a.sock\n", "f");
    CHECK_TRUE(has_error(r, "f: SocketPath and ControlSocket: expected two different paths"));
}

TEST(ConfigParser, SectionKeyMustStartItsLine)
{
    auto r = parse_config("ClusterName=x Provider=p\n", "f");
    CHECK_TRUE(has_error(r, "f:1: Provider= must be the first key on its line"));
}

TEST(ConfigParser, BadSectionNames)
{
    auto r = parse_config("ClusterName=x\nPolicy=a/b\nBudget=* Amount=1 Interval=1s\n", "f");
    CHECK_TRUE(has_error(r, "f:2: Policy: expected a name"));
    CHECK_TRUE(has_error(r, "f:3: Budget=*: Interval: expected a duration of at least a minute"));
}

TEST(ConfigParser, LoadReportsUnreadableFile)
{
    auto r = load_config("/nonexistent/burstd.conf");
    LONGS_EQUAL(1, r.errors.size());
    CHECK_TRUE(has_error(r, "/nonexistent/burstd.conf: cannot read: No such file or directory"));
}

TEST(ConfigParser, LoadSaysADirectoryIsNoConfiguration)
{
    auto r = load_config("/tmp");
    LONGS_EQUAL(1, r.errors.size());
    CHECK_TRUE(has_error(r, "/tmp: is a directory, not a configuration file"));
}

TEST(ConfigParser, LoadsTheShippedExample)
{
    auto r = load_config(std::string(TEST_SRCDIR) + "/conf/burstd.conf.example");
    CHECK_TRUE_TEXT(r.ok(), all_errors(r).c_str());
    CHECK_FALSE(r.config.node_groups.empty());
}

TEST(ConfigParser, LaunchRetryAndBackOffKeys)
{
    auto r = parse_config("ClusterName=x\n"
                          "Provider=p Type=local LaunchAttempts=6 RetryBaseDelay=2s RetryMaxDelay=2m\n"
                          "Provider=q Type=local\n"
                          "NodeGroup=g Provider=p Nodes=g1 Partition=q Cpus=4 PricePerHour=1 CapacityErrors=5 "
                          "CoolDown=2m MaxCoolDown=1h QuotaCoolDown=6h BootFailures=4\n"
                          "NodeGroup=h Provider=q Nodes=h1 Partition=q Cpus=4 PricePerHour=1\n",
                          "burstd.conf");
    CHECK_TRUE_TEXT(r.ok(), all_errors(r).c_str());
    const RetrySettings& retry = r.config.providers[0].retry;
    LONGS_EQUAL(6, retry.attempts);
    DOUBLES_EQUAL(2, retry.base_delay, 0);
    DOUBLES_EQUAL(120, retry.max_delay, 0);
    CHECK(r.config.providers[0].params.empty()); // not handed to the provider factory
    LONGS_EQUAL(RetrySettings{}.attempts, r.config.providers[1].retry.attempts);
    const GroupRecovery& g = r.config.node_groups[0].recovery;
    LONGS_EQUAL(5, g.capacity_errors);
    DOUBLES_EQUAL(120, g.cool_down, 0);
    DOUBLES_EQUAL(3600, g.max_cool_down, 0);
    DOUBLES_EQUAL(6 * 3600, g.quota_cool_down, 0);
    LONGS_EQUAL(4, g.boot_failures);
    const GroupRecovery& d = r.config.node_groups[1].recovery;
    LONGS_EQUAL(GroupRecovery{}.capacity_errors, d.capacity_errors);
    DOUBLES_EQUAL(GroupRecovery{}.cool_down, d.cool_down, 0);
}

TEST(ConfigParser, RejectsBadRetryAndBackOffValues)
{
    auto r = parse_config("ClusterName=x\n"
                          "Provider=p Type=local LaunchAttempts=0 RetryBaseDelay=10 RetryMaxDelay=5\n"
                          "NodeGroup=g Provider=p Nodes=g1 Partition=q Cpus=4 PricePerHour=1 CapacityErrors=0 "
                          "CoolDown=0 BootFailures=x\n"
                          "NodeGroup=h Provider=p Nodes=h1 Partition=q Cpus=4 PricePerHour=1 CoolDown=10m "
                          "MaxCoolDown=5m\n",
                          "burstd.conf");
    CHECK_TRUE_TEXT(has_error(r, "burstd.conf:2: Provider=p: LaunchAttempts: expected an integer from 1 to 20"),
                    all_errors(r).c_str());
    CHECK(has_error(r, "burstd.conf:2: Provider=p: RetryMaxDelay: expected at least RetryBaseDelay (10 s), got 5 s"));
    CHECK(has_error(r, "burstd.conf:3: NodeGroup=g: CapacityErrors: expected a positive integer, got \"0\""));
    CHECK(has_error(r, "burstd.conf:3: NodeGroup=g: CoolDown: expected a duration of at least 1 second"));
    CHECK(has_error(r, "burstd.conf:3: NodeGroup=g: BootFailures: expected a positive integer, got \"x\""));
    CHECK(has_error(r, "burstd.conf:4: NodeGroup=h: MaxCoolDown: expected at least CoolDown (600 s), got 300 s"));
    LONGS_EQUAL(6, r.errors.size());
}

TEST(ConfigParser, ObjectiveLambdaIsANonNegativeNumberAndUnsetByDefault)
{
    CHECK_FALSE(parse_config("ClusterName=x\n", "f").config.objective_lambda.has_value());
    DOUBLES_EQUAL(0.05, *parse_config("ClusterName=x ObjectiveLambda=0.05\n", "f").config.objective_lambda, 0);
    CHECK_TRUE(has_error(parse_config("ClusterName=x ObjectiveLambda=-1\n", "f"),
                         "f:1: ObjectiveLambda: expected a non-negative number (money per core-hour of waiting), "
                         "got \"-1\""));
}

TEST(ConfigParser, ReconcileEveryCountsCyclesAndDefaultsToFive)
{
    LONGS_EQUAL(5, parse_config("ClusterName=x\n", "f").config.reconcile_every);
    LONGS_EQUAL(12, parse_config("ClusterName=x ReconcileEvery=12\n", "f").config.reconcile_every);
    CHECK_TRUE(has_error(parse_config("ClusterName=x ReconcileEvery=0\n", "f"),
                         "f:1: ReconcileEvery: expected a number of cycles, at least 1, got \"0\""));
}

TEST(ConfigParser, PolicyParametersFollowTheFilesRulesForKeysAndDurations)
{
    // "Keys are case-insensitive" and durations take s/m/h suffixes, for
    // policy parameters as for every other key.
    auto r = parse_config("ClusterName=x\nPolicy=threshold Target_Utilization=0.5 Stabilization=5m\n", "f");
    CHECK_TRUE(r.ok());
    std::vector<std::string> errors;
    auto chain = make_policy_chain(r.config.policies, errors);
    LONGS_EQUAL(1, chain.size());
    CHECK_TRUE(errors.empty());
    // Every bad Policy= line is reported, each with its line.
    auto bad = parse_config("ClusterName=x\nPolicy=threshold Stabilization=5q\nPolicy=pfa alpha=0.5\n", "f");
    CHECK_TRUE(bad.ok()); // policy parameters are checked by the policy itself
    chain = make_policy_chain(bad.config.policies, errors);
    LONGS_EQUAL(0, chain.size());
    LONGS_EQUAL(2, errors.size());
    STRCMP_CONTAINS("f:2: Policy=threshold: ", errors[0].c_str());
    STRCMP_EQUAL("f:3: Policy=pfa: alpha applies only with smoothing=ewma", errors[1].c_str());
}

TEST(ConfigParser, ReadsOneThreadPolicyLine)
{
    auto r = parse_config("ClusterName=x\nThreadPolicy=greedy max=16 Sharing=2\n", "f");
    CHECK_TRUE(r.ok());
    CHECK_TRUE(bool(r.config.thread_policy));
    STRCMP_EQUAL("greedy", r.config.thread_policy->name.c_str());
    STRCMP_EQUAL("f:2", r.config.thread_policy->origin.c_str());
    LONGS_EQUAL(2, r.config.thread_policy->params.size());
    auto twice = parse_config("ClusterName=x\nThreadPolicy=greedy\nThreadPolicy=best-constant\n", "f");
    CHECK_TRUE(has_error(twice, "f:3: ThreadPolicy=best-constant: a second ThreadPolicy line (the first is at f:2): "
                                "a site has one thread policy"));
    CHECK_FALSE(bool(parse_config("ClusterName=x\n", "f").config.thread_policy));
}

TEST(ConfigParser, PlaceholderAndScavengerQosNameTheJobsThatAreNeverDemand)
{
    auto r = parse_config("ClusterName=lab PlaceholderQOS=warm-hold ScavengerQOS=scavenger\n"
                          "Provider=box Type=local\n"
                          "NodeGroup=a Provider=box Nodes=c[1-2] Partition=cloud Cpus=2 PricePerHour=1\n"
                          "Policy=always\n"
                          "Policy=warm forecaster=quantile,quantile=0.95,window=1d tick=5m\n",
                          "f");
    CHECK_TRUE(r.errors.empty());
    STRCMP_EQUAL("warm-hold", r.config.standby_qos.placeholder.c_str());
    STRCMP_EQUAL("scavenger", r.config.standby_qos.scavenger.c_str());
    STRCMP_EQUAL("quantile,quantile=0.95,window=1d", r.config.policies.at(1).params.at("forecaster").c_str());
}

TEST(ConfigParser, PartialJobLaunchRequeuesByDefaultOrHolds)
{
    CHECK(parse_config("ClusterName=lab\n", "f").config.partial_job_launch == PartialJobLaunch::Requeue);
    auto r = parse_config("ClusterName=lab PartialJobLaunch=hold\n", "f");
    CHECK_TRUE(r.errors.empty());
    CHECK(r.config.partial_job_launch == PartialJobLaunch::Hold);
    r = parse_config("ClusterName=lab PartialJobLaunch=cancel\n", "f");
    CHECK_TRUE(has_error(r, "f:1: PartialJobLaunch: expected requeue or hold, got \"cancel\""));
}

TEST(ConfigParser, AWarmPoolNeedsAPlaceholderQosAndItsOwn)
{
    auto r = parse_config("ClusterName=lab\n"
                          "Policy=warm\n",
                          "f");
    CHECK_TRUE(has_error(r, "f:2: Policy=warm holds warm nodes with placeholder jobs: PlaceholderQOS= is required"));
    r = parse_config("ClusterName=lab PlaceholderQOS=low ScavengerQOS=low\n", "f");
    CHECK_TRUE(has_error(r, "f: PlaceholderQOS and ScavengerQOS: expected two different QOS, got \"low\" for both"));
    r = parse_config("ClusterName=lab PlaceholderQOS=a,b\n", "f");
    CHECK_TRUE(has_error(r, "f:1: PlaceholderQOS: expected a QOS name"));
}

TEST(ConfigParser, ScavengeWarmNodesNeedsTheScavengerAndPlaceholderQos)
{
    auto r = parse_config("ClusterName=lab PlaceholderQOS=low ScavengerQOS=scav\nScavengeWarmNodes=yes\n", "f");
    CHECK_TRUE(r.errors.empty());
    CHECK_TRUE(r.config.scavenge_warm_nodes);
    r = parse_config("ClusterName=lab\n", "f");
    CHECK_FALSE(r.config.scavenge_warm_nodes);
    r = parse_config("ClusterName=lab PlaceholderQOS=low ScavengerQOS=scav\nScavengeWarmNodes=maybe\n", "f");
    CHECK_TRUE(has_error(r, "f:2: ScavengeWarmNodes: expected yes or no"));
    r = parse_config("ClusterName=lab PlaceholderQOS=low\nScavengeWarmNodes=yes\n", "f");
    CHECK_TRUE(has_error(r, "f:2: ScavengeWarmNodes=yes puts scavenger jobs on the nodes placeholders hold: "
                            "ScavengerQOS= and PlaceholderQOS= are required"));
}

TEST(ConfigParser, InteractiveKeepsCoresOfPartitionsWithItsTwoQos)
{
    auto r = parse_config("ClusterName=lab Interactive=debug:4,gpu:1\n"
                          "InteractiveQOS=interactive InteractiveHoldQOS=ihold\n",
                          "f");
    CHECK_TRUE(r.errors.empty());
    LONGS_EQUAL(2, r.config.interactive.size());
    STRCMP_EQUAL("debug", r.config.interactive[0].partition.c_str());
    LONGS_EQUAL(4, r.config.interactive[0].cores);
    STRCMP_EQUAL("gpu", r.config.interactive[1].partition.c_str());
    LONGS_EQUAL(1, r.config.interactive[1].cores);
    STRCMP_EQUAL("interactive", r.config.interactive_qos.c_str());
    STRCMP_EQUAL("ihold", r.config.standby_qos.interactive_hold.c_str());
}

TEST(ConfigParser, ABadInteractiveLineSaysWhatIsWrong)
{
    const char* shape = "expected PARTITION:CORES[,PARTITION:CORES...] with at least one core each";
    for (const char* v : {"debug", "debug:0", "debug:x", "debug:4,", ":4", "debug:4:5"}) {
        auto r = parse_config(std::string("ClusterName=lab InteractiveQOS=i InteractiveHoldQOS=h\nInteractive=") +
                                  v + "\n",
                              "f");
        CHECK_TRUE(has_error(r, std::string("f:2: Interactive: ") + shape));
    }
    auto r = parse_config("ClusterName=lab InteractiveQOS=i InteractiveHoldQOS=h Interactive=a:1,a:2\n", "f");
    CHECK_TRUE(has_error(r, "f:1: Interactive: expected each partition once (a twice)"));
    r = parse_config("ClusterName=lab\nInteractive=debug:2\n", "f");
    CHECK_TRUE(has_error(r, "f:2: Interactive= keeps cores with hold jobs that only interactive jobs preempt: "
                            "InteractiveHoldQOS= and InteractiveQOS= are required"));
    r = parse_config("ClusterName=lab PlaceholderQOS=low InteractiveHoldQOS=low\n", "f");
    CHECK_TRUE(has_error(r, "f: PlaceholderQOS and InteractiveHoldQOS: expected two different QOS, got \"low\""));
    r = parse_config("ClusterName=lab InteractiveQOS=i InteractiveHoldQOS=i\n", "f");
    CHECK_TRUE(has_error(r, "f: InteractiveHoldQOS and InteractiveQOS: expected two different QOS, got \"i\""));
}
