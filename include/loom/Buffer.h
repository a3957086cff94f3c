#ifndef LOOM_BUFFER_H
#define LOOM_BUFFER_H

/** \file Buffer<T, Dims>: host memory with a min, extent and stride per
 * dimension, and optionally a copy of it on a GPU.
 *
 * Buffer is a named, reference-counted handle to a loom::Runtime::Buffer
 * (LoomBuffer.h), as Halide::Buffer is to Halide::Runtime::Buffer: copies
 * of a Buffer share everything (shape included), while views (cropped,
 * sliced, embedded, translated, transposed, alias) are new Buffers with
 * their own shape that share the memory and keep it alive. The shape
 * operations are Runtime::Buffer's; bad arguments throw RuntimeError naming
 * the buffer.
 *
 * Device memory follows Halide's dirty flags: after a kernel writes a buffer
 * on the device it is device-dirty, after the host writes it host-dirty, and
 * copy_to_host()/copy_to_device() copy only what is dirty. Unlike Halide,
 * reading a device-dirty Buffer on the host never returns stale data: every
 * host accessor (operator() with integer coordinates, data(), for_each_value,
 * for_each_element's callers' reads, fill, copy, copy_from, copy_to_host)
 * first copies the device's data back, at the cost of one flag test when
 * there is nothing to copy. raw_buffer() does not: it is how pipelines see
 * the buffer on either side.
 * As in Halide, element access through a non-const Buffer (`b(x, y) = v`),
 * fill(), copy_from() and for_each_value() mark the buffer host-dirty, so
 * that the next copy_to_device() (or pipeline run on the GPU) uploads the
 * change; access through a const Buffer does not. Writes through data(), or
 * through a const Buffer's element references, need an explicit
 * set_host_dirty().
 * Device memory belongs to the Runtime::Buffer inside (see LoomBuffer.h):
 * copies of a Buffer share it, a crop or slice gets its own handle into it
 * from the device interface (device_crop, device_slice) and keeps it alive,
 * other views (translated, transposed, embedded, alias) share the handle,
 * and the memory is freed when the last Buffer referring to it goes. Each
 * view has its own dirty flags, copied from the buffer when it is made. */

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "LoomBuffer.h"
#include "LoomRuntime.h"
#include "loom/DeviceAPI.h"
#include "loom/Expr.h"
#include "loom/IntrusivePtr.h"
#include "loom/Type.h"

