#pragma once
// One name table per enum, the only place an enum value meets its spelling: files, CLI flags,
// reports and the app's combo boxes all go through it. An enum opts in by declaring, next to it,
//   inline constexpr EnumName<Color> kColorNames[] = {{Color::Red, "red"}, …};
//   constexpr std::span<const EnumName<Color>> enumNames(Color) { return kColorNames; }
//   inline const char* toString(Color c) { return nameOf(c); }
// and then has toString(), enumFromName<Color>() and enumNameList<Color>(). (toString() is a plain
// function per enum, not a template, so that QTest's toString() template never competes with it.)

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace parascope {

template <class E> struct EnumName {
    E value;
    const char* name;
};

template <class E>
concept NamedEnum = requires(E e)
{
    {
        enumNames(e)
        } -> std::convertible_to<std::span<const EnumName<E>>>;
};

template <NamedEnum E> const char* nameOf(E e)
{
    for (const EnumName<E>& n : enumNames(E{}))
        if (n.value == e)
            return n.name;
    return "?";
}

template <NamedEnum E> std::optional<E> enumFromName(std::string_view name)
{
    for (const EnumName<E>& n : enumNames(E{}))
        if (name == n.name)
            return n.value;
    return std::nullopt;
}

// "gpipe, 1f1b, interleaved", for messages.
template <NamedEnum E> std::string enumNameList()
{
    std::string out;
    for (const EnumName<E>& n : enumNames(E{}))
        out += (out.empty() ? "" : ", ") + std::string(n.name);
    return out;
}

} // namespace parascope
