// A stand-in for the CUDA driver (libcuda.so.1) for the CUDA runtime tests
// where no GPU exists: the entry points Loom's runtime resolves, with host
// memory as device memory and the test kernels of cuda_runtime_test.cpp as
// C++ functions looked up by name. It is strict where the driver is: memory
// calls and launches need a current context, every copy and kernel access
// must lie inside an allocation, launches respect the kernel's block and
// shared-memory limits (more than 48 KB only after the opt-in), and a module
// must be a cubin (ELF) or PTX naming the kernel. So the runtime's context
// handling, bookkeeping, copies and argument passing are checked for real,
// though no CUDA code runs. Loaded by setting LOOM_CUDA_DRIVER_LIBRARY.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;

enum : CUresult {
    SUCCESS = 0,
    INVALID_VALUE = 1,
    OUT_OF_MEMORY = 2,
    NOT_INITIALIZED = 3,
    INVALID_DEVICE = 101,
    INVALID_IMAGE = 200,
    INVALID_CONTEXT = 201,
    INVALID_HANDLE = 400,
    NOT_FOUND = 500,
    ILLEGAL_ADDRESS = 700,
};

const int default_shared = 48 * 1024, optin_shared = 99 * 1024;

struct Context {
    int device = 0;
    int retained = 0;
};
Context primary;

struct Allocation {
    size_t bytes;
    Context *context;
};

struct Launch {
    unsigned grid[3], block[3], shared;
    void **params;
};

struct Function {
    std::string name;
    std::vector<size_t> params;
    int max_threads = 1024;
    int max_dynamic_shared = default_shared;
    std::function<CUresult(const Launch &)> run;
};

struct Module {
    std::string image;
};

std::mutex mutex;
bool initialized = false;
std::map<CUdeviceptr, Allocation> allocations;
std::map<std::string, Function> kernels;
thread_local std::vector<Context *> current;

bool inside_locked(CUdeviceptr p, size_t bytes) {
    auto it = allocations.upper_bound(p);
    if (it == allocations.begin()) return false;
    --it;
    return p >= it->first && p + bytes <= it->first + it->second.bytes;
}

bool inside(CUdeviceptr p, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    return inside_locked(p, bytes);
}

template <typename T> T param(const Launch &l, int i) {
    T v;
    std::memcpy(&v, l.params[i], sizeof(T));
    return v;
}

// Element i of an int array argument, or nullptr outside its allocation.
template <typename T> T *element(CUdeviceptr base, size_t i) {
    CUdeviceptr p = base + i * sizeof(T);
    return inside(p, sizeof(T)) ? reinterpret_cast<T *>(uintptr_t(p)) : nullptr;
}

unsigned threads(const Launch &l) {
    return l.block[0] * l.block[1] * l.block[2];
}

void add_kernel(const char *name, std::vector<size_t> params,
                std::function<CUresult(const Launch &)> run, int max_threads = 1024) {
    Function f;
    f.name = name;
    f.params = std::move(params);
    f.max_threads = max_threads;
    f.run = std::move(run);
    kernels[name] = std::move(f);
}