namespace loom {

template <typename T, int Dims> class Buffer;
struct Target;
class Var;
class Func;

namespace Internal {

/** A read of `image` at the coordinates `args` (a Call::Image Expr); checks
 * the argument count and types, naming the buffer. */
Expr buffer_call(const Buffer<void, -1> &image, const std::vector<Expr> &args);
/** As above, with Vars as the coordinates. */
Expr buffer_call(const Buffer<void, -1> &image, const std::vector<Var> &args);

/** Shared state of a Buffer: the runtime buffer (host and device memory,
 * shape and the C view) and a name. */
struct BufferContents : RefCounted {
    Runtime::Buffer<> buf;
    std::string name;
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
/** A Runtime::BufferError of a device crop or slice of the Buffer named
 * `name`, as RuntimeError ("Buffer name: ..."). */
[[noreturn]] void buffer_device_view_error(const std::string &name, const Runtime::BufferError &e);

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
/** A Runtime::BufferError raised for the Buffer named `name`, as RuntimeError. */
[[noreturn]] void buffer_error(const std::string &name, const Runtime::BufferError &e);
/** RuntimeError: no memory for a Buffer of type t and these sizes. */
[[noreturn]] void buffer_out_of_memory(Type t, const std::vector<int> &sizes);

inline Type type_from_raw(loom_type_t t) {
    return Type(Type::Code(t.code), t.bits, t.lanes);
}
/** CompileError unless values of type t exist in generated code: Int or
 * UInt of 8, 16, 32 or 64 bits, Bool, Float of 16, 32 or 64 bits,
 * BFloat(16) or Handle, with 1 to max_vector_lanes() lanes. `what` says
 * where t is used ("cast", "Buffer" ...). */
void check_value_type(Type t, const std::string &what);
/** The most lanes a vector type (and a vectorized loop) may have. */
constexpr int max_vector_lanes() {
    return 1024;
}
inline loom_type_t raw_from_type(Type t) {
    check_value_type(t, "Buffer");
    return loom_type_t{uint8_t(t.code), uint8_t(t.bits), uint16_t(t.lanes)};
}

} // namespace Internal

/** A dimension view of a Buffer: min(), extent(), stride(), max(), and its
 * coordinates when iterated (`for (int x : b.dim(0))`). */
using BufferDimension = Runtime::BufferDim;

/** Host memory with a type, a name, and min/extent/stride per dimension.
 * T = void (or Dims = -1) leaves the element type (or dimension count) to
 * run time. Copies share the memory and the shape; use copy() for a deep
 * copy. Memory allocated by Buffer is zero-initialized. */
template <typename T = void, int Dims = -1> class Buffer {
    template <typename, int> friend class Buffer;
    Internal::IntrusivePtr<Internal::BufferContents> contents;

    static constexpr bool typed = !std::is_void_v<T>;
    using ElemRef = std::conditional_t<typed, T, uint8_t>;
    using Mutable = std::remove_const_t<ElemRef>;
    using CopyType = std::conditional_t<typed, Mutable, void>;
    static constexpr int sliced_dims = Dims < 0 ? -1 : Dims - 1;
    static constexpr int embedded_dims = Dims < 0 ? -1 : Dims + 1;

    Runtime::Buffer<> &rt() const { return contents->buf; }

    void check_dims(int d) const {
        if (Dims >= 0 && d != Dims)
            Internal::buffer_error("Buffer of " + std::to_string(Dims) +
                                   " dimensions constructed with " + std::to_string(d) +
                                   " dimensions");
    }
    void check_defined(const char *method) const {
        if (!contents.defined())
            Internal::buffer_error(std::string(method) + " of an undefined Buffer");
    }

    // Runs f, turning the runtime buffer's argument errors into RuntimeError.
    template <typename F> decltype(auto) checked(F &&f) const {
        try {
            return f();
        } catch (const Runtime::BufferError &e) {
            Internal::buffer_error(contents.defined() ? contents->name : std::string(), e);
        }
    }

    // Copies the device's data back when the host's is stale (a flag test otherwise).
    void sync_host() const {
        if (contents.defined() && (rt().buf.flags & loom_buffer_flag_device_dirty))
            Internal::buffer_copy_to_host(*contents);
    }
    void mark_host_dirty() const { rt().buf.flags |= loom_buffer_flag_host_dirty; }

    // A fresh Buffer around a new runtime buffer (no device memory), with clean flags.
    static Buffer wrap_runtime(Runtime::Buffer<> b, const std::string &name) {
        Buffer out;
        out.contents = new Internal::BufferContents;
        out.contents->buf = std::move(b);
        out.contents->buf.buf.flags = 0;
        out.contents->name = name.empty() ? Internal::unique_buffer_name() : name;
        return out;
    }

    void init(Type t, const std::vector<int> &sizes, uint8_t *data,
              const std::vector<int> &order = {}) {
        check_dims(int(sizes.size()));
        loom_type_t raw = Internal::raw_from_type(t);
        Runtime::Buffer<> b;
        try {
            if (data)
                b = Runtime::Buffer<>(raw, data, sizes);
            else if (order.empty())
                b = Runtime::Buffer<>(raw, sizes);
            else
                b = Runtime::Buffer<>(raw, sizes, order);
        } catch (const Runtime::BufferError &e) {
            Internal::buffer_error(std::string(), e);
        } catch (const std::bad_alloc &) {
            Internal::buffer_out_of_memory(t, sizes);
        }
        *this = wrap_runtime(std::move(b), "");
    }

    // How a view reaches the source's device memory.
    enum class DeviceView { Shared, Crop, Slice };

    // Gives `view` (reshaped from this Buffer's runtime buffer as a crop, or
    // as the slice at slice_pos of dimension slice_dim) its own handle into
    // the device memory, when there is some; RuntimeError when it cannot.
    void attach_device_view(Runtime::Buffer<> &view, int slice_dim, int slice_pos) const {
        if (!rt().buf.device) return;
        try {
            rt().attach_device_view(view, slice_dim, slice_pos);
        } catch (const Runtime::BufferError &e) {
            Internal::buffer_device_view_error(contents->name, e);
        }
    }

    // A new Buffer sharing this one's memory (host and device), reshaped by
    // `reshape` (on the runtime buffer). A crop or slice gets its own handle
    // into the device memory; other views share the handle, as in Halide.
    template <int D2 = -1, typename R>
    Buffer<T, D2> make_view(R &&reshape, DeviceView how, int slice_dim = -1,
                            int slice_pos = 0) const {
        check_defined("A view");
        Buffer<T, -1> v;
        v.contents = new Internal::BufferContents;
        v.contents->name = Internal::unique_buffer_name();
        v.contents->buf = rt();
        checked([&] { reshape(v.contents->buf); });
        if (how != DeviceView::Shared)
            attach_device_view(v.contents->buf, how == DeviceView::Slice ? slice_dim : -1,
                               slice_pos);
        return Buffer<T, D2>(v);
    }

    // Reshapes this Buffer's own runtime buffer (shared by its copies) as a
    // crop or slice, all or nothing; device memory becomes a crop or slice
    // of the old one, which it keeps alive.
    template <typename R> void reshape_in_place(R &&reshape, int slice_dim, int slice_pos) {
        check_defined("A crop or slice");
        Runtime::Buffer<> shaped = rt();
        checked([&] { reshape(shaped); });
        attach_device_view(shaped, slice_dim, slice_pos);
        rt() = std::move(shaped);
    }

public:
    using ElemType = T;
    using Dimension = BufferDimension;

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

    /** Allocate with a storage order: `storage_order` names the dimensions
     * from innermost to outermost in memory ({2, 0, 1} for interleaved x, y, c). */
    Buffer(const std::vector<int> &sizes, const std::vector<int> &storage_order,
           const std::string &name = "") {
        static_assert(typed, "Buffer<void> needs a Type: Buffer<>(Int(32), sizes, order)");
        init(type_of<T>(), sizes, nullptr, storage_order);
        if (!name.empty()) set_name(name);
    }
    Buffer(Type t, const std::vector<int> &sizes, const std::vector<int> &storage_order,
           const std::string &name = "") {
        if constexpr (typed) {
            if (t != type_of<T>())
                Internal::buffer_error("Buffer type mismatch: constructed " +
                                       type_to_string(type_of<T>()) + " buffer with type " +
                                       type_to_string(t));
        }
        init(t, sizes, nullptr, storage_order);
        if (!name.empty()) set_name(name);
    }

    /** Wrap memory the caller owns (dense, first dimension innermost). */
    Buffer(T *data, const std::vector<int> &sizes, const std::string &name = "") {
        static_assert(typed, "wrap untyped memory with Buffer<>(Type, data, sizes)");
        init(type_of<T>(), sizes, reinterpret_cast<uint8_t *>(const_cast<Mutable *>(data)));
        if (!name.empty()) set_name(name);
    }
    /** Wrap memory the caller owns with explicit dimensions. */
    Buffer(Type t, void *data, const std::vector<loom_dimension_t> &shape,
           const std::string &name = "") {
        check_dims(int(shape.size()));
        Runtime::Buffer<> b;
        try {
            b = Runtime::Buffer<>(Internal::raw_from_type(t), data, shape);
        } catch (const Runtime::BufferError &e) {
            Internal::buffer_error(name, e);
        }
        *this = wrap_runtime(std::move(b), name);
        if constexpr (typed) {
            if (t != type_of<T>())
                Internal::buffer_error("Buffer type mismatch: constructed " +
                                       type_to_string(type_of<T>()) + " buffer with type " +
                                       type_to_string(t));
        }
    }

    /** Wrap a loom_buffer_t's host memory and shape (not owned; its device
     * memory stays with it). */
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
        : Buffer(type_of<std::conditional_t<typed, Mutable, uint8_t>>(),
                 const_cast<Mutable *>(data), d, shape, name) {
        static_assert(typed, "wrap untyped memory with Buffer<>(Type, data, d, shape)");
    }
    Buffer(T *data, const std::vector<loom_dimension_t> &shape, const std::string &name = "")
        : Buffer(data, int(shape.size()), shape.data(), name) {}
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
        using Elem = std::remove_cv_t<std::remove_all_extents_t<Array>>;
        std::vector<int> sizes;
        Internal::array_sizes<Array[N]>(sizes);
        *this = Buffer(type_of<Elem>(), const_cast<void *>(static_cast<const void *>(&vals[0])),
                       sizes, name);
    }

