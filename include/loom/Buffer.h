#ifndef LOOM_BUFFER_H
#define LOOM_BUFFER_H

/** \file Buffer<T, Dims>: host memory with a min, extent and stride per
 * dimension, and optionally a copy of it on a GPU.
 *
 * Device memory follows Halide's dirty flags: after a kernel writes a buffer
 * on the device it is device-dirty, after the host writes it host-dirty, and
 * copy_to_host()/copy_to_device() copy only what is dirty. Unlike Halide,
 * reading a device-dirty Buffer on the host never returns stale data: every
 * host accessor (operator() with integer coordinates, data(), for_each_value,
 * fill, copy, copy_to_host) first copies the device's data back, at the cost
 * of one flag test when there is nothing to copy. raw_buffer() does not: it is
 * how pipelines see the buffer on either side.
 * As in Halide, element access through a non-const Buffer (`b(x, y) = v`),
 * fill() and for_each_value() mark the buffer host-dirty, so that the next
 * copy_to_device() (or pipeline run on the GPU) uploads the change; access
 * through a const Buffer does not. Writes through data(), or through a const
 * Buffer's element references, need an explicit set_host_dirty(). */

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "LoomRuntime.h"
#include "loom/DeviceAPI.h"
#include "loom/Expr.h"
#include "loom/IntrusivePtr.h"
#include "loom/Type.h"