// The kernels of cuda_runtime_test.cpp, as their CUDA C computes them.
void add_kernels() {
    auto fill = [](const Launch &l, int value_of) -> CUresult {
        CUdeviceptr out = param<CUdeviceptr>(l, 0);
        for (unsigned b = 0; b < l.grid[0]; b++)
            for (unsigned t = 0; t < l.block[0]; t++) {
                int *e = element<int>(out, b * l.block[0] + t);
                if (!e) return ILLEGAL_ADDRESS;
                *e = value_of < 0 ? param<int>(l, 1) : value_of + int(t);
            }
        return SUCCESS;
    };
    add_kernel("set_value", {8, 4}, [=](const Launch &l) { return fill(l, -1); });
    add_kernel("cached", {8}, [=](const Launch &l) { return fill(l, 40); });
    add_kernel(
        "small_block", {8}, [=](const Launch &l) { return fill(l, 1); }, 64);
    add_kernel("every_kind", {8, 1, 2, 4, 8, 4}, [](const Launch &l) -> CUresult {
        if (l.shared < threads(l) * 4) return ILLEGAL_ADDRESS; // scratch[threadIdx.x]
        CUdeviceptr out = param<CUdeviceptr>(l, 0);
        int64_t values[6] = {param<int8_t>(l, 1),
                             param<int16_t>(l, 2),
                             int64_t(param<int32_t>(l, 3)) + l.block[0] - 1,
                             param<int64_t>(l, 4),
                             int64_t(param<float>(l, 5) * 4.0f),
                             l.block[0]};
        for (int i = 0; i < 6; i++) {
            int64_t *e = element<int64_t>(out, size_t(i));
            if (!e) return ILLEGAL_ADDRESS;
            *e = values[i];
        }
        return SUCCESS;
    });
    add_kernel("big_shared", {8, 4}, [](const Launch &l) -> CUresult {
        int n = param<int>(l, 1);
        if (l.shared < unsigned(n) * 4) return ILLEGAL_ADDRESS;
        int *e = element<int>(param<CUdeviceptr>(l, 0), 0);
        if (!e) return ILLEGAL_ADDRESS;
        *e = n * (n - 1) / 2;
        return SUCCESS;
    });
}

Context *current_context() {
    return current.empty() ? nullptr : current.back();
}

// Checks the device side of a strided copy: `rows` rows of `width` bytes,
// `pitch` apart, in `planes` planes `plane` apart.
bool device_block_ok(CUdeviceptr p, size_t width, size_t pitch, size_t rows, size_t plane,
                     size_t planes) {
    if (pitch < width) return false;
    for (size_t z = 0; z < planes; z++)
        for (size_t y = 0; y < rows; y++)
            if (!inside(p + z * plane + y * pitch, width)) return false;
    return true;
}

} // namespace

