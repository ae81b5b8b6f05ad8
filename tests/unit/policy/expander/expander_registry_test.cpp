#include "policy/expander/expander.hpp"
#include "policy/policy_params.hpp"

#include "policy/policy_test_state.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

std::vector<ExpansionOption> at_list_price(const SiteView& v, std::uint64_t cpus)
{
    std::vector<ExpansionOption> out;
    for (const auto& g : v.groups)
        out.push_back(list_price_option(g, cpus));
    return out;
}

const char* chosen(const std::string& expander, const std::vector<ExpansionOption>& options, std::uint64_t cpus)
{
    const ExpansionOption* o = make_expander(expander)->choose(options, cpus);
    return o ? o->group->group->name.c_str() : "none";
}

} // namespace

TEST_GROUP(Expander){};

TEST(Expander, EachStrategyPicksItsFavourite)
{
    StateBuilder b;
    b.group("big", 16, 2, 1.6).group("cheap", 4, 2, 0.2).group("exact", 6, 2, 1.2);
    SiteView v = SiteView::of(b.state);
    const auto all = at_list_price(v, 6);
    // 6 cores: big wastes 10, cheap wastes 2 (0.05/core-h), exact wastes 0 (0.2/core-h).
    STRCMP_EQUAL("exact", chosen("least-waste", all, 6));
    STRCMP_EQUAL("cheap", chosen("price", all, 6));
    STRCMP_EQUAL("big", chosen("priority", all, 6));
    STRCMP_EQUAL("cheap", chosen("least-cost", all, 6));
    for (const auto& name : expander_names())
        STRCMP_EQUAL("none", chosen(name, {}, 6));
    LONGS_EQUAL(2, wasted_cpus(*v.groups[1].group, 6));
}

TEST(Expander, ListPriceOptionsAreReadyNowOnlyOnFreeUpCores)
{
    StateBuilder b;
    b.group("g", 8, 2, 0.8, 120).up("g-1", 4);
    SiteView v = SiteView::of(b.state);
    DOUBLES_EQUAL(0.1 / 3600, list_price_option(v.groups[0], 4).cost, 1e-15);
    DOUBLES_EQUAL(0, list_price_option(v.groups[0], 4).ready_in, 0);
    DOUBLES_EQUAL(120, list_price_option(v.groups[0], 5).ready_in, 0);
    v.groups[0].routed_pending_cpus = 1; // a routed job takes one of the free cores
    DOUBLES_EQUAL(120, list_price_option(v.groups[0], 4).ready_in, 0);
}

TEST(Expander, LeastCostTakesTheLowestQuoteWhateverTheListPrice)
{
    StateBuilder b;
    b.group("cheap", 8, 2, 0.4).group("dear", 8, 2, 1.6).group("dearer", 8, 2, 3.2);
    SiteView v = SiteView::of(b.state);
    // Warm cores make the dear group's quote the lowest.
    std::vector<ExpansionOption> quoted{{&v.groups[0], 0.8, 100}, {&v.groups[1], 0.5, 0}, {&v.groups[2], 0.6, 0}};
    STRCMP_EQUAL("dear", chosen("least-cost", quoted, 8));
    // The list-price expanders ignore the quote where it disagrees with the price.
    STRCMP_EQUAL("cheap", chosen("price", quoted, 8));
    STRCMP_EQUAL("cheap", chosen("priority", quoted, 8));
}

TEST(Expander, LeastCostBreaksTiesByOfferOrder)
{
    StateBuilder b;
    b.group("wide", 16, 2, 0.8, 300).group("narrow", 4, 2, 0.8, 100).group("warm", 8, 2, 0.8, 100);
    SiteView v = SiteView::of(b.state);
    // Same cost: the first offered, though a later one is ready sooner and wastes less.
    std::vector<ExpansionOption> tied{{&v.groups[0], 0.5, 300}, {&v.groups[1], 0.5, 100}, {&v.groups[2], 0.5, 0}};
    STRCMP_EQUAL("wide", chosen("least-cost", tied, 4));
    std::swap(tied[0], tied[2]);
    STRCMP_EQUAL("warm", chosen("least-cost", tied, 4));
    // Any lower cost beats the first.
    tied[1].cost = 0.4999;
    STRCMP_EQUAL("narrow", chosen("least-cost", tied, 4));
}

TEST(Expander, ListPriceExpandersBreakTiesByTheQuote)
{
    StateBuilder b;
    b.group("cold", 8, 2, 0.8).group("warm", 8, 2, 0.8).group("wide", 16, 2, 1.6);
    SiteView v = SiteView::of(b.state);
    // Same price per core and waste for 8 cores: the lower quote wins.
    std::vector<ExpansionOption> quoted{{&v.groups[0], 0.9, 100}, {&v.groups[1], 0.8, 0}, {&v.groups[2], 0.7, 0}};
    STRCMP_EQUAL("warm", chosen("least-waste", quoted, 8));
    // Price ties among all three; the wide group's quote is lowest.
    STRCMP_EQUAL("wide", chosen("price", quoted, 8));
    // Equal price and quote: least waste.
    quoted[2].cost = 0.8;
    std::swap(quoted[1], quoted[2]);
    STRCMP_EQUAL("warm", chosen("price", quoted, 8));
}

TEST(Expander, UnknownNameListsTheKnownOnes)
{
    try {
        make_expander("random");
        FAIL("accepted");
    } catch (const PolicyConfigError& e) {
        STRCMP_CONTAINS("unknown expander 'random' (known: least-cost, least-waste, price, priority)", e.what());
    }
}
