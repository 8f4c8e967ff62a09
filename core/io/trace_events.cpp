#include "io/trace_events.h"

#include "util/quote.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace parascope {

namespace {

using Json = nlohmann::json;

const char* const kNotATrace = "not a Chrome trace: expected an object with \"traceEvents\" (a PyTorch profiler trace) "
                               "or an array of events";

std::string lower(std::string s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::optional<double> numberFromString(const std::string& s)
{
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end && end != s.c_str() && *end == '\0')
        return v;
    return std::nullopt;
}

std::optional<long long> wholeOf(std::optional<double> d)
{
    if (d && std::isfinite(*d) && std::abs(*d) < 9e15)
        return (long long)std::llround(*d);
    return std::nullopt;
}

// One scalar of an event (or its "args") by key: what TraceEvent keeps.
void setField(TraceEvent& e, bool in_args, const std::string& key, const std::optional<double>& number,
              const std::string* text)
{
    const std::optional<double> n = number ? number : text ? numberFromString(*text) : std::nullopt;
    if (in_args) {
        if (key == "device")
            e.device = wholeOf(n);
        else if (key == "stream")
            e.stream = wholeOf(n);
        else if (key == "correlation")
            e.correlation = wholeOf(n);
        return;
    }
    if (key == "ph")
        e.complete = text && *text == "X";
    else if (key == "cat")
        e.cat = text ? *text : std::string();
    else if (key == "name")
        e.name = text ? *text : std::string();
    else if (key == "ts")
        e.ts = n;
    else if (key == "dur")
        e.dur = n;
    else if (key == "pid")
        e.pid = wholeOf(n);
    else if (key == "tid")
        e.tid = wholeOf(n);
}

// What each open container is, from its parent and the key it sits under.
enum class Ctx { Root, Events, Event, Args, DeviceList, Device, DistInfo, Skip };

class TraceSax : public nlohmann::json_sax<Json> {
public:
    TraceSax(TraceDocument& doc, int max_depth, std::vector<InputError>& errors)
        : doc_(doc)
        , max_depth_(max_depth)
        , errors_(errors)
    { }

    bool null() override { return scalar(std::nullopt, nullptr); }
    bool boolean(bool) override { return scalar(std::nullopt, nullptr); }
    bool number_integer(number_integer_t v) override { return scalar(double(v), nullptr, true); }
    bool number_unsigned(number_unsigned_t v) override { return scalar(double(v), nullptr, true); }
    bool number_float(number_float_t v, const string_t&) override { return scalar(v, nullptr); }
    bool string(string_t& s) override { return scalar(std::nullopt, &s); }
    bool binary(binary_t&) override { return scalar(std::nullopt, nullptr); }
    bool key(string_t& k) override
    {
        key_ = k;
        return true;
    }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& e) override
    {
        errors_.push_back({"",
                           "not valid JSON at byte " + std::to_string(position) + " (near " + quoteInput(last_token, 40)
                               + "): " + clipped(e.what(), 160)});
        return false;
    }

    bool sawEvents() const { return saw_events_; }

private:
    bool scalar(std::optional<double> number, const std::string* text, bool integer = false)
    {
        const Ctx c = stack_.empty() ? Ctx::Skip : stack_.back();
        if (c == Ctx::Event || c == Ctx::Args) {
            setField(event_, c == Ctx::Args, key_, number, text);
        } else if (c == Ctx::Device) {
            if (key_ == "id")
                device_id_ = wholeOf(number ? number : text ? numberFromString(*text) : std::nullopt);
            else if (key_ == "name" && text)
                device_name_ = *text;
        } else if (c == Ctx::DistInfo && integer && number && std::abs(*number) < 1e9) {
            if (key_ == "rank")
                doc_.rank = int(*number);
            else if (key_ == "world_size")
                doc_.world_size = int(*number);
        } else if (c == Ctx::Events) {
            ++index_;
        }
        return true;
    }
    bool open(bool object)
    {
        if (int(stack_.size()) >= max_depth_) {
            errors_.push_back({"", "JSON is nested deeper than " + std::to_string(max_depth_) + " levels"});
            return false;
        }
        const Ctx parent = stack_.empty() ? Ctx::Root : stack_.back();
        Ctx c = Ctx::Skip;
        if (stack_.empty())
            c = object ? Ctx::Root : Ctx::Events;
        else if (parent == Ctx::Root && !object && key_ == "traceEvents")
            c = Ctx::Events;
        else if (parent == Ctx::Root && !object && key_ == "deviceProperties")
            c = Ctx::DeviceList;
        else if (parent == Ctx::Root && object && key_ == "distributedInfo")
            c = Ctx::DistInfo;
        else if (parent == Ctx::Events && object)
            c = Ctx::Event;
        else if (parent == Ctx::Event && object && key_ == "args")
            c = Ctx::Args;
        else if (parent == Ctx::DeviceList && object)
            c = Ctx::Device;
        if (c == Ctx::Events)
            saw_events_ = true;
        if (c == Ctx::Event) {
            event_ = TraceEvent{};
            event_.index = index_;
        }
        if (c == Ctx::Device) {
            device_id_.reset();
            device_name_.clear();
        }
        stack_.push_back(c);
        return true;
    }
    bool close()
    {
        const Ctx c = stack_.back();
        stack_.pop_back();
        if (c == Ctx::Event && event_.complete && traceEventUsed(event_.cat, event_.name))
            doc_.events.push_back(std::move(event_));
        if (c == Ctx::Device && device_id_)
            doc_.devices.emplace_back(*device_id_, device_name_);
        if (!stack_.empty() && stack_.back() == Ctx::Events)
            ++index_;
        return true;
    }