extern "C" {

// ---- For the tests: what the stand-in holds. ----
long loom_fake_cuda_live_allocations() {
    std::lock_guard<std::mutex> lock(mutex);
    return long(allocations.size());
}
int loom_fake_cuda_context_depth() {
    return int(current.size());
}

// ---- The driver's entry points. ----
CUresult cuInit(unsigned flags) {
    if (flags != 0) return INVALID_VALUE;
    std::lock_guard<std::mutex> lock(mutex);
    if (!initialized) add_kernels();
    initialized = true;
    return SUCCESS;
}

CUresult cuDriverGetVersion(int *version) {
    *version = 13000;
    return SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
    switch (error) {
    case SUCCESS:
        *name = "CUDA_SUCCESS";
        return SUCCESS;
    case INVALID_VALUE:
        *name = "CUDA_ERROR_INVALID_VALUE";
        return SUCCESS;
    case OUT_OF_MEMORY:
        *name = "CUDA_ERROR_OUT_OF_MEMORY";
        return SUCCESS;
    case NOT_INITIALIZED:
        *name = "CUDA_ERROR_NOT_INITIALIZED";
        return SUCCESS;
    case INVALID_IMAGE:
        *name = "CUDA_ERROR_INVALID_IMAGE";
        return SUCCESS;
    case INVALID_CONTEXT:
        *name = "CUDA_ERROR_INVALID_CONTEXT";
        return SUCCESS;
    case NOT_FOUND:
        *name = "CUDA_ERROR_NOT_FOUND";
        return SUCCESS;
    case ILLEGAL_ADDRESS:
        *name = "CUDA_ERROR_ILLEGAL_ADDRESS";
        return SUCCESS;
    default:
        *name = nullptr;
        return INVALID_VALUE;
    }
}

CUresult cuGetErrorString(CUresult error, const char **text) {
    const char *name = nullptr;
    if (cuGetErrorName(error, &name) != SUCCESS) return INVALID_VALUE;
    *text = "an error of the stand-in driver";
    return SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
    if (!initialized) return NOT_INITIALIZED;
    *count = 1;
    return SUCCESS;
}

CUresult cuDeviceGet(int *device, int ordinal) {
    if (ordinal != 0) return INVALID_DEVICE;
    *device = 0;
    return SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, int device) {
    if (device != 0 || length < 1) return INVALID_VALUE;
    std::strncpy(name, "Loom stand-in GPU", size_t(length));
    name[length - 1] = '\0';
    return SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
    if (device != 0) return INVALID_DEVICE;
    switch (attribute) {
    case 1:
        *value = 1024;
        break; // max threads per block
    case 2:
    case 3:
        *value = 1024;
        break; // max block x, y
    case 4:
        *value = 64;
        break; // max block z
    case 5:
        *value = 2147483647;
        break; // max grid x
    case 6:
    case 7:
        *value = 65535;
        break; // max grid y, z
    case 8:
        *value = default_shared;
        break; // shared per block
    case 75:
        *value = 9;
        break; // capability major
    case 76:
        *value = 0;
        break; // capability minor
    case 97:
        *value = optin_shared;
        break; // shared per block, opt-in
    default:
        return INVALID_VALUE;
    }
    return SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) {
    if (device != 0) return INVALID_DEVICE;
    *bytes = size_t(1) << 30;
    return SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(Context **context, int device) {
    if (!initialized) return NOT_INITIALIZED;
    if (device != 0) return INVALID_DEVICE;
    primary.retained++;
    *context = &primary;
    return SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(int device) {
    if (device != 0 || primary.retained == 0) return INVALID_VALUE;
    primary.retained--;
    return SUCCESS;
}

CUresult cuCtxPushCurrent_v2(Context *context) {
    if (!context) return INVALID_CONTEXT;
    current.push_back(context);
    return SUCCESS;
}

CUresult cuCtxPopCurrent_v2(Context **context) {
    if (current.empty()) return INVALID_CONTEXT;
    if (context) *context = current.back();
    current.pop_back();
    return SUCCESS;
}

CUresult cuCtxGetDevice(int *device) {
    if (!current_context()) return INVALID_CONTEXT;
    *device = current_context()->device;
    return SUCCESS;
}

CUresult cuCtxSynchronize() {
    return current_context() ? SUCCESS : INVALID_CONTEXT;
}

CUresult cuStreamSynchronize(void *) {
    return current_context() ? SUCCESS : INVALID_CONTEXT;
}

CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
    if (!current_context()) return INVALID_CONTEXT;
    if (bytes == 0) return INVALID_VALUE;
    void *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!p) return OUT_OF_MEMORY;
    std::lock_guard<std::mutex> lock(mutex);
    *pointer = CUdeviceptr(uintptr_t(p));
    allocations[*pointer] = Allocation{bytes, current_context()};
    return SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
    if (!current_context()) return INVALID_CONTEXT;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = allocations.find(pointer);
    if (it == allocations.end()) return INVALID_VALUE;
    std::free(reinterpret_cast<void *>(uintptr_t(pointer)));
    allocations.erase(it);
    return SUCCESS;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *bytes, CUdeviceptr pointer) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!inside_locked(pointer, 1)) return NOT_FOUND;
    auto it = --allocations.upper_bound(pointer);
    if (base) *base = it->first;
    if (bytes) *bytes = it->second.bytes;
    return SUCCESS;
}

CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr pointer) {
    std::lock_guard<std::mutex> lock(mutex);
    if (attribute != 1) return INVALID_VALUE;
    if (!inside_locked(pointer, 1)) return INVALID_VALUE;
    Context *c = (--allocations.upper_bound(pointer))->second.context;
    std::memcpy(data, &c, sizeof(c));
    return SUCCESS;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, void *) {
    if (!current_context()) return INVALID_CONTEXT;
    if (!inside(dst, bytes)) return INVALID_VALUE;
    std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)), src, bytes);
    return SUCCESS;
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, void *) {
    if (!current_context()) return INVALID_CONTEXT;
    if (!inside(src, bytes)) return INVALID_VALUE;
    std::memcpy(dst, reinterpret_cast<const void *>(uintptr_t(src)), bytes);
    return SUCCESS;
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, void *) {
    if (!current_context()) return INVALID_CONTEXT;
    if (!inside(dst, bytes) || !inside(src, bytes)) return INVALID_VALUE;
    std::memmove(reinterpret_cast<void *>(uintptr_t(dst)),
                 reinterpret_cast<const void *>(uintptr_t(src)), bytes);
    return SUCCESS;
}

struct Memcpy3D {
    size_t srcXInBytes, srcY, srcZ, srcLOD;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    void *srcArray, *reserved0;
    size_t srcPitch, srcHeight;
    size_t dstXInBytes, dstY, dstZ, dstLOD;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    void *dstArray, *reserved1;
    size_t dstPitch, dstHeight;
    size_t WidthInBytes, Height, Depth;
};

struct Memcpy2D {
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    void *srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    void *dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
};

CUresult cuMemcpy3DAsync_v2(const Memcpy3D *c, void *) {
    if (!current_context()) return INVALID_CONTEXT;
    if (c->srcXInBytes || c->srcY || c->srcZ || c->srcLOD || c->dstXInBytes || c->dstY || c->dstZ ||
        c->dstLOD || c->srcArray || c->dstArray || c->reserved0 || c->reserved1)
        return INVALID_VALUE; // the runtime uses none of these
    if (c->srcHeight < c->Height || c->dstHeight < c->Height) return INVALID_VALUE;
    const bool src_dev = c->srcMemoryType == 2, dst_dev = c->dstMemoryType == 2;
    size_t src_plane = c->srcPitch * c->srcHeight, dst_plane = c->dstPitch * c->dstHeight;
    if (c->srcPitch < c->WidthInBytes || c->dstPitch < c->WidthInBytes) return INVALID_VALUE;
    if (src_dev && !device_block_ok(c->srcDevice, c->WidthInBytes, c->srcPitch, c->Height,
                                    src_plane, c->Depth))
        return INVALID_VALUE;
    if (dst_dev && !device_block_ok(c->dstDevice, c->WidthInBytes, c->dstPitch, c->Height,
                                    dst_plane, c->Depth))
        return INVALID_VALUE;
    auto *src = src_dev ? reinterpret_cast<const uint8_t *>(uintptr_t(c->srcDevice))
                        : static_cast<const uint8_t *>(c->srcHost);
    auto *dst = dst_dev ? reinterpret_cast<uint8_t *>(uintptr_t(c->dstDevice))
                        : static_cast<uint8_t *>(c->dstHost);
    for (size_t z = 0; z < c->Depth; z++)
        for (size_t y = 0; y < c->Height; y++)
            std::memmove(dst + z * dst_plane + y * c->dstPitch,
                         src + z * src_plane + y * c->srcPitch, c->WidthInBytes);
    return SUCCESS;
}

CUresult cuMemcpy2DAsync_v2(const Memcpy2D *c, void *stream) {
    if (c->srcXInBytes || c->srcY || c->dstXInBytes || c->dstY || c->srcArray || c->dstArray)
        return INVALID_VALUE;
    Memcpy3D d{};
    d.srcMemoryType = c->srcMemoryType;
    d.srcHost = c->srcHost;
    d.srcDevice = c->srcDevice;
    d.srcPitch = c->srcPitch;
    d.srcHeight = c->Height;
    d.dstMemoryType = c->dstMemoryType;
    d.dstHost = c->dstHost;
    d.dstDevice = c->dstDevice;
    d.dstPitch = c->dstPitch;
    d.dstHeight = c->Height;
    d.WidthInBytes = c->WidthInBytes;
    d.Height = c->Height;
    d.Depth = 1;
    return cuMemcpy3DAsync_v2(&d, stream);
}

