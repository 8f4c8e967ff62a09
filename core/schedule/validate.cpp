#include "schedule/validate.h"

#include "schedule/simulator.h"

namespace parascope {

namespace {

// Per (stage, microbatch): how often F, the input gradient (B or I) and the weight gradient (B or
// W) appear, and in which order on the rank; at most 20 problems are kept.
class ActionCounts {
public:
    explicit ActionCounts(const PipelineSchedule& s)
        : s_(s)
        , S_(s.stages())
        , m_(s.microbatches)
        , f_(std::size_t(S_) * m_, 0)
        , in_(f_.size(), 0)
        , w_(f_.size(), 0)
    { }
    void count(const Action& a, int r);
    void checkEachOnce();
    std::vector<std::string> take() { return std::move(problems_); }

private:
    void note(const std::string& what)
    {
        if (problems_.size() < 20)
            problems_.push_back(what);
    }
    std::size_t at(int stage, int mb) const { return std::size_t(stage) * m_ + mb; }
    bool check(const Action& a, int r, int stage, int mb);
    void forward(const Action& a, int r, int stage, int mb);
    void inputGrad(const Action& a, int r, int stage, int mb, bool with_weight);
    void weightGrad(const Action& a, int r);

    const PipelineSchedule& s_;
    const int S_, m_;
    std::vector<int> f_, in_, w_;
    std::vector<std::string> problems_;
};

// The action's stage and microbatch exist, are carried, and live on rank r.
bool ActionCounts::check(const Action& a, int r, int stage, int mb)
{
    if (stage < 0 || stage >= S_ || mb < 0 || mb >= m_ || !s_.carries(stage, mb)) {
        note(toString(a) + " on rank " + std::to_string(r) + " is outside the schedule");
        return false;
    }
    if (s_.rankOfStage(stage) != r) {
        note(toString(a) + " runs on rank " + std::to_string(r) + " but stage " + std::to_string(stage)
             + " lives on rank " + std::to_string(s_.rankOfStage(stage)));
        return false;
    }
    return true;
}

void ActionCounts::forward(const Action& a, int r, int stage, int mb)
{
    if (check(a, r, stage, mb))
        ++f_[at(stage, mb)];
}

void ActionCounts::inputGrad(const Action& a, int r, int stage, int mb, bool with_weight)
{
    if (!check(a, r, stage, mb))
        return;
    const std::size_t k = at(stage, mb);
    if (f_[k] == 0)
        note(toString(a) + " on rank " + std::to_string(r) + " comes before its forward");
    ++in_[k];
    if (with_weight)
        ++w_[k];
}

void ActionCounts::weightGrad(const Action& a, int r)
{
    if (!check(a, r, a.stage, a.microbatch))
        return;
    const std::size_t k = at(a.stage, a.microbatch);
    if (in_[k] == 0)
        note(toString(a) + " on rank " + std::to_string(r) + " comes before its input gradient");
    ++w_[k];
}

void ActionCounts::count(const Action& a, int r)
{
    switch (a.kind) {
    case OpKind::Forward: forward(a, r, a.stage, a.microbatch); break;
    case OpKind::Backward: inputGrad(a, r, a.stage, a.microbatch, true); break;
    case OpKind::BackwardInput: inputGrad(a, r, a.stage, a.microbatch, false); break;
    case OpKind::BackwardWeight: weightGrad(a, r); break;
    case OpKind::ForwardBackward:
        forward(a, r, a.stage, a.microbatch);
        inputGrad(a, r, a.b_stage, a.b_microbatch, true);
        break;
    }
}

// Every carried (stage, microbatch) has one forward, one input gradient and one weight gradient.
void ActionCounts::checkEachOnce()
{
    for (int st = 0; st < S_; ++st)
        for (int mb = 0; mb < m_; ++mb) {
            if (!s_.carries(st, mb))
                continue;
            const std::size_t k = at(st, mb);
            if (f_[k] != 1 || in_[k] != 1 || w_[k] != 1)
                note("stage " + std::to_string(st) + " microbatch " + std::to_string(mb) + ": " + std::to_string(f_[k])
                     + " forward, " + std::to_string(in_[k]) + " input-gradient and " + std::to_string(w_[k])
                     + " weight-gradient ops (want 1 each)");
        }
}

} // namespace

std::vector<std::string> validateSchedule(const PipelineSchedule& s)
{
    if (int(s.actions.size()) != s.ranks)
        return {"has " + std::to_string(s.actions.size()) + " action lists for " + std::to_string(s.ranks) + " ranks"};
    ActionCounts counts(s);
    for (int r = 0; r < s.ranks; ++r)
        for (const Action& a : s.actions[r])
            counts.count(a, r);
    counts.checkEachOnce();
    std::vector<std::string> problems = counts.take();
    if (!problems.empty())
        return problems;

    // Dry run with unit costs (F = 1, B = 2, I = W = 1): the dependencies must be satisfiable.
    SimulationInput dry;
    dry.schedule = &s;
    dry.stages.assign(std::size_t(s.stages()), StageCost{1, 1, 1, 0, 0});
    dry.record_ops = false;
    const Timeline t = simulate(dry);
    if (t.deadlock)
        problems.push_back("deadlocks: " + t.problem);
    return problems;
}

} // namespace parascope