    /** A Buffer around a runtime buffer's memory and shape (shared, not copied). */
    template <typename T2, int D2>
    explicit Buffer(const Runtime::Buffer<T2, D2> &b, const std::string &name = "") {
        Runtime::Buffer<> any = b;
        *this = wrap_runtime(std::move(any), name);
        if constexpr (typed) {
            if (type() != type_of<T>())
                Internal::buffer_error("Cannot view a runtime buffer of type " +
                                       type_to_string(type()) + " as a Buffer of " +
                                       type_to_string(type_of<T>()));
        }
        check_dims(dimensions());
    }

    /** A zero-dimensional buffer holding one value. */
    static Buffer make_scalar(const std::string &name = "") {
        static_assert(typed, "Buffer<void>::make_scalar needs a Type: make_scalar(Int(32))");
        return Buffer(std::vector<int>{}, name);
    }
    static Buffer make_scalar(Type t, const std::string &name = "") {
        return Buffer(t, std::vector<int>{}, name);
    }
    /** A zero-dimensional buffer wrapping one value the caller owns. */
    static Buffer make_scalar(T *data, const std::string &name = "") {
        return Buffer(data, std::vector<int>{}, name);
    }

    /** Interleaved layout: the last dimension (channels) is innermost in memory. */
    static Buffer make_interleaved(int width, int height, int channels,
                                   const std::string &name = "") {
        return Buffer(std::vector<int>{width, height, channels}, std::vector<int>{2, 0, 1}, name);
    }
    static Buffer make_interleaved(Type t, int width, int height, int channels,
                                   const std::string &name = "") {
        return Buffer(t, std::vector<int>{width, height, channels}, std::vector<int>{2, 0, 1},
                      name);
    }
    /** Wrap interleaved memory the caller owns. */
    static Buffer make_interleaved(T *data, int width, int height, int channels,
                                   const std::string &name = "") {
        static_assert(typed, "wrap untyped memory with Buffer<>(Type, data, shape)");
        std::vector<loom_dimension_t> shape = {
            {0, width, channels, 0}, {0, height, width * channels, 0}, {0, channels, 1, 0}};
        return Buffer(type_of<T>(), const_cast<Mutable *>(data), shape, name);
    }

