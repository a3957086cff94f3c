#ifndef LOOM_RUNTIME_BUFFER_H
#define LOOM_RUNTIME_BUFFER_H

/** \file LoomBuffer.h: loom::Runtime::Buffer<T, Dims>, a header-only image
 * type for programs that call ahead-of-time generated pipelines, in the
 * shape of Halide::Runtime::Buffer. It needs only LoomRuntime.h and the C++
 * standard library (no libloom), and converts implicitly to the
 * loom_buffer_t * that generated functions take:
 *
 *     loom::Runtime::Buffer<uint8_t> in(640, 480), out(640, 480);
 *     int err = brighten(in, 1.5f, out);
 *
 * Copies and views (cropped, sliced, embedded, translated, transposed, alias)
 * share the memory and keep it alive (reference counted); copy() makes a
 * deep copy. Memory the Buffer allocates is zero-initialized and 64-byte
 * aligned. Each Buffer has its own shape and dirty flags: changing a view's
 * shape never changes another Buffer's.
 *
 * Device memory is shared the same way, as in Halide::Runtime::Buffer. GPU
 * pipelines give a Buffer device memory and leave what their kernels write
 * there (device-dirty): call copy_to_host() before reading it. A copy of a
 * Buffer shares its device allocation; a crop or slice gets its own handle
 * into it from the device interface (device_crop, device_slice) and keeps
 * it alive. The allocation is freed (device_free through its device
 * interface) when the last Buffer referring to it goes. Device memory the
 * Buffer does not own is never freed: a handle the caller wrapped with
 * device_wrap_native() is only detached, one in a loom_buffer_t the Buffer
 * was made from is left alone, and a crop only releases its own handle.
 * copy() copies device-dirty data back first. The device calls need
 * Loom::Runtime.
 *
 * Bad arguments (a crop outside the buffer, a slice of a 0-dimensional
 * buffer, a view as another element type...) throw
 * loom::Runtime::BufferError with a message saying what is legal. Element
 * access is not checked, as in Halide (see contains()).
 *
 * loom::Buffer, the JIT front end's buffer (loom/Buffer.h), holds one of
 * these (shared by its copies) and adds a name, errors as RuntimeError and
 * automatic copies back from the device. */

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "LoomRuntime.h"

namespace loom {

template <typename T, int Dims> class Buffer;
// The 16-bit float element types (loom/Float16.h, header-only); declared
// here so that buffers of them need no more than that header.
struct float16_t;
struct bfloat16_t;

namespace Runtime {

/** The dimension count of a Buffer decided at run time. */
constexpr int AnyDims = -1;

/** What Buffer throws for arguments it cannot honour. */
class BufferError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

namespace Internal {

template <typename T> constexpr loom_type_t type_of() {
    using U = typename std::remove_cv<T>::type;
    constexpr bool half = std::is_same<U, float16_t>::value;
    constexpr bool brain = std::is_same<U, bfloat16_t>::value;
    static_assert(std::is_arithmetic<U>::value || std::is_pointer<U>::value || half || brain,
                  "loom::Runtime::Buffer<T>: T must be an arithmetic, pointer, float16_t or "
                  "bfloat16_t type");
    if constexpr (half) {
        return loom_type_t{loom_type_float, 16, 1};
    } else if constexpr (brain) {
        return loom_type_t{loom_type_bfloat, 16, 1};
    } else {
        if (std::is_same<U, bool>::value) return loom_type_t{loom_type_uint, 1, 1};
        if (std::is_pointer<U>::value) return loom_type_t{loom_type_handle, 64, 1};
        if (std::is_floating_point<U>::value)
            return loom_type_t{loom_type_float, uint8_t(8 * sizeof(U)), 1};
        if (std::is_signed<U>::value) return loom_type_t{loom_type_int, uint8_t(8 * sizeof(U)), 1};
        return loom_type_t{loom_type_uint, uint8_t(8 * sizeof(U)), 1};
    }
}

inline size_t bytes_per_element(loom_type_t t) {
    return size_t((t.bits + 7) / 8) * (t.lanes ? t.lanes : 1);
}

inline bool same_type(loom_type_t a, loom_type_t b) {
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

/** "int32", "uint8x4", "float64", "bfloat16", "bool", "handle". */
inline std::string type_name(loom_type_t t) {
    if (t.code == loom_type_uint && t.bits == 1) return "bool";
    if (t.code == loom_type_handle) return "handle";
    static const char *kinds[] = {"int", "uint", "float", "handle", "bfloat"};
    std::string s = t.code <= loom_type_bfloat ? kinds[t.code] : "?";
    s += std::to_string(int(t.bits));
    if (t.lanes > 1) s += "x" + std::to_string(int(t.lanes));
    return s;
}

[[noreturn]] inline void fail(const std::string &message) {
    throw BufferError("loom::Runtime::Buffer: " + message);
}

inline std::string range_text(int lo, int hi) {
    return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

// Is F callable with N ints? (one int per dimension of for_each_element)
template <typename F, typename Seq> struct InvocableWithInts;
template <typename F, size_t... I>
struct InvocableWithInts<F, std::index_sequence<I...>>
    : std::is_invocable<F, decltype((void)I, int())...> {};

constexpr int max_coordinate_args = 16;

/** The number of int arguments F takes (-1 when no count up to 16 fits). */
template <typename F, int N = 0> constexpr int int_arity() {
    if constexpr (N > max_coordinate_args) {
        return -1;
    } else if constexpr (InvocableWithInts<F, std::make_index_sequence<size_t(N)>>::value) {
        return N;
    } else {
        return int_arity<F, N + 1>();
    }
}

template <typename F, size_t... I>
decltype(auto) call_with_ints(F &f, const int *pos, std::index_sequence<I...>) {
    return f(pos[I]...);
}

/** Calls f at the coordinates pos: f takes `const int *`, or one int per
 * dimension (Halide's two forms), or `const std::vector<int> &`. */
template <typename F> struct CoordinateCall {
    static constexpr bool takes_array = std::is_invocable<F &, const int *>::value;
    static constexpr bool takes_vector =
        !takes_array && std::is_invocable<F &, const std::vector<int> &>::value;
    static constexpr int arity = takes_array || takes_vector ? -1 : int_arity<F &>();
    static_assert(takes_array || takes_vector || arity >= 0,
                  "the function must take (const int *pos) or one int per dimension");

    static void check(int dimensions, const char *method) {
        if (!takes_array && !takes_vector && arity != dimensions)
            fail(std::string(method) + ": the function takes " + std::to_string(arity) +
                 " coordinates but the buffer has " + std::to_string(dimensions) + " dimensions");
    }
    static decltype(auto) call(F &f, const int *pos, int dimensions) {
        if constexpr (takes_array) {
            return f(pos);
        } else if constexpr (takes_vector) {
            return f(std::vector<int>(pos, pos + dimensions));
        } else {
            return call_with_ints(f, pos, std::make_index_sequence<size_t(arity)>());
        }
    }
};

/** Strides for a dense layout of `shape`'s extents, `order` naming the
 * dimensions from innermost to outermost. */
inline void set_dense_strides(std::vector<loom_dimension_t> &shape, const std::vector<int> &order) {
    if (order.size() != shape.size())
        fail("a storage order of " + std::to_string(order.size()) + " dimensions for " +
             std::to_string(shape.size()) + " sizes");
    std::vector<bool> seen(shape.size(), false);
    int64_t stride = 1;
    for (int d : order) {
        if (d < 0 || d >= int(shape.size()) || seen[size_t(d)])
            fail("the storage order must name each dimension 0.." +
                 std::to_string(int(shape.size()) - 1) + " once");
        seen[size_t(d)] = true;
        if (stride > INT32_MAX) {
            std::string sizes;
            for (const auto &dim : shape)
                sizes += (sizes.empty() ? "" : ", ") + std::to_string(dim.extent);
            fail("sizes {" + sizes + "} need a stride of " + std::to_string(stride) +
                 " elements in dimension " + std::to_string(d) +
                 ", more than the maximum of 2^31 - 1");
        }
        shape[size_t(d)].stride = int32_t(stride);
        stride *= std::max(shape[size_t(d)].extent, 1);
    }
}

inline std::vector<int> natural_order(size_t n) {
    std::vector<int> order(n);
    for (size_t i = 0; i < n; i++) order[i] = int(i);
    return order;
}

/** The dimensions ordered from smallest to largest stride (ties keep their order). */
inline std::vector<int> storage_order_of(const std::vector<loom_dimension_t> &shape) {
    std::vector<int> order = natural_order(shape.size());
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return std::llabs(shape[size_t(a)].stride) < std::llabs(shape[size_t(b)].stride);
    });
    return order;
}

/** Who releases a device handle, and how, when the last Buffer referring
 * to it goes (Halide's BufferDeviceOwnership). */
enum class DeviceOwnership {
    Allocated,     // made for the buffer (device_malloc, copy_to_device, a pipeline): device_free
    WrappedNative, // the caller's handle (device_wrap_native): detach_native, never freed
    Cropped,       // a crop or slice of another allocation: device_release_crop
    Unmanaged      // someone else's (a wrapped loom_buffer_t): left alone
};

/** One device handle shared by Buffers (copies, translated and transposed
 * views), reference counted through shared_ptr. `raw` is the loom_buffer_t
 * the handle is released through; for a crop it is the one the device
 * interface made the crop for, which some runtimes know crops by, so it
 * lives here at a fixed address. */
struct DeviceAllocation {
    DeviceOwnership ownership;
    loom_buffer_t raw{};
    std::vector<loom_dimension_t> shape;      // raw.dim
    std::shared_ptr<DeviceAllocation> parent; // what a crop points into: kept alive

