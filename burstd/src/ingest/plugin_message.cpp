#include "ingest/plugin_message.hpp"

#include "common/json_ref.hpp"
#include "ingest/protocol_message.hpp"

#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace burst {
namespace {

// A message of `type` introduced in protocol `version`, with the header
// every message has.
JsonRef message(const char* type, int version, const std::string& cluster, std::uint64_t seq, Time time)
{
    JsonRef msg(json_object());
    json_object_set_new(msg.get(), "v", json_integer(version));
    json_object_set_new(msg.get(), "type", json_string(type));
    if (json_object_set_new(msg.get(), "cluster", json_string(cluster.c_str())) != 0)
        throw std::invalid_argument(std::string(type) + ": cluster name is not valid UTF-8");
    json_object_set_new(msg.get(), "seq", json_integer(json_int_t(seq)));
    json_object_set_new(msg.get(), "time", json_integer(json_int_t(time)));
    return msg;
}

std::string line(const JsonRef& msg)
{
    std::unique_ptr<char, decltype(&std::free)> text(json_dumps(msg.get(), JSON_COMPACT), &std::free);
    if (!text)
        throw std::runtime_error("burstd -> plugin message: JSON serialization failed");
    return std::string(text.get()) + "\n";
}

} // namespace

std::string serialize_advice(const std::string& cluster, std::uint64_t seq, Time time,
                             const std::map<std::string, std::uint32_t>& threads)
{
    JsonRef table(json_object());
    for (const auto& [category, count] : threads) {
        if (count == 0 || count > kMaxAdvisedThreads)
            throw std::invalid_argument("advice for category \"" + category + "\": thread count " +
                                        std::to_string(count) + " outside 1.." +
                                        std::to_string(kMaxAdvisedThreads));
        if (json_object_set_new(table.get(), category.c_str(), json_integer(count)) != 0)
            throw std::invalid_argument("advice: category \"" + category + "\" is not valid UTF-8");
    }
    JsonRef msg = message("advice", 1, cluster, seq, time);
    json_object_set_new(msg.get(), "replace", json_true());
    json_object_set(msg.get(), "threads", table.get());
    return line(msg);
}

std::string serialize_resync(const std::string& cluster, std::uint64_t seq, Time time, const std::string& reason)
{
    JsonRef msg = message("resync", kDeltaProtocolVersion, cluster, seq, time);
    json_object_set_new(msg.get(), "reason", json_stringn(reason.data(), reason.size()));
    return line(msg);
}

} // namespace burst