    /** A new dense buffer with src's mins, extents and nesting of dimensions
     * in memory (T's type, or src's for Buffer<void>). */
    template <typename T2, int D2>
    static Buffer
    make_with_shape_of(const Buffer<T2, D2> &src, void *(*allocate_fn)(size_t) = nullptr,
                       void (*deallocate_fn)(void *) = nullptr, const std::string &name = "") {
        src.check_defined("make_with_shape_of");
        Runtime::Buffer<> shape_only = src.rt();
        if constexpr (typed) shape_only.buf.type = Internal::raw_from_type(type_of<T>());
        Runtime::Buffer<> b = src.checked([&] {
            return Runtime::Buffer<>::make_with_shape_of(shape_only, allocate_fn, deallocate_fn);
        });
        Buffer out = Buffer(wrap_runtime(std::move(b), name));
        return out;
    }

    /** Conversion between typed and untyped views; checked at run time. */
    template <typename T2, int D2> Buffer(const Buffer<T2, D2> &o) : contents(o.contents) {
        static_assert(!std::is_const_v<T2> || std::is_const_v<T> || !typed,
                      "a Buffer<const T> does not convert to Buffer<T>");
        if (!contents.defined()) return;
        if constexpr (typed && !std::is_same_v<std::remove_const_t<T>, std::remove_const_t<T2>>) {
            if (type() != type_of<T>())
                Internal::buffer_error("Cannot view Buffer \"" + name() + "\" of type " +
                                       type_to_string(type()) + " as " +
                                       type_to_string(type_of<T>()));
        }
        if (Dims >= 0 && dimensions() != Dims)
            Internal::buffer_error("Cannot view Buffer \"" + name() + "\" of " +
                                   std::to_string(dimensions()) + " dimensions as one of " +
                                   std::to_string(Dims));
    }

    /** Whether the element type and dimension count are fixed at compile
     * time, and what they are (Halide's names; Buffer<void>'s
     * static_halide_type() is UInt(8), as in Halide). */
    static constexpr bool has_static_halide_type = typed;
    static constexpr bool has_static_dimensions = Dims >= 0;
    static Type static_halide_type() {
        return Internal::type_from_raw(Runtime::Buffer<T>::static_halide_type());
    }
    static constexpr int static_dimensions() { return Dims; }
    /** Whether `other` can become this kind of Buffer (the element type
     * unless this is Buffer<void>, the dimension count unless AnyDims);
     * the converting constructor and as<>() throw exactly when it is false. */
    template <typename T2, int D2> static bool can_convert_from(const Buffer<T2, D2> &other) {
        if (!other.defined()) return true;
        if constexpr (typed) {
            if (other.type() != type_of<T>()) return false;
        }
        return Dims < 0 || other.dimensions() == Dims;
    }
    /** As can_convert_from, throwing RuntimeError with the reason when false. */
    template <typename T2, int D2>
    static void assert_can_convert_from(const Buffer<T2, D2> &other) {
        Buffer<T, Dims> converted(other);
        (void)converted;
    }