    DeviceAllocation(const loom_buffer_t &b, DeviceOwnership how) : ownership(how), raw(b) {
        shape.assign(b.dim, b.dim + b.dimensions);
        raw.dim = shape.empty() ? nullptr : shape.data();
    }
    DeviceAllocation(const DeviceAllocation &) = delete;
    DeviceAllocation &operator=(const DeviceAllocation &) = delete;
    ~DeviceAllocation() { release(nullptr); }

    /** Release the handle as its ownership says (once), then the parent. */
    int release(void *user_context) noexcept {
        const loom_device_interface_t *iface = raw.device_interface;
        int result = 0;
        if (raw.device && iface && ownership != DeviceOwnership::Unmanaged) {
            auto free_fn = iface->device_free;
            if (ownership == DeviceOwnership::WrappedNative && iface->detach_native)
                free_fn = iface->detach_native;
            if (ownership == DeviceOwnership::Cropped && iface->device_release_crop)
                free_fn = iface->device_release_crop;
            if (free_fn) result = free_fn(user_context, &raw);
        }
        forget();
        parent.reset();
        return result;
    }
    /** The handle was released elsewhere: never release it here. */
    void forget() {
        ownership = DeviceOwnership::Unmanaged;
        raw.device = 0;
        raw.device_interface = nullptr;
    }
};

/** Collects the messages the runtime reports during one call (passed as
 * its user context). */
struct ErrorCapture {
    std::string text;
    loom_call_context_t context{&capture, this, nullptr, nullptr, nullptr, nullptr, nullptr};
    ErrorCapture() = default;
    ErrorCapture(const ErrorCapture &) = delete;
    ErrorCapture &operator=(const ErrorCapture &) = delete;
    static void capture(loom_call_context_t *c, const char *message) {
        std::string &text = static_cast<ErrorCapture *>(c->user_data)->text;
        if (!text.empty()) text += "\n";
        text += message ? message : "";
    }
};

} // namespace Internal

/** Halide's name for who releases a Buffer's device handle. */
using BufferDeviceOwnership = Internal::DeviceOwnership;

/** A view of one dimension of a Buffer; iterating it gives its coordinates:
 * `for (int y : buf.dim(1))`. */
class BufferDim {
    const loom_dimension_t *d;

public:
    explicit BufferDim(const loom_dimension_t *dim) : d(dim) {}
    int min() const { return d->min; }
    int extent() const { return d->extent; }
    int stride() const { return d->stride; }
    int max() const { return d->min + d->extent - 1; }

