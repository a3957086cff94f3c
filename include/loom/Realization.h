#ifndef LOOM_REALIZATION_H
#define LOOM_REALIZATION_H

/** \file Realization: the output buffers of one run of a pipeline. */

#include <initializer_list>
#include <vector>

#include "loom/Buffer.h"
#include "loom/Error.h"

namespace loom {

/** One Buffer per output (per tuple element of each output Func). Converts
 * to a Buffer when it holds exactly one. */
class Realization {
    std::vector<Buffer<>> buffers_;

public:
    Realization() = default;
    Realization(std::vector<Buffer<>> buffers) : buffers_(std::move(buffers)) {}
    Realization(std::initializer_list<Buffer<>> buffers) : buffers_(buffers) {}
    template <typename T, int D> Realization(const Buffer<T, D> &b) : buffers_{Buffer<>(b)} {}

    size_t size() const { return buffers_.size(); }
    Buffer<> &operator[](size_t i) { return buffers_.at(i); }
    const Buffer<> &operator[](size_t i) const { return buffers_.at(i); }
    const std::vector<Buffer<>> &buffers() const { return buffers_; }

    template <typename T, int D> operator Buffer<T, D>() const {
        if (buffers_.size() != 1)
            throw CompileError("A Realization of " + std::to_string(buffers_.size()) +
                               " buffers cannot convert to a single Buffer; index it instead");
        return Buffer<T, D>(buffers_[0]);
    }
};

} // namespace loom

#endif