    bool defined() const { return contents.defined(); }
    /** A wrapper of this Buffer's reads in f (as Func::in; a Loom addition):
     * a Func `<name>_im_in_f(_0, ...) = buffer(_0, ...)` that f reads
     * instead, to be scheduled (a tile of it staged per block in GPU shared
     * memory, ...). The same wrapper again for the same callers. (Func.h) */
    Func in(const Func &f) const;
    Func in(const std::vector<Func> &fs) const;
    /** Drop this handle's reference; the Buffer becomes undefined. */
    void reset() { contents = Internal::IntrusivePtr<Internal::BufferContents>(); }
    const std::string &name() const { return contents->name; }
    Buffer &set_name(const std::string &n) {
        contents->name = n;
        return *this;
    }

    Type type() const { return Internal::type_from_raw(rt().buf.type); }
    int dimensions() const { return rt().dimensions(); }
    BufferDimension dim(int i) const {
        return checked([&] { return rt().dim(i); });
    }
    int min(int i) const { return dim(i).min(); }
    int extent(int i) const { return dim(i).extent(); }
    int stride(int i) const { return dim(i).stride(); }
    int width() const { return rt().width(); }
    int height() const { return rt().height(); }
    int channels() const { return rt().channels(); }
    int left() const { return min(0); }
    int right() const { return dim(0).max(); }
    int top() const { return min(1); }
    int bottom() const { return dim(1).max(); }
    size_t number_of_elements() const { return size_t(rt().number_of_elements()); }
    /** Bytes from the lowest to one past the highest element. */
    size_t size_in_bytes() const { return rt().size_in_bytes(); }
    /** A shape with no host or device memory (after deallocate(), or made
     * for a bounds query): a pipeline fills in the shape it needs. */
    bool is_bounds_query() const {
        check_defined("is_bounds_query");
        return rt().is_bounds_query();
    }
    /** Whether the host memory was allocated by Loom (not the caller's). */
    bool owns_host_memory() const { return defined() && rt().owns_host_memory(); }
    /** Throw RuntimeError when the size in bytes (the product of the
     * extents times the element size) does not fit in 63 bits. */
    void check_overflow() const {
        check_defined("check_overflow");
        checked([&] { rt().check_overflow(); });
    }

    /** Set the coordinate of the first element in each dimension. */
    Buffer &set_min(const std::vector<int> &mins) {
        checked([&] { rt().set_min(mins); });
        return *this;
    }
    template <typename... Args> Buffer &set_min(int first, Args... rest) {
        return set_min(std::vector<int>{first, int(rest)...});
    }

    /** Shift the coordinates of dimension d (or the first delta.size()
     * dimensions) by delta; the memory stays. */
    Buffer &translate(int d, int delta) {
        checked([&] { rt().translate(d, delta); });
        return *this;
    }
    Buffer &translate(const std::vector<int> &delta) {
        checked([&] { rt().translate(delta); });
        return *this;
    }
    Buffer translated(int d, int delta) const {
        return make_view<Dims>([&](Runtime::Buffer<> &b) { b.translate(d, delta); },
                               DeviceView::Shared);
    }
    Buffer translated(const std::vector<int> &delta) const {
        return make_view<Dims>([&](Runtime::Buffer<> &b) { b.translate(delta); },
                               DeviceView::Shared);
    }

    /** Restrict dimension d to [min, min + extent - 1], which must lie inside it. */
    Buffer &crop(int d, int min, int extent) {
        reshape_in_place([&](Runtime::Buffer<> &b) { b.crop_host(d, min, extent); }, -1, 0);
        return *this;
    }
    /** Restrict the first rect.size() dimensions to {min, extent} each. */
    Buffer &crop(const std::vector<std::pair<int, int>> &rect) {
        reshape_in_place([&](Runtime::Buffer<> &b) { crop_all(b, rect); }, -1, 0);
        return *this;
    }
    Buffer cropped(int d, int min, int extent) const {
        return make_view<Dims>([&](Runtime::Buffer<> &b) { b.crop_host(d, min, extent); },
                               DeviceView::Crop);
    }
    Buffer cropped(const std::vector<std::pair<int, int>> &rect) const {
        return make_view<Dims>([&](Runtime::Buffer<> &b) { crop_all(b, rect); }, DeviceView::Crop);
    }