    struct iterator {
        int value;
        int operator*() const { return value; }
        iterator &operator++() {
            value++;
            return *this;
        }
        bool operator!=(const iterator &o) const { return value != o.value; }
        bool operator==(const iterator &o) const { return value == o.value; }
    };
    iterator begin() const { return {min()}; }
    iterator end() const { return {min() + std::max(extent(), 0)}; }
};

/** T = void leaves the element type to run time (pass a loom_type_t to the
 * constructors); Dims = AnyDims leaves the dimension count to run time. */
template <typename T = void, int Dims = AnyDims> class Buffer {
    template <typename, int> friend class Buffer;
    template <typename, int> friend class ::loom::Buffer;

    static constexpr bool typed = !std::is_void<T>::value;
    using Elem = typename std::conditional<typed, T, uint8_t>::type;
    using MutableElem = typename std::remove_const<Elem>::type;

    loom_buffer_t buf{};
    std::vector<loom_dimension_t> shape;
    std::shared_ptr<void> allocation; // null when wrapping user memory
    // The device memory buf.device refers to, shared with the Buffers that
    // share it; null until this Buffer is copied or gets device memory
    // through its own methods (a pipeline sets only buf.device).
    mutable std::shared_ptr<Internal::DeviceAllocation> device_ref;

    // Brings device_ref in line with buf.device: a handle a pipeline (or a C
    // call) gave buf becomes this Buffer's to free; a handle released or
    // replaced outside the Buffer is forgotten, never released again.
    void track_device() const {
        if (device_ref && device_ref->raw.device != buf.device) {
            device_ref->forget();
            device_ref.reset();
        }
        if (!device_ref && buf.device)
            device_ref = std::make_shared<Internal::DeviceAllocation>(
                buf, Internal::DeviceOwnership::Allocated);
    }

    // Drops this Buffer's reference to its device memory, releasing it when
    // this was the last. Allocates nothing (it runs in the destructor).
    int drop_device(void *user_context) noexcept {
        int result = 0;
        if (device_ref && device_ref->raw.device != buf.device) {
            device_ref->forget();
            device_ref.reset();
        }
        if (device_ref) {
            if (device_ref.use_count() == 1) result = device_ref->release(user_context);
            device_ref.reset();
        } else if (buf.device && buf.device_interface && buf.device_interface->device_free) {
            result = buf.device_interface->device_free(user_context, &buf);
        }
        buf.device = 0;
        buf.device_interface = nullptr;
        buf.flags &= ~uint64_t(loom_buffer_flag_device_dirty);
        return result;
    }

    // Gives `view` (this Buffer cropped, or sliced at slice_pos of dimension
    // slice_dim; it shares this Buffer's device memory) its own handle into
    // that memory from the device interface, as Halide's device_crop and
    // device_slice do. Its record keeps this Buffer's memory alive.
    template <typename T2, int D2>
    void attach_device_view(Buffer<T2, D2> &view, int slice_dim, int slice_pos) const {
        track_device();
        const std::string what = slice_dim < 0 ? "crop" : "slice";
        const loom_device_interface_t *iface = buf.device_interface;
        if (!iface)
            Internal::fail(what + " of a buffer with a device handle but no device interface");
        if (slice_dim < 0 ? !iface->device_crop : !iface->device_slice)
            Internal::fail(what + " of a buffer with device memory on " +
                           (iface->name ? iface->name : "its device API") +
                           ", whose device interface cannot " + what + " it; call " +
                           "copy_to_host() and device_free() first to " + what +
                           " only the host memory");
        loom_buffer_t shaped = view.buf;
        shaped.device = 0;
        shaped.device_interface = nullptr;
        auto record = std::make_shared<Internal::DeviceAllocation>(
            shaped, Internal::DeviceOwnership::Cropped);
        Internal::ErrorCapture errors;
        loom_buffer_t *src = const_cast<loom_buffer_t *>(&buf);
        int result = slice_dim < 0 ? iface->device_crop(&errors.context, src, &record->raw)
                                   : iface->device_slice(&errors.context, src, slice_dim, slice_pos,
                                                         &record->raw);
        if (result != 0 || !record->raw.device)
            Internal::fail("device_" + what + " failed" +
                           (errors.text.empty() ? " with error " + std::to_string(result)
                                                : ": " + errors.text));
        record->parent = device_ref;
        view.device_ref = std::move(record);
        view.buf.device = view.device_ref->raw.device;
        view.buf.device_interface = view.device_ref->raw.device_interface;
    }

    // Copies device-dirty data back through the device interface (so that
    // host-only programs need no runtime library for it); 0 or an error code.
    int copy_back(void *user_context) const {
        if (!device_dirty()) return 0;
        loom_buffer_t *b = const_cast<loom_buffer_t *>(&buf);
        if (!b->device || !b->device_interface || !b->device_interface->copy_to_host) {
            // Nothing holds newer data: the flag alone was wrong.
            b->flags &= ~uint64_t(loom_buffer_flag_device_dirty);
            return 0;
        }
        return b->device_interface->copy_to_host(user_context, b);
    }
    // Before the host memory is written: copy device-dirty data back, so
    // that neither the write nor the device's data is lost.
    void prepare_host_write() { copy_back(nullptr); }
    std::shared_ptr<Internal::DeviceAllocation> shared_device() const {
        track_device();
        return device_ref;
    }
    void mark_host_dirty() { buf.flags |= loom_buffer_flag_host_dirty; }

    void point_at_shape() {
        buf.dimensions = int32_t(shape.size());
        buf.dim = shape.empty() ? nullptr : shape.data();
    }

    static loom_type_t element_type(loom_type_t given) {
        if constexpr (typed) {
            if (given.bits && !Internal::same_type(given, Internal::type_of<T>()))
                Internal::fail("a Buffer of " + Internal::type_name(Internal::type_of<T>()) +
                               " cannot hold elements of " + Internal::type_name(given));
            return Internal::type_of<T>();
        } else {
            if (!given.bits) Internal::fail("Buffer<void> needs an element type");
            return given;
        }
    }

    static void check_dimension_count(int n) {
        if (Dims != AnyDims && n != Dims)
            Internal::fail("a Buffer of " + std::to_string(Dims) + " dimensions given " +
                           std::to_string(n));
    }

    std::string extents_text() const {
        std::string s = "{";
        for (size_t i = 0; i < shape.size(); i++)
            s += (i ? ", " : "") + std::to_string(shape[i].extent);
        return s + "}";
    }

    void check_dim(int d, const char *method) const {
        if (d < 0 || d >= dimensions())
            Internal::fail(std::string(method) + ": dimension " + std::to_string(d) +
                           " does not exist; the buffer has " + std::to_string(dimensions()) +
                           " dimension" + (dimensions() == 1 ? "" : "s"));
    }

    // A dense shape of these sizes (mins at zero), in the given storage order.
    void set_dense_shape(const std::vector<int> &sizes, const std::vector<int> &order) {
        check_dimension_count(int(sizes.size()));
        shape.assign(sizes.size(), loom_dimension_t{0, 0, 0, 0});
        for (size_t i = 0; i < sizes.size(); i++) {
            if (sizes[i] < 0)
                Internal::fail("the size " + std::to_string(sizes[i]) + " of dimension " +
                               std::to_string(i) + " is negative");
            shape[i].extent = sizes[i];
        }
        Internal::set_dense_strides(shape, order);
        point_at_shape();
    }

    // Offsets in elements of the lowest and one past the highest element.
    void span(int64_t *lo, int64_t *hi) const {
        *lo = 0;
        *hi = 1;
        for (const auto &d : shape) {
            if (d.extent <= 0) {
                *hi = 0;
                return;
            }
            int64_t reach = int64_t(d.extent - 1) * d.stride;
            if (reach < 0)
                *lo += reach;
            else
                *hi += reach;
        }
    }

    /** Bytes allocate() asks for: the span of the elements, 64 bytes past
     * the last (vector loads just past it stay in bounds), rounded up to
     * 64. Sets *lo to the lowest element's offset. Computed with overflow
     * checks: a size that does not fit in a size_t (or a ptrdiff_t) throws
     * BufferError naming the sizes, rather than allocating a wrapped one. */
    size_t checked_allocation_bytes(int64_t *lo) const {
        *lo = 0;
        int64_t hi = 1;
        bool overflow = false;
        for (const auto &d : shape) {
            if (d.extent <= 0) {
                *lo = 0;
                hi = 0;
                overflow = false;
                break;
            }
            int64_t reach = int64_t(d.extent - 1) * d.stride; // |reach| < 2^62
            overflow |= __builtin_add_overflow(reach < 0 ? *lo : hi, reach, reach < 0 ? lo : &hi);
        }
        size_t elem = Internal::bytes_per_element(buf.type);
        size_t bytes = 0;
        if (!overflow) {
            overflow = __builtin_mul_overflow(size_t(uint64_t(hi) - uint64_t(*lo)), elem, &bytes) ||
                       __builtin_add_overflow(bytes, size_t(64 + 63), &bytes);
            bytes = bytes / 64 * 64;
            // Room for allocate_fn's alignment slack, and offsets that fit a ptrdiff_t.
            overflow = overflow || bytes > size_t(INT64_MAX) - 64;
        }
        if (overflow) {
            std::string sizes, strides;
            for (const auto &d : shape) {
                sizes += (sizes.empty() ? "" : ", ") + std::to_string(d.extent);
                strides += (strides.empty() ? "" : ", ") + std::to_string(d.stride);
            }
            Internal::fail("cannot allocate sizes {" + sizes + "} with strides {" + strides +
                           "} of " + std::to_string(elem) + "-byte " +
                           Internal::type_name(buf.type) +
                           " elements: the size in bytes overflows size_t");
        }
        return bytes;
    }

    void init(loom_type_t t, const std::vector<int> &sizes, const std::vector<int> &order,
              void *data) {
        buf = loom_buffer_t{};
        buf.type = element_type(t);
        set_dense_shape(sizes, order);
        if (data) {
            buf.host = static_cast<uint8_t *>(data);
        } else {
            allocate();
        }
        buf.flags = loom_buffer_flag_host_dirty;
    }

    void init(loom_type_t t, const std::vector<int> &sizes, void *data) {
        init(t, sizes, Internal::natural_order(sizes.size()), data);
    }

    void init_shape(loom_type_t t, void *data, int dimensions, const loom_dimension_t *dims) {
        if (dimensions < 0) Internal::fail("a negative dimension count");
        check_dimension_count(dimensions);
        buf = loom_buffer_t{};
        buf.type = element_type(t);
        buf.host = static_cast<uint8_t *>(data);
        buf.flags = loom_buffer_flag_host_dirty;
        shape.assign(dims, dims + dimensions);
        point_at_shape();
    }

    template <typename... Ints> static std::vector<int> sizes_of(int first, Ints... rest) {
        static_assert(Dims == AnyDims || int(sizeof...(rest)) + 1 == Dims,
                      "loom::Runtime::Buffer: wrong number of sizes for its dimension count");
        return std::vector<int>{first, int(rest)...};
    }

    // Coordinates past the last dimension are ignored (Halide reads them
    // against zero strides), so b(0) is the value of a 0-dimensional b.
    int64_t offset_of(const int *pos, int n) const {
        int64_t offset = 0;
        n = std::min(n, dimensions());
        for (int i = 0; i < n; i++)
            offset += int64_t(pos[i] - shape[size_t(i)].min) * shape[size_t(i)].stride;
        return offset;
    }

    // Calls f(pos) at every coordinate, dimension 0 innermost.
    template <typename F> void for_each_coordinate(F &&f) const {
        int n = dimensions();
        std::vector<int> pos(size_t(n) + 1, 0);
        for (int i = 0; i < n; i++) {
            if (shape[size_t(i)].extent <= 0) return;
            pos[size_t(i)] = shape[size_t(i)].min;
        }
        while (true) {
            f(static_cast<const int *>(pos.data()));
            int i = 0;
            for (; i < n; i++) {
                if (++pos[size_t(i)] < shape[size_t(i)].min + shape[size_t(i)].extent) break;
                pos[size_t(i)] = shape[size_t(i)].min;
            }
            if (i == n) return;
        }
    }

    // Calls f(offsets) for every element of this buffer and the others (which
    // have the same extents), offsets in elements from each one's host.
    template <size_t N, typename F>
    void for_each_offsets(const std::array<const loom_dimension_t *, N> &dims, int d,
                          std::array<int64_t, N> offsets, F &f) const {
        if (d < 0) {
            f(offsets);
            return;
        }
        for (int i = 0; i < shape[size_t(d)].extent; i++) {
            for_each_offsets(dims, d - 1, offsets, f);
            for (size_t b = 0; b < N; b++) offsets[b] += dims[b][d].stride;
        }
    }

    void crop_host(int d, int min, int extent) {
        check_dim(d, "crop");
        loom_dimension_t &dim = shape[size_t(d)];
        if (extent < 0 || min < dim.min || int64_t(min) + extent > int64_t(dim.min) + dim.extent)
            Internal::fail("crop of dimension " + std::to_string(d) + " to min " +
                           std::to_string(min) + ", extent " + std::to_string(extent) +
                           " lies outside the buffer's " +
                           Internal::range_text(dim.min, dim.min + dim.extent - 1) +
                           "; a crop must lie inside the buffer");
        if (buf.host)
            buf.host += int64_t(min - dim.min) * dim.stride *
                        int64_t(Internal::bytes_per_element(buf.type));
        dim.min = min;
        dim.extent = extent;
    }

    void slice_host(int d, int pos) {
        if (dimensions() == 0)
            Internal::fail("slice of a 0-dimensional buffer; there is no dimension to remove");
        check_dim(d, "slice");
        loom_dimension_t &dim = shape[size_t(d)];
        if (pos < dim.min || pos > dim.min + dim.extent - 1)
            Internal::fail("slice of dimension " + std::to_string(d) + " at " +
                           std::to_string(pos) + " lies outside the buffer's " +
                           Internal::range_text(dim.min, dim.min + dim.extent - 1));
        if (buf.host)
            buf.host += int64_t(pos - dim.min) * dim.stride *
                        int64_t(Internal::bytes_per_element(buf.type));
        shape.erase(shape.begin() + d);
        point_at_shape();
    }

    template <typename T2, int D2> void check_can_view_as() const {
        if constexpr (!std::is_void<T2>::value) {
            if (!Internal::same_type(buf.type, Internal::type_of<T2>()))
                Internal::fail("cannot view a buffer of " + Internal::type_name(buf.type) + " as " +
                               Internal::type_name(Internal::type_of<T2>()) +
                               "; the element types must be the same");
        }
        if (D2 != AnyDims && dimensions() != D2)
            Internal::fail("cannot view a buffer of " + std::to_string(dimensions()) +
                           " dimensions as one of " + std::to_string(D2));
    }

    template <typename TypeT>
    using IsRuntimeType = typename std::enable_if<std::is_same<TypeT, loom_type_t>::value>::type;

public:
    using ElemType = T;
    using Dimension = BufferDim;

    /** Whether the element type and the dimension count are fixed at
     * compile time, and what they are (Halide's names). For Buffer<void>,
     * static_halide_type() is uint8, as in Halide. */
    static constexpr bool has_static_halide_type = typed;
    static constexpr bool has_static_dimensions = Dims != AnyDims;
    static constexpr loom_type_t static_halide_type() { return Internal::type_of<Elem>(); }
    static constexpr int static_dimensions() { return Dims; }

    /** Whether `other` can be viewed as this kind of Buffer (same element
     * type unless this one is Buffer<void>, same dimension count unless
     * this one has AnyDims); the conversion constructor and as<>() throw
     * BufferError exactly when this is false. */
    template <typename T2, int D2> static bool can_convert_from(const Buffer<T2, D2> &other) {
        if (typed && !Internal::same_type(other.buf.type, Internal::type_of<Elem>())) return false;
        return Dims == AnyDims || other.dimensions() == Dims;
    }
    /** As can_convert_from, throwing BufferError with the reason when it is false. */
    template <typename T2, int D2>
    static void assert_can_convert_from(const Buffer<T2, D2> &other) {
        other.template check_can_view_as<T, Dims>();
    }

    /** An empty buffer (no memory, no dimensions). */
    Buffer() {
        if constexpr (typed) buf.type = Internal::type_of<T>();
        point_at_shape();
    }

    /** Allocate a dense buffer of the given sizes (mins at zero). */
    template <typename... Ints, typename U = T,
              typename = typename std::enable_if<!std::is_void<U>::value &&
                                                 (std::is_integral<Ints>::value && ...)>::type>
    explicit Buffer(int first_size, Ints... other_sizes) {
        init(loom_type_t{}, sizes_of(first_size, other_sizes...), nullptr);
    }
    explicit Buffer(const std::vector<int> &sizes) {
        static_assert(typed, "Buffer<void> needs an element type: Buffer(type, sizes)");
        init(loom_type_t{}, sizes, nullptr);
    }
    /** Buffer<void>: allocate with an element type chosen at run time.
     * (A template, so that a braced list never converts to loom_type_t.) */
    template <typename TypeT, typename = IsRuntimeType<TypeT>>
    Buffer(TypeT type, const std::vector<int> &sizes) {
        init(type, sizes, nullptr);
    }
    template <typename... Ints,
              typename = typename std::enable_if<(std::is_integral<Ints>::value && ...)>::type>
    Buffer(loom_type_t type, int first_size, Ints... other_sizes) {
        init(type, sizes_of(first_size, other_sizes...), nullptr);
    }

    /** Allocate with a storage order: `storage_order` names the dimensions
     * from innermost to outermost in memory ({2, 0, 1} for interleaved x, y, c). */
    Buffer(const std::vector<int> &sizes, const std::vector<int> &storage_order) {
        static_assert(typed, "Buffer<void> needs an element type: Buffer(type, sizes, order)");
        init(loom_type_t{}, sizes, storage_order, nullptr);
    }
    template <typename TypeT, typename = IsRuntimeType<TypeT>>
    Buffer(TypeT type, const std::vector<int> &sizes, const std::vector<int> &storage_order) {
        init(type, sizes, storage_order, nullptr);
    }

    /** Wrap existing dense memory (not owned; it must outlive the Buffer). */
    template <typename... Ints, typename U = T,
              typename = typename std::enable_if<!std::is_void<U>::value &&
                                                 (std::is_integral<Ints>::value && ...)>::type>
    Buffer(Elem *data, int first_size, Ints... other_sizes) {
        init(loom_type_t{}, sizes_of(first_size, other_sizes...), const_cast<MutableElem *>(data));
    }
    Buffer(Elem *data, const std::vector<int> &sizes) {
        static_assert(typed, "Buffer<void> needs an element type: Buffer(type, data, sizes)");
        init(loom_type_t{}, sizes, const_cast<MutableElem *>(data));
    }
    Buffer(loom_type_t type, void *data, const std::vector<int> &sizes) { init(type, sizes, data); }
    /** Wrap existing memory with an explicit shape (min, extent, stride per dimension). */
    Buffer(Elem *data, int dimensions, const loom_dimension_t *dims) {
        init_shape(loom_type_t{}, const_cast<MutableElem *>(data), dimensions, dims);
    }
    Buffer(Elem *data, const std::vector<loom_dimension_t> &dims) {
        init_shape(loom_type_t{}, const_cast<MutableElem *>(data), int(dims.size()), dims.data());
    }
    Buffer(loom_type_t type, void *data, int dimensions, const loom_dimension_t *dims) {
        init_shape(type, data, dimensions, dims);
    }
    Buffer(loom_type_t type, void *data, const std::vector<loom_dimension_t> &dims) {
        init_shape(type, data, int(dims.size()), dims.data());
    }
    /** Wrap a loom_buffer_t's host memory and shape (not owned). Its device
     * handle and dirty flags come along. */
    explicit Buffer(const loom_buffer_t &raw) {
        init_shape(raw.type, raw.host, raw.dimensions, raw.dim);
        buf.device = raw.device;
        buf.device_interface = raw.device_interface;
        buf.flags = raw.flags;
        if (raw.device)
            device_ref = std::make_shared<Internal::DeviceAllocation>(
                buf, Internal::DeviceOwnership::Unmanaged);
    }

    /** A zero-dimensional buffer holding one value. */
    static Buffer make_scalar() {
        static_assert(Dims == AnyDims || Dims == 0, "make_scalar() makes a 0-dimensional buffer");
        static_assert(typed, "Buffer<void>::make_scalar needs a type: make_scalar(type)");
        return Buffer(std::vector<int>{});
    }
    static Buffer make_scalar(loom_type_t type) {
        static_assert(Dims == AnyDims || Dims == 0, "make_scalar() makes a 0-dimensional buffer");
        return Buffer(type, std::vector<int>{});
    }
    /** A zero-dimensional buffer wrapping one value the caller owns. */
    static Buffer make_scalar(Elem *data) {
        static_assert(Dims == AnyDims || Dims == 0, "make_scalar() makes a 0-dimensional buffer");
        static_assert(typed, "make_scalar(data) needs a typed Buffer<T>");
        return Buffer(data, std::vector<int>{});
    }

    /** Allocate width x height x channels with the channels of a pixel
     * adjacent in memory (stride 1 in dimension 2), as image files store them. */
    static Buffer make_interleaved(int width, int height, int channels) {
        static_assert(typed, "Buffer<void>::make_interleaved needs a type");
        return Buffer(std::vector<int>{width, height, channels}, std::vector<int>{2, 0, 1});
    }
    static Buffer make_interleaved(loom_type_t type, int width, int height, int channels) {
        return Buffer(type, std::vector<int>{width, height, channels}, std::vector<int>{2, 0, 1});
    }
    /** Wrap interleaved memory (see make_interleaved). */
    static Buffer make_interleaved(Elem *data, int width, int height, int channels) {
        loom_dimension_t dims[3] = {
            {0, width, channels, 0}, {0, height, width * channels, 0}, {0, channels, 1, 0}};
        return Buffer(data, 3, dims);
    }

    /** A new dense buffer with src's mins, extents and nesting of
     * dimensions in memory (the element type of this Buffer, or src's for
     * Buffer<void>). */
    template <typename T2, int D2>
    static Buffer make_with_shape_of(const Buffer<T2, D2> &src,
                                     void *(*allocate_fn)(size_t) = nullptr,
                                     void (*deallocate_fn)(void *) = nullptr) {
        std::vector<loom_dimension_t> dims = src.shape;
        Internal::set_dense_strides(dims, Internal::storage_order_of(src.shape));
        Buffer result(typed ? Internal::type_of<Elem>() : src.buf.type, nullptr, dims);
        result.allocate(allocate_fn, deallocate_fn);
        return result;
    }

    /** A shallow copy: shares the host and the device memory (and starts
     * with the same dirty flags). */
    Buffer(const Buffer &other)
        : buf(other.buf), shape(other.shape), allocation(other.allocation),
          device_ref(other.shared_device()) {
        point_at_shape();
    }
    Buffer(Buffer &&other) noexcept
        : buf(other.buf), shape(std::move(other.shape)), allocation(std::move(other.allocation)),
          device_ref(std::move(other.device_ref)) {
        point_at_shape();
        other.buf = loom_buffer_t{};
        other.buf.type = buf.type;
        other.shape.clear();
        other.point_at_shape();
    }
    /** Conversion between typed and untyped views of the same memory;
     * checked at run time (BufferError when the type or dimensions differ). */
    template <
        typename T2, int D2,
        typename = typename std::enable_if<!std::is_same<Buffer<T2, D2>, Buffer>::value>::type>
    Buffer(const Buffer<T2, D2> &other)
        : buf(other.buf), shape(other.shape), allocation(other.allocation),
          device_ref(other.shared_device()) {
        static_assert(!std::is_const<T2>::value || std::is_const<T>::value || !typed,
                      "cannot drop const: a Buffer<const T> does not convert to Buffer<T>");
        other.template check_can_view_as<T, Dims>();
        point_at_shape();
    }
    Buffer &operator=(const Buffer &other) {
        if (this != &other) {
            std::shared_ptr<Internal::DeviceAllocation> device = other.shared_device();
            drop_device(nullptr);
            buf = other.buf;
            shape = other.shape;
            allocation = other.allocation;
            device_ref = std::move(device);
            point_at_shape();
        }
        return *this;
    }
    Buffer &operator=(Buffer &&other) noexcept {
        if (this != &other) {
            drop_device(nullptr);
            buf = other.buf;
            shape = std::move(other.shape);
            allocation = std::move(other.allocation);
            device_ref = std::move(other.device_ref);
            point_at_shape();
            other.buf = loom_buffer_t{};
            other.buf.type = buf.type;
            other.shape.clear();
            other.point_at_shape();
        }
        return *this;
    }

    /** Drops this Buffer's references; memory goes with its last user. */
    ~Buffer() { drop_device(nullptr); }

    /** Back to an empty buffer, dropping this reference to the memory. */
    void reset() { *this = Buffer(); }

    bool defined() const { return buf.host != nullptr; }
    /** A bounds query buffer: a shape with neither host nor device memory
     * (a pipeline given one fills in the shape it needs instead of running). */
    bool is_bounds_query() const { return buf.host == nullptr && buf.device == 0; }
    /** Whether this Buffer allocated its host memory (rather than wrapping
     * the caller's). */
    bool owns_host_memory() const { return allocation != nullptr; }
    /** Throw BufferError when the product of the extents times the element
     * size does not fit in 63 bits (what Halide's check_overflow asserts). */
    void check_overflow() const {
        uint64_t bytes = Internal::bytes_per_element(buf.type);
        const uint64_t limit = uint64_t(1) << 63;
        for (const auto &d : shape) {
            uint64_t e = uint64_t(std::max(d.extent, 0));
            if (e != 0 && bytes > (limit - 1) / e)
                Internal::fail("a buffer of " + std::to_string(dimensions()) +
                               " dimensions with extents " + extents_text() + " of " +
                               Internal::type_name(buf.type) +
                               " needs 2^63 bytes or more; the size overflows");
            bytes *= e;
        }
    }
    int dimensions() const { return buf.dimensions; }
    loom_type_t type() const { return buf.type; }
    BufferDim dim(int i) const {
        check_dim(i, "dim");
        return BufferDim(&shape[size_t(i)]);
    }
    int min(int i) const { return dim(i).min(); }
    int extent(int i) const { return dim(i).extent(); }
    int stride(int i) const { return dim(i).stride(); }
    /** Extent of dimension 0, 1 and 2 (1 when the buffer has fewer dimensions). */
    int width() const { return buf.dimensions > 0 ? shape[0].extent : 1; }
    int height() const { return buf.dimensions > 1 ? shape[1].extent : 1; }
    int channels() const { return buf.dimensions > 2 ? shape[2].extent : 1; }
    int left() const { return dim(0).min(); }
    int right() const { return dim(0).max(); }
    int top() const { return dim(1).min(); }
    int bottom() const { return dim(1).max(); }
    int64_t number_of_elements() const {
        int64_t n = 1;
        for (const auto &d : shape) n *= std::max(d.extent, 0);
        return n;
    }
    /** Bytes from the lowest to one past the highest element (strides may
     * leave gaps or be negative). */
    size_t size_in_bytes() const {
        int64_t lo, hi;
        span(&lo, &hi);
        return size_t(hi - lo) * Internal::bytes_per_element(buf.type);
    }
    /** The element with the lowest address, and one past the highest. */
    Elem *begin() const {
        int64_t lo, hi;
        span(&lo, &hi);
        return reinterpret_cast<Elem *>(buf.host +
                                        lo * int64_t(Internal::bytes_per_element(buf.type)));
    }
    Elem *end() const {
        int64_t lo, hi;
        span(&lo, &hi);
        return reinterpret_cast<Elem *>(buf.host +
                                        hi * int64_t(Internal::bytes_per_element(buf.type)));
    }

    /** Is this coordinate inside the buffer? */
    bool contains(const std::vector<int> &pos) const {
        if (int(pos.size()) != dimensions()) return false;
        for (size_t i = 0; i < pos.size(); i++)
            if (pos[i] < shape[i].min || int64_t(pos[i]) >= int64_t(shape[i].min) + shape[i].extent)
                return false;
        return true;
    }
    template <typename... Ints,
              typename = typename std::enable_if<(std::is_integral<Ints>::value && ...)>::type>
    bool contains(Ints... pos) const {
        return contains(std::vector<int>{int(pos)...});
    }

    /** Move the coordinate origin: the element at the old mins is now at these
     * mins. Memory is unchanged. */
    void set_min(const std::vector<int> &mins) {
        if (mins.size() > shape.size())
            Internal::fail("set_min given " + std::to_string(mins.size()) + " mins for " +
                           std::to_string(shape.size()) + " dimensions");
        for (size_t i = 0; i < mins.size(); i++) shape[i].min = mins[i];
    }
    template <typename... Ints> void set_min(int first, Ints... rest) {
        set_min(std::vector<int>{first, int(rest)...});
    }

    /** Shift the coordinates of dimension d by delta (the same memory). */
    void translate(int d, int delta) {
        check_dim(d, "translate");
        shape[size_t(d)].min += delta;
    }
    /** Shift the first delta.size() dimensions. */
    void translate(const std::vector<int> &delta) {
        if (delta.size() > shape.size())
            Internal::fail("translate given " + std::to_string(delta.size()) + " offsets for " +
                           std::to_string(shape.size()) + " dimensions");
        for (size_t i = 0; i < delta.size(); i++) shape[i].min += delta[i];
    }
    Buffer translated(int d, int delta) const {
        Buffer b = *this;
        b.translate(d, delta);
        return b;
    }
    Buffer translated(const std::vector<int> &delta) const {
        Buffer b = *this;
        b.translate(delta);
        return b;
    }

    /** Restrict dimension d to [min, min + extent - 1], which must lie inside it. */
    void crop(int d, int min, int extent) {
        if (buf.device) {
            *this = cropped(d, min, extent);
            return;
        }
        crop_host(d, min, extent);
    }
    /** Restrict the first rect.size() dimensions to {min, extent} each. */
    void crop(const std::vector<std::pair<int, int>> &rect) {
        if (rect.size() > shape.size())
            Internal::fail("crop given " + std::to_string(rect.size()) + " ranges for " +
                           std::to_string(shape.size()) + " dimensions");
        Buffer trial = *this; // all or nothing
        for (size_t i = 0; i < rect.size(); i++)
            trial.crop_host(int(i), rect[i].first, rect[i].second);
        if (buf.device) attach_device_view(trial, -1, 0);
        *this = std::move(trial);
    }
    /** A crop as a new Buffer; with device memory, it gets its own handle
     * into this Buffer's (through the device interface) and keeps it alive. */
    Buffer cropped(int d, int min, int extent) const {
        Buffer b = *this;
        b.crop_host(d, min, extent);
        if (buf.device) attach_device_view(b, -1, 0);
        return b;
    }
    Buffer cropped(const std::vector<std::pair<int, int>> &rect) const {
        Buffer b = *this;
        b.crop(rect);
        return b;
    }

    /** Remove dimension d, keeping the elements at coordinate pos of it
     * (at its min when pos is not given). */
    void slice(int d, int pos) {
        static_assert(Dims == AnyDims,
                      "slice() in place changes the dimension count; use sliced()");
        if (buf.device) {
            *this = sliced(d, pos);
            return;
        }
        slice_host(d, pos);
    }
    void slice(int d) {
        if (dimensions() == 0)
            Internal::fail("slice of a 0-dimensional buffer; there is no dimension to remove");
        slice(d, dim(d).min());
    }
    Buffer<T, (Dims == AnyDims ? AnyDims : Dims - 1)> sliced(int d, int pos) const {
        static_assert(Dims == AnyDims || Dims > 0, "sliced() of a 0-dimensional buffer");
        Buffer<T, AnyDims> b = *this;
        b.slice_host(d, pos);
        if (buf.device) attach_device_view(b, d, pos);
        return b;
    }
    Buffer<T, (Dims == AnyDims ? AnyDims : Dims - 1)> sliced(int d) const {
        if (dimensions() == 0)
            Internal::fail("slice of a 0-dimensional buffer; there is no dimension to remove");
        return sliced(d, dim(d).min());
    }

    /** Add a dimension of extent 1 (min 0) after the last one, with the
     * stride that continues the outermost (Halide's add_dimension). */
    void add_dimension() {
        static_assert(Dims == AnyDims, "add_dimension() changes the dimension count");
        int32_t stride = shape.empty() ? 1 : shape.back().extent * shape.back().stride;
        shape.push_back(loom_dimension_t{0, 1, stride, 0});
        point_at_shape();
    }
    /** Add a dimension of extent 1 (min 0) after the last one, with the
     * given stride in elements (Halide's add_dimension_with_stride). */
    void add_dimension_with_stride(int stride) {
        static_assert(Dims == AnyDims, "add_dimension_with_stride() changes the dimension count");
        add_dimension();
        shape.back().stride = stride;
    }
    /** Insert a dimension of extent 1 at index d, its one coordinate being pos. */
    void embed(int d, int pos = 0) {
        static_assert(Dims == AnyDims,
                      "embed() in place changes the dimension count; use embedded()");
        if (d < 0 || d > dimensions())
            Internal::fail("embed at dimension " + std::to_string(d) + " of a buffer of " +
                           std::to_string(dimensions()) + " dimensions; it must be 0.." +
                           std::to_string(dimensions()));
        add_dimension();
        shape.back().min = pos;
        std::rotate(shape.begin() + d, shape.end() - 1, shape.end());
        point_at_shape();
    }
    Buffer<T, (Dims == AnyDims ? AnyDims : Dims + 1)> embedded(int d, int pos = 0) const {
        Buffer<T, AnyDims> b = *this;
        b.embed(d, pos);
        return b;
    }

    /** Swap dimensions d1 and d2 (the same memory). */
    void transpose(int d1, int d2) {
        check_dim(d1, "transpose");
        check_dim(d2, "transpose");
        std::swap(shape[size_t(d1)], shape[size_t(d2)]);
    }
    /** New dimension i is the old dimension order[i]. */
    void transpose(const std::vector<int> &order) {
        if (order.size() != shape.size())
            Internal::fail("transpose given an order of " + std::to_string(order.size()) +
                           " dimensions for " + std::to_string(shape.size()));
        std::vector<bool> seen(shape.size(), false);
        std::vector<loom_dimension_t> old = shape;
        for (size_t i = 0; i < order.size(); i++) {
            int d = order[i];
            if (d < 0 || d >= int(shape.size()) || seen[size_t(d)])
                Internal::fail("transpose: the order must name each dimension 0.." +
                               std::to_string(int(shape.size()) - 1) + " once");
            seen[size_t(d)] = true;
            shape[i] = old[size_t(d)];
        }
    }
    Buffer transposed(int d1, int d2) const {
        Buffer b = *this;
        b.transpose(d1, d2);
        return b;
    }
    Buffer transposed(const std::vector<int> &order) const {
        Buffer b = *this;
        b.transpose(order);
        return b;
    }

    /** The same memory seen with a static element type and dimension count;
     * BufferError when they are not this buffer's. */
    template <typename T2, int D2 = Dims> Buffer<T2, D2> as() const {
        return Buffer<T2, D2>(*this);
    }
    /** The same memory, read-only. */
    Buffer<typename std::add_const<T>::type, Dims> as_const() const {
        return Buffer<typename std::add_const<T>::type, Dims>(*this);
    }
    /** Another Buffer sharing this one's memory (a shallow copy). */
    Buffer alias() const { return *this; }

    /** Allocate host memory for the current shape (zeroed, 64-byte
     * aligned), dropping this Buffer's reference to any it had. With
     * allocate_fn, memory comes from it and goes back through deallocate_fn. */
    void allocate(void *(*allocate_fn)(size_t) = nullptr, void (*deallocate_fn)(void *) = nullptr) {
        allocation.reset();
        int64_t lo = 0;
        size_t elem = Internal::bytes_per_element(buf.type);
        size_t bytes = checked_allocation_bytes(&lo);
        uint8_t *aligned = nullptr;
        if (allocate_fn) {
            void *p = allocate_fn(bytes + 64);
            if (!p) throw std::bad_alloc();
            aligned =
                reinterpret_cast<uint8_t *>((reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t(63));
            void (*release)(void *) = deallocate_fn ? deallocate_fn : &std::free;
            allocation = std::shared_ptr<void>(p, release);
        } else {
            void *p = std::aligned_alloc(64, bytes);
            if (!p) throw std::bad_alloc();
            aligned = static_cast<uint8_t *>(p);
            allocation = std::shared_ptr<void>(p, [](void *q) { std::free(q); });
        }
        std::memset(aligned, 0, bytes);
        buf.host = aligned - lo * int64_t(elem);
    }
    /** Drop this Buffer's reference to the host memory it allocated (freed
     * with the last reference); the shape stays. Wrapped memory stays. */
    void deallocate() {
        if (!allocation) return;
        allocation.reset();
        buf.host = nullptr;
        buf.flags &= ~uint64_t(loom_buffer_flag_host_dirty);
    }

    /** The element at the mins of all dimensions. */
    Elem *data() const { return reinterpret_cast<Elem *>(buf.host); }

    /** The element at coordinates (x, y, ...) (typed buffers only). */
    template <typename... Ints,
              typename = typename std::enable_if<(std::is_integral<Ints>::value && ...)>::type>
    Elem &operator()(int first, Ints... rest) const {
        static_assert(typed, "element access needs a typed Buffer<T>");
        const int pos[] = {first, int(rest)...};
        return data()[offset_of(pos, int(sizeof...(rest)) + 1)];
    }
    /** The one element of a 0-dimensional buffer. */
    Elem &operator()() const {
        static_assert(typed, "element access needs a typed Buffer<T>");
        return *data();
    }
    Elem &operator()(const int *pos) const {
        static_assert(typed, "element access needs a typed Buffer<T>");
        return data()[offset_of(pos, dimensions())];
    }
    Elem &operator()(const std::vector<int> &pos) const {
        static_assert(typed, "element access needs a typed Buffer<T>");
        return data()[offset_of(pos.data(), int(pos.size()))];
    }

    /** Call f at every coordinate, dimension 0 innermost. f takes one int
     * per dimension (`[](int x, int y)`) or the coordinates as `const int *`. */
    template <typename F> const Buffer &for_each_element(F &&f) const {
        using Call = Internal::CoordinateCall<typename std::remove_reference<F>::type>;
        Call::check(dimensions(), "for_each_element");
        int n = dimensions();
        for_each_coordinate([&](const int *pos) { Call::call(f, pos, n); });
        return *this;
    }

    /** Set every element to v. */
    Buffer &fill(MutableElem v) {
        static_assert(typed, "fill needs a typed Buffer<T>");
        static_assert(!std::is_const<Elem>::value, "fill of a Buffer<const T>");
        for_each_value([v](Elem &e) { e = v; });
        return *this;
    }
    /** Set every element to f(coordinates), f as in for_each_element. */
    template <typename F,
              typename = typename std::enable_if<!std::is_convertible<F, MutableElem>::value>::type>
    Buffer &fill(F &&f) {
        static_assert(typed, "fill needs a typed Buffer<T>");
        static_assert(!std::is_const<Elem>::value, "fill of a Buffer<const T>");
        using Call = Internal::CoordinateCall<typename std::remove_reference<F>::type>;
        Call::check(dimensions(), "fill");
        int n = dimensions();
        prepare_host_write();
        for_each_coordinate([&](const int *pos) { (*this)(pos) = Elem(Call::call(f, pos, n)); });
        mark_host_dirty();
        return *this;
    }

    /** Call f(element, other_element...) for every element of this buffer
     * and the elements at the same place of the other buffers, which must
     * have the same dimensions and extents (their mins may differ). */
    template <typename F, typename... Others>
    const Buffer &for_each_value(F &&f, Others &&...others) const {
        static_assert(typed, "for_each_value needs a typed Buffer<T>");
        constexpr size_t N = sizeof...(Others) + 1;
        int index = 0;
        auto check = [&](const auto &o) {
            index++;
            bool same = o.dimensions() == dimensions();
            for (int i = 0; same && i < dimensions(); i++)
                same = o.shape[size_t(i)].extent == shape[size_t(i)].extent;
            if (!same)
                Internal::fail("for_each_value: buffer " + std::to_string(index) +
                               " does not have the extents of the first");
        };
        (check(others), ...);
        (void)check;
        if (!defined()) return *this;
        for (const auto &d : shape)
            if (d.extent <= 0) return *this;
        std::array<const loom_dimension_t *, N> dims{buf.dim, others.buf.dim...};
        auto bases = std::make_tuple(data(), others.data()...);
        auto visit = [&](const std::array<int64_t, N> &off) {
            apply_at(f, bases, off, std::make_index_sequence<N>());
        };
        for_each_offsets(dims, dimensions() - 1, std::array<int64_t, N>{}, visit);
        return *this;
    }
    template <typename F, typename... Others> Buffer &for_each_value(F &&f, Others &&...others) {
        if (!std::is_const<Elem>::value) prepare_host_write();
        static_cast<const Buffer &>(*this).for_each_value(std::forward<F>(f),
                                                          std::forward<Others>(others)...);
        if (!std::is_const<Elem>::value) mark_host_dirty();
        return *this;
    }

    /** Does every element equal v? */
    bool all_equal(MutableElem v) const {
        static_assert(typed, "all_equal needs a typed Buffer<T>");
        bool equal = true;
        for_each_value([&](const Elem &e) { equal = equal && e == v; });
        return equal;
    }

    /** Copy the elements at the coordinates both buffers have from src;
     * src must have the same element type and dimension count. Device-dirty
     * data of either is copied back to its host memory first. */
    template <typename T2, int D2> Buffer &copy_from(const Buffer<T2, D2> &source) {
        static_assert(!std::is_const<Elem>::value, "copy_from into a Buffer<const T>");
        if (!Internal::same_type(source.buf.type, buf.type))
            Internal::fail("copy_from a buffer of " + Internal::type_name(source.buf.type) +
                           " into one of " + Internal::type_name(buf.type));
        if (source.dimensions() != dimensions())
            Internal::fail("copy_from a buffer of " + std::to_string(source.dimensions()) +
                           " dimensions into one of " + std::to_string(dimensions()));
        source.copy_back(nullptr);
        prepare_host_write();
        Buffer<void, AnyDims> dst = *this;
        Buffer<void, AnyDims> src = source;
        for (int i = 0; i < dimensions(); i++) {
            int lo = std::max(dst.shape[size_t(i)].min, src.shape[size_t(i)].min);
            int hi = std::min(dst.dim(i).max(), src.dim(i).max());
            if (hi < lo) return *this; // no overlap
            dst.crop_host(i, lo, hi - lo + 1);
            src.crop_host(i, lo, hi - lo + 1);
        }
        size_t bytes = Internal::bytes_per_element(buf.type);
        std::array<const loom_dimension_t *, 2> dims{dst.buf.dim, src.buf.dim};
        auto visit = [&](const std::array<int64_t, 2> &off) {
            std::memcpy(dst.buf.host + off[0] * int64_t(bytes),
                        src.buf.host + off[1] * int64_t(bytes), bytes);
        };
        dst.for_each_offsets(dims, dimensions() - 1, std::array<int64_t, 2>{}, visit);
        mark_host_dirty();
        return *this;
    }

    /** A deep copy of the host memory with the same mins, extents and
     * nesting of dimensions; no device memory. A device-dirty Buffer is
     * copied back first, so the copy holds the current data (Halide asserts
     * instead). */
    Buffer<typename std::conditional<typed, MutableElem, void>::type, Dims>
    copy(void *(*allocate_fn)(size_t) = nullptr, void (*deallocate_fn)(void *) = nullptr) const {
        using Out = Buffer<typename std::conditional<typed, MutableElem, void>::type, Dims>;
        Out result = Out::make_with_shape_of(*this, allocate_fn, deallocate_fn);
        result.copy_from(*this);
        return result;
    }
    /** Deep copies with the channels (dimension 2) innermost, or outermost. */
    Buffer<typename std::conditional<typed, MutableElem, void>::type, Dims>
    copy_to_interleaved() const {
        if (dimensions() != 3)
            Internal::fail("copy_to_interleaved of a buffer of " + std::to_string(dimensions()) +
                           " dimensions; it needs 3");
        return copy_in_order({2, 0, 1});
    }
    Buffer<typename std::conditional<typed, MutableElem, void>::type, Dims> copy_to_planar() const {
        return copy_in_order(Internal::natural_order(shape.size()));
    }

    // ---- Device memory (see the file comment for who owns it). Each call
    // returns 0 or a negative loom_error_code_t after reporting a message
    // through user_context (a loom_call_context_t *, or NULL: the global
    // error handler). These need Loom::Runtime.

    bool has_device_allocation() const { return buf.device != 0; }
    /** How the device handle is released when the last Buffer referring to
     * it goes (Allocated when there is none). */
    BufferDeviceOwnership device_ownership() const {
        track_device();
        return device_ref ? device_ref->ownership : BufferDeviceOwnership::Allocated;
    }
    /** Did a kernel write the device memory since the host copy was current? */
    bool device_dirty() const { return (buf.flags & loom_buffer_flag_device_dirty) != 0; }
    bool host_dirty() const { return (buf.flags & loom_buffer_flag_host_dirty) != 0; }
    /** Mark host changes (dirty) or not. A device-dirty Buffer is copied
     * back first, so that neither side's changes are lost. */
    void set_host_dirty(bool dirty = true) {
        if (dirty) copy_back(nullptr);
        buf.flags = dirty ? (buf.flags | loom_buffer_flag_host_dirty)
                          : (buf.flags & ~uint64_t(loom_buffer_flag_host_dirty));
    }
    void set_device_dirty(bool dirty = true) {
        buf.flags = dirty ? (buf.flags | loom_buffer_flag_device_dirty)
                          : (buf.flags & ~uint64_t(loom_buffer_flag_device_dirty));
    }
    /** Copy the device memory back when device-dirty. */
    int copy_to_host(void *user_context = nullptr) {
        return device_dirty() ? loom_copy_to_host(user_context, &buf) : 0;
    }
    /** Allocate device memory when there is none (device_interface: where;
     * NULL: the one the buffer has) and copy the host memory there when it
     * is host-dirty or the device memory is new. */
    int copy_to_device(const loom_device_interface_t *device_interface = nullptr,
                       void *user_context = nullptr) {
        int result = loom_copy_to_device(user_context, &buf, device_interface);
        track_device();
        return result;
    }
    /** Allocate device memory (undefined contents until copied or written). */
    int device_malloc(const loom_device_interface_t *device_interface = nullptr,
                      void *user_context = nullptr) {
        int result = loom_device_malloc(user_context, &buf, device_interface);
        track_device();
        return result;
    }
    /** Wait for the device work queued on this Buffer. */
    int device_sync(void *user_context = nullptr) {
        return buf.device ? loom_device_sync(user_context, &buf) : 0;
    }
    /** Drop this Buffer's reference to its device memory; the memory is
     * released (as its ownership says) when no other Buffer refers to it, so
     * copies and views stay valid. Device-dirty data of this Buffer is lost
     * unless copied back first. */
    int device_free(void *user_context = nullptr) { return drop_device(user_context); }
    /** Drop this Buffer's reference to its device memory (released with the
     * last reference), as Halide's device_deallocate. Unlike device_free it
     * refuses to lose data: a device-dirty Buffer gets an error (returned
     * as loom_error_code_device after reporting it through user_context);
     * copy_to_host() first, or device_free() to drop the data. */
    int device_deallocate(void *user_context = nullptr) {
        if (device_dirty()) {
            loom_report_error(user_context,
                              "device_deallocate of a device-dirty buffer would lose the data "
                              "only the device holds; call copy_to_host() first, or "
                              "device_free() to drop it");
            return loom_error_code_device;
        }
        return drop_device(user_context);
    }
    /** Host memory (allocated when the Buffer has none) and device memory
     * (Halide's device_and_host_malloc; Loom allocates them separately). */
    int device_and_host_malloc(const loom_device_interface_t *device_interface,
                               void *user_context = nullptr) {
        if (!buf.host) allocate();
        return device_malloc(device_interface, user_context);
    }
    /** Release both: device_free(), then deallocate() of the host memory
     * (device_interface: Halide's signature; the buffer's own is used). */
    int device_and_host_free(const loom_device_interface_t *device_interface = nullptr,
                             void *user_context = nullptr) {
        (void)device_interface;
        int result = device_free(user_context);
        deallocate();
        return result;
    }
    /** Use a native handle (cl_mem, CUdeviceptr) the caller keeps owning as
     * this Buffer's device memory; it is detached, never freed. */
    int device_wrap_native(const loom_device_interface_t *device_interface, uint64_t handle,
                           void *user_context = nullptr) {
        track_device();
        int result = loom_device_wrap_native(user_context, &buf, device_interface, handle);
        if (result == 0 && buf.device)
            device_ref = std::make_shared<Internal::DeviceAllocation>(
                buf, Internal::DeviceOwnership::WrappedNative);
        return result;
    }
    /** Forget a handle given to device_wrap_native() (detached when no other
     * Buffer refers to it). */
    int device_detach_native(void *user_context = nullptr) {
        track_device();
        if (!device_ref) return 0;
        if (device_ref->ownership != Internal::DeviceOwnership::WrappedNative) {
            loom_report_error(user_context,
                              "device_detach_native of a buffer whose device memory was not "
                              "wrapped with device_wrap_native; use device_free");
            return loom_error_code_device;
        }
        return drop_device(user_context);
    }

    /** The C view that generated functions take. */
    loom_buffer_t *raw_buffer() { return &buf; }
    const loom_buffer_t *raw_buffer() const { return &buf; }
    /** Pass the Buffer straight to a generated function. A const Buffer
     * converts too (as an input; generated code does not write inputs). */
    operator loom_buffer_t *() const { return const_cast<loom_buffer_t *>(&buf); }

private:
    template <typename F, typename Bases, size_t N, size_t... I>
    static void apply_at(F &f, const Bases &bases, const std::array<int64_t, N> &off,
                         std::index_sequence<I...>) {
        f(std::get<I>(bases)[off[I]]...);
    }

    Buffer<typename std::conditional<typed, MutableElem, void>::type, Dims>
    copy_in_order(const std::vector<int> &order) const {
        using Out = Buffer<typename std::conditional<typed, MutableElem, void>::type, Dims>;
        std::vector<loom_dimension_t> dims = shape;
        Internal::set_dense_strides(dims, order);
        Out result(buf.type, nullptr, dims);
        result.allocate();
        result.copy_from(*this);
        return result;
    }
};

} // namespace Runtime
} // namespace loom

#endif
