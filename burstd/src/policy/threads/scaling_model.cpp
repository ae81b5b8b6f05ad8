#include "policy/threads/scaling_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace burst {
namespace {

constexpr std::size_t kFeatures = 4;

// Index of (i, j), i <= j, in a row-major upper triangle of a 4 x 4 matrix.
constexpr std::size_t upper(std::size_t i, std::size_t j) { return i * kFeatures - i * (i - 1) / 2 + (j - i); }

using Matrix = std::array<std::array<double, kFeatures>, kFeatures>;

// Inverts the leading p x p block of `m` in place (Gauss-Jordan with partial
// pivoting); false when it is singular, as when every run used one thread
// count and 1/t cannot be told from the constant.
bool invert(Matrix& m, std::size_t p)
{
    Matrix inv{};
    for (std::size_t i = 0; i < p; ++i)
        inv[i][i] = 1;
    double scale = 0;
    for (std::size_t i = 0; i < p; ++i)
        scale = std::max(scale, std::fabs(m[i][i]));
    for (std::size_t col = 0; col < p; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < p; ++r)
            if (std::fabs(m[r][col]) > std::fabs(m[pivot][col]))
                pivot = r;
        if (!(std::fabs(m[pivot][col]) > 1e-12 * scale))
            return false;
        std::swap(m[col], m[pivot]);
        std::swap(inv[col], inv[pivot]);
        const double d = m[col][col];
        for (std::size_t k = 0; k < p; ++k) {
            m[col][k] /= d;
            inv[col][k] /= d;
        }
        for (std::size_t r = 0; r < p; ++r) {
            if (r == col || m[r][col] == 0)
                continue;
            const double f = m[r][col];
            for (std::size_t k = 0; k < p; ++k) {
                m[r][k] -= f * m[col][k];
                inv[r][k] -= f * inv[col][k];
            }
        }
    }
    m = inv;
    return true;
}

} // namespace

Seconds ScalingFit::time(std::uint32_t threads, double size) const
{
    const double single = a * size + b;
    return single * (c / double(std::max<std::uint32_t>(threads, 1)) + 1 - c);
}

void ScalingModel::add(const ScalingRun& run, double decay)
{
    if (run.threads == 0 || !(run.elapsed > 0) || !std::isfinite(run.elapsed) || !std::isfinite(run.size) ||
        run.size < 0)
        return;
    for (auto& v : xx_)
        v *= decay;
    for (auto& v : xy_)
        v *= decay;
    yy_ *= decay;
    w_ *= decay;
    ww_ *= decay * decay;
    const double inv_t = 1.0 / double(run.threads);
    const std::array<double, kFeatures> x{1, inv_t, run.size, run.size * inv_t};
    for (std::size_t i = 0; i < kFeatures; ++i) {
        for (std::size_t j = i; j < kFeatures; ++j)
            xx_[upper(i, j)] += x[i] * x[j];
        xy_[i] += x[i] * run.elapsed;
    }
    yy_ += run.elapsed * run.elapsed;
    w_ += 1;
    ww_ += 1;
    sized_ = sized_ || run.size > 0;
    const auto t = std::uint16_t(std::min<std::uint32_t>(run.threads, UINT16_MAX));
    if (std::find(counts_.begin(), counts_.end(), t) == counts_.end())
        if (auto free = std::find(counts_.begin(), counts_.end(), 0); free != counts_.end())
            *free = t;
}

namespace {
constexpr std::string_view kTextVersion = "scaling1";
} // namespace

std::string ScalingModel::to_text() const
{
    std::string out(kTextVersion);
    char number[32];
    auto put = [&](double v) {
        std::snprintf(number, sizeof number, " %.17g", v);
        out += number;
    };
    for (double v : xx_)
        put(v);
    for (double v : xy_)
        put(v);
    put(yy_);
    put(w_);
    put(ww_);
    out += sized_ ? " 1" : " 0";
    for (auto t : counts_)
        out += " " + std::to_string(t);
    return out;
}

std::optional<ScalingModel> ScalingModel::from_text(std::string_view text, std::string& error)
{
    std::istringstream in{std::string(text)};
    std::string version;
    in >> version;
    if (version != kTextVersion) {
        error = "expected a line starting with " + std::string(kTextVersion) + ", got '" + version.substr(0, 20) + "'";
        return std::nullopt;
    }
    ScalingModel m;
    for (double& v : m.xx_)
        in >> v;
    for (double& v : m.xy_)
        in >> v;
    int sized = 0;
    in >> m.yy_ >> m.w_ >> m.ww_ >> sized;
    for (auto& t : m.counts_) {
        unsigned n = 0;
        in >> n;
        t = std::uint16_t(std::min(n, 65535u));
    }
    std::string rest;
    if (in.fail() || (in >> rest, !rest.empty()) || !(m.w_ >= 0) || !(m.ww_ >= 0) || (sized != 0 && sized != 1)) {
        error = "expected 10 + 4 + 3 numbers, a 0 or 1 and 8 thread counts after " + std::string(kTextVersion);
        return std::nullopt;
    }
    m.sized_ = sized == 1;
    return m;
}

ScalingFit ScalingModel::fit(const ScalingSettings& settings) const
{
    ScalingFit f;
    f.thread_counts = std::uint32_t(std::count_if(counts_.begin(), counts_.end(), [](auto t) { return t != 0; }));
    if (w_ <= 0)
        return f;
    f.runs = w_ * w_ / ww_;
    const std::size_t p = sized_ ? 4 : 2;
    Matrix m{};
    for (std::size_t i = 0; i < p; ++i)
        for (std::size_t j = i; j < p; ++j)
            m[i][j] = m[j][i] = xx_[upper(i, j)];
    const double mean_size = sized_ ? xx_[upper(0, 2)] / xx_[upper(0, 0)] : 0;
    if (!invert(m, p))
        return f;
    std::array<double, kFeatures> beta{};
    for (std::size_t i = 0; i < p; ++i)
        for (std::size_t j = 0; j < p; ++j)
            beta[i] += m[i][j] * xy_[j];
    double fitted = 0; // βᵀ Xᵀy: the residual sum of squares is yᵀy less this
    for (std::size_t i = 0; i < p; ++i)
        fitted += beta[i] * xy_[i];
    const double residual = std::max(0.0, yy_ - fitted);

    f.b = beta[0] + beta[1];
    f.a = beta[2] + beta[3];
    const double single = f.b + f.a * mean_size; // E at the runs' mean size
    const double scalable = beta[1] + beta[3] * mean_size;
    if (!(single > 0))
        return f;
    const double c = scalable / single;
    f.c = std::clamp(c, 0.0, 1.0);
    // c's standard error by the delta method: ∇c · Cov(β) · ∇c, with
    // Cov(β) = RSS / (runs − p) · (XᵀWX)⁻¹.
    if (f.runs > double(p)) {
        const double e2 = single * single;
        const std::array<double, kFeatures> grad{-scalable / e2, (single - scalable) / e2, -scalable * mean_size / e2,
                                                  mean_size * (single - scalable) / e2};
        double var = 0;
        for (std::size_t i = 0; i < p; ++i)
            for (std::size_t j = 0; j < p; ++j)
                var += grad[i] * m[i][j] * grad[j];
        f.c_error = std::sqrt(std::max(0.0, var * residual / (f.runs - double(p))));
    }
    f.known = f.runs >= settings.min_runs && f.thread_counts >= 2 && f.c_error <= settings.max_c_error;
    return f;
}

} // namespace burst
