#include "util/json_reader.h"

#include "util/json_shape.h"
#include "util/quote.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace parascope {

namespace {
std::string formatSize(double bytes)
{
    char buf[32];
    if (bytes >= double(1 << 20))
        std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / double(1 << 20));
    else if (bytes >= 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024);
    else
        std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
    return buf;
}
} // namespace

std::optional<nlohmann::json> parseJsonText(const std::string& text, std::vector<InputError>& errors,
                                            std::size_t max_bytes, int max_depth)
{
    if (text.size() > max_bytes) {
        errors.push_back(
            {"", "the text is " + formatSize(double(text.size())) + "; the limit is " + formatSize(double(max_bytes))});
        return std::nullopt;
    }
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        errors.push_back({"", "the file is empty"});
        return std::nullopt;
    }
    if (!checkJsonShape(text, max_depth, errors))
        return std::nullopt;
    try {
        return nlohmann::json::parse(text); // linear; the shape check has found any syntax error
    } catch (const nlohmann::json::exception& e) {
        errors.push_back({"", "not valid JSON: " + clipped(e.what(), 200)});
    }
    return std::nullopt;
}

std::optional<std::string> readTextFile(const std::string& file, std::vector<InputError>& errors, std::size_t max_bytes)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(file, ec);
    if (ec == std::errc::permission_denied) {
        errors.push_back({"", file + ": cannot be read (permission denied on its folder)"});
        return std::nullopt;
    }
    if (ec || !fs::exists(st)) {
        errors.push_back({"", file + ": no such file"});
        return std::nullopt;
    }
    if (fs::is_directory(st)) {
        errors.push_back({"", file + ": is a directory, not a file"});
        return std::nullopt;
    }
    if (!fs::is_regular_file(st)) {
        // A device, FIFO or socket could block or never end (/dev/zero): refused before reading.
        errors.push_back({"", file + ": is not a regular file"});
        return std::nullopt;
    }
    const auto size = fs::file_size(file, ec);
    if (!ec && size > max_bytes) {
        errors.push_back({"",
                          file + ": " + formatSize(double(size)) + " is over the " + formatSize(double(max_bytes))
                              + " limit for ParaScope files"});
        return std::nullopt;
    }
    errno = 0;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        // errno says why (permission denied, most often).
        errors.push_back(
            {"", file + ": cannot be read" + (errno ? " (" + std::string(std::strerror(errno)) + ")" : std::string())});
        return std::nullopt;
    }
    // Read at most one byte over the limit, whatever the file claimed to be when checked.
    std::string text(std::min<std::uintmax_t>(ec ? max_bytes + 1 : size, max_bytes + 1), '\0');
    in.read(text.data(), std::streamsize(text.size()));
    text.resize(std::size_t(in.gcount()));
    if (in.bad()) {
        errors.push_back({"", file + ": cannot be read"});
        return std::nullopt;
    }
    if (text.size() > max_bytes) {
        errors.push_back({"", file + ": is over the " + formatSize(double(max_bytes)) + " limit for ParaScope files"});
        return std::nullopt;
    }
    return text;
}

std::optional<nlohmann::json> readJsonFile(const std::string& file, std::vector<InputError>& errors,
                                           std::size_t max_bytes)
{
    const std::optional<std::string> text = readTextFile(file, errors, max_bytes);
    if (!text)
        return std::nullopt;
    std::vector<InputError> local;
    auto j = parseJsonText(*text, local, max_bytes);
    for (InputError& e : local)
        errors.push_back({e.path, file + ": " + e.message});
    return j;
}

std::string describeJson(const nlohmann::json& j)
{
    switch (j.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::boolean: return j.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::string: {
        std::string s = j.get<std::string>();
        if (s.size() > 40)
            s = s.substr(0, 40) + "…";
        return "\"" + s + "\"";
    }
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::binary: return "binary data";
    case nlohmann::json::value_t::discarded: return "nothing";
    default: return j.dump();
    }
}

