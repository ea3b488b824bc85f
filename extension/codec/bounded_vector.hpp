// BoundedVector: a sequence of at most N elements kept inside the object, for fields whose wire
// format bounds their length (a block's 1..8 parents, a tagged-data payload's 0..64-byte tag).
// Decoding fills them without allocating: allocations were a third of the time to decode the
// blocks of a ledger, most of them a tagged-data block's parents and tag.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace permanode::codec
{

template <typename T, std::size_t N> class BoundedVector
{
  public:
    using value_type = T;
    using size_type = std::size_t;
    using iterator = T *;
    using const_iterator = const T *;
    using reference = T &;
    using const_reference = const T &;

    BoundedVector() = default;
    BoundedVector(const BoundedVector &o) : size_(o.size_) { CopyItems(o); }
    BoundedVector &operator=(const BoundedVector &o)
    {
        size_ = o.size_;
        CopyItems(o);
        return *this;
    }
    BoundedVector(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
    template <typename Iterator> BoundedVector(Iterator first, Iterator last)
    {
        assign(first, last);
    }
    // From and to std::vector, for the code that builds or keeps these fields as vectors.
    BoundedVector(const std::vector<T> &items) { assign(items.begin(), items.end()); }
    operator std::vector<T>() const { return std::vector<T>(begin(), end()); }

    template <typename Iterator> void assign(Iterator first, Iterator last)
    {
        resize(static_cast<size_type>(std::distance(first, last)));
        std::copy(first, last, items_.begin());
    }
    // `count` elements from their bytes (T trivially copyable), as a decoder finds them.
    void assign_bytes(const void *bytes, size_type count)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        CheckFits(count);
        // One fixed-size copy an element: a copy of count * sizeof(T) bytes became `rep movs`,
        // whose start cost a tenth of decoding a block.
        const auto *from = static_cast<const unsigned char *>(bytes);
        for (size_type i = 0; i < count; ++i)
            std::memcpy(&items_[i], from + i * sizeof(T), sizeof(T));
        size_ = count;
    }
    // New elements are value-initialized.
    void resize(size_type count)
    {
        CheckFits(count);
        for (size_type i = size_; i < count; ++i)
            items_[i] = T{};
        size_ = count;
    }
    void push_back(const T &item)
    {
        CheckFits(size_ + 1);
        items_[size_++] = item;
    }
    void clear() { size_ = 0; }
    iterator erase(const_iterator first, const_iterator last)
    {
        iterator at = begin() + (first - begin());
        iterator moved_end = std::copy(last, const_iterator(end()), at);
        size_ = static_cast<size_type>(moved_end - begin());
        return at;
    }

    size_type size() const { return size_; }
    bool empty() const { return size_ == 0; }
    static constexpr size_type max_size() { return N; }
    T *data() { return items_.data(); }
    const T *data() const { return items_.data(); }
    iterator begin() { return items_.data(); }
    iterator end() { return items_.data() + size_; }
    const_iterator begin() const { return items_.data(); }
    const_iterator end() const { return items_.data() + size_; }
    T &operator[](size_type i) { return items_[i]; }
    const T &operator[](size_type i) const { return items_[i]; }
    T &front() { return items_[0]; }
    const T &front() const { return items_[0]; }
    T &back() { return items_[size_ - 1]; }
    const T &back() const { return items_[size_ - 1]; }

    bool operator==(const BoundedVector &o) const
    {
        return std::equal(begin(), end(), o.begin(), o.end());
    }
    bool operator!=(const BoundedVector &o) const { return !(*this == o); }
    bool operator<(const BoundedVector &o) const
    {
        return std::lexicographical_compare(begin(), end(), o.begin(), o.end());
    }
    friend bool operator==(const BoundedVector &a, const std::vector<T> &b)
    {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator==(const std::vector<T> &a, const BoundedVector &b) { return b == a; }

  private:
    void CopyItems(const BoundedVector &o)
    {
        // The whole array at a size known when compiling (a few vector moves), where copying
        // size() elements called memmove: a decoded block's payload is moved twice.
        if constexpr (std::is_trivially_copyable_v<T>)
            std::memcpy(&items_, &o.items_, sizeof(items_));
        else
            std::copy(o.begin(), o.end(), items_.begin());
    }
    static void CheckFits(size_type count)
    {
        if (__builtin_expect(count > N, 0))
            FailFits(count);
    }
    [[noreturn]] __attribute__((noinline)) static void FailFits(size_type count)
    {
        throw std::length_error(std::to_string(count) + " elements where at most " +
                                std::to_string(N) + " fit");
    }

    // Left uninitialized past size_: only the first size_ elements are read.
    std::array<T, N> items_;
    size_type size_ = 0;
};

} // namespace permanode::codec
