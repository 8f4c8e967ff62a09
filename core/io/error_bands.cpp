#include "io/error_bands.h"

#include "estimate/display_names.h"
#include "io/scenario_json.h"

#include <cstdio>

namespace parascope {

std::string predictionClass(const Scenario& sc)
{
    if (sc.parallel.cp > 1 || sc.training.seq_len >= 16384)
        return "long_context";
    if (sc.model.moe && sc.model.moe->experts > 0)
        return "moe";
    if (sc.training.precision == Precision::Fp8)
        return "fp8";
    if (sc.parallel.zero >= 3)
        return "fsdp";
    return "dense";
}

Localized bandClassName(const std::string& run_class)
{
    static const struct {
        const char* id;
        const char* en;
        const char* zh;
    } kClasses[] = {{"dense", "dense", "稠密模型"},
                    {"moe", "MoE", "MoE"},
                    {"fsdp", "FSDP / ZeRO-3", "FSDP / ZeRO-3"},
                    {"fp8", "FP8", "FP8"},
                    {"long_context", "long context", "长上下文"},
                    {"", "all classes", "全部类别"}};
    for (const auto& c : kClasses)
        if (run_class == c.id)
            return {c.en, c.zh};
    return {run_class, run_class};
}

Localized bandText(const ErrorBand& b, bool short_form)
{
    const auto pct = [](double v) {
        char s[32];
        std::snprintf(s, sizeof s, "%.1f %%", v * 100);
        return std::string(s);
    };
    if (b.runs == 0)
        return {"band unknown (no reference runs)", "误差范围未知（无参考运行）"};
    const std::string band = "±" + pct(b.mape);
    if (short_form)
        return {band, band};
    const Localized cls = bandClassName(b.run_class);
    return {band + " (" + cls.en + ": the mean error of " + std::to_string(b.runs)
                + " reference runs no constant was fitted on; worst " + pct(b.max_abs_error) + ")",
            band + "（" + cls.zh + "：" + std::to_string(b.runs) + " 个未参与拟合的参考运行的平均误差；最大 "
                + pct(b.max_abs_error) + "）"};
}

std::string secondsWithBand(double s, const ErrorBand& b) { return formatSeconds(s) + " " + bandText(b, true).en; }

ErrorBand bandFor(const ErrorBands& bands, const Scenario& sc)
{
    const std::string cls = predictionClass(sc);
    for (const ErrorBand& b : bands.classes)
        if (b.run_class == cls && b.runs >= kMinRunsPerBand)
            return b;
    return bands.all;
}

const ErrorBands& builtInBands()
{
    static const ErrorBands bands = [] {
        std::vector<InputError> errors;
        const PresetInfo* p = findPreset("validation", "error-bands");
        return p ? readBands(p->json, errors) : ErrorBands{};
    }();
    return bands;
}

nlohmann::json uncertaintyJson(const Scenario& sc, const std::string& lang)
{
    return bandJson(bandFor(builtInBands(), sc), lang);
}

nlohmann::json bandJson(const ErrorBand& band, const std::string& lang)
{
    return {{"class", bandClassId(band)},
            {"relative", band.mape},
            {"worst", band.max_abs_error},
            {"reference_runs", band.runs},
            {"text", bandText(band).in(lang)},
            {"source",
             "the check part of the reference set, by parascope-cli validate "
             "(resources/presets/validation/error-bands.json); step time, tokens/s and MFU"}};
}

namespace {

ErrorBand readBand(const nlohmann::json& j, const std::string& path, const std::string& cls,
                   std::vector<InputError>& errors)
{
    ErrorBand b;
    b.run_class = cls;
    ObjectReader r(j, path, errors);
    if (!r.valid())
        return b;
    b.mape = r.number("mape", 0, 10, true).value_or(0);
    b.max_abs_error = r.number("max_abs_error", 0, 10, true).value_or(0);
    b.runs = int(r.integer("runs", 0, 1000000, true).value_or(0));
    r.finish();
    return b;
}

} // namespace

ErrorBands readBands(const nlohmann::json& j, std::vector<InputError>& errors)
{
    ErrorBands out;
    ObjectReader r(j, "", errors);
    if (!r.valid())
        return out;
    if (r.string("schema", true).value_or("") != kBandsSchema)
        r.error("schema", std::string("must be \"") + kBandsSchema + "\"");
    r.string("measured_by");
    if (const nlohmann::json* a = r.child("all"))
        out.all = readBand(*a, r.childPath("all"), "", errors);
    else
        r.error("all", "is required: the check part's band");
    if (const nlohmann::json* c = r.child("classes"); c && c->is_object())
        for (const auto& [cls, band] : c->items())
            out.classes.push_back(readBand(band, r.childPath("classes") + "." + cls, cls, errors));
    r.finish();
    return out;
}

} // namespace parascope