namespace loom {

template <typename T, int Dims> class Buffer;
struct Target;

namespace Internal {

/** A read of `image` at the coordinates `args` (a Call::Image Expr); checks
 * the argument count and types, naming the buffer. */
Expr buffer_call(const Buffer<void, -1> &image, const std::vector<Expr> &args);

/** Shared state of a Buffer: the C view plus ownership of the memory. */
struct BufferContents : RefCounted {
    loom_buffer_t raw{};
    std::vector<loom_dimension_t> dims;
    std::shared_ptr<uint8_t> allocation; // null when wrapping user memory
    std::string name;
    /** Frees the device memory (a wrapped native handle is only forgotten). */
    ~BufferContents() override;
};

/** The device operations of Buffer, calling the runtime (LoomRuntime.h);
 * each throws RuntimeError with the runtime's message on failure. */
void buffer_copy_to_device(BufferContents &c, DeviceAPI api);
void buffer_copy_to_device(BufferContents &c, const Target &target);
void buffer_copy_to_host(BufferContents &c);
void buffer_device_malloc(BufferContents &c, DeviceAPI api);
void buffer_device_free(BufferContents &c);
void buffer_device_sync(BufferContents &c);
void buffer_device_wrap_native(BufferContents &c, DeviceAPI api, uint64_t handle);
void buffer_device_detach_native(BufferContents &c);
void buffer_set_device_dirty(BufferContents &c, bool dirty);

std::string unique_buffer_name();

/** Buffer constructor arguments: ints, then optionally a name. */
template <typename... Args> struct IntsThenOptionalName : std::true_type {};
template <typename Last>
struct IntsThenOptionalName<Last>
    : std::bool_constant<std::is_integral_v<Last> ||
                         (std::is_convertible_v<const Last &, std::string> &&
                          !std::is_same_v<Last, std::nullptr_t>)> {};
template <typename First, typename Second, typename... Rest>
struct IntsThenOptionalName<First, Second, Rest...>
    : std::bool_constant<std::is_integral_v<First> &&
                         IntsThenOptionalName<Second, Rest...>::value> {};

inline void collect_sizes_and_name(std::vector<int> &, std::string &) {}
template <typename First, typename... Rest>
void collect_sizes_and_name(std::vector<int> &sizes, std::string &name, const First &first,
                            const Rest &...rest) {
    if constexpr (std::is_integral_v<First>) {
        sizes.push_back(int(first));
    } else {
        name = first;
    }
    collect_sizes_and_name(sizes, name, rest...);
}

/** The extents of a C array type, innermost (last index) first. */
template <typename A> void array_sizes(std::vector<int> &sizes) {
    if constexpr (std::rank_v < A >> 0) {
        array_sizes<std::remove_extent_t<A>>(sizes);
        sizes.push_back(int(std::extent_v<A>));
    }
}
[[noreturn]] void buffer_error(const std::string &message);

inline Type type_from_raw(loom_type_t t) {
    return Type(Type::Code(t.code), t.bits, t.lanes);
}
inline loom_type_t raw_from_type(Type t) {
    return loom_type_t{uint8_t(t.code), uint8_t(t.bits), uint16_t(t.lanes)};
}

} // namespace Internal

/** A dimension view of a Buffer. */
struct BufferDimension {
    const loom_dimension_t *d;
    int min() const { return d->min; }
    int extent() const { return d->extent; }
    int stride() const { return d->stride; }
    int max() const { return d->min + d->extent - 1; }
};

/** Host memory with a type, a name, and min/extent/stride per dimension.
 * T = void (or Dims = -1) leaves the element type (or dimension count) to
 * run time. Copies share the memory; use copy() for a deep copy. Memory
 * allocated by Buffer is zero-initialized. */
template <typename T = void, int Dims = -1> class Buffer {
    template <typename, int> friend class Buffer;
    Internal::IntrusivePtr<Internal::BufferContents> contents;

    static constexpr bool typed = !std::is_void_v<T>;
    using ElemRef = std::conditional_t<typed, T, uint8_t>;

    void check_dims(int d) const {
        if (Dims >= 0 && d != Dims)
            Internal::buffer_error("Buffer of " + std::to_string(Dims) +
                                   " dimensions constructed with " + std::to_string(d) +
                                   " dimensions");
    }

    // Copies the device's data back when the host's is stale (a flag test otherwise).
    void sync_host() const {
        if (contents.defined() && (contents->raw.flags & loom_buffer_flag_device_dirty))
            Internal::buffer_copy_to_host(*contents);
    }

    void init(Type t, const std::vector<int> &sizes, uint8_t *data) {
        check_dims(int(sizes.size()));
        contents = new Internal::BufferContents;
        auto &c = *contents;
        c.name = Internal::unique_buffer_name();
        c.dims.resize(sizes.size());
        int64_t stride = 1;
        for (size_t i = 0; i < sizes.size(); i++) {
            if (sizes[i] < 0)
                Internal::buffer_error("Buffer extent " + std::to_string(sizes[i]) +
                                       " in dimension " + std::to_string(i) + " is negative");
            c.dims[i] = loom_dimension_t{0, sizes[i], int32_t(stride), 0};
            stride *= sizes[i] > 0 ? sizes[i] : 1;
            if (stride > INT32_MAX)
                Internal::buffer_error("Buffer of more than 2^31 elements per dimension stride");
        }
        if (!data) {
            size_t bytes = size_t(stride) * size_t(t.bytes()) * t.lanes;
            // Over-allocate so that vector loads near the end stay in bounds.
            uint8_t *mem =
                static_cast<uint8_t *>(::operator new[](bytes + 64, std::align_val_t(64)));
            std::memset(mem, 0, bytes + 64);
            c.allocation = std::shared_ptr<uint8_t>(
                mem, [](uint8_t *p) { ::operator delete[](p, std::align_val_t(64)); });
            data = mem;
        }
        c.raw.host = data;
        c.raw.type = Internal::raw_from_type(t);
        c.raw.dimensions = int32_t(c.dims.size());
        c.raw.dim = c.dims.data();
    }

public:
    using ElemType = T;

    Buffer() = default;

    /** Allocate a dense buffer of the given sizes (first dimension innermost). */
    explicit Buffer(const std::vector<int> &sizes, const std::string &name = "") {
        static_assert(typed, "Buffer<void> needs a Type: Buffer<>(Int(32), sizes)");
        init(type_of<T>(), sizes, nullptr);
        if (!name.empty()) set_name(name);
    }

    /** Allocate a buffer of a run-time type. */
    Buffer(Type t, const std::vector<int> &sizes, const std::string &name = "") {
        if constexpr (typed) {
            if (t != type_of<T>())
                Internal::buffer_error("Buffer type mismatch: constructed " +
                                       type_to_string(type_of<T>()) + " buffer with type " +
                                       type_to_string(t));
        }
        init(t, sizes, nullptr);
        if (!name.empty()) set_name(name);
    }

    /** Wrap memory the caller owns (dense, first dimension innermost). */
    Buffer(T *data, const std::vector<int> &sizes, const std::string &name = "") {
        static_assert(typed, "wrap untyped memory with Buffer<>(Type, data, sizes)");
        init(type_of<T>(), sizes, reinterpret_cast<uint8_t *>(data));
        if (!name.empty()) set_name(name);
    }
    /** Wrap memory the caller owns with explicit dimensions. */
    Buffer(Type t, void *data, const std::vector<loom_dimension_t> &shape,
           const std::string &name = "") {
        init(t, std::vector<int>(shape.size(), 0), static_cast<uint8_t *>(data));
        contents->dims = shape;
        contents->raw.dim = contents->dims.data();
        if (!name.empty()) set_name(name);
    }

    /** Wrap a loom_buffer_t (the memory is not owned). */
    explicit Buffer(const loom_buffer_t &b, const std::string &name = "") {
        std::vector<loom_dimension_t> shape(b.dim, b.dim + b.dimensions);
        *this = Buffer(Internal::type_from_raw(b.type), b.host, shape, name);
        if constexpr (typed) {
            if (type() != type_of<T>())
                Internal::buffer_error("Buffer type mismatch wrapping loom_buffer_t");
        }
    }

    // ---- Constructors in Halide's other forms: sizes as ints with an
    // optional trailing name, wrapped memory, explicit shapes, C arrays.

    /** Allocate: Buffer<float>(640, 480) or Buffer<float>(640, 480, "name"). */
    template <typename... Args,
              typename = std::enable_if_t<Internal::IntsThenOptionalName<Args...>::value>>
    explicit Buffer(int first, const Args &...rest) {
        static_assert(typed, "Buffer<void> needs a Type: Buffer<>(Int(32), 640, 480)");
        std::vector<int> sizes{first};
        std::string name;
        Internal::collect_sizes_and_name(sizes, name, rest...);
        init(type_of<T>(), sizes, nullptr);
        if (!name.empty()) set_name(name);
    }
    /** Allocate a buffer of a run-time type: Buffer<>(UInt(8), 640, 480, "name"). */
    template <typename... Args,
              typename = std::enable_if_t<Internal::IntsThenOptionalName<Args...>::value>>
    Buffer(Type t, int first, const Args &...rest) {
        std::vector<int> sizes{first};
        std::string name;
        Internal::collect_sizes_and_name(sizes, name, rest...);
        *this = Buffer(t, sizes, name);
    }
    /** Wrap dense memory the caller owns: Buffer<float>(data, 640, 480). */
    template <typename... Args,
              typename = std::enable_if_t<Internal::IntsThenOptionalName<Args...>::value>>
    Buffer(T *data, int first, const Args &...rest) {
        std::vector<int> sizes{first};
        std::string name;
        Internal::collect_sizes_and_name(sizes, name, rest...);
        *this = Buffer(data, sizes, name);
    }
    /** Wrap dense memory of a run-time type. */
    template <typename... Args,
              typename = std::enable_if_t<Internal::IntsThenOptionalName<Args...>::value>>
    Buffer(Type t, void *data, int first, const Args &...rest) {
        std::vector<int> sizes{first};
        std::string name;
        Internal::collect_sizes_and_name(sizes, name, rest...);
        *this = Buffer(t, data, sizes, name);
    }
    Buffer(Type t, void *data, const std::vector<int> &sizes, const std::string &name = "") {
        if constexpr (typed) {
            if (t != type_of<T>())
                Internal::buffer_error("Buffer type mismatch: wrapped " +
                                       type_to_string(type_of<T>()) + " buffer with type " +
                                       type_to_string(t));
        }
        init(t, sizes, static_cast<uint8_t *>(data));
        if (!name.empty()) set_name(name);
    }
    /** Wrap memory the caller owns, with d dimensions given as {min, extent,
     * stride} (Halide's halide_dimension_t, here loom_dimension_t). */
    Buffer(T *data, int d, const loom_dimension_t *shape, const std::string &name = "")
        : Buffer(type_of<std::conditional_t<typed, T, uint8_t>>(), data, d, shape, name) {
        static_assert(typed, "wrap untyped memory with Buffer<>(Type, data, d, shape)");
    }
    Buffer(Type t, void *data, int d, const loom_dimension_t *shape, const std::string &name = "") {
        if (d < 0 || (d > 0 && !shape))
            Internal::buffer_error("Buffer wrapping " + std::to_string(d) +
                                   " dimensions needs that many loom_dimension_t");
        *this = Buffer(t, data, std::vector<loom_dimension_t>(shape, shape + d), name);
    }
    /** Wrap a C array; the last index is dimension 0: `int a[3][4]` is a
     * 4 x 3 buffer. The memory is not owned. */
    template <typename Array, size_t N,
              typename = std::enable_if_t<std::is_arithmetic_v<std::remove_all_extents_t<Array>>>>
    explicit Buffer(Array (&vals)[N], const std::string &name = "") {
        using Elem = std::remove_all_extents_t<Array>;
        std::vector<int> sizes;
        Internal::array_sizes<Array[N]>(sizes);
        *this = Buffer(type_of<Elem>(), const_cast<void *>(static_cast<const void *>(&vals[0])),
                       sizes, name);
    }

    /** Interleaved layout: the last dimension (channels) is innermost in memory. */
    static Buffer make_interleaved(int width, int height, int channels) {
        Buffer b(std::vector<int>{width, height, channels});
        auto &d = b.contents->dims;
        d[2].stride = 1;
        d[0].stride = channels;
        d[1].stride = channels * width;
        return b;
    }

    /** Conversion between typed and untyped views; checked at run time. */
    template <typename T2, int D2> Buffer(const Buffer<T2, D2> &o) : contents(o.contents) {
        if (!contents.defined()) return;
        if constexpr (typed && !std::is_same_v<T, T2>) {
            if (type() != type_of<T>())
                Internal::buffer_error("Cannot view Buffer \"" + name() + "\" of type " +
                                       type_to_string(type()) + " as " +
                                       type_to_string(type_of<T>()));
        }
        check_dims(dimensions());
    }

    bool defined() const { return contents.defined(); }
    const std::string &name() const { return contents->name; }
    Buffer &set_name(const std::string &n) {
        contents->name = n;
        return *this;
    }

    Type type() const { return Internal::type_from_raw(contents->raw.type); }
    int dimensions() const { return contents->raw.dimensions; }
    BufferDimension dim(int i) const { return BufferDimension{&contents->dims.at(size_t(i))}; }
    int min(int i) const { return dim(i).min(); }
    int extent(int i) const { return dim(i).extent(); }
    int stride(int i) const { return dim(i).stride(); }
    int width() const { return dimensions() > 0 ? extent(0) : 1; }
    int height() const { return dimensions() > 1 ? extent(1) : 1; }
    int channels() const { return dimensions() > 2 ? extent(2) : 1; }
    int left() const { return min(0); }
    int right() const { return dim(0).max(); }
    int top() const { return min(1); }
    int bottom() const { return dim(1).max(); }
    size_t number_of_elements() const {
        size_t n = 1;
        for (auto &d : contents->dims) n *= size_t(d.extent);
        return n;
    }

    /** Set the coordinate of the first element in each dimension. */
    Buffer &set_min(const std::vector<int> &mins) {
        if (int(mins.size()) > dimensions())
            Internal::buffer_error("set_min given " + std::to_string(mins.size()) +
                                   " mins for Buffer \"" + name() + "\" of " +
                                   std::to_string(dimensions()) + " dimensions");
        for (size_t i = 0; i < mins.size(); i++) contents->dims[i].min = mins[i];
        return *this;
    }
    template <typename... Args> Buffer &set_min(int first, Args... rest) {
        return set_min(std::vector<int>{first, int(rest)...});
    }
    Buffer &translate(const std::vector<int> &delta) {
        for (size_t i = 0; i < delta.size() && i < contents->dims.size(); i++)
            contents->dims[i].min += delta[i];
        return *this;
    }

    /** The host memory, copied back from the device first when device-dirty. */
    ElemRef *data() const {
        sync_host();
        return reinterpret_cast<ElemRef *>(contents->raw.host);
    }
    /** The C view pipelines take; no copies (see the file comment). */
    loom_buffer_t *raw_buffer() const { return &contents->raw; }

    /** Offset in elements of a coordinate from the host pointer. */
    template <typename... Args> ptrdiff_t offset_of(Args... coords) const {
        const int c[] = {int(coords)...};
        ptrdiff_t off = 0;
        const loom_dimension_t *d = contents->raw.dim;
        for (size_t i = 0; i < sizeof...(Args); i++)
            off += ptrdiff_t(c[i] - d[i].min) * d[i].stride;
        return off;
    }
    ptrdiff_t offset_of(const std::vector<int> &c) const {
        ptrdiff_t off = 0;
        for (size_t i = 0; i < c.size(); i++)
            off += ptrdiff_t(c[i] - contents->dims[i].min) * contents->dims[i].stride;
        return off;
    }

    /** Element access (no bounds checks; see contains()). */
    template <typename... Args, typename = std::enable_if_t<(std::is_integral_v<Args> && ...)>>
    ElemRef &operator()(Args... coords) const {
        static_assert(typed, "element access needs a typed Buffer<T>");
        return data()[offset_of(coords...)];
    }
    ElemRef &operator()(const std::vector<int> &coords) const {
        static_assert(typed, "element access needs a typed Buffer<T>");
        return data()[offset_of(coords)];
    }
    /** Element access through a non-const Buffer may write: it marks the
     * buffer host-dirty (after copying device-dirty data back), as Halide's does. */
    template <typename... Args, typename = std::enable_if_t<(std::is_integral_v<Args> && ...)>>
    ElemRef &operator()(Args... coords) {
        static_assert(typed, "element access needs a typed Buffer<T>");
        ElemRef *p = data();
        contents->raw.flags |= loom_buffer_flag_host_dirty;
        return p[offset_of(coords...)];
    }
    ElemRef &operator()(const std::vector<int> &coords) {
        static_assert(typed, "element access needs a typed Buffer<T>");
        ElemRef *p = data();
        contents->raw.flags |= loom_buffer_flag_host_dirty;
        return p[offset_of(coords)];
    }

    /** A read of this buffer in an algorithm: `input(x, y + 1)`. */
    template <typename... Args,
              typename = std::enable_if_t<!(std::is_integral_v<Args> && ...) &&
                                          (std::is_convertible_v<Args, Expr> && ...)>>
    Expr operator()(const Args &...coords) const {
        return Internal::buffer_call(*this, std::vector<Expr>{Expr(coords)...});
    }

    bool contains(const std::vector<int> &c) const {
        if (int(c.size()) != dimensions()) return false;
        for (size_t i = 0; i < c.size(); i++)
            if (c[i] < contents->dims[i].min ||
                c[i] >= contents->dims[i].min + contents->dims[i].extent)
                return false;
        return true;
    }

    /** Call f(coords) for every coordinate, first dimension innermost. */
    template <typename F> void for_each_element(F &&f) const {
        int n = dimensions();
        std::vector<int> pos(static_cast<size_t>(n));
        for (int i = 0; i < n; i++) {
            pos[size_t(i)] = min(i);
            if (extent(i) <= 0) return;
        }
        while (true) {
            f(pos);
            int i = 0;
            for (; i < n; i++) {
                if (++pos[size_t(i)] <= dim(i).max()) break;
                pos[size_t(i)] = min(i);
            }
            if (i == n) return;
        }
    }
    /** Call f(value&) for every element; marks the buffer host-dirty, since f may write. */
    template <typename F> void for_each_value(F &&f) const {
        static_assert(typed, "for_each_value needs a typed Buffer<T>");
        sync_host();
        for_each_element([&](const std::vector<int> &p) { f((*this)(p)); });
        contents->raw.flags |= loom_buffer_flag_host_dirty;
    }
    /** Set every element (marks the buffer host-dirty). */
    void fill(ElemRef v) const {
        static_assert(typed, "fill needs a typed Buffer<T>");
        for_each_value([&](ElemRef &e) { e = v; });
    }

    /** A deep, dense copy of the host memory with the same mins (copied back
     * from the device first when device-dirty); the copy has no device memory. */
    Buffer copy() const {
        sync_host();
        std::vector<int> sizes;
        for (int i = 0; i < dimensions(); i++) sizes.push_back(extent(i));
        Buffer<T, Dims> out(type(), sizes);
        std::vector<int> mins;
        for (int i = 0; i < dimensions(); i++) mins.push_back(min(i));
        out.set_min(mins);
        int bytes = type().bytes() * type().lanes;
        for_each_element([&](const std::vector<int> &p) {
            std::memcpy(reinterpret_cast<uint8_t *>(out.contents->raw.host) +
                            out.offset_of(p) * bytes,
                        contents->raw.host + offset_of(p) * bytes, size_t(bytes));
        });
        return out;
    }

    /** Device memory (GPU). Each call throws RuntimeError with the runtime's
     * message when it fails, and returns 0 otherwise (Halide's signatures).
     * DeviceAPI::Default_GPU is OpenCL. A Buffer given device memory here
     * frees it when its last copy goes; a wrapped native handle stays the
     * caller's. */

    /** Allocate device memory when there is none, and copy the host memory
     * there when it is host-dirty or the device memory is new. */
    int copy_to_device(DeviceAPI api = DeviceAPI::Default_GPU) const {
        Internal::buffer_copy_to_device(*contents, api);
        return 0;
    }
    /** As above, on the GPU API of a target ("host-opencl"). */
    int copy_to_device(const Target &target) const {
        Internal::buffer_copy_to_device(*contents, target);
        return 0;
    }
    /** Copy the device memory to the host when it is device-dirty. */
    int copy_to_host() const {
        sync_host();
        return 0;
    }
    /** Allocate device memory (its contents are undefined until copied or written). */
    int device_malloc(DeviceAPI api = DeviceAPI::Default_GPU) const {
        Internal::buffer_device_malloc(*contents, api);
        return 0;
    }
    /** Free the device memory, copying it to the host first when it is
     * device-dirty (Halide drops it; Loom keeps the data). */
    int device_free() const {
        Internal::buffer_device_free(*contents);
        return 0;
    }
    /** Wait for the device work queued so far. */
    int device_sync() const {
        Internal::buffer_device_sync(*contents);
        return 0;
    }
    /** Use a native handle (an OpenCL cl_mem) the caller keeps owning as the
     * device memory; device_detach_native() or the Buffer's end forgets it. */
    int device_wrap_native(DeviceAPI api, uint64_t handle) const {
        Internal::buffer_device_wrap_native(*contents, api, handle);
        return 0;
    }
    int device_detach_native() const {
        Internal::buffer_device_detach_native(*contents);
        return 0;
    }
    bool has_device_allocation() const { return contents->raw.device != 0; }
    bool host_dirty() const { return (contents->raw.flags & loom_buffer_flag_host_dirty) != 0; }
    bool device_dirty() const { return (contents->raw.flags & loom_buffer_flag_device_dirty) != 0; }
    /** Mark the host memory as changed. A device-dirty buffer is copied back
     * first, so that neither side's changes are lost. */
    Buffer &set_host_dirty(bool dirty = true) {
        if (dirty) {
            sync_host();
            contents->raw.flags |= loom_buffer_flag_host_dirty;
        } else {
            contents->raw.flags &= ~uint64_t(loom_buffer_flag_host_dirty);
        }
        return *this;
    }
    /** Mark the device memory as changed (after writing it outside a
     * pipeline); throws when the host holds changes not yet copied. */
    Buffer &set_device_dirty(bool dirty = true) {
        Internal::buffer_set_device_dirty(*contents, dirty);
        return *this;
    }

    bool same_as(const Buffer<void, -1> &o) const { return contents.get() == o.contents.get(); }
    const Internal::BufferContents *get() const { return contents.get(); }
};

} // namespace loom

#endif
