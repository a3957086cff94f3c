#ifndef LOOM_RUNTIME_BUFFER_H
#define LOOM_RUNTIME_BUFFER_H

/** \file LoomBuffer.h: loom::Runtime::Buffer<T, Dims>, a header-only image
 * type for programs that call ahead-of-time generated pipelines. It needs
 * only LoomRuntime.h and the C++ standard library (no libloom), and converts
 * implicitly to the loom_buffer_t * that generated functions take:
 *
 *     loom::Runtime::Buffer<uint8_t> in(640, 480), out(640, 480);
 *     int err = brighten(in, 1.5f, out);
 *
 * Copies share the memory (reference counted); copy() makes a deep copy.
 * Memory the Buffer allocates is zero-initialized and 64-byte aligned.
 *
 * GPU pipelines give a Buffer device memory and leave what their kernels
 * write there (device-dirty): call copy_to_host() before reading it. Each
 * Buffer object owns the device memory it has and frees it when it goes; a
 * copy shares only the host memory (copying a device-dirty Buffer copies
 * its data back to the host first). These calls need Loom::Runtime. */

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "LoomRuntime.h"

namespace loom {
namespace Runtime {

/** The dimension count of a Buffer decided at run time. */
constexpr int AnyDims = -1;

namespace Internal {

template <typename T> constexpr loom_type_t type_of() {
    static_assert(std::is_arithmetic<T>::value || std::is_pointer<T>::value,
                  "loom::Runtime::Buffer<T>: T must be an arithmetic or pointer type");
    if (std::is_same<T, bool>::value) return loom_type_t{loom_type_uint, 1, 1};
    if (std::is_pointer<T>::value) return loom_type_t{loom_type_handle, 64, 1};
    if (std::is_floating_point<T>::value)
        return loom_type_t{loom_type_float, uint8_t(8 * sizeof(T)), 1};
    if (std::is_signed<T>::value) return loom_type_t{loom_type_int, uint8_t(8 * sizeof(T)), 1};
    return loom_type_t{loom_type_uint, uint8_t(8 * sizeof(T)), 1};
}

inline size_t bytes_per_element(loom_type_t t) {
    return size_t((t.bits + 7) / 8) * (t.lanes ? t.lanes : 1);
}

} // namespace Internal

/** A view of one dimension of a Buffer. */
class BufferDim {
    const loom_dimension_t *d;

public:
    explicit BufferDim(const loom_dimension_t *dim) : d(dim) {}
    int min() const { return d->min; }
    int extent() const { return d->extent; }
    int stride() const { return d->stride; }
    int max() const { return d->min + d->extent - 1; }
};

/** T = void leaves the element type to run time (pass a loom_type_t to the
 * constructors); Dims = AnyDims leaves the dimension count to run time. */
template <typename T = void, int Dims = AnyDims> class Buffer {
    template <typename, int> friend class Buffer;

    static constexpr bool typed = !std::is_void<T>::value;
    using Elem = typename std::conditional<typed, T, uint8_t>::type;

    loom_buffer_t buf{};
    std::vector<loom_dimension_t> shape;
    std::shared_ptr<void> allocation; // null when wrapping user memory

    void point_at_shape() {
        buf.dimensions = int32_t(shape.size());
        buf.dim = shape.empty() ? nullptr : shape.data();
    }

    static loom_type_t element_type(loom_type_t given) {
        (void)given;
        if constexpr (typed) {
            return Internal::type_of<T>();
        } else {
            return given;
        }
    }

    // Dense shape with zero mins; dimension 0 varies fastest.
    void set_dense_shape(const std::vector<int> &sizes) {
        assert((Dims == AnyDims || int(sizes.size()) == Dims) &&
               "loom::Runtime::Buffer: wrong number of sizes for its dimension count");
        shape.assign(sizes.size(), loom_dimension_t{0, 0, 0, 0});
        int64_t stride = 1;
        for (size_t i = 0; i < sizes.size(); i++) {
            shape[i] = loom_dimension_t{0, sizes[i], int32_t(stride), 0};
            stride *= sizes[i];
        }
        point_at_shape();
    }

    void allocate() {
        size_t bytes = Internal::bytes_per_element(buf.type) * size_t(number_of_elements());
        size_t rounded = (bytes + 63) / 64 * 64;
        if (rounded == 0) rounded = 64;
        void *p = std::aligned_alloc(64, rounded);
        if (!p) throw std::bad_alloc();
        std::memset(p, 0, rounded);
        allocation = std::shared_ptr<void>(p, [](void *q) { std::free(q); });
        buf.host = static_cast<uint8_t *>(p);
    }

    void init(loom_type_t t, const std::vector<int> &sizes, void *data) {
        buf = loom_buffer_t{};
        buf.type = element_type(t);
        set_dense_shape(sizes);
        if (data) {
            buf.host = static_cast<uint8_t *>(data);
        } else {
            allocate();
        }
        buf.flags = loom_buffer_flag_host_dirty;
    }

    template <typename... Ints> static std::vector<int> sizes_of(int first, Ints... rest) {
        static_assert(Dims == AnyDims || int(sizeof...(rest)) + 1 == Dims,
                      "loom::Runtime::Buffer: wrong number of sizes for its dimension count");
        return std::vector<int>{first, int(rest)...};
    }

    int64_t offset_of(const int *pos, int n) const {
        assert(n == buf.dimensions && "loom::Runtime::Buffer: wrong number of coordinates");
        int64_t offset = 0;
        for (int i = 0; i < n; i++)
            offset += int64_t(pos[i] - shape[size_t(i)].min) * shape[size_t(i)].stride;
        return offset;
    }

    template <typename F> void for_each_offset(int d, int64_t offset, F &&f) const {
        if (d < 0) {
            f(offset);
            return;
        }
        const loom_dimension_t &dim = shape[size_t(d)];
        for (int i = 0; i < dim.extent; i++)
            for_each_offset(d - 1, offset + int64_t(i) * dim.stride, f);
    }

public:
    /** An empty buffer (no memory, no dimensions). */
    Buffer() { point_at_shape(); }

    /** Allocate a dense buffer of the given sizes (mins at zero). */
    template <typename... Ints, typename U = T,
              typename = typename std::enable_if<!std::is_void<U>::value>::type>
    explicit Buffer(int first_size, Ints... other_sizes) {
        init(loom_type_t{}, sizes_of(first_size, other_sizes...), nullptr);
    }
    explicit Buffer(const std::vector<int> &sizes) {
        static_assert(typed, "Buffer<void> needs an element type: Buffer(type, sizes)");
        init(loom_type_t{}, sizes, nullptr);
    }
    /** Buffer<void>: allocate with an element type chosen at run time. */
    Buffer(loom_type_t type, const std::vector<int> &sizes) { init(type, sizes, nullptr); }

    /** Wrap existing dense memory (not owned; it must outlive the Buffer). */
    template <typename... Ints, typename U = T,
              typename = typename std::enable_if<!std::is_void<U>::value>::type>
    Buffer(Elem *data, int first_size, Ints... other_sizes) {
        init(loom_type_t{}, sizes_of(first_size, other_sizes...), data);
    }
    Buffer(Elem *data, const std::vector<int> &sizes) {
        static_assert(typed, "Buffer<void> needs an element type: Buffer(type, data, sizes)");
        init(loom_type_t{}, sizes, data);
    }
    Buffer(loom_type_t type, void *data, const std::vector<int> &sizes) { init(type, sizes, data); }
    /** Wrap existing memory with an explicit shape (min, extent, stride per dimension). */
    Buffer(Elem *data, int dimensions, const loom_dimension_t *dims) {
        assert((Dims == AnyDims || dimensions == Dims) &&
               "loom::Runtime::Buffer: wrong dimension count");
        buf.type = element_type(loom_type_t{});
        buf.host = reinterpret_cast<uint8_t *>(data);
        buf.flags = loom_buffer_flag_host_dirty;
        shape.assign(dims, dims + dimensions);
        point_at_shape();
    }

    /** Allocate width x height x channels with the channels of a pixel
     * adjacent in memory (stride 1 in dimension 2), as image files store them. */
    static Buffer make_interleaved(int width, int height, int channels) {
        Buffer b(width, height, channels);
        b.shape[0].stride = channels;
        b.shape[1].stride = width * channels;
        b.shape[2].stride = 1;
        return b;
    }
    /** Wrap interleaved memory (see make_interleaved). */
    static Buffer make_interleaved(Elem *data, int width, int height, int channels) {
        loom_dimension_t dims[3] = {
            {0, width, channels, 0}, {0, height, width * channels, 0}, {0, channels, 1, 0}};
        return Buffer(data, 3, dims);
    }

private:
    // A copy shares the host memory, which must be current first; the device
    // memory stays with `other`.
    void copy_from(const Buffer &other) {
        if (other.device_dirty())
            loom_copy_to_host(nullptr, const_cast<loom_buffer_t *>(&other.buf));
        buf = other.buf;
        buf.device = 0;
        buf.device_interface = nullptr;
        buf.flags &= ~uint64_t(loom_buffer_flag_device_dirty);
        shape = other.shape;
        allocation = other.allocation;
        point_at_shape();
    }

public:
    Buffer(const Buffer &other) { copy_from(other); }
    Buffer(Buffer &&other) noexcept
        : buf(other.buf), shape(std::move(other.shape)), allocation(std::move(other.allocation)) {
        point_at_shape();
        other.buf = loom_buffer_t{};
        other.shape.clear();
        other.point_at_shape();
    }
    Buffer &operator=(const Buffer &other) {
        if (this != &other) {
            device_free();
            copy_from(other);
        }
        return *this;
    }
    Buffer &operator=(Buffer &&other) noexcept {
        if (this != &other) {
            device_free();
            buf = other.buf;
            shape = std::move(other.shape);
            allocation = std::move(other.allocation);
            point_at_shape();
            other.buf = loom_buffer_t{};
            other.shape.clear();
            other.point_at_shape();
        }
        return *this;
    }

    bool defined() const { return buf.host != nullptr; }
    int dimensions() const { return buf.dimensions; }
    loom_type_t type() const { return buf.type; }
    BufferDim dim(int i) const {
        assert(i >= 0 && i < buf.dimensions && "loom::Runtime::Buffer::dim: no such dimension");
        return BufferDim(&shape[size_t(i)]);
    }
    /** Extent of dimension 0, 1 and 2 (1 when the buffer has fewer dimensions). */
    int width() const { return buf.dimensions > 0 ? shape[0].extent : 1; }
    int height() const { return buf.dimensions > 1 ? shape[1].extent : 1; }
    int channels() const { return buf.dimensions > 2 ? shape[2].extent : 1; }
    int64_t number_of_elements() const {
        int64_t n = 1;
        for (const auto &d : shape) n *= d.extent;
        return n;
    }

    /** Move the coordinate origin: the element at the old mins is now at these
     * mins. Memory is unchanged. */
    void set_min(const std::vector<int> &mins) {
        assert(mins.size() <= shape.size() && "loom::Runtime::Buffer::set_min: too many mins");
        for (size_t i = 0; i < mins.size(); i++) shape[i].min = mins[i];
    }
    template <typename... Ints> void set_min(int first, Ints... rest) {
        set_min(std::vector<int>{first, int(rest)...});
    }

    /** The element at the mins of all dimensions. */
    Elem *data() const { return reinterpret_cast<Elem *>(buf.host); }

    /** The element at coordinates (x, y, ...) (typed buffers only). */
    template <typename... Ints> Elem &operator()(int first, Ints... rest) const {
        static_assert(typed, "element access needs a typed Buffer<T>");
        const int pos[] = {first, int(rest)...};
        return data()[offset_of(pos, int(sizeof...(rest)) + 1)];
    }
    Elem &operator()(const std::vector<int> &pos) const {
        static_assert(typed, "element access needs a typed Buffer<T>");
        return data()[offset_of(pos.data(), int(pos.size()))];
    }

    /** Set every element to v. */
    void fill(Elem v) {
        static_assert(typed, "fill needs a typed Buffer<T>");
        for_each_value([v](Elem &e) { e = v; });
    }
    /** Call f(element) for every element. */
    template <typename F> void for_each_value(F &&f) const {
        static_assert(typed, "for_each_value needs a typed Buffer<T>");
        if (!defined()) return;
        Elem *base = data();
        for_each_offset(buf.dimensions - 1, 0, [&](int64_t offset) { f(base[offset]); });
    }

    /** A dense deep copy with the same mins (dimension 0 varies fastest) of
     * the current data (a device-dirty Buffer is copied back first). */
    Buffer copy() const {
        if (device_dirty()) loom_copy_to_host(nullptr, const_cast<loom_buffer_t *>(&buf));
        std::vector<int> sizes;
        for (const auto &d : shape) sizes.push_back(d.extent);
        Buffer result(buf.type, sizes);
        std::vector<int> mins;
        for (const auto &d : shape) mins.push_back(d.min);
        result.set_min(mins);
        size_t bytes = Internal::bytes_per_element(buf.type);
        int64_t next = 0;
        for_each_offset(buf.dimensions - 1, 0, [&](int64_t offset) {
            std::memcpy(result.buf.host + next * int64_t(bytes), buf.host + offset * int64_t(bytes),
                        bytes);
            next++;
        });
        return result;
    }

    /** Mark host changes (dirty) or not. A device-dirty Buffer is copied
     * back first, so that neither side's changes are lost. */
    void set_host_dirty(bool dirty = true) {
        if (dirty && device_dirty()) copy_to_host();
        buf.flags = dirty ? (buf.flags | loom_buffer_flag_host_dirty)
                          : (buf.flags & ~uint64_t(loom_buffer_flag_host_dirty));
    }

    // ---- Device memory (from GPU pipelines). Each call returns 0 or a
    // negative loom_error_code_t after reporting a message.

    bool has_device_allocation() const { return buf.device != 0; }
    /** Did a kernel write the device memory since the host copy was current? */
    bool device_dirty() const { return (buf.flags & loom_buffer_flag_device_dirty) != 0; }
    bool host_dirty() const { return (buf.flags & loom_buffer_flag_host_dirty) != 0; }
    /** Copy the device memory back when device-dirty. */
    int copy_to_host() { return loom_copy_to_host(nullptr, &buf); }
    /** Wait for the device work queued on this Buffer. */
    int device_sync() { return loom_device_sync(nullptr, &buf); }
    /** Free the device memory (its data is lost unless copied back first);
     * the destructor does this. */
    int device_free() { return buf.device ? loom_device_free(nullptr, &buf) : 0; }

    ~Buffer() { device_free(); }

    /** The C view that generated functions take. */
    loom_buffer_t *raw_buffer() { return &buf; }
    const loom_buffer_t *raw_buffer() const { return &buf; }
    /** Pass the Buffer straight to a generated function. A const Buffer
     * converts too (as an input; generated code does not write inputs). */
    operator loom_buffer_t *() const { return const_cast<loom_buffer_t *>(&buf); }
};

} // namespace Runtime
} // namespace loom

#endif
