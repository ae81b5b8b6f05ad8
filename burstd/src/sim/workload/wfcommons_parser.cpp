#include "sim/workload/wfcommons_parser.hpp"

#include "sim/trace/trace.hpp"

#include <jansson.h>

#include <cmath>
#include <memory>
#include <unordered_map>

namespace burst {
namespace {

struct JsonDecref {
    void operator()(json_t* j) const { json_decref(j); }
};
using JsonPtr = std::unique_ptr<json_t, JsonDecref>;

class Reader {
public:
    explicit Reader(const std::string& source) : source_(source) {}

    [[noreturn]] void fail(const std::string& path, const std::string& what) const
    {
        throw WorkflowError(source_ + ": " + path + ": " + what);
    }
    json_t* member(json_t* obj, const std::string& path, const char* key, bool required) const
    {
        json_t* v = json_object_get(obj, key);
        if (!v && required)
            fail(path + "." + key, "missing");
        return v;
    }
    json_t* object(json_t* obj, const std::string& path, const char* key) const
    {
        json_t* v = member(obj, path, key, true);
        if (!json_is_object(v))
            fail(path + "." + key, "expected an object");
        return v;
    }
    json_t* array(json_t* obj, const std::string& path, const char* key, bool required) const
    {
        json_t* v = member(obj, path, key, required);
        if (v && !json_is_array(v))
            fail(path + "." + key, "expected an array");
        return v;
    }
    std::string string(json_t* obj, const std::string& path, const char* key, bool required) const
    {
        json_t* v = member(obj, path, key, required);
        if (!v)
            return {};
        if (!json_is_string(v) || json_string_length(v) == 0)
            fail(path + "." + key, "expected a non-empty string");
        return json_string_value(v);
    }
    // Seconds in [0, kMaxTraceSeconds]; -1 when absent and not required.
    double seconds(json_t* obj, const std::string& path, const char* key, bool required) const
    {
        json_t* v = member(obj, path, key, required);
        if (!v)
            return -1;
        const double d = json_number_value(v);
        if (!json_is_number(v) || !std::isfinite(d) || d < 0 || d > kMaxTraceSeconds)
            fail(path + "." + key, "expected seconds in [0, 10 years]");
        return d;
    }
    std::uint32_t cores(json_t* obj, const std::string& path, const char* key) const
    {
        json_t* v = member(obj, path, key, false);
        if (!v)
            return 1;
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1000000)
            fail(path + "." + key, "expected a whole number of cores in [1, 1000000]");
        return std::uint32_t(json_integer_value(v));
    }
    std::vector<std::string> names(json_t* obj, const std::string& path, const char* key) const
    {
        std::vector<std::string> out;
        json_t* a = array(obj, path, key, false);
        if (!a)
            return out;
        for (std::size_t i = 0; i < json_array_size(a); ++i) {
            json_t* v = json_array_get(a, i);
            if (!json_is_string(v))
                fail(path + "." + key + "[" + std::to_string(i) + "]", "expected a task id string");
            out.push_back(json_string_value(v));
        }
        return out;
    }

private:
    const std::string& source_;
};

std::string at(const std::string& path, std::size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

using TaskIndex = std::unordered_map<std::string, std::size_t>;

// Task id → index in w.tasks (listed under `path`); fails at the second task
// of an id used twice, `id_key` naming the member the id came from.
TaskIndex index_tasks(const Workflow& w, const Reader& r, const std::string& path, const std::string& id_key)
{
    TaskIndex index;
    for (std::size_t i = 0; i < w.tasks.size(); ++i)
        if (auto [first, inserted] = index.emplace(w.tasks[i].id, i); !inserted)
            r.fail(at(path, i) + id_key,
                   "task id '" + w.tasks[i].id + "' is already used by " + at(path, first->second));
    return index;
}

// Resolves parent (and child) names to indices once every task is known.
void link(Workflow& w, const Reader& r, const std::string& path, const TaskIndex& index,
          const std::vector<std::vector<std::string>>& parents, const std::vector<std::vector<std::string>>& children)
{
    auto find = [&](const std::string& where, const std::string& name) {
        auto it = index.find(name);
        if (it == index.end())
            r.fail(where, "names task '" + name + "', which is not in the workflow");
        return it->second;
    };
    auto add = [](std::vector<std::size_t>& list, std::size_t p) {
        for (auto q : list)
            if (q == p)
                return;
        list.push_back(p);
    };
    for (std::size_t i = 0; i < w.tasks.size(); ++i) {
        for (const auto& p : parents[i])
            add(w.tasks[i].parents, find(at(path, i) + ".parents", p));
        for (const auto& c : children[i])
            add(w.tasks[find(at(path, i) + ".children", c)].parents, i);
    }
}

void parse_v15(Workflow& w, const Reader& r, json_t* wf)
{
    const std::string spec_path = "workflow.specification", exec_path = "workflow.execution";
    json_t* spec = r.object(wf, "workflow", "specification");
    json_t* exec = r.object(wf, "workflow", "execution");
    json_t* tasks = r.array(spec, spec_path, "tasks", true);
    json_t* runs = r.array(exec, exec_path, "tasks", true);
    const std::string tasks_path = spec_path + ".tasks", runs_path = exec_path + ".tasks";
    std::vector<std::vector<std::string>> parents, children;
    for (std::size_t i = 0; i < json_array_size(tasks); ++i) {
        json_t* t = json_array_get(tasks, i);
        if (!json_is_object(t))
            r.fail(at(tasks_path, i), "expected a task object");
        WorkflowTask task;
        task.origin = at(tasks_path, i);
        task.id = r.string(t, at(tasks_path, i), "id", true);
        task.name = r.string(t, at(tasks_path, i), "name", false);
        if (task.name.empty())
            task.name = task.id;
        parents.push_back(r.names(t, at(tasks_path, i), "parents"));
        children.push_back(r.names(t, at(tasks_path, i), "children"));
        w.tasks.push_back(std::move(task));
    }
    const TaskIndex index = index_tasks(w, r, tasks_path, ".id");
    std::vector<bool> timed(w.tasks.size(), false);
    for (std::size_t i = 0; i < json_array_size(runs); ++i) {
        json_t* e = json_array_get(runs, i);
        if (!json_is_object(e))
            r.fail(at(runs_path, i), "expected a task execution object");
        const std::string id = r.string(e, at(runs_path, i), "id", true);
        auto it = index.find(id);
        if (it == index.end())
            r.fail(at(runs_path, i) + ".id", "names task '" + id + "', which the specification does not list");
        if (timed[it->second])
            r.fail(at(runs_path, i) + ".id", "task '" + id + "' has a second execution record");
        timed[it->second] = true;
        w.tasks[it->second].runtime = r.seconds(e, at(runs_path, i), "runtimeInSeconds", true);
        w.tasks[it->second].cores = r.cores(e, at(runs_path, i), "coreCount");
    }
    for (std::size_t i = 0; i < w.tasks.size(); ++i)
        if (!timed[i])
            r.fail(at(tasks_path, i), "task '" + w.tasks[i].id + "' has no record in " + runs_path);
    link(w, r, tasks_path, index, parents, children);
}

void parse_legacy(Workflow& w, const Reader& r, json_t* wf)
{
    json_t* tasks = r.array(wf, "workflow", "tasks", true);
    const std::string path = "workflow.tasks";
    std::vector<std::vector<std::string>> parents, children;
    for (std::size_t i = 0; i < json_array_size(tasks); ++i) {
        json_t* t = json_array_get(tasks, i);
        if (!json_is_object(t))
            r.fail(at(path, i), "expected a task object");
        WorkflowTask task;
        task.origin = at(path, i);
        task.name = r.string(t, at(path, i), "name", true);
        task.id = r.string(t, at(path, i), "id", false);
        if (task.id.empty())
            task.id = task.name;
        double runtime = r.seconds(t, at(path, i), "runtimeInSeconds", false);
        if (runtime < 0)
            runtime = r.seconds(t, at(path, i), "runtime", false);
        if (runtime < 0)
            r.fail(at(path, i), "needs runtimeInSeconds (or runtime), a number >= 0");
        task.runtime = runtime;
        task.cores = r.cores(t, at(path, i), "cores");
        parents.push_back(r.names(t, at(path, i), "parents"));
        children.push_back(r.names(t, at(path, i), "children"));
        w.tasks.push_back(std::move(task));
    }
    // Old instances name parents by task name; ids equal names when absent.
    link(w, r, path, index_tasks(w, r, path, ""), parents, children);
}

} // namespace

Workflow parse_wfcommons(const std::string& text, const std::string& source)
{
    json_error_t error;
    JsonPtr root(json_loadb(text.data(), text.size(), JSON_REJECT_DUPLICATES, &error));
    if (!root)
        throw WorkflowError(source + ":" + std::to_string(error.line) + ":" + std::to_string(error.column) +
                            ": invalid JSON: " + error.text);
    Reader r(source);
    if (!json_is_object(root.get()))
        r.fail("(document)", "expected a WfFormat object");
    Workflow w;
    w.source = source;
    w.name = r.string(root.get(), "(document)", "name", false);
    json_t* wf = r.object(root.get(), "(document)", "workflow");
    if (json_object_get(wf, "specification"))
        parse_v15(w, r, wf);
    else
        parse_legacy(w, r, wf);
    if (w.name.empty())
        w.name = source;
    check_workflow(w);
    return w;
}

} // namespace burst
