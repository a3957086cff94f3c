// Reads a fuzzer's byte string as a stream of small decisions. Every read
// succeeds: past the end it returns the smallest choice, so any byte string
// (including the empty one) decodes to some program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace loom_fuzz {

class FuzzInput {
public:
    FuzzInput(const uint8_t *data, size_t size) : data_(data), size_(size) {}

    uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }

    uint32_t u32() {
        uint32_t v = 0;
        for (int i = 0; i < 4; i++) v = (v << 8) | byte();
        return v;
    }

    /** A value in [lo, hi] (inclusive); one byte when the range fits in one. */
    int range(int lo, int hi) {
        if (hi <= lo) return lo;
        uint64_t span = uint64_t(int64_t(hi) - int64_t(lo)) + 1;
        uint64_t raw = span <= 256 ? byte() : u32();
        return int(int64_t(lo) + int64_t(raw % span));
    }

    /** True with about `percent` percent probability; false once the input
     * is used up. */
    bool chance(int percent) { return range(0, 99) >= 100 - percent; }

    template <typename T> const T &pick(const std::vector<T> &v) {
        return v[size_t(range(0, int(v.size()) - 1))];
    }

    bool exhausted() const { return pos_ >= size_; }

private:
    const uint8_t *data_;
    size_t size_;
    size_t pos_ = 0;
};

/** splitmix64: buffer contents come from a seed the input gives, so that a
 * few bytes describe a whole image. */
class SplitMix {
public:
    explicit SplitMix(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int range(int lo, int hi) {
        return int(int64_t(lo) + int64_t(next() % (uint64_t(int64_t(hi) - lo) + 1)));
    }

private:
    uint64_t state_;
};

} // namespace loom_fuzz