    TraceDocument& doc_;
    int max_depth_;
    std::vector<InputError>& errors_;
    std::vector<Ctx> stack_;
    std::string key_;
    TraceEvent event_;
    std::size_t index_ = 0;
    std::optional<long long> device_id_;
    std::string device_name_;
    bool saw_events_ = false;
};

} // namespace

bool traceEventUsed(const std::string& cat_as_written, const std::string& name)
{
    const std::string cat = lower(cat_as_written);
    return cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "memcpy" || cat == "memset"
        || cat == "cuda_runtime" || cat == "cuda_driver" || cat == "runtime"
        || (cat == "user_annotation" && name.rfind("ProfilerStep#", 0) == 0) || name.rfind("Optimizer.step", 0) == 0;
}

std::optional<TraceDocument> readTraceDocument(const std::string& text, std::vector<InputError>& errors, int max_depth)
{
    TraceDocument doc;
    TraceSax sax(doc, max_depth, errors);
    if (!Json::sax_parse(text, &sax))
        return std::nullopt;
    if (!sax.sawEvents()) {
        errors.push_back({"", kNotATrace});
        return std::nullopt;
    }
    return doc;
}

std::optional<TraceDocument> traceDocumentFromJson(const nlohmann::json& trace, std::vector<InputError>& errors)
{
    const Json* events = nullptr;
    if (trace.is_object() && trace.contains("traceEvents") && trace["traceEvents"].is_array())
        events = &trace["traceEvents"];
    else if (trace.is_array())
        events = &trace;
    if (!events) {
        errors.push_back({"", kNotATrace});
        return std::nullopt;
    }
    TraceDocument doc;
    const auto fill = [](TraceEvent& e, bool in_args, const Json& object) {
        for (const auto& [key, v] : object.items()) {
            if (v.is_number())
                setField(e, in_args, key, v.get<double>(), nullptr);
            else if (v.is_string())
                setField(e, in_args, key, std::nullopt, &v.get_ref<const std::string&>());
        }
    };
    for (std::size_t i = 0; i < events->size(); ++i) {
        const Json& j = (*events)[i];
        if (!j.is_object() || !j.contains("ph") || j["ph"] != "X")
            continue;
        TraceEvent e;
        e.index = i;
        fill(e, false, j);
        if (const auto args = j.find("args"); args != j.end() && args->is_object())
            fill(e, true, *args);
        if (traceEventUsed(e.cat, e.name))
            doc.events.push_back(std::move(e));
    }
    if (trace.is_object()) {
        if (const auto props = trace.find("deviceProperties"); props != trace.end() && props->is_array())
            for (const Json& p : *props)
                if (p.is_object() && p.contains("id") && p["id"].is_number())
                    doc.devices.emplace_back(wholeOf(p["id"].get<double>()).value_or(-1),
                                             p.contains("name") && p["name"].is_string() ? p["name"].get<std::string>()
                                                                                         : "");
        if (const auto dist = trace.find("distributedInfo"); dist != trace.end() && dist->is_object()) {
            for (const char* k : {"rank", "world_size"}) {
                const auto v = dist->find(k);
                if (v != dist->end() && v->is_number_integer() && std::abs(v->get<double>()) < 1e9)
                    (std::string(k) == "rank" ? doc.rank : doc.world_size) = v->get<int>();
            }
        }
    }
    return doc;
}

} // namespace parascope