CUresult cuModuleLoadDataEx(Module **module, const void *image, unsigned, int *, void **) {
    if (!current_context()) return INVALID_CONTEXT;
    const char *text = static_cast<const char *>(image);
    std::string data;
    if (std::memcmp(text,
                    "\x7f"
                    "ELF",
                    4) == 0) {
        // A cubin (64-bit ELF): its section headers come last, so they end it.
        uint64_t section_headers = 0;
        uint16_t entry_size = 0, entries = 0;
        std::memcpy(&section_headers, text + 0x28, 8);
        std::memcpy(&entry_size, text + 0x3A, 2);
        std::memcpy(&entries, text + 0x3C, 2);
        uint64_t size = section_headers + uint64_t(entry_size) * entries;
        if (size < 64 || size > (uint64_t(1) << 28)) return INVALID_IMAGE;
        data.assign(text, size_t(size));
    } else if (std::strstr(text, ".version") && std::strstr(text, ".entry")) {
        data = text; // PTX
    } else {
        return INVALID_IMAGE;
    }
    *module = new Module{data};
    return SUCCESS;
}

CUresult cuModuleUnload(Module *module) {
    if (!current_context()) return INVALID_CONTEXT;
    delete module;
    return SUCCESS;
}

CUresult cuModuleGetFunction(Function **function, Module *module, const char *name) {
    if (!current_context()) return INVALID_CONTEXT;
    auto it = kernels.find(name);
    if (it == kernels.end()) return NOT_FOUND;
    // The compiled program must have the kernel, under its unmangled name.
    if (module->image.find(name) == std::string::npos) return NOT_FOUND;
    *function = &it->second;
    return SUCCESS;
}

CUresult cuFuncGetAttribute(int *value, int attribute, Function *f) {
    switch (attribute) {
    case 0:
        *value = f->max_threads;
        return SUCCESS;
    case 1:
    case 3:
        *value = 0;
        return SUCCESS; // static shared, local bytes
    case 4:
        *value = 32;
        return SUCCESS; // registers
    case 8:
        *value = f->max_dynamic_shared;
        return SUCCESS;
    default:
        return INVALID_VALUE;
    }
}

CUresult cuFuncSetAttribute(Function *f, int attribute, int value) {
    if (attribute != 8 || value < 0 || value > optin_shared) return INVALID_VALUE;
    f->max_dynamic_shared = value;
    return SUCCESS;
}

CUresult cuFuncGetParamInfo(Function *f, size_t index, size_t *offset, size_t *bytes) {
    if (index >= f->params.size()) return INVALID_VALUE;
    size_t at = 0;
    for (size_t i = 0; i <= index; i++) {
        size_t size = f->params[i];
        at = (at + size - 1) / size * size;
        if (i < index) at += size;
    }
    *offset = at;
    if (bytes) *bytes = f->params[index];
    return SUCCESS;
}

CUresult cuLaunchKernel(Function *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, void *, void **params,
                        void **extra) {
    if (!current_context()) return INVALID_CONTEXT;
    if (extra || (!params && !f->params.empty())) return INVALID_VALUE;
    if (!gx || !gy || !gz || !bx || !by || !bz || bz > 64 || gy > 65535 || gz > 65535)
        return INVALID_VALUE;
    if (uint64_t(bx) * by * bz > uint64_t(f->max_threads)) return INVALID_VALUE;
    if (int(shared) > f->max_dynamic_shared) return INVALID_VALUE;
    Launch l{{gx, gy, gz}, {bx, by, bz}, shared, params};
    return f->run(l);
}

} // extern "C"