    /** Remove dimension d, keeping the elements at coordinate pos of it (its
     * min when pos is not given). */
    Buffer &slice(int d, int pos) {
        static_assert(Dims < 0, "slice() in place changes the dimension count; use sliced()");
        reshape_in_place([&](Runtime::Buffer<> &b) { b.slice_host(d, pos); }, d, pos);
        return *this;
    }
    Buffer &slice(int d) { return slice(d, slice_min(d)); }
    Buffer<T, sliced_dims> sliced(int d, int pos) const {
        static_assert(Dims != 0, "sliced() of a 0-dimensional buffer");
        return make_view<sliced_dims>([&](Runtime::Buffer<> &b) { b.slice_host(d, pos); },
                                      DeviceView::Slice, d, pos);
    }
    Buffer<T, sliced_dims> sliced(int d) const { return sliced(d, slice_min(d)); }

    /** Insert a dimension of extent 1 at index d, its one coordinate being pos. */
    Buffer &embed(int d, int pos = 0) {
        static_assert(Dims < 0, "embed() in place changes the dimension count; use embedded()");
        checked([&] { rt().embed(d, pos); });
        return *this;
    }
    Buffer<T, embedded_dims> embedded(int d, int pos = 0) const {
        return make_view<embedded_dims>([&](Runtime::Buffer<> &b) { b.embed(d, pos); },
                                        DeviceView::Shared);
    }
    /** Add a dimension of extent 1 after the last. */
    Buffer &add_dimension() {
        static_assert(Dims < 0, "add_dimension() changes the dimension count");
        checked([&] { rt().add_dimension(); });
        return *this;
    }

    /** Add a dimension of extent 1 (min 0) after the last, with the given
     * stride in elements. */
    Buffer &add_dimension_with_stride(int stride) {
        static_assert(Dims < 0, "add_dimension_with_stride() changes the dimension count");
        check_defined("add_dimension_with_stride");
        checked([&] { rt().add_dimension_with_stride(stride); });
        return *this;
    }
    /** Swap dimensions d1 and d2, or make dimension i the old order[i]. */
    Buffer &transpose(int d1, int d2) {
        checked([&] { rt().transpose(d1, d2); });
        return *this;
    }
    Buffer &transpose(const std::vector<int> &order) {
        checked([&] { rt().transpose(order); });
        return *this;
    }
    Buffer transposed(int d1, int d2) const {
        return make_view<Dims>([&](Runtime::Buffer<> &b) { b.transpose(d1, d2); },
                               DeviceView::Shared);
    }
    Buffer transposed(const std::vector<int> &order) const {
        return make_view<Dims>([&](Runtime::Buffer<> &b) { b.transpose(order); },
                               DeviceView::Shared);
    }

    /** Another Buffer (another name, its own shape) on the same memory. */
    Buffer alias() const {
        return make_view<Dims>([](Runtime::Buffer<> &) {}, DeviceView::Shared);
    }

    /** This Buffer (the same one: copies share everything) with a static
     * element type and dimension count; RuntimeError when they differ. */
    template <typename T2, int D2 = Dims> Buffer<T2, D2> as() const {
        return Buffer<T2, D2>(*this);
    }
    /** This Buffer, read-only. */
    Buffer<std::add_const_t<T>, Dims> as_const() const {
        return Buffer<std::add_const_t<T>, Dims>(*this);
    }

    /** The host memory, copied back from the device first when device-dirty. */
    ElemRef *data() const {
        sync_host();
        return reinterpret_cast<ElemRef *>(rt().buf.host);
    }
    /** The C view pipelines take; no copies (see the file comment). */
    loom_buffer_t *raw_buffer() const { return &rt().buf; }
    /** The runtime buffer this one sits on (shares the memory). */
    Runtime::Buffer<T, Dims> runtime_buffer() const {
        sync_host();
        return Runtime::Buffer<T, Dims>(rt());
    }