ObjectReader::ObjectReader(const nlohmann::json& j, std::string path, std::vector<InputError>& errors)
    : path_(std::move(path))
    , errors_(errors)
{
    if (j.is_object())
        object_ = &j;
    else
        errors_.push_back({path_, "must be an object, got " + describeJson(j)});
}

std::string ObjectReader::childPath(const char* key) const
{
    return path_.empty() ? std::string(key) : path_ + "." + key;
}

void ObjectReader::error(const char* key, const std::string& message) { errors_.push_back({childPath(key), message}); }

const nlohmann::json* ObjectReader::find(const char* key)
{
    if (!object_)
        return nullptr;
    known_.insert(key);
    const auto it = object_->find(key);
    return it == object_->end() ? nullptr : &*it;
}

const nlohmann::json* ObjectReader::child(const char* key) { return find(key); }

std::optional<std::int64_t> ObjectReader::integer(const char* key, std::int64_t min, std::int64_t max, bool required)
{
    const nlohmann::json* v = find(key);
    if (!v) {
        if (required && object_)
            error(key, "is required");
        return std::nullopt;
    }
    std::optional<std::int64_t> out;
    if (v->is_number_integer() || v->is_number_unsigned()) {
        if (v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t(INT64_MAX))
            out = INT64_MAX;
        else
            out = v->get<std::int64_t>();
    } else if (v->is_number_float()) {
        const double d = v->get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e18)
            out = std::int64_t(d);
    }
    if (!out) {
        error(key, "must be an integer, got " + describeJson(*v));
        return std::nullopt;
    }
    if (*out < min || *out > max) {
        error(key,
              "must be an integer in " + std::to_string(min) + " … " + std::to_string(max) + ", got "
                  + describeJson(*v));
        return std::nullopt;
    }
    return out;
}

std::optional<double> ObjectReader::number(const char* key, double min, double max, bool required)
{
    const nlohmann::json* v = find(key);
    if (!v) {
        if (required && object_)
            error(key, "is required");
        return std::nullopt;
    }
    if (!v->is_number()) {
        error(key, "must be a number, got " + describeJson(*v));
        return std::nullopt;
    }
    const double d = v->get<double>();
    if (!std::isfinite(d) || d < min || d > max) {
        std::ostringstream msg;
        msg << "must be a number in " << min << " … " << max << ", got " << describeJson(*v);
        error(key, msg.str());
        return std::nullopt;
    }
    return d;
}

std::optional<bool> ObjectReader::boolean(const char* key)
{
    const nlohmann::json* v = find(key);
    if (!v)
        return std::nullopt;
    if (!v->is_boolean()) {
        error(key, "must be true or false, got " + describeJson(*v));
        return std::nullopt;
    }
    return v->get<bool>();
}

std::optional<std::string> ObjectReader::string(const char* key, bool required)
{
    const nlohmann::json* v = find(key);
    if (!v) {
        if (required && object_)
            error(key, "is required");
        return std::nullopt;
    }
    if (!v->is_string()) {
        error(key, "must be a string, got " + describeJson(*v));
        return std::nullopt;
    }
    return v->get<std::string>();
}

std::optional<int> ObjectReader::choice(const char* key, std::initializer_list<const char*> choices)
{
    const std::optional<std::string> s = string(key);
    if (!s)
        return std::nullopt;
    int i = 0;
    std::string list;
    for (const char* c : choices) {
        if (*s == c)
            return i;
        list += (i ? ", " : "") + std::string(c);
        ++i;
    }
    error(key, "must be one of " + list + ", got " + quoteInput(*s));
    return std::nullopt;
}

void ObjectReader::finish()
{
    if (!object_)
        return;
    for (const auto& [key, value] : object_->items()) {
        if (!known_.count(key))
            errors_.push_back({childPath(key.c_str()), "unknown key"});
    }
}

} // namespace parascope
