#include "provider/http/request_budget.hpp"

namespace burst {

RequestBudget::RequestBudget(std::string provider, std::string region, const RequestLimits& limits,
                             const Clock& clock)
    : limits_(limits), clock_(clock), read_(limits.read, clock.now()), write_(limits.write, clock.now())
{
    view_.provider = std::move(provider);
    view_.region = std::move(region);
    view_.limits = limits;
}

Seconds RequestBudget::reserve(RequestKind kind)
{
    std::lock_guard<std::mutex> lock(mutex_);
    ++(kind == RequestKind::Read ? view_.reads : view_.writes);
    return bucket(kind).reserve(clock_.now());
}

void RequestBudget::waited(Seconds seconds, bool backing_off)
{
    std::lock_guard<std::mutex> lock(mutex_);
    (backing_off ? view_.backoff_wait : view_.bucket_wait) += seconds;
}

void RequestBudget::throttled(RequestKind kind, Seconds pause)
{
    std::lock_guard<std::mutex> lock(mutex_);
    ++view_.throttled;
    bucket(kind).drain(clock_.now(), pause);
}

void RequestBudget::gave_up()
{
    std::lock_guard<std::mutex> lock(mutex_);
    ++view_.gave_up;
}

RequestBudgetView RequestBudget::view() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return view_;
}

std::shared_ptr<RequestBudget> RequestBudgets::get(const std::string& provider, const std::string& region,
                                                   const RequestLimits& limits, const Clock& clock)
{
    std::lock_guard<std::mutex> lock(mutex_);
    auto& slot = budgets_[provider];
    if (!slot)
        slot = std::make_shared<RequestBudget>(provider, region, limits, clock);
    return slot;
}

std::vector<RequestBudgetView> RequestBudgets::views() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<RequestBudgetView> out;
    for (const auto& [name, budget] : budgets_)
        out.push_back(budget->view());
    return out;
}

} // namespace burst
