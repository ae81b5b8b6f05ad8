#include "provider/gcp/gce_labels.hpp"
#include "provider/gcp/request_uuid.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(GceLabels){};

TEST(GceLabels, EncodingIsLabelSafeAndReversible)
{
    STRCMP_EQUAL("cloud-1", encode_gce_label("cloud-1").c_str());
    STRCMP_EQUAL("_4eode_2e1", encode_gce_label("Node.1").c_str());
    STRCMP_EQUAL("a_5fb", encode_gce_label("a_b").c_str());
    for (const std::string s : {"", "cloud-1", "Node.1", "a_b", "x y/z", "_5f"}) {
        const auto back = decode_gce_label(encode_gce_label(s));
        CHECK(back.has_value());
        STRCMP_EQUAL(s.c_str(), back->c_str());
    }
    CHECK(!decode_gce_label("A").has_value());
    CHECK(!decode_gce_label("a_5").has_value());
    CHECK(!decode_gce_label("a_zz").has_value());
    CHECK(fits_gce_label(std::string(63, 'a')));
    CHECK(!fits_gce_label(std::string(64, 'a')));
    CHECK(!fits_gce_label(std::string(30, 'A')));
}

TEST(GceLabels, InstanceNames)
{
    CHECK(is_gce_instance_name("cloud-001"));
    CHECK(is_gce_instance_name("a"));
    CHECK(!is_gce_instance_name(""));
    CHECK(!is_gce_instance_name("1abc"));
    CHECK(!is_gce_instance_name("abc-"));
    CHECK(!is_gce_instance_name("Cloud1"));
    CHECK(!is_gce_instance_name("a.b"));
    CHECK(!is_gce_instance_name(std::string(64, 'a')));
}

TEST(GceLabels, RequestUuidIsDeterministicVersion5Shape)
{
    const std::string u = request_uuid("tok-1");
    LONGS_EQUAL(36, u.size());
    STRCMP_EQUAL(u.c_str(), request_uuid("tok-1").c_str());
    CHECK(u != request_uuid("tok-2"));
    CHECK_EQUAL('-', u[8]);
    CHECK_EQUAL('-', u[23]);
    CHECK_EQUAL('5', u[14]);
    const char variant = u[19];
    CHECK(variant == '8' || variant == '9' || variant == 'a' || variant == 'b');
}
