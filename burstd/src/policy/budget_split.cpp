#include "policy/budget_split.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace burst {

namespace {

// The account associations as a tree, and what each account's subtree holds
// of the machine.
class ShareTree {
public:
    explicit ShareTree(const std::vector<Share>& shares)
    {
        for (const auto& s : shares)
            if (s.user.empty()) {
                Node n;
                n.parent = s.parent;
                n.raw_shares = s.raw_shares;
                n.fairshare_parent = s.fairshare_parent;
                nodes_.try_emplace(s.account, std::move(n));
            }
        for (const auto& s : shares)
            if (!s.user.empty() && !s.fairshare_parent)
                if (auto a = nodes_.find(s.account); a != nodes_.end())
                    a->second.users_shares += s.raw_shares;
        std::vector<Node*> tops;
        for (auto& [name, node] : nodes_) {
            auto parent = nodes_.find(node.parent);
            if (parent == nodes_.end() || parent->first == name)
                tops.push_back(&node);
            else
                parent->second.children.push_back(&node);
        }
        // Parents before children; an account on a parent cycle is reached
        // from no top and holds nothing.
        std::vector<Node*> order = tops;
        for (std::size_t i = 0; i < order.size(); ++i)
            order.insert(order.end(), order[i]->children.begin(), order[i]->children.end());
        // What each subtree puts into the level it joins: its raw shares, or
        // at Fairshare=parent its children's (Slurm's level_shares).
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            Node& n = **it;
            n.level = n.users_shares;
            for (const Node* c : n.children)
                n.level += c->into_level();
        }
        double top_level = 0;
        for (const Node* t : tops)
            top_level += t->into_level();
        for (Node* n : order) {
            n->visited = true;
            if (n->fs_parent == nullptr) { // a top
                n->machine = top_level > 0 ? n->into_level() / top_level : 1.0 / double(tops.size());
            } else {
                const Node& f = *n->fs_parent;
                n->machine = f.level > 0 ? f.machine * n->into_level() / f.level : 0;
            }
            // A top at Fairshare=parent has no ancestor to hand its
            // children to: they stay in its own level.
            for (Node* c : n->children)
                c->fs_parent = n->fairshare_parent && n->fs_parent ? n->fs_parent : n;
        }
    }

    // What `account`'s own jobs may claim: its subtree's machine share less
    // that of the nearest descendants among `with_work`, which claim theirs.
    std::map<std::string, double> own_shares(const std::map<std::string, double>& with_work) const
    {
        std::map<std::string, double> out;
        for (const auto& [name, unused] : with_work)
            if (auto n = nodes_.find(name); n != nodes_.end())
                out[name] = n->second.machine;
        for (const auto& [name, unused] : with_work) {
            auto n = nodes_.find(name);
            if (n == nodes_.end() || !n->second.visited)
                continue;
            for (auto up = nodes_.find(n->second.parent); up != nodes_.end() && up->first != n->first;
                 up = nodes_.find(up->second.parent)) {
                if (auto w = out.find(up->first); w != out.end()) {
                    w->second = std::max(0.0, w->second - n->second.machine);
                    break;
                }
                if (!up->second.visited || up->second.fs_parent == nullptr)
                    break;
            }
        }
        return out;
    }

private:
    struct Node {
        std::string parent;
        double raw_shares = 0;
        bool fairshare_parent = false;
        double users_shares = 0; // of its users not at Fairshare=parent
        std::vector<Node*> children;
        double level = 0;              // raw shares of the level its children form
        const Node* fs_parent = nullptr; // whose level it joins; nullptr for a top
        double machine = 0;            // its subtree's share of the machine
        bool visited = false;

        double into_level() const { return fairshare_parent ? level : raw_shares; }
    };
    std::map<std::string, Node> nodes_; // ordered: the same sums every run
};

} // namespace

std::map<std::string, double> split_budget(double budget, const std::vector<std::string>& accounts,
                                           const std::vector<Share>& shares, BudgetSplit how)
{
    std::map<std::string, double> weight;
    for (const auto& a : accounts)
        weight[a] = 0;
    double total = 0;
    if (how != BudgetSplit::Equal) {
        const ShareTree tree(shares);
        // Fair Tree (Slurm's default) ranks users and leaves every account's
        // factor at 0: an account then weighs in with its users' mean factor.
        std::map<std::string, std::pair<double, std::size_t>> users; // sum, count
        std::map<std::string, double> account_factor;
        if (how == BudgetSplit::FairShare)
            for (const auto& s : shares) {
                if (!weight.count(s.account))
                    continue;
                if (s.user.empty()) {
                    account_factor.try_emplace(s.account, s.fairshare_factor);
                } else {
                    auto& [sum, count] = users[s.account];
                    sum += s.fairshare_factor;
                    ++count;
                }
            }
        for (const auto& [account, machine] : tree.own_shares(weight)) {
            double w = machine;
            if (how == BudgetSplit::FairShare) {
                double factor = account_factor[account];
                if (auto u = users.find(account); factor == 0 && u != users.end())
                    factor = u->second.first / double(u->second.second);
                w *= factor;
            }
            weight[account] = w;
            total += w;
        }
    }
    if (total <= 0) {
        if (how == BudgetSplit::FairShare)
            return split_budget(budget, accounts, shares, BudgetSplit::Shares);
        for (auto& [a, w] : weight)
            w = 1;
        total = double(weight.size());
    }
    std::map<std::string, double> out;
    for (const auto& [a, w] : weight)
        out[a] = total > 0 ? budget * w / total : 0;
    return out;
}

} // namespace burst
