#pragma once
// Reading JSON input with errors that name the JSON path ("parallel.tp: must be an integer ≥ 1,
// got 0"). Unknown keys are errors, not silently ignored. All errors are collected, so the user
// sees every problem of a file at once.

#include "util/enum_names.h"
#include "util/quote.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace parascope {

struct InputError {
    std::string path; // "parallel.tp", "model.moe.experts", "" for the document
    std::string message; // "must be an integer ≥ 1, got 0"
    std::string text() const { return path.empty() ? message : path + ": " + message; }
};

// Parses text into JSON with a size and nesting-depth limit; on failure appends an error.
std::optional<nlohmann::json> parseJsonText(const std::string& text, std::vector<InputError>& errors,
                                            std::size_t max_bytes = 16u << 20, int max_depth = 64);

// Reads a whole file, refusing what is not a regular file (directories, devices, FIFOs), what
// cannot be read (with the reason) and what is over `max_bytes`.
std::optional<std::string> readTextFile(const std::string& file, std::vector<InputError>& errors,
                                        std::size_t max_bytes = 16u << 20);

// Reads a file as readTextFile() does and parses it.
std::optional<nlohmann::json> readJsonFile(const std::string& file, std::vector<InputError>& errors,
                                           std::size_t max_bytes = 16u << 20);

std::string describeJson(const nlohmann::json& j); // "a string", "0", "an object", for messages

class ObjectReader {
public:
    ObjectReader(const nlohmann::json& j, std::string path, std::vector<InputError>& errors);
    bool valid() const { return object_ != nullptr; }

    std::optional<std::int64_t> integer(const char* key, std::int64_t min, std::int64_t max, bool required = false);
    std::optional<double> number(const char* key, double min, double max, bool required = false);
    std::optional<bool> boolean(const char* key);
    std::optional<std::string> string(const char* key, bool required = false);
    // A string that must be one of `choices`; returns its index.
    std::optional<int> choice(const char* key, std::initializer_list<const char*> choices);
    // A string that must name a value of E (its name table, util/enum_names.h).
    template <NamedEnum E> std::optional<E> choice(const char* key)
    {
        const std::optional<std::string> s = string(key);
        if (!s)
            return std::nullopt;
        if (const std::optional<E> e = enumFromName<E>(*s))
            return e;
        error(key, "must be one of " + enumNameList<E>() + ", got " + quoteInput(*s));
        return std::nullopt;
    }
    const nlohmann::json* child(const char* key); // marks the key as known; nullptr if absent
    std::string childPath(const char* key) const;

    void error(const char* key, const std::string& message);
    // Reports every key not read; call after all reads.
    void finish();

private:
    const nlohmann::json* find(const char* key);
    const nlohmann::json* object_ = nullptr;
    std::string path_;
    std::vector<InputError>& errors_;
    std::set<std::string> known_;
};

} // namespace parascope
