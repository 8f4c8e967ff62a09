#pragma once
// The flags of a Megatron-LM launch as typed values, each read marked as used, so the import's
// summary can say which flags were used, which were read and ignored, and which words were not
// understood. Internal to io/megatron_args_import*.cpp.

#include "io/megatron_args_import.h"
#include "io/megatron_flags.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace parascope::megatron {

class FlagReader {
public:
    FlagReader(const Launch& launch, std::vector<InputError>& errors)
        : launch_(launch)
        , errors_(errors)
    { }

    // Present (and so used: a switch's presence is its value).
    bool has(const std::string& key);
    // Present, without marking it used (a check of another flag's context).
    bool given(const std::string& key) const { return launch_.flags.count(key) > 0; }
    std::string where(const std::string& key) const;
    std::optional<std::string> value(const std::string& key);
    std::vector<std::string> values(const std::string& key);
    // A whole number in min…max; sizes up to 2^30 by default.
    std::optional<long long> integer(const std::string& key, long long min = 1, long long max = 1LL << 30);
    long long integerOr(const std::string& key, long long fallback, long long min = 1, long long max = 1LL << 30);
    long long required(const std::string& key);
    std::optional<double> number(const std::string& key, double min, double max);
    void error(const std::string& key, const std::string& what) { errors_.push_back({where(key), what}); }
    void note(std::string n) { notes_.push_back(std::move(n)); }

    const Launch& launch() const { return launch_; }
    const std::set<std::string>& used() const { return used_; }
    std::vector<std::string>& notes() { return notes_; }

private:
    const Launch& launch_;
    std::vector<InputError>& errors_;
    std::set<std::string> used_;
    std::set<std::string> reported_; // flags whose value was already said to be unreadable
    std::vector<std::string> notes_;
};

// The sections of the scenario (megatron_import_sections.cpp): each reads its flags.
nlohmann::json readModel(FlagReader& f, const std::string& name, const MegatronImportOptions& options);
void readMoe(FlagReader& f, nlohmann::json& model, nlohmann::json& parallel, nlohmann::json& training);
nlohmann::json readParallel(FlagReader& f, const MegatronImportOptions& options, long long layers);
nlohmann::json readTraining(FlagReader& f, long long layers, const nlohmann::json& parallel);

// The summary: used flags, the others present with why they are ignored, words not understood.
nlohmann::json importSummary(const FlagReader& f);

} // namespace parascope::megatron