    /** Offset in elements of a coordinate from the host pointer. */
    template <typename... Args> ptrdiff_t offset_of(Args... coords) const {
        const int c[] = {int(coords)...};
        return ptrdiff_t(rt().offset_of(c, int(sizeof...(Args))));
    }
    ptrdiff_t offset_of(const std::vector<int> &c) const {
        return ptrdiff_t(rt().offset_of(c.data(), int(c.size())));
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
    ElemRef &operator()(const int *coords) const {
        static_assert(typed, "element access needs a typed Buffer<T>");
        return data()[rt().offset_of(coords, dimensions())];
    }
    /** Element access through a non-const Buffer may write: it marks the
     * buffer host-dirty (after copying device-dirty data back), as Halide's does. */
    template <typename... Args, typename = std::enable_if_t<(std::is_integral_v<Args> && ...)>>
    ElemRef &operator()(Args... coords) {
        static_assert(typed, "element access needs a typed Buffer<T>");
        ElemRef *p = data();
        mark_host_dirty();
        return p[offset_of(coords...)];
    }
    ElemRef &operator()(const std::vector<int> &coords) {
        static_assert(typed, "element access needs a typed Buffer<T>");
        ElemRef *p = data();
        mark_host_dirty();
        return p[offset_of(coords)];
    }
    ElemRef &operator()(const int *coords) {
        static_assert(typed, "element access needs a typed Buffer<T>");
        ElemRef *p = data();
        mark_host_dirty();
        return p[rt().offset_of(coords, dimensions())];
    }

    /** A read of this buffer in an algorithm: `input(x, y + 1)`. */
    template <typename... Args,
              typename = std::enable_if_t<!(std::is_integral_v<Args> && ...) &&
                                          (std::is_convertible_v<Args, Expr> && ...)>>
    Expr operator()(const Args &...coords) const {
        return Internal::buffer_call(*this, std::vector<Expr>{Expr(coords)...});
    }
    /** The same with the coordinates in a std::vector of Exprs or Vars, for
     * generic code: `input(args)` (`_` expands as above). A template so that
     * a braced list (`b({1, 2})`) still means the element access. */
    template <typename V,
              typename = std::enable_if_t<std::is_same_v<V, Expr> || std::is_same_v<V, Var>>>
    Expr operator()(const std::vector<V> &coords) const {
        return Internal::buffer_call(*this, coords);
    }

    /** Is this coordinate inside the buffer? */
    bool contains(const std::vector<int> &c) const { return rt().contains(c); }
    template <typename... Args, typename = std::enable_if_t<(std::is_integral_v<Args> && ...)>>
    bool contains(Args... c) const {
        return rt().contains(std::vector<int>{int(c)...});
    }

    /** Call f at every coordinate, first dimension innermost. f takes one
     * int per dimension (`[](int x, int y)`), the coordinates as
     * `const int *`, or (a Loom extension) as `const std::vector<int> &`. */
    template <typename F> const Buffer &for_each_element(F &&f) const {
        checked([&] { rt().for_each_element(std::forward<F>(f)); });
        return *this;
    }
    /** Call f(value&, other_values&...) for every element of this buffer and
     * the elements at the same place of the other Buffers (same dimensions
     * and extents; mins may differ). Marks every buffer host-dirty, since f
     * may write. */
    template <typename F, typename... Others>
    const Buffer &for_each_value(F &&f, Others &&...others) const {
        static_assert(typed, "for_each_value needs a typed Buffer<T>");
        check_defined("for_each_value");
        sync_host();
        (others.sync_host(), ...);
        checked([&] {
            Runtime::Buffer<T> self(rt());
            self.for_each_value(f, others.typed_runtime()...);
        });
        mark_host_dirty();
        (others.mark_host_dirty(), ...);
        return *this;
    }
    /** Set every element (marks the buffer host-dirty). */
    const Buffer &fill(Mutable v) const {
        static_assert(typed, "fill needs a typed Buffer<T>");
        return for_each_value([&](ElemRef &e) { e = v; });
    }
    /** Set every element to f(coordinates), f as in for_each_element. */
    template <typename F, typename = std::enable_if_t<!std::is_convertible_v<F, Mutable>>>
    const Buffer &fill(F &&f) const {
        static_assert(typed, "fill needs a typed Buffer<T>");
        check_defined("fill");
        sync_host();
        checked([&] {
            Runtime::Buffer<T> self(rt());
            self.fill(std::forward<F>(f));
        });
        mark_host_dirty();
        return *this;
    }
    /** Does every element equal v? */
    bool all_equal(Mutable v) const {
        static_assert(typed, "all_equal needs a typed Buffer<T>");
        check_defined("all_equal");
        sync_host();
        return Runtime::Buffer<T>(rt()).all_equal(v);
    }

    /** Copy the elements at the coordinates both buffers have from src (same
     * type and dimension count); marks this buffer host-dirty. */
    template <typename T2, int D2> const Buffer &copy_from(const Buffer<T2, D2> &src) const {
        static_assert(!std::is_const_v<T>, "copy_from into a Buffer<const T>");
        check_defined("copy_from");
        src.check_defined("copy_from");
        sync_host();
        src.sync_host();
        checked([&] { rt().copy_from(src.rt()); });
        mark_host_dirty();
        return *this;
    }

    /** A deep copy of the host memory (copied back from the device first when
     * device-dirty) with the same mins and the same nesting of dimensions in
     * memory; the copy has no device memory. */
    Buffer<CopyType, Dims> copy(void *(*allocate_fn)(size_t) = nullptr,
                                void (*deallocate_fn)(void *) = nullptr) const {
        check_defined("copy");
        sync_host();
        Runtime::Buffer<> b = checked([&] { return rt().copy(allocate_fn, deallocate_fn); });
        return Buffer<CopyType, Dims>::wrap_runtime(std::move(b), "");
    }
    /** Deep copies with the channels (dimension 2) innermost, or outermost. */
    Buffer<CopyType, Dims> copy_to_interleaved() const {
        check_defined("copy_to_interleaved");
        sync_host();
        Runtime::Buffer<> b = checked([&] { return rt().copy_to_interleaved(); });
        return Buffer<CopyType, Dims>::wrap_runtime(std::move(b), "");
    }
    Buffer<CopyType, Dims> copy_to_planar() const {
        check_defined("copy_to_planar");
        sync_host();
        Runtime::Buffer<> b = checked([&] { return rt().copy_to_planar(); });
        return Buffer<CopyType, Dims>::wrap_runtime(std::move(b), "");
    }

    /** Allocate host memory for the current shape (zeroed; after a bounds
     * query, for instance), dropping the reference to any this Buffer had. */
    Buffer &allocate(void *(*allocate_fn)(size_t) = nullptr,
                     void (*deallocate_fn)(void *) = nullptr) {
        check_defined("allocate");
        Internal::buffer_device_free(*contents);
        checked([&] { rt().allocate(allocate_fn, deallocate_fn); });
        rt().buf.flags = 0;
        return *this;
    }
    /** Drop this Buffer's host memory (freed with its last user) and device
     * memory; the shape stays. Memory the Buffer wraps stays. */
    Buffer &deallocate() {
        check_defined("deallocate");
        if (rt().buf.device) {
            rt().buf.flags &= ~uint64_t(loom_buffer_flag_device_dirty); // dropped, not copied back
            Internal::buffer_device_free(*contents);
        }
        rt().deallocate();
        return *this;
    }

    /** Device memory (GPU). Each call throws RuntimeError with the runtime's
     * message when it fails, and returns 0 otherwise (Halide's signatures).
     * DeviceAPI::Default_GPU is the JIT target's GPU API (LOOM_JIT_TARGET),
     * else CUDA when a CUDA GPU is there, else OpenCL. Device memory is freed when the
     * last Buffer or view referring to it goes; a wrapped native handle
     * stays the caller's (detached, never freed). */

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
    /** Give up the device memory, copying it to the host first when it is
     * device-dirty (Halide drops it; Loom keeps the data). It is freed
     * unless a view (crop, slice, translated...) still uses it; then it goes
     * with the last such view. */
    int device_free() const {
        Internal::buffer_device_free(*contents);
        return 0;
    }
    /** Drop this Buffer's device memory as device_free() does (Halide's
     * name for dropping the reference; Loom copies device-dirty data back
     * first instead of asserting it is clean). */
    int device_deallocate() const { return device_free(); }
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
    bool has_device_allocation() const { return rt().buf.device != 0; }
    bool host_dirty() const { return (rt().buf.flags & loom_buffer_flag_host_dirty) != 0; }
    bool device_dirty() const { return (rt().buf.flags & loom_buffer_flag_device_dirty) != 0; }
    /** Mark the host memory as changed. A device-dirty buffer is copied back
     * first, so that neither side's changes are lost. */
    Buffer &set_host_dirty(bool dirty = true) {
        if (dirty) {
            sync_host();
            mark_host_dirty();
        } else {
            rt().buf.flags &= ~uint64_t(loom_buffer_flag_host_dirty);
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

private:
    Runtime::Buffer<T> typed_runtime() const {
        static_assert(typed, "for_each_value needs typed Buffers");
        check_defined("for_each_value");
        return Runtime::Buffer<T>(rt());
    }
    int slice_min(int d) const {
        check_defined("slice");
        if (dimensions() == 0)
            Internal::buffer_error("Buffer \"" + name() +
                                   "\": slice of a 0-dimensional buffer; there is no "
                                   "dimension to remove");
        return dim(d).min();
    }
    static void crop_all(Runtime::Buffer<> &b, const std::vector<std::pair<int, int>> &rect) {
        if (rect.size() > size_t(b.dimensions()))
            Runtime::Internal::fail("crop given " + std::to_string(rect.size()) + " ranges for " +
                                    std::to_string(b.dimensions()) + " dimensions");
        for (size_t i = 0; i < rect.size(); i++) b.crop_host(int(i), rect[i].first, rect[i].second);
    }
};

} // namespace loom

#endif
