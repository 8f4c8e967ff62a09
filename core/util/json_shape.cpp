#include "util/json_shape.h"

#include "util/quote.h"

#include <algorithm>
#include <unordered_set>

namespace parascope {

namespace {

using Json = nlohmann::json;

// "line L, column C" of a 1-based byte position (0: the start).
std::string lineColumn(const std::string& text, std::size_t byte)
{
    const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
    const std::size_t line = 1 + std::size_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(end), '\n'));
    const std::size_t last_newline = text.rfind('\n', end == 0 ? 0 : end - 1);
    const std::size_t column = last_newline == std::string::npos || end == 0 ? end + 1 : end - last_newline;
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

class ShapeCheck : public nlohmann::json_sax<Json> {
public:
    ShapeCheck(const std::string& text, int max_depth, std::vector<InputError>& errors)
        : text_(text)
        , max_depth_(max_depth)
        , errors_(errors)
    { }

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override
    {
        Frame& f = frames_.back();
        f.key = k;
        // Small objects: a linear search; past 32 keys, a hash set.
        if (f.key_set.empty() && f.keys.size() < 32) {
            if (std::find(f.keys.begin(), f.keys.end(), k) == f.keys.end()) {
                f.keys.push_back(k);
                return true;
            }
        } else {
            if (f.key_set.empty())
                f.key_set.insert(f.keys.begin(), f.keys.end());
            if (f.key_set.insert(k).second)
                return true;
        }
        errors_.push_back({path(), "is given twice in one object (a reader would keep only the last): give it once"});
        return false;
    }

    bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& e) override
    {
        const std::string what = e.what();
        if (e.id == 406) { // out_of_range: a number beyond double's range
            errors_.push_back({"",
                               "not valid JSON at " + lineColumn(text_, position) + ": the number "
                                   + clipped(last_token, 40) + " is too large"});
            return false;
        }
        const auto pos = what.find("syntax error");
        errors_.push_back({"",
                           "not valid JSON at " + lineColumn(text_, position) + ": "
                               + clipped(pos != std::string::npos ? what.substr(pos) : what, 200)});
        return false;
    }

private:
    struct Frame {
        bool object = false;
        std::string key; // objects: the key being read
        std::size_t index = 0; // arrays: the element being read
        std::vector<std::string> keys; // objects: keys seen (at most 32)
        std::unordered_set<std::string> key_set;
    };

    bool value()
    {
        if (!frames_.empty() && !frames_.back().object)
            ++frames_.back().index;
        return true;
    }
    bool open(bool object)
    {
        if (int(frames_.size()) >= max_depth_) {
            errors_.push_back({path(), "JSON is nested deeper than " + std::to_string(max_depth_) + " levels"});
            return false;
        }
        frames_.push_back({});
        frames_.back().object = object;
        return true;
    }
    bool close()
    {
        frames_.pop_back();
        return value();
    }
    std::string path() const
    {
        std::string p;
        for (const Frame& f : frames_) {
            if (f.object)
                p += (p.empty() ? "" : ".") + clipped(f.key, 60);
            else
                p += "[" + std::to_string(f.index) + "]";
        }
        return p;
    }

    const std::string& text_;
    int max_depth_;
    std::vector<InputError>& errors_;
    std::vector<Frame> frames_;
};

} // namespace

bool checkJsonShape(const std::string& text, int max_depth, std::vector<InputError>& errors)
{
    ShapeCheck check(text, max_depth, errors);
    return Json::sax_parse(text, &check);
}

} // namespace parascope
